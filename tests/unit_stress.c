/* SPDX-License-Identifier: MIT */
/* The stress set of issue 36.5: 16 synthetic devices in and out of the model family (port
 * limits, latency floors, XOR banks, AMD's lane sets, a PoCL-like step, flat), at three noise
 * levels through the quick plan (and the adaptive design at 4% outside the family), then the
 * loads with outliers and with CIs narrower than the noise. No answer may be confidently
 * wrong: every model used at 0.9 or more (the op's, or an element size's own where analyze
 * uses it, cb_size_model) must price every table of the pool as the device does (but for
 * sizes whose lanes it flags approximate), whether the device is in the family or not. */
#include "config.h"
#include "core/analyze.h"
#include "core/design.h"
#include "core/plan.h"
#include "core/util.h"
#include "synth.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SURE 0.9

/* Runs the adaptive design on D (its times revealed batch by batch from a fully timed pool),
 * as unit_design does; RES is what it measured, analyzed. */
static void adaptive(const synth_device *d, cb_result *res)
{
	cb_result truth;
	cb_error err;
	cb_design ds;
	synth_pool(d, &truth);
	synth_pool(d, res);
	for (size_t i = 0; i < res->nms; i++) {
		res->ms[i].ns_per_access = NAN;
		res->ms[i].has_stats = false;
	}
	cb_design_init(&ds, res);
	size_t *idx = cb_xmalloc(res->nms * sizeof *idx), n, batches = 0;
	cb_analyze(res, &err);
	while (cb_design_next(&ds, res, idx, &n, &err) == CB_OK && n > 0 && batches++ < 40) {
		for (size_t k = 0; k < n; k++) {
			res->ms[idx[k]].ns_per_access = truth.ms[idx[k]].ns_per_access;
			res->ms[idx[k]].has_stats = truth.ms[idx[k]].has_stats;
			res->ms[idx[k]].stats = truth.ms[idx[k]].stats;
		}
		cb_analyze(res, &err);
	}
	free(idx);
	cb_design_free(&ds);
	cb_result_free(&truth);
}

/* The first table of POOL (op OP, size E; E 0: any) that INF's model prices otherwise than D
 * does, leaving out sizes whose lanes per pass it flags approximate; -1 when none. */
static long mispriced(const synth_device *d, const cb_result *pool, cb_op op, unsigned E,
		      const cb_inference *inf)
{
	const cb_fit *model = &inf->best;
	for (size_t i = 0; i < pool->nms; i++) {
		const cb_measurement *m = &pool->ms[i];
		if (m->op != op || (E && m->elem_bytes != E))
			continue;
		int e = cb_elem_index(m->elem_bytes);
		unsigned lpp = model->lanes_per_pass[e];
		if (!lpp || !inf->lanes_certain[e])
			continue; /* a size it does not price, or flags approximate */
		if (d->flat || cb_passes(&model->geom, lpp, m->elem_bytes, m->lanes, d->subgroup) !=
				       synth_passes(d, op, m->elem_bytes, m->lanes))
			return (long)i;
	}
	return -1;
}

typedef struct {
	unsigned answers, sure, right, wrong;
	char first[300];
} tally;

/* Every model analyze would use at SURE or more in R (each op's, each size's own): right when
 * it prices the pool as the device does. */
