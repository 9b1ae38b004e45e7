/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/runner.h"
#include "measure/clerr.h"
#include "measure/kernels.h"
#include "core/model.h"
#include "core/plan.h"
#include "cli/signals.h"
#include "core/stats.h"
#include "core/util.h"

#include <CL/cl_ext.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STEPS_MIN 8u
#define STEPS_MAX (1u << 26)
#define PROBE_STEPS 64u
/* Throughput regime: work-groups of 256 work-items, 64 per compute unit. Many waves keep the
 * ragged last wave small: with 8 per compute unit an H200 held 7 at once and times were
 * bimodal; large work-groups of 1024 left too few warps in flight to saturate the banks. */
#define WG_TARGET 256u
#define WG_PER_CU 64u
#define DEFAULT_LOCAL_BUDGET 32768UL

static const char *const elem_types[CB_NELEM] = { "uchar", "ushort", "uint", "uint2", "uint4" };

typedef struct {
	const cb_device_ref *ref;
	cb_device_info *info;
	const cb_run_opts *o;
	cl_context ctx;
	cl_command_queue q;
	cl_program prog[CB_NELEM];
	cl_kernel kern[CB_NELEM];
	char build_opts[CB_NELEM][512];
	double build_s[CB_NELEM];
	cl_mem tables;      /* every lane table, baseline first */
	cl_mem out;
	uint32_t *out_host;
	bool event_timer;
	size_t kernel_wg;           /* CL_KERNEL_WORK_GROUP_SIZE of the 4-byte kernel */
	unsigned long local_avail;  /* local memory a work-group may have */
	unsigned long local_alloc;  /* what every launch allocates */
	unsigned long per_cu;       /* work-groups per compute unit (throughput) */
	size_t wg, global;
	unsigned S;
	double target_ns;           /* calibrated length of one launch */
	size_t invalid_samples, total_samples;
	double last_progress;
} runner;

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

static int cl_fail(const char *call, cl_int st)
{
	cb_cl_report(call, st);
	return CB_EXIT_RUNTIME;
}

