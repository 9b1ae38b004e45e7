/* SPDX-License-Identifier: MIT */
/*
 * stack-probe: what an OpenCL stack tells clbanks, outside clbanks (a diagnostic, not built by
 * make; see tests/README.md "OpenCL stacks"). Build and run:
 *
 *   cc -O1 -o stack-probe tests/stack-probe.c -lOpenCL
 *   ./stack-probe info                            device facts, kernel queries
 *   ./stack-probe launch STEPS [GLOBAL [WG [E]]]  one launch of cl/chase.cl: event times, host
 *                                                 time, the result of every work-item
 *   ./stack-probe limit [GLOBAL [WG [E]]]         largest STEPS whose result is right
 *
 * E is the element size index (0..4 = 1, 2, 4, 8, 16 bytes; default 2). The kernel is read
 * from $KERNEL (default cl/chase.cl) and built with clbanks' options plus $BUILD_OPTIONS
 * (cl/chase.cl needs BUILD_OPTIONS='-DCB_LOCAL_BYTES=32768 -I cl' for its cl/lane_table.clh,
 * which clbanks itself expands; a kernel with the older __local pointer argument gets 32768
 * bytes). Lane l of the $NLANES (default 32) lanes reads offset
 * l * E; the fill covers $FILL 32-bit words (default 132). The device is the first one of the
 * first platform ($OCL_ICD_VENDORS picks the platform). Examples (tests/README.md):
 *
 *   RUSTICL_ENABLE=llvmpipe OCL_ICD_VENDORS=DIR ./stack-probe info
 *   NLANES=1 FILL=4 ... ./stack-probe limit 32 32     llvmpipe: 524264 steps right, 524272 not
 *   oclgrind --data-races --uninitialized ./stack-probe launch 64 512 256 4
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CL_DEVICE_SUB_GROUP_SIZES_INTEL
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#endif

static cl_platform_id plat;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;
static cl_kernel kern;
static const char *const types[5] = { "uchar", "ushort", "uint", "uint2", "uint4" };
static const unsigned sizes[5] = { 1, 2, 4, 8, 16 };

#define CHECK(x)                                                                          \
	do {                                                                              \
		cl_int st_ = (x);                                                         \
		if (st_ != CL_SUCCESS) {                                                  \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, st_); \
			exit(1);                                                          \
		}                                                                         \
	} while (0)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void str(const char *what, cl_device_info p)
{
	char buf[4096] = "?";
	clGetDeviceInfo(dev, p, sizeof buf, buf, NULL);
	printf("%-34s %s\n", what, buf);
}

static void u64(const char *what, cl_device_info p)
{
	union {
		cl_ulong l;
		cl_uint u;
		size_t z;
	} v;
	size_t got = 0;
	memset(&v, 0, sizeof v);
	cl_int st = clGetDeviceInfo(dev, p, sizeof v, &v, &got);
	if (st != CL_SUCCESS)
		printf("%-34s error %d\n", what, st);
	else
		printf("%-34s %llu\n", what,
		       got == 4 ? (unsigned long long)v.u : (unsigned long long)v.l);
}

static void build(int e)
{
	const char *path = getenv("KERNEL") ? getenv("KERNEL") : "cl/chase.cl";
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	static char src[1 << 16];
	size_t n = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	src[n] = 0;
	const char *s = src;
	cl_int st;
	cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &st);
	CHECK(st);
	char opts[512];
	snprintf(opts, sizeof opts, "-cl-std=CL1.2 -DCB_ELEM=%s -DCB_ELEM_BYTES=%u %s", types[e],
		 sizes[e], getenv("BUILD_OPTIONS") ? getenv("BUILD_OPTIONS") : "");
	double t0 = now();
	st = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
	if (st != CL_SUCCESS) {
		static char log[1 << 16];
		clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		fprintf(stderr, "build failed (%d): %s\n", st, log);
		exit(1);
	}
	fprintf(stderr, "built '%s' in %.3f s\n", opts, now() - t0);
	kern = clCreateKernel(p, "cb_chase", &st);
	CHECK(st);
}

/* One launch: lane l reads offset l * E; returns 0 if every work-item's result is right. */
static int launch(cl_uint steps, size_t global, size_t wg, int e, int quiet)
{
	cl_uint lanes[32], table = 0, mask = 0;
	cl_uint nl = getenv("NLANES") ? (cl_uint)strtoul(getenv("NLANES"), NULL, 0) : 32;
	if (nl < 1 || nl > 32)
		nl = 32;
	cl_uint fill = getenv("FILL") ? (cl_uint)strtoul(getenv("FILL"), NULL, 0) : 32 * 16 / 4 + 4;
	for (unsigned l = 0; l < nl; l++)
		lanes[l] = l * sizes[e];
	cl_int st;
	cl_mem t = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof lanes, lanes,
				  &st);
	CHECK(st);
	cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, global * 4, NULL, &st);
	CHECK(st);
	cl_uint nargs = 0;
	CHECK(clGetKernelInfo(kern, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
	CHECK(clSetKernelArg(kern, 0, sizeof t, &t));
	CHECK(clSetKernelArg(kern, 1, 4, &table));
	CHECK(clSetKernelArg(kern, 2, 4, &nl));
	CHECK(clSetKernelArg(kern, 3, 4, &steps));
	CHECK(clSetKernelArg(kern, 4, 4, &mask));
	CHECK(clSetKernelArg(kern, 5, 4, &fill));
	CHECK(clSetKernelArg(kern, 6, sizeof out, &out));
	if (nargs > 7) /* the dynamic __local argument of the original kernel */
		CHECK(clSetKernelArg(kern, 7, 32768, NULL));
	cl_event ev;
	double h0 = now();
	CHECK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, &wg, 0, NULL, &ev));
	CHECK(clWaitForEvents(1, &ev));
	double h1 = now();
	cl_ulong tq = 0, ts = 0, t0 = 0, t1 = 0;
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, 8, &tq, NULL);
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT, 8, &ts, NULL);
	CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, NULL));
	CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, NULL));
	uint32_t *res = malloc(global * 4);
	CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, global * 4, res, 0, NULL, NULL));
	size_t bad = 0, first = (size_t)-1;
	uint32_t want_first = 0;
	for (size_t i = 0; i < global; i++) {
		uint32_t off = lanes[i % wg % nl], w = off / 4, word = w * 0x9E3779B1u, v;
		switch (sizes[e]) {
		case 1:
			v = (word >> 8 * (off % 4)) & 0xff;
			break;
		case 2:
			v = (word >> 8 * (off % 4)) & 0xffff;
			break;
		case 4:
			v = word;
			break;
		case 8:
			v = word ^ (w + 1) * 0x9E3779B1u;
			break;
		default:
			v = word ^ (w + 1) * 0x9E3779B1u ^ (w + 2) * 0x9E3779B1u ^
			    (w + 3) * 0x9E3779B1u;
		}
		if (res[i] != v + steps && bad++ == 0) {
			first = i;
			want_first = v + steps;
		}
	}
	if (!quiet || bad)
		printf("steps %u global %zu wg %zu E %u: QUEUED %llu SUBMIT %llu START %llu END %llu "
		       "END-START %lld ns, host %.6f s (%.3f ns/step/work-item), %zu wrong%s",
		       steps, global, wg, sizes[e], (unsigned long long)tq, (unsigned long long)ts,
		       (unsigned long long)t0, (unsigned long long)t1, (long long)(t1 - t0),
		       h1 - h0, (h1 - h0) * 1e9 / steps / global, bad, bad ? "" : "\n");
	if (bad)
		printf(" (first: work-item %zu returned %u = 0x%x, expected %u)\n", first,
		       res[first], res[first], want_first);
	free(res);
	clReleaseEvent(ev);
	clReleaseMemObject(t);
	clReleaseMemObject(out);
	return bad != 0;
}

