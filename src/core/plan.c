/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/plan.h"
#include "core/model.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	const cb_plan_opts *o;
	json_t *list;
	unsigned next_id;
	uint32_t *lanes;
} builder;

/* Adds an experiment unless it spans more local memory than the budget. */
static bool add(builder *b, const char *kind, unsigned elem, json_t *params)
{
	unsigned long top = 0;
	for (unsigned l = 0; l < b->o->subgroup; l++)
		if ((unsigned long)b->lanes[l] + elem > top)
			top = (unsigned long)b->lanes[l] + elem;
	if (top > b->o->local_mem_budget) {
		json_decref(params);
		return false;
	}
	json_t *lanes = json_array();
	for (unsigned l = 0; l < b->o->subgroup; l++)
		json_array_append_new(lanes, json_integer(b->lanes[l]));
	json_array_append_new(b->list, json_pack("{s:I, s:s, s:s, s:I, s:o, s:o}",
		"id", (json_int_t)b->next_id++, "kind", kind, "op", "load",
		"elem_bytes", (json_int_t)elem, "params", params, "lanes", lanes));
	return true;
}

static void stride_table(builder *b, unsigned elem, unsigned stride)
{
	for (unsigned l = 0; l < b->o->subgroup; l++)
		b->lanes[l] = l * stride * elem;
}

/* Strides for one element size: dense near the interesting range, sparse beyond it, with odd
 * and non-power-of-two strides included. */
static unsigned stride_list(unsigned elem, bool quick, unsigned *out)
{
	static const unsigned wide_full[] = { 80, 96, 112, 120, 127, 128, 129, 160, 192, 255, 256 };
	static const unsigned narrow_extra[] = { 44, 48, 56, 63, 64, 65, 72, 96, 127, 128, 129,
						 192, 255, 256, 384, 511, 512 };
	static const unsigned quick_list[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24,
					       31, 32, 33, 48, 63, 64, 65, 96, 127, 128, 129 };
	unsigned n = 0;
	if (quick) {
		for (size_t i = 0; i < sizeof quick_list / sizeof *quick_list; i++)
			out[n++] = quick_list[i];
		return n;
	}
	if (elem >= 4) {
		for (unsigned s = 0; s <= 72; s++)
			out[n++] = s;
		for (size_t i = 0; i < sizeof wide_full / sizeof *wide_full; i++)
			out[n++] = wide_full[i];
	} else {
		for (unsigned s = 0; s <= 40; s++)
			out[n++] = s;
		for (size_t i = 0; i < sizeof narrow_extra / sizeof *narrow_extra; i++)
			out[n++] = narrow_extra[i];
	}
	return n;
}

json_t *cb_plan_baseline_lanes(unsigned subgroup)
{
	json_t *a = json_array();
	for (unsigned l = 0; l < subgroup; l++)
		json_array_append_new(a, json_integer(4 * l));
	return a;
}

