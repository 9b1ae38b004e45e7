/* SPDX-License-Identifier: MIT */
/* Inference on synthetic devices with noise: exact recovery, honest refusals. */
#include "config.h"
#include "core/analyze.h"
#include "core/infer.h"
#include "core/infer_fit.h"
#include "synth.h"
#include "core/util.h"
#include "tap.h"

#include <math.h>
#include "core/analyze.h"
#include "core/plan.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static cb_inference run(const synth_device *d, bool quick, double *seconds)
{
	cb_result r;
	synth_result(d, quick, &r);
	cb_dataset ds;
	cb_dataset_of(&r, CB_OP_LOAD, &ds);
	cb_inference inf;
	double t0 = cb_now();
	cb_infer(&ds, &inf, NULL);
	if (seconds)
		*seconds = cb_now() - t0;
	cb_dataset_free(&ds);
	cb_result_free(&r);
	return inf;
}

static bool lanes_equal(const cb_inference *inf, const unsigned *want)
{
	for (int e = 0; e < CB_NELEM; e++)
		if (inf->best.lanes_per_pass[e] != want[e])
			return false;
	return true;
}

static void expect_banked(const synth_device *d, bool quick)
{
	double secs;
	cb_inference inf = run(d, quick, &secs);
	bool geom = inf.status == CB_BANKED && inf.best.geom.banks == d->geom.banks &&
		    inf.best.geom.width == d->geom.width;
	tap_ok(geom, "%s%s: banked %u x %u B (got %s %u x %u B: %s)", d->name,
	       quick ? " (quick)" : "", d->geom.banks, d->geom.width, cb_status_name(inf.status),
	       inf.best.geom.banks, inf.best.geom.width, inf.reason);
	tap_ok(inf.broadcast_known && inf.best.geom.broadcast == d->geom.broadcast,
	       "%s: broadcast %s", d->name, d->geom.broadcast ? "yes" : "no");
	if (!quick) {
		tap_ok(lanes_equal(&inf, d->lanes_per_pass),
		       "%s: lanes per pass %u %u %u %u %u (got %u %u %u %u %u)", d->name,
		       d->lanes_per_pass[0], d->lanes_per_pass[1], d->lanes_per_pass[2],
		       d->lanes_per_pass[3], d->lanes_per_pass[4], inf.best.lanes_per_pass[0],
		       inf.best.lanes_per_pass[1], inf.best.lanes_per_pass[2],
		       inf.best.lanes_per_pass[3], inf.best.lanes_per_pass[4]);
		tap_ok(fabs(inf.step_pass_ns - d->c) < 0.1 * d->c,
		       "%s: cost per pass %.3g ns (true %.3g)", d->name, inf.step_pass_ns, d->c);
		tap_ok(inf.val_n > 0 && inf.val_rms < 2 * d->noise + 0.02,
		       "%s: validation on held-out tables, RMS %.3f", d->name, inf.val_rms);
	}
	tap_diag("%s: confidence %.4f (geometry %.4f, lanes %.4f, fit %.4f: misfit %.2f, held-out "
		 "%.2f), r2 %.4f, sigma %.4f, %.3f s, %zu measurements",
		 d->name, inf.confidence, inf.geometry_share, inf.lanes_share, inf.fit_factor,
		 inf.quality.misfit, inf.quality.val_misfit, inf.r2, inf.sigma, secs,
		 inf.n_fit + inf.n_holdout);
}

static void expect_not_banked_or_inconclusive(const synth_device *d, bool want_not_banked)
{
	cb_inference inf = run(d, false, NULL);
	if (want_not_banked)
		tap_ok(inf.status == CB_NOT_BANKED, "%s: not banked (got %s: %s)", d->name,
		       cb_status_name(inf.status), inf.reason);
	else
		tap_ok(inf.status != CB_BANKED, "%s: never banked (got %s: %s)", d->name,
		       cb_status_name(inf.status), inf.reason);
}

/* Is INF banked with geometry G and lanes LANES (for the element sizes it has)? */
static bool exact_model(const cb_inference *inf, const cb_geometry *g, const unsigned *lanes)
{
	if (inf->status != CB_BANKED || inf->best.geom.banks != g->banks ||
	    inf->best.geom.width != g->width || inf->best.geom.broadcast != g->broadcast)
		return false;
	for (int e = 0; e < CB_NELEM; e++)
		if (inf->elem_present[e] && inf->best.lanes_per_pass[e] != lanes[e])
			return false;
	return true;
}

/* Stores and atomics with models of their own (atomics serializing on one word) are inferred
 * each on its own, exactly, from the default plan. */
