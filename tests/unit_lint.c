/* SPDX-License-Identifier: MIT */
/*
 * clbanks lint on the kernels of tests/lint against passes computed by hand (the comments
 * say how), on an H200-like model (32 banks x 4 B, broadcast, pair packing, 32/32/32/16/8
 * lanes per pass, sub-groups of 32) and an AMD-like one (sub-groups of 64, 32 lanes per pass
 * for 4 B). Every sub-group access the engine prices is also priced here with cb_passes (the
 * function behind predict) or, with inactive lanes, cb_passes_active on the same offsets.
 * Skips when clbanks was built without LLVM or clang cannot be run. The tests of lint's
 * text and JSON are in unit_lint_out.c, what both use in lint_harness.c.
 */
#include "config.h"
#include "lint_harness.h"
#include "lint/lint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	tap_ok(q->price(q, CB_OP_STORE, 4, off, act, 32, &p, &m) && p == 16,
	       "op models: without a store model, stores use the loads' 32 banks: 16 passes");
	tap_ok(!strcmp(cb_lint_model_source(&mm, CB_OP_STORE), "the loads' model"),
	       "op models: and say so");
	cb_lint_model_set_op(&mm, CB_OP_STORE, &store, lanes);
	tap_ok(q->price(q, CB_OP_STORE, 4, off, act, 32, &p, &m) && p == 32 && m == 2,
	       "op models: the stores' own 16 banks: 32 passes, minimum 2");
	tap_ok(q->price(q, CB_OP_LOAD, 4, off, act, 32, &p, &m) && p == 16,
	       "op models: loads keep theirs");
	memset(off, 0, sizeof off);
	tap_ok(q->price(q, CB_OP_ATOMIC, 4, off, act, 32, &p, &m) && p == 32,
	       "op models: atomics without a model serialize on one word");
	cb_lint_model_set_op(&mm, CB_OP_ATOMIC, &(cb_geometry){ 32, 4, true, false }, lanes);
	tap_ok(q->price(q, CB_OP_ATOMIC, 4, off, act, 32, &p, &m) && p == 1,
	       "op models: a measured atomic model with broadcast is taken at its word");
	cb_lint_model_set_op(&mm, CB_OP_ATOMIC, &atomic, lanes);
	tap_ok(q->price(q, CB_OP_ATOMIC, 4, off, act, 32, &p, &m) && p == 32 &&
		       !strcmp(cb_lint_model_source(&mm, CB_OP_ATOMIC), "measured"),
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
	tap_ok(h->price(h, CB_OP_LOAD, 4, off, act, 32, &p, &m) && p == 32 && m == 1,
	       "pricer: 32 lanes 128 B apart on 32 x 4 B banks: 32 passes, minimum 1");
	tap_ok(h->period == 128, "pricer: the bank period is 32 x 4 B");
	tap_ok(a->price(a, CB_OP_LOAD, 4, off, act, 64, &p, &m) && p == 64 && m == 2,
	       "pricer, AMD-like: 64 lanes in bank 0, two halves of 32: 64 passes, minimum 2");
	memset(off, 0, sizeof off);
	tap_ok(h->price(h, CB_OP_LOAD, 4, off, act, 32, &p, &m) && p == 1 && m == 1,
	       "pricer: a broadcast load is one pass");
	tap_ok(h->price(h, CB_OP_ATOMIC, 4, off, act, 32, &p, &m) && p == 32 && m == 1,
	       "pricer: 32 atomics on one word serialize (no merging): 32 passes");
	for (unsigned l = 0; l < 32; l++) {
		off[l] = l * 8;
		act[l] = l < 8;
	}
	tap_ok(h->price(h, CB_OP_LOAD, 8, off, act, 32, &p, &m) && p == 1 && m == 1,
	       "pricer: 8 active lanes of consecutive doubles: one pass");
	tap_ok(!a->price(a, CB_OP_LOAD, 8, off, act, 64, &p, &m),
	       "pricer: no lanes per pass measured for 8 B: cannot price");
	tap_ok(!h->price(h, CB_OP_LOAD, 12, off, act, 32, &p, &m),
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

static void transpose_h200(void)
{
	static const unsigned k32[] = { 32, 0 }, k32x4[] = { 32, 32, 32, 32, 0 };
	cb_lint_result r;
	job naive = { "transpose.cl", "naive", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&naive, &r)) {
		/* Row write: lane l at 4 l, every bank once. Column read tile[tx][ty]: lane l at
		 * 128 l, all 32 in bank 0: 32 passes. */
		expect(&r, 17, 20, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE,
		       "naive 32x32 row write");
		expect(&r, 22, 26, CB_OP_LOAD, CB_LINT_PREDICTED, 32, 1, k32,
		       "naive 32x32 column read");
		const cb_lint_access *a = find(&r, 22, 26, CB_OP_LOAD);
		tap_ok(lanes_are(a, 32, 128, 0) && a->subgroups == 32 && a->ways == 32 &&
			       a->conflict && a->range_known && a->range_lo == 0 &&
			       a->range_hi == 4092,
		       "naive: lanes 128 B apart, 32 sub-groups over bytes 0..4092, 32-way");
		/* Rows of 33: lane l in bank l. XOR with r & 31: lane l reads column l. */
		expect_fix(&r, 22, 26, 1, 1, 128, 5, 0, 1, "naive: tile[32][32+1] or c ^ (r & 31)");
		tap_ok(cb_lint_has_conflict(&r),
		       "--fail-on-conflict: the naive transpose conflicts");
		cb_lint_result_free(&r);
	}
	job padded = { "transpose.cl", "padded", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&padded, &r)) {
		expect(&r, 31, 20, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "padded row write");
		expect(&r, 36, 26, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE, "padded column read");
		tap_ok(lanes_are(find(&r, 36, 26, CB_OP_LOAD), 32, 132, 0) &&
			       !cb_lint_has_conflict(&r),
		       "padded: lanes 132 B apart (bank l), no conflict anywhere");
		cb_lint_result_free(&r);
	}
	job swz = { "transpose.cl", "swizzled", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&swz, &r)) {
		/* tile[tx][ty ^ tx]: sub-group 0 reads tile[l][l], 132 l. */
		expect(&r, 45, 40, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "swizzled row write");
		expect(&r, 50, 26, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE,
		       "swizzled column read");
		tap_ok(lanes_are(find(&r, 50, 26, CB_OP_LOAD), 32, 132, 0),
		       "swizzled: lane l at 132 l");
		cb_lint_result_free(&r);
	}
	/* 32 x 8: each work-item handles 4 rows, one loop iteration each. */
	job n8 = { "transpose.cl", "naive", 32, 8, { "TILE_H=8" }, { NULL }, NULL, 0 };
	if (lint(&n8, &r)) {
		expect(&r, 17, 20, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE4,
		       "32x8 naive row write");
		expect(&r, 22, 26, CB_OP_LOAD, CB_LINT_PREDICTED, 32, 1, k32x4,
		       "32x8 naive column read");
		expect_fix(&r, 22, 26, 1, 1, 128, 5, 0, 1, "32x8 naive: the same fix");
		tap_ok(find(&r, 22, 26, CB_OP_LOAD)->subgroups == 8, "32x8: 8 sub-groups");
		cb_lint_result_free(&r);
	}
	job p8 = { "transpose.cl", "padded", 32, 8, { "TILE_H=8" }, { NULL }, NULL, 0 };
	if (lint(&p8, &r)) {
		expect(&r, 36, 26, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE4,
		       "32x8 padded column read");
		cb_lint_result_free(&r);
	}
	job s8 = { "transpose.cl", "swizzled", 32, 8, { "TILE_H=8" }, { NULL }, NULL, 0 };
	if (lint(&s8, &r)) {
		expect(&r, 45, 40, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE4,
		       "32x8 swizzled row write");
		expect(&r, 50, 26, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE4,
		       "32x8 swizzled column read");
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
		expect(&r, 17, 20, CB_OP_STORE, CB_LINT_PREDICTED, 2, 2, two,
		       "AMD naive row write");
		expect(&r, 22, 26, CB_OP_LOAD, CB_LINT_PREDICTED, 64, 2, k64,
		       "AMD naive column read");
		const cb_lint_access *a = find(&r, 22, 26, CB_OP_LOAD);
		tap_ok(a && a->ways == 32 && a->nlanes == 64 && a->subgroups == 16 &&
			       a->lanes[32].lo == 4,
		       "AMD: 64-lane sub-groups, 16 of them, lane 32 on row 1");
		expect_fix(&r, 22, 26, 1, 2, 128, 5, 0, 2,
			   "AMD naive: tile[32][32+1] or c ^ (r & 31)");
		cb_lint_result_free(&r);
	}
	job padded = { "transpose.cl", "padded", 32, 32, { NULL }, { NULL }, &amd, 0 };
	if (lint(&padded, &r)) {
		expect(&r, 36, 26, CB_OP_LOAD, CB_LINT_PREDICTED, 2, 2, two,
		       "AMD padded column read");
		cb_lint_result_free(&r);
	}
	job swz = { "transpose.cl", "swizzled", 32, 32, { NULL }, { NULL }, &amd, 0 };
	if (lint(&swz, &r)) {
		expect(&r, 50, 26, CB_OP_LOAD, CB_LINT_PREDICTED, 2, 2, two,
		       "AMD swizzled column read");
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
		expect(&r, 8, 13, CB_OP_STORE, CB_LINT_PREDICTED, 2, 2, two, "double row write");
		expect(&r, 10, 20, CB_OP_LOAD, CB_LINT_PREDICTED, 32, 2, k32, "double column read");
		const cb_lint_access *a = find(&r, 10, 20, CB_OP_LOAD);
		tap_ok(lanes_are(a, 32, 256, 0) && a->ways == 16, "doubles: 256 B apart, 16-way");
		expect_fix(&r, 10, 20, 1, 2, 256, 4, 0, 2,
			   "doubles: tile[32][32+1] or c ^ (r & 15)");
		cb_lint_result_free(&r);
	}
	job v = { "wide.cl", "vectors", 16, 16, { NULL }, { NULL }, NULL, 0 };
	if (lint(&v, &r)) {
		/* 16 B, 8 lanes per pass: lanes of one group read tile[x][y], 256 B apart, on
		 * banks 4y..4y+3: 8 passes per group, 32 in all; the minimum is 4. */
		expect(&r, 17, 13, CB_OP_STORE, CB_LINT_PREDICTED, 4, 4, four, "float4 row write");
		expect(&r, 19, 20, CB_OP_LOAD, CB_LINT_PREDICTED, 32, 4, k32, "float4 column read");
		tap_ok(find(&r, 19, 20, CB_OP_LOAD)->ways == 8, "float4: 8-way");
		expect_fix(&r, 19, 20, 1, 4, 256, 3, 0, 4, "float4: tile[16][16+1] or c ^ (r & 7)");
		cb_lint_result_free(&r);
	}
	cb_error err;
	cross_check cc;
	job ad = { "wide.cl", "doubles", 32, 32, { NULL }, { NULL }, &amd, 0 };
	if (run(&ad, &r, &err, &cc) == CB_OK) {
		const cb_lint_access *a = find(&r, 10, 20, CB_OP_LOAD);
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
		expect(&r, 16, 18, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE8,
		       "interleaved sdata[tid + s]");
		const cb_lint_access *a = find(&r, 16, 18, CB_OP_LOAD);
		tap_ok(a && a->nlanes == 32 && a->lanes[0].active && a->lanes[0].lo == 4 &&
			       !a->lanes[1].active && a->lanes[2].lo == 12,
		       "interleaved: odd lanes inactive in the first iteration");
		cb_lint_result_free(&r);
	}
	/* index = 2 s tid, active while index < 256: stride 2 s words over 32, 16, 8, ... active
	 * lanes: 2, 4, 8 passes, then 16 lanes in 2 banks, 8 and 4 lanes in one: 8, 8, 4, 2, 1. */
	job st = { "reduce.cl", "strided", 256, 0, { NULL }, { "sdata=1024" }, NULL, 0 };
	if (lint(&st, &r)) {
		expect(&r, 31, 20, CB_OP_LOAD, CB_LINT_PREDICTED, 8, 1, strided,
		       "strided sdata[index + s]");
		expect(&r, 31, 17, CB_OP_LOAD, CB_LINT_PREDICTED, 8, 1, strided,
		       "strided sdata[index]");
		expect(&r, 31, 17, CB_OP_STORE, CB_LINT_PREDICTED, 8, 1, strided, "strided store");
		const cb_lint_access *a = find(&r, 31, 20, CB_OP_LOAD);
		const cb_lint_object *o = a && a->object >= 0 ? &r.objects[a->object] : NULL;
		tap_ok(a && o && o->is_arg && o->rank == 0 && o->bytes == 1024 && a->ways == 8 &&
			       !strcmp(o->name, "sdata") && lanes_are(a, 32, 32, 16),
		       "strided: a dynamic __local argument of 1024 B (--arg), 8-way; the lanes "
		       "shown are the worst's, 32 l + 16 (s = 4)");
		/* issue 31, point 9: no fix because sdata is a pointer, said so */
		tap_ok(a && strstr(a->fix_note, "sdata is a __local pointer argument"),
		       "no fix for a pointer argument says why (%s)", a ? a->fix_note : "");
		tap_ok(a && o && o->fix.wanted && !o->fix.computed && !a->fixed && a->fix_note[0],
		       "strided: no fix computed for a pointer");
		/* the summary tells the three accesses of line 31 apart (third session) */
		char *t = text_of(&r);
		tap_ok(t && strstr(t, "; most: line 31:17 (load) (35), line 31:17 (store) (35), "
				      "line 31:20 (35)\n"),
		       "strided: most: line 31:17 (load), 31:17 (store), 31:20");
		free(t);
		cb_lint_result_free(&r);
	}
	job sq = { "reduce.cl", "sequential", 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&sq, &r)) {
		expect(&r, 46, 18, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE8,
		       "sequential sdata[tid + s]");
		expect(&r, 46, 15, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE8, "sequential store");
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
		expect(&r, 26, 15, CB_OP_LOAD, CB_LINT_PREDICTED, 16, 1, up,
		       "scan up-sweep temp[a]");
		expect(&r, 26, 12, CB_OP_STORE, CB_LINT_PREDICTED, 16, 1, up,
		       "scan up-sweep store");
		expect(&r, 39, 14, CB_OP_LOAD, CB_LINT_PREDICTED, 16, 1, down,
		       "scan down-sweep temp[a]");
		expect(&r, 18, 21, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "scan first store");
		cb_lint_result_free(&r);
	}
	/* One word of padding every 32 moves the lanes of every step to distinct banks. */
	job pad = { "scan.cl", NULL, 256, 0, { "PAD" }, { "n=512" }, NULL, 0 };
	if (lint(&pad, &r)) {
		expect(&r, 26, 15, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, one9,
		       "padded scan up-sweep");
		expect(&r, 39, 14, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, one9,
		       "padded scan down-sweep");
		tap_ok(!cb_lint_has_conflict(&r), "padded scan: no conflict");
		cb_lint_result_free(&r);
	}
	/* Without n the loop bound is unknown: 4 assumed iterations, thid < d assumed true. */
	job open = { "scan.cl", NULL, 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&open, &r)) {
		expect(&r, 26, 15, CB_OP_LOAD, CB_LINT_ASSUMED, 16, 1, assumed,
		       "scan without n: assumed");
		const cb_lint_access *a = find(&r, 26, 15, CB_OP_LOAD);
		tap_ok(a && strstr(a->note, "undecidable branch at line 22"),
		       "assumed: says where (%s)", a ? a->note : "");
		expect(&r, 19, 21, CB_OP_STORE, CB_LINT_UNKNOWN, 0, 1, NULL,
		       "scan without n: temp[bi]");
		expect(&r, 18, 21, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE,
		       "scan without n: temp[ai]");
		tap_ok(!cb_lint_has_conflict(&r), "--fail-on-conflict ignores assumed conflicts");
		cb_lint_result_free(&r);
	}
}