static void judge(const synth_device *d, const cb_result *r, const cb_result *pool, const char *how,
		  tally *t)
{
	for (int op = 0; op < CB_NOPS; op++) {
		if (!r->op_present[op])
			continue;
		const cb_inference *inf = &r->inference[op];
		for (int e = -1; e < CB_NELEM; e++) {
			const cb_inference *use = inf;
			if (e >= 0 && !(use = cb_size_model(r, (cb_op)op, e)))
				continue;
			t->answers++;
			if (use->status != CB_BANKED || !(use->confidence >= SURE))
				continue;
			t->sure++;
			long bad = mispriced(d, pool, (cb_op)op, e >= 0 ? cb_elems[e].bytes : 0,
					     use);
			if (bad < 0) {
				t->right++;
				continue;
			}
			if (t->wrong++ == 0)
				snprintf(t->first, sizeof t->first,
					 "%s, %s, %s%s: %u x %u B%s, lanes %u %u %u %u %u at %.3f",
					 d->name, how, cb_op_name((cb_op)op),
					 e >= 0 ? " by size" : "", use->best.geom.banks,
					 use->best.geom.width,
					 use->best.geom.broadcast ? "" : " without broadcast",
					 use->best.lanes_per_pass[0], use->best.lanes_per_pass[1],
					 use->best.lanes_per_pass[2], use->best.lanes_per_pass[3],
					 use->best.lanes_per_pass[4], use->confidence);
		}
	}
}

/* D's answers from the quick tables, and with ADAPTIVE also from the adaptive design. */
static void stress(const synth_device *d, const char *what, bool with_adaptive, tally *t)
{
	cb_result pool, r;
	cb_error err;
	synth_pool(d, &pool);
	synth_result(d, true, &r);
	cb_analyze(&r, &err);
	char how[80];
	snprintf(how, sizeof how, "%s, quick tables", what);
	judge(d, &r, &pool, how, t);
	cb_result_free(&r);
	if (with_adaptive) {
		adaptive(d, &r);
		snprintf(how, sizeof how, "%s, adaptive", what);
		judge(d, &r, &pool, how, t);
		cb_result_free(&r);
	}
	cb_result_free(&pool);
}

/* clang-format off */
#define L5(a, b, c, d, e) { a, b, c, d, e }
/* clang-format on */

