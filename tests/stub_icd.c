/* SPDX-License-Identifier: MIT */
/*
 * A stub OpenCL driver (ICD) for the tests: one "GPU" (or a few identical ones) whose local
 * memory follows a known bank model, with faults on demand. The kernel is not run: each launch fills the result buffer with
 * what the real kernel returns and gets a synthetic duration from the bank model, on a virtual
 * clock (so runs are instant and deterministic). Loaded by the ICD loader through
 * OCL_ICD_VENDORS=<path of this library>.
 *
 * Environment (all optional):
 *   CBSTUB_BANKS, CBSTUB_WIDTH      geometry (32, 4)
 *   CBSTUB_LANES                    lanes per pass for 1,2,4,8,16 B ("32,32,32,16,8")
 *   CBSTUB_SUBGROUP                 sub-group size (32)
 *   CBSTUB_REPORT_SUBGROUP=0        do not report it (clbanks must measure it)
 *   CBSTUB_FLAT=1                   no banks: every table costs the same
 *   CBSTUB_NOISE                    relative noise of durations (0.01)
 *   CBSTUB_T0                       a step's fixed time, in passes (2: a step costs 2 + passes)
 *   CBSTUB_TIMER_RES                profiling timer resolution in ns (1000)
 *   CBSTUB_LOCAL_TYPE=global        report CL_GLOBAL local memory
 *   CBSTUB_LOCAL_MEM                CL_DEVICE_LOCAL_MEM_SIZE in bytes (49152)
 *   CBSTUB_AMD=1                    report like AMD: wavefront width, a bank count of 32 and
 *                                   64 KiB of local memory per compute unit
 *   CBSTUB_INTEL=1                  report like Intel: cl_intel_required_subgroup_size with
 *                                   sizes 8, 16, 32; a kernel runs with the size it is built
 *                                   for (-DCB_SUBGROUP), else 32; sub-slices as local units
 *   CBSTUB_KERNEL_SUBGROUP          cl_khr_subgroups: kernels report this sub-group size
 *   CBSTUB_LOOP_CAP                 chains longer than this give wrong results (llvmpipe)
 *   CBSTUB_FAULT                    enqueue:N:CODE  the Nth launch fails with CODE
 *                                   wait:N:CODE     waiting for the Nth launch fails
 *                                   flush:N:CODE    the first clFlush once N launches are
 *                                                   queued fails
 *                                   profiling       profiling info is not available (-7)
 *                                   zero-time       every event has END == START
 *                                   build           clBuildProgram fails with a log
 *                                   build-store-8   clBuildProgram fails for a program that
 *                                                   holds the 8-byte store (cb_store_8)
 *                                   one-build       a second build of lane-table kernels
 *                                                   (clbanks builds them in one program) fails
 *                                   wrong-result    results are off by one
 *                                   wrong-transpose the swizzled transpose's result is wrong
 *                                   counter-time    events read START 2, END 3 (rusticl)
 *                                   devices         clGetDeviceIDs fails (-6)
 *                                   slow            every wait takes 1 ms per launch waited
 *                                                   for, 20 ms at least (signal tests)
 *                                   slow-transpose  each transpose launch takes 100 ms; the
 *                                                   first says "stub: transpose check" on
 *                                                   stderr (a signal in the check)
 *                                   hang-build      clBuildProgram of a lane-table kernel
 *                                                   never returns
 *                                   build-transpose clBuildProgram of cl/transpose.cl fails
 *                                                   with a log
 *                                   hang-transpose-build  ... never returns
 *                                   hang-devices    clGetDeviceIDs never returns
 *                                   no-binaries     clGetProgramInfo has no binaries
 *                                   bad-binary      clCreateProgramWithBinary refuses every
 *                                                   binary (CL_INVALID_BINARY)
 *                                   (a hang first says "stub: hanging in CALL" on stderr)
 *   CBSTUB_FAULT_DEVICE             the fault hits only this device (0-based; default: all);
 *                                   launches are counted over all devices
 *   CBSTUB_DEVICES                  identical GPUs on the platform, 0 to 4 (1; 0: a platform
 *                                   without devices)
 *   CBSTUB_VERSION                  the device's and platform's OpenCL version ("1.2")
 *   CBSTUB_STORE, CBSTUB_ATOMIC     the geometry of stores, of atomics: "banks,width,broadcast"
 *                                   (default: that of loads; atomics without broadcast)
 *   CBSTUB_STORE_LANES, CBSTUB_ATOMIC_LANES   their lanes per pass (default: those of loads)
 *   CBSTUB_NO_INT64_ATOMICS=1       no cl_khr_int64_base_atomics
 *   CBSTUB_NAME                     the device's name ("clbanks stub GPU")
 *   CBSTUB_UNITS, CBSTUB_CLOCK      compute units (4) and clock in MHz (1000), any cl_uint
 *   CBSTUB_WG, CBSTUB_KERNEL_WG     the device's and the kernels' largest work-group (1024),
 *                                   any size_t (18446744073709551615 is 2^64-1)
 *   CBSTUB_COUNT=FILE               at exit, write "launches N", "source_builds N",
 *                                   "binary_builds N" and "device_ns T" (the virtual
 *                                   clock's time) of the whole process to FILE
 *
 * Kernels: cb_chase (loads), cb_store, cb_atomic (as clbanks builds them, one program for every
 * element size: cb_chase_4, cb_store_8...) and the cb_transpose_* variants, whose result is
 * computed (the transpose is really done) and whose time follows the model, with
 * cb_transpose_fill and cb_transpose_verify, done for real too.
 */
