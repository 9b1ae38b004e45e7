// SPDX-License-Identifier: MIT
// Loops too long to simulate: lint stops with an error that asks for bounds, never hangs.
__kernel void busy(__global float *out)
{
	__local float a[1024];
	float s = 0;
	for (int i = 0; i < 100000000; i++)
		s += a[i & 1023];
	out[0] = s;
}

__kernel void spin(__global int *out)
{
	int s = 0;
	for (int i = 0; i < 100000000; i++)
		s += i;
	out[0] = s;
}
