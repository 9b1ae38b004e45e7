// SPDX-License-Identifier: MIT
// Work-efficient (Blelloch) exclusive scan of n = 2 x the work-group size elements (Harris,
// Sengupta and Owens, GPU Gems 3, chapter 39), with -DPAD the classic padding of one word
// every NUM_BANKS words (n >> LOG_NUM_BANKS) against bank conflicts.
#define LOG_NUM_BANKS 5
#ifdef PAD
#define OFF(i) ((i) >> LOG_NUM_BANKS)
#else
#define OFF(i) 0
#endif

__kernel void scan(__global float *g_odata, __global const float *g_idata, __local float *temp,
		   int n)
{
	int thid = get_local_id(0);
	int offset = 1;
	int ai = thid, bi = thid + n / 2;
	temp[ai + OFF(ai)] = g_idata[ai];
	temp[bi + OFF(bi)] = g_idata[bi];
	for (int d = n >> 1; d > 0; d >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (thid < d) {
			int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
			a += OFF(a);
			b += OFF(b);
			temp[b] += temp[a];
		}
		offset *= 2;
	}
	if (thid == 0)
		temp[n - 1 + OFF(n - 1)] = 0;
	for (int d = 1; d < n; d *= 2) {
		offset >>= 1;
		barrier(CLK_LOCAL_MEM_FENCE);
		if (thid < d) {
			int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
			a += OFF(a);
			b += OFF(b);
			float t = temp[a];
			temp[a] = temp[b];
			temp[b] += t;
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	g_odata[ai] = temp[ai + OFF(ai)];
	g_odata[bi] = temp[bi + OFF(bi)];
}
