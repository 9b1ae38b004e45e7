// SPDX-License-Identifier: MIT
// Tiled matrix multiply for clbanks' tests, in the manner of a templated CUDA library kernel: a
// BM x BN block tile of BM x BN threads, As and Bs tiles in shared memory through an inlined
// tile view of a header (inc/smem_tile.cuh), a loop over K. As is stored with the warp along
// its row and read along k by a warp that shares k (conflict-free); Bs is stored with the
// warp's threads along k, a stride of BN floats (a 32-way conflict, which lint finds).
#include <cuda_runtime.h>
#include "inc/smem_tile.cuh"

template <int BM, int BN, int BK>
__global__ void gemm_tiled(int M, int N, int K, const float *A, const float *B, float *C)
{
	__shared__ float as_mem[BK * BM];
	__shared__ float bs_mem[BK * BN];
	const SmemTile<float, BK, BM> As(as_mem);
	const SmemTile<float, BK, BN> Bs(bs_mem);
	const int tm = threadIdx.x, tn = threadIdx.y;
	const int gm = blockIdx.x * BM + tm, gn = blockIdx.y * BN + tn;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += BK) {
		As.put(tn, tm, A[gm * K + k0 + tn]);
		Bs.put(tm, tn, B[(k0 + tm) * N + gn]);
		__syncthreads();
		for (int k = 0; k < BK; ++k)
			acc += As.at(k, tm) * Bs.at(k, tn);
		__syncthreads();
	}
	C[gm * N + gn] = acc;
}

template __global__ void gemm_tiled<32, 32, 32>(int, int, int, const float *, const float *,
						 float *);
