/* SPDX-License-Identifier: MIT */
/*
 * clbanks lint on the kernels of tests/lint against passes computed by hand (the comments
 * say how), on an H200-like model (32 banks x 4 B, broadcast, pair packing, 32/32/32/16/8
 * lanes per pass, sub-groups of 32) and an AMD-like one (sub-groups of 64, 32 lanes per pass
 * for 4 B). Every sub-group access the engine prices is also priced here with cb_passes (the
 * function behind predict) or, with inactive lanes, cb_passes_active on the same offsets.
 * Skips when clbanks was built without LLVM or clang cannot be run.
 */
#include "config.h"
#include "doc/doc_lint.h"
#include "lint/lint.h"
#include "views/lint_text.h"
#include "tap.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cb_lint_model h200, amd;

typedef struct {
	const cb_lint_model *model;
	unsigned samples, full, mismatches;
} cross_check;

/* predict's function on the engine's offsets; atomics are priced without merging. */
static void observe(void *ctx, const cb_lint_sample *s)
{
	cross_check *c = ctx;
	cb_geometry g = c->model->geom;
	if (s->op == CB_LINT_ATOMIC)
		g.broadcast = g.pair_packing = false;
	unsigned lpp = c->model->lanes_per_pass[cb_elem_index(s->elem_bytes)], n = s->nlanes;
	bool full = true;
	for (unsigned l = 0; l < n; l++)
		full &= s->active[l];
	unsigned p = full ? cb_passes(&g, lpp, s->elem_bytes, s->offsets, n)
			  : cb_passes_active(&g, lpp, s->elem_bytes, s->offsets, s->active, n);
	uint32_t seq[CB_MAX_LANES];
	for (unsigned l = 0; l < n; l++)
		seq[l] = l * s->elem_bytes;
	unsigned m = cb_passes_active(&g, lpp, s->elem_bytes, seq, s->active, n);
	c->samples++;
	c->full += full;
	if (p != s->passes || m != s->min_passes) {
		if (c->mismatches++ < 5)
			tap_diag("line %u: engine %u/%u passes, cb_passes %u/%u", s->line, s->passes,
				 s->min_passes, p, m);
	}
}

typedef struct {
	const char *file, *kernel;
	unsigned x, y;
	const char *defs[2], *args[2];
	const cb_lint_model *model;
	unsigned group_x;
} job;

static char srcdir[2048];

static cb_rc run(const job *j, cb_lint_result *r, cb_error *err, cross_check *cc)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/lint/%s", srcdir, j->file);
	cb_lint_request req;
	memset(&req, 0, sizeof req);
	memset(cc, 0, sizeof *cc);
	cc->model = j->model ? j->model : &h200;
	req.kernel_path = path;
	req.kernel_name = j->kernel;
	req.local[0] = j->x;
	req.local[1] = j->y;
	req.group[0] = j->group_x;
	req.defines = j->defs;
	req.ndefines = j->defs[1] ? 2 : j->defs[0] ? 1 : 0;
	req.args = j->args;
	req.nargs = j->args[1] ? 2 : j->args[0] ? 1 : 0;
	req.pricer = &cc->model->pricer;
	req.model = cc->model;
	req.observe = observe;
	req.observe_ctx = cc;
	cb_error_clear(err);
	cb_rc rc = cb_lint_run(&req, r, err);
	if (rc != CB_OK)
		tap_diag("%s %s: %s", j->file, j->kernel ? j->kernel : "", err->text);
	return rc;
}

/* Runs J, checks the cross-check, and leaves the result in R. */
static bool lint(const job *j, cb_lint_result *r)
{
	cb_error err;
	cross_check cc;
	cb_rc rc = run(j, r, &err, &cc);
	tap_ok(rc == CB_OK && cc.mismatches == 0 && cc.samples > 0,
	       "%s %s %ux%u: runs; %u sub-group accesses (%u full) equal cb_passes", j->file,
	       j->kernel ? j->kernel : "", j->x, j->y ? j->y : 1, cc.samples, cc.full);
	return rc == CB_OK;
}

static void skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_n, why);
	fflush(stdout);
}

static const cb_lint_access *find(const cb_lint_result *r, unsigned line, unsigned col,
				  cb_lint_op op)
{
	for (size_t i = 0; i < r->naccesses; i++)
		if (r->accesses[i].line == line && r->accesses[i].column == col &&
		    r->accesses[i].op == op)
			return &r->accesses[i];
	return NULL;
}

/* ITER: the passes expected at each iteration, 0-terminated (0 for unknown is not used). */
static bool iterations_are(const cb_lint_access *a, const unsigned *iter)
{
	size_t n = 0;
	while (iter[n])
		n++;
	if (a->niter != n)
		return false;
	for (size_t k = 0; k < n; k++)
		if (!a->iter[k].known || a->iter[k].passes != iter[k])
			return false;
	return true;
}

static void expect(const cb_lint_result *r, unsigned line, unsigned col, cb_lint_op op,
		   cb_lint_status status, unsigned passes, unsigned minp, const unsigned *iter,
		   const char *what)
{
	const cb_lint_access *a = find(r, line, col, op);
	bool ok = a && a->status == status && (!passes || (a->priced && a->passes_max == passes)) &&
		  a->min_passes == minp && (!iter || iterations_are(a, iter));
	if (a && !ok)
		tap_diag("%u:%u %s: status %s, passes %u (priced %d), minimum %u, %zu iterations",
			 line, col, cb_lint_op_name(op), cb_lint_status_name(a->status),
			 a->passes_max, a->priced, a->min_passes, a->niter);
	tap_ok(ok, "%s (%u:%u %s): %s, %u passes, minimum %u", what, line, col,
	       cb_lint_op_name(op), cb_lint_status_name(status), passes, minp);
}

