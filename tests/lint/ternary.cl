// SPDX-License-Identifier: MIT
// An index chosen by c ? a : b on values read from memory, as a binary search over pivots
// steps (clang emits each ?: as a branch and a phi, not a select), and one chosen by the
// work-item's own id.
__kernel void ternary(__global const float *g, __global float *o)
{
	__local float s[1024];
	int l = get_local_id(0);
	float e = g[l];
	int idx = 511;
	for (int jump = 256; jump >= 1; jump /= 2)
		idx = (e < g[idx]) ? idx - jump : idx + jump;
	s[idx] = e;
	int side = (l & 1) ? l : l + 32;
	s[side] = e;
	barrier(CLK_LOCAL_MEM_FENCE);
	o[l] = s[l];
}
