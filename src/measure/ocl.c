/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/ocl.h"
#include "measure/kernels.h"
#include "measure/watchdog.h"
#include "core/util.h"

#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const elem_types[CB_NELEM] = { "uchar", "ushort", "uint", "uint2", "uint4" };

struct cb_ocl {
	const cb_device_ref *ref;
	const cb_device_info *info;
	cb_ocl_opts o;
	unsigned timeout_s;
	cl_context ctx;
	cl_command_queue q;
	bool event_timer;
	cl_program prog[CB_NELEM];
	cl_kernel kern[CB_NELEM];
	char build_opts[CB_NELEM][512];
	cl_mem tables, out;
	uint32_t *out_host;
	size_t global, local;
	unsigned long local_bytes;
};

uint32_t cb_expected_result(unsigned elem_bytes, uint32_t offset, uint32_t steps, bool little_endian)
{
	uint32_t w = offset / 4, v;
	uint32_t word = w * 0x9E3779B1u;
	unsigned shift = little_endian ? 8 * (offset % 4) : 8 * (4 - (offset % 4) - elem_bytes);
	switch (elem_bytes) {
	case 1: v = (word >> shift) & 0xffu; break;
	case 2: v = (word >> shift) & 0xffffu; break;
	case 4: v = word; break;
	case 8: v = word ^ ((w + 1) * 0x9E3779B1u); break;
	default:
		v = word ^ ((w + 1) * 0x9E3779B1u) ^ ((w + 2) * 0x9E3779B1u) ^ ((w + 3) * 0x9E3779B1u);
		break;
	}
	/* The kernel returns the last loaded value plus the number of steps it ran. */
	return v + steps;
}

static cb_rc cl_fail(cb_error *err, const char *call, cl_int st, const char *what)
{
	return cb_error_call(err, CB_ERR_RUNTIME, call, st, "%s", what);
}

cb_rc cb_ocl_open(const cb_device_ref *ref, const cb_device_info *info, const cb_ocl_opts *o,
		  cb_ocl **out, cb_error *err)
{
	cb_ocl *c = cb_xcalloc(1, sizeof *c);
	c->ref = ref;
	c->info = info;
	c->o = *o;
	*out = c;
	cl_int st;
	c->ctx = clCreateContext(NULL, 1, &ref->device, NULL, NULL, &st);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateContext", st, "cannot create an OpenCL context");
	c->q = clCreateCommandQueue(c->ctx, ref->device, CL_QUEUE_PROFILING_ENABLE, &st);
	c->event_timer = st == CL_SUCCESS;
	if (st == CL_INVALID_QUEUE_PROPERTIES) {
		cb_note(o->notify, CB_NOTE_WARNING,
			"the driver has no profiling queues; timing with the host clock");
		c->q = clCreateCommandQueue(c->ctx, ref->device, 0, &st);
	}
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateCommandQueue", st, "cannot create a command queue");
	return CB_OK;
}

void cb_ocl_set_timeout(cb_ocl *c, unsigned seconds)
{
	c->timeout_s = seconds;
}

void cb_ocl_close(cb_ocl *c)
{
	if (!c)
		return;
	for (int e = 0; e < CB_NELEM; e++) {
		if (c->kern[e])
			clReleaseKernel(c->kern[e]);
		if (c->prog[e])
			clReleaseProgram(c->prog[e]);
	}
	if (c->tables)
		clReleaseMemObject(c->tables);
	if (c->out)
		clReleaseMemObject(c->out);
	if (c->q)
		clReleaseCommandQueue(c->q);
	if (c->ctx)
		clReleaseContext(c->ctx);
	/* Lets PoCL drop its compiler state, keeping valgrind and LeakSanitizer quiet. */
	clUnloadPlatformCompiler(c->ref->platform);
	free(c->out_host);
	free(c);
}

bool cb_ocl_event_timer(const cb_ocl *c)
{
	return c->event_timer;
}

bool cb_ocl_built(const cb_ocl *c, int e)
{
	return c->kern[e] != NULL;
}

const char *cb_ocl_build_options(const cb_ocl *c, int e)
{
	return c->kern[e] ? c->build_opts[e] : NULL;
}

/* The build log, cut at 64 KiB, as an error's text. */
static cb_rc build_failed(cb_ocl *c, int e, cl_int st, cb_error *err)
{
	size_t n = 0;
	char *log = NULL;
	if (clGetProgramBuildInfo(c->prog[e], c->ref->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) ==
	    CL_SUCCESS && n > 1) {
		log = cb_xcalloc(1, n + 1);
		if (clGetProgramBuildInfo(c->prog[e], c->ref->device, CL_PROGRAM_BUILD_LOG, n, log,
					  NULL) != CL_SUCCESS)
			log[0] = '\0';
	}
	cb_error_call(err, CB_ERR_RUNTIME, "clBuildProgram", st,
		      "the %u-byte kernel does not build (options: %s)", cb_elem_sizes[e],
		      c->build_opts[e]);
	cb_error_detail(err, "build log:\n%s", log && *log ? log : "(empty)");
	free(log);
	return CB_ERR_RUNTIME;
}