/* Builds the program for element size index E (once). */
static int build(runner *r, int e)
{
	if (r->kern[e])
		return CB_EXIT_OK;
	char *src = cb_kernel_source("chase.cl", r->o->kernel_dir);
	if (!src)
		return r->o->kernel_dir ? CB_EXIT_USAGE : CB_EXIT_RUNTIME;
	cl_int st;
	const char *srcs[1] = { src };
	double t0 = cb_now();
	r->prog[e] = clCreateProgramWithSource(r->ctx, 1, srcs, NULL, &st);
	free(src);
	if (st != CL_SUCCESS)
		return cl_fail("clCreateProgramWithSource", st);
	snprintf(r->build_opts[e], sizeof r->build_opts[e], "-cl-std=CL1.2 -DCB_ELEM=%s -DCB_ELEM_BYTES=%u%s%s",
		 elem_types[e], cb_elem_sizes[e], r->o->build_options ? " " : "",
		 r->o->build_options ? r->o->build_options : "");
	st = clBuildProgram(r->prog[e], 1, &r->ref->device, r->build_opts[e], NULL, NULL);
	if (st != CL_SUCCESS) {
		cb_cl_report("clBuildProgram", st);
		size_t n = 0;
		clGetProgramBuildInfo(r->prog[e], r->ref->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
		if (n > 1) {
			char *log = cb_xcalloc(1, n + 1);
			clGetProgramBuildInfo(r->prog[e], r->ref->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
			if (n > 65536)
				log[65536] = '\0';
			fprintf(stderr, "clbanks: build log (options: %s):\n%s\n", r->build_opts[e], log);
			free(log);
		}
		return CB_EXIT_RUNTIME;
	}
	r->kern[e] = clCreateKernel(r->prog[e], "cb_chase", &st);
	if (st != CL_SUCCESS)
		return cl_fail("clCreateKernel", st);
	r->build_s[e] = cb_now() - t0;
	if (r->o->verbose)
		fprintf(stderr, "clbanks: built %u-byte kernel in %.3f s\n", cb_elem_sizes[e], r->build_s[e]);
	return CB_EXIT_OK;
}

/* One launch. *NS receives END - START in integer nanoseconds (0 for an invalid sample).
 * With VERIFY, the result of every work-item is checked against LANES. */
static int launch(runner *r, int e, cl_mem tables, unsigned table, unsigned nlanes, unsigned steps,
		  unsigned fill_words, size_t global, size_t wg, const uint32_t *lanes, bool verify,
		  uint64_t *ns, const char *what)
{
	cl_kernel k = r->kern[e];
	cl_uint mask = 0;
	cl_int st = CL_SUCCESS;
	st |= clSetKernelArg(k, 0, sizeof(cl_mem), &tables);
	st |= clSetKernelArg(k, 1, sizeof(cl_uint), &table);
	st |= clSetKernelArg(k, 2, sizeof(cl_uint), &nlanes);
	st |= clSetKernelArg(k, 3, sizeof(cl_uint), &steps);
	st |= clSetKernelArg(k, 4, sizeof(cl_uint), &mask);
	st |= clSetKernelArg(k, 5, sizeof(cl_uint), &fill_words);
	st |= clSetKernelArg(k, 6, sizeof(cl_mem), &r->out);
	st |= clSetKernelArg(k, 7, r->local_alloc, NULL);
	if (st != CL_SUCCESS)
		return cl_fail("clSetKernelArg", st);
	cl_event ev = NULL;
	double h0 = cb_now();
	cb_watchdog_arm(r->o->timeout_s, what);
	st = clEnqueueNDRangeKernel(r->q, k, 1, NULL, &global, &wg, 0, NULL, &ev);
	if (st != CL_SUCCESS) {
		cb_watchdog_arm(0, NULL);
		cb_err("launch of %s failed", what);
		return cl_fail("clEnqueueNDRangeKernel", st);
	}
	st = clWaitForEvents(1, &ev);
	double h1 = cb_now();
	cb_watchdog_arm(0, NULL);
	if (st != CL_SUCCESS) {
		clReleaseEvent(ev);
		cb_err("%s failed while running", what);
		return cl_fail("clWaitForEvents", st);
	}
	*ns = 0;
	r->total_samples++;
	if (r->event_timer) {
		cl_ulong t0 = 0, t1 = 0;
		cl_int a = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
		cl_int b = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
		if (a != CL_SUCCESS || b != CL_SUCCESS) {
			clReleaseEvent(ev);
			return cl_fail("clGetEventProfilingInfo", a != CL_SUCCESS ? a : b);
		}
		if (t1 > t0)
			*ns = t1 - t0; /* subtract as integers, before any conversion */
	} else {
		*ns = (uint64_t)((h1 - h0) * 1e9);
	}
	clReleaseEvent(ev);
	if (*ns == 0)
		r->invalid_samples++;
	if (verify) {
		/* Every work-group runs the same code on the same table: the first, a middle and the
		 * last work-group stand for all of them (reading back millions of results per
		 * experiment would cost more than the measurement). */
		size_t groups = global / wg, pick[3] = { 0, groups / 2, groups - 1 };
		for (int g = 0; g < 3; g++) {
			if (g && pick[g] == pick[g - 1])
				continue;
			size_t first = pick[g] * wg;
			st = clEnqueueReadBuffer(r->q, r->out, CL_TRUE, first * sizeof(uint32_t),
						 wg * sizeof(uint32_t), r->out_host, 0, NULL, NULL);
			if (st != CL_SUCCESS)
				return cl_fail("clEnqueueReadBuffer", st);
			for (size_t i = 0; i < wg; i++) {
				uint32_t lane = (uint32_t)(i % nlanes);
				uint32_t want = cb_expected_result(cb_elem_sizes[e], lanes[lane], steps,
								   r->info->little_endian);
				if (r->out_host[i] != want) {
					cb_err("verification failed for %s: work-item %zu returned 0x%08x, "
					       "expected 0x%08x (the kernel was skipped or miscompiled; no "
					       "times are kept)", what, first + i, r->out_host[i], want);
					return CB_EXIT_RUNTIME;
				}
			}
		}
	}
	return CB_EXIT_OK;
}

static unsigned fill_words_for(const uint32_t *lanes, unsigned n, unsigned elem)
{
	uint32_t top = 16;
	for (unsigned l = 0; l < n; l++)
		if (lanes[l] + elem > top)
			top = lanes[l] + elem;
	return (top + 15) / 16 * 4;
}

static unsigned round_steps(double s)
{
	if (!(s >= STEPS_MIN))
		return STEPS_MIN;
	if (s > STEPS_MAX)
		return STEPS_MAX;
	return ((unsigned)s + 7u) & ~7u;
}

/* Sub-group size from the kernel query of cl_khr_subgroups. */
static unsigned subgroup_from_kernel(runner *r)
{
	if (!r->info->has_khr_subgroups)
		return 0;
	clGetKernelSubGroupInfoKHR_fn fn = (clGetKernelSubGroupInfoKHR_fn)
		clGetExtensionFunctionAddressForPlatform(r->ref->platform, "clGetKernelSubGroupInfoKHR");
	if (!fn)
		return 0;
	size_t local = r->wg ? r->wg : WG_TARGET, sg = 0;
	if (fn(r->kern[2], r->ref->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, sizeof local,
	       &local, sizeof sg, &sg, NULL) != CL_SUCCESS)
		return 0;
	return sg >= 1 && sg <= CB_MAX_LANES ? (unsigned)sg : 0;
}

/* Finds the number of lanes served together for 4-byte loads: tables of n lanes on n rows of one
 * bank cost more passes as n grows, until n passes the group. Returns 0 when the curve does not
 * show that shape (e.g. a CPU). */
static int measure_subgroup(runner *r, unsigned *found, json_t *record)
{
	enum { MAXN = 128, STRIDE = 512, REPS = 5 };
	unsigned ns_list[16], nn = 0;
	for (unsigned n = 1; n <= MAXN && (unsigned long)n * STRIDE <= r->local_alloc; n *= 2)
		ns_list[nn++] = n;
	/* Table of n lanes at index n..2n-1: table number 1 with nlanes = n. */
	uint32_t *lanes = cb_xcalloc(2 * MAXN, sizeof *lanes);
	for (unsigned i = 0; i < nn; i++)
		for (unsigned l = 0; l < ns_list[i]; l++)
			lanes[ns_list[i] + l] = l * STRIDE;
	cl_int st;
	cl_mem buf = clCreateBuffer(r->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				    2 * MAXN * sizeof *lanes, lanes, &st);
	if (st != CL_SUCCESS) {
		free(lanes);
		return cl_fail("clCreateBuffer", st);
	}
	double ratio[16];
	double base = 0;
	unsigned steps = 256;
	int rc = CB_EXIT_OK;
	json_t *curve = json_array();
	{
		/* Calibrate on the one-address table so that probe launches last about 1 ms. */
		uint64_t ns = 0;
		rc = launch(r, 2, buf, 1, 1, steps, 4, r->global, r->wg, lanes + 1, true, &ns,
			    "the sub-group probe");
		if (rc == CB_EXIT_OK && ns > 0)
			steps = round_steps(1e6 / ((double)ns / steps));
	}
	for (unsigned i = 0; i < nn && rc == CB_EXIT_OK; i++) {
		unsigned n = ns_list[i];
		unsigned fill = fill_words_for(lanes + n, n, 4);
		double t[REPS];
		for (unsigned k = 0; k < REPS && rc == CB_EXIT_OK; k++) {
			uint64_t ns;
			rc = launch(r, 2, buf, 1, n, steps, fill, r->global, r->wg, lanes + n, k == 0, &ns,
				    "the sub-group probe");
			t[k] = (double)ns / steps;
		}
		if (rc != CB_EXIT_OK)
			break;
		double med = cb_median(t, REPS);
		if (i == 0)
			base = med;
		ratio[i] = base > 0 ? med / base : NAN;
		json_array_append_new(curve, json_pack("{s:I, s:f}", "lanes", (json_int_t)n,
						       "ratio", isfinite(ratio[i]) ? ratio[i] : 0.0));
	}
	clReleaseMemObject(buf);
	free(lanes);
	json_object_set_new(record, "probe", curve);
	if (rc != CB_EXIT_OK)
		return rc;
	/* Growth of at least 1.5x per doubling up to the group, then a plateau. A slow start is
	 * allowed (a latency floor hides the first conflicts); growth that stalls half-way is not
	 * a plateau but an ambiguity. */
	*found = 0;
	bool grew = false;
	for (unsigned i = 1; i < nn; i++) {
		double g = ratio[i] / ratio[i - 1];
		if (g >= 1.5) {
			grew = true;
			continue;
		}
		if (!grew)
			continue;
		if (grew && g < 1.25 && ratio[i - 1] >= 3)
			*found = ns_list[i - 1];
		break;
	}
	return CB_EXIT_OK;
}

typedef struct {
	size_t index;        /* in the measurements array; SIZE_MAX for the baseline */
	int e;
	uint32_t *lanes;
	unsigned fill;
	unsigned steps;
	double *ratios;      /* per round */
	uint64_t *samples;   /* per round, ns */
	unsigned n;
} experiment;

static void progress(const cb_run_opts *o, double *last, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void progress(const cb_run_opts *o, double *last, const char *fmt, ...)
{
	if (o->quiet || !isatty(STDERR_FILENO))
		return;
	double now = cb_now();
	if (fmt && now - *last < 0.2)
		return;
	*last = now;
	if (!fmt) {
		fputs("\r\033[K", stderr);
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	fputs("\r\033[Kclbanks: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

static bool ratio_converged(const experiment *x, double target)
{
	cb_summary s;
	if (x->n < 6)
		return false;
	cb_summarize(x->ratios, x->n, &s);
	return isfinite(s.ci_lo) && (s.ci_hi - s.ci_lo) / 2 <= target * s.median;
}

static void release(runner *r)
{
	for (int e = 0; e < CB_NELEM; e++) {
		if (r->kern[e])
			clReleaseKernel(r->kern[e]);
		if (r->prog[e])
			clReleaseProgram(r->prog[e]);
	}
	if (r->tables)
		clReleaseMemObject(r->tables);
	if (r->out)
		clReleaseMemObject(r->out);
	if (r->q)
		clReleaseCommandQueue(r->q);
	if (r->ctx)
		clReleaseContext(r->ctx);
	free(r->out_host);
	/* Lets PoCL drop its compiler state, keeping valgrind and LeakSanitizer quiet. */
	clUnloadPlatformCompiler(r->ref->platform);
}

static json_t *samples_json(const uint64_t *s, unsigned n)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)s[i]));
	return a;
}


/* Context, profiling queue, the 4-byte program and its limits, the local allocation. */
static int setup(runner *r)
{
	const cb_run_opts *o = r->o;
	cl_int st;
	r->ctx = clCreateContext(NULL, 1, &r->ref->device, NULL, NULL, &st);
	if (st != CL_SUCCESS)
		return cl_fail("clCreateContext", st);
	r->q = clCreateCommandQueue(r->ctx, r->ref->device, CL_QUEUE_PROFILING_ENABLE, &st);
	r->event_timer = st == CL_SUCCESS;
	if (st == CL_INVALID_QUEUE_PROPERTIES) {
		cb_warn("the driver has no profiling queues; timing with the host clock");
		r->q = clCreateCommandQueue(r->ctx, r->ref->device, 0, &st);
	}
	if (st != CL_SUCCESS)
		return cl_fail("clCreateCommandQueue", st);

	int rc = build(r, 2);
	if (rc != CB_EXIT_OK)
		return rc;
	cl_ulong kstatic = 0;
	clGetKernelWorkGroupInfo(r->kern[2], r->ref->device, CL_KERNEL_WORK_GROUP_SIZE,
				 sizeof r->kernel_wg, &r->kernel_wg, NULL);
	clGetKernelWorkGroupInfo(r->kern[2], r->ref->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kstatic,
				 &kstatic, NULL);
	if (r->kernel_wg == 0)
		r->kernel_wg = r->info->max_work_group_size;
	r->local_avail = r->info->local_mem_size > kstatic ?
		(unsigned long)(r->info->local_mem_size - kstatic) : 0;
	/* Every launch allocates the same amount, so occupancy does not change between
	 * experiments. */
	r->local_alloc = o->local_mem ? o->local_mem :
		(r->local_avail < DEFAULT_LOCAL_BUDGET ? r->local_avail : DEFAULT_LOCAL_BUDGET);
	r->local_alloc &= ~15UL;
	if (r->local_alloc > r->local_avail) {
		cb_err("--local-mem %lu B exceeds the local memory this device offers a work-group "
		       "(%lu B)", o->local_mem, r->local_avail);
		return CB_EXIT_USAGE;
	}
	if (r->local_alloc < 4096) {
		cb_err("%s offers %lu B of local memory to a work-group; clbanks needs at least 4096 B",
		       r->info->name, r->local_avail);
		return CB_EXIT_USAGE;
	}
	r->per_cu = WG_PER_CU;
	const char *env = getenv("CLBANKS_GROUPS_PER_CU");
	if (env && *env && !cb_parse_ulong(env, 1, 4096, &r->per_cu)) {
		cb_err("CLBANKS_GROUPS_PER_CU='%s' is not a count from 1 to 4096", env);
		return CB_EXIT_USAGE;
	}
	return CB_EXIT_OK;
}

/* The result of every work-item of r->global, on the device and its host copy. */
static int alloc_results(runner *r)
{
	cl_int st;
	r->out = clCreateBuffer(r->ctx, CL_MEM_WRITE_ONLY, r->global * sizeof(uint32_t), NULL, &st);
	if (st != CL_SUCCESS)
		return cl_fail("clCreateBuffer", st);
	r->out_host = cb_xmalloc(r->global * sizeof(uint32_t));
	return CB_EXIT_OK;
}

/* Work sizes for lanes in units of UNIT: work-groups of up to 256, PER_CU per compute unit. */
static int size_work(runner *r, unsigned unit)
{
	size_t cap = r->kernel_wg < WG_TARGET ? r->kernel_wg : WG_TARGET;
	if (cap < unit) {
		cb_err("the kernel allows work-groups of %zu work-items (CL_KERNEL_WORK_GROUP_SIZE), "
		       "fewer than one sub-group of %u", r->kernel_wg, unit);
		return CB_EXIT_USAGE;
	}
	r->wg = cap / unit * unit;
	r->global = r->wg * (r->info->compute_units ? r->info->compute_units : 1) * r->per_cu;
	return CB_EXIT_OK;
}

/* The sub-group size: --subgroup, the driver, the kernel query, a measurement, or a fallback
 * that the report names. Sets r->S and the work sizes. */
static int choose_subgroup(runner *r, json_t *record)
{
	const cb_run_opts *o = r->o;
	cb_device_info *info = r->info;
	size_t pm = 0;
	clGetKernelWorkGroupInfo(r->kern[2], r->ref->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
				 sizeof pm, &pm, NULL);
	unsigned pref_multiple = pm >= 1 && pm <= CB_MAX_LANES ? (unsigned)pm : 0;
	unsigned driver_subgroup = info->subgroup_size;
	int rc;

	if (o->measure_subgroup) {
		info->subgroup_size = 0;
	} else if (o->subgroup_override) {
		info->subgroup_size = o->subgroup_override;
		info->subgroup_source = "--subgroup";
	} else if (!info->subgroup_size) {
		unsigned k = subgroup_from_kernel(r);
		if (k) {
			info->subgroup_size = k;
			info->subgroup_source = "CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE";
		}
	}
	if (!info->subgroup_size) {
		/* Measure with work-groups in units of the preferred multiple. */
		if ((rc = size_work(r, pref_multiple ? pref_multiple : 1)) != CB_EXIT_OK)
			return rc;
		if ((rc = alloc_results(r)) != CB_EXIT_OK)
			return rc;
		unsigned found = 0;
		rc = measure_subgroup(r, &found, record);
		clReleaseMemObject(r->out);
		r->out = NULL;
		free(r->out_host);
		r->out_host = NULL;
		if (rc != CB_EXIT_OK)
			return rc;
		if (driver_subgroup)
			json_object_set_new(record, "driver_reported", json_integer(driver_subgroup));
		if (found) {
			info->subgroup_size = found;
			info->subgroup_source = "measured (lanes served together for 4-byte loads)";
		} else {
			info->subgroup_size = pref_multiple >= 4 ? pref_multiple : 32;
			info->subgroup_source = pref_multiple >= 4 ?
				"not measurable; CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE" :
				"not measurable; assumed 32";
			if (!o->quiet)
				cb_warn("the sub-group size could not be queried or measured; using %u (%s)",
					info->subgroup_size, info->subgroup_source);
		}
	}
	if (info->subgroup_size < 4 || info->subgroup_size > CB_MAX_LANES) {
		cb_err("sub-group size %u (%s) is outside 4..%d", info->subgroup_size,
		       info->subgroup_source, CB_MAX_LANES);
		return CB_EXIT_USAGE;
	}
	r->S = info->subgroup_size;
	if ((rc = size_work(r, r->S)) != CB_EXIT_OK)
		return rc;
	if (o->latency) {
		r->wg = r->S;
		r->global = r->S;
	}
	return CB_EXIT_OK;
}

/* The plan (given or the default one) and its experiments; ex[0] is the baseline, 4-byte
 * elements at stride 1. Checks alignment and that every table fits the allocation. */
static int load_plan(runner *r, json_t **doc_out, experiment **ex_out, size_t *nex_out)
{
	const cb_run_opts *o = r->o;
	json_t *doc;
	if (o->plan) {
		doc = json_deep_copy(o->plan);
		json_t *psg = json_object_get(json_object_get(doc, "device"), "subgroup_size");
		if ((unsigned)json_integer_value(psg) != r->S) {
			cb_err("the plan is for sub-groups of %" JSON_INTEGER_FORMAT " lanes, but %s has %u "
			       "(%s); make one with 'clbanks plan --subgroup %u'", json_integer_value(psg),
			       r->info->name, r->S, r->info->subgroup_source, r->S);
			json_decref(doc);
			return CB_EXIT_USAGE;
		}
	} else {
		cb_plan_opts po = { .subgroup = r->S, .seed = o->seed, .local_mem_budget = r->local_alloc,
				    .quick = o->quick };
		if (!(doc = cb_plan_make(&po)))
			return CB_EXIT_USAGE;
	}
	*doc_out = doc;
	json_t *ms = json_object_get(doc, "measurements");
	size_t nex = json_array_size(ms) + 1;
	experiment *ex = cb_xcalloc(nex, sizeof *ex);
	*ex_out = ex;
	*nex_out = nex;
	for (size_t i = 0; i < nex; i++) {
		ex[i].lanes = cb_xmalloc(r->S * sizeof(uint32_t));
		ex[i].ratios = cb_xcalloc(o->max_rounds, sizeof(double));
		ex[i].samples = cb_xcalloc(o->max_rounds, sizeof(uint64_t));
	}
	ex[0].index = SIZE_MAX;
	ex[0].e = 2;
	for (unsigned l = 0; l < r->S; l++)
		ex[0].lanes[l] = 4 * l;
	for (size_t i = 1; i < nex; i++) {
		json_t *m = json_array_get(ms, i - 1);
		json_t *la = json_object_get(m, "lanes");
		ex[i].index = i - 1;
		ex[i].e = cb_elem_index((unsigned)json_integer_value(json_object_get(m, "elem_bytes")));
		unsigned E = cb_elem_sizes[ex[i].e];
		for (unsigned l = 0; l < r->S; l++) {
			json_int_t v = json_integer_value(json_array_get(la, l));
			if (v % (json_int_t)E != 0) {
				cb_err("measurement %zu: lane %u offset %" JSON_INTEGER_FORMAT " is not a "
				       "multiple of the element size %u; the kernel needs aligned accesses",
				       i - 1, l, v, E);
				return CB_EXIT_USAGE;
			}
			if ((unsigned long)v + E > r->local_alloc) {
				cb_err("measurement %zu needs %" JSON_INTEGER_FORMAT " B of local memory; this "
				       "run allocates %lu B (device offers %lu B; see --local-mem)", i - 1,
				       v + (json_int_t)E, r->local_alloc, r->local_avail);
				return CB_EXIT_USAGE;
			}
			ex[i].lanes[l] = (uint32_t)v;
		}
	}
	for (size_t i = 0; i < nex; i++)
		ex[i].fill = fill_words_for(ex[i].lanes, r->S, cb_elem_sizes[ex[i].e]);
	return CB_EXIT_OK;
}

/* The other programs, their work-group limits, and the buffers: every lane table, and the
 * result of every work-item. */
static int prepare_launches(runner *r, const experiment *ex, size_t nex)
{
	int rc;
	for (size_t i = 0; i < nex; i++)
		if (!r->kern[ex[i].e]) {
			progress(r->o, &r->last_progress, "building the %u-byte kernel", cb_elem_sizes[ex[i].e]);
			if ((rc = build(r, ex[i].e)) != CB_EXIT_OK)
				return rc;
		}
	for (int e = 0; e < CB_NELEM; e++) {
		if (!r->kern[e])
			continue;
		size_t k = 0;
		clGetKernelWorkGroupInfo(r->kern[e], r->ref->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof k, &k, NULL);
		if (k && k < r->wg) {
			cb_err("the %u-byte kernel allows work-groups of at most %zu work-items "
			       "(CL_KERNEL_WORK_GROUP_SIZE); this run needs %zu", cb_elem_sizes[e], k, r->wg);
			return CB_EXIT_USAGE;
		}
	}
	uint32_t *all = cb_xmalloc(nex * r->S * sizeof(uint32_t));
	for (size_t i = 0; i < nex; i++)
		memcpy(all + i * r->S, ex[i].lanes, r->S * sizeof(uint32_t));
	cl_int st;
	r->tables = clCreateBuffer(r->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				   nex * r->S * sizeof(uint32_t), all, &st);
	free(all);
	if (st != CL_SUCCESS)
		return cl_fail("clCreateBuffer", st);
	if ((rc = alloc_results(r)) != CB_EXIT_OK)
		return rc;

	/* Launch length: at least 1 ms and 2000 timer ticks (--quick: 0.5 ms and 500), at most
	 * --max-kernel-ms. */
	const cb_run_opts *o = r->o;
	double ticks = o->quick ? 500.0 : 2000.0;
	r->target_ns = fmax(o->quick ? 0.5e6 : 1e6, ticks * (double)r->info->timer_resolution_ns);
	if (r->target_ns > o->max_kernel_ms * 1e6) {
		if (!o->quiet)
			cb_warn("the timer resolution (%zu ns) asks for %.1f ms launches; capped at "
				"--max-kernel-ms %.1f", r->info->timer_resolution_ns, r->target_ns / 1e6,
				o->max_kernel_ms);
		r->target_ns = o->max_kernel_ms * 1e6;
	}
	return CB_EXIT_OK;
}

static void describe(char *what, size_t n, const experiment *x)
{
	if (x->index == SIZE_MAX)
		snprintf(what, n, "the baseline");
	else
		snprintf(what, n, "measurement %zu (%u-byte)", x->index, cb_elem_sizes[x->e]);
}

/* Calibration and warm-up: the baseline until its time settles, 100 ms more of it, then each
 * experiment once with a short chain (verified) to size its own chain. */
static int calibrate(runner *r, experiment *ex, size_t nex)
{
	uint64_t ns = 0;
	unsigned steps = PROBE_STEPS;
	double per_step = 0;
	char what[160];
	int rc;
	describe(what, sizeof what, &ex[0]);
	for (int k = 0; k < 4; k++) {
		if ((rc = launch(r, 2, r->tables, 0, r->S, steps, ex[0].fill, r->global, r->wg, ex[0].lanes,
				 k == 0, &ns, what)) != CB_EXIT_OK)
			return rc;
		per_step = ns ? (double)ns / steps : per_step;
		if (per_step > 0)
			steps = round_steps(r->target_ns / per_step);
	}
	if (per_step <= 0) {
		cb_err("the device timer gives no time for the baseline (END <= START in every "
		       "launch); it cannot be trusted");
		return CB_EXIT_RUNTIME;
	}
	ex[0].steps = steps;
	double warm_until = cb_now() + 0.1;
	while (cb_now() < warm_until && !cb_stop_signal)
		if ((rc = launch(r, 2, r->tables, 0, r->S, steps, ex[0].fill, r->global, r->wg, ex[0].lanes,
				 false, &ns, what)) != CB_EXIT_OK)
			return rc;
	for (size_t i = 1; i < nex && !cb_stop_signal; i++) {
		unsigned probe = round_steps(ex[0].steps / 16.0);
		describe(what, sizeof what, &ex[i]);
		if ((rc = launch(r, ex[i].e, r->tables, (unsigned)i, r->S, probe, ex[i].fill, r->global,
				 r->wg, ex[i].lanes, true, &ns, what)) != CB_EXIT_OK)
			return rc;
		double ps = ns ? (double)ns / probe : per_step;
		ex[i].steps = round_steps(r->target_ns / ps);
		progress(r->o, &r->last_progress, "calibrating %zu/%zu", i, nex - 1);
	}
	return CB_EXIT_OK;
}

/* Rounds: the baseline and every experiment in a fresh shuffled order; the statistic of a round
 * is each experiment's ratio to that round's baseline. Stops after --min-rounds once every
 * ratio has converged, or at --max-rounds. */
static int measure_rounds(runner *r, experiment *ex, size_t nex, unsigned *rounds_out, bool *converged)
{
	const cb_run_opts *o = r->o;
	cb_rng rng;
	cb_rng_seed(&rng, o->seed ^ 0x5eedULL);
	uint32_t *order = cb_xmalloc(nex * sizeof *order);
	unsigned rounds = 0;
	char what[160];
	int rc = CB_EXIT_OK;
	*converged = false;
	while (rounds < o->max_rounds && !cb_stop_signal && rc == CB_EXIT_OK) {
		for (size_t i = 0; i < nex; i++)
			order[i] = (uint32_t)i;
		cb_shuffle_u32(&rng, order, nex);
		for (size_t j = 0; j < nex && !cb_stop_signal && rc == CB_EXIT_OK; j++) {
			experiment *x = &ex[order[j]];
			uint64_t ns = 0;
			describe(what, sizeof what, x);
			rc = launch(r, x->e, r->tables, order[j], r->S, x->steps, x->fill, r->global, r->wg,
				    x->lanes, false, &ns, what);
			x->samples[rounds] = ns;
		}
		if (cb_stop_signal || rc != CB_EXIT_OK)
			break;
		/* An invalid sample (0 ns) gives no ratio for that round; it stays counted. */
		double base = ex[0].samples[rounds] ? (double)ex[0].samples[rounds] / ex[0].steps : 0;
		for (size_t i = 0; i < nex; i++) {
			experiment *x = &ex[i];
			double t = x->samples[rounds] ? (double)x->samples[rounds] / x->steps : 0;
			if (t > 0 && base > 0)
				x->ratios[x->n++] = t / base;
		}
		rounds++;
		if (rounds >= o->min_rounds) {
			*converged = true;
			for (size_t i = 1; i < nex && *converged; i++)
				*converged = ratio_converged(&ex[i], o->ci_target);
			if (*converged)
				break;
		}
		progress(o, &r->last_progress, "round %u (at least %u, at most %u), %zu experiments",
			 rounds, o->min_rounds, o->max_rounds, nex - 1);
	}
	free(order);
	progress(o, &r->last_progress, NULL);
	*rounds_out = rounds;
	if (rc != CB_EXIT_OK)
		return rc;
	if (cb_stop_signal) {
		cb_err("interrupted by %s after %u of at least %u rounds; no results written",
		       cb_stop_signal == SIGINT ? "SIGINT" : "SIGTERM", rounds, o->min_rounds);
		return cb_stop_signal == SIGINT ? CB_EXIT_SIGINT : CB_EXIT_SIGTERM;
	}
	if (r->invalid_samples * 100 > r->total_samples) {
		cb_err("%zu of %zu timer samples were invalid (END <= START); the device timer cannot "
		       "be trusted", r->invalid_samples, r->total_samples);
		return CB_EXIT_RUNTIME;
	}
	return CB_EXIT_OK;
}

/* Statistics, quality warnings and provenance into the document. */
static void write_results(runner *r, json_t *doc, const experiment *ex, size_t nex, unsigned rounds,
			  bool converged, json_t *sg_record, const double seconds[4])
{
	const cb_run_opts *o = r->o;
	cb_device_info *info = r->info;
	json_t *ms = json_object_get(doc, "measurements");

	cb_summary bs;
	double *bt = cb_xmalloc((rounds ? rounds : 1) * sizeof *bt);
	unsigned nbt = 0;
	for (unsigned k = 0; k < rounds; k++)
		if (ex[0].samples[k])
			bt[nbt++] = (double)ex[0].samples[k] / ex[0].steps;
	cb_summarize(bt, nbt, &bs);
	/* Drift: the baseline's first third against its last third. */
	double drift = NAN;
	if (nbt >= 6) {
		unsigned third = nbt / 3;
		double a = cb_median(bt, third), b = cb_median(bt + nbt - third, third);
		drift = (b - a) / a;
	}
	free(bt);

	size_t outliers = 0, nsamples = 0, not_converged = 0;
	for (size_t i = 1; i < nex; i++) {
		const experiment *x = &ex[i];
		json_t *m = json_array_get(ms, x->index);
		cb_summary s;
		cb_summarize(x->ratios, x->n, &s);
		outliers += s.outliers;
		nsamples += x->n;
		bool conv = ratio_converged(x, o->ci_target);
		not_converged += !conv;
		size_t invalid = 0;
		for (unsigned k = 0; k < rounds; k++)
			invalid += x->samples[k] == 0;
		json_object_set_new(m, "ns_per_access", json_real(s.median * bs.median));
		json_object_set_new(m, "steps", json_integer(x->steps));
		json_object_set_new(m, "verified", json_true());
		json_object_set_new(m, "samples_ns", samples_json(x->samples, rounds));
		json_object_set_new(m, "stats", json_pack("{s:I, s:f, s:[f, f], s:f, s:I, s:I, s:b}",
			"rounds", (json_int_t)x->n, "ratio_median", s.median,
			"ratio_ci95", isfinite(s.ci_lo) ? s.ci_lo : s.min, isfinite(s.ci_hi) ? s.ci_hi : s.max,
			"ratio_mad", s.mad, "outliers", (json_int_t)s.outliers, "invalid", (json_int_t)invalid,
			"converged", conv));
	}
	json_object_set_new(doc, "baseline", json_pack("{s:s, s:I, s:o, s:I, s:f, s:f, s:o}",
		"op", "load", "elem_bytes", (json_int_t)4, "lanes", cb_plan_baseline_lanes(r->S),
		"steps", (json_int_t)ex[0].steps, "ns_per_access", bs.median, "mad_ns", bs.mad,
		"samples_ns", samples_json(ex[0].samples, rounds)));

	json_t *dev = cb_device_info_to_json(info);
	json_object_set_new(dev, "subgroup_size", json_integer(r->S));
	json_object_set_new(dev, "subgroup_source", json_string(info->subgroup_source));
	if (json_object_size(sg_record))
		json_object_set_new(dev, "subgroup_probe", json_incref(sg_record));
	json_object_set_new(doc, "device", dev);

	json_t *warnings = json_array();
	double outlier_share = nsamples ? (double)outliers / (double)nsamples : 0;
	if (!converged)
		json_array_append_new(warnings, json_sprintf(
			"%zu of %zu measurements did not reach a 95%% CI within +/-%.0f%% in %u rounds",
			not_converged, nex - 1, 100 * o->ci_target, rounds));
	if (isfinite(drift) && fabs(drift) > 0.05)
		json_array_append_new(warnings, json_sprintf(
			"the baseline drifted by %+.1f%% from the first to the last third of the rounds "
			"(clock changes or other load); a quiet system or a longer warm-up helps", 100 * drift));
	if (outlier_share > 0.05)
		json_array_append_new(warnings, json_sprintf(
			"%.1f%% of the samples are outliers (more than 10 robust deviations off)",
			100 * outlier_share));
	json_object_set_new(doc, "quality", json_pack("{s:b, s:o, s:f, s:I, s:I, s:o}",
		"converged", converged, "drift", isfinite(drift) ? json_real(drift) : json_null(),
		"outlier_share", outlier_share, "invalid_samples", (json_int_t)r->invalid_samples,
		"samples", (json_int_t)r->total_samples, "warnings", warnings));

	json_t *bo = json_object();
	for (int e = 0; e < CB_NELEM; e++)
		if (r->kern[e]) {
			char key[8];
			snprintf(key, sizeof key, "%u", cb_elem_sizes[e]);
			json_object_set_new(bo, key, json_string(r->build_opts[e]));
		}
	double subgroups_per_cu = o->latency ? 1.0 :
		(double)(r->global / r->S) / (info->compute_units ? info->compute_units : 1);
	json_t *run = json_pack("{s:s, s:s, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:f, s:f, s:I, s:o, s:s}",
		"regime", o->latency ? "latency" : "throughput",
		"timer", r->event_timer ? "event" : "host",
		"work_group_size", (json_int_t)r->wg, "global_size", (json_int_t)r->global,
		"subgroups_per_cu", subgroups_per_cu,
		"local_mem_alloc_bytes", (json_int_t)r->local_alloc,
		"rounds", (json_int_t)rounds, "min_rounds", (json_int_t)o->min_rounds,
		"max_rounds", (json_int_t)o->max_rounds, "ci_target", o->ci_target,
		"target_launch_ms", r->target_ns / 1e6, "seed", (json_int_t)o->seed,
		"build_options", bo, "kernels", o->kernel_dir ? o->kernel_dir : "embedded");
	json_object_set_new(run, "clbanks_version", json_string(PACKAGE_VERSION));
	if (o->command_line)
		json_object_set_new(run, "command_line", json_string(o->command_line));
	json_object_set_new(run, "warmup", json_string("baseline for 100 ms, then one verified "
						       "launch per experiment"));
	json_object_set_new(run, "seconds", json_pack("{s:f, s:f, s:f, s:f}", "build", seconds[0],
		"calibration", seconds[1], "measurement", seconds[2], "total", seconds[3]));
	json_object_set_new(doc, "run", run);
}

int cb_run(const cb_device_ref *ref, cb_device_info *info, const cb_run_opts *o, json_t **doc_out)
{
	runner rr, *r = &rr;
	memset(r, 0, sizeof *r);
	r->ref = ref;
	r->info = info;
	r->o = o;
	json_t *doc = NULL, *sg_record = json_object();
	experiment *ex = NULL;
	size_t nex = 0;
	unsigned rounds = 0;
	bool converged = false;
	double t_start = cb_now(), seconds[4] = { 0 }, t;
	int rc;
	*doc_out = NULL;

	if (info->local_mem_type == CL_GLOBAL && !o->quiet)
		cb_warn("%s has no dedicated local memory (CL_DEVICE_LOCAL_MEM_TYPE = CL_GLOBAL): "
			"expect 'not banked' or 'inconclusive'", info->name);
	if ((rc = setup(r)) != CB_EXIT_OK || (rc = choose_subgroup(r, sg_record)) != CB_EXIT_OK ||
	    (rc = load_plan(r, &doc, &ex, &nex)) != CB_EXIT_OK ||
	    (rc = prepare_launches(r, ex, nex)) != CB_EXIT_OK)
		goto out;
	seconds[0] = cb_now() - t_start;
	t = cb_now();
	if ((rc = calibrate(r, ex, nex)) != CB_EXIT_OK)
		goto out;
	seconds[1] = cb_now() - t;
	t = cb_now();
	if ((rc = measure_rounds(r, ex, nex, &rounds, &converged)) != CB_EXIT_OK)
		goto out;
	seconds[2] = cb_now() - t;
	seconds[3] = cb_now() - t_start;
	write_results(r, doc, ex, nex, rounds, converged, sg_record, seconds);
	*doc_out = doc;
	doc = NULL;
out:
	progress(o, &r->last_progress, NULL);
	for (size_t i = 0; ex && i < nex; i++) {
		free(ex[i].lanes);
		free(ex[i].ratios);
		free(ex[i].samples);
	}
	free(ex);
	json_decref(doc);
	json_decref(sg_record);
	release(r);
	return rc;
}
