/* SPDX-License-Identifier: MIT */
/* clbanks lint's hip/hip_runtime.h: the device side of HIP for clang's AMDGPU front end (see
 * clbanks_device.h). The built-in variables read what ROCm's headers read: the work-item and
 * work-group ids from the AMDGCN intrinsics, the sizes from the device library's
 * __ockl_get_local_size and __ockl_get_num_groups (declared here, known to lint). */
#ifndef CLBANKS_HIP_RUNTIME_H
#define CLBANKS_HIP_RUNTIME_H
#include "../clbanks_device.h"

extern "C" __device__ size_t __ockl_get_local_size(unsigned int);
extern "C" __device__ size_t __ockl_get_num_groups(unsigned int);

#define CB_BUILTIN_VAR(T, name, X, Y, Z) \
	struct T { \
		__declspec(property(get = get_x)) unsigned int x; \
		__declspec(property(get = get_y)) unsigned int y; \
		__declspec(property(get = get_z)) unsigned int z; \
		static __device__ __forceinline__ unsigned int get_x() { return X; } \
		static __device__ __forceinline__ unsigned int get_y() { return Y; } \
		static __device__ __forceinline__ unsigned int get_z() { return Z; } \
		__device__ operator dim3() const { return dim3(get_x(), get_y(), get_z()); } \
	}; \
	extern const __device__ __attribute__((weak)) T name;
CB_BUILTIN_VAR(cb_hip_threadIdx_t, threadIdx, __builtin_amdgcn_workitem_id_x(),
	       __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z())
CB_BUILTIN_VAR(cb_hip_blockIdx_t, blockIdx, __builtin_amdgcn_workgroup_id_x(),
	       __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z())
CB_BUILTIN_VAR(cb_hip_blockDim_t, blockDim, (unsigned int)__ockl_get_local_size(0),
	       (unsigned int)__ockl_get_local_size(1), (unsigned int)__ockl_get_local_size(2))
CB_BUILTIN_VAR(cb_hip_gridDim_t, gridDim, (unsigned int)__ockl_get_num_groups(0),
	       (unsigned int)__ockl_get_num_groups(1), (unsigned int)__ockl_get_num_groups(2))
#undef CB_BUILTIN_VAR

#define warpSize __builtin_amdgcn_wavefrontsize()
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define hipLaunchKernelGGL(k, grid, block, shmem, stream, ...) \
	k<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)
typedef cudaStream_t hipStream_t;

__device__ inline void __syncthreads(void) { __builtin_amdgcn_s_barrier(); }
__device__ inline void __threadfence_block(void) {}
__device__ inline void __threadfence(void) {}
#endif
