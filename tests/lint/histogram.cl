// SPDX-License-Identifier: MIT
// A 256-bin histogram with local atomics (data-dependent bins), and a kernel whose branch
// depends on the data (assumed), with a store on the side not simulated.
#define ITEMS 4

__kernel void histogram(__global const uchar *data, __global uint *out)
{
	__local uint hist[256];
	int t = get_local_id(0);
	hist[t] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < ITEMS; i++)
		atomic_inc(&hist[data[get_global_id(0) * ITEMS + i]]);
	atomic_add(&hist[t & 15], 1);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_group_id(0) * 256 + t] = hist[t];
}

__kernel void clipped(__global const uchar *data, __global uint *out)
{
	__local uint hist[256];
	__local uint over[64];
	int t = get_local_id(0);
	uchar v = data[get_global_id(0)];
	hist[t] = 0;
	if (v < 200)
		hist[t] += v;
	else
		over[t & 63] = v;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[t] = hist[t] + over[hist[t] & 63];
}
