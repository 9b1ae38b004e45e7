/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/transpose.h"
#include "measure/ocl.h"
#include "core/advice.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVARIANTS 3
#define MAX_CONFIGS 4
/* A timed batch lasts at least this long: several ticks of any host clock. With the event
 * timer a quarter of it, or 1000 of the timer's ticks if that is longer: the check's timed
 * rounds take 10 ms instead of 40 on the H200 (32 ns ticks). */
#define BATCH_NS 2e6
#define BATCH_NS_EVENT 5e5
#define BATCH_TICKS 1000
#define MAX_LAUNCHES 256

static const char *const variants[NVARIANTS] = { "naive", "padded", "swizzled" };

typedef struct {
	unsigned elem_bytes, tile, rows, pad, bits, shift;
} config;

typedef struct {
	const cb_transpose_opts *o;
	cb_ocl *ocl;
	bool own_ocl; /* opened here (else the run's, closed by the run's caller) */
	cb_ocl_buffer *in, *out;
	size_t n; /* matrix order */
	void *host_in, *host_out;
	void *host_ref; /* a variant's output that was the transpose of this input */
	bool ref_valid;
	cb_ocl_program *prog;
} tctx;

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
static cb_rc open_ctx(tctx *t, const cb_device_ref *ref, const cb_device_info *info, cb_error *err)
{
	/* 2048 x 2048 on a GPU (16 or 32 MB a matrix): long enough launches, and a check that
	 * takes a fraction of a second of host time to verify */
	t->n = info->type & CL_DEVICE_TYPE_CPU ? 1024 : 2048;
	if (t->o->quick)
		t->n /= 2;
	cb_rc rc = CB_OK;
	if (t->o->ocl) {
		t->ocl = t->o->ocl;
		if (!t->o->event_timer)
			cb_ocl_use_host_clock(t->ocl);
	} else {
		cb_ocl_opts oo = { t->o->kernel_dir, t->o->build_options, t->o->notify,
				   !t->o->event_timer, 0 };
		t->own_ocl = true;
		rc = cb_ocl_open(ref, info, &oo, &t->ocl, err);
	}
	if (rc != CB_OK)
		return rc;
	cb_ocl_set_timeout(t->ocl, t->o->timeout_s);
	size_t bytes = t->n * t->n * 8;
	t->host_in = cb_xmalloc(bytes);
	t->host_out = cb_xmalloc(bytes);
	rc = cb_ocl_buffer_new(t->ocl, bytes, true, &t->in, err);
	if (rc == CB_OK)
		rc = cb_ocl_buffer_new(t->ocl, bytes, false, &t->out, err);
	return rc;
}

static void close_ctx(tctx *t)
{
	cb_ocl_program_free(t->prog);
	cb_ocl_buffer_free(t->in);
	cb_ocl_buffer_free(t->out);
	if (t->own_ocl)
		cb_ocl_close(t->ocl);
	free(t->host_in);
	free(t->host_out);
	free(t->host_ref);
}

/* The input of element size E: element i is a hash of i, so a misplaced element shows. */
static cb_rc upload(tctx *t, unsigned elem, cb_error *err)
{
	size_t count = t->n * t->n;
	t->ref_valid = false;
	for (size_t i = 0; i < count; i++) {
		uint32_t h = (uint32_t)i * 2654435761u;
		if (elem == 4)
			((uint32_t *)t->host_in)[i] = h;
		else
			((uint64_t *)t->host_in)[i] = (uint64_t)i << 32 | h;
	}
	return cb_ocl_buffer_write(t->ocl, t->in, t->host_in, count * elem, err);
}

static cb_rc build(tctx *t, const config *c, cb_error *err)
{
	static const char *const names[NVARIANTS] = { "cb_transpose_naive", "cb_transpose_padded",
						      "cb_transpose_swizzled" };
	char opts[512];
	cb_ocl_program_free(t->prog);
	t->prog = NULL;
	snprintf(opts, sizeof opts,
		 "-cl-std=CL1.2 -DCB_ELEM=%s -DCB_TILE=%u -DCB_ROWS=%u -DCB_PAD=%u "
		 "-DCB_MASK=%u -DCB_SHIFT=%u",
		 c->elem_bytes == 4 ? "uint" : "ulong", c->tile, c->rows, c->pad,
		 (1u << c->bits) - 1, c->shift);
	return cb_ocl_program_build(t->ocl, "transpose.cl", opts, names, NVARIANTS, &t->prog, err);
}

/* K launches of variant V, waited for; *NS their time per launch (event or host clock). */
static cb_rc launch(tctx *t, const config *c, int v, unsigned k, double *ns, cb_error *err)
{
	uint32_t n = (uint32_t)t->n;
	cb_ndrange nd = { 2, { t->n, t->n / (c->tile / c->rows) }, { c->tile, c->rows } };
	cb_ocl_arg args[] = { { t->in, 0, NULL }, { t->out, 0, NULL }, { NULL, sizeof n, &n } };
	cb_rc rc = cb_ocl_program_args(t->prog, (unsigned)v, args, 3, err);
	if (rc == CB_OK)
		rc = cb_ocl_time_launches(t->ocl, t->prog, (unsigned)v, &nd, k,
					  "the transpose check", ns, err);
	return rc == CB_OK ? cb_check_interrupt(err) : rc;
}