#include "stub_icd.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

struct _cl_icd_dispatch dispatch;

static struct _cl_platform_id platform = { &dispatch };
static struct _cl_device_id devices_[MAX_DEVICES] = {
	{ &dispatch }, { &dispatch }, { &dispatch }, { &dispatch }
};
static struct _cl_context context = { &dispatch };
static struct _cl_command_queue queue = { &dispatch };

static cl_int give(const void *src, size_t n, size_t size, void *value, size_t *ret)
{
	if (ret)
		*ret = n;
	if (value) {
		if (size < n)
			return CL_INVALID_VALUE;
		memcpy(value, src, n);
	}
	return CL_SUCCESS;
}

static cl_int give_str(const char *s, size_t size, void *value, size_t *ret)
{
	return give(s, strlen(s) + 1, size, value, ret);
}

static const char *version(void)
{
	static char v[64];
	const char *e = getenv("CBSTUB_VERSION");
	snprintf(v, sizeof v, "OpenCL %s stub", e && *e ? e : "1.2");
	return v;
}

static cl_int CL_API_CALL stub_GetPlatformInfo(cl_platform_id p, cl_platform_info what, size_t size,
					       void *value, size_t *ret)
{
	(void)p;
	switch (what) {
	case CL_PLATFORM_NAME:
		return give_str("clbanks stub", size, value, ret);
	case CL_PLATFORM_VENDOR:
		return give_str("clbanks tests", size, value, ret);
	case CL_PLATFORM_VERSION:
		return give_str(version(), size, value, ret);
	case CL_PLATFORM_PROFILE:
		return give_str("FULL_PROFILE", size, value, ret);
	case CL_PLATFORM_EXTENSIONS:
		return give_str("cl_khr_icd", size, value, ret);
	case CL_PLATFORM_ICD_SUFFIX_KHR:
		return give_str("STUB", size, value, ret);
	default:
		return CL_INVALID_VALUE;
	}
}

