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
/* cl/transpose.cl's kernels after the variants: the input's fill and the verification. */
#define FILL NVARIANTS
#define VERIFY (NVARIANTS + 1)
/* The fill's salt that clears an output to values no transpose gives (see cl/transpose.cl). */
#define CLEARED 0x80000000u

static const char *const variants[NVARIANTS] = { "naive", "padded", "swizzled" };

typedef struct {
	unsigned elem_bytes, tile, rows, pad, bits, shift;
} config;

typedef struct {
	const cb_transpose_opts *o;
	cb_ocl *ocl;
	bool own_ocl; /* opened here (else the run's, closed by the run's caller) */
	cb_ocl_buffer *in, *out, *bad;
	size_t n;  /* matrix order */
	void *row; /* a row of the output, for the host's own check */
	cb_ocl_program *prog;
} tctx;

/* The largest B with 2^B <= N (N >= 1): the bits of a swizzle across N columns. */
static unsigned floor_log2(unsigned n)
{
	unsigned b = 0;
	while ((2u << b) <= n)
		b++;
	return b;
}

/* +1 and the full swizzle: the fixes to try when the advice gives none. */
static config default_config(unsigned elem, unsigned tile)
{
	config c = { elem, tile, tile >= 256 ? 1 : 256 / tile, 1, floor_log2(tile), 0 };
	return c;
}