static void ops_recovered(void)
{
	synth_device d = { .name = "stores 16 x 8 B, atomics 32 x 4 B serializing",
			   .subgroup = 32,
			   .geom = { 32, 4, true, false },
			   .lanes_per_pass = { 32, 32, 32, 16, 8 },
			   .t0 = 1,
			   .c = 1,
			   .noise = 0.03,
			   .seed = 41,
			   .ops = CB_OPS_ALL };
	d.op_geom[CB_OP_STORE] = (cb_geometry){ 16, 8, true, false };
	d.op_geom[CB_OP_ATOMIC] = (cb_geometry){ 32, 4, false, false };
	unsigned st[CB_NELEM] = { 32, 32, 32, 32, 16 }, at[CB_NELEM] = { 32, 32, 32, 16, 8 };
	memcpy(d.op_lanes[CB_OP_STORE], st, sizeof st);
	memcpy(d.op_lanes[CB_OP_ATOMIC], at, sizeof at);
	cb_result r;
	synth_result(&d, false, &r);
	cb_error err;
	cb_analyze(&r, &err);
	tap_ok(exact_model(&r.inference[CB_OP_LOAD], &d.geom, d.lanes_per_pass),
	       "%s: loads 32 x 4 B exactly (%s)", d.name, r.inference[CB_OP_LOAD].reason);
	const cb_inference *s = &r.inference[CB_OP_STORE], *a = &r.inference[CB_OP_ATOMIC];
	tap_ok(exact_model(s, &d.op_geom[CB_OP_STORE], st) && s->confidence >= 0.9,
	       "%s: stores 16 x 8 B exactly, confidence %.3f (%s)", d.name, s->confidence,
	       s->reason);
	tap_ok(exact_model(a, &d.op_geom[CB_OP_ATOMIC], at) && a->confidence >= 0.9,
	       "%s: atomics 32 x 4 B without broadcast, lanes 32/16, confidence %.3f (got %u x %u B "
	       "bcast %d, 4 B: %u, 8 B: %u: %s)",
	       d.name, a->confidence, a->best.geom.banks, a->best.geom.width,
	       a->best.geom.broadcast, a->best.lanes_per_pass[2], a->best.lanes_per_pass[3],
	       a->reason);
	tap_ok(!a->elem_present[0] && !a->elem_present[1] && !a->elem_present[4],
	       "atomics are measured on 4- and 8-byte elements only");
	cb_result_free(&r);
}

/* Atomics whose 8-byte elements follow other banks than their 4-byte ones (outside the
 * family: one geometry per op): the joint verdict is inconclusive, each size on its own is
 * banked with its own geometry; one op's sizes that agree get no per-size inference. */
static void by_size(void)
{
	synth_device d = { .name = "atomics 4 B on 32 x 4 B, 8 B on 8 x 8 B",
			   .subgroup = 32,
			   .geom = { 32, 4, true, false },
			   .lanes_per_pass = { 32, 32, 32, 16, 8 },
			   .t0 = 1,
			   .c = 1,
			   .noise = 0.03,
			   .seed = 43,
			   .ops = CB_OPS_ALL };
	d.op_geom[CB_OP_ATOMIC] = (cb_geometry){ 32, 4, false, false };
	d.op_size_geom[CB_OP_ATOMIC][3] = (cb_geometry){ 8, 8, false, false };
	unsigned at[CB_NELEM] = { 32, 32, 32, 32, 8 };
	memcpy(d.op_lanes[CB_OP_ATOMIC], at, sizeof at);
	cb_result r;
	synth_result(&d, false, &r);
	cb_error err;
	cb_analyze(&r, &err);
	const cb_inference *a = &r.inference[CB_OP_ATOMIC], *a4 = &r.by_size[CB_OP_ATOMIC][2],
			   *a8 = &r.by_size[CB_OP_ATOMIC][3];
	tap_ok((a->status == CB_INCONCLUSIVE && a->no_model_fits) ||
		       (a->status == CB_BANKED && a->fit_factor < 1 && a->confidence < 0.9),
	       "%s: no one model: inconclusive, or banked below 0.9 with a fit that misses (%.3f: "
	       "%s)",
	       d.name, a->confidence, a->reason);
	tap_ok(r.has_by_size[CB_OP_ATOMIC][2] && r.has_by_size[CB_OP_ATOMIC][3] &&
		       !r.has_by_size[CB_OP_ATOMIC][0] && !r.has_by_size[CB_OP_ATOMIC][4],
	       "%s: each measured size on its own", d.name);
	tap_ok(a4->status == CB_BANKED && a4->best.geom.banks == 32 && a4->best.geom.width == 4 &&
		       !a4->best.geom.broadcast && a4->best.lanes_per_pass[2] == 32 &&
		       a4->confidence >= CB_BY_SIZE_MIN_CONFIDENCE,
	       "%s: 4 B alone 32 x 4 B without broadcast, confidence %.3f (%s)", d.name,
	       a4->confidence, a4->reason);
	tap_ok(a8->status != CB_BANKED || a8->confidence < CB_BY_SIZE_MIN_CONFIDENCE ||
		       (a8->best.geom.banks == 8 && a8->best.geom.width == 8 &&
			!a8->best.geom.broadcast),
	       "%s: 8 B alone never a wrong model at %.1f (%s, %u x %u B, %.3f)", d.name,
	       CB_BY_SIZE_MIN_CONFIDENCE, a8->reason, a8->best.geom.banks, a8->best.geom.width,
	       a8->confidence);
	tap_ok(cb_size_model(&r, CB_OP_ATOMIC, 2) == a4 &&
		       (cb_size_model(&r, CB_OP_ATOMIC, 3) == NULL || a8->best.geom.banks == 8),
	       "%s: the 4-byte atomics' own model stands in for the op's", d.name);
	tap_ok(!r.has_by_size[CB_OP_LOAD][2] && !r.has_by_size[CB_OP_STORE][2],
	       "%s: loads and stores fit one model: no per-size inference", d.name);
	cb_result_free(&r);
}

