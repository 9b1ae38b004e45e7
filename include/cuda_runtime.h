/* SPDX-License-Identifier: MIT */
/* clbanks lint's cuda_runtime.h: the device side of CUDA for clang's NVPTX front end (see
 * clbanks_device.h). threadIdx, blockIdx, blockDim and gridDim are clang's own (they read the
 * PTX special registers, which lint knows). */
#ifndef CLBANKS_CUDA_RUNTIME_H
#define CLBANKS_CUDA_RUNTIME_H
#include "clbanks_device.h"
#include <__clang_cuda_builtin_vars.h>

#define warpSize 32
/* __syncthreads is a built-in of clang's NVPTX target. */
__device__ inline void __syncwarp(unsigned int mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
__device__ inline void __threadfence_block(void) { __nvvm_membar_cta(); }
__device__ inline void __threadfence(void) { __nvvm_membar_gl(); }
__device__ inline int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
__device__ inline int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
__device__ inline int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
#endif