static void expect_fix(const cb_lint_result *r, unsigned line, unsigned col, unsigned pad,
		       unsigned pad_passes, uint64_t bytes, unsigned bits, unsigned shift,
		       unsigned swz_passes, const char *what)
{
	const cb_lint_access *a = find(r, line, col, CB_LINT_LOAD);
	const cb_lint_fix *f = a ? &a->fix : NULL;
	bool ok = f && f->wanted && f->computed && f->pad_found && f->pad == pad &&
		  f->pad_passes == pad_passes && f->pad_bytes == bytes &&
		  (bits ? f->swizzle_found && f->bits == bits && f->shift == shift &&
			  f->swizzle_passes == swz_passes : !f->swizzle_found);
	tap_ok(ok, "%s: pad %u (%u passes, +%llu B), swizzle bits %u shift %u (%u passes)", what,
	       pad, pad_passes, (unsigned long long)bytes, bits, shift, swz_passes);
}

/* Lane l of the first sub-group at byte offset A * l + B (every lane active and known). */
static bool lanes_are(const cb_lint_access *a, unsigned n, int64_t mul, int64_t add)
{
	if (!a || a->nlanes != n)
		return false;
	for (unsigned l = 0; l < n; l++)
		if (!a->lanes[l].active || !a->lanes[l].known || a->lanes[l].lo != mul * l + add)
			return false;
	return true;
}


/* An op with its own model is priced with it; the others keep the loads'. */
static void op_models(void)
{
	static const cb_geometry load = { 32, 4, true, false }, store = { 16, 4, true, false },
				 atomic = { 32, 4, false, false };
	static const unsigned lanes[CB_NELEM] = { 32, 32, 32, 16, 8 };
	cb_lint_model mm;
	cb_lint_pricer_from_model(&mm, &load, lanes, 32);
	const cb_lint_pricer *q = &mm.pricer;
	uint32_t off[32];
	bool act[32];
	unsigned p = 0, m = 0;
	for (unsigned l = 0; l < 32; l++) {
		off[l] = l * 64; /* 16 words apart: bank 0 and 16 of 32 banks, bank 0 of 16 */
		act[l] = true;
	}
	tap_ok(q->price(q, CB_LINT_STORE, 4, off, act, 32, &p, &m) && p == 16,
	       "op models: without a store model, stores use the loads' 32 banks: 16 passes");
	tap_ok(!strcmp(cb_lint_model_source(&mm, CB_LINT_STORE), "the loads' model"),
	       "op models: and say so");
	cb_lint_model_set_op(&mm, CB_LINT_STORE, &store, lanes);
	tap_ok(q->price(q, CB_LINT_STORE, 4, off, act, 32, &p, &m) && p == 32 && m == 2,
	       "op models: the stores' own 16 banks: 32 passes, minimum 2");
	tap_ok(q->price(q, CB_LINT_LOAD, 4, off, act, 32, &p, &m) && p == 16,
	       "op models: loads keep theirs");
	memset(off, 0, sizeof off);
	tap_ok(q->price(q, CB_LINT_ATOMIC, 4, off, act, 32, &p, &m) && p == 32,
	       "op models: atomics without a model serialize on one word");
	cb_lint_model_set_op(&mm, CB_LINT_ATOMIC, &(cb_geometry){ 32, 4, true, false }, lanes);
	tap_ok(q->price(q, CB_LINT_ATOMIC, 4, off, act, 32, &p, &m) && p == 1,
	       "op models: a measured atomic model with broadcast is taken at its word");
	cb_lint_model_set_op(&mm, CB_LINT_ATOMIC, &atomic, lanes);
	tap_ok(q->price(q, CB_LINT_ATOMIC, 4, off, act, 32, &p, &m) && p == 32 &&
	       !strcmp(cb_lint_model_source(&mm, CB_LINT_ATOMIC), "measured"),
	       "op models: and one without serializes");
}

static void test_pricer(void)
{
	uint32_t off[64];
	bool act[64];
	unsigned p = 0, m = 0;
	const cb_lint_pricer *h = &h200.pricer, *a = &amd.pricer;
	for (unsigned l = 0; l < 64; l++) {
		off[l] = l * 128;
		act[l] = true;
	}
	tap_ok(h->price(h, CB_LINT_LOAD, 4, off, act, 32, &p, &m) && p == 32 && m == 1,
	       "pricer: 32 lanes 128 B apart on 32 x 4 B banks: 32 passes, minimum 1");
	tap_ok(h->period == 128, "pricer: the bank period is 32 x 4 B");
	tap_ok(a->price(a, CB_LINT_LOAD, 4, off, act, 64, &p, &m) && p == 64 && m == 2,
	       "pricer, AMD-like: 64 lanes in bank 0, two halves of 32: 64 passes, minimum 2");
	memset(off, 0, sizeof off);
	tap_ok(h->price(h, CB_LINT_LOAD, 4, off, act, 32, &p, &m) && p == 1 && m == 1,
	       "pricer: a broadcast load is one pass");
	tap_ok(h->price(h, CB_LINT_ATOMIC, 4, off, act, 32, &p, &m) && p == 32 && m == 1,
	       "pricer: 32 atomics on one word serialize (no merging): 32 passes");
	for (unsigned l = 0; l < 32; l++) {
		off[l] = l * 8;
		act[l] = l < 8;
	}
	tap_ok(h->price(h, CB_LINT_LOAD, 8, off, act, 32, &p, &m) && p == 1 && m == 1,
	       "pricer: 8 active lanes of consecutive doubles: one pass");
	tap_ok(!a->price(a, CB_LINT_LOAD, 8, off, act, 64, &p, &m),
	       "pricer: no lanes per pass measured for 8 B: cannot price");
	tap_ok(!h->price(h, CB_LINT_LOAD, 12, off, act, 32, &p, &m),
	       "pricer: 12-byte elements are not a measured size");
	op_models();
}

static void test_stub(void)
{
	cb_lint_request req;
	cb_lint_result r;
	cb_error err;
	memset(&req, 0, sizeof req);
	req.kernel_path = "x.cl";
	req.local[0] = 32;
	req.pricer = &h200.pricer;
	cb_rc rc = cb_lint_run(&req, &r, &err);
	tap_ok(rc == CB_ERR_USAGE && strstr(err.text, "--with-llvm") && cb_exit_status(&err) == 2,
	       "without LLVM, lint says how to enable it (exit 2): %s", err.text);
	cb_lint_result_free(&r);
}