/* Is INF, banked, the model of D (geometry, broadcast, every element size's lanes per pass)? */
static bool exact(const cb_inference *inf, const synth_device *d)
{
	return inf->status == CB_BANKED && inf->best.geom.banks == d->geom.banks &&
	       inf->best.geom.width == d->geom.width &&
	       inf->best.geom.broadcast == d->geom.broadcast && lanes_equal(inf, d->lanes_per_pass);
}

/* The --quick plan with 5% Gaussian noise per table, latency-like (t0 about 14 passes), timed
 * once (no CI recorded) or with the noise recorded as a run would: exact, inconclusive or
 * below 0.9, never a wrong model at 0.9 or above. */
static void noisy_quick(bool with_ci)
{
	/* clang-format off */
	synth_device devs[] = {
		{ .name = "NVIDIA-like", .subgroup = 32, .geom = { 32, 4, true, false },
		  .lanes_per_pass = { 32, 32, 32, 16, 8 } },
		{ .name = "GCN-like", .subgroup = 64, .geom = { 32, 4, true, false },
		  .lanes_per_pass = { 32, 32, 32, 16, 8 } },
		{ .name = "CDNA4-like", .subgroup = 64, .geom = { 64, 4, true, false },
		  .lanes_per_pass = { 64, 64, 64, 32, 16 } },
	};
	/* clang-format on */
	for (size_t k = 0; k < sizeof devs / sizeof *devs; k++) {
		unsigned n_exact = 0, n_low = 0, n_wrong = 0;
		for (unsigned seed = 1; seed <= 20; seed++) {
			synth_device d = devs[k];
			d.t0 = 14;
			d.c = 1;
			d.noise = 0.05;
			d.gauss = true;
			d.no_ci = !with_ci;
			d.seed = 100 * k + seed;
			cb_result r;
			synth_result(&d, true, &r);
			cb_error err;
			cb_analyze(&r, &err);
			cb_inference inf = r.inference[CB_OP_LOAD];
			for (int e = 0; e < CB_NELEM; e++) {
				/* A size's own model, where one stands in, is never wrong either. */
				const cb_inference *own = cb_size_model(&r, CB_OP_LOAD, e);
				if (own && (own->best.geom.banks != d.geom.banks ||
					    own->best.geom.width != d.geom.width ||
					    own->best.lanes_per_pass[e] != d.lanes_per_pass[e]))
					n_wrong++;
			}
			cb_result_free(&r);
			if (exact(&inf, &d))
				n_exact++;
			else if (inf.status != CB_BANKED || inf.confidence < 0.9)
				n_low++;
			else
				n_wrong++;
			if (!exact(&inf, &d) && inf.status == CB_BANKED)
				tap_diag(
					"%s seed %u: %u x %u B lanes %u %u %u %u %u, confidence %.3f (geometry "
					"%.3f, lanes %.3f, fit %.3f)",
					d.name, seed, inf.best.geom.banks, inf.best.geom.width,
					inf.best.lanes_per_pass[0], inf.best.lanes_per_pass[1],
					inf.best.lanes_per_pass[2], inf.best.lanes_per_pass[3],
					inf.best.lanes_per_pass[4], inf.confidence,
					inf.geometry_share, inf.lanes_share, inf.fit_factor);
		}
		tap_ok(n_wrong == 0,
		       "%s, --quick, 5%% noise, %s: %u exact, %u inconclusive or below "
		       "0.9, %u wrong at 0.9 or above (or a size's own model wrong)",
		       devs[k].name, with_ci ? "noise recorded" : "one timing a table", n_exact,
		       n_low, n_wrong);
	}
}