static void test_histogram(void)
{
	cb_lint_result r;
	job h = { "histogram.cl", "histogram", 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&h, &r)) {
		expect(&r, 13, 3, CB_OP_ATOMIC, CB_LINT_UNKNOWN, 0, 1, NULL,
		       "atomic_inc(&hist[v])");
		const cb_lint_access *a = find(&r, 13, 3, CB_OP_ATOMIC);
		tap_ok(a && !a->priced && a->niter == 4 && !a->iter[0].known &&
			       a->lanes[0].active && !a->lanes[0].known && a->lanes[0].lo == 0 &&
			       a->lanes[0].hi == 1020 && !a->range_known &&
			       strstr(a->note, "memory contents"),
		       "data-dependent bins: unknown within bytes 0..1020, never a guess");
		/* hist[t & 15]: two lanes per word; atomics serialize: 2 passes. */
		expect(&r, 14, 2, CB_OP_ATOMIC, CB_LINT_PREDICTED, 2, 1, NULL,
		       "atomic_add(&hist[t & 15])");
		expect(&r, 10, 10, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "hist[t] = 0");
		cb_lint_result_free(&r);
	}
	job c = { "histogram.cl", "clipped", 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&c, &r)) {
		expect(&r, 27, 11, CB_OP_LOAD, CB_LINT_ASSUMED, 1, 1, ONE, "under if (v < 200)");
		const cb_lint_access *a = find(&r, 27, 11, CB_OP_LOAD);
		tap_ok(a && strstr(a->note, "line 26"), "assumed: names line 26 (%s)",
		       a ? a->note : "");
		/* issue 31: the else side runs too (a second run of the work-group) */
		expect(&r, 29, 16, CB_OP_STORE, CB_LINT_ASSUMED, 1, 1, ONE, "the else side");
		a = find(&r, 29, 16, CB_OP_STORE);
		tap_ok(a && strstr(a->note, "line 26") && a->object >= 0 &&
			       !strcmp(r.objects[a->object].name, "over"),
		       "the else side: assumed under line 26, object over (%s)", a ? a->note : "");
		expect(&r, 31, 11, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE, "after the branch");
		expect(&r, 31, 21, CB_OP_LOAD, CB_LINT_UNKNOWN, 0, 1, NULL, "over[hist[t] & 63]");
		a = find(&r, 31, 21, CB_OP_LOAD);
		tap_ok(a && a->lanes[0].lo == 0 && a->lanes[0].hi == 252,
		       "over[x & 63]: bounds 0..252");
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
		expect(&r, 7, 13, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "16x16 row write");
		expect(&r, 9, 20, CB_OP_LOAD, CB_LINT_PREDICTED, 8, 1, eight, "16x16 column read");
		const cb_lint_access *a = find(&r, 9, 20, CB_OP_LOAD);
		tap_ok(a && a->nlanes == 32 && a->lanes[15].lo == 960 && a->lanes[16].lo == 4 &&
			       a->ways == 8,
		       "16x16: one sub-group spans rows 0 and 1, 8-way");
		/* Judged with the row write, rows of 18 put row 1's last two lanes on row 0's
		 * first banks (2 passes); the swizzle keeps both accesses at 1 pass. */
		const cb_lint_fix *f = a && a->object >= 0 ? &r.objects[a->object].fix : NULL;
		const cb_lint_access *w = find(&r, 7, 13, CB_OP_STORE);
		tap_ok(f && f->found && f->best.swizzle && f->best.bits == 4 &&
			       f->best.shift == 0 && f->best.worst_passes == 1 &&
			       f->best.at_minimum && !f->alt_found && f->total_before == 72 &&
			       f->best.total_passes == 16 && w && w->fixed &&
			       w->fixed_passes == 1 && a->fixed_passes == 1,
		       "16x16: one fix for the array, c ^ (r & 15) (72 -> 16 passes), not a padding "
		       "that makes the row write 2-way");
		cb_lint_result_free(&r);
	}
	/* at(buf, stride, t) reads buf[t * stride]: stride 32 puts every lane in bank 0; the
	 * call after the loop uses stride 2. One access, three iterations (two call sites). */
	job h = { "helper.cl", NULL, 32, 0, { NULL }, { "stride=32" }, NULL, 0 };
	if (lint(&h, &r)) {
		expect(&r, 6, 9, CB_OP_LOAD, CB_LINT_PREDICTED, 32, 1, helper,
		       "helper p[i * stride]");
		tap_ok(find(&r, 14, 19, CB_OP_STORE) && find(&r, 14, 19, CB_OP_STORE)->niter == 33,
		       "helper: the fill loop has 33 iterations");
		cb_lint_result_free(&r);
	}
	job hu = { "helper.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&hu, &r)) {
		const cb_lint_access *a = find(&r, 6, 9, CB_OP_LOAD);
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
		const cb_lint_access *a = find(&r, 26, 11, CB_OP_LOAD),
				     *b = find(&r, 26, 26, CB_OP_LOAD);
		tap_ok(a && b && a->niter == 1024 && b->niter == 1024 && a->passes_max == 1 &&
			       b->passes_max == 1 && a->status == CB_LINT_PREDICTED &&
			       !cb_lint_has_conflict(&r),
		       "GEMM 32x32, K = 1024: 1024 iterations, all one pass");
		cb_lint_result_free(&r);
	}
	job t = { "gemm.cl", NULL, 32, 32, { "TRANSPOSED_B" }, { "K=64" }, NULL, 0 };
	if (lint(&t, &r)) {
		const cb_lint_access *b = find(&r, 24, 26, CB_OP_LOAD);
		tap_ok(b && b->niter == 64 && b->passes_max == 32,
		       "GEMM with Bsub[row][k]: 32 passes");
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
		expect(&r, 10, 7, CB_OP_STORE, CB_LINT_UNKNOWN, 0, 1, NULL,
		       "p[t], p = t & 1 ? a : b");
		const cb_lint_access *a = find(&r, 10, 7, CB_OP_STORE);
		tap_ok(a && a->object < 0 && strstr(a->note, "several __local objects"),
		       "lanes over two objects: unknown (%s)", a ? a->note : "");
		expect(&r, 12, 19, CB_OP_STORE, CB_LINT_NOT_EXECUTED, 0, 0, NULL, "group 1 only");
		a = find(&r, 12, 19, CB_OP_STORE);
		tap_ok(a && strstr(a->note, "work-group (0,0,0)") && a->object >= 0 &&
			       !strcmp(r.objects[a->object].name, "a"),
		       "not executed by group 0, object a (%s)", a ? a->note : "");
		cb_lint_result_free(&r);
	}
	/* Group 1 stores a[2t % 64]: words 2 apart, two lanes per even bank. */
	job g1 = { "objects.cl", NULL, 64, 0, { NULL }, { NULL }, NULL, 1 };
	if (lint(&g1, &r)) {
		expect(&r, 12, 19, CB_OP_STORE, CB_LINT_PREDICTED, 2, 1, two,
		       "--group 1,0,0 reaches it");
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
	tap_ok(rc == CB_ERR_INPUT && cb_exit_status(&err) == 2 &&
		       strstr(err.text, "does not compile") && strstr(r.build_log, "error:") &&
		       strstr(r.build_log, "undeclared_variable"),
	       "a kernel that does not compile: exit 2 and clang's build log");
	cb_lint_result_free(&r);
}