/* The fixes to try: the advice's for ELEM and TILE, else the default's. */
static config make_config(const cb_result *r, unsigned elem, unsigned tile)
{
	config c = default_config(elem, tile);
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

/* The configurations for sub-groups of S: R's advice, or the defaults when R is NULL. */
static unsigned make_configs(const cb_result *r, unsigned S, bool quick, config *out)
{
	unsigned tiles[2] = { 32, S }, ntiles = S != 32 && (S == 16 || S == 64) ? 2 : 1, n = 0;
	for (unsigned e = 4; e <= (quick ? 4u : 8u); e *= 2)
		for (unsigned t = 0; t < ntiles; t++)
			out[n++] = r ? make_config(r, e, tiles[t]) : default_config(e, tiles[t]);
	return n;
}

static void config_options(const config *c, char *buf, size_t size)
{
	snprintf(buf, size,
		 "-cl-std=CL1.2 -DCB_ELEM=%s -DCB_ELEM_BYTES=%u -DCB_TILE=%u -DCB_ROWS=%u "
		 "-DCB_PAD=%u -DCB_MASK=%u -DCB_SHIFT=%u",
		 c->elem_bytes == 4 ? "uint" : "ulong", c->elem_bytes, c->tile, c->rows, c->pad,
		 (1u << c->bits) - 1, c->shift);
}

/* Context, queue, the two matrices (N x N of 8-byte elements at most) and the flag. */
static cb_rc open_ctx(tctx *t, const cb_device_ref *ref, const cb_device_info *info, cb_error *err)
{
	/* 2048 x 2048 on a GPU (16 or 32 MB a matrix): long enough launches */
	t->n = info->type & CL_DEVICE_TYPE_CPU ? 1024 : 2048;
	if (t->o->quick)
		t->n /= 2;
	cb_rc rc = CB_OK;
	if (t->o->ocl) {
		t->ocl = t->o->ocl;
		if (!t->o->event_timer)
			cb_ocl_use_host_clock(t->ocl);
	} else {
		cb_ocl_opts oo = { t->o->kernel_dir,   t->o->build_options, t->o->notify,
				   !t->o->event_timer, t->o->cache_dir,     0 };
		t->own_ocl = true;
		rc = cb_ocl_open(ref, info, &oo, &t->ocl, err);
	}
	if (rc != CB_OK)
		return rc;
	cb_ocl_set_timeout(t->ocl, t->o->timeout_s);
	size_t bytes = t->n * t->n * 8;
	t->row = cb_xmalloc(t->n * 8);
	rc = cb_ocl_buffer_new(t->ocl, bytes, &t->in, err);
	if (rc == CB_OK)
		rc = cb_ocl_buffer_new(t->ocl, bytes, &t->out, err);
	if (rc == CB_OK)
		rc = cb_ocl_buffer_new(t->ocl, sizeof(uint32_t), &t->bad, err);
	return rc;
}

static void close_ctx(tctx *t)
{
	cb_ocl_program_free(t->prog);
	cb_ocl_buffer_free(t->in);
	cb_ocl_buffer_free(t->out);
	cb_ocl_buffer_free(t->bad);
	if (t->own_ocl)
		cb_ocl_close(t->ocl);
	free(t->row);
}

static cb_rc build(tctx *t, const config *c, cb_error *err)
{
	static const char *const names[NVARIANTS + 2] = {
		"cb_transpose_naive", "cb_transpose_padded", "cb_transpose_swizzled",
		"cb_transpose_fill", "cb_transpose_verify"
	};
	char opts[512];
	cb_ocl_program_free(t->prog);
	t->prog = NULL;
	config_options(c, opts, sizeof opts);
	return cb_ocl_program_build(t->ocl, "transpose.cl", opts, names, NVARIANTS + 2, &t->prog,
				    err);
}

/* K launches of kernel V with ARGS, waited for; *NS their time per launch (event or host
 * clock). The variants run in tiles of TILE x ROWS work-items, the fill and the verification
 * in groups of the same shape over the whole matrix. */
static cb_rc launch(tctx *t, const config *c, int v, const cb_ocl_arg *args, unsigned k, double *ns,
		    cb_error *err)
{
	size_t rows = v < NVARIANTS ? t->n / (c->tile / c->rows) : t->n;
	cb_ndrange nd = { 2, { t->n, rows }, { c->tile, c->rows } };
	cb_rc rc = cb_ocl_program_args(t->prog, (unsigned)v, args, 3, err);
	if (rc == CB_OK)
		rc = cb_ocl_time_launches(t->ocl, t->prog, (unsigned)v, &nd, k,
					  "the transpose check", ns, err);
	return rc == CB_OK ? cb_check_interrupt(err) : rc;
}

static cb_rc launch_variant(tctx *t, const config *c, int v, unsigned k, double *ns, cb_error *err)
{
	uint32_t n = (uint32_t)t->n;
	cb_ocl_arg args[] = { { t->in, 0, NULL }, { t->out, 0, NULL }, { NULL, sizeof n, &n } };
	return launch(t, c, v, args, k, ns, err);
}

/* M filled with the input's elements, I ^ SALT for element I. */
static cb_rc fill(tctx *t, const config *c, cb_ocl_buffer *m, uint32_t salt, cb_error *err)
{
	uint32_t n = (uint32_t)t->n;
	double ns;
	cb_ocl_arg args[] = { { m, 0, NULL },
			      { NULL, sizeof n, &n },
			      { NULL, sizeof salt, &salt } };
	return launch(t, c, FILL, args, 1, &ns, err);
}

/* Element I of the input, as cl/transpose.cl's CB_HASH makes it. */
static uint64_t input_elem(uint32_t i, unsigned E)
{
	uint32_t h = i * 2654435761u;
	return E == 8 ? (uint64_t)i << 32 | h : h;
}

/* Row R of the output holds column R of the input: read back and checked on the host, an
 * independent check of the device's verification. */
static cb_rc row_ok(tctx *t, unsigned E, uint32_t r, bool *ok, cb_error *err)
{
	size_t n = t->n;
	cb_rc rc = cb_ocl_buffer_read(t->ocl, t->out, r * n * E, t->row, n * E, err);
	*ok = rc == CB_OK;
	for (size_t x = 0; *ok && x < n; x++) {
		uint64_t want = input_elem((uint32_t)(x * n + r), E), got;
		uint32_t got4;
		if (E == 4) {
			memcpy(&got4, (char *)t->row + x * 4, 4);
			got = got4;
		} else {
			memcpy(&got, (char *)t->row + x * 8, 8);
		}
		*ok = got == want;
	}
	return rc;
}

/* One launch of V into an output cleared first, then its result checked: whole on the device,
 * and one row (chosen by RNG) on the host. */
static cb_rc verify(tctx *t, const config *c, int v, cb_rng *rng, bool *ok, double *ns,
		    cb_error *err)
{
	uint32_t n = (uint32_t)t->n, bad = 0;
	double vns;
	cb_ocl_arg args[] = { { t->out, 0, NULL }, { NULL, sizeof n, &n }, { t->bad, 0, NULL } };
	*ok = false;
	cb_rc rc = fill(t, c, t->out, CLEARED, err);
	if (rc == CB_OK)
		rc = launch_variant(t, c, v, 1, ns, err);
	if (rc == CB_OK)
		rc = cb_ocl_buffer_write(t->ocl, t->bad, 0, &bad, sizeof bad, err);
	if (rc == CB_OK)
		rc = launch(t, c, VERIFY, args, 1, &vns, err);
	if (rc == CB_OK)
		rc = cb_ocl_buffer_read(t->ocl, t->bad, 0, &bad, sizeof bad, err);
	if (rc == CB_OK && bad == 0)
		rc = row_ok(t, c->elem_bytes, cb_rng_below(rng, n), ok, err);
	return rc;
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
		rc = fill(t, c, t->in, 0, err);
	for (int v = 0; rc == CB_OK && v < NVARIANTS; v++) {
		rc = verify(t, c, v, rng, &ok[v], &ns, err);
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
				rc = launch_variant(t, c, (int)order[i], k,
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
	unsigned ncfg = make_configs(r, r->device.subgroup_size, o->quick, cfg);
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

void cb_transpose_prebuild(cb_ocl *ocl, unsigned subgroup, bool quick)
{
	config cfg[MAX_CONFIGS];
	unsigned ncfg = make_configs(NULL, subgroup, quick, cfg);
	for (unsigned i = 0; i < ncfg; i++) {
		char opts[512];
		config_options(&cfg[i], opts, sizeof opts);
		cb_ocl_program_prebuild(ocl, "transpose.cl", opts);
		/* Rows of 128 bytes (32 banks of 4): the swizzle spans 128 / E columns. */
		config row = cfg[i];
		row.bits = floor_log2(row.tile < 128 / row.elem_bytes ? row.tile
								      : 128 / row.elem_bytes);
		if (row.bits == cfg[i].bits)
			continue;
		config_options(&row, opts, sizeof opts);
		cb_ocl_program_prebuild(ocl, "transpose.cl", opts);
	}
}