/* The NVIDIA-like device most tests start from. */
static const synth_device nvidia_like = {
	.name = "NVIDIA-like 32 x 4 B, half/quarter-warp wide accesses",
	.subgroup = 32,
	.geom = { 32, 4, true, false },
	.lanes_per_pass = { 32, 32, 32, 16, 8 },
	.t0 = 0.1,
	.c = 0.9,
	.noise = 0.05,
	.seed = 1
};

/* NVIDIA-like devices: throughput, latency, pair packing. */
static void nvidia_variants(void)
{
	synth_device nv = nvidia_like;
	expect_banked(&nv, false);
	expect_banked(&nv, true);

	synth_device nvlat = nv;
	nvlat.name = "NVIDIA-like latency regime (24 ns + 1 ns per pass), whole warp";
	nvlat.t0 = 24;
	nvlat.c = 1;
	nvlat.noise = 0.02;
	for (int e = 0; e < CB_NELEM; e++)
		nvlat.lanes_per_pass[e] = 32;
	expect_banked(&nvlat, false);

	synth_device nvpair = nv;
	nvpair.name = "NVIDIA-like with pair packing on 16-byte tables";
	nvpair.pair_saving = 0.3;
	nvpair.seed = 5;
	expect_banked(&nvpair, false);
}

/* Other members of the family: AMD, Intel, 64 banks, wide banks, odd counts, small groups. */
static void family(void)
{
	synth_device amd = { .name = "AMD-like wave64, 32 x 4 B, half-wave groups",
			     .subgroup = 64,
			     .geom = { 32, 4, true, false },
			     .lanes_per_pass = { 32, 32, 32, 16, 8 },
			     .t0 = 2,
			     .c = 1.5,
			     .noise = 0.05,
			     .seed = 2 };
	expect_banked(&amd, false);

	synth_device intel = { .name = "Intel-like SIMD16, 16 x 4 B",
			       .subgroup = 16,
			       .geom = { 16, 4, true, false },
			       .lanes_per_pass = { 16, 16, 16, 16, 16 },
			       .t0 = 1,
			       .c = 2,
			       .noise = 0.05,
			       .seed = 3 };
	expect_banked(&intel, false);

	synth_device b64 = { .name = "64-bank device (wave64, one phase)",
			     .subgroup = 64,
			     .geom = { 64, 4, true, false },
			     .lanes_per_pass = { 64, 64, 64, 32, 16 },
			     .t0 = 1,
			     .c = 1,
			     .noise = 0.05,
			     .seed = 4 };
	expect_banked(&b64, false);

	synth_device w8 = { .name = "8-byte-wide banks, 32 x 8 B",
			    .subgroup = 32,
			    .geom = { 32, 8, true, false },
			    .lanes_per_pass = { 32, 32, 32, 32, 16 },
			    .t0 = 0.5,
			    .c = 1,
			    .noise = 0.05,
			    .seed = 6 };
	expect_banked(&w8, false);

	synth_device nob = { .name = "no broadcast, 16 x 4 B",
			     .subgroup = 16,
			     .geom = { 16, 4, false, false },
			     .lanes_per_pass = { 16, 16, 16, 16, 16 },
			     .t0 = 1,
			     .c = 1,
			     .noise = 0.05,
			     .seed = 8 };
	expect_banked(&nob, false);

	/* More of the family: odd bank counts, wide banks, large sub-groups, small groups. */
	synth_device b24 = { .name = "24 x 4 B (not a power of two)",
			     .subgroup = 32,
			     .geom = { 24, 4, true, false },
			     .lanes_per_pass = { 32, 32, 32, 32, 32 },
			     .t0 = 1,
			     .c = 1,
			     .noise = 0.05,
			     .seed = 21 };
	expect_banked(&b24, false);
	synth_device b48 = { .name = "48 x 8 B, wave64",
			     .subgroup = 64,
			     .geom = { 48, 8, true, false },
			     .lanes_per_pass = { 64, 64, 64, 32, 16 },
			     .t0 = 1,
			     .c = 1,
			     .noise = 0.05,
			     .seed = 22 };
	expect_banked(&b48, false);
	synth_device b128 = { .name = "128 x 16 B",
			      .subgroup = 32,
			      .geom = { 128, 16, true, false },
			      .lanes_per_pass = { 32, 32, 32, 32, 32 },
			      .t0 = 1,
			      .c = 1,
			      .noise = 0.05,
			      .seed = 23 };
	expect_banked(&b128, false);
	synth_device g4 = { .name = "32 x 4 B, groups of 16, 8 and 4 lanes",
			    .subgroup = 32,
			    .geom = { 32, 4, true, false },
			    .lanes_per_pass = { 32, 32, 16, 8, 4 },
			    .t0 = 1,
			    .c = 1,
			    .noise = 0.05,
			    .seed = 24 };
	expect_banked(&g4, false);
	synth_device b2 = { .name = "2 x 4 B, sub-group of 8",
			    .subgroup = 8,
			    .geom = { 2, 4, true, false },
			    .lanes_per_pass = { 8, 8, 8, 8, 8 },
			    .t0 = 1,
			    .c = 1,
			    .noise = 0.05,
			    .seed = 25 };
	expect_banked(&b2, false);
}