static cl_int CL_API_CALL stub_GetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n,
					    cl_device_id *devices, cl_uint *count)
{
	(void)p;
	stub_setup();
	if (stub_fault_is("devices"))
		return CL_OUT_OF_HOST_MEMORY;
	if (stub_fault_is("hang-devices"))
		stub_hang("clGetDeviceIDs");
	if (!(type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT)) || dev.ndevices == 0)
		return CL_DEVICE_NOT_FOUND;
	if (count)
		*count = dev.ndevices;
	for (cl_uint i = 0; devices && i < n && i < dev.ndevices; i++)
		devices[i] = &devices_[i];
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_GetDeviceInfo(cl_device_id d, cl_device_info what, size_t size,
					     void *value, size_t *ret)
{
	(void)d;
	stub_setup();
	cl_uint u;
	cl_ulong ul;
	size_t sz;
	cl_bool b;
	cl_device_type t = CL_DEVICE_TYPE_GPU;
	cl_device_local_mem_type lt = dev.global_local ? CL_GLOBAL : CL_LOCAL;
	switch (what) {
	case CL_DEVICE_NAME:
		return give_str(dev.name, size, value, ret);
	case CL_DEVICE_VENDOR:
		return give_str("clbanks tests", size, value, ret);
	case CL_DRIVER_VERSION:
		return give_str("1.0", size, value, ret);
	case CL_DEVICE_VERSION:
		return give_str(version(), size, value, ret);
	case CL_DEVICE_OPENCL_C_VERSION:
		return give_str("OpenCL C 1.2", size, value, ret);
	case CL_DEVICE_EXTENSIONS:
		return give_str(dev.intel ? "cl_intel_required_subgroup_size "
					    "cl_intel_device_attribute_query cl_khr_subgroups"
				: dev.kernel_subgroup && dev.report_subgroup
					? "cl_nv_device_attribute_query cl_khr_subgroups"
				: dev.kernel_subgroup  ? "cl_khr_subgroups"
				: !dev.report_subgroup ? ""
				: dev.amd              ? "cl_amd_device_attribute_query"
				: dev.int64_atomics
					? "cl_nv_device_attribute_query cl_khr_int64_base_atomics"
					: "cl_nv_device_attribute_query",
				size, value, ret);
	case CL_DEVICE_SUB_GROUP_SIZES_INTEL: {
		size_t sizes[3] = { 8, 16, 32 };
		if (!dev.intel)
			return CL_INVALID_VALUE;
		return give(sizes, sizeof sizes, size, value, ret);
	}
	case CL_DEVICE_NUM_SLICES_INTEL:
	case CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL:
		if (!dev.intel)
			return CL_INVALID_VALUE;
		u = what == CL_DEVICE_NUM_SLICES_INTEL ? 1 : 2;
		return give(&u, sizeof u, size, value, ret);
	case CL_DEVICE_WAVEFRONT_WIDTH_AMD:
		if (!dev.report_subgroup || !dev.amd)
			return CL_INVALID_VALUE;
		u = dev.subgroup;
		return give(&u, sizeof u, size, value, ret);
	case CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD:
		if (!dev.amd)
			return CL_INVALID_VALUE;
		u = 65536;
		return give(&u, sizeof u, size, value, ret);
	case CL_DEVICE_LOCAL_MEM_BANKS_AMD:
		if (!dev.amd)
			return CL_INVALID_VALUE;
		u = 32;
		return give(&u, sizeof u, size, value, ret);
	case CL_DEVICE_TYPE:
		return give(&t, sizeof t, size, value, ret);
	case CL_DEVICE_MAX_COMPUTE_UNITS:
		u = dev.units;
		return give(&u, sizeof u, size, value, ret);
	case CL_DEVICE_MAX_CLOCK_FREQUENCY:
		u = dev.clock_mhz;
		return give(&u, sizeof u, size, value, ret);
	case CL_DEVICE_LOCAL_MEM_SIZE:
		ul = getenv("CBSTUB_LOCAL_MEM") ? strtoull(getenv("CBSTUB_LOCAL_MEM"), NULL, 10)
						: 49152;
		return give(&ul, sizeof ul, size, value, ret);
	case CL_DEVICE_LOCAL_MEM_TYPE:
		return give(&lt, sizeof lt, size, value, ret);
	case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
		sz = dev.timer_res;
		return give(&sz, sizeof sz, size, value, ret);
	case CL_DEVICE_MAX_WORK_GROUP_SIZE:
		sz = dev.max_wg;
		return give(&sz, sizeof sz, size, value, ret);
	case CL_DEVICE_ENDIAN_LITTLE:
		b = CL_TRUE;
		return give(&b, sizeof b, size, value, ret);
	case CL_DEVICE_WARP_SIZE_NV:
		if (!dev.report_subgroup || dev.amd || dev.intel)
			return CL_INVALID_VALUE;
		u = dev.subgroup;
		return give(&u, sizeof u, size, value, ret);
	default:
		return CL_INVALID_VALUE;
	}
}

