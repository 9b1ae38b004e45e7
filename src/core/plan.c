/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/plan.h"
#include "core/model.h"
#include "core/result.h"
#include "core/swizzle.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const cb_plan_opts *o;
	cb_result *r;
	unsigned next_id;
	uint32_t *lanes;
	cb_op op;
	bool quick; /* stores and atomics take the quick plan's tables */
} builder;

/* A parameter of a planned experiment; lists end with a NULL name. */
typedef struct {
	const char *name;
	long long value;
} param;

/* Adds an experiment unless it spans more local memory than the budget. */
static bool add(builder *b, const char *kind, unsigned elem, const param *params)
{
	unsigned long top = 0;
	for (unsigned l = 0; l < b->o->subgroup; l++)
		if ((unsigned long)b->lanes[l] + elem > top)
			top = (unsigned long)b->lanes[l] + elem;
	if (top > b->o->local_mem_budget)
		return false;
	cb_measurement *m = cb_result_add(b->r);
	m->id = b->next_id++;
	m->kind = cb_xstrdup(kind);
	m->op = b->op;
	m->elem_bytes = elem;
	m->has_params = true;
	unsigned n = 0;
	while (params[n].name)
		n++;
	m->params = cb_xcalloc(n, sizeof *m->params);
	for (m->nparams = 0; m->nparams < n; m->nparams++) {
		m->params[m->nparams].name = cb_xstrdup(params[m->nparams].name);
		m->params[m->nparams].value = params[m->nparams].value;
	}
	m->lanes = cb_xmalloc(b->o->subgroup * sizeof *m->lanes);
	memcpy(m->lanes, b->lanes, b->o->subgroup * sizeof *m->lanes);
	return true;
}

bool cb_ops_parse(const char *text, unsigned *ops)
{
	*ops = 0;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, ",");
		char word[16];
		cb_op op;
		if (len == 0 || len >= sizeof word)
			return false;
		memcpy(word, p, len);
		word[len] = '\0';
		if (!cb_op_parse(word, &op))
			return false;
		*ops |= CB_OP_BIT(op);
		p += len;
		if (*p == ',' && !*++p)
			return false;
	}
	return *ops != 0;
}

void cb_ops_format(unsigned ops, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int op = 0; op < CB_NOPS && len < n; op++)
		if (ops & CB_OP_BIT(op))
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "," : "",
						cb_op_name((cb_op)op));
}

static void stride_table(builder *b, unsigned elem, unsigned stride)
{
	cb_stride_lanes(b->lanes, b->o->subgroup, elem, stride);
}

/* Strides for one element size: dense near the interesting range, sparse beyond it, with odd
 * and non-power-of-two strides included. */