cb_rc cb_ocl_build(cb_ocl *c, int e, cb_error *err)
{
	if (c->kern[e])
		return CB_OK;
	char *src = NULL;
	cb_rc rc = cb_kernel_source("chase.cl", c->o.kernel_dir, &src, err);
	if (rc != CB_OK)
		return rc;
	cl_int st;
	const char *srcs[1] = { src };
	c->prog[e] = clCreateProgramWithSource(c->ctx, 1, srcs, NULL, &st);
	free(src);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateProgramWithSource", st, "cannot create the kernel program");
	snprintf(c->build_opts[e], sizeof c->build_opts[e],
		 "-cl-std=CL1.2 -DCB_ELEM=%s -DCB_ELEM_BYTES=%u%s%s", elem_types[e], cb_elem_sizes[e],
		 c->o.build_options ? " " : "", c->o.build_options ? c->o.build_options : "");
	st = clBuildProgram(c->prog[e], 1, &c->ref->device, c->build_opts[e], NULL, NULL);
	if (st != CL_SUCCESS)
		return build_failed(c, e, st, err);
	c->kern[e] = clCreateKernel(c->prog[e], "cb_chase", &st);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateKernel", st, "cannot create the kernel cb_chase");
	return CB_OK;
}

cb_rc cb_ocl_kernel_limits(cb_ocl *c, int e, cb_kernel_limits *lim, cb_error *err)
{
	cl_device_id d = c->ref->device;
	memset(lim, 0, sizeof *lim);
	cl_int st = clGetKernelWorkGroupInfo(c->kern[e], d, CL_KERNEL_WORK_GROUP_SIZE,
					     sizeof lim->work_group_size, &lim->work_group_size, NULL);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clGetKernelWorkGroupInfo", st,
			       "cannot query CL_KERNEL_WORK_GROUP_SIZE");
	cl_ulong local = 0;
	st = clGetKernelWorkGroupInfo(c->kern[e], d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local,
				      NULL);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clGetKernelWorkGroupInfo", st, "cannot query CL_KERNEL_LOCAL_MEM_SIZE");
	lim->local_mem_static = local;
	/* Optional: a driver that does not know it leaves the multiple unknown (0). */
	if (clGetKernelWorkGroupInfo(c->kern[e], d, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
				     sizeof lim->preferred_multiple, &lim->preferred_multiple,
				     NULL) != CL_SUCCESS)
		lim->preferred_multiple = 0;
	return CB_OK;
}

unsigned cb_ocl_kernel_subgroup(cb_ocl *c, int e, size_t local)
{
	if (!c->info->has_khr_subgroups || !c->kern[e])
		return 0;
	clGetKernelSubGroupInfoKHR_fn fn = (clGetKernelSubGroupInfoKHR_fn)
		clGetExtensionFunctionAddressForPlatform(c->ref->platform, "clGetKernelSubGroupInfoKHR");
	size_t sg = 0;
	if (!fn || fn(c->kern[e], c->ref->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR,
		      sizeof local, &local, sizeof sg, &sg, NULL) != CL_SUCCESS)
		return 0;
	return sg >= 1 && sg <= CB_MAX_LANES ? (unsigned)sg : 0;
}

cb_rc cb_ocl_set_tables(cb_ocl *c, const uint32_t *tables, size_t ntables, unsigned nlanes,
			cb_error *err)
{
	if (c->tables)
		clReleaseMemObject(c->tables);
	cl_int st;
	c->tables = clCreateBuffer(c->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				   ntables * nlanes * sizeof *tables, (void *)tables, &st);
	if (st != CL_SUCCESS) {
		c->tables = NULL;
		return cl_fail(err, "clCreateBuffer", st, "cannot allocate the lane tables on the device");
	}
	return CB_OK;
}

cb_rc cb_ocl_set_work(cb_ocl *c, size_t global, size_t local, unsigned long local_bytes,
		      cb_error *err)
{
	if (c->out && global != c->global) {
		clReleaseMemObject(c->out);
		c->out = NULL;
	}
	c->global = global;
	c->local = local;
	c->local_bytes = local_bytes;
	if (c->out)
		return CB_OK;
	cl_int st;
	c->out = clCreateBuffer(c->ctx, CL_MEM_WRITE_ONLY, global * sizeof(uint32_t), NULL, &st);
	if (st != CL_SUCCESS) {
		c->out = NULL;
		return cl_fail(err, "clCreateBuffer", st, "cannot allocate the result buffer");
	}
	free(c->out_host);
	c->out_host = cb_xmalloc(global * sizeof(uint32_t));
	return CB_OK;
}

