// SPDX-License-Identifier: MIT
// An inclusive scan of one work-group in the style of benchmark suites: every __local access
// is in an inline helper, on a __local pointer argument of 2 x work-group-size words (the
// first half zeros, so that lmem[idx - i] needs no test). --arg lmem=BYTES gives its size.
inline uint scanLocal(uint val, __local uint *lmem)
{
	int idx = get_local_id(0);
	lmem[idx] = 0;
	idx += get_local_size(0);
	lmem[idx] = val;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 1; i < get_local_size(0); i *= 2) {
		uint t = lmem[idx - i];
		barrier(CLK_LOCAL_MEM_FENCE);
		lmem[idx] = lmem[idx] + t;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	return lmem[idx - 1];
}

__kernel void scan(__global uint *data, __local uint *lmem)
{
	uint l = get_local_id(0);
	data[l] = scanLocal(data[l], lmem);
}