/* Issue 21: accesses in C99 inline helpers (which clang at -O0 only declares) are seen. */
static bool same_accesses(const cb_lint_result *a, const cb_lint_result *b)
{
	if (a->naccesses != b->naccesses)
		return false;
	for (size_t i = 0; i < a->naccesses; i++) {
		const cb_lint_access *x = &a->accesses[i], *y = &b->accesses[i];
		if (x->line != y->line || x->column != y->column || x->op != y->op ||
		    x->status != y->status || x->passes_max != y->passes_max ||
		    x->min_passes != y->min_passes || x->niter != y->niter)
			return false;
	}
	return true;
}

static void test_inline_helpers(void)
{
	static const unsigned two15[] = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0 };
	static const unsigned one5[] = { 1, 1, 1, 1, 1, 0 };
	cb_lint_result r, v;
	/* pos = 2 l - (l & (stride - 1)) for strides 1 .. 16: lanes l and l + 16 are 32 words
	 * apart (one bank): 2 passes in each of the 15 steps (sizes 2 .. 32), at both keys;
	 * the swaps are under the data-dependent test, so assumed. */
	job b = { "bitonic_inline.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&b, &r)) {
		expect(&r, 12, 11, CB_OP_LOAD, CB_LINT_PREDICTED, 2, 1, two15,
		       "bitonic: *keyA in inline helper");
		expect(&r, 13, 11, CB_OP_LOAD, CB_LINT_PREDICTED, 2, 1, two15,
		       "bitonic: *keyB in inline helper");
		expect(&r, 15, 9, CB_OP_STORE, CB_LINT_ASSUMED, 2, 1, two15,
		       "bitonic: swap store A");
		expect(&r, 16, 9, CB_OP_STORE, CB_LINT_ASSUMED, 2, 1, two15,
		       "bitonic: swap store B");
		tap_ok(r.naccesses == 8 && cb_lint_has_conflict(&r) &&
			       cb_lint_unknown_count(&r) == 0,
		       "bitonic: 8 accesses, conflicts, none unknown");
		job si = { "bitonic_inline.cl",        NULL,     32,   0,
			   { "HELPER=static inline" }, { NULL }, NULL, 0 };
		if (lint(&si, &v)) {
			tap_ok(same_accesses(&r, &v),
			       "bitonic: static inline gives the same result");
			cb_lint_result_free(&v);
		}
		job pl = { "bitonic_inline.cl", NULL, 32, 0, { "HELPER=" }, { NULL }, NULL, 0 };
		if (lint(&pl, &v)) {
			tap_ok(same_accesses(&r, &v),
			       "bitonic: a plain helper gives the same result");
			cb_lint_result_free(&v);
		}
		cb_lint_result_free(&r);
	}
	/* Consecutive words, at offset 0 or 32 (lmem[idx]) and 32 - i (lmem[idx - i]): one pass
	 * each; the loop runs for i = 1, 2, 4, 8, 16. */
	job s = { "scan_inline.cl", NULL, 32, 0, { NULL }, { "lmem=256" }, NULL, 0 };
	if (lint(&s, &r)) {
		expect(&r, 8, 12, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "scan: zero half");
		expect(&r, 10, 12, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "scan: value half");
		expect(&r, 13, 12, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, one5,
		       "scan: lmem[idx - i]");
		expect(&r, 15, 15, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, one5,
		       "scan: lmem[idx] read");
		expect(&r, 15, 13, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, one5,
		       "scan: lmem[idx] write");
		expect(&r, 18, 9, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE, "scan: result");
		tap_ok(r.naccesses == 6 && r.nobjects == 1 && r.objects[0].elem_bytes == 4 &&
			       !strcmp(r.objects[0].elem_type, "uint"),
		       "scan: 6 accesses on uint *lmem (type from the argument metadata)");
		cb_lint_result_free(&r);
	}
	/* As[k * 32 + row]: consecutive words, 1 pass; Bs[row * 32 + k]: stride 32 words, all
	 * lanes in one bank, 32 passes; 32 steps of k. */
	job g = { "gemm_inline.cl", NULL, 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&g, &r)) {
		const cb_lint_access *a = find(&r, 11, 13, CB_OP_LOAD),
				     *c = find(&r, 12, 13, CB_OP_LOAD);
		tap_ok(a && c && a->niter == 32 && c->niter == 32 && a->passes_max == 1 &&
			       c->passes_max == 32 && c->min_passes == 1 &&
			       c->status == CB_LINT_PREDICTED,
		       "GEMM inline helper: As 1 pass, Bs 32 passes, 32 steps");
		cb_lint_result_free(&r);
	}
}

