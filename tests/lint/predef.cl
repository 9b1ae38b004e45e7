// SPDX-License-Identifier: MIT
// Predefined macros (issue 31, point 4): a kernel that, as library kernels do, picks its code
// by what the driver defines. Without __OPENCL_VERSION__ it does not compile; before OpenCL
// 2.0 its tile is read by rows (conflict-free), from 2.0 on by columns (32-way).
#if !defined(__OPENCL_VERSION__) || !defined(__OPENCL_C_VERSION__) || !defined(__ENDIAN_LITTLE__)
#error "not an OpenCL driver's predefined macros"
#endif
#if __OPENCL_VERSION__ >= CL_VERSION_2_0
#define AT(r, c) tile[(c)][(r)]
#else
#define AT(r, c) tile[(r)][(c)]
#endif

__kernel void predef(__global float *out)
{
	__local float tile[32][32];
	int x = get_local_id(0), y = get_local_id(1);
	tile[y][x] = (float)x;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[y * 32 + x] = AT(y, x);
}