static const unsigned ONE[] = { 1, 0 }, ONE4[] = { 1, 1, 1, 1, 0 }, ONE8[] = { 1, 1, 1, 1, 1, 1, 1, 1, 0 };

static void transpose_h200(void)
{
	static const unsigned k32[] = { 32, 0 }, k32x4[] = { 32, 32, 32, 32, 0 };
	cb_lint_result r;
	job naive = { "transpose.cl", "naive", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&naive, &r)) {
		/* Row write: lane l at 4 l, every bank once. Column read tile[tx][ty]: lane l at
		 * 128 l, all 32 in bank 0: 32 passes. */
		expect(&r, 17, 20, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "naive 32x32 row write");
		expect(&r, 22, 26, CB_LINT_LOAD, CB_LINT_PREDICTED, 32, 1, k32, "naive 32x32 column read");
		const cb_lint_access *a = find(&r, 22, 26, CB_LINT_LOAD);
		tap_ok(lanes_are(a, 32, 128, 0) && a->subgroups == 32 && a->ways == 32 && a->conflict &&
		       a->range_known && a->range_lo == 0 && a->range_hi == 4092,
		       "naive: lanes 128 B apart, 32 sub-groups over bytes 0..4092, 32-way");
		/* Rows of 33: lane l in bank l. XOR with r & 31: lane l reads column l. */
		expect_fix(&r, 22, 26, 1, 1, 128, 5, 0, 1, "naive: tile[32][32+1] or c ^ (r & 31)");
		tap_ok(cb_lint_has_conflict(&r), "--fail-on-conflict: the naive transpose conflicts");
		cb_lint_result_free(&r);
	}
	job padded = { "transpose.cl", "padded", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&padded, &r)) {
		expect(&r, 31, 20, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "padded row write");
		expect(&r, 36, 26, CB_LINT_LOAD, CB_LINT_PREDICTED, 1, 1, ONE, "padded column read");
		tap_ok(lanes_are(find(&r, 36, 26, CB_LINT_LOAD), 32, 132, 0) && !cb_lint_has_conflict(&r),
		       "padded: lanes 132 B apart (bank l), no conflict anywhere");
		cb_lint_result_free(&r);
	}
	job swz = { "transpose.cl", "swizzled", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&swz, &r)) {
		/* tile[tx][ty ^ tx]: sub-group 0 reads tile[l][l], 132 l. */
		expect(&r, 45, 40, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "swizzled row write");
		expect(&r, 50, 26, CB_LINT_LOAD, CB_LINT_PREDICTED, 1, 1, ONE, "swizzled column read");
		tap_ok(lanes_are(find(&r, 50, 26, CB_LINT_LOAD), 32, 132, 0), "swizzled: lane l at 132 l");
		cb_lint_result_free(&r);
	}
	/* 32 x 8: each work-item handles 4 rows, one loop iteration each. */
	job n8 = { "transpose.cl", "naive", 32, 8, { "TILE_H=8" }, { NULL }, NULL, 0 };
	if (lint(&n8, &r)) {
		expect(&r, 17, 20, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE4, "32x8 naive row write");
		expect(&r, 22, 26, CB_LINT_LOAD, CB_LINT_PREDICTED, 32, 1, k32x4, "32x8 naive column read");
		expect_fix(&r, 22, 26, 1, 1, 128, 5, 0, 1, "32x8 naive: the same fix");
		tap_ok(find(&r, 22, 26, CB_LINT_LOAD)->subgroups == 8, "32x8: 8 sub-groups");
		cb_lint_result_free(&r);
	}
	job p8 = { "transpose.cl", "padded", 32, 8, { "TILE_H=8" }, { NULL }, NULL, 0 };
	if (lint(&p8, &r)) {
		expect(&r, 36, 26, CB_LINT_LOAD, CB_LINT_PREDICTED, 1, 1, ONE4, "32x8 padded column read");
		cb_lint_result_free(&r);
	}
	job s8 = { "transpose.cl", "swizzled", 32, 8, { "TILE_H=8" }, { NULL }, NULL, 0 };
	if (lint(&s8, &r)) {
		expect(&r, 45, 40, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE4, "32x8 swizzled row write");
		expect(&r, 50, 26, CB_LINT_LOAD, CB_LINT_PREDICTED, 1, 1, ONE4, "32x8 swizzled column read");
		cb_lint_result_free(&r);
	}
}

/* AMD-like: 64 lanes, 32 per pass. Column read: each half of the wave has its 32 lanes in one
 * bank (rows ty and ty + 1): 2 x 32 passes; the minimum is 2. */
static void transpose_amd(void)
{
	static const unsigned two[] = { 2, 0 }, k64[] = { 64, 0 };
	cb_lint_result r;
	job naive = { "transpose.cl", "naive", 32, 32, { NULL }, { NULL }, &amd, 0 };
	if (lint(&naive, &r)) {
		expect(&r, 17, 20, CB_LINT_STORE, CB_LINT_PREDICTED, 2, 2, two, "AMD naive row write");
		expect(&r, 22, 26, CB_LINT_LOAD, CB_LINT_PREDICTED, 64, 2, k64, "AMD naive column read");
		const cb_lint_access *a = find(&r, 22, 26, CB_LINT_LOAD);
		tap_ok(a && a->ways == 32 && a->nlanes == 64 && a->subgroups == 16 &&
		       a->lanes[32].lo == 4, "AMD: 64-lane sub-groups, 16 of them, lane 32 on row 1");
		expect_fix(&r, 22, 26, 1, 2, 128, 5, 0, 2, "AMD naive: tile[32][32+1] or c ^ (r & 31)");
		cb_lint_result_free(&r);
	}
	job padded = { "transpose.cl", "padded", 32, 32, { NULL }, { NULL }, &amd, 0 };
	if (lint(&padded, &r)) {
		expect(&r, 36, 26, CB_LINT_LOAD, CB_LINT_PREDICTED, 2, 2, two, "AMD padded column read");
		cb_lint_result_free(&r);
	}
	job swz = { "transpose.cl", "swizzled", 32, 32, { NULL }, { NULL }, &amd, 0 };
	if (lint(&swz, &r)) {
		expect(&r, 50, 26, CB_LINT_LOAD, CB_LINT_PREDICTED, 2, 2, two, "AMD swizzled column read");
		cb_lint_result_free(&r);
	}
}