/* Devices outside the family: never a confident wrong model. */
static void outside_family(void)
{
	/* Outside the family (XOR-swizzled banks): no bank count at all. */
	for (int shift = 3; shift <= 7; shift += 2) {
		synth_device x = { .name = "XOR-swizzled banks",
				   .subgroup = 32,
				   .geom = { 32, 4, true, false },
				   .t0 = 1,
				   .c = 1,
				   .noise = 0.03,
				   .seed = 26,
				   .xor_shift = shift };
		cb_inference inf = run(&x, false, NULL);
		tap_ok(inf.status != CB_BANKED,
		       "XOR-swizzled banks (shift %d), outside the family: not "
		       "banked as any geometry (got %s: %s)",
		       shift, cb_status_name(inf.status), inf.reason);
		x.noise = 0.01;
		x.seed = 27;
		inf = run(&x, false, NULL);
		tap_ok(inf.status != CB_BANKED || inf.confidence < 0.9,
		       "XOR-swizzled banks (shift %d), "
		       "1%% noise: never banked with high confidence (got %s, %.3f: %s)",
		       shift, cb_status_name(inf.status), inf.confidence, inf.reason);
	}

	/* AMD CDNA's ds_read_b128 lane sets are outside the family: the geometry stays, the 16-byte
	 * loads are flagged approximate and the other sizes keep their certainty. */
	{
		synth_device cdna = { .name = "CDNA3-like, b128 in AMD's lane sets",
				      .subgroup = 64,
				      .geom = { 32, 4, true, false },
				      .lanes_per_pass = { 32, 32, 32, 16, 8 },
				      .t0 = 2,
				      .c = 1.5,
				      .noise = 0.03,
				      .seed = 31,
				      .amd_b128_sets = true };
		cb_inference inf = run(&cdna, false, NULL);
		int e16 = cb_elem_index(16);
		tap_ok(inf.status == CB_BANKED && inf.best.geom.banks == 32 &&
			       inf.best.geom.width == 4,
		       "%s: banked 32 x 4 B (got %s %u x %u B, %.3f)", cdna.name,
		       cb_status_name(inf.status), inf.best.geom.banks, inf.best.geom.width,
		       inf.confidence);
		tap_ok(inf.quality.approximate[e16] && !inf.lanes_certain[e16],
		       "%s: 16-byte loads approximate (misfit %.2f, worst kind %s %.2f)", cdna.name,
		       inf.quality.elem_misfit[e16], inf.quality.approx_kind[e16],
		       inf.quality.approx_kind_misfit[e16]);
		bool others = true;
		for (int e = 0; e < e16; e++)
			others &= inf.lanes_certain[e] && !inf.quality.approximate[e];
		tap_ok(others, "%s: 1- to 8-byte loads keep their certainty", cdna.name);
		tap_ok(inf.quality.nworst[e16] > 0, "%s: the worst 16-byte tables are named",
		       cdna.name);
	}
}

/* Issue 23: devices with more banks than the search holds (up to 128) read much like
 * in-family ones with half the banks at twice the width; never a confident in-family answer.
 * In-family devices at the edge keep theirs. */
static void beyond_family(void)
{
	static const cb_geometry beyond[] = { { 256, 4, true, false },
					      { 192, 4, true, false },
					      { 256, 8, true, false },
					      { 160, 4, false, false } };
	for (size_t k = 0; k < sizeof beyond / sizeof *beyond; k++)
		for (int quick = 1; quick >= 0; quick--) {
			synth_device d = { .name = "beyond the family",
					   .subgroup = 32,
					   .geom = beyond[k],
					   .lanes_per_pass = { 32, 32, 32, 32, 32 },
					   .t0 = 1,
					   .c = 1,
					   .noise = 0.02,
					   .seed = 40 + k };
			cb_inference inf = run(&d, quick, NULL);
			/* The full plan may miss the family by more than the edge (the reason then
			 * says so); --quick's few tables fit the shadow well enough to need it. */
			tap_ok(inf.status != CB_BANKED &&
				       (!quick || strstr(inf.reason, "edge of the search")),
			       "%u x %u B%s%s: never banked, %s (got %s %u x %u B, %.3f: %s)",
			       d.geom.banks, d.geom.width,
			       d.geom.broadcast ? "" : " without broadcast",
			       quick ? " (quick)" : "",
			       quick ? "beyond the search" : "inconclusive",
			       cb_status_name(inf.status), inf.best.geom.banks, inf.best.geom.width,
			       inf.confidence, inf.reason);
		}
	static const cb_geometry edge[] = { { 128, 4, true, false },
					    { 128, 8, true, false },
					    { 96, 4, true, false },
					    { 72, 8, true, false } };
	for (size_t k = 0; k < sizeof edge / sizeof *edge; k++) {
		synth_device d = { .name = "at the edge of the family",
				   .subgroup = 32,
				   .geom = edge[k],
				   .lanes_per_pass = { 32, 32, 32, 32, 32 },
				   .t0 = 1,
				   .c = 1,
				   .noise = 0.02,
				   .seed = 50 + k };
		expect_banked(&d, true);
	}
}