/* A call that lint cannot see (declared only) is an unknown access that names the function. */
static void test_unseen_call(void)
{
	cb_lint_result r;
	job u = { "unseen.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	cb_error err;
	cross_check cc;
	cb_rc rc = run(&u, &r, &err, &cc);
	const cb_lint_access *a = rc == CB_OK ? find(&r, 10, 2, CB_LINT_CALL) : NULL;
	tap_ok(a && a->status == CB_LINT_UNKNOWN &&
		       strstr(a->note, "calls undefined function Helper") && a->object == 0 &&
		       cb_lint_unknown_count(&r) == 1,
	       "a declared-only helper given a __local pointer: unknown, 'calls undefined function Helper'");
	cb_lint_result_free(&r);
}

/* Issue 21 (CLBlast Xgemm with USE_INLINE_KEYWORD=1): float4 tiles through inline helpers.
 * Work-group 8 x 8, sub-group 0 = x 0..7, y 0..3. The store t[x * 32 + y] puts lane (x, y) at
 * byte 512 x + 16 y: 8 lanes per pass for 16-byte elements, and each group of 8 lanes (one
 * y) writes 8 distinct 16-byte words on banks 4y..4y+3: 8 passes per group, 32 in all, minimum
 * 4 (512 bytes at 128 a pass). The read t[k * 32 + y] gives the 8 lanes of a row one element:
 * 4 distinct elements, 64 bytes, 2 passes (broadcast and pair packing), which is below the 4
 * of distinct consecutive elements: the access is at its minimum (2), never "-2 beyond" it. */
static void test_shared_words(void)
{
	static const unsigned two4[] = { 2, 2, 2, 2, 0 }, t32[] = { 32, 0 };
	cb_lint_result r;
	for (int inl = 0; inl < 2; inl++) {
		job v = { "vec_inline.cl", NULL, 8, 8, { inl ? "USE_INLINE" : NULL },
			  { NULL },        NULL, 0 };
		if (!lint(&v, &r))
			continue;
		expect(&r, 15, 17, CB_OP_STORE, CB_LINT_PREDICTED, 32, 4, t32,
		       inl ? "inline StoreTile: t[x * 32 + y], float4"
			   : "StoreTile: t[x * 32 + y]");
		expect(&r, 20, 9, CB_OP_LOAD, CB_LINT_PREDICTED, 2, 2, two4,
		       inl ? "inline ReadTile: 8 lanes on each element" : "ReadTile: shared words");
		bool under = r.naccesses == 2;
		for (size_t i = 0; i < r.naccesses; i++)
			under &= r.accesses[i].total_min <= r.accesses[i].total_passes;
		const cb_lint_access *l = find(&r, 20, 9, CB_OP_LOAD);
		tap_ok(under && l && !l->conflict && l->ways == 1 && l->total_passes == 16 &&
			       l->total_min == 16,
		       "%s: no access below its minimum; the read 16 passes, none beyond",
		       inl ? "inline" : "plain");
		cb_lint_result_free(&r);
	}
}

/* Issue 21 (SHOC stencil2d): 1 x 64 work-items over rows of 64 + 2 floats in a dynamic
 * buffer, indices from inline helpers. Each row store and each of the three reads is 32
 * consecutive words (1 pass; 6 and 4 rows, 2 sub-groups: 12 and 8 passes); the left halo is
 * lane 0 alone (1 pass, 6 rows, 6). With the index helper only declared (-DEXTERN_INDEX) all
 * five are unknown because of that call, and say so (they said "memory contents" before). */
static void test_halo(void)
{
	static const unsigned six[] = { 1, 1, 1, 1, 1, 1, 0 };
	cb_lint_result r;
	job h = { "halo.cl", NULL, 1, 64, { NULL }, { "sh=1584" }, NULL, 0 };
	if (lint(&h, &r)) {
		expect(&r, 27, 30, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, six, "halo: row store");
		expect(&r, 30, 32, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, six, "halo: left column");
		expect(&r, 33, 20, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE4, "halo: centre");
		expect(&r, 33, 45, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE4, "halo: north-east");
		expect(&r, 34, 6, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE4, "halo: south-west");
		uint64_t total = 0;
		for (size_t i = 0; i < r.naccesses; i++)
			total += r.accesses[i].total_passes;
		tap_ok(r.naccesses == 5 && total == 12 + 6 + 3 * 8,
		       "halo: 5 accesses, 42 passes in all");
		cb_lint_result_free(&r);
	}
	job e = { "halo.cl", NULL, 1, 64, { "EXTERN_INDEX" }, { "sh=1584" }, NULL, 0 };
	cb_error err;
	cross_check cc;
	if (run(&e, &r, &err, &cc) == CB_OK) {
		unsigned named = 0;
		for (size_t i = 0; i < r.naccesses; i++)
			named += r.accesses[i].status == CB_LINT_UNKNOWN &&
				 strstr(r.accesses[i].note,
					"call lint does not evaluate: HaloIndex "
					"(declared, not defined)") &&
				 !strstr(r.accesses[i].note, "memory contents");
		tap_ok(r.naccesses == 5 && named == 5,
		       "halo with HaloIndex only declared: 5 unknown, each naming it (%u)", named);
	} else {
		tap_ok(false, "halo with HaloIndex only declared: runs");
	}
	cb_lint_result_free(&r);
}

/* Each unknown access names the calls its own address came from, not every unseen call of
 * the kernel; an index from memory keeps its reason. */
static void test_unseen_index(void)
{
	cb_lint_result r;
	cb_error err;
	cross_check cc;
	job u = { "unseen_index.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (run(&u, &r, &err, &cc) != CB_OK) {
		tap_ok(false, "unseen_index.cl: runs");
		return;
	}
	const cb_lint_access *f = find(&r, 10, 27, CB_OP_STORE), *p = find(&r, 11, 22, CB_OP_STORE),
			     *k = find(&r, 12, 18, CB_OP_STORE);
	tap_ok(f && p && k && f->status == CB_LINT_UNKNOWN && p->status == CB_LINT_UNKNOWN &&
		       k->status == CB_LINT_UNKNOWN && strstr(f->note, "memory contents") &&
		       strstr(p->note, "evaluate: built-in popcount (within") &&
		       strstr(k->note, "evaluate: Pick (declared, not defined) (within"),
	       "s[floor(g[l])]: memory contents; s[popcount(l)]: popcount; s[Pick(l)]: Pick");
	cb_lint_result_free(&r);
}

/* Issue 39, point 18: an index lint does not compute names its own cause. Float arithmetic
 * and a float built-in's result are not "memory contents or --arg" (the user was sent to
 * add --args that cannot help); a table in memory, an argument not given and a float read
 * from memory each say what they depend on. */
static void test_float_index(void)
{
	cb_lint_result r;
	job t = { "floatidx.cl", NULL, 64, 0, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&t, &r))
		return;
	/* clang-format off */
	static const struct {
		unsigned line, col;
		const char *note, *not;
		cb_lint_why why;
	} want[] = {
		{ 12, 37, "depend on floating-point arithmetic, which lint does not evaluate (within",
		  "--arg", CB_LINT_WHY_FLOAT },
		{ 13, 33, "depend on floating-point arithmetic, which lint does not evaluate (within",
		  "--arg", CB_LINT_WHY_FLOAT },
		{ 14, 29, "depend on memory contents (within", "--arg", CB_LINT_WHY_DATA },
		{ 15, 33, "depend on arguments not given with --arg (within", "memory",
		  CB_LINT_WHY_DATA },
		{ 16, 48, "depend on memory contents and floating-point arithmetic", "--arg",
		  CB_LINT_WHY_DATA },
	};
	/* clang-format on */
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		const cb_lint_access *a = find(&r, want[k].line, want[k].col, CB_OP_STORE);
		bool ok = a && a->status == CB_LINT_UNKNOWN && strstr(a->note, want[k].note) &&
			  !strstr(a->note, want[k].not ) && a->reason == want[k].why;
		tap_ok(ok, "floatidx line %u: \"%s\"", want[k].line, want[k].note);
		if (!ok && a)
			fprintf(stderr, "# note: %s (reason %s)\n", a->note,
				cb_lint_why_key(a->reason));
	}
	cb_lint_result_free(&r);
}