static void test_wide(void)
{
	static const unsigned two[] = { 2, 0 }, k32[] = { 32, 0 }, four[] = { 4, 0 };
	cb_lint_result r;
	job d = { "wide.cl", "doubles", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&d, &r)) {
		/* 8 B, 16 lanes per pass: lane l at 256 l touches words 64 l, 64 l + 1 (banks 0 and
		 * 1): 16 passes per half, 32 in all; consecutive doubles take 2. A row of 33 doubles
		 * moves lane l two banks: 2 passes. XOR with r & 15 spreads each half: 2 passes. */
		expect(&r, 8, 13, CB_LINT_STORE, CB_LINT_PREDICTED, 2, 2, two, "double row write");
		expect(&r, 10, 20, CB_LINT_LOAD, CB_LINT_PREDICTED, 32, 2, k32, "double column read");
		const cb_lint_access *a = find(&r, 10, 20, CB_LINT_LOAD);
		tap_ok(lanes_are(a, 32, 256, 0) && a->ways == 16, "doubles: 256 B apart, 16-way");
		expect_fix(&r, 10, 20, 1, 2, 256, 4, 0, 2, "doubles: tile[32][32+1] or c ^ (r & 15)");
		cb_lint_result_free(&r);
	}
	job v = { "wide.cl", "vectors", 16, 16, { NULL }, { NULL }, NULL, 0 };
	if (lint(&v, &r)) {
		/* 16 B, 8 lanes per pass: lanes of one group read tile[x][y], 256 B apart, on
		 * banks 4y..4y+3: 8 passes per group, 32 in all; the minimum is 4. */
		expect(&r, 17, 13, CB_LINT_STORE, CB_LINT_PREDICTED, 4, 4, four, "float4 row write");
		expect(&r, 19, 20, CB_LINT_LOAD, CB_LINT_PREDICTED, 32, 4, k32, "float4 column read");
		tap_ok(find(&r, 19, 20, CB_LINT_LOAD)->ways == 8, "float4: 8-way");
		expect_fix(&r, 19, 20, 1, 4, 256, 3, 0, 4, "float4: tile[16][16+1] or c ^ (r & 7)");
		cb_lint_result_free(&r);
	}
	cb_error err;
	cross_check cc;
	job ad = { "wide.cl", "doubles", 32, 32, { NULL }, { NULL }, &amd, 0 };
	if (run(&ad, &r, &err, &cc) == CB_OK) {
		const cb_lint_access *a = find(&r, 10, 20, CB_LINT_LOAD);
		tap_ok(a && a->status == CB_LINT_UNKNOWN && !a->priced &&
		       strstr(a->note, "cannot price 8-byte loads"),
		       "AMD-like model without 8 B lanes per pass: doubles are unknown (%s)",
		       a ? a->note : "");
	} else {
		tap_ok(0, "AMD-like model on doubles runs");
	}
	cb_lint_result_free(&r);
}

static void test_transpose(void)
{
	transpose_h200();
	transpose_amd();
}

static void test_reduce(void)
{
	static const unsigned strided[] = { 2, 4, 8, 8, 8, 4, 2, 1, 0 };
	cb_lint_result r;
	job il = { "reduce.cl", "interleaved", 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&il, &r)) {
		/* tid % (2s) == 0: the active lanes read words 2 s apart, one pass each time. */
		expect(&r, 16, 18, CB_LINT_LOAD, CB_LINT_PREDICTED, 1, 1, ONE8, "interleaved sdata[tid + s]");
		const cb_lint_access *a = find(&r, 16, 18, CB_LINT_LOAD);
		tap_ok(a && a->nlanes == 32 && a->lanes[0].active && a->lanes[0].lo == 4 &&
		       !a->lanes[1].active && a->lanes[2].lo == 12,
		       "interleaved: odd lanes inactive in the first iteration");
		cb_lint_result_free(&r);
	}
	/* index = 2 s tid, active while index < 256: stride 2 s words over 32, 16, 8, ... active
	 * lanes: 2, 4, 8 passes, then 16 lanes in 2 banks, 8 and 4 lanes in one: 8, 8, 4, 2, 1. */
	job st = { "reduce.cl", "strided", 256, 0, { NULL }, { "sdata=1024" }, NULL, 0 };
	if (lint(&st, &r)) {
		expect(&r, 31, 20, CB_LINT_LOAD, CB_LINT_PREDICTED, 8, 1, strided, "strided sdata[index + s]");
		expect(&r, 31, 17, CB_LINT_LOAD, CB_LINT_PREDICTED, 8, 1, strided, "strided sdata[index]");
		expect(&r, 31, 17, CB_LINT_STORE, CB_LINT_PREDICTED, 8, 1, strided, "strided store");
		const cb_lint_access *a = find(&r, 31, 20, CB_LINT_LOAD);
		const cb_lint_object *o = a && a->object >= 0 ? &r.objects[a->object] : NULL;
		tap_ok(a && o && o->is_arg && o->rank == 0 && o->bytes == 1024 && a->ways == 8 &&
		       !strcmp(o->name, "sdata") && lanes_are(a, 32, 8, 4),
		       "strided: a dynamic __local argument of 1024 B (--arg), lanes 8 l + 4, 8-way");
		tap_ok(a && a->fix.wanted && !a->fix.computed, "strided: no fix computed for a pointer");
		cb_lint_result_free(&r);
	}
	job sq = { "reduce.cl", "sequential", 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&sq, &r)) {
		expect(&r, 46, 18, CB_LINT_LOAD, CB_LINT_PREDICTED, 1, 1, ONE8, "sequential sdata[tid + s]");
		expect(&r, 46, 15, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE8, "sequential store");
		cb_lint_result_free(&r);
	}
}