/* Flat devices are not banked; one buried in noise is never a wrong count. */
static void flat_and_noise(void)
{
	synth_device flat = { .name = "flat device (CPU-like)",
			      .subgroup = 8,
			      .t0 = 3,
			      .c = 0,
			      .flat = true,
			      .noise = 0.05,
			      .seed = 9 };
	expect_not_banked_or_inconclusive(&flat, true);

	synth_device pocl = flat;
	pocl.name = "PoCL-like: flat with fake 20% steps at 64-byte strides";
	pocl.fake_step = 0.2;
	pocl.noise = 0.02;
	pocl.seed = 10;
	expect_not_banked_or_inconclusive(&pocl, true);
	pocl.subgroup = 32;
	pocl.name = "PoCL-like, 32 lanes";
	expect_not_banked_or_inconclusive(&pocl, true);

	synth_device noisy = nvidia_like;
	noisy.name = "NVIDIA-like buried in 90% noise";
	noisy.noise = 0.9;
	noisy.seed = 11;
	{
		cb_inference inf = run(&noisy, true, NULL);
		tap_ok(inf.status != CB_BANKED ||
			       (inf.best.geom.banks == 32 && inf.best.geom.width == 4),
		       "%s: inconclusive or right, never a wrong count (got %s, %u x %u B)",
		       noisy.name, cb_status_name(inf.status), inf.best.geom.banks,
		       inf.best.geom.width);
	}
}

/* A plan that cannot tell geometries apart is inconclusive. */
static void uninformative(void)
{
	/* Uninformative: only small strides of 4-byte elements cannot tell 32 from 64 banks. */
	{
		cb_result r;
		synth_result(&nvidia_like, false, &r);
		size_t kept = 0;
		for (size_t i = 0; i < r.nms; i++) {
			long long st;
			if (cb_kind_is(&r.ms[i], "stride") &&
			    cb_param_get(&r.ms[i], "stride", &st) && st <= 8 &&
			    r.ms[i].elem_bytes == 4) {
				cb_measurement t = r.ms[kept];
				r.ms[kept++] = r.ms[i];
				r.ms[i] = t;
			}
		}
		cb_dataset ds;
		size_t all = r.nms;
		r.nms = kept;
		cb_dataset_of(&r, CB_OP_LOAD, &ds);
		r.nms = all;
		cb_inference inf;
		cb_infer(&ds, &inf, NULL);
		tap_ok(inf.status == CB_INCONCLUSIVE,
		       "strides 0..8 only: inconclusive (got %s: %s)", cb_status_name(inf.status),
		       inf.reason);
		cb_dataset_free(&ds);
		cb_result_free(&r);
	}
}