static unsigned stride_list(unsigned elem, bool quick, unsigned *out)
{
	static const unsigned wide_full[] = { 80, 96, 112, 120, 127, 128, 129, 160, 192, 255, 256 };
	static const unsigned narrow_extra[] = { 44,  48,  56,  63,  64,  65,  72,  96, 127,
						 128, 129, 192, 255, 256, 384, 511, 512 };
	static const unsigned quick_list[] = {
		0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  12,  15,  16,
		17, 24, 31, 32, 33, 48, 63, 64, 65, 96, 127, 128, 129
	};
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

/* Stride sweeps; they double as padding sweeps (a column walk through a tile of C elements
 * per row padded by p is stride C + p). */
static void add_strides(builder *b, unsigned E)
{
	unsigned strides[128];
	unsigned ns = stride_list(E, b->quick, strides);
	for (unsigned i = 0; i < ns; i++) {
		stride_table(b, E, strides[i]);
		add(b, "stride", E, (const param[]){ { "stride", strides[i] }, { NULL, 0 } });
	}
}

/* Two-address probes: half the lanes on offset 0, half on offset d, in the lane pattern A B B A
 * so that every group of 4 or more lanes sees both addresses and no uniform lane pairing
 * (n, n^1 or n, n^2) hides a conflict. */
static void add_two_address(builder *b, unsigned E)
{
	static const unsigned dist_bytes[] = { 4,   8,   12,  16,  24,  32,   64,
					       128, 192, 256, 384, 512, 1024, 2048 };
	for (size_t i = 0; i < sizeof dist_bytes / sizeof *dist_bytes; i++) {
		unsigned d = dist_bytes[i];
		if (d % E || (b->quick && d != 4 * E && d != 128 && d != 256 && d != 512))
			continue;
		for (unsigned l = 0; l < b->o->subgroup; l++)
			b->lanes[l] = (l % 4 == 1 || l % 4 == 2) ? d : 0;
		add(b, "two_address", E, (const param[]){ { "distance", d }, { NULL, 0 } });
	}
}

/* The other lanes of a lane-pair probe: one shared word (served at once where lanes on one
 * word merge), or for atomics, which may serialize on one word, consecutive elements of their
 * own past the pair's rows. */
static void pair_background(builder *b, unsigned E)
{
	for (unsigned l = 0; l < b->o->subgroup; l++)
		b->lanes[l] = b->op == CB_OP_ATOMIC ? 2 * CB_PAIR_DISTANCE + l * E : CB_PAIR_SHARED;
}

/* Lane-pair probes: lane 0 and lane k on two rows of one bank, every other lane elsewhere
 * (pair_background). They conflict only if served in the same pass. The reference has lane 0
 * alone off the others. */
static void add_lane_pairs(builder *b, unsigned E)
{
	const unsigned S = b->o->subgroup;
	pair_background(b, E);
	b->lanes[0] = 0;
	add(b, "pair_reference", E, (const param[]){ { "lane_a", 0 }, { NULL, 0 } });
	for (unsigned k = 1; k < S; k++) {
		if (b->quick && (k & (k - 1)) && k != S - 1)
			continue;
		pair_background(b, E);
		b->lanes[0] = 0;
		b->lanes[k] = CB_PAIR_DISTANCE;
		add(b, "lane_pair", E,
		    (const param[]){ { "lane_a", 0 },
				     { "lane_b", k },
				     { "distance", CB_PAIR_DISTANCE },
				     { NULL, 0 } });
	}
}

/* Split probes (stores and atomics, which may not merge lanes on one word): lanes below H on
 * rows of one bank, the others on rows of another (OFFSET bytes over), each on a word of its
 * own. A pass that holds lanes of both halves costs the larger half, one per half costs both:
 * the lanes served together show without relying on merging. */
static void add_splits(builder *b, unsigned E)
{
	const unsigned S = b->o->subgroup;
	if (b->op == CB_OP_LOAD)
		return;
	unsigned offsets[2] = { 2 * E, 64 }, row = CB_PAIR_DISTANCE / 2;
	while (row > 256 && (unsigned long)row * S > b->o->local_mem_budget)
		row /= 2; /* rows one bank period apart for periods up to ROW bytes */
	for (unsigned h = 2; h < S; h *= 2)
		for (int i = 0; i < 2; i++) {
			if (i && offsets[1] == offsets[0])
				continue;
			for (unsigned l = 0; l < S; l++)
				b->lanes[l] = l * row + (l < h ? 0 : offsets[i]);
			add(b, "split", E,
			    (const param[]){
				    { "lanes_below", h }, { "offset", offsets[i] }, { NULL, 0 } });
		}
}

/* Broadcast and multicast pools: every lane reads one of k addresses. */
static void add_pools(builder *b, unsigned E, cb_rng *rng)
{
	unsigned long budget = b->o->local_mem_budget;
	unsigned pool_window = 4096 < budget ? 4096 : (unsigned)budget;
	for (unsigned k = 1; k <= 8; k++) {
		if (b->quick && k != 1 && k != 2 && k != 4)
			continue;
		uint32_t addr[8];
		for (unsigned a = 0; a < k; a++)
			addr[a] = cb_rng_below(rng, pool_window / E) * E;
		for (unsigned l = 0; l < b->o->subgroup; l++)
			b->lanes[l] = addr[k == 1 ? 0 : cb_rng_below(rng, k)];
		add(b, "pool", E, (const param[]){ { "addresses", k }, { NULL, 0 } });
	}
}

/* Column walks through XOR-swizzled tiles (loads), measured like the padded ones: lane l reads
 * row l of a tile of C columns swizzled with (BITS, SHIFT), for every tile of the advice: every
 * BITS up to log2(C) with SHIFT 0 and 1 (the advice's smallest swizzle is among them for the
 * geometries of the family's common devices), the quick plan the three largest BITS. */
static void add_swizzles(builder *b, unsigned E)
{
	static const unsigned tiles[] = CB_ADVICE_TILES, elems[] = CB_ADVICE_ELEMS;
	bool advised = false;
	for (size_t i = 0; i < sizeof elems / sizeof *elems; i++)
		advised |= elems[i] == E;
	if (b->op != CB_OP_LOAD || !advised)
		return;
	for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++)
		for (unsigned bits = 1; (1u << bits) <= tiles[t]; bits++)
			for (unsigned shift = 0; shift <= 1; shift++) {
				if (b->quick && (8u << bits) <= tiles[t])
					continue;
				cb_swizzle_column_lanes(b->lanes, b->o->subgroup, E, tiles[t], bits,
							shift, 0);
				add(b, "swizzle", E,
				    (const param[]){ { "tile", tiles[t] },
						     { "bits", bits },
						     { "shift", shift },
						     { NULL, 0 } });
			}
}