static void info(void)
{
	char buf[4096];
	clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof buf, buf, NULL);
	printf("%-34s %s\n", "CL_PLATFORM_NAME", buf);
	clGetPlatformInfo(plat, CL_PLATFORM_VERSION, sizeof buf, buf, NULL);
	printf("%-34s %s\n", "CL_PLATFORM_VERSION", buf);
	str("CL_DEVICE_NAME", CL_DEVICE_NAME);
	str("CL_DEVICE_VERSION", CL_DEVICE_VERSION);
	str("CL_DEVICE_OPENCL_C_VERSION", CL_DEVICE_OPENCL_C_VERSION);
	str("CL_DRIVER_VERSION", CL_DRIVER_VERSION);
	str("CL_DEVICE_EXTENSIONS", CL_DEVICE_EXTENSIONS);
	u64("CL_DEVICE_MAX_COMPUTE_UNITS", CL_DEVICE_MAX_COMPUTE_UNITS);
	u64("CL_DEVICE_LOCAL_MEM_SIZE", CL_DEVICE_LOCAL_MEM_SIZE);
	u64("CL_DEVICE_LOCAL_MEM_TYPE (1=local 2=global)", CL_DEVICE_LOCAL_MEM_TYPE);
	u64("CL_DEVICE_PROFILING_TIMER_RESOLUTION", CL_DEVICE_PROFILING_TIMER_RESOLUTION);
	u64("CL_DEVICE_MAX_WORK_GROUP_SIZE", CL_DEVICE_MAX_WORK_GROUP_SIZE);
	u64("CL_DEVICE_MAX_NUM_SUB_GROUPS", CL_DEVICE_MAX_NUM_SUB_GROUPS);
	size_t sg[16];
	size_t got = 0;
	cl_int st = clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sg, sg, &got);
	printf("%-34s", "CL_DEVICE_SUB_GROUP_SIZES_INTEL");
	if (st != CL_SUCCESS)
		printf(" error %d\n", st);
	else {
		for (size_t i = 0; i < got / sizeof *sg; i++)
			printf(" %zu", sg[i]);
		printf("\n");
	}
	cl_ulong dt = 0, ht = 0;
	st = clGetDeviceAndHostTimer(dev, &dt, &ht);
	printf("%-34s %d (device %llu, host %llu)\n", "clGetDeviceAndHostTimer", st,
	       (unsigned long long)dt, (unsigned long long)ht);
	build(2);
	size_t v = 0;
	clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof v, &v, NULL);
	printf("%-34s %zu\n", "CL_KERNEL_WORK_GROUP_SIZE", v);
	clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof v,
				 &v, NULL);
	printf("%-34s %zu\n", "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE", v);
	cl_ulong lm = 0;
	clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
	printf("%-34s %llu\n", "CL_KERNEL_LOCAL_MEM_SIZE", (unsigned long long)lm);
	size_t local = 256, msg = 0;
	st = clGetKernelSubGroupInfo(kern, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
				     sizeof local, &local, sizeof msg, &msg, NULL);
	printf("%-34s status %d, value %zu\n",
	       "CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE (core 2.1)", st, msg);
	clGetKernelSubGroupInfoKHR_fn fn = (clGetKernelSubGroupInfoKHR_fn)
		clGetExtensionFunctionAddressForPlatform(plat, "clGetKernelSubGroupInfoKHR");
	printf("%-34s %s\n", "clGetKernelSubGroupInfoKHR", fn ? "present" : "absent");
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "info";
	cl_uint n;
	CHECK(clGetPlatformIDs(1, &plat, &n));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	cl_int st;
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &st);
	CHECK(st);
	q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &st);
	CHECK(st);
	if (!strcmp(cmd, "info")) {
		info();
		return 0;
	}
	int a = !strcmp(cmd, "launch") ? 3 : 2;
	size_t global = argc > a ? strtoul(argv[a], NULL, 0) : 256;
	size_t wg = argc > a + 1 ? strtoul(argv[a + 1], NULL, 0) : (global < 256 ? global : 256);
	int e = argc > a + 2 ? atoi(argv[a + 2]) : 2;
	build(e);
	if (!strcmp(cmd, "launch"))
		return launch((cl_uint)strtoul(argv[2], NULL, 0), global, wg, e, 0);
	/* limit: double until wrong, then bisect on multiples of 8. */
	if (launch(8, global, wg, e, 0)) {
		printf("even 8 steps give a wrong result\n");
		return 1;
	}
	cl_uint lo = 8, hi = 16;
	while (hi < (1u << 28) && !launch(hi, global, wg, e, 1))
		lo = hi, hi *= 2;
	if (hi >= (1u << 28)) {
		printf("right up to %u steps (no limit found)\n", lo);
		return 0;
	}
	while (hi - lo > 8) {
		cl_uint mid = (lo + (hi - lo) / 2) & ~7u;
		if (mid <= lo)
			mid = lo + 8;
		if (launch(mid, global, wg, e, 1))
			hi = mid;
		else
			lo = mid;
	}
	printf("largest right steps: %u (= %u iterations of the 8-step loop); %u is wrong\n", lo,
	       lo / 8, hi);
	launch(lo, global, wg, e, 0);
	launch(hi, global, wg, e, 0);
	return 0;
}
