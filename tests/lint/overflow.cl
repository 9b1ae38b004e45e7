// SPDX-License-Identifier: MIT
// A store one row past the end of its array (issue 31, point 8): lanes 31 and up write past
// line[63]; lint names the bytes that overflow, not only the range the lanes touch.
__kernel void overflow(__global float *out)
{
	__local float line[64];
	int l = get_local_id(0);
	line[l] = (float)l;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = line[63 - l];
	line[l + 33] = 0.0f;
}
