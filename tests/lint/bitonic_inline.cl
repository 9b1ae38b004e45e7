// SPDX-License-Identifier: MIT
// A bitonic sort of 64 keys in __local memory by 32 work-items, its compare-and-swap in a C99
// inline helper that takes __local pointers (at -O0 clang emits no body for it). HELPER is
// "inline" unless -D says otherwise ("static inline", or empty for a plain function).
#ifndef HELPER
#define HELPER inline
#endif
#define N 64

HELPER void ComparatorLocal(__local uint *keyA, __local uint *keyB, uint dir)
{
	uint a = *keyA;
	uint b = *keyB;
	if ((a > b) == dir) {
		*keyA = b;
		*keyB = a;
	}
}

__kernel void bitonic(__global uint *d)
{
	__local uint s[N];
	uint l = get_local_id(0);
	s[l] = d[l];
	s[l + N / 2] = d[l + N / 2];
	for (uint size = 2; size < N; size <<= 1) {
		uint dir = (l & (size / 2)) != 0;
		for (uint stride = size / 2; stride > 0; stride >>= 1) {
			barrier(CLK_LOCAL_MEM_FENCE);
			uint pos = 2 * l - (l & (stride - 1));
			ComparatorLocal(&s[pos], &s[pos + stride], dir);
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	d[l] = s[l];
	d[l + N / 2] = s[l + N / 2];
}