/* A ?: on data is a branch and a phi in the IR: both sides run and the phi gets the hull.
 * idx = 511 +- 256 +- ... +- 1 lies in 0..1022 (bytes 0..4088): unknown, not "assumed, 1
 * pass" (the true side alone gave every lane 0); side = l odd ? l : l + 32 is known per lane
 * (odd words 1..31 and even 32..62: 32 banks, 1 pass). */
static void test_ternary(void)
{
	cb_lint_result r;
	job t = { "ternary.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&t, &r))
		return;
	const cb_lint_access *a = find(&r, 13, 9, CB_OP_STORE);
	tap_ok(a && a->status == CB_LINT_UNKNOWN && a->range_lo == 0 && a->range_hi == 4088 &&
		       strstr(a->note, "memory contents"),
	       "s[idx] after a binary search by ?: on data: unknown within bytes 0..4088");
	expect(&r, 15, 10, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "s[l odd ? l : l + 32]");
	cb_lint_result_free(&r);
}

/* Issue 31, points 1 and 2: an early return on a bound not given, and both sides of an
 * undecidable if / else. The transpose read after the return is 32-way (lane x at row x),
 * assumed under line 12; the else side's column read is 32-way, the then side's row read one
 * pass, both assumed under line 28. */
static void test_branches(void)
{
	cb_lint_result r;
	job g = { "branches.cl", "guarded", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&g, &r)) {
		expect(&r, 14, 13, CB_OP_STORE, CB_LINT_ASSUMED, 1, 1, NULL,
		       "tile[y][x] after the return");
		expect(&r, 16, 13, CB_OP_LOAD, CB_LINT_ASSUMED, 32, 1, NULL,
		       "tile[x][y] after the return");
		const cb_lint_access *a = find(&r, 16, 13, CB_OP_LOAD);
		tap_ok(a && strstr(a->note, "line 12") && a->reason == CB_LINT_WHY_BRANCH,
		       "the read after the early return names the branch's line 12");
		cb_lint_result_free(&r);
	}
	job n = { "branches.cl", "guarded", 32, 32, { NULL }, { "n=1048576" }, NULL, 0 };
	global_size[0] = global_size[1] = 1024;
	bool ran = lint(&n, &r);
	global_size[0] = global_size[1] = 0;
	if (ran) {
		expect(&r, 16, 13, CB_OP_LOAD, CB_LINT_PREDICTED, 32, 1, NULL,
		       "tile[x][y] with --arg n: predicted, the same 32 passes");
		cb_lint_result_free(&r);
	}
	job s = { "branches.cl", "sides", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&s, &r)) {
		expect(&r, 25, 13, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE,
		       "the store before the branch");
		expect(&r, 29, 7, CB_OP_LOAD, CB_LINT_ASSUMED, 1, 1, ONE,
		       "the then side's row read");
		expect(&r, 31, 7, CB_OP_LOAD, CB_LINT_ASSUMED, 32, 1, NULL,
		       "the else side's column read");
		const cb_lint_access *a = find(&r, 31, 7, CB_OP_LOAD);
		tap_ok(a && strstr(a->note, "line 28"), "the else side names the branch's line 28");
		tap_ok(cb_lint_assumed_conflicts(&r) == 1 && !cb_lint_has_conflict(&r),
		       "one assumed conflict, no predicted one (--fail-on-conflict fails on it)");
		cb_lint_result_free(&r);
	}
	/* An if / else inside an else side: a third run takes the inner then side, whose
	 * column read is 32-way (it was "not executed" with two runs). */
	job n2 = { "branches.cl", "nested", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&n2, &r)) {
		expect(&r, 45, 7, CB_OP_LOAD, CB_LINT_ASSUMED, 1, 1, ONE,
		       "nested: the outer then side");
		expect(&r, 48, 8, CB_OP_LOAD, CB_LINT_ASSUMED, 32, 1, NULL,
		       "nested: the inner then side's column read, priced");
		expect(&r, 50, 8, CB_OP_LOAD, CB_LINT_ASSUMED, 1, 1, ONE,
		       "nested: the inner else side");
		const cb_lint_access *a = find(&r, 48, 8, CB_OP_LOAD);
		tap_ok(a && strstr(a->note, "line 47") && cb_lint_assumed_conflicts(&r) == 1,
		       "nested: the inner then side names its branch's line 47, and fails the gate");
		cb_lint_result_free(&r);
	}
	/* A switch on an argument not given: every case runs (before: the default and case 0). */
	job m = { "branches.cl", "modes", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&m, &r)) {
		expect(&r, 110, 14, CB_OP_LOAD, CB_LINT_ASSUMED, 32, 1, NULL,
		       "modes: case 2's column read, priced");
		expect(&r, 111, 15, CB_OP_LOAD, CB_LINT_ASSUMED, 1, 1, ONE, "modes: the default");
		cb_lint_result_free(&r);
	}
	/* An else-if chain of 16 tests: 16 runs price 16 of its 17 sides. */
	job c = { "branches.cl", "chain", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&c, &r)) {
		size_t priced = 0;
		for (size_t i = 0; i < r.naccesses; i++)
			priced += r.accesses[i].status == CB_LINT_ASSUMED;
		expect(&r, 92, 7, CB_OP_LOAD, CB_LINT_ASSUMED, 1, 1, ONE,
		       "chain: the side of flag == 14");
		expect(&r, 96, 7, CB_OP_LOAD, CB_LINT_ASSUMED, 1, 1, ONE, "chain: the last else");
		const cb_lint_access *a = find(&r, 94, 7, CB_OP_LOAD);
		tap_ok(priced == 16 && a && a->status == CB_LINT_NOT_EXECUTED &&
			       a->reason == CB_LINT_WHY_SIDE,
		       "chain: 16 sides priced, the side of flag == 15 not executed (side)");
		cb_lint_result_free(&r);
	}
}