/* Random tables, kept apart to validate the inferred model. */
static void add_random(builder *b, unsigned E, cb_rng *rng)
{
	static const unsigned windows[] = { 1024, 2048, 4096, 8192 };
	unsigned nrand = b->quick ? 2 : 8;
	for (unsigned r = 0; r < nrand; r++) {
		unsigned win = windows[r % 4];
		if (win > b->o->local_mem_budget)
			win = (unsigned)b->o->local_mem_budget;
		for (unsigned l = 0; l < b->o->subgroup; l++)
			b->lanes[l] = cb_rng_below(rng, win / E) * E;
		add(b, "random", E,
		    (const param[]){ { "window", win }, { "variant", r }, { NULL, 0 } });
	}
}

cb_rc cb_plan_make(const cb_plan_opts *o, cb_result *r, cb_error *err)
{
	cb_result_init(r);
	if (o->subgroup < 4 || o->subgroup > CB_MAX_LANES)
		return cb_error_set(err, CB_ERR_USAGE, "sub-group size %u is outside 4..%u",
				    o->subgroup, CB_MAX_LANES);
	if (o->local_mem_budget < 4096)
		return cb_error_set(err, CB_ERR_USAGE,
				    "local memory budget %lu B is too small for a "
				    "plan (need at least 4096 B)",
				    o->local_mem_budget);
	builder b = { .o = o, .r = r, .next_id = 0 };
	b.lanes = cb_xcalloc(o->subgroup, sizeof *b.lanes);
	cb_rng rng;
	cb_rng_seed(&rng, o->seed);
	unsigned ops = o->ops ? o->ops : CB_OP_BIT(CB_OP_LOAD);
	for (int op = 0; op < CB_NOPS; op++) {
		if (!(ops & CB_OP_BIT(op)))
			continue;
		b.op = (cb_op)op;
		b.quick = o->quick || (op != CB_OP_LOAD && !o->pool);
		for (int ei = 0; ei < CB_NELEM; ei++) {
			const unsigned E = cb_elems[ei].bytes;
			if (!cb_op_has_elem(b.op, E))
				continue;
			add_strides(&b, E);
			add_two_address(&b, E);
			add_lane_pairs(&b, E);
			add_pools(&b, E, &rng);
			add_splits(&b, E);
			add_swizzles(&b, E);
			add_random(&b, E, &rng);
		}
	}
	free(b.lanes);
	r->has_generator = true;
	r->generator_name = cb_xstrdup(PACKAGE_NAME);
	r->generator_version = cb_xstrdup(PACKAGE_VERSION);
	r->plan.present = true;
	r->plan.seed = (long long)o->seed;
	r->plan.subgroup_size = o->subgroup;
	r->plan.local_mem_budget = (long long)o->local_mem_budget;
	r->plan.quick = o->quick;
	char names[64];
	cb_ops_format(ops, names, sizeof names);
	r->plan.ops = cb_xstrdup(names);
	r->device.subgroup_size = o->subgroup;
	return CB_OK;
}
