/* SPDX-License-Identifier: MIT */
/* clbanks lint's device header for CUDA and HIP kernels (cuda_runtime.h and hip/hip_runtime.h
 * include it): the qualifiers, the built-in variables, the barrier and the common device
 * functions as declarations, enough for clang to compile a kernel's device side without a
 * CUDA or ROCm installation. Not a runtime: lint only simulates the kernel's own code.
 * Functions lint cannot see (the math functions, shuffles) return unknown values. */
#ifndef CLBANKS_DEVICE_H
#define CLBANKS_DEVICE_H

#if !defined(__CUDA__) && !defined(__HIP__)
#error "clbanks_device.h is for CUDA or HIP device code (clang -x cuda or -x hip)"
#endif

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#ifdef __HIP__
/* as ROCm's headers: the bound is the kernel's flat work-group size */
#define __launch_bounds__(n, ...) __attribute__((amdgpu_flat_work_group_size(1, n)))
#else
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))

typedef __SIZE_TYPE__ size_t;
typedef struct CUstream_st *cudaStream_t;
typedef int cudaError_t;

struct uint3 { unsigned int x, y, z; };
struct dim3 {
	unsigned int x, y, z;
	__host__ __device__ constexpr dim3(unsigned int x = 1, unsigned int y = 1,
					   unsigned int z = 1) : x(x), y(y), z(z) {}
	__host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

/* Vector types: the layout and alignment of CUDA's. */
#define CB_VEC2(T, N, A) struct __align__(A) N##2 { T x, y; }; \
	__host__ __device__ inline N##2 make_##N##2(T x, T y) { N##2 v = { x, y }; return v; }
#define CB_VEC4(T, N, A) struct __align__(A) N##4 { T x, y, z, w; }; \
	__host__ __device__ inline N##4 make_##N##4(T x, T y, T z, T w) \
	{ N##4 v = { x, y, z, w }; return v; }
CB_VEC2(float, float, 8) CB_VEC4(float, float, 16)
CB_VEC2(int, int, 8) CB_VEC4(int, int, 16)
CB_VEC2(unsigned int, uint, 8) CB_VEC4(unsigned int, uint, 16)
CB_VEC2(double, double, 16) CB_VEC4(double, double, 16)
CB_VEC2(short, short, 4) CB_VEC4(short, short, 8)
CB_VEC2(char, char, 2) CB_VEC4(char, char, 4)
#undef CB_VEC2
#undef CB_VEC4

/* Integer min and max, defined so that lint computes them. */
__host__ __device__ inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline int max(int a, int b) { return a > b ? a : b; }
__host__ __device__ inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
__host__ __device__ inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
__host__ __device__ inline long long min(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ inline long long max(long long a, long long b) { return a > b ? a : b; }

/* Atomics: clang's built-ins, so that an atomic on __shared__ memory is an access lint sees. */
#define CB_ATOMIC(name, builtin) \
	template <typename T> __device__ __forceinline__ T name(T *p, T v) \
	{ return builtin(p, v, __ATOMIC_RELAXED); }
CB_ATOMIC(atomicAdd, __atomic_fetch_add)
CB_ATOMIC(atomicSub, __atomic_fetch_sub)
CB_ATOMIC(atomicAnd, __atomic_fetch_and)
CB_ATOMIC(atomicOr, __atomic_fetch_or)
CB_ATOMIC(atomicXor, __atomic_fetch_xor)
CB_ATOMIC(atomicMin, __atomic_fetch_min)
CB_ATOMIC(atomicMax, __atomic_fetch_max)
CB_ATOMIC(atomicExch, __atomic_exchange_n)
#undef CB_ATOMIC
template <typename T> __device__ __forceinline__ T atomicCAS(T *p, T cmp, T v)
{
	__atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return cmp;
}

/* Declarations only: their results are unknown to lint. */
__device__ float sqrtf(float);
__device__ float rsqrtf(float);
__device__ float expf(float);
__device__ float __expf(float);
__device__ float logf(float);
__device__ float __logf(float);
__device__ float sinf(float);
__device__ float cosf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float tanhf(float);
__device__ float powf(float, float);
__device__ float fabsf(float);
__device__ float fmaxf(float, float);
__device__ float fminf(float, float);
__device__ float fmaf(float, float, float);
__device__ float __fdividef(float, float);
__device__ float floorf(float);
__device__ float ceilf(float);
__device__ double sqrt(double);
__device__ double exp(double);
__device__ double fabs(double);
__device__ double fmax(double, double);
__device__ double fmin(double, double);
__device__ double fma(double, double, double);
__device__ int __popc(unsigned int);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ unsigned int __brev(unsigned int);
__device__ int __mul24(int, int);
__device__ int __float2int_rn(float);
__device__ float __int2float_rn(int);
template <typename T> __device__ T __ldg(const T *);
template <typename T> __device__ T __shfl_sync(unsigned int, T, int, int = 32);
template <typename T> __device__ T __shfl_up_sync(unsigned int, T, unsigned int, int = 32);
template <typename T> __device__ T __shfl_down_sync(unsigned int, T, unsigned int, int = 32);
template <typename T> __device__ T __shfl_xor_sync(unsigned int, T, int, int = 32);
__device__ unsigned int __ballot_sync(unsigned int, int);
__device__ int __any_sync(unsigned int, int);
__device__ int __all_sync(unsigned int, int);
__device__ long long clock64(void);

/* The host side of a launch (kernel<<<grid, block>>>(...)), declared so that a file that
 * launches its kernels compiles; only the device side is compiled. */
extern "C" __host__ int cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
extern "C" __host__ unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0, void * = 0);
extern "C" __host__ int hipConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
extern "C" __host__ unsigned __hipPushCallConfiguration(dim3, dim3, size_t = 0, void * = 0);

#endif