/* Issue 31, point 3: whole structs of four 4-byte floats through __local memory, copied by
 * llvm.memcpy as four words a lane. Word k of lane l is at byte 16 l + 4 k: 4 lanes on each
 * bank, 4 passes (4-way), four times, on the line of the copy. */
static void test_structs(void)
{
	static const unsigned FOUR4[] = { 4, 4, 4, 4, 0 };
	cb_lint_result r;
	job c = { "structs.cl", "copies", 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&c, &r)) {
		expect(&r, 11, 9, CB_OP_STORE, CB_LINT_PREDICTED, 4, 1, FOUR4,
		       "q[l] = in[l]: 4 words");
		expect(&r, 13, 11, CB_OP_LOAD, CB_LINT_PREDICTED, 4, 1, FOUR4,
		       "p = q[63 - l]: 4 words");
		const cb_lint_access *a = find(&r, 11, 9, CB_OP_STORE);
		tap_ok(a && a->elem_bytes == 4 && lanes_are(a, 32, 16, 0),
		       "the struct store's first word: lane l at byte 16 l");
		cb_lint_result_free(&r);
	}
	job z = { "structs.cl", "clears", 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&z, &r)) {
		expect(&r, 23, 20, CB_OP_LOAD, CB_LINT_PREDICTED, 4, 1, FOUR4,
		       "q[..] = q[l]: the load side");
		expect(&r, 23, 20, CB_OP_STORE, CB_LINT_PREDICTED, 4, 1, FOUR4,
		       "q[..] = q[l]: the store side");
		tap_ok(r.coverage.ir == 4 && r.coverage.reported == 4,
		       "a __local to __local copy is two accesses of the IR's four");
		cb_lint_result_free(&r);
	}
	/* a struct returned by value from a helper that reads it from __local memory */
	job ret = { "structs.cl", "returns", 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&ret, &r)) {
		expect(&r, 32, 9, CB_OP_LOAD, CB_LINT_PREDICTED, 4, 1, FOUR4,
		       "return q[i] in a helper: 4 words, on the return line");
		cb_lint_result_free(&r);
	}
}

/* Issue 31, point 5: a bin found by a binary search over edges read from memory. Which side
 * of each step runs is data, so lo (written only on the side not simulated) is unknown after
 * the search: the atomic is unknown anywhere in hist (bytes 0..396), never a 32-way atomic
 * at a guessed bin 0. */
static void test_data_bins(void)
{
	cb_lint_result r;
	job b = { "bins.cl", NULL, 64, 0, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&b, &r))
		return;
	expect(&r, 24, 2, CB_OP_ATOMIC, CB_LINT_UNKNOWN, 0, 1, NULL, "atomic_inc(&hist[lo])");
	const cb_lint_access *a = find(&r, 24, 2, CB_OP_ATOMIC);
	tap_ok(a && !a->priced && a->range_lo == 0 && a->range_hi == 396 && !a->range_known &&
		       strstr(a->note, "bytes 0..396 of hist"),
	       "the searched bin: unknown within bytes 0..396 (bin 99 reachable)");
	expect(&r, 13, 11, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, NULL,
	       "the clear before the search");
	cb_lint_result_free(&r);
}

/* Issue 31, point 4: the kernel needs a driver's predefined macros; __OPENCL_VERSION__ follows
 * --cl-std (rows before 2.0, columns from 2.0 on), and -D overrides it. */
static void test_predefined(void)
{
	cb_lint_result r;
	job p = { "predef.cl", NULL, 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&p, &r)) {
		expect(&r, 20, 20, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE, "OpenCL 1.2: rows");
		tap_ok(strstr(r.predefined, "__OPENCL_VERSION__=120") &&
			       strstr(r.predefined, "__ENDIAN_LITTLE__"),
		       "predefined, as --verbose says: %s", r.predefined);
		cb_lint_result_free(&r);
	}
	build_std = "CL2.0";
	if (lint(&p, &r)) {
		expect(&r, 20, 20, CB_OP_LOAD, CB_LINT_PREDICTED, 32, 1, NULL,
		       "--cl-std CL2.0: columns");
		cb_lint_result_free(&r);
	}
	build_std = NULL;
	job d = { "predef.cl", NULL, 32, 32, { "__OPENCL_VERSION__=300" }, { NULL }, NULL, 0 };
	if (lint(&d, &r)) {
		expect(&r, 20, 20, CB_OP_LOAD, CB_LINT_PREDICTED, 32, 1, NULL,
		       "-D __OPENCL_VERSION__=300");
		tap_ok(strstr(r.predefined, "as your -D") != NULL, "-D's own value is said");
		cb_lint_result_free(&r);
	}
}

/* Issue 31, point 8: line[l + 33] for 32 lanes touches bytes 132..259 of a 256-byte array;
 * the note names the overflowing bytes 256..259. */
static void test_overflow(void)
{
	cb_lint_result r;
	job o = { "overflow.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&o, &r))
		return;
	const cb_lint_access *a = find(&r, 11, 15, CB_OP_STORE);
	tap_ok(a && a->status == CB_LINT_UNKNOWN && a->reason == CB_LINT_WHY_BOUNDS &&
		       strstr(a->note, "bytes 256..259 lie past the end of line (256 bytes"),
	       "past the end: the overflowing bytes named (%s)", a ? a->note : "");
	cb_lint_result_free(&r);
}

/* Issue 31, point 10: fields of a by-value struct argument with --arg p.stride=V and
 * --arg p.dims[1]=V (offsets from the debug information); a field that does not exist is an
 * error naming the fields. */
static void test_struct_args(void)
{
	cb_lint_result r;
	job pad = {
		"params.cl", NULL, 32, 32, { NULL }, { "p.stride=33", "p.dims[1]=64" }, NULL, 0
	};
	if (lint(&pad, &r)) {
		expect(&r, 15, 24, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE,
		       "p.stride=33: the row store");
		expect(&r, 18, 23, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE,
		       "p.stride=33, p.dims[1]=64: the column read, decided");
		cb_lint_result_free(&r);
	}
	job flat = { "params.cl", NULL, 32, 32, { NULL }, { "p.stride=32" }, NULL, 0 };
	if (lint(&flat, &r)) {
		expect(&r, 18, 23, CB_OP_LOAD, CB_LINT_ASSUMED, 32, 1, NULL,
		       "p.stride=32, dims not given: 32-way, assumed");
		cb_lint_result_free(&r);
	}
	job none = { "params.cl", NULL, 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&none, &r)) {
		expect(&r, 15, 24, CB_OP_STORE, CB_LINT_UNKNOWN, 0, 1, NULL, "no stride: unknown");
		cb_lint_result_free(&r);
	}
	job bad = { "params.cl", NULL, 32, 32, { NULL }, { "p.strid=33" }, NULL, 0 };
	cb_error err;
	cross_check cc;
	cb_rc rc = run(&bad, &r, &err, &cc);
	tap_ok(rc == CB_ERR_USAGE && strstr(err.text, "its fields: dims[4], stride, scale"),
	       "--arg p.strid=33: an error naming the fields (%s)", err.text);
	cb_lint_result_free(&r);
}

/* Issue 31, point 7: s[ly * 36 + lx] read as s[lx * 36 + ly] (lanes 36 words apart: 8 banks,
 * 4 passes). The fix is sought in the code's rows of 36: padding to 37 (+36 words) or the
 * swizzle c ^ ((r >> 3) & 3) within rows of 36, each 1 pass; not a view in rows of 4. */
