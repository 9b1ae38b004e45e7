// SPDX-License-Identifier: MIT
// Lanes that pick one of two __local arrays (their placement is the driver's: unknown), and a
// store that only work-group 1 makes (not executed by group 0; --group 1,0,0 reaches it).
__kernel void objects(__global float *out)
{
	__local float a[64];
	__local float b[64];
	int t = get_local_id(0);
	__local float *p = (t & 1) ? a : b;
	p[t] = t;
	if (get_group_id(0) == 1)
		a[(t * 2) % 64] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[t] = a[t] + b[t];
}
