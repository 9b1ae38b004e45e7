// SPDX-License-Identifier: MIT
// Transposes of wide elements: a double tile (8-byte lanes, half sub-groups per pass on the
// H200) and a float4 tile (16-byte lanes, quarter sub-groups per pass).
__kernel void doubles(__global const double *in, __global double *out)
{
	__local double tile[32][32];
	int x = get_local_id(0), y = get_local_id(1);
	tile[y][x] = in[y * 32 + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[y * 32 + x] = tile[x][y];
}

__kernel void vectors(__global const float4 *in, __global float4 *out)
{
	__local float4 tile[16][16];
	int x = get_local_id(0), y = get_local_id(1);
	tile[y][x] = in[y * 16 + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[y * 16 + x] = tile[x][y];
}