static void test_scan(void)
{
	/* Up-sweep with offset 1, 2, 4, ...: a = offset (2 t + 1) - 1, stride 2 offset words
	 * over the active lanes (all 32, then 16, 8, ... as d halves). Down-sweep: the reverse. */
	static const unsigned up[] = { 2, 4, 8, 16, 16, 8, 4, 2, 1, 0 };
	static const unsigned down[] = { 1, 2, 4, 8, 16, 16, 8, 4, 2, 0 };
	static const unsigned one9[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
	static const unsigned assumed[] = { 2, 4, 8, 16, 0 };
	cb_lint_result r;
	job plain = { "scan.cl", NULL, 256, 0, { NULL }, { "n=512" }, NULL, 0 };
	if (lint(&plain, &r)) {
		expect(&r, 26, 15, CB_LINT_LOAD, CB_LINT_PREDICTED, 16, 1, up, "scan up-sweep temp[a]");
		expect(&r, 26, 12, CB_LINT_STORE, CB_LINT_PREDICTED, 16, 1, up, "scan up-sweep store");
		expect(&r, 39, 14, CB_LINT_LOAD, CB_LINT_PREDICTED, 16, 1, down, "scan down-sweep temp[a]");
		expect(&r, 18, 21, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "scan first store");
		cb_lint_result_free(&r);
	}
	/* One word of padding every 32 moves the lanes of every step to distinct banks. */
	job pad = { "scan.cl", NULL, 256, 0, { "PAD" }, { "n=512" }, NULL, 0 };
	if (lint(&pad, &r)) {
		expect(&r, 26, 15, CB_LINT_LOAD, CB_LINT_PREDICTED, 1, 1, one9, "padded scan up-sweep");
		expect(&r, 39, 14, CB_LINT_LOAD, CB_LINT_PREDICTED, 1, 1, one9, "padded scan down-sweep");
		tap_ok(!cb_lint_has_conflict(&r), "padded scan: no conflict");
		cb_lint_result_free(&r);
	}
	/* Without n the loop bound is unknown: 4 assumed iterations, thid < d assumed true. */
	job open = { "scan.cl", NULL, 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&open, &r)) {
		expect(&r, 26, 15, CB_LINT_LOAD, CB_LINT_ASSUMED, 16, 1, assumed, "scan without n: assumed");
		const cb_lint_access *a = find(&r, 26, 15, CB_LINT_LOAD);
		tap_ok(a && strstr(a->note, "undecidable branch at line 22"), "assumed: says where (%s)",
		       a ? a->note : "");
		expect(&r, 19, 21, CB_LINT_STORE, CB_LINT_UNKNOWN, 0, 1, NULL, "scan without n: temp[bi]");
		expect(&r, 18, 21, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "scan without n: temp[ai]");
		tap_ok(!cb_lint_has_conflict(&r), "--fail-on-conflict ignores assumed conflicts");
		cb_lint_result_free(&r);
	}
}

static void test_histogram(void)
{
	cb_lint_result r;
	job h = { "histogram.cl", "histogram", 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&h, &r)) {
		expect(&r, 13, 3, CB_LINT_ATOMIC, CB_LINT_UNKNOWN, 0, 1, NULL, "atomic_inc(&hist[v])");
		const cb_lint_access *a = find(&r, 13, 3, CB_LINT_ATOMIC);
		tap_ok(a && !a->priced && a->niter == 4 && !a->iter[0].known && a->lanes[0].active &&
		       !a->lanes[0].known && a->lanes[0].lo == 0 && a->lanes[0].hi == 1020 &&
		       !a->range_known && strstr(a->note, "memory contents"),
		       "data-dependent bins: unknown within bytes 0..1020, never a guess");
		/* hist[t & 15]: two lanes per word; atomics serialize: 2 passes. */
		expect(&r, 14, 2, CB_LINT_ATOMIC, CB_LINT_PREDICTED, 2, 1, NULL, "atomic_add(&hist[t & 15])");
		expect(&r, 10, 10, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "hist[t] = 0");
		cb_lint_result_free(&r);
	}
	job c = { "histogram.cl", "clipped", 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&c, &r)) {
		expect(&r, 27, 11, CB_LINT_LOAD, CB_LINT_ASSUMED, 1, 1, ONE, "under if (v < 200)");
		const cb_lint_access *a = find(&r, 27, 11, CB_LINT_LOAD);
		tap_ok(a && strstr(a->note, "line 26"), "assumed: names line 26 (%s)", a ? a->note : "");
		expect(&r, 29, 16, CB_LINT_STORE, CB_LINT_NOT_EXECUTED, 0, 0, NULL, "the else side");
		a = find(&r, 29, 16, CB_LINT_STORE);
		tap_ok(a && strstr(a->note, "line 26") && a->object >= 0 &&
		       !strcmp(r.objects[a->object].name, "over"),
		       "not executed: on the side not simulated, object over (%s)", a ? a->note : "");
		expect(&r, 31, 11, CB_LINT_LOAD, CB_LINT_PREDICTED, 1, 1, ONE, "after the branch");
		expect(&r, 31, 21, CB_LINT_LOAD, CB_LINT_UNKNOWN, 0, 1, NULL, "over[hist[t] & 63]");
		a = find(&r, 31, 21, CB_LINT_LOAD);
		tap_ok(a && a->lanes[0].lo == 0 && a->lanes[0].hi == 252, "over[x & 63]: bounds 0..252");
		cb_lint_result_free(&r);
	}
}