int main(void)
{
	/* In the family: 8 devices. */
	/* clang-format off */
	const synth_device in[] = {
		{ .name = "NVIDIA-like 32 x 4 B", .subgroup = 32, .geom = { 32, 4, true, false },
		  .lanes_per_pass = L5(32, 32, 32, 16, 8), .t0 = 0.1, .c = 0.9 },
		{ .name = "AMD-like wave64 32 x 4 B", .subgroup = 64, .geom = { 32, 4, true, false },
		  .lanes_per_pass = L5(32, 32, 32, 16, 8), .t0 = 2, .c = 1.5 },
		{ .name = "Intel-like SIMD16 16 x 4 B", .subgroup = 16, .geom = { 16, 4, true, false },
		  .lanes_per_pass = L5(16, 16, 16, 16, 16), .t0 = 1, .c = 2 },
		{ .name = "wide 64 x 4 B, wave64", .subgroup = 64, .geom = { 64, 4, true, false },
		  .lanes_per_pass = L5(64, 64, 64, 32, 16), .t0 = 1, .c = 1 },
		{ .name = "32 x 8 B", .subgroup = 32, .geom = { 32, 8, true, false },
		  .lanes_per_pass = L5(32, 32, 32, 32, 16), .t0 = 0.5, .c = 1 },
		{ .name = "16 x 4 B without broadcast", .subgroup = 16, .geom = { 16, 4, false, false },
		  .lanes_per_pass = L5(16, 16, 16, 16, 16), .t0 = 1, .c = 1 },
		{ .name = "32 x 4 B, groups of 16, 8 and 4", .subgroup = 32,
		  .geom = { 32, 4, true, false }, .lanes_per_pass = L5(32, 32, 16, 8, 4), .t0 = 1,
		  .c = 1 },
		{ .name = "flat (a CPU)", .subgroup = 32, .flat = true, .t0 = 1 },
	};
	/* clang-format on */
	/* Out of the family: 8 devices. */
	/* clang-format off */
	const synth_device out[] = {
		{ .name = "AMD-like, 8- and 16-byte accesses at least 8 passes", .subgroup = 64,
		  .geom = { 32, 4, true, false }, .lanes_per_pass = L5(32, 32, 32, 16, 8), .t0 = 1,
		  .c = 1, .port_floor = 8 },
		{ .name = "32 x 4 B, 8- and 16-byte accesses at least 4 passes", .subgroup = 32,
		  .geom = { 32, 4, false, false }, .lanes_per_pass = L5(32, 32, 32, 32, 32), .t0 = 1,
		  .c = 1, .port_floor = 4 },
		{ .name = "latency-bound 32 x 4 B (2 passes at least)", .subgroup = 32,
		  .geom = { 32, 4, true, false }, .lanes_per_pass = L5(32, 32, 32, 16, 8), .t0 = 1,
		  .c = 1, .floor_all = 2 },
		{ .name = "latency-bound 32 x 4 B (4 passes at least)", .subgroup = 32,
		  .geom = { 32, 4, true, false }, .lanes_per_pass = L5(32, 32, 32, 16, 8), .t0 = 1,
		  .c = 1, .floor_all = 4 },
		{ .name = "XOR-swizzled 32 x 4 B", .subgroup = 32, .geom = { 32, 4, true, false },
		  .t0 = 1, .c = 1, .xor_shift = 5 },
		{ .name = "CDNA-like ds_read_b128 lane sets", .subgroup = 64,
		  .geom = { 32, 4, true, false }, .lanes_per_pass = L5(32, 32, 32, 16, 8), .t0 = 1,
		  .c = 1, .amd_b128_sets = true },
		{ .name = "NVIDIA-like with pair packing", .subgroup = 32,
		  .geom = { 32, 4, true, false }, .lanes_per_pass = L5(32, 32, 32, 16, 8), .t0 = 1,
		  .c = 1, .pair_saving = 0.3 },
		{ .name = "PoCL-like step at 64-byte offsets", .subgroup = 8, .flat = true, .t0 = 1,
		  .fake_step = 0.2 },
	};
	/* clang-format on */
	static const double noise[] = { 0.01, 0.04, 0.08 };
	tally all = { 0 };
	for (int set = 0; set < 2; set++) {
		const synth_device *devs = set ? out : in;
		size_t ndev = set ? sizeof out / sizeof *out : sizeof in / sizeof *in;
		for (size_t i = 0; i < ndev; i++) {
			tally t = { 0 };
			/* Loads in the family (unit_design recovers every op there); every op
			 * outside it, where stores' and atomics' answers went wrong before. */
			unsigned ops = set ? CB_OPS_ALL : CB_OP_BIT(CB_OP_LOAD);
			/* Three noise levels (the design at the middle one), then outliers (every
			 * 9th table 25% slow) and CIs a quarter of the noise, at 2%. */
			for (size_t k = 0; k < 3; k++) {
				synth_device d = devs[i];
				d.ops = ops;
				d.noise = noise[k];
				d.seed = 11 + 7 * i + 100 * k + 1000 * (unsigned)set;
				char what[40];
				snprintf(what, sizeof what, "%.0f%% noise", 100 * noise[k]);
				stress(&d, what, set && k == 1, &t);
			}
			synth_device d = devs[i];
			d.ops = CB_OP_BIT(CB_OP_LOAD); /* loads: the test's time */
			d.noise = 0.02;
			d.seed = 5 + 7 * i;
			d.outlier_every = 9;
			stress(&d, "outliers", false, &t);
			d.outlier_every = 0;
			d.ci_scale = 0.25;
			stress(&d, "CIs too narrow", false, &t);
			tap_ok(t.wrong == 0,
			       "%s (%s the family): %u answers, %u at %.1f or more, %u of "
			       "them right, %u confidently wrong%s%s",
			       devs[i].name, set ? "outside" : "in", t.answers, t.sure, SURE,
			       t.right, t.wrong, t.wrong ? "; first: " : "",
			       t.wrong ? t.first : "");
			all.answers += t.answers;
			all.sure += t.sure;
			all.right += t.right;
			all.wrong += t.wrong;
		}
	}
	tap_ok(all.sure > all.answers / 4,
	       "the set is not passed by saying nothing: %u of %u answers at %.1f or more",
	       all.sure, all.answers, SURE);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
