// SPDX-License-Identifier: MIT
// async_work_group_copy writes __local memory too: 64 floats copied in by 32 work-items, and
// 32 uints copied out of a __local array.
__kernel void async(__global const float *in, __global uint *out)
{
	__local float t[64];
	__local uint u[32];
	event_t e = async_work_group_copy(t, in, 64, 0);
	wait_group_events(1, &e);
	int l = get_local_id(0);
	u[l] = (uint)t[2 * l];
	barrier(CLK_LOCAL_MEM_FENCE);
	e = async_work_group_copy(out, u, 32, 0);
	wait_group_events(1, &e);
}
