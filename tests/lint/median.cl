// SPDX-License-Identifier: MIT
// A median filter's compare-exchange as a macro (issue 31, point 9): every access of one
// SWAP has the macro's line and column. Its first store, s[l], is conflict-free; its second,
// s[l * 32], is 32-way; lint tells them apart (1 of 2, 2 of 2, in the order they run).
#define SWAP(a, b) { float t = a; a = min(a, b); b = max(t, b); }

__kernel void median(__global const float *in, __global float *out)
{
	__local float s[32 * 32];
	int l = get_local_id(0);
	for (int i = 0; i < 32; i++)
		s[i * 32 + l] = in[i * 32 + l];
	barrier(CLK_LOCAL_MEM_FENCE);
	SWAP(s[l], s[l * 32]);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = s[l];
}