/* Elements A and B of E bytes are equal: a load each for 4 and 8 bytes (half the time of a
 * call of memcmp per element). */
static bool same_elem(const char *a, const char *b, size_t E)
{
	uint32_t a4, b4;
	uint64_t a8, b8;
	switch (E) {
	case 4:
		memcpy(&a4, a, 4);
		memcpy(&b4, b, 4);
		return a4 == b4;
	case 8:
		memcpy(&a8, a, 8);
		memcpy(&b8, b, 8);
		return a8 == b8;
	default:
		return memcmp(a, b, E) == 0;
	}
}

/* OUT == IN transposed (N x N elements of E bytes), compared in 64 x 64 blocks: a column walk
 * through a matrix of 128 MB misses the cache and the TLB at every element. */
static bool is_transpose(const char *in, const char *out, size_t n, size_t E)
{
	for (size_t by = 0; by < n; by += 64)
		for (size_t bx = 0; bx < n; bx += 64)
			for (size_t y = by; y < by + 64 && y < n; y++)
				for (size_t x = bx; x < bx + 64 && x < n; x++)
					if (!same_elem(out + (x * n + y) * E, in + (y * n + x) * E,
						       E))
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
	rc = cb_ocl_buffer_read(t->ocl, t->out, t->host_out, count * E, err);
	if (rc != CB_OK)
		return rc;
	/* The same bytes as a variant already verified are the transpose too: one sequential
	 * comparison instead of another column walk of the whole matrix. */
	if (t->ref_valid && memcmp(t->host_out, t->host_ref, count * E) == 0) {
		*ok = true;
		return CB_OK;
	}
	*ok = is_transpose(t->host_in, t->host_out, t->n, E);
	if (*ok && !t->host_ref)
		t->host_ref = cb_xmalloc(t->n * t->n * 8);
	if (*ok && !t->ref_valid)
		memcpy(t->host_ref, t->host_out, count * E);
	t->ref_valid |= *ok;
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
			cb_note(t->o->notify, CB_NOTE_WARNING,
				"transpose check: the %s %u-byte %ux%u "
				"tile gives a wrong result; it is not timed",
				variants[v], c->elem_bytes, c->tile, c->tile);
	}
	double batch_ns = t->o->event_timer ? fmin(BATCH_NS, fmax(BATCH_NS_EVENT,
								  BATCH_TICKS * t->o->tick_ns))
					    : BATCH_NS;
	if (one > 0)
		k = (unsigned)fmin(MAX_LAUNCHES, ceil(batch_ns / one));
	for (unsigned round = 0; rc == CB_OK && round < rounds; round++) {
		cb_shuffle_u32(rng, order, NVARIANTS);
		for (int i = 0; rc == CB_OK && i < NVARIANTS; i++)
			if (ok[order[i]])
				rc = launch(t, c, (int)order[i], k,
					    &samples[order[i] * rounds + round], err);
	}
	for (int v = 0; rc == CB_OK && v < NVARIANTS; v++)
		record(r, c, v, t->n, k, ok[v], samples + v * rounds, ok[v] ? rounds : 0);
	free(samples);
	return rc;
}

const char *cb_transpose_skip_reason(const cb_result *r)
{
	if (r->device.local_mem_type && strcmp(r->device.local_mem_type, "global") == 0)
		return "local memory is emulated in global memory";
	switch (r->inference[CB_OP_LOAD].status) {
	case CB_BANKED:
		return NULL;
	case CB_NOT_BANKED:
		return "the loads are not banked";
	default:
		return "the loads' verdict is inconclusive";
	}
}

cb_rc cb_check_transpose(const cb_device_ref *ref, const cb_device_info *info,
			 const cb_transpose_opts *o, cb_result *r, cb_error *err)
{
	config cfg[MAX_CONFIGS];
	unsigned ncfg = make_configs(r, o->quick, cfg);
	tctx t = { .o = o };
	cb_rc rc = open_ctx(&t, ref, info, err);
	cb_rng rng;
	cb_rng_seed(&rng, 0x7a5e);
	for (unsigned i = 0; rc == CB_OK && i < ncfg; i++) {
		cb_note(o->notify, CB_NOTE_PROGRESS, "transpose check %u of %u", i + 1, ncfg);
		rc = run_config(&t, &cfg[i], &rng, r, err);
	}
	close_ctx(&t);
	if (rc != CB_OK && rc != CB_ERR_INTERRUPTED)
		cb_error_prefix(err, "transpose check: ");
	return rc;
}
