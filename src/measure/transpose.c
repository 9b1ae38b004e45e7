/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/transpose.h"
#include "measure/kernels.h"
#include "measure/watchdog.h"
#include "core/advice.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVARIANTS 3
#define MAX_CONFIGS 4
/* A timed batch lasts at least this long (several ticks of any timer). */
#define BATCH_NS 2e6
#define MAX_LAUNCHES 256

static const char *const variants[NVARIANTS] = { "naive", "padded", "swizzled" };

typedef struct {
	unsigned elem_bytes, tile, rows, pad, bits, shift;
} config;

typedef struct {
	const cb_device_ref *ref;
	const cb_transpose_opts *o;
	cl_context ctx;
	cl_command_queue q;
	cl_mem in, out;
	size_t n;                   /* matrix order */
	void *host_in, *host_out;
	cl_program prog;
	cl_kernel kern[NVARIANTS];
} tctx;

static cb_rc cl_fail(cb_error *err, const char *call, cl_int st, const char *what)
{
	return cb_error_call(err, CB_ERR_RUNTIME, call, st, "transpose check: %s", what);
}

/* The fixes to try: the advice's for ELEM and TILE, else +1 and the full swizzle. */
static config make_config(const cb_result *r, unsigned elem, unsigned tile)
{
	config c = { elem, tile, tile >= 256 ? 1 : 256 / tile, 1, 0, 0 };
	while ((1u << (c.bits + 1)) <= tile)
		c.bits++;
	for (unsigned i = 0; i < r->npad; i++)
		if (r->pad[i].elem_bytes == elem && r->pad[i].tile == tile && r->pad[i].found &&
		    r->pad[i].pad > 0)
			c.pad = r->pad[i].pad;
	for (unsigned i = 0; i < r->nswizzle; i++)
		if (r->swizzle[i].elem_bytes == elem && r->swizzle[i].tile == tile &&
		    r->swizzle[i].found) {
			c.bits = r->swizzle[i].bits;
			c.shift = r->swizzle[i].shift;
		}
	return c;
}

static unsigned make_configs(const cb_result *r, bool quick, config *out)
{
	unsigned S = r->device.subgroup_size, n = 0;
	unsigned tiles[2] = { 32, S }, ntiles = S != 32 && (S == 16 || S == 64) ? 2 : 1;
	for (unsigned e = 4; e <= (quick ? 4u : 8u); e *= 2)
		for (unsigned t = 0; t < ntiles; t++)
			out[n++] = make_config(r, e, tiles[t]);
	return n;
}

/* Context, queue and the two matrices (N x N of 8-byte elements at most). */
static cb_rc open_ctx(tctx *t, const cb_device_info *info, cb_error *err)
{
	cl_int st;
	t->n = info->type & CL_DEVICE_TYPE_CPU ? 1024 : 4096;
	if (t->o->quick)
		t->n /= 2;
	t->ctx = clCreateContext(NULL, 1, &t->ref->device, NULL, NULL, &st);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateContext", st, "cannot create a context");
	t->q = clCreateCommandQueue(t->ctx, t->ref->device,
				    t->o->event_timer ? CL_QUEUE_PROFILING_ENABLE : 0, &st);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateCommandQueue", st, "cannot create a queue");
	size_t bytes = t->n * t->n * 8;
	t->host_in = cb_xmalloc(bytes);
	t->host_out = cb_xmalloc(bytes);
	t->in = clCreateBuffer(t->ctx, CL_MEM_READ_ONLY, bytes, NULL, &st);
	if (st == CL_SUCCESS)
		t->out = clCreateBuffer(t->ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &st);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateBuffer", st, "cannot allocate the matrices");
	return CB_OK;
}

static void close_ctx(tctx *t)
{
	for (int v = 0; v < NVARIANTS; v++)
		if (t->kern[v])
			clReleaseKernel(t->kern[v]);
	if (t->prog)
		clReleaseProgram(t->prog);
	if (t->in)
		clReleaseMemObject(t->in);
	if (t->out)
		clReleaseMemObject(t->out);
	if (t->q)
		clReleaseCommandQueue(t->q);
	if (t->ctx)
		clReleaseContext(t->ctx);
	free(t->host_in);
	free(t->host_out);
}

/* The input of element size E: element i is a hash of i, so a misplaced element shows. */
static cb_rc upload(tctx *t, unsigned elem, cb_error *err)
{
	size_t count = t->n * t->n;
	for (size_t i = 0; i < count; i++) {
		uint32_t h = (uint32_t)i * 2654435761u;
		if (elem == 4)
			((uint32_t *)t->host_in)[i] = h;
		else
			((uint64_t *)t->host_in)[i] = (uint64_t)i << 32 | h;
	}
	cl_int st = clEnqueueWriteBuffer(t->q, t->in, CL_TRUE, 0, count * elem, t->host_in, 0, NULL,
					 NULL);
	return st == CL_SUCCESS ? CB_OK : cl_fail(err, "clEnqueueWriteBuffer", st,
						  "cannot upload the matrix");
}

