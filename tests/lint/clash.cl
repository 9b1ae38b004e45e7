// SPDX-License-Identifier: MIT
/* Accesses of one array whose fixes clash, and a 1-D tile indexed as rows (for lint). */
__kernel void clash(__global float *out)
{
	__local float tile[32][32];
	int tx = get_local_id(0), ty = get_local_id(1);
	tile[ty][tx] = tx;
	barrier(CLK_LOCAL_MEM_FENCE);
	float col = tile[tx][ty];
	float diag = tile[tx][tx];
	out[ty * 32 + tx] = col + diag;
}

__kernel void flat(__global float *out)
{
	__local float s[32 * 32];
	int tx = get_local_id(0), ty = get_local_id(1);
	s[ty * 32 + tx] = tx;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[ty * 32 + tx] = s[tx * 32 + ty]; // clbanks: ignore
}