/* Every work-group runs the same code on the same table: the first, a middle and the last
 * work-group stand for all of them (reading back millions of results per launch would cost
 * more than the measurement). */
static cb_rc verify(cb_ocl *c, const cb_launch_req *req, cb_error *err)
{
	size_t groups = c->global / c->local, pick[3] = { 0, groups / 2, groups - 1 };
	for (int g = 0; g < 3; g++) {
		if (g && pick[g] == pick[g - 1])
			continue;
		size_t first = pick[g] * c->local;
		cl_int st = clEnqueueReadBuffer(c->q, c->out, CL_TRUE, first * sizeof(uint32_t),
						c->local * sizeof(uint32_t), c->out_host, 0, NULL, NULL);
		if (st != CL_SUCCESS)
			return cl_fail(err, "clEnqueueReadBuffer", st, "cannot read the kernel's results");
		for (size_t i = 0; i < c->local; i++) {
			uint32_t lane = (uint32_t)(i % req->nlanes);
			uint32_t want = cb_expected_result(cb_elem_sizes[req->elem], req->lanes[lane],
							   req->steps, c->info->little_endian);
			if (c->out_host[i] != want)
				return cb_error_set(err, CB_ERR_RUNTIME, "verification failed for %s: "
						    "work-item %zu returned 0x%08x, expected 0x%08x (the "
						    "kernel was skipped or miscompiled; no times are kept)",
						    req->what, first + i, c->out_host[i], want);
		}
	}
	return CB_OK;
}

static cb_rc set_args(cb_ocl *c, const cb_launch_req *req, cb_error *err)
{
	cl_kernel k = c->kern[req->elem];
	cl_uint mask = 0, table = req->table, nlanes = req->nlanes, steps = req->steps;
	cl_uint fill = req->fill_words;
	struct { size_t size; const void *value; } args[] = {
		{ sizeof(cl_mem), &c->tables }, { sizeof(cl_uint), &table }, { sizeof(cl_uint), &nlanes },
		{ sizeof(cl_uint), &steps }, { sizeof(cl_uint), &mask }, { sizeof(cl_uint), &fill },
		{ sizeof(cl_mem), &c->out }, { c->local_bytes, NULL },
	};
	for (cl_uint i = 0; i < sizeof args / sizeof *args; i++) {
		cl_int st = clSetKernelArg(k, i, args[i].size, args[i].value);
		if (st != CL_SUCCESS)
			return cb_error_call(err, CB_ERR_RUNTIME, "clSetKernelArg", st,
					     "cannot set argument %u of the %u-byte kernel", i,
					     cb_elem_sizes[req->elem]);
	}
	return CB_OK;
}

static cb_rc event_time(cl_event ev, uint64_t *ns, cb_error *err)
{
	cl_ulong t0 = 0, t1 = 0;
	cl_int st = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
	if (st == CL_SUCCESS)
		st = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clGetEventProfilingInfo", st, "cannot read the launch's timestamps");
	*ns = t1 > t0 ? t1 - t0 : 0; /* subtract as integers, before any conversion */
	return CB_OK;
}

cb_rc cb_ocl_launch(cb_ocl *c, const cb_launch_req *req, uint64_t *ns, cb_error *err)
{
	*ns = 0;
	cb_rc rc = set_args(c, req, err);
	if (rc != CB_OK)
		return rc;
	cl_event ev = NULL;
	double h0 = cb_now();
	cb_watchdog_arm(c->timeout_s, req->what);
	cl_int st = clEnqueueNDRangeKernel(c->q, c->kern[req->elem], 1, NULL, &c->global, &c->local,
					   0, NULL, &ev);
	if (st != CL_SUCCESS) {
		cb_watchdog_arm(0, NULL);
		return cb_error_call(err, CB_ERR_RUNTIME, "clEnqueueNDRangeKernel", st,
				     "launch of %s failed", req->what);
	}
	st = clWaitForEvents(1, &ev);
	double h1 = cb_now();
	cb_watchdog_arm(0, NULL);
	if (st != CL_SUCCESS) {
		clReleaseEvent(ev);
		return cb_error_call(err, CB_ERR_RUNTIME, "clWaitForEvents", st,
				     "%s failed while running", req->what);
	}
	if (c->event_timer)
		rc = event_time(ev, ns, err);
	else
		*ns = (uint64_t)((h1 - h0) * 1e9);
	clReleaseEvent(ev);
	if (rc == CB_OK && req->verify)
		rc = verify(c, req, err);
	return rc;
}