static cl_context CL_API_CALL stub_CreateContext(
	const cl_context_properties *p, cl_uint n, const cl_device_id *d,
	void(CL_CALLBACK *cb)(const char *, const void *, size_t, void *), void *user, cl_int *err)
{
	(void)p;
	(void)cb;
	(void)user;
	stub_setup();
	for (unsigned i = 0; n && d && i < dev.ndevices; i++)
		if (d[0] == &devices_[i])
			dev.current = i;
	if (err)
		*err = CL_SUCCESS;
	return &context;
}

static cl_int CL_API_CALL stub_Release(void *o)
{
	(void)o;
	return CL_SUCCESS;
}

static cl_command_queue CL_API_CALL stub_CreateCommandQueue(cl_context c, cl_device_id d,
							    cl_command_queue_properties p,
							    cl_int *err)
{
	(void)c;
	(void)d;
	(void)p;
	if (err)
		*err = CL_SUCCESS;
	return &queue;
}

static cl_program CL_API_CALL stub_CreateProgramWithSource(cl_context c, cl_uint n, const char **s,
							   const size_t *len, cl_int *err)
{
	(void)c;
	cl_program p = calloc(1, sizeof *p);
	p->d = &dispatch;
	p->refs = 1;
	for (cl_uint i = 0; i < n; i++)
		p->store8 |= !len || !len[i] ? strstr(s[i], "cb_store_8") != NULL : false;
	if (err)
		*err = CL_SUCCESS;
	return p;
}

/* A program's binary: what the stub keeps of a source (the build options say the rest). */
#define STUB_BINARY "clbanks stub binary, store8 %d\n"

static cl_program CL_API_CALL stub_CreateProgramWithBinary(cl_context c, cl_uint n,
							   const cl_device_id *d, const size_t *len,
							   const unsigned char **bins,
							   cl_int *status, cl_int *err)
{
	(void)c;
	(void)d;
	char text[64] = "";
	int store8 = 0;
	if (n == 1 && len[0] < sizeof text)
		memcpy(text, bins[0], len[0]);
	bool ok = n == 1 && sscanf(text, STUB_BINARY, &store8) == 1 && !stub_fault_is("bad-binary");
	if (status)
		*status = ok ? CL_SUCCESS : CL_INVALID_BINARY;
	if (err)
		*err = ok ? CL_SUCCESS : CL_INVALID_BINARY;
	if (!ok)
		return NULL;
	cl_program p = calloc(1, sizeof *p);
	p->d = &dispatch;
	p->refs = 1;
	p->store8 = store8 != 0;
	p->binary = true;
	return p;
}

static cl_int CL_API_CALL stub_GetProgramInfo(cl_program p, cl_program_info what, size_t size,
					      void *value, size_t *ret)
{
	char bin[64];
	size_t n = (size_t)snprintf(bin, sizeof bin, STUB_BINARY, (int)p->store8);
	cl_uint one = 1;
	if (stub_fault_is("no-binaries") &&
	    (what == CL_PROGRAM_BINARY_SIZES || what == CL_PROGRAM_BINARIES))
		return CL_INVALID_PROGRAM_EXECUTABLE;
	switch (what) {
	case CL_PROGRAM_NUM_DEVICES:
		return give(&one, sizeof one, size, value, ret);
	case CL_PROGRAM_BINARY_SIZES:
		return give(&n, sizeof n, size, value, ret);
	case CL_PROGRAM_BINARIES:
		if (ret)
			*ret = sizeof(unsigned char *);
		if (value && size >= sizeof(unsigned char *))
			memcpy(*(unsigned char **)value, bin, n);
		return value && size < sizeof(unsigned char *) ? CL_INVALID_VALUE : CL_SUCCESS;
	default:
		return CL_INVALID_VALUE;
	}
}

