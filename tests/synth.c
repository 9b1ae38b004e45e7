/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "synth.h"
#include "core/plan.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>

/* Passes under an XOR-swizzled bank function (whole table, merging): outside the model family. */
static unsigned xor_passes(const synth_device *d, unsigned E, const uint32_t *lanes)
{
	unsigned count[CB_MAX_BANKS] = { 0 }, worst = 0, nseen = 0;
	uint32_t seen[CB_MAX_LANES * 4];
	for (unsigned l = 0; l < d->subgroup; l++)
		for (uint32_t w = lanes[l] / 4; w <= (lanes[l] + E - 1) / 4; w++) {
			bool dup = false;
			for (unsigned k = 0; k < nseen && !dup; k++)
				dup = seen[k] == w;
			if (dup)
				continue;
			seen[nseen++] = w;
			unsigned b = (w ^ (w >> d->xor_shift)) % d->geom.banks;
			if (++count[b] > worst)
				worst = count[b];
		}
	return worst;
}

/* AMD's ds_read_b128 lane sets on CDNA, 8 lanes a pass: {0-3, 20-23}, {4-7, 16-19}, ... for
 * each half of the wave. Reordering the lanes set by set lets cb_passes price them. */
static unsigned b128_passes(const synth_device *d, const uint32_t *lanes)
{
	static const unsigned first[8] = { 0, 4, 8, 12, 32, 36, 40, 44 };
	static const unsigned second[8] = { 20, 16, 28, 24, 52, 48, 60, 56 };
	uint32_t order[CB_MAX_LANES];
	unsigned n = 0;
	for (unsigned s = 0; s < 8 && d->subgroup == 64; s++)
		for (unsigned k = 0; k < 8; k++)
			order[n++] = lanes[k < 4 ? first[s] + k : second[s] + k - 4];
	return cb_passes(&d->geom, 8, 16, order, n);
}

unsigned synth_passes(const synth_device *d, cb_op op, unsigned E, const uint32_t *lanes)
{
	int e = cb_elem_index(E);
	bool own = op != CB_OP_LOAD && d->op_geom[op].banks;
	const cb_geometry *g = own ? &d->op_geom[op] : &d->geom;
	if (d->op_size_geom[op][e].banks)
		g = &d->op_size_geom[op][e];
	unsigned lpp = own ? d->op_lanes[op][e] : d->lanes_per_pass[e];
	unsigned p = d->xor_shift > 0 ? xor_passes(d, E, lanes)
		     : d->amd_b128_sets && E == 16 && op == CB_OP_LOAD
			     ? b128_passes(d, lanes)
			     : cb_passes(g, lpp, E, lanes, d->subgroup);
	if (d->port_floor && E >= 8 && p < d->port_floor)
		p = d->port_floor;
	if (d->floor_all && p < d->floor_all)
		p = d->floor_all;
	return p;
}

static double noise_draw(const synth_device *d, cb_rng *rng)
{
	double u = (double)cb_rng_below(rng, 1u << 30) / (double)(1u << 30);
	if (!d->gauss)
		return d->noise * (2 * u - 1);
	double v = (double)cb_rng_below(rng, 1u << 30) / (double)(1u << 30);
	return d->noise * sqrt(-2 * log(u + 0x1p-31)) * cos(6.283185307179586 * v);
}

static void synth_plan(const synth_device *d, const cb_plan_opts *o, cb_result *r);

void synth_result(const synth_device *d, bool quick, cb_result *r)
{
	cb_plan_opts po = { .subgroup = d->subgroup,
			    .seed = d->plan_seed ? d->plan_seed : d->seed + 7,
			    .local_mem_budget = CB_DEFAULT_LOCAL_BYTES,
			    .quick = quick,
			    .ops = d->ops };
	synth_plan(d, &po, r);
}

void synth_pool(const synth_device *d, cb_result *r)
{
	cb_plan_opts po = { .subgroup = d->subgroup,
			    .seed = d->seed + 7,
			    .local_mem_budget = CB_DEFAULT_LOCAL_BYTES,
			    .ops = d->ops,
			    .pool = true };
	synth_plan(d, &po, r);
}

static void synth_plan(const synth_device *d, const cb_plan_opts *o, cb_result *r)
{
	cb_plan_opts po = *o;
	cb_error err;
	if (cb_plan_make(&po, r, &err) != CB_OK)
		abort();
	cb_rng rng;
	cb_rng_seed(&rng, d->seed);
	for (size_t i = 0; i < r->nms; i++) {
		cb_measurement *m = &r->ms[i];
		const unsigned E = m->elem_bytes;
		const uint32_t *lanes = m->lanes;
		bool all64 = true, one_word = true;
		for (unsigned l = 0; l < d->subgroup; l++) {
			all64 &= lanes[l] % 64 == 0;
			one_word &= lanes[l] == lanes[0];
		}
		int e = cb_elem_index(E);
		double t;
		if (d->flat) {
			t = d->t0;
		} else {
			unsigned p = synth_passes(d, m->op, E, lanes);
			t = d->t0 * (1 + 0.05 * e) + d->c * p;
			if (d->pair_saving > 0 && E == 16 && one_word)
				t -= d->pair_saving * d->c * p;
		}
		if (d->fake_step > 0 && all64)
			t *= 1 + d->fake_step;
		t *= 1 + noise_draw(d, &rng);
		if (d->outlier_every && i % d->outlier_every == d->outlier_every - 1)
			t *= 1.25;
		m->ns_per_access = t;
		if (!d->no_ci && d->noise > 0) {
			/* As a run records it: the ratio to the baseline, with its 95% CI. */
			double sd = (d->gauss ? d->noise : d->noise / sqrt(3)) *
				    (d->ci_scale > 0 ? d->ci_scale : 1);
			m->has_stats = true;
			m->stats.rounds = 8;
			m->stats.median = 1;
			m->stats.ci_lo = 1 - 1.96 * sd;
			m->stats.ci_hi = 1 + 1.96 * sd;
			m->stats.converged = !d->unconverged || i % d->unconverged != 0;
		}
	}
	r->device.name = cb_xstrdup(d->name);
}