static cb_rc build(tctx *t, const config *c, cb_error *err)
{
	for (int v = 0; v < NVARIANTS; v++)
		if (t->kern[v]) {
			clReleaseKernel(t->kern[v]);
			t->kern[v] = NULL;
		}
	if (t->prog)
		clReleaseProgram(t->prog);
	t->prog = NULL;
	char *src = NULL, opts[512];
	cb_rc rc = cb_kernel_source("transpose.cl", t->o->kernel_dir, &src, err);
	if (rc != CB_OK)
		return rc;
	cl_int st;
	const char *srcs[1] = { src };
	t->prog = clCreateProgramWithSource(t->ctx, 1, srcs, NULL, &st);
	free(src);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateProgramWithSource", st, "cannot create the program");
	snprintf(opts, sizeof opts, "-cl-std=CL1.2 -DCB_ELEM=%s -DCB_TILE=%u -DCB_ROWS=%u -DCB_PAD=%u "
		 "-DCB_MASK=%u -DCB_SHIFT=%u%s%s", c->elem_bytes == 4 ? "uint" : "ulong", c->tile,
		 c->rows, c->pad, (1u << c->bits) - 1, c->shift, t->o->build_options ? " " : "",
		 t->o->build_options ? t->o->build_options : "");
	st = clBuildProgram(t->prog, 1, &t->ref->device, opts, NULL, NULL);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clBuildProgram", st, "cl/transpose.cl does not build");
	for (int v = 0; v < NVARIANTS; v++) {
		char name[48];
		snprintf(name, sizeof name, "cb_transpose_%s", variants[v]);
		t->kern[v] = clCreateKernel(t->prog, name, &st);
		if (st != CL_SUCCESS)
			return cl_fail(err, "clCreateKernel", st, "cannot create a transpose kernel");
	}
	return CB_OK;
}

/* K launches of variant V, waited for; *NS their time per launch (event or host clock). */
static cb_rc launch(tctx *t, const config *c, int v, unsigned k, double *ns, cb_error *err)
{
	cl_uint n = (cl_uint)t->n;
	size_t global[2] = { t->n, t->n / (c->tile / c->rows) }, local[2] = { c->tile, c->rows };
	cl_event first = NULL, last = NULL;
	cl_int st = clSetKernelArg(t->kern[v], 0, sizeof(cl_mem), &t->in);
	if (st == CL_SUCCESS)
		st = clSetKernelArg(t->kern[v], 1, sizeof(cl_mem), &t->out);
	if (st == CL_SUCCESS)
		st = clSetKernelArg(t->kern[v], 2, sizeof n, &n);
	double h0 = cb_now();
	for (unsigned i = 0; st == CL_SUCCESS && i < k; i++) {
		cl_event *ev = i == 0 ? &first : i + 1 == k ? &last : NULL;
		st = clEnqueueNDRangeKernel(t->q, t->kern[v], 2, NULL, global, local, 0, NULL, ev);
	}
	if (st != CL_SUCCESS)
		return cl_fail(err, "clEnqueueNDRangeKernel", st, "a launch failed");
	cb_watchdog_arm(t->o->timeout_s, "the transpose check");
	st = clFinish(t->q);
	cb_watchdog_arm(0, NULL);
	double host_ns = (cb_now() - h0) * 1e9;
	cl_ulong t0 = 0, t1 = 0;
	if (st == CL_SUCCESS && t->o->event_timer) {
		st = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
		if (st == CL_SUCCESS)
			st = clGetEventProfilingInfo(last ? last : first, CL_PROFILING_COMMAND_END,
						     sizeof t1, &t1, NULL);
	}
	if (first)
		clReleaseEvent(first);
	if (last)
		clReleaseEvent(last);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clFinish", st, "the launches failed");
	*ns = (t->o->event_timer ? (double)(t1 > t0 ? t1 - t0 : 0) : host_ns) / k;
	return cb_check_interrupt(err);
}

/* OUT == IN transposed (N x N elements of E bytes), compared in 64 x 64 blocks: a column walk
 * through a matrix of 128 MB misses the cache and the TLB at every element. */
static bool is_transpose(const char *in, const char *out, size_t n, size_t E)
{
	for (size_t by = 0; by < n; by += 64)
		for (size_t bx = 0; bx < n; bx += 64)
			for (size_t y = by; y < by + 64 && y < n; y++)
				for (size_t x = bx; x < bx + 64 && x < n; x++)
					if (memcmp(out + (x * n + y) * E, in + (y * n + x) * E, E))
						return false;
	return true;
}