static void test_rows_and_helper(void)
{
	static const unsigned eight[] = { 8, 0 }, helper[] = { 32, 32, 2, 0 };
	cb_lint_result r;
	job rows = { "rows16.cl", NULL, 16, 16, { NULL }, { NULL }, NULL, 0 };
	if (lint(&rows, &r)) {
		/* Sub-group 0 is rows y = 0, 1: lane (x, y) reads tile[x][y], word 16 x + y, banks
		 * 0, 1, 16, 17 with 8 lanes each: 8 passes. Rows of 17 collide (x = 15, y = 1 with
		 * x = 0, y = 0); rows of 18 put the even x on the even banks: 1 pass. XOR with
		 * r & 15 gives the 16 lanes of each parity 16 distinct columns. */
		expect(&r, 7, 13, CB_LINT_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "16x16 row write");
		expect(&r, 9, 20, CB_LINT_LOAD, CB_LINT_PREDICTED, 8, 1, eight, "16x16 column read");
		const cb_lint_access *a = find(&r, 9, 20, CB_LINT_LOAD);
		tap_ok(a && a->nlanes == 32 && a->lanes[15].lo == 960 && a->lanes[16].lo == 4 &&
		       a->ways == 8, "16x16: one sub-group spans rows 0 and 1, 8-way");
		expect_fix(&r, 9, 20, 2, 1, 128, 4, 0, 1, "16x16: tile[16][16+2] or c ^ (r & 15)");
		cb_lint_result_free(&r);
	}
	/* at(buf, stride, t) reads buf[t * stride]: stride 32 puts every lane in bank 0; the
	 * call after the loop uses stride 2. One access, three iterations (two call sites). */
	job h = { "helper.cl", NULL, 32, 0, { NULL }, { "stride=32" }, NULL, 0 };
	if (lint(&h, &r)) {
		expect(&r, 6, 9, CB_LINT_LOAD, CB_LINT_PREDICTED, 32, 1, helper, "helper p[i * stride]");
		tap_ok(find(&r, 14, 19, CB_LINT_STORE) && find(&r, 14, 19, CB_LINT_STORE)->niter == 33,
		       "helper: the fill loop has 33 iterations");
		cb_lint_result_free(&r);
	}
	job hu = { "helper.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&hu, &r)) {
		const cb_lint_access *a = find(&r, 6, 9, CB_LINT_LOAD);
		tap_ok(a && a->status == CB_LINT_UNKNOWN && a->niter == 3 && !a->iter[0].known &&
		       a->iter[2].known && a->iter[2].passes == 2,
		       "helper without --arg stride: unknown in the loop, 2 passes at the constant call");
		cb_lint_result_free(&r);
	}
}

static void test_gemm(void)
{
	cb_lint_result r;
	job g = { "gemm.cl", NULL, 32, 32, { NULL }, { "K=1024" }, NULL, 0 };
	if (lint(&g, &r)) {
		/* Sub-group = one column of work-items: Asub[k][row] consecutive, Bsub[col][k] one
		 * word for all: one pass each, 32 tiles x 32 steps. */
		const cb_lint_access *a = find(&r, 26, 11, CB_LINT_LOAD), *b = find(&r, 26, 26, CB_LINT_LOAD);
		tap_ok(a && b && a->niter == 1024 && b->niter == 1024 && a->passes_max == 1 &&
		       b->passes_max == 1 && a->status == CB_LINT_PREDICTED && !cb_lint_has_conflict(&r),
		       "GEMM 32x32, K = 1024: 1024 iterations, all one pass");
		cb_lint_result_free(&r);
	}
	job t = { "gemm.cl", NULL, 32, 32, { "TRANSPOSED_B" }, { "K=64" }, NULL, 0 };
	if (lint(&t, &r)) {
		const cb_lint_access *b = find(&r, 24, 26, CB_LINT_LOAD);
		tap_ok(b && b->niter == 64 && b->passes_max == 32, "GEMM with Bsub[row][k]: 32 passes");
		expect_fix(&r, 24, 26, 1, 1, 128, 5, 0, 1, "GEMM: Bsub[32][32+1] or c ^ (r & 31)");
		cb_lint_result_free(&r);
	}
}

static void test_objects(void)
{
	static const unsigned two[] = { 2, 0 };
	cb_lint_result r;
	job g0 = { "objects.cl", NULL, 64, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&g0, &r)) {
		expect(&r, 10, 7, CB_LINT_STORE, CB_LINT_UNKNOWN, 0, 1, NULL, "p[t], p = t & 1 ? a : b");
		const cb_lint_access *a = find(&r, 10, 7, CB_LINT_STORE);
		tap_ok(a && a->object < 0 && strstr(a->note, "several __local objects"),
		       "lanes over two objects: unknown (%s)", a ? a->note : "");
		expect(&r, 12, 19, CB_LINT_STORE, CB_LINT_NOT_EXECUTED, 0, 0, NULL, "group 1 only");
		a = find(&r, 12, 19, CB_LINT_STORE);
		tap_ok(a && strstr(a->note, "work-group (0,0,0)") && a->object >= 0 &&
		       !strcmp(r.objects[a->object].name, "a"),
		       "not executed by group 0, object a (%s)", a ? a->note : "");
		cb_lint_result_free(&r);
	}
	/* Group 1 stores a[2t % 64]: words 2 apart, two lanes per even bank. */
	job g1 = { "objects.cl", NULL, 64, 0, { NULL }, { NULL }, NULL, 1 };
	if (lint(&g1, &r)) {
		expect(&r, 12, 19, CB_LINT_STORE, CB_LINT_PREDICTED, 2, 1, two, "--group 1,0,0 reaches it");
		tap_ok(r.group[0] == 1, "the result names group 1");
		cb_lint_result_free(&r);
	}
}

static void bad(const job *j, cb_rc want, const char *text, const char *what)
{
	cb_lint_result r;
	cb_error err;
	cross_check cc;
	cb_rc rc = run(j, &r, &err, &cc);
	tap_ok(rc == want && cb_exit_status(&err) == 2 && strstr(err.text, text), "%s: %s", what,
	       err.text);
	cb_lint_result_free(&r);
}

