// SPDX-License-Identifier: MIT
// Two __local arrays and a dynamic buffer that together pass a 48 KiB device's local memory
// (12288 + 16 floats: 49216 bytes, and the buffer's --arg size): conflict-free, but it cannot
// be launched there.
__kernel void toolarge(__global float *out, __local float *dyn)
{
	__local float a[12288];
	__local float b[16];
	int l = get_local_id(0);
	a[l] = 1.0f;
	b[l & 15] = 2.0f;
	dyn[l] = 3.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = a[l] + b[l & 15] + dyn[l];
}
