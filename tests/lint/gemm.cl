// SPDX-License-Identifier: MIT
// Tiled matrix multiply (the shape of Cedric Nugteren's "myGEMM2": a TS x TS work-group, two
// __local tiles, a loop over K), here written for the test suite: every access conflict-free
// with 32 lanes per sub-group. With -DTRANSPOSED_B the B tile is read along a column.
#ifndef TS
#define TS 32
#endif

__kernel void gemm(const int M, const int N, const int K, const __global float *A,
		   const __global float *B, __global float *C)
{
	const int row = get_local_id(0), col = get_local_id(1);
	const int grow = TS * get_group_id(0) + row, gcol = TS * get_group_id(1) + col;
	__local float Asub[TS][TS];
	__local float Bsub[TS][TS];
	float acc = 0.0f;
	for (int t = 0; t < K / TS; t++) {
		const int trow = TS * t + row, tcol = TS * t + col;
		Asub[col][row] = A[tcol * M + grow];
		Bsub[col][row] = B[gcol * K + trow];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < TS; k++)
#ifdef TRANSPOSED_B
			acc += Asub[k][row] * Bsub[row][k];
#else
			acc += Asub[k][row] * Bsub[col][k];
#endif
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	C[gcol * M + grow] = acc;
}