static cl_int CL_API_CALL stub_BuildProgram(cl_program p, cl_uint n, const cl_device_id *d,
					    const char *options,
					    void(CL_CALLBACK *cb)(cl_program, void *), void *user)
{
	(void)n;
	(void)d;
	(void)cb;
	(void)user;
	/* clbanks builds the transpose check's programs in threads of their own. */
	__atomic_fetch_add(p->binary ? &dev.binary_builds : &dev.source_builds, 1,
			   __ATOMIC_RELAXED);
	const char *e = options ? strstr(options, "-DCB_ELEM_BYTES=") : NULL;
	const char *pin = options ? strstr(options, "-DCB_SUBGROUP=") : NULL;
	p->elem = e ? (unsigned)atoi(e + 16) : 4;
	p->pin = pin ? (unsigned)atoi(pin + 14) : 0;
	const char *tile = options ? strstr(options, "-DCB_TILE=") : NULL;
	if (tile) {
		/* cl/transpose.cl */
		const char *pad = strstr(options, "-DCB_PAD="), *m = strstr(options, "-DCB_MASK=");
		const char *sh = strstr(options, "-DCB_SHIFT=");
		p->elem = strstr(options, "-DCB_ELEM=ulong") ? 8 : 4;
		p->tile = (unsigned)atoi(tile + 10);
		p->pad = pad ? (unsigned)atoi(pad + 9) : 1;
		p->xmask = m ? (unsigned)atoi(m + 10) : p->tile - 1;
		p->shift = sh ? (unsigned)atoi(sh + 11) : 0;
		if (stub_fault_is("hang-transpose-build"))
			stub_hang("clBuildProgram");
		if (stub_fault_is("build-transpose")) {
			snprintf(p->log, sizeof p->log,
				 "stub: error: the transpose build fails on request");
			return CL_BUILD_PROGRAM_FAILURE;
		}
		return CL_SUCCESS;
	}
	if (!options || !strstr(options, "-DCB_LOCAL_BYTES=")) {
		snprintf(p->log, sizeof p->log, "stub: error: CB_LOCAL_BYTES is not defined");
		return CL_BUILD_PROGRAM_FAILURE;
	}
	if (stub_fault_is("hang-build"))
		stub_hang("clBuildProgram");
	if (stub_fault_is("build") || (stub_fault_is("build-store-8") && p->store8)) {
		snprintf(p->log, sizeof p->log, "stub: error: the build fails on request");
		return CL_BUILD_PROGRAM_FAILURE;
	}
	static unsigned lane_table_builds;
	if (stub_fault_is("one-build") && ++lane_table_builds > 1) {
		snprintf(p->log, sizeof p->log,
			 "stub: error: the lane-table kernels are built again");
		return CL_BUILD_PROGRAM_FAILURE;
	}
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_GetProgramBuildInfo(cl_program p, cl_device_id d,
						   cl_program_build_info what, size_t size,
						   void *value, size_t *ret)
{
	(void)d;
	if (what != CL_PROGRAM_BUILD_LOG)
		return CL_INVALID_VALUE;
	return give_str(p->log, size, value, ret);
}

static cl_int CL_API_CALL stub_RetainProgram(cl_program p)
{
	p->refs++;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_ReleaseProgram(cl_program p)
{
	if (--p->refs == 0)
		free(p);
	return CL_SUCCESS;
}

static cl_kernel CL_API_CALL stub_CreateKernel(cl_program p, const char *name, cl_int *err)
{
	cl_kernel k = calloc(1, sizeof *k);
	k->d = &dispatch;
	k->elem = p->elem;
	k->pin = p->pin;
	k->prog = p;
	k->op = strncmp(name, "cb_store", 8) == 0         ? OP_STORE
		: strncmp(name, "cb_atomic", 9) == 0      ? OP_ATOMIC
		: strncmp(name, "cb_transpose_", 13) == 0 ? OP_TRANSPOSE
							  : OP_LOAD;
	/* clbanks builds its lane-table kernels in one program, one per element size: cb_chase_8 */
	const char *u = strrchr(name, '_');
	if (k->op != OP_TRANSPOSE && u && u[1] >= '1' && u[1] <= '9')
		k->elem = (unsigned)atoi(u + 1);
	k->variant = strstr(name, "padded")     ? 1
		     : strstr(name, "swizzled") ? 2
		     : strstr(name, "fill")     ? STUB_FILL
		     : strstr(name, "verify")   ? STUB_VERIFY
						: 0;
	if (err)
		*err = CL_SUCCESS;
	return k;
}

static cl_int CL_API_CALL stub_ReleaseKernel(cl_kernel k)
{
	free(k);
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_GetKernelWorkGroupInfo(cl_kernel k, cl_device_id d,
						      cl_kernel_work_group_info what, size_t size,
						      void *value, size_t *ret)
{
	(void)k;
	(void)d;
	size_t sz;
	cl_ulong ul = 0;
	switch (what) {
	case CL_KERNEL_WORK_GROUP_SIZE:
		sz = dev.kernel_wg;
		return give(&sz, sizeof sz, size, value, ret);
	case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
		sz = dev.subgroup;
		return give(&sz, sizeof sz, size, value, ret);
	case CL_KERNEL_LOCAL_MEM_SIZE:
		return give(&ul, sizeof ul, size, value, ret);
	default:
		return CL_INVALID_VALUE;
	}
}

static cl_int CL_API_CALL stub_SetKernelArg(cl_kernel k, cl_uint i, size_t size, const void *v)
{
	if (!v || size == 0)
		return CL_INVALID_ARG_VALUE; /* every argument has a value: no __local argument */
	if (k->op == OP_TRANSPOSE) {
		/* Setting the same value again keeps the result: clbanks sets the arguments before
		 * every batch of launches, and each transpose is a pass over up to 128 MB. */
		cl_mem in = k->in, out = k->out;
		size_t n = k->n;
		bool helper = k->variant >= STUB_FILL; /* (matrix, n, salt or flag) */
		switch (i) {
		case 0:
			in = *(const cl_mem *)v;
			break;
		case 1:
			if (helper)
				n = *(const cl_uint *)v;
			else
				out = *(const cl_mem *)v;
			break;
		case 2:
			if (helper && k->variant == STUB_FILL)
				k->mask = *(const cl_uint *)v;
			else if (helper)
				k->check = *(const cl_mem *)v;
			else
				n = *(const cl_uint *)v;
			break;
		default:
			return CL_INVALID_ARG_INDEX;
		}
		k->done &= in == k->in && out == k->out && n == k->n;
		k->in = in, k->out = out, k->n = n;
		return CL_SUCCESS;
	}
	switch (i) {
	case 0:
		k->tables = *(const cl_mem *)v;
		break;
	case 1:
		k->table = *(const cl_uint *)v;
		break;
	case 2:
		k->nlanes = *(const cl_uint *)v;
		break;
	case 3:
		k->steps = *(const cl_uint *)v;
		break;
	case 4:
		k->mask = *(const cl_uint *)v;
		break;
	case 5:
		k->fill = *(const cl_uint *)v;
		break;
	case 6:
		k->out = *(const cl_mem *)v;
		break;
	case 7:
		k->check = *(const cl_mem *)v;
		break;
	case 8:
		k->slot = *(const cl_uint *)v;
		break;
	default:
		return CL_INVALID_ARG_INDEX;
	}
	return CL_SUCCESS;
}

static cl_mem CL_API_CALL stub_CreateBuffer(cl_context c, cl_mem_flags flags, size_t size,
					    void *host, cl_int *err)
{
	(void)c;
	cl_mem m = calloc(1, sizeof *m);
	m->d = &dispatch;
	m->size = size;
	m->data = calloc(1, size);
	if ((flags & CL_MEM_COPY_HOST_PTR) && host)
		memcpy(m->data, host, size);
	if (err)
		*err = CL_SUCCESS;
	return m;
}

static cl_int CL_API_CALL stub_ReleaseMemObject(cl_mem m)
{
	free(m->data);
	free(m);
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_EnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
						    const size_t *offset, const size_t *global,
						    const size_t *local, cl_uint nw,
						    const cl_event *wl, cl_event *ev)
{
	(void)q;
	(void)dim;
	(void)offset;
	(void)nw;
	(void)wl;
	dev.launches++;
	if (stub_fault_is("enqueue") && (int)dev.launches == dev.fault_n)
		return dev.fault_code;
	if (k->op == OP_TRANSPOSE && stub_fault_is("slow-transpose")) {
		if (!dev.fault_fired)
			fputs("stub: transpose check\n", stderr);
		dev.fault_fired = true;
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
	if (k->op == OP_TRANSPOSE)
		return stub_transpose(k, ev);
	const uint32_t *tables = (const uint32_t *)k->tables->data;
	size_t wg = local ? local[0] : 1, n = global[0];
	unsigned S = dev.subgroup;
	uint32_t lanes[CB_MAX_LANES];
	for (unsigned l = 0; l < S; l++)
		lanes[l] = tables[k->table * k->nlanes + l % k->nlanes];
	bool wrong = stub_fault_is("wrong-result") || (dev.loop_cap && k->steps > dev.loop_cap);
	/* The first and the last work-group report their first lanes to the launch's slot (every
	 * work-group computes the same; the per-work-item results are never read back). */
	uint32_t *check = (uint32_t *)k->check->data;
	for (unsigned g = 0; g < 2; g++)
		for (size_t l = 0; l < wg && l < k->nlanes; l++) {
			size_t at = ((size_t)k->slot * 2 + g) * k->nlanes + l;
			if ((at + 1) * sizeof(uint32_t) <= k->check->size)
				check[at] = stub_expected(k, tables + k->table * k->nlanes, l, wg) +
					    wrong;
		}
	/* Time per step: t0 + c * passes for one sub-group, times the sub-groups per compute unit. */
	int e = cb_elem_index(k->elem);
	double passes = dev.flat ? 1
				 : cb_passes(&dev.op_geom[k->op], dev.op_lanes[k->op][e], k->elem,
					     lanes, S);
	double groups = (double)n / S / 4;
	double per_step = (dev.t0 + 1.0 * passes) * (groups < 1 ? 1 : groups);
	double ns = (double)k->steps * per_step + 3000;
	cl_event event = stub_new_event(ns);
	if (ev)
		*ev = event;
	else
		free(event);
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_EnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool block,
						  size_t offset, size_t size, const void *ptr,
						  cl_uint nw, const cl_event *wl, cl_event *ev)
{
	(void)q;
	(void)block;
	(void)nw;
	(void)wl;
	(void)ev;
	if (offset + size > m->size)
		return CL_INVALID_VALUE;
	memcpy(m->data + offset, ptr, size);
	m->gen++;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_WaitForEvents(cl_uint n, const cl_event *ev)
{
	(void)ev;
	/* A slow device is slow per launch, however the launches are batched. */
	if (stub_fault_is("slow")) {
		long ms = n > 20 ? (long)n : 20;
		nanosleep(&(struct timespec){ ms / 1000, ms % 1000 * 1000000 }, NULL);
	}
	if (stub_fault_is("wait") && (int)dev.launches >= dev.fault_n && !dev.fault_fired) {
		dev.fault_fired = true;
		return dev.fault_code;
	}
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_Flush(cl_command_queue q)
{
	(void)q;
	if (stub_fault_is("flush") && (int)dev.launches >= dev.fault_n && !dev.fault_fired) {
		dev.fault_fired = true;
		return dev.fault_code;
	}
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_Finish(cl_command_queue q)
{
	(void)q;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_GetEventProfilingInfo(cl_event ev, cl_profiling_info what,
						     size_t size, void *value, size_t *ret)
{
	if (stub_fault_is("profiling"))
		return CL_PROFILING_INFO_NOT_AVAILABLE;
	switch (what) {
	case CL_PROFILING_COMMAND_START:
		return give(&ev->start, sizeof ev->start, size, value, ret);
	case CL_PROFILING_COMMAND_END:
		return give(&ev->end, sizeof ev->end, size, value, ret);
	default:
		return CL_INVALID_VALUE;
	}
}

static cl_int CL_API_CALL stub_ReleaseEvent(cl_event ev)
{
	free(ev);
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_EnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool block,
						 size_t offset, size_t size, void *ptr, cl_uint nw,
						 const cl_event *wl, cl_event *ev)
{
	(void)q;
	(void)block;
	(void)nw;
	(void)wl;
	(void)ev;
	if (offset + size > m->size)
		return CL_INVALID_VALUE;
	memcpy(ptr, m->data + offset, size);
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_UnloadPlatformCompiler(cl_platform_id p)
{
	(void)p;
	return CL_SUCCESS;
}

/* cl_khr_subgroups: the sub-group size a kernel runs with. */
static cl_int CL_API_CALL stub_GetKernelSubGroupInfoKHR(cl_kernel k, cl_device_id d,
							cl_kernel_sub_group_info what,
							size_t in_size, const void *in, size_t size,
							void *value, size_t *ret)
{
	(void)d;
	(void)in_size;
	(void)in;
	if (what != CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR)
		return CL_INVALID_VALUE;
	size_t sg = dev.kernel_subgroup ? dev.kernel_subgroup : k->pin ? k->pin : 32;
	return give(&sg, sizeof sg, size, value, ret);
}

static void *CL_API_CALL stub_GetExtensionFunctionAddressForPlatform(cl_platform_id p,
								     const char *name)
{
	(void)p;
	if (strcmp(name, "clGetKernelSubGroupInfoKHR") == 0 && (dev.intel || dev.kernel_subgroup))
		return (void *)stub_GetKernelSubGroupInfoKHR;
	return NULL;
}

EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *platforms,
						 cl_uint *count)
{
	dispatch.clGetPlatformInfo = stub_GetPlatformInfo;
	dispatch.clGetDeviceIDs = stub_GetDeviceIDs;
	dispatch.clGetDeviceInfo = stub_GetDeviceInfo;
	dispatch.clCreateContext = stub_CreateContext;
	dispatch.clReleaseContext = (cl_api_clReleaseContext)stub_Release;
	dispatch.clCreateCommandQueue = stub_CreateCommandQueue;
	dispatch.clReleaseCommandQueue = (cl_api_clReleaseCommandQueue)stub_Release;
	dispatch.clCreateProgramWithSource = stub_CreateProgramWithSource;
	dispatch.clBuildProgram = stub_BuildProgram;
	dispatch.clCreateProgramWithBinary = stub_CreateProgramWithBinary;
	dispatch.clGetProgramInfo = stub_GetProgramInfo;
	dispatch.clGetProgramBuildInfo = stub_GetProgramBuildInfo;
	dispatch.clRetainProgram = stub_RetainProgram;
	dispatch.clReleaseProgram = stub_ReleaseProgram;
	dispatch.clCreateKernel = stub_CreateKernel;
	dispatch.clReleaseKernel = stub_ReleaseKernel;
	dispatch.clGetKernelWorkGroupInfo = stub_GetKernelWorkGroupInfo;
	dispatch.clSetKernelArg = stub_SetKernelArg;
	dispatch.clCreateBuffer = stub_CreateBuffer;
	dispatch.clReleaseMemObject = stub_ReleaseMemObject;
	dispatch.clEnqueueNDRangeKernel = stub_EnqueueNDRangeKernel;
	dispatch.clWaitForEvents = stub_WaitForEvents;
	dispatch.clFlush = stub_Flush;
	/* ocl-icd answers clGetExtensionFunctionAddressForPlatform for this one itself and
	 * dispatches through the table. */
	dispatch.clGetKernelSubGroupInfoKHR = stub_GetKernelSubGroupInfoKHR;
	dispatch.clFinish = stub_Finish;
	dispatch.clGetEventProfilingInfo = stub_GetEventProfilingInfo;
	dispatch.clReleaseEvent = stub_ReleaseEvent;
	dispatch.clEnqueueReadBuffer = stub_EnqueueReadBuffer;
	dispatch.clEnqueueWriteBuffer = stub_EnqueueWriteBuffer;
	dispatch.clUnloadPlatformCompiler = stub_UnloadPlatformCompiler;
	dispatch.clGetExtensionFunctionAddressForPlatform =
		stub_GetExtensionFunctionAddressForPlatform;
	if (count)
		*count = 1;
	if (platforms && n)
		platforms[0] = &platform;
	return CL_SUCCESS;
}

EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
	if (strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
		return (void *)clIcdGetPlatformIDsKHR;
	return NULL;
}

/* The loader looks this symbol up to check for cl_khr_icd before it trusts the dispatch table. */
EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info what, size_t size,
					    void *value, size_t *ret)
{
	return stub_GetPlatformInfo(p, what, size, value, ret);
}