static void test_code_rows(void)
{
	cb_lint_result r;
	job w = { "rows36.cl", NULL, 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&w, &r))
		return;
	expect(&r, 13, 22, CB_OP_LOAD, CB_LINT_PREDICTED, 4, 1, NULL, "s[lx * 36 + ly]: 4-way");
	expect_fix(&r, 13, 22, 1, 1, 144, 2, 3, 1, "rows of 36: pad 1 or swizzle");
	const cb_lint_access *a = find(&r, 13, 22, CB_OP_LOAD);
	const cb_lint_fix *f = a && a->object >= 0 ? &r.objects[a->object].fix : NULL;
	tap_ok(f && f->width == 36 && f->rows == 36, "the fix's rows are the code's: 36 x 36");
	cb_lint_result_free(&r);
}

/* Issue 31, point 8: indices kept in integer vectors are the work-item's ids, followed
 * through insertelement, extractelement and the vector's private variable. */
static void test_vectors(void)
{
	cb_lint_result r;
	job v = { "vectors.cl", "vectors", 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&v, &r))
		return;
	expect(&r, 11, 12, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE,
	       "line[c.x], c = (int2)(l, 7)");
	expect(&r, 13, 17, CB_OP_STORE, CB_LINT_PREDICTED, 4, 1, NULL, "grid[q.y][q.x]: 4 passes");
	expect(&r, 15, 11, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE, "line[c.y * 8 + (c.x & 7)]");
	const cb_lint_access *a = find(&r, 11, 12, CB_OP_STORE);
	tap_ok(a && lanes_are(a, 32, 4, 0), "line[c.x]: lane l at byte 4 l");
	cb_lint_result_free(&r);
	/* vector arithmetic with constant vectors, lane by lane (third session) */
	job w = { "vectors.cl", "arith", 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&w, &r))
		return;
	expect(&r, 27, 17, CB_OP_STORE, CB_LINT_PREDICTED, 16, 1, NULL,
	       "grid[p.x][p.y], p = base * (int2)(1, 2) + (int2)(0, 1): 16 passes");
	expect(&r, 30, 11, CB_OP_LOAD, CB_LINT_PREDICTED, 2, 1, NULL,
	       "grid[0][s.y & 63], s = (uint4)(l, l, 2, 3) << (uint4)(0, 1, 0, 0): 2 passes");
	cb_lint_result_free(&r);
	job z = { "vectors.cl", "swizzle", 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&z, &r))
		return;
	expect(&r, 40, 18, CB_OP_STORE, CB_LINT_PREDICTED, 2, 1, NULL,
	       "line[a.x], a = q.yx: 2 passes");
	expect(&r, 41, 28, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE,
	       "line[b.y * 8 + (a.y & 7)], b = q.zw: 1 pass");
	cb_lint_result_free(&r);
}

/* Issue 21 (Rodinia histogram1024): per-warp sub-histograms updated by an inline helper's
 * tagged read-modify-write loop. Its three accesses are reported (unknown: the bin is read
 * from memory; each sub-group within its own 1 KiB), 2 data items x 4 assumed retries; the
 * clear (8 rows of 64) and the reduction (4 x 2) are 1 pass each, 16 in all. */
static void test_warp_histogram(void)
{
	cb_lint_result r;
	job h = { "warphist.cl", NULL, 64, 0, { NULL }, { "n=256" }, NULL, 0 };
	global_size[0] = 128;
	if (lint(&h, &r)) {
		static const unsigned line[3] = { 13, 15, 16 }, col[3] = { 7, 10, 11 };
		static const cb_op op[3] = { CB_OP_LOAD, CB_OP_STORE, CB_OP_LOAD };
		unsigned ok = 0;
		for (int k = 0; k < 3; k++) {
			const cb_lint_access *a = find(&r, line[k], col[k], op[k]);
			ok += a && a->status == CB_LINT_UNKNOWN && a->niter == 8 &&
			      a->subgroups == 2 && a->range_lo == 0 && a->range_hi == 2044 &&
			      a->nlanes == 32 && a->lanes[0].lo == 0 && a->lanes[0].hi == 1020 &&
			      strstr(a->note, "memory contents");
		}
		tap_ok(r.naccesses == 5 && ok == 3,
		       "warphist: the helper's 3 accesses, unknown by data, "
		       "bytes 0..1020 for warp 0 (%u of 3)",
		       ok);
		const cb_lint_access *c = find(&r, 24, 11, CB_OP_STORE),
				     *s = find(&r, 33, 11, CB_OP_LOAD);
		tap_ok(c && s && c->passes_max == 1 && c->total_passes == 16 &&
			       s->passes_max == 1 && s->total_passes == 16,
		       "warphist: clear and reduction, 1 pass, 16 in all each");
		cb_lint_result_free(&r);
	}
	global_size[0] = 0;
}

/* Issue 21: a swizzle for an odd width. t[2l][0] of float t[64][3] is at word 6l: lanes l and
 * l + 16 share a bank (2 passes) under any padding; swapping columns 0 and 1 of rows 32..63
 * (c ^ ((r >> 5) & 1), column 2 staying) puts lanes 16..31 on odd banks: 1 pass, and the row
 * stores stay at 1. */