/* The verdict's thresholds, on hand-made numbers. */
static void decide(void)
{
	/* The verdict's thresholds, on hand-made numbers. */
	cb_decision_input in = { .n_fit = 100,
				 .n_elem = 1,
				 .flat_score = 900,
				 .best_score = 100,
				 .r2 = 0.99,
				 .max_ratio = 32,
				 .flat_rms = 0.5,
				 .flat_weight = 0,
				 .geometry_weight = 0.98,
				 .total_weight = 1,
				 .lanes_share = 1 };
	cb_decision d = cb_infer_decide(&in);
	tap_ok(d.status == CB_BANKED && d.why == CB_WHY_BANKED && fabs(d.confidence - 0.98) < 1e-12,
	       "decide: a clear winner is banked with its geometry's weight");
	in.tie_geometries = 2;
	tap_ok(cb_infer_decide(&in).status == CB_INCONCLUSIVE,
	       "decide: tied geometries are inconclusive");
	in.tie_geometries = 0;
	in.flat_score = 105;
	in.flat_weight = 0.3;
	d = cb_infer_decide(&in);
	tap_ok(d.status == CB_NOT_BANKED && d.why == CB_WHY_FLAT_FITS &&
		       fabs(d.confidence - 0.3) < 1e-12,
	       "decide: a flat model within the tie margin is not banked");
	in.flat_weight = 0.0004;
	d = cb_infer_decide(&in);
	tap_ok(d.status == CB_INCONCLUSIVE && d.why == CB_WHY_FLAT_UNSURE,
	       "decide: a flat model that fits but holds 0.04%% of the evidence is inconclusive, "
	       "not 'not banked (confidence 0.000)'");
	in.flat_weight = 0.3;
	in.flat_score = 900;
	in.r2 = 0.5;
	in.max_ratio = 1.3;
	d = cb_infer_decide(&in);
	tap_ok(d.status == CB_NOT_BANKED && d.why == CB_WHY_SMALL_EFFECT &&
		       fabs(d.confidence - 0.5) < 1e-12,
	       "decide: small unexplained variation is not banked");
	in.max_ratio = 5;
	tap_ok(cb_infer_decide(&in).why == CB_WHY_UNEXPLAINED,
	       "decide: large unexplained variation is inconclusive");
	in.n_fit = 4;
	tap_ok(cb_infer_decide(&in).why == CB_WHY_TOO_FEW, "decide: too few measurements");
	in.n_fit = 100;
	in.r2 = 0.99;
	in.misfit = 3;
	d = cb_infer_decide(&in);
	tap_ok(d.status == CB_BANKED && fabs(d.confidence - 0.98 * 0.25) < 1e-12,
	       "decide: a model that misses by 3x its noise is banked at a quarter of the confidence");
	in.misfit = 1.2;
	in.lanes_share = 0.5;
	d = cb_infer_decide(&in);
	tap_ok(d.status == CB_BANKED && fabs(d.confidence - 0.49) < 1e-12,
	       "decide: the lanes per pass's share is part of the confidence");
	in.misfit = 7;
	d = cb_infer_decide(&in);
	tap_ok(d.status == CB_INCONCLUSIVE && d.why == CB_WHY_MISFIT,
	       "decide: a model that misses by over 6x its noise is inconclusive");
}

/* Issue 23: the fit is scale-invariant. Times scaled by 1e-160 .. 1e300 give the verdict,
 * geometry, lanes and confidence of the original; times spanning more than any device does
 * are inconclusive, never a model; no number of the answer is NaN. */
static void absurd_scales(void)
{
	static const double scales[] = { 1e-300, 1e-160, 1e-100, 1e-20, 1e20, 1e100, 1e160, 1e300 };
	cb_result r;
	synth_result(&nvidia_like, true, &r);
	cb_dataset ds;
	cb_dataset_of(&r, CB_OP_LOAD, &ds);
	cb_inference ref, inf;
	cb_infer(&ds, &ref, NULL);
	for (size_t k = 0; k < sizeof scales / sizeof *scales; k++) {
		cb_dataset sc = ds;
		sc.obs = cb_xmalloc(ds.n * sizeof *sc.obs);
		for (size_t i = 0; i < ds.n; i++) {
			sc.obs[i] = ds.obs[i];
			sc.obs[i].t = ds.obs[i].t * scales[k];
		}
		cb_infer(&sc, &inf, NULL);
		bool same = inf.status == ref.status && inf.status == CB_BANKED &&
			    inf.best.geom.banks == ref.best.geom.banks &&
			    inf.best.geom.width == ref.best.geom.width &&
			    lanes_equal(&inf, ref.best.lanes_per_pass) &&
			    fabs(inf.confidence - ref.confidence) < 1e-6 &&
			    fabs(inf.step_pass_ns / scales[k] - ref.step_pass_ns) <
				    1e-6 * ref.step_pass_ns &&
			    isfinite(inf.quality.misfit) && isfinite(inf.val_rms);
		tap_ok(same,
		       "times x %g: %s %u x %u B, confidence %.4f, cost %.3g ns (unscaled: %s "
		       "%u x %u B, %.4f, %.3g ns)",
		       scales[k], cb_status_name(inf.status), inf.best.geom.banks,
		       inf.best.geom.width, inf.confidence, inf.step_pass_ns,
		       cb_status_name(ref.status), ref.best.geom.banks, ref.best.geom.width,
		       ref.confidence, ref.step_pass_ns);
		/* One table at an absurd distance from the others. */
		sc.obs[0].t = ds.obs[0].t * (scales[k] > 1 ? 1e-150 : 1e150);
		for (size_t i = 1; i < ds.n; i++)
			sc.obs[i].t = ds.obs[i].t;
		cb_infer(&sc, &inf, NULL);
		tap_ok(inf.status == CB_INCONCLUSIVE && strstr(inf.reason, "span"),
		       "one time x %g against the others: inconclusive (got %s: %s)",
		       scales[k] > 1 ? 1e-150 : 1e150, cb_status_name(inf.status), inf.reason);
		free(sc.obs);
	}
	cb_dataset_free(&ds);
	cb_result_free(&r);
}

