// SPDX-License-Identifier: MIT
// A tiled matrix product whose inner loop is an inline helper over 1-D __local tiles indexed
// r * TS + c, as tuned GEMM libraries write it when told to use the inline keyword. Lane x
// of a sub-group is the tile's row; Bs is read along a row of the tile per lane (stride TS).
#define TS 32

inline float MultiplyAccumulate(__local const float *As, __local const float *Bs, int row)
{
	float acc = 0.0f;
	for (int k = 0; k < TS; k++) {
		float a = As[k * TS + row];
		float b = Bs[row * TS + k];
		acc += a * b;
	}
	return acc;
}

__kernel void gemm(__global const float *A, __global const float *B, __global float *C)
{
	__local float As[TS * TS], Bs[TS * TS];
	int row = get_local_id(0), col = get_local_id(1);
	As[col * TS + row] = A[col * TS + row];
	Bs[col * TS + row] = B[col * TS + row];
	barrier(CLK_LOCAL_MEM_FENCE);
	C[col * TS + row] = MultiplyAccumulate(As, Bs, row);
}