/* The clang to run: the request's, else the configured one; $CLBANKS_CLANG is the CLI's to
 * read (tests/cli-table.txt), the library never looks at it. */
static void clang_override(void)
{
	char path[4096], *saved = getenv("CLBANKS_CLANG") ? strdup(getenv("CLBANKS_CLANG")) : NULL;
	snprintf(path, sizeof path, "%s/tests/lint/rows16.cl", srcdir);
	cb_lint_request req;
	cb_lint_result r;
	cb_error err;
	memset(&req, 0, sizeof req);
	req.kernel_path = path;
	req.local[0] = req.local[1] = 16;
	req.pricer = &h200.pricer;
	req.clang = "/nonexistent/clang";
	cb_rc rc = cb_lint_run(&req, &r, &err);
	tap_ok(rc == CB_ERR_RUNTIME && cb_exit_status(&err) == 4 && err.call &&
	       !strcmp(err.call, "posix_spawn") && strstr(err.text, "CLBANKS_CLANG"),
	       "a clang that cannot be run: exit 4, saying how to name one");
	cb_lint_result_free(&r);
	req.clang = NULL;
	setenv("CLBANKS_CLANG", "/nonexistent/clang-env", 1);
	rc = cb_lint_run(&req, &r, &err);
	tap_ok(rc == CB_OK, "the library runs the configured clang, not $CLBANKS_CLANG (%s)",
	       rc == CB_OK ? "ok" : err.text);
	cb_lint_result_free(&r);
	if (saved)
		setenv("CLBANKS_CLANG", saved, 1);
	else
		unsetenv("CLBANKS_CLANG");
	free(saved);
}