json_t *cb_plan_make(const cb_plan_opts *o)
{
	if (o->subgroup < 4 || o->subgroup > CB_MAX_LANES) {
		cb_err("sub-group size %u is outside 4..%u", o->subgroup, CB_MAX_LANES);
		return NULL;
	}
	if (o->local_mem_budget < 4096) {
		cb_err("local memory budget %lu B is too small for a plan (need at least 4096 B)",
		       o->local_mem_budget);
		return NULL;
	}
	builder b = { .o = o, .list = json_array(), .next_id = 0 };
	b.lanes = cb_xcalloc(o->subgroup, sizeof *b.lanes);
	cb_rng rng;
	cb_rng_seed(&rng, o->seed);
	const unsigned S = o->subgroup;
	unsigned strides[128];

	for (int ei = 0; ei < CB_NELEM; ei++) {
		const unsigned E = cb_elem_sizes[ei];

		/* Stride sweeps; they double as padding sweeps (a column walk through a tile of C
		 * elements per row padded by p is stride C + p). */
		unsigned ns = stride_list(E, o->quick, strides);
		for (unsigned i = 0; i < ns; i++) {
			stride_table(&b, E, strides[i]);
			add(&b, "stride", E, json_pack("{s:I}", "stride", (json_int_t)strides[i]));
		}

		/* Two-address probes: half the lanes on offset 0, half on offset d, in the lane
		 * pattern A B B A so that every group of 4 or more lanes sees both addresses and no
		 * uniform lane pairing (n, n^1 or n, n^2) hides a conflict. */
		static const unsigned dist_bytes[] = { 4, 8, 12, 16, 24, 32, 64, 128, 192, 256,
						       384, 512, 1024, 2048 };
		for (size_t i = 0; i < sizeof dist_bytes / sizeof *dist_bytes; i++) {
			unsigned d = dist_bytes[i];
			if (d % E || (o->quick && d != 4 * E && d != 128 && d != 256 && d != 512))
				continue;
			for (unsigned l = 0; l < S; l++)
				b.lanes[l] = (l % 4 == 1 || l % 4 == 2) ? d : 0;
			add(&b, "two_address", E, json_pack("{s:I}", "distance", (json_int_t)d));
		}

		/* Lane-pair probes: lane 0 and lane k on two rows of one bank, every other lane on a
		 * shared word elsewhere. They conflict only if served in the same pass. The reference
		 * has lane 0 alone off the shared word. */
		for (unsigned l = 0; l < S; l++)
			b.lanes[l] = CB_PAIR_SHARED;
		b.lanes[0] = 0;
		add(&b, "pair_reference", E, json_pack("{s:i}", "lane_a", 0));
		for (unsigned k = 1; k < S; k++) {
			if (o->quick && (k & (k - 1)) && k != S - 1)
				continue;
			for (unsigned l = 0; l < S; l++)
				b.lanes[l] = CB_PAIR_SHARED;
			b.lanes[0] = 0;
			b.lanes[k] = CB_PAIR_DISTANCE;
			add(&b, "lane_pair", E, json_pack("{s:i, s:I, s:I}", "lane_a", 0,
				"lane_b", (json_int_t)k, "distance", (json_int_t)CB_PAIR_DISTANCE));
		}

		/* Broadcast and multicast pools: every lane reads one of k addresses. */
		unsigned pool_window = 4096 < o->local_mem_budget ? 4096 : (unsigned)o->local_mem_budget;
		for (unsigned k = 1; k <= 8; k++) {
			if (o->quick && k != 1 && k != 2 && k != 4)
				continue;
			uint32_t addr[8];
			for (unsigned a = 0; a < k; a++)
				addr[a] = cb_rng_below(&rng, pool_window / E) * E;
			for (unsigned l = 0; l < S; l++)
				b.lanes[l] = addr[k == 1 ? 0 : cb_rng_below(&rng, k)];
			add(&b, "pool", E, json_pack("{s:I}", "addresses", (json_int_t)k));
		}

		/* Random tables, kept apart to validate the inferred model. */
		static const unsigned windows[] = { 1024, 2048, 4096, 8192 };
		unsigned nrand = o->quick ? 2 : 8;
		for (unsigned r = 0; r < nrand; r++) {
			unsigned win = windows[r % 4];
			if (win > o->local_mem_budget)
				win = (unsigned)o->local_mem_budget;
			for (unsigned l = 0; l < S; l++)
				b.lanes[l] = cb_rng_below(&rng, win / E) * E;
			add(&b, "random", E, json_pack("{s:I, s:I}", "window", (json_int_t)win,
						       "variant", (json_int_t)r));
		}
	}
	free(b.lanes);

	json_t *doc = json_pack("{s:s, s:i}", "format", "clbanks", "format_version", 1);
	json_object_set_new(doc, "generator", json_pack("{s:s, s:s}", "name", PACKAGE_NAME,
							"version", PACKAGE_VERSION));
	json_object_set_new(doc, "plan", json_pack("{s:I, s:I, s:I, s:b}",
		"seed", (json_int_t)o->seed, "subgroup_size", (json_int_t)S,
		"local_mem_budget", (json_int_t)o->local_mem_budget, "quick", o->quick));
	json_object_set_new(doc, "device", json_pack("{s:I}", "subgroup_size", (json_int_t)S));
	json_object_set_new(doc, "measurements", b.list);
	return doc;
}
