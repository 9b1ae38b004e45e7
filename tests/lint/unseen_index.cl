// SPDX-License-Identifier: MIT
// Indices from calls lint does not evaluate: a built-in it does not model (popcount), a
// function of another file (Pick), and a float read from memory for comparison.
int Pick(int x);

__kernel void unseen_index(__global const float *g, __global float *o)
{
	__local float s[64];
	int l = get_local_id(0);
	s[(int)floor(g[l]) & 63] = 1.0f;
	s[popcount(l) & 63] = 2.0f;
	s[Pick(l) & 63] = 3.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	o[l] = s[l];
}