/* A stop asked for during the analysis ends it. */
static void stops(void)
{
	/* A stop asked for during the analysis ends it. */
	{
		cb_result r;
		synth_result(&nvidia_like, true, &r);
		cb_dataset ds;
		cb_dataset_of(&r, CB_OP_LOAD, &ds);
		cb_inference inf;
		cb_error err;
		cb_stop_signal = SIGINT;
		cb_rc rc = cb_infer(&ds, &inf, &err);
		cb_stop_signal = 0;
		tap_ok(rc == CB_ERR_INTERRUPTED && err.signal == SIGINT,
		       "the analysis stops on SIGINT");
		cb_dataset_free(&ds);
		cb_result_free(&r);
	}
}

/* The residual of t = a + b p for element size E, grouping GROUP under G, passes counted here
 * by cb_passes (not the pass cache): the reference of cached_passes. */
static double direct_elem_sse(const cb_fit_set *set, const cb_geometry *g, unsigned group, int e)
{
	cb_sums s = { 0 };
	for (size_t k = 0; k < set->n[e]; k++) {
		const cb_obs *o = &set->ds->obs[set->idx[e][k]];
		cb_sums_add(&s, cb_passes(g, group, o->elem_bytes, o->lanes, set->ds->subgroup),
			    o->t);
	}
	return cb_sums_solve(&s).sse;
}

/* The pass cache (its shortcuts past a group's span of words, the memo, the buffers it lends)
 * against passes counted one by one: every candidate's residual for every element size and
 * grouping, on random stride and pool tables, twice with one memo, then with memos warmed for
 * too few tables (the buffers grow) and for all of them before their first cache. */
static void cached_passes(void)
{
	enum { N = 40, S = 32 };
	static uint32_t lanes[N][S];
	cb_obs obs[N];
	cb_rng rng;
	cb_rng_seed(&rng, 11);
	for (size_t i = 0; i < N; i++) {
		unsigned E = i % 2 ? 16 : 4, stride = cb_rng_below(&rng, 40);
		for (unsigned l = 0; l < S; l++)
			lanes[i][l] = i % 3 ? l * stride * E : cb_rng_below(&rng, 64) * E;
		obs[i] = (cb_obs){ .elem_bytes = E,
				   .lanes = lanes[i],
				   .t = 1 + cb_rng_below(&rng, 1000) / 100.0 };
	}
	cb_dataset ds = { .obs = obs, .n = N, .subgroup = S, .memo = cb_pass_memo_new() };
	cb_fit_set set = { .ds = &ds };
	for (int e = 0; e < CB_NELEM; e++) {
		set.idx[e] = cb_xmalloc(N * sizeof(size_t));
		for (size_t i = 0; i < N; i++)
			if (obs[i].elem_bytes == cb_elems[e].bytes)
				set.idx[e][set.n[e]++] = i;
	}
	set.ngroupings = cb_groupings_for(S, set.groupings);
	size_t distinct = 0;
	for (size_t i = 0; i < N; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = obs[j].elem_bytes == obs[i].elem_bytes &&
			       memcmp(lanes[j], lanes[i], sizeof lanes[i]) == 0;
		distinct += !seen;
	}
	unsigned differ = 0, fits = 0;
	for (int round = 0; round < 4; round++) {
		size_t n;
		if (round >= 2) {
			cb_pass_memo_free(ds.memo);
			ds.memo = cb_pass_memo_new();
			cb_pass_memo_warm(ds.memo, round == 2 ? 3 : N);
		}
		cb_candidate *cand = cb_fit_candidates(&set, NULL, &n);
		for (size_t c = 0; c < n; c += round ? 7 : 1) {
			cb_geometry g = { cand[c].banks, cand[c].width, cand[c].broadcast,
					  cand[c].pair_packing };
			for (int e = 0; e < CB_NELEM; e++)
				for (unsigned gi = 0; gi < set.ngroupings && set.n[e]; gi++) {
					double want = direct_elem_sse(&set, &g, set.groupings[gi],
								      e);
					double got = cand[c].sse_eg[e][gi];
					differ += !(fabs(got - want) <= 1e-9 * (1 + fabs(want)));
					fits++;
				}
		}
		cb_fit_candidates_free(&set, cand);
	}
	tap_ok(differ == 0 && cb_pass_memo_tables(ds.memo) == distinct,
	       "the pass cache gives every candidate the residual of passes counted one by one "
	       "(%u of %u fits differ; the memo holds %zu of %zu distinct tables)",
	       differ, fits, cb_pass_memo_tables(ds.memo), distinct);
	for (int e = 0; e < CB_NELEM; e++)
		free(set.idx[e]);
	cb_pass_memo_free(ds.memo);
}

int main(void)
{
	nvidia_variants();
	family();
	outside_family();
	beyond_family();
	flat_and_noise();
	uninformative();
	ops_recovered();
	by_size();
	noisy_quick(false);
	noisy_quick(true);

	decide();
	absurd_scales();
	stops();
	cached_passes();
	return tap_done();
}