/* One launch of V, and its result against the host's transpose. */
static cb_rc verify(tctx *t, const config *c, int v, bool *ok, double *ns, cb_error *err)
{
	size_t count = t->n * t->n, E = c->elem_bytes;
	cb_rc rc = launch(t, c, v, 1, ns, err);
	if (rc != CB_OK)
		return rc;
	cl_int st = clEnqueueReadBuffer(t->q, t->out, CL_TRUE, 0, count * E, t->host_out, 0, NULL,
					NULL);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clEnqueueReadBuffer", st, "cannot read the result");
	*ok = is_transpose(t->host_in, t->host_out, t->n, E);
	return CB_OK;
}

static void record(cb_result *r, const config *c, int v, size_t n, unsigned k, bool ok,
		   const double *samples, unsigned nsamples)
{
	cb_kernel_check *kc = cb_result_add_check(r);
	kc->kernel = cb_xstrdup("transpose");
	kc->variant = cb_xstrdup(variants[v]);
	kc->elem_bytes = c->elem_bytes;
	kc->tile = c->tile;
	kc->rows = c->rows;
	kc->pad = v == 1 ? (long long)c->pad : CB_UNSET;
	kc->bits = v == 2 ? (long long)c->bits : CB_UNSET;
	kc->shift = v == 2 ? (long long)c->shift : CB_UNSET;
	kc->matrix = (long long)n;
	kc->launches = k;
	kc->verified = ok;
	kc->samples_ns = cb_xmalloc((nsamples ? nsamples : 1) * sizeof *kc->samples_ns);
	memcpy(kc->samples_ns, samples, nsamples * sizeof *samples);
	kc->nsamples = nsamples;
	cb_summary s;
	cb_summarize(samples, nsamples, &s);
	kc->ns_per_launch = nsamples ? s.median : NAN;
	kc->ci_lo = s.ci_lo;
	kc->ci_hi = s.ci_hi;
}

/* One configuration: build, verify each variant, size the batch, time in shuffled rounds. */
static cb_rc run_config(tctx *t, const config *c, cb_rng *rng, cb_result *r, cb_error *err)
{
	unsigned rounds = t->o->quick ? 6 : 10, k = 1, order[NVARIANTS] = { 0, 1, 2 };
	bool ok[NVARIANTS];
	double one = 0, ns, *samples = cb_xcalloc(NVARIANTS * rounds, sizeof *samples);
	cb_rc rc = build(t, c, err);
	if (rc == CB_OK)
		rc = upload(t, c->elem_bytes, err);
	for (int v = 0; rc == CB_OK && v < NVARIANTS; v++) {
		rc = verify(t, c, v, &ok[v], &ns, err);
		one = ns > one ? ns : one;
		if (rc == CB_OK && !ok[v])
			cb_note(t->o->notify, CB_NOTE_WARNING, "transpose check: the %s %u-byte %ux%u "
				"tile gives a wrong result; it is not timed", variants[v], c->elem_bytes,
				c->tile, c->tile);
	}
	if (one > 0)
		k = (unsigned)fmin(MAX_LAUNCHES, ceil(BATCH_NS / one));
	for (unsigned round = 0; rc == CB_OK && round < rounds; round++) {
		cb_shuffle_u32(rng, order, NVARIANTS);
		for (int i = 0; rc == CB_OK && i < NVARIANTS; i++)
			if (ok[order[i]])
				rc = launch(t, c, (int)order[i], k, &samples[order[i] * rounds + round], err);
	}
	for (int v = 0; rc == CB_OK && v < NVARIANTS; v++)
		record(r, c, v, t->n, k, ok[v], samples + v * rounds, ok[v] ? rounds : 0);
	free(samples);
	return rc;
}

cb_rc cb_check_transpose(const cb_device_ref *ref, const cb_device_info *info,
			 const cb_transpose_opts *o, cb_result *r, cb_error *err)
{
	config cfg[MAX_CONFIGS];
	unsigned ncfg = make_configs(r, o->quick, cfg);
	tctx t = { .ref = ref, .o = o };
	cb_rc rc = open_ctx(&t, info, err);
	cb_rng rng;
	cb_rng_seed(&rng, 0x7a5e);
	for (unsigned i = 0; rc == CB_OK && i < ncfg; i++) {
		cb_note(o->notify, CB_NOTE_PROGRESS, "transpose check %u of %u", i + 1, ncfg);
		rc = run_config(&t, &cfg[i], &rng, r, err);
	}
	close_ctx(&t);
	return rc;
}
