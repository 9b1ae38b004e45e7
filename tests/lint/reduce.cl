// SPDX-License-Identifier: MIT
// Three classic work-group sums (Harris, "Optimizing parallel reduction in CUDA"): interleaved
// addressing with a divergent tid % (2s) test, interleaved addressing with a strided index
// (bank conflicts), and sequential addressing. The strided one takes its scratch memory as a
// dynamic __local argument.
#define N 256

__kernel void interleaved(__global const float *in, __global float *out)
{
	__local float sdata[N];
	unsigned tid = get_local_id(0);
	sdata[tid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = 1; s < get_local_size(0); s *= 2) {
		if (tid % (2 * s) == 0)
			sdata[tid] += sdata[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		out[get_group_id(0)] = sdata[0];
}

__kernel void strided(__global const float *in, __global float *out, __local float *sdata)
{
	unsigned tid = get_local_id(0);
	sdata[tid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = 1; s < get_local_size(0); s *= 2) {
		int index = 2 * s * tid;
		if (index < get_local_size(0))
			sdata[index] += sdata[index + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		out[get_group_id(0)] = sdata[0];
}

__kernel void sequential(__global const float *in, __global float *out)
{
	__local float sdata[N];
	unsigned tid = get_local_id(0);
	sdata[tid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (tid < s)
			sdata[tid] += sdata[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		out[get_group_id(0)] = sdata[0];
}
