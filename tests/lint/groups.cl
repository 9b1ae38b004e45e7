// SPDX-License-Identifier: MIT
// Indices from the number of work-groups and the global size (--global), and a float
// argument (--arg alpha=0.5 is accepted; floats are unknown to lint anyway).
__kernel void groups(__global float *g, float alpha)
{
	__local float s[32 * 8];
	int x = get_local_id(0);
	s[x * get_num_groups(0)] = alpha;
	barrier(CLK_LOCAL_MEM_FENCE);
	g[x] = s[x * (get_global_size(0) / 128)];
}