static void test_odd_width(void)
{
	static const unsigned two[] = { 2, 0 };
	cb_lint_result r;
	job o = { "oddrows.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&o, &r))
		return;
	expect(&r, 15, 11, CB_OP_LOAD, CB_LINT_PREDICTED, 2, 1, two, "oddrows: t[2l][0]");
	const cb_lint_access *a = find(&r, 15, 11, CB_OP_LOAD);
	const cb_lint_fix *f = a && a->object >= 0 ? &r.objects[a->object].fix : NULL;
	char text[200] = "";
	if (f && f->found)
		cb_lint_fix_text(&r.objects[a->object], f, &f->best, text, sizeof text);
	bool stores = true;
	for (size_t i = 0; i < r.naccesses; i++)
		if (r.accesses[i].op == CB_OP_STORE)
			stores &= r.accesses[i].fixed && r.accesses[i].fixed_passes == 1;
	tap_ok(f && f->found && f->best.swizzle && f->best.bits == 1 && f->best.shift == 5 &&
		       f->best.at_minimum && !f->alt_found && a->fixed && a->fixed_passes == 1 &&
		       stores &&
		       !strcmp(text, "t[r][(c ^ ((r >> 5) & 1)) < 3 ? c ^ ((r >> 5) & 1) : c]"),
	       "oddrows: the fix is the odd-width swizzle (%s), stores stay at 1", text);
	cb_lint_result_free(&r);
}

/* Issue 23 item 11: an array of 2^32 + 16 elements is declared as such, and indexed. */
static void test_huge_array(void)
{
	cb_lint_result r;
	job h = { "huge.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&h, &r)) {
		char decl[128] = "";
		if (r.nobjects == 1)
			cb_lint_object_decl(&r.objects[0], decl, sizeof decl);
		tap_ok(!strcmp(decl, "int a[4294967312]"),
		       "a[(1UL << 32) + 16] is declared so (%s)", decl);
		expect(&r, 7, 7, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE, "huge array: a[l]");
		cb_lint_result_free(&r);
	}
}

/* Issue 23 item 11: async_work_group_copy's __local side is recorded: work-item l copies
 * elements l and l + 32 of t (consecutive words, 1 pass, 2 iterations) and element l of u. */
static void test_async_copy(void)
{
	static const unsigned two[] = { 2, 0 }, one2[] = { 1, 1, 0 };
	cb_lint_result r;
	job a = { "async.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&a, &r)) {
		expect(&r, 8, 14, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, one2, "async copy into t");
		expect(&r, 11, 15, CB_OP_LOAD, CB_LINT_PREDICTED, 2, 1, two,
		       "t[2 * l] after the copy");
		expect(&r, 13, 6, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE, "async copy out of u");
		const cb_lint_access *c = find(&r, 8, 14, CB_OP_STORE);
		tap_ok(c && c->range_lo == 0 && c->range_hi == 252 &&
			       !strcmp(c->elem_type, "float"),
		       "async copy into t: bytes 0..252, float");
		cb_lint_result_free(&r);
	}
}

/* Issue 21 item 4: -I, --cl-std=CL2.0 (a generic-pointer helper), sub-group built-ins and
 * reqd_work_group_size(64, 1, 1) instead of --local. Sub-group g = get_sub_group_id() writes
 * row g at column lane: consecutive words, 1 pass; the private array's store is no access.
 * The read (lane * 2) % 32 gives lanes l and l + 16 one word (broadcast): 16 even words in
 * distinct banks, 1 pass. */
static void test_build_inputs(void)
{
	cb_lint_result r;
	cb_error err;
	cross_check cc;
	job s = { "subgroups.cl", NULL, 0, 0, { NULL }, { NULL }, NULL, 0 };
	build_include = "inc";
	build_std = "CL2.0";
	if (lint(&s, &r)) {
		expect(&r, 9, 7, CB_OP_STORE, CB_LINT_PREDICTED, 1, 1, ONE,
		       "generic helper p[i] on tile");
		expect(&r, 21, 25, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, ONE,
		       "tile[sg][(lane * 2) % 32]");
		const cb_lint_access *a = find(&r, 9, 7, CB_OP_STORE);
		tap_ok(r.naccesses == 2 && r.local[0] == 64 && a && a->subgroups == 2 &&
			       a->range_lo == 0 && a->range_hi == 252,
		       "subgroups.cl: 64 work-items from reqd_work_group_size, 2 accesses, both rows");
		cb_lint_result_free(&r);
	}
	build_options = "-Xclang -load";
	tap_ok(run(&s, &r, &err, &cc) == CB_ERR_USAGE && strstr(err.text, "'-Xclang'"),
	       "--build-options refuses what clBuildProgram does not take");
	cb_lint_result_free(&r);
	build_options = NULL;
	job wrong = { "subgroups.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	tap_ok(run(&wrong, &r, &err, &cc) == CB_ERR_USAGE &&
		       strstr(err.text, "reqd_work_group_size(64, 1, 1)"),
	       "--local 32 against reqd_work_group_size(64, 1, 1) is refused");
	cb_lint_result_free(&r);
	/* the same through --build-options alone */
	char opts[4200];
	snprintf(opts, sizeof opts, "-cl-std=CL2.0 -I %s/tests/lint/inc -cl-mad-enable", srcdir);
	build_include = build_std = NULL;
	build_options = opts;
	if (lint(&s, &r)) {
		tap_ok(r.naccesses == 2, "subgroups.cl through --build-options");
		cb_lint_result_free(&r);
	}
	build_options = NULL;
}

/* --global 128 with --local 32: get_num_groups(0) = 4, so s[x * 4] puts 4 lanes in each of
 * 8 banks (4 passes); get_global_size(0) / 128 = 1: consecutive, 1 pass. Without --global
 * both are unknown. A float argument's value is accepted. */
static void test_global(void)
{
	cb_lint_result r;
	cb_error err;
	cross_check cc;
	job g = { "groups.cl", NULL, 32, 0, { NULL }, { "alpha=0.5" }, NULL, 0 };
	global_size[0] = 128;
	if (lint(&g, &r)) {
		expect(&r, 8, 27, CB_OP_STORE, CB_LINT_PREDICTED, 4, 1, NULL,
		       "s[x * get_num_groups(0)]");
		expect(&r, 10, 9, CB_OP_LOAD, CB_LINT_PREDICTED, 1, 1, NULL,
		       "s[x * (get_global_size(0) / 128)]");
		cb_lint_result_free(&r);
	}
	global_size[0] = 0;
	if (run(&g, &r, &err, &cc) == CB_OK) {
		const cb_lint_access *a = find(&r, 8, 27, CB_OP_STORE);
		tap_ok(a && a->status == CB_LINT_UNKNOWN, "without --global: unknown");
	} else {
		tap_ok(false, "without --global: runs");
	}
	cb_lint_result_free(&r);
}

/* Issue 21 item 3: the kernels of a file, in order, for linting each. */
static void test_kernel_list(void)
{
	char path[4096], **names = NULL;
	size_t n = 0;
	snprintf(path, sizeof path, "%s/tests/lint/transpose.cl", srcdir);
	cb_lint_request req;
	memset(&req, 0, sizeof req);
	req.kernel_path = path;
	cb_error err;
	cb_rc rc = cb_lint_kernels(&req, &names, &n, &err);
	tap_ok(rc == CB_OK && n == 3 && !strcmp(names[0], "naive") && !strcmp(names[1], "padded") &&
		       !strcmp(names[2], "swizzled"),
	       "transpose.cl's kernels: naive, padded, swizzled");
	cb_lint_names_free(names, n);
}

/* Several models in one run (issue 32), each at its own sub-group size: the H200-like model
 * twice (32 lanes: one simulation feeds both) and the AMD-like one (64 lanes). Each model's
 * result is the one a run of its own gives; one fix for the tile, judged on each. */
static void test_run_models(void)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/lint/transpose.cl", srcdir);
	cb_lint_request req;
	memset(&req, 0, sizeof req);
	req.kernel_path = path;
	req.kernel_name = "naive";
	req.local[0] = req.local[1] = 32;
	const cb_lint_model *models[3] = { &h200, &amd, &h200 };
	cb_lint_result res[3], alone;
	cb_error err;
	cb_error_clear(&err);
	cb_rc rc = cb_lint_run_models(&req, models, 3, res, &err);
	tap_ok(rc == CB_OK, "three models in one run: %s", rc == CB_OK ? "ok" : err.text);
	if (rc != CB_OK) {
		for (int i = 0; i < 3; i++)
			cb_lint_result_free(&res[i]);
		return;
	}
	const cb_lint_access *h = find(&res[0], 22, 26, CB_OP_LOAD),
			     *a = find(&res[1], 22, 26, CB_OP_LOAD),
			     *h2 = find(&res[2], 22, 26, CB_OP_LOAD);
	tap_ok(h && a && h2 && h->passes_max == 32 && h->subgroups == 32 && a->passes_max == 64 &&
		       a->subgroups == 16 && a->nlanes == 64 && h2->passes_max == 32,
	       "the column read: 32 passes on 32 lanes, 64 on 64 (16 sub-groups), each its own size");
	tap_ok(res[0].subgroup == 32 && res[1].subgroup == 64 && res[2].subgroup == 32,
	       "each result at its model's sub-group size");
	tap_ok(res[0].steps == res[2].steps && same_accesses(&res[0], &res[2]),
	       "two models of one size: one simulation, the same accesses");
	req.pricer = &amd.pricer;
	req.model = &amd;
	rc = cb_lint_run(&req, &alone, &err);
	const cb_lint_access *b = rc == CB_OK ? find(&alone, 22, 26, CB_OP_LOAD) : NULL;
	tap_ok(b && b->passes_max == a->passes_max && b->total_passes == a->total_passes &&
		       alone.steps == res[1].steps && same_accesses(&alone, &res[1]),
	       "the 64-lane model's result is the one its own run gives");
	cb_lint_result_free(&alone);
	const cb_lint_fix *f0 = &res[0].objects[0].fix, *f1 = &res[1].objects[0].fix;
	tap_ok(f0->found && f1->found && f0->best.swizzle == f1->best.swizzle &&
		       f0->best.pad == f1->best.pad && f0->best.bits == f1->best.bits && h->fixed &&
		       a->fixed && h->fixed_passes == 1 && a->fixed_passes == 2,
	       "one fix for the tile across the models, each model's passes under it (1 and 2)");
	for (int i = 0; i < 3; i++)
		cb_lint_result_free(&res[i]);
}

int main(void)
{
	lint_harness_init();
	test_pricer();
	if (!lint_harness_engine(test_stub))
		return tap_done();
	test_transpose();
	test_run_models();
	test_wide();
	test_reduce();
	test_scan();
	test_histogram();
	test_rows_and_helper();
	test_gemm();
	test_inline_helpers();
	test_unseen_call();
	test_shared_words();
	test_odd_width();
	test_halo();
	test_unseen_index();
	test_float_index();
	test_ternary();
	test_branches();
	test_structs();
	test_data_bins();
	test_predefined();
	test_overflow();
	test_struct_args();
	test_code_rows();
	test_vectors();
	test_warp_histogram();
	test_huge_array();
	test_async_copy();
	test_build_inputs();
	test_global();
	test_kernel_list();
	test_objects();
	test_bad_input();
	return tap_done();
}
