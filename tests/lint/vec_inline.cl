// SPDX-License-Identifier: MIT
// float4 tiles stored and read through C99 inline helpers behind a macro, as BLAS kernels are
// built when the host defines USE_INLINE for a device whose compiler takes the keyword. The
// read gives the 8 lanes of each row of the work-group one element (broadcast).
#ifdef USE_INLINE
#define HELPER inline
#else
#define HELPER
#endif
#define WG 8
#define ROW 32

HELPER void StoreTile(__local float4 *t, __global const float4 *g, int x, int y)
{
	t[x * ROW + y] = g[y * WG + x];
}

HELPER float4 ReadTile(__local const float4 *t, int y, int k)
{
	return t[k * ROW + y];
}

__kernel void tiles(__global const float4 *g, __global float4 *out)
{
	__local float4 t[WG * ROW];
	int x = get_local_id(0), y = get_local_id(1);
	StoreTile(t, g, x, y);
	barrier(CLK_LOCAL_MEM_FENCE);
	float4 acc = (float4)(0.0f);
	for (int k = 0; k < 4; k++)
		acc += ReadTile(t, y, k);
	out[y * WG + x] = acc;
}
