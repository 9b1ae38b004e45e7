/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/advice.h"
#include "core/model.h"
#include "core/plan.h"
#include "core/swizzle.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Passes of LANES (the sub-group's) under INF's model. */
static unsigned passes_of(const cb_inference *inf, unsigned subgroup, unsigned elem_bytes,
			  const uint32_t *lanes)
{
	int e = cb_elem_index(elem_bytes);
	return cb_passes(&inf->best.geom, inf->best.lanes_per_pass[e], elem_bytes, lanes, subgroup);
}

unsigned cb_column_walk_passes(const cb_inference *inf, unsigned subgroup, unsigned elem_bytes,
			       unsigned pitch)
{
	uint32_t *lanes = cb_xmalloc(subgroup * sizeof *lanes);
	cb_stride_lanes(lanes, subgroup, elem_bytes, pitch);
	unsigned p = passes_of(inf, subgroup, elem_bytes, lanes);
	free(lanes);
	return p;
}

unsigned cb_tile_rows(unsigned tile, unsigned subgroup)
{
	return tile > subgroup ? tile : subgroup;
}

static bool usable(const cb_inference *inf, unsigned elem_bytes)
{
	int e = cb_elem_index(elem_bytes);
	return inf && inf->status == CB_BANKED && inf->elem_present[e] &&
	       inf->best.lanes_per_pass[e];
}

/* What a judge of the advice needs: a column walk (lane i reads row i, column 0) through a
 * tile of one element size, under the load model (and the store model for the row writes). */
typedef struct {
	const cb_inference *load, *store;
	unsigned S, E, tile, rows, ideal;
	uint32_t *lanes;
} walk_ctx;

/* Padding: the column walk's passes at pitch tile + pad. */
static bool judge_pad(void *p, const cb_fix *f, cb_fix_score *sc)
{
	const walk_ctx *w = p;
	unsigned ps = cb_column_walk_passes(w->load, w->S, w->E, w->tile + f->pad);
	*sc = (cb_fix_score){ ps <= w->ideal, ps, ps };
	return true;
}

/* The advice's cases: each element size the model prices, by each tile width, with the
 * column walk's passes unfixed and at its conflict-free minimum. */
static unsigned tile_cases(const cb_inference *inf, unsigned S, uint32_t *lanes, walk_ctx *out)
{
	static const unsigned elems[] = CB_ADVICE_ELEMS, tiles[] = CB_ADVICE_TILES;
	unsigned n = 0;
	for (size_t ei = 0; ei < sizeof elems / sizeof *elems; ei++) {
		if (!usable(inf, elems[ei]))
			continue;
		unsigned ideal = cb_column_walk_passes(inf, S, elems[ei], 1);
		for (size_t ti = 0; ti < sizeof tiles / sizeof *tiles; ti++)
			out[n++] = (walk_ctx){ inf,       NULL,      S,
					       elems[ei], tiles[ti], cb_tile_rows(tiles[ti], S),
					       ideal,     lanes };
	}
	return n;
}

unsigned cb_padding_advice(const cb_inference *inf, const cb_result *r, cb_op op,
			   cb_pad_advice *out)
{
	walk_ctx cases[CB_MAX_PAD_ADVICE];
	unsigned n = tile_cases(inf, r->device.subgroup_size, NULL, cases);
	for (unsigned i = 0; i < n; i++) {
		const walk_ctx *w = &cases[i];
		cb_pad_advice *a = &out[i];
		unsigned period = inf->best.geom.banks * inf->best.geom.width / w->E;
		cb_fix_space sp = { w->rows, w->tile, w->E, 0, period < 1 ? 1 : period };
		cb_fix_result res;
		cb_fix_search(&sp, judge_pad, (void *)w, &res);
		*a = (cb_pad_advice){
			.elem_bytes = w->E,
			.tile = w->tile,
			.rows = w->rows,
			.passes_ideal = w->ideal,
			.found = res.pad_found,
			.pad = res.pad.pad,
			.passes_unpadded = cb_column_walk_passes(inf, w->S, w->E, w->tile),
			.passes_padded = res.pad_found ? res.pad_score.worst_passes : 0,
			.measured_unpadded = cb_stride_ratio(r, op, w->E, w->tile)
		};
		a->measured_padded = a->found ? cb_stride_ratio(r, op, w->E, w->tile + a->pad)
					      : NAN;
	}
	return n;
}

static const cb_inference *write_model(const walk_ctx *w)
{
	return usable(w->store, w->E) ? w->store : w->load;
}

/* Passes of a conflict-free row write (consecutive elements). */
static unsigned row_write_ideal(const walk_ctx *w)
{
	cb_stride_lanes(w->lanes, w->S, w->E, 1);
	return passes_of(write_model(w), w->S, w->E, w->lanes);
}

/* The worst passes of every row a sub-group writes through the swizzled tile: lanes of one
 * row, the next rows when the tile is narrower than the sub-group. */
