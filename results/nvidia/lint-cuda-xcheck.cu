// SPDX-License-Identifier: MIT
// Issue 33: clbanks lint's CUDA test kernels (tests/lint/*.cu) on the hardware. Each kernel is
// launched once as tests/lint-cuda.test lints it; Nsight Compute's shared wavefronts per
// instruction (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum over
// smsp__sass_inst_executed_op_shared_{ld,st}.sum) per kernel go beside lint's passes per
// sub-group access (results/nvidia/lint-cuda-ncu.txt). Built with nvcc -O2 -arch=sm_90 -I.
// from the repository's root.
#include <cstdio>
#include <cuda_runtime.h>
#include "tests/lint/transpose.cu"
#include "tests/lint/reduce.cu"
#include "tests/lint/gemm.cu"

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main()
{
	const int n = 1024;
	float *a, *b, *c;
	CHECK(cudaMalloc(&a, n * n * sizeof(float)));
	CHECK(cudaMalloc(&b, n * n * sizeof(float)));
	CHECK(cudaMalloc(&c, n * n * sizeof(float)));
	CHECK(cudaMemset(a, 0, n * n * sizeof(float)));
	CHECK(cudaMemset(b, 0, n * n * sizeof(float)));
	// transpose: blocks of 32 x 8 (lint --local 32,8)
	cbt::transpose_tile<32><<<dim3(n / 32, n / 32), dim3(32, 8)>>>(b, a, n);
	cbt::transpose_tile<33><<<dim3(n / 32, n / 32), dim3(32, 8)>>>(b, a, n);
	// reductions: 256 threads (__launch_bounds__), 1024 bytes of dynamic shared memory
	sum_interleaved<<<n, 256, 1024>>>(a, b);
	sum_sequential<<<n, 256, 1024>>>(a, b);
	// GEMM 64 x 64 x 64: blocks of 32 x 32 (lint --local 32,32 --arg K=64)
	gemm_tiled<32, 32, 32><<<dim3(2, 2), dim3(32, 32)>>>(64, 64, 64, a, b, c);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaGetLastError());
	puts("ok");
	return 0;
}