static void test_bad_input(void)
{
	job nk = { "nokernel.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	bad(&nk, CB_ERR_INPUT, "no __kernel", "a file without a kernel");
	job nl = { "rows16.cl", NULL, 0, 0, { NULL }, { NULL }, NULL, 0 };
	bad(&nl, CB_ERR_USAGE, "--local", "no --local");
	job many = { "transpose.cl", NULL, 32, 32, { NULL }, { NULL }, NULL, 0 };
	bad(&many, CB_ERR_USAGE, "--kernel", "three kernels and no --kernel");
	job none = { "transpose.cl", "transpose", 32, 32, { NULL }, { NULL }, NULL, 0 };
	bad(&none, CB_ERR_INPUT, "naive, padded, swizzled", "--kernel that is not there");
	job missing = { "no-such-file.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	bad(&missing, CB_ERR_INPUT, "cannot open", "a missing file");
	job arg = { "helper.cl", NULL, 32, 0, { NULL }, { "strid=3" }, NULL, 0 };
	bad(&arg, CB_ERR_USAGE, "no argument", "--arg for no argument");
	job big = { "rows16.cl", NULL, 4096, 2, { NULL }, { NULL }, NULL, 0 };
	bad(&big, CB_ERR_USAGE, "at most", "a work-group over the limit");
	job busy = { "endless.cl", "busy", 32, 0, { NULL }, { NULL }, NULL, 0 };
	bad(&busy, CB_ERR_INPUT, "bound its loops", "a loop of 10^8 __local reads stops");
	job spin = { "endless.cl", "spin", 1, 0, { NULL }, { NULL }, NULL, 0 };
	bad(&spin, CB_ERR_INPUT, "bound its loops", "a loop of 10^8 steps stops");

	cb_lint_result r;
	cb_error err;
	cross_check cc;
	clang_override();
	job broken = { "broken.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	cb_rc rc = run(&broken, &r, &err, &cc);
	tap_ok(rc == CB_ERR_INPUT && cb_exit_status(&err) == 2 && strstr(err.text, "does not compile") &&
	       strstr(r.build_log, "error:") && strstr(r.build_log, "undeclared_variable"),
	       "a kernel that does not compile: exit 2 and clang's build log");
	cb_lint_result_free(&r);
}

/* Every line under 100 columns, counting a kernel's path as its file name only. */
static bool narrow(const char *text)
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n"), dir = 0;
		const char *cl = strstr(p, ".cl:");
		if (cl && (size_t)(cl - p) < len)
			for (const char *q = p; q < cl; q++)
				if (*q == '/')
					dir = (size_t)(q - p) + 1;
		if (len - dir >= 100) {
			tap_diag("%zu columns: %.*s", len - dir, (int)len, p);
			return false;
		}
		p += len + (p[len] == '\n');
	}
	return true;
}

static char *text_of(const cb_lint_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cb_lint_print_text(f, r);
	fclose(f);
	return buf;
}

static bool keys_are(json_t *o, const char *const *keys, size_t n)
{
	if (!json_is_object(o) || json_object_size(o) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!json_object_get(o, keys[i]))
			return false;
	return true;
}

static void json_transpose(const cb_lint_result *r)
{
	static const char *const top[] = { "accesses", "kernel", "model", "work_group" };
	static const char *const acc[] = { "column", "elem_bytes", "file", "fix", "iterations", "line",
					   "min_passes", "object", "offsets", "op", "passes_max",
					   "status" };
	char *s = cb_lint_to_json(r);
	json_error_t e;
	json_t *doc = s ? json_loads(s, 0, &e) : NULL;
	json_t *a = json_array_get(json_object_get(doc, "accesses"), 1);
	json_t *fix = json_object_get(a, "fix");
	tap_ok(doc && keys_are(doc, top, 4) && keys_are(a, acc, 12) &&
	       strstr(s, "\"accesses\"") < strstr(s, "\"kernel\"") &&
	       strstr(s, "\"kernel\"") < strstr(s, "\"work_group\""),
	       "JSON: exactly the keys of the issue, sorted");
	tap_ok(json_integer_value(json_object_get(a, "passes_max")) == 32 &&
	       json_integer_value(json_object_get(a, "min_passes")) == 1 &&
	       json_integer_value(json_array_get(json_object_get(a, "offsets"), 1)) == 128 &&
	       !strcmp(json_string_value(json_object_get(a, "object")), "float tile[32][32]") &&
	       !strcmp(json_string_value(json_object_get(a, "status")), "predicted") &&
	       json_array_size(json_object_get(a, "iterations")) == 1 &&
	       !strcmp(json_string_value(json_object_get(json_object_get(fix, "padding"),
							 "declaration")), "float tile[32][32+1]") &&
	       !strcmp(json_string_value(json_object_get(json_object_get(fix, "swizzle"),
							 "expression")), "tile[r][c ^ (r & 31)]") &&
	       json_integer_value(json_object_get(json_object_get(fix, "padding"), "bytes")) == 128,
	       "JSON: passes, offsets, object and fix of the column read");
	json_t *m = json_object_get(doc, "model");
	tap_ok(json_integer_value(json_object_get(m, "banks")) == 32 &&
	       json_integer_value(json_object_get(m, "subgroup")) == 32 &&
	       json_integer_value(json_object_get(json_object_get(m, "lanes_per_pass"), "8")) == 16 &&
	       json_integer_value(json_array_get(json_object_get(doc, "work_group"), 1)) == 32,
	       "JSON: the model and the work-group");
	json_decref(doc);
	free(s);
}

static void json_unknown(const cb_lint_result *r)
{
	char *s = cb_lint_to_json(r);
	json_t *doc = s ? json_loads(s, 0, NULL) : NULL, *acc = json_object_get(doc, "accesses");
	json_t *unknown = NULL, *skipped = NULL, *v;
	size_t i;
	json_array_foreach(acc, i, v) {
		const char *st = json_string_value(json_object_get(v, "status"));
		if (st && !strcmp(st, "unknown") && !unknown)
			unknown = v;
		if (st && !strcmp(st, "not_executed"))
			skipped = v;
	}
	json_t *lane0 = json_array_get(json_object_get(unknown, "offsets"), 0);
	tap_ok(unknown && json_is_null(json_object_get(unknown, "passes_max")) &&
	       json_is_array(lane0) && json_integer_value(json_array_get(lane0, 1)) == 252 &&
	       skipped && json_is_null(json_object_get(skipped, "passes_max")) &&
	       !strcmp(json_string_value(json_object_get(skipped, "object")), "uint over[64]"),
	       "JSON: unknown offsets as [lo, hi], null passes, not_executed");
	json_decref(doc);
	free(s);
}

/* A kernel file whose name holds an escape sequence must not reach a terminal raw. */
static void escapes(void)
{
	char dir[] = "tests/tmp.lintXXXXXX", from[4096], to[4200], line[512];
	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp");
		return;
	}
	snprintf(from, sizeof from, "%s/tests/lint/rows16.cl", srcdir);
	snprintf(to, sizeof to, "%s/esc\x1b[31m.cl", dir);
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	while (in && out && fgets(line, sizeof line, in))
		fputs(line, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	cb_lint_request req;
	cb_lint_result r;
	cb_error err;
	memset(&req, 0, sizeof req);
	req.kernel_path = to;
	req.local[0] = req.local[1] = 16;
	req.pricer = &h200.pricer;
	bool ok = cb_lint_run(&req, &r, &err) == CB_OK;
	char *t = ok ? text_of(&r) : NULL;
	tap_ok(t && strstr(t, "esc\\x1b[31m.cl:9:20") && !strchr(t, 0x1b),
	       "text: control characters in names are escaped (\\x1b)");
	free(t);
	cb_lint_result_free(&r);
	unlink(to);
	rmdir(dir);
}

static void test_renderers(void)
{
	cb_lint_result r;
	job naive = { "transpose.cl", "naive", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&naive, &r)) {
		char *t = text_of(&r);
		tap_ok(t && strstr(t, ":22:26: load float tile[32][32]: 32 passes (32-way conflict; "
			     "conflict-free minimum 1)") &&
		       strstr(t, "fix: float tile[32][32+1] (1 pass, +128 B)") &&
		       strstr(t, "or: tile[r][c ^ (r & 31)] (1 pass, no memory)"),
		       "text: passes, k-way conflict, minimum and both fixes");
		tap_ok(t && narrow(t), "text: lines under 100 columns");
		free(t);
		json_transpose(&r);
		cb_lint_result_free(&r);
	}
	job c = { "histogram.cl", "clipped", 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&c, &r)) {
		char *t = text_of(&r);
		tap_ok(t && strstr(t, ": unknown\n  offsets depend on memory contents") &&
		       strstr(t, ": not executed\n  on the side of the undecidable branch at line 26") &&
		       narrow(t),
		       "text: unknown and not executed accesses say why");
		free(t);
		json_unknown(&r);
		cb_lint_result_free(&r);
	}
	escapes();
}

int main(void)
{
	static const cb_geometry hg = { 32, 4, true, true }, ag = { 32, 4, true, false };
	static const unsigned hl[CB_NELEM] = { 32, 32, 32, 16, 8 }, al[CB_NELEM] = { 0, 0, 32, 0, 0 };
	cb_lint_pricer_from_model(&h200, &hg, hl, 32);
	cb_lint_pricer_from_model(&amd, &ag, al, 64);
	const char *top = getenv("top_srcdir");
	snprintf(srcdir, sizeof srcdir, "%s", top ? top : ".");
	test_pricer();
	if (!cb_lint_available()) {
		test_stub();
		skip("the lint engine: clbanks was built without LLVM");
		return tap_done();
	}
	cb_lint_result r;
	cb_error err;
	cross_check cc;
	job probe = { "rows16.cl", NULL, 16, 16, { NULL }, { NULL }, NULL, 0 };
	if (run(&probe, &r, &err, &cc) == CB_ERR_RUNTIME && err.call) {
		skip("the lint engine: clang cannot be run");
		cb_lint_result_free(&r);
		return tap_done();
	}
	cb_lint_result_free(&r);
	test_transpose();
	test_wide();
	test_reduce();
	test_scan();
	test_histogram();
	test_rows_and_helper();
	test_gemm();
	test_objects();
	test_bad_input();
	test_renderers();
	return tap_done();
}