static unsigned row_writes(const walk_ctx *w, const cb_fix *f)
{
	unsigned worst = 0, step = w->S / w->tile ? w->S / w->tile : 1;
	for (unsigned row = 0; row < w->rows; row += step) {
		for (unsigned l = 0; l < w->S; l++) {
			unsigned r = row + l / w->tile, c = l % w->tile;
			w->lanes[l] = (r * w->tile +
				       cb_swizzle_column_in(r, c, f->bits, f->shift, w->tile)) *
				      w->E;
		}
		unsigned p = passes_of(write_model(w), w->S, w->E, w->lanes);
		worst = p > worst ? p : worst;
	}
	return worst;
}

/* Swizzle: the column read (load model) and every row write (store model, the load model when
 * there is none) at their minimum. Total and worst are the column read's passes. */
static bool judge_swizzle(void *p, const cb_fix *f, cb_fix_score *sc)
{
	const walk_ctx *w = p;
	cb_swizzle_column_lanes(w->lanes, w->S, w->E, w->tile, f->bits, f->shift, 0);
	unsigned read = passes_of(w->load, w->S, w->E, w->lanes);
	*sc = (cb_fix_score){ false, read, read };
	if (read <= w->ideal)
		sc->at_minimum = row_writes(w, f) <= row_write_ideal(w);
	return true;
}

static cb_transpose_summary *summary_for(cb_transpose_summary *out, unsigned *n,
					 const cb_kernel_check *k)
{
	for (unsigned i = 0; i < *n; i++)
		if (out[i].elem_bytes == k->elem_bytes && out[i].tile == k->tile)
			return &out[i];
	if (*n == CB_MAX_TRANSPOSE)
		return NULL;
	cb_transpose_summary *s = &out[(*n)++];
	*s = (cb_transpose_summary){ .elem_bytes = (unsigned)k->elem_bytes,
				     .tile = (unsigned)k->tile,
				     .pad = CB_UNSET,
				     .bits = CB_UNSET,
				     .shift = CB_UNSET,
				     .matrix = k->matrix,
				     .naive_ns = NAN,
				     .padded_ns = NAN,
				     .swizzled_ns = NAN,
				     .verified = true };
	return s;
}

unsigned cb_transpose_summaries(const cb_result *r, cb_transpose_summary *out)
{
	unsigned n = 0;
	for (size_t i = 0; i < r->nchecks; i++) {
		const cb_kernel_check *k = &r->checks[i];
		if (!k->kernel || strcmp(k->kernel, "transpose") != 0 || !k->variant ||
		    k->elem_bytes == CB_UNSET || k->tile == CB_UNSET)
			continue;
		cb_transpose_summary *s = summary_for(out, &n, k);
		if (!s)
			break;
		s->verified &= k->verified == 1;
		if (strcmp(k->variant, "naive") == 0) {
			s->naive_ns = k->ns_per_launch;
		} else if (strcmp(k->variant, "padded") == 0) {
			s->padded_ns = k->ns_per_launch;
			s->pad = k->pad;
		} else if (strcmp(k->variant, "swizzled") == 0) {
			s->swizzled_ns = k->ns_per_launch;
			s->bits = k->bits;
			s->shift = k->shift;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		out[i].speedup_padded = out[i].naive_ns / out[i].padded_ns;
		out[i].speedup_swizzled = out[i].naive_ns / out[i].swizzled_ns;
	}
	return n;
}

unsigned cb_advise_swizzles(const cb_inference *load, const cb_inference *store, const cb_result *r,
			    cb_swizzle_advice *out)
{
	const unsigned S = r->device.subgroup_size;
	uint32_t *lanes = cb_xmalloc(S * sizeof *lanes);
	walk_ctx cases[CB_MAX_PAD_ADVICE];
	unsigned n = tile_cases(load, S, lanes, cases);
	for (unsigned i = 0; i < n; i++) {
		walk_ctx *w = &cases[i];
		cb_swizzle_advice *a = &out[i];
		w->store = store;
		cb_fix_space sp = { w->rows, w->tile, w->E, 1, 0 }; /* swizzles only */
		cb_fix_result res;
		cb_fix_search(&sp, judge_swizzle, w, &res);
		*a = (cb_swizzle_advice){
			.elem_bytes = w->E,
			.tile = w->tile,
			.rows = w->rows,
			.passes_ideal = w->ideal,
			.found = res.swizzle_found,
			.passes_unswizzled = cb_column_walk_passes(load, S, w->E, w->tile),
			.measured_unswizzled = cb_stride_ratio(r, CB_OP_LOAD, w->E, w->tile),
			.measured_swizzled = NAN
		};
		if (!a->found)
			continue;
		a->bits = res.swizzle.bits;
		a->shift = res.swizzle.shift;
		a->passes_swizzled = res.swizzle_score.worst_passes;
		a->passes_write = row_writes(w, &res.swizzle);
		cb_swizzle_column_lanes(lanes, S, w->E, w->tile, a->bits, a->shift, 0);
		a->measured_swizzled = cb_table_ratio(r, CB_OP_LOAD, w->E, lanes);
	}
	free(lanes);
	return n;
}
