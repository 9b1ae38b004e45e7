// SPDX-License-Identifier: MIT
// A helper function that takes a __local pointer, called in a loop and once more with a
// constant stride; the loop's stride is a kernel argument (--arg stride=N).
static float at(__local const float *p, int stride, int i)
{
	return p[i * stride];
}

__kernel void helper(__global float *out, int stride)
{
	__local float buf[32 * 33];
	int t = get_local_id(0);
	for (int k = 0; k < 33; k++)
		buf[k * 32 + t] = k;
	barrier(CLK_LOCAL_MEM_FENCE);
	float s = 0;
	for (int k = 0; k < 2; k++)
		s += at(buf, stride, t);
	out[t] = s + at(buf, 2, t);
}
