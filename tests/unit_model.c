/* SPDX-License-Identifier: MIT */
/* The bank model against hand-computed passes, and against a brute-force reference. */
#include "config.h"
#include "core/fit.h"
#include "core/model.h"
#include "core/select.h"
#include "core/swizzle.h"
#include "core/util.h"
#include "doc/doc.h"
#include "tap.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t lanes[CB_MAX_LANES];

static unsigned stride(const cb_geometry *g, unsigned group, unsigned elem, unsigned s, unsigned n)
{
	for (unsigned l = 0; l < n; l++)
		lanes[l] = l * s * elem;
	return cb_passes(g, group, elem, lanes, n);
}

static void fill(unsigned n, uint32_t v)
{
	for (unsigned l = 0; l < n; l++)
		lanes[l] = v;
}

/* Straight from the definition: for each group, for each bank, count distinct words (or
 * accesses without merging) of the active lanes; take the maximum; add up. */
static unsigned reference(const cb_geometry *g, unsigned group, unsigned elem, const uint32_t *off,
			  const bool *active, unsigned n)
{
	if (!group || group > n)
		group = n;
	unsigned total = 0;
	for (unsigned g0 = 0; g0 < n; g0 += group) {
		unsigned g1 = g0 + group < n ? g0 + group : n, worst = 0;
		for (unsigned b = 0; b < g->banks; b++) {
			uint32_t seen[4096];
			unsigned ns = 0, count = 0;
			for (unsigned l = g0; l < g1; l++) {
				if (active && !active[l])
					continue;
				for (uint32_t w = off[l] / g->width;
				     w <= (off[l] + elem - 1) / g->width; w++) {
					if (w % g->banks != b)
						continue;
					bool dup = false;
					for (unsigned k = 0; k < ns && g->broadcast; k++)
						dup |= seen[k] == w;
					if (!dup) {
						seen[ns++] = w;
						count++;
					}
				}
			}
			worst = count > worst ? count : worst;
		}
		total += worst;
	}
	return total;
}

/* Passes checked by hand: strides, groups, sub-words, probes, geometries, packing. */
static void by_hand(void)
{
	cb_geometry nv = { 32, 4, true, false }, nv_nomerge = { 32, 4, false, false };

	/* NVIDIA-like, 4-byte elements, whole warp. */
	tap_ok(stride(&nv, 32, 4, 1, 32) == 1, "32x4: stride 1 is one pass");
	tap_ok(stride(&nv, 32, 4, 2, 32) == 2, "32x4: stride 2 is two passes");
	tap_ok(stride(&nv, 32, 4, 4, 32) == 4, "32x4: stride 4 is four passes");
	tap_ok(stride(&nv, 32, 4, 32, 32) == 32, "32x4: stride 32 is 32 passes");
	tap_ok(stride(&nv, 32, 4, 64, 32) == 32, "32x4: stride 64 saturates at 32");
	tap_ok(stride(&nv, 32, 4, 33, 32) == 1, "32x4: stride 33 is conflict-free");
	tap_ok(stride(&nv, 32, 4, 17, 32) == 1, "32x4: odd stride 17 is conflict-free");
	tap_ok(stride(&nv, 32, 4, 0, 32) == 1, "32x4: broadcast is one pass");
	tap_ok(stride(&nv_nomerge, 32, 4, 0, 32) == 32, "32x4 without merging: same word 32 times");
	tap_ok(stride(&nv, 0, 4, 2, 32) == 2, "group 0 means the whole table");

	/* Wide elements with lane groups. */
	tap_ok(stride(&nv, 16, 8, 1, 32) == 2, "8 B, half-warp groups: stride 1 is 2 passes");
	tap_ok(stride(&nv, 16, 8, 0, 32) == 2,
	       "8 B, half-warp groups: broadcast costs one pass per group");
	tap_ok(stride(&nv, 32, 8, 0, 32) == 1, "8 B, whole warp: broadcast is one pass");
	tap_ok(stride(&nv, 32, 8, 1, 32) == 2, "8 B, whole warp: stride 1 is 2 passes (64 words)");
	tap_ok(stride(&nv, 8, 16, 1, 32) == 4, "16 B, quarter-warp groups: stride 1 is 4 passes");
	tap_ok(stride(&nv, 8, 16, 2, 32) == 8, "16 B, quarter-warp groups: stride 2 is 8 passes");
	tap_ok(stride(&nv, 8, 16, 0, 32) == 4, "16 B, quarter-warp groups: broadcast is 4 passes");
	tap_ok(stride(&nv, 32, 16, 8, 32) == 32,
	       "16 B, stride 8 (128 B): every lane on 4 same banks");

	/* Sub-word elements share words. */
	tap_ok(stride(&nv, 32, 1, 1, 32) == 1, "1 B stride 1: 8 words, one pass");
	tap_ok(stride(&nv, 32, 1, 128, 32) == 32, "1 B stride 128: every lane in bank 0");
	tap_ok(stride(&nv_nomerge, 32, 1, 1, 32) == 4,
	       "1 B stride 1 without merging: 4 lanes per word");
	tap_ok(stride(&nv, 32, 2, 2, 32) == 1, "2 B stride 2: one word per lane, distinct banks");

	/* Two-address and lane-pair probes. */
	for (unsigned l = 0; l < 32; l++)
		lanes[l] = l % 2 ? 128 : 0;
	tap_ok(cb_passes(&nv, 32, 4, lanes, 32) == 2, "two addresses one bank row apart: 2 passes");
	for (unsigned l = 0; l < 32; l++)
		lanes[l] = l % 2 ? 4 : 0;
	tap_ok(cb_passes(&nv, 32, 4, lanes, 32) == 1, "two addresses in different banks: 1 pass");
	fill(32, 48);
	lanes[0] = 0;
	lanes[5] = 2048;
	tap_ok(cb_passes(&nv, 32, 4, lanes, 32) == 2, "lane pair, whole warp: 2 passes");
	tap_ok(cb_passes(&nv, 8, 4, lanes, 32) == 5, "lane pair in one group of 8: 4 groups + 1");
	lanes[5] = 48;
	lanes[9] = 2048;
	tap_ok(cb_passes(&nv, 8, 4, lanes, 32) == 4, "lane pair in two groups of 8: no conflict");

	/* Wider banks and other geometries. */
	cb_geometry w8 = { 16, 8, true, false }, w8n = { 16, 8, false, false };
	tap_ok(stride(&w8, 32, 4, 1, 32) == 1, "16x8 B: 4-byte stride 1 pairs lanes in a word");
	tap_ok(stride(&w8n, 32, 4, 1, 32) == 2,
	       "16x8 B without merging: 4-byte stride 1 is 2 passes");
	tap_ok(stride(&w8, 32, 4, 2, 32) == 2, "16x8 B: 4-byte stride 2 is 2 passes");
	cb_geometry amd = { 32, 4, true, false };
	tap_ok(stride(&amd, 32, 4, 1, 64) == 2, "wave64, half-wave groups: stride 1 is 2 passes");
	tap_ok(stride(&amd, 64, 4, 32, 64) == 64,
	       "wave64 as one group on 32 banks: stride 32 is 64 passes");
	cb_geometry b24 = { 24, 4, true, false };
	tap_ok(stride(&b24, 32, 4, 24, 32) == 32, "24 banks: stride 24 is a full conflict");
	tap_ok(stride(&b24, 32, 4, 8, 32) == 11, "24 banks: stride 8 uses 3 banks, 11 passes");

	/* Pair packing: uniform lane pairs double the group, only when the geometry says so. */
	cb_geometry pk = { 32, 4, true, true };
	tap_ok(stride(&pk, 8, 16, 0, 32) == 2,
	       "16 B broadcast with packing: groups of 16, 2 passes");
	tap_ok(stride(&nv, 8, 16, 0, 32) == 4, "16 B broadcast without packing: 4 passes");
	for (unsigned l = 0; l < 32; l++)
		lanes[l] = (l % 4 == 1 || l % 4 == 2) ? 128 : 0;
	tap_ok(cb_passes(&pk, 8, 16, lanes, 32) == 8,
	       "A B B A lanes: no uniform pairs, no packing");
	for (unsigned l = 0; l < 32; l++)
		lanes[l] = (l / 2) * 16;
	tap_ok(cb_passes(&pk, 8, 16, lanes, 32) == 2,
	       "lanes n, n^1 on one word: packed, 16 lanes per pass");
	tap_ok(cb_passes(&pk, 32, 4, lanes, 32) == cb_passes(&nv, 32, 4, lanes, 32),
	       "packing never widens a group beyond the sub-group");

	/* A misaligned access touches two words. */
	fill(32, 0);
	for (unsigned l = 0; l < 32; l++)
		lanes[l] = 2 + 128 * l;
	tap_ok(cb_passes(&nv, 32, 4, lanes, 32) == 32,
	       "misaligned 4 B accesses straddle banks 0 and 1");

	/* Invalid input gives 0, never a count. */
	cb_geometry bad = { 0, 4, true, false };
	tap_ok(stride(&bad, 32, 4, 1, 32) == 0, "zero banks: no answer");
	tap_ok(cb_passes(&nv, 32, 4, lanes, 0) == 0, "empty table: no answer");
}

/* Properties on random tables and geometries: the fast path equals the definition, and with
 * active masks (divergent branches) inactive lanes take no part but keep their place. */
static void random_properties(void)
{
	cb_geometry nv = { 32, 4, true, false };
	/* Property: the fast path equals the definition on random tables and geometries. */
	cb_rng rng;
	cb_rng_seed(&rng, 42);
	static const unsigned elems[] = { 1, 2, 4, 8, 16 }, widths[] = { 4, 8, 16 };
	unsigned mismatches = 0, trials = 3000;
	for (unsigned t = 0; t < trials; t++) {
		cb_geometry g = { 2 + cb_rng_below(&rng, 127), widths[cb_rng_below(&rng, 3)],
				  cb_rng_below(&rng, 2), false };
		unsigned n = 8u << cb_rng_below(&rng, 4), E = elems[cb_rng_below(&rng, 5)];
		unsigned group = cb_rng_below(&rng, 3) ? (4u << cb_rng_below(&rng, 4)) : 0;
		unsigned window = 64u << cb_rng_below(&rng, 7), pool = 1 + cb_rng_below(&rng, n);
		uint32_t choices[64];
		for (unsigned k = 0; k < pool && k < 64; k++)
			choices[k] = cb_rng_below(&rng, window / E) * E;
		for (unsigned l = 0; l < n; l++)
			lanes[l] = choices[cb_rng_below(&rng, pool < 64 ? pool : 64)];
		if (cb_passes(&g, group, E, lanes, n) != reference(&g, group, E, lanes, NULL, n))
			mismatches++;
	}
	tap_ok(mismatches == 0, "fast passes equal the definition on %u random cases (%u differ)",
	       trials, mismatches);

	cb_geometry pk = { 32, 4, true, true };
	/* Active masks (divergent branches): inactive lanes take no part but keep their place. */
	static bool act[CB_MAX_LANES];
	for (unsigned l = 0; l < 32; l++) {
		lanes[l] = l * 128;
		act[l] = l < 8;
	}
	tap_ok(cb_passes_active(&nv, 32, 4, lanes, act, 32) == 8,
	       "stride 32 with lanes 0..7 active: 8 passes");
	tap_ok(cb_passes_active(&nv, 32, 4, lanes, NULL, 32) == 32, "a NULL mask is every lane");
	for (unsigned l = 0; l < 32; l++)
		act[l] = false;
	tap_ok(cb_passes_active(&nv, 32, 4, lanes, act, 32) == 0, "no active lane: 0 passes");
	fill(32, 0);
	lanes[8] = 16;
	act[0] = act[8] = true;
	tap_ok(cb_passes_active(&nv, 8, 16, lanes, act, 32) == 2,
	       "16 B, lanes 0 and 8 in different groups of 8: 2 passes (positions kept)");
	lanes[8] = 0;
	lanes[1] = 16;
	act[8] = false;
	act[1] = true;
	tap_ok(cb_passes_active(&nv, 8, 16, lanes, act, 32) == 1,
	       "16 B, lanes 0 and 1 in one group on different banks: 1 pass");
	fill(32, 0);
	for (unsigned l = 0; l < 32; l++)
		act[l] = l < 16;
	tap_ok(cb_passes_active(&pk, 8, 16, lanes, act, 32) == 1,
	       "packing: pairs active together on one offset, or inactive together: groups of 16");
	tap_ok(cb_passes_active(&nv, 8, 16, lanes, act, 32) == 2,
	       "the same without packing: 2 passes");
	act[16] = true;
	tap_ok(cb_passes_active(&pk, 8, 16, lanes, act, 32) == 3,
	       "packing: a pair with one inactive lane is not uniform (3 groups of 8 touched)");

	mismatches = 0;
	unsigned same = 0, sched_bad = 0;
	for (unsigned t = 0; t < trials; t++) {
		cb_geometry g = { 2 + cb_rng_below(&rng, 127), widths[cb_rng_below(&rng, 3)],
				  cb_rng_below(&rng, 2), false };
		unsigned n = 8u << cb_rng_below(&rng, 4), E = elems[cb_rng_below(&rng, 5)];
		unsigned group = cb_rng_below(&rng, 3) ? (4u << cb_rng_below(&rng, 4)) : 0;
		unsigned window = 64u << cb_rng_below(&rng, 7), keep = cb_rng_below(&rng, 4);
		for (unsigned l = 0; l < n; l++) {
			lanes[l] = cb_rng_below(&rng, window / E) * E;
			act[l] = cb_rng_below(&rng, 4) < keep + 1;
		}
		if (cb_passes_active(&g, group, E, lanes, act, n) !=
		    reference(&g, group, E, lanes, act, n))
			mismatches++;
		/* The schedule (predict -v) counts what cb_passes_active counts, inactive lanes in no
		 * pass. */
		unsigned pol[CB_MAX_LANES], top = 0;
		unsigned sched = cb_pass_schedule(&g, group, E, lanes, act, n, pol);
		for (unsigned l = 0; l < n; l++) {
			if (act[l] ? pol[l] == UINT_MAX : pol[l] != UINT_MAX)
				sched_bad++;
			top = act[l] && pol[l] + 1 > top ? pol[l] + 1 : top;
		}
		sched_bad += sched != cb_passes_active(&g, group, E, lanes, act, n) || top > sched;
		for (unsigned l = 0; l < n; l++)
			act[l] = true;
		same += cb_passes_active(&g, group, E, lanes, act, n) ==
			cb_passes(&g, group, E, lanes, n);
	}
	tap_ok(mismatches == 0, "masked passes equal the definition on %u random cases (%u differ)",
	       trials, mismatches);
	tap_ok(same == trials, "an all-active mask equals cb_passes (%u of %u)", same, trials);
	tap_ok(sched_bad == 0, "the pass schedule of masked tables equals their passes (%u bad)",
	       sched_bad);
}

/* The fix search (core/swizzle.c) on one column access: lane l reads row ROW_MUL * l, column
 * 0, of a ROWS x COLS float tile, on 32 x 4 B banks with broadcast and 32 lanes a pass. */
typedef struct {
	unsigned rows, cols, row_mul;
} column_case;

static bool judge_column(void *p, const cb_fix *f, cb_fix_score *sc)
{
	static const cb_geometry g = { 32, 4, true, false };
	const column_case *c = p;
	uint32_t off[32];
	for (unsigned l = 0; l < 32; l++)
		off[l] = cb_fix_index(f, c->row_mul * l % c->rows, 0, c->cols) * 4;
	unsigned passes = cb_passes(&g, 32, 4, off, 32);
	*sc = (cb_fix_score){ passes == 1, passes, passes };
	return true;
}

/* Every row keeps its elements under F: the columns of row R map onto 0..COLS-1 once each. */
static bool rows_permuted(const cb_fix *f, unsigned rows, unsigned cols)
{
	for (unsigned r = 0; r < rows; r++) {
		unsigned seen[64] = { 0 };
		for (unsigned c = 0; c < cols; c++) {
			uint32_t i = cb_fix_index(f, r, c, cols);
			if (i < r * cols || i >= (r + 1) * cols || seen[i - r * cols]++)
				return false;
		}
	}
	return true;
}

/* Issue 21: the swizzle family covers odd widths and c ^ ((r >> 4) & 1). */
static void fix_search(void)
{
	cb_fix_result res;
	char text[128];
	/* float t[32][2], t[l][0]: bank 2l, lanes l and l + 16 share one (2-way); padding to 3
	 * (bank 3l) or swapping the columns of rows 16..31 fixes it. */
	column_case two = { 32, 2, 1 };
	cb_fix_space s2 = { 32, 2, 4, 1, 64 };
	cb_fix_search(&s2, judge_column, &two, &res);
	cb_swizzle_column_expr_in(res.swizzle.bits, res.swizzle.shift, 2, text, sizeof text);
	tap_ok(res.swizzle_found && res.swizzle.bits == 1 && res.swizzle.shift == 4 &&
		       !strcmp(text, "c ^ ((r >> 4) & 1)") && res.pad_found && res.pad.pad == 1,
	       "t[32][2] column read: c ^ ((r >> 4) & 1) (%s), or rows of 3", text);
	/* float t[64][3], t[2l][0]: bank 6l, lanes l and l + 16 share one whatever the padding
	 * (row 2l at 2l (3 + p) words: 16 lanes apart is 32 (3 + p) words, a multiple of 32
	 * banks). Rows 32..63 with columns 0 and 1 swapped (2 stays: 2 ^ 1 = 3 is past the row)
	 * put lanes 16..31 on odd banks. */
	column_case odd = { 64, 3, 2 };
	cb_fix_space s3 = { 64, 3, 4, 1, 64 };
	cb_fix_search(&s3, judge_column, &odd, &res);
	cb_swizzle_column_expr_in(res.swizzle.bits, res.swizzle.shift, 3, text, sizeof text);
	tap_ok(!res.pad_found && res.swizzle_found && res.swizzle.bits == 1 &&
		       res.swizzle.shift == 5 && res.swizzle_score.worst_passes == 1 &&
		       res.best_found && res.best.swizzle,
	       "t[64][3] two rows apart: no padding, c ^ ((r >> 5) & 1) in rows of 3");
	tap_ok(!strcmp(text, "(c ^ ((r >> 5) & 1)) < 3 ? c ^ ((r >> 5) & 1) : c"),
	       "odd width: the column expression keeps column 2 (%s)", text);
	bool perm = true;
	for (unsigned cols = 1; cols <= 40; cols++)
		for (unsigned bits = 1; (1u << bits) <= cols; bits++)
			for (unsigned shift = 0; shift < 3; shift++) {
				cb_fix f = { true, 0, bits, shift };
				perm &= rows_permuted(&f, 16, cols);
			}
	tap_ok(perm, "every swizzle of widths 1..40 is a permutation of each row");
	uint32_t l3[32];
	cb_swizzle_column_lanes(l3, 32, 4, 3, 1, 0, 2);
	tap_ok(l3[0] == 8 && l3[1] == 20,
	       "odd width: column 2 stays in rows 0 and 1 (bytes %u, %u)", l3[0], l3[1]);
}

/* Sub-groups of 2 mod 4 lanes: pairs n, n^1 are tested and n, n^2 is not (it would run past
 * the last lane: the sanitizer build caught a read beyond the tables). */
static void odd_pairs(void)
{
	for (unsigned n = 2; n <= 62; n += 4) {
		uint32_t *off = calloc(n, sizeof *off);
		bool *act = calloc(n, sizeof *act);
		for (unsigned l = 0; l < n; l++) {
			off[l] = (l / 2) * 4;
			act[l] = true;
		}
		cb_prepared p, q;
		bool ok = cb_prepare(&p, 4, 4, off, n) && cb_prepare_active(&q, 4, 4, off, act, n);
		tap_ok(ok && p.packable && q.packable, "%u lanes, pairs on one offset: packable",
		       n);
		if (ok) {
			cb_prepared_free(&p);
			cb_prepared_free(&q);
		}
		off[n - 1] += 4;
		ok = cb_prepare(&p, 4, 4, off, n);
		tap_ok(ok && !p.packable, "%u lanes, the last pair split: not packable", n);
		if (ok)
			cb_prepared_free(&p);
		free(off);
		free(act);
	}
}

/* ---- the documented models (models/): the passes their sources give ------------------- */

/* Passes of LANES (S of them, E bytes) under the model of OP in R; 0 when refused. */
static unsigned doc_passes(const cb_result *r, cb_op op, unsigned e, const uint32_t *l)
{
	cb_model_choice c;
	cb_access_cost cost;
	cb_select_model(r, op, e, &c);
	if (c.source != CB_CHOICE_JOINT || !c.lanes_per_pass || !c.documented)
		return 0;
	return cb_choice_price(&c, e, l, NULL, r->device.subgroup_size, &cost) ? cost.passes : 0;
}

static unsigned doc_stride(const cb_result *r, cb_op op, unsigned e, unsigned s)
{
	cb_stride_lanes(lanes, r->device.subgroup_size, e, s);
	return doc_passes(r, op, e, lanes);
}

/* Lanes of 16-byte accesses in quads: quad q (lanes 4q..4q+3) at the half of the 32 banks that
 * HALF[q % 8] names, each quad 128 bytes after the last (the same banks again). */
static void quads(const unsigned half[8], uint32_t *l)
{
	for (unsigned k = 0; k < 64; k++)
		l[k] = 16 * (k % 4) + 64 * half[(k / 4) % 8] + 128 * (k / 4);
}

typedef struct {
	const char *file;
	unsigned subgroup, s1, s2, s32, s33; /* 4-byte loads at strides 1, 2, 32, 33 */
	unsigned wide8, wide16;              /* 8- and 16-byte loads at stride 1; 0: refused */
	unsigned store_same;                 /* 4-byte stores all on one word */
} doc_case;

static const doc_case doc_cases[] = {
	/* NVIDIA: 32 x 4 B, warps of 32; 8 B in half-warps, 16 B in quarter-warps */
	{ "nvidia/volta-turing.json", 32, 1, 2, 32, 1, 2, 4, 1 },
	{ "nvidia/ampere-ada.json", 32, 1, 2, 32, 1, 2, 4, 1 },
	{ "nvidia/hopper.json", 32, 1, 2, 32, 1, 2, 4, 1 },
	{ "nvidia/blackwell.json", 32, 1, 2, 32, 1, 2, 4, 1 },
	/* CDNA1-3: wave64, b32 per half-wave, b64 16 lanes, b128 8 lanes */
	{ "amd/mi300.json", 64, 2, 4, 64, 2, 4, 8, 2 },
	/* CDNA4: 64 banks, the whole wave at once: stride 32 meets 2 banks, 33 none twice */
	{ "amd/cdna4.json", 64, 1, 2, 32, 1, 0, 0, 1 },
	{ "amd/rdna.json", 32, 1, 2, 32, 1, 0, 0, 1 },
	/* Intel: 16 x 4 B, SIMD16; same-address stores conflict (16 passes) */
	{ "intel/xe-hpg.json", 16, 1, 2, 16, 1, 2, 4, 16 },
	{ "intel/xe-hpc.json", 16, 1, 2, 16, 1, 2, 4, 16 },
};

static void doc_model(const doc_case *k, const char *dir)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/models/%s", dir, k->file);
	cb_result r;
	cb_error err;
	bool ok = cb_doc_read(path, CB_DOC_REQUIRE_TIMES, &r, &err) == CB_OK;
	tap_ok(ok && r.documented && r.nms == 0 && r.device.subgroup_size == k->subgroup &&
		       r.doc.nfacts > 0,
	       "%s: a documented model of %u lanes, no measurements, its facts", k->file,
	       k->subgroup);
	if (!ok) {
		tap_diag("%s", err.text);
		return;
	}
	unsigned s[4] = { doc_stride(&r, CB_OP_LOAD, 4, 1), doc_stride(&r, CB_OP_LOAD, 4, 2),
			  doc_stride(&r, CB_OP_LOAD, 4, 32), doc_stride(&r, CB_OP_LOAD, 4, 33) };
	tap_ok(s[0] == k->s1 && s[1] == k->s2 && s[2] == k->s32 && s[3] == k->s33,
	       "%s: 4-byte strides 1, 2, 32, 33: %u %u %u %u passes (sources: %u %u %u %u)",
	       k->file, s[0], s[1], s[2], s[3], k->s1, k->s2, k->s32, k->s33);
	unsigned w8 = doc_stride(&r, CB_OP_LOAD, 8, 1), w16 = doc_stride(&r, CB_OP_LOAD, 16, 1);
	tap_ok(w8 == k->wide8 && w16 == k->wide16,
	       "%s: 8- and 16-byte loads at stride 1: %u, %u passes (0: refused; sources: %u, %u)",
	       k->file, w8, w16, k->wide8, k->wide16);
	bool why = (w8 || cb_doc_fact_note(&r, CB_OP_LOAD, 8)) &&
		   (w16 || cb_doc_fact_note(&r, CB_OP_LOAD, 16)) &&
		   cb_doc_fact_note(&r, CB_OP_ATOMIC, 0);
	tap_ok(why && doc_stride(&r, CB_OP_ATOMIC, 4, 1) == 0,
	       "%s: a refused size and the atomics say why (not documented)", k->file);
	unsigned st = doc_stride(&r, CB_OP_STORE, 4, 0);
	tap_ok(st == k->store_same, "%s: 4-byte stores on one word: %u passes (sources: %u)",
	       k->file, st, k->store_same);
	cb_result_free(&r);
}

/* CDNA's ds_read_b128 serves lanes {0-3, 20-23}, {4-7, 16-19}, ...; ds_write_b128 lanes 0-7,
 * 8-15, ...: a pattern conflict-free under one grouping is 2-way under the other. */
static void doc_cdna_b128(const char *dir)
{
	static const unsigned contiguous_clash[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const unsigned documented_clash[8] = { 0, 1, 0, 1, 1, 0, 1, 0 };
	char path[1024];
	snprintf(path, sizeof path, "%s/models/amd/mi300.json", dir);
	cb_result r;
	cb_error err;
	if (cb_doc_read(path, 0, &r, &err) != CB_OK) {
		tap_ok(false, "amd/mi300.json: %s", err.text);
		return;
	}
	uint32_t a[64], b[64];
	quads(contiguous_clash, a);
	quads(documented_clash, b);
	unsigned la = doc_passes(&r, CB_OP_LOAD, 16, a), lb = doc_passes(&r, CB_OP_LOAD, 16, b);
	unsigned sa = doc_passes(&r, CB_OP_STORE, 16, a), sb = doc_passes(&r, CB_OP_STORE, 16, b);
	tap_ok(la == 8 && sa == 16,
	       "ds_read_b128 / ds_write_b128, quads 4-7 on the other banks: "
	       "read %u passes (8: conflict-free in the documented groups), write %u (16: 2-way in "
	       "contiguous groups)",
	       la, sa);
	tap_ok(lb == 16 && sb == 8,
	       "ds_read_b128 / ds_write_b128, alternate quads on the other "
	       "banks: read %u passes (16: 2-way in the documented groups), write %u (8)",
	       lb, sb);
	cb_geometry g = r.recorded[CB_OP_LOAD].geom;
	tap_ok(cb_passes(&g, 8, 16, a, 64) == 16 && cb_passes(&g, 8, 16, b, 64) == 8,
	       "the same patterns in contiguous groups of 8 on the loads' geometry: 16 and 8");
	cb_result_free(&r);
	static const uint8_t good[4] = { 1, 0, 3, 2 }, twice[4] = { 0, 1, 1, 3 };
	tap_ok(cb_lane_order_valid(good, 4, 2) && !cb_lane_order_valid(twice, 4, 2) &&
		       !cb_lane_order_valid(good, 4, 3),
	       "a lane order: each lane once, whole groups");
}

/* Volta/Turing's uniform pairs (stated by an NVIDIA engineer): an LDS.128 of lanes that read in
 * pairs takes 2 requests, not 4; stores are not packed. */
static void doc_pairs(const char *dir)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/models/nvidia/volta-turing.json", dir);
	cb_result r;
	cb_error err;
	if (cb_doc_read(path, 0, &r, &err) != CB_OK) {
		tap_ok(false, "nvidia/volta-turing.json: %s", err.text);
		return;
	}
	for (unsigned l = 0; l < 32; l++)
		lanes[l] = 16 * (l / 2); /* lanes n and n^1 on one offset */
	unsigned ld = doc_passes(&r, CB_OP_LOAD, 16, lanes),
		 st = doc_passes(&r, CB_OP_STORE, 16, lanes);
	tap_ok(ld == 2 && st == 4,
	       "volta-turing: 16-byte pairs on one offset: loads %u passes (2), stores %u (4)", ld,
	       st);
	cb_result_free(&r);
}

static void documented(void)
{
	const char *dir = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
	for (size_t i = 0; i < sizeof doc_cases / sizeof *doc_cases; i++)
		doc_model(&doc_cases[i], dir);
	doc_cdna_b128(dir);
	doc_pairs(dir);
}

/* Every sub-group size from 1 to 64 (issue 39's sweep: sizes that are not powers of two, and
 * sizes below a lane group, are where tables were read past their end). For each size, strides,
 * uniform pairs and quads, broadcasts and random tables under four masks: the passes equal the
 * definition, the schedule counts them, the price is one way only when at its minimum, and an explicit
 * lane order that is the identity prices as the contiguous groups. The sanitizer build runs it. */
static void subgroup_sweep(void)
{
	static const unsigned elems[] = { 1, 2, 4, 8, 16 }, groups[] = { 0, 4, 8, 16, 32 };
	static const cb_geometry geoms[] = { { 32, 4, true, false },
					     { 32, 4, true, true },
					     { 16, 4, false, false },
					     { 64, 8, true, false } };
	cb_rng rng;
	cb_rng_seed(&rng, 64);
	unsigned cases = 0, wrong = 0, sched_bad = 0, price_bad = 0, order_bad = 0;
	for (unsigned n = 1; n <= 64; n++)
		for (unsigned pat = 0; pat < 8; pat++)
			for (unsigned mask = 0; mask < 4; mask++) {
				/* Tables of exactly N lanes on the heap, as the callers' are, so that
				 * the sanitizers see a read past their end. */
				uint32_t *off = malloc(n * sizeof *off);
				bool *act = malloc(n * sizeof *act);
				if (!off || !act)
					abort();
				unsigned E = elems[(n + pat) % 5], group = groups[(n + mask) % 5];
				const cb_geometry *g = &geoms[(n + pat + mask) % 4];
				static const unsigned strides[] = { 0, 1, 2, 3, 31, 32, 33 };
				for (unsigned l = 0; l < n; l++) {
					unsigned k = pat < 7 ? l * strides[pat]
							     : cb_rng_below(&rng, 4 * n);
					off[l] = (pat == 0 ? l / 2 : pat == 6 ? l / 4 : k) * E;
					act[l] = mask == 0 || (mask == 1 && l % 2) ||
						 (mask == 2 && l < n / 2 + 1) ||
						 (mask == 3 && cb_rng_below(&rng, 2));
				}
				cases++;
				unsigned passes = cb_passes_active(g, group, E, off, act, n);
				if (!g->pair_packing &&
				    passes != reference(g, group, E, off, act, n))
					wrong++;
				unsigned pol[CB_MAX_LANES], top = 0;
				unsigned sched = cb_pass_schedule(g, group, E, off, act, n, pol);
				for (unsigned l = 0; l < n; l++)
					top = act[l] && pol[l] + 1 > top ? pol[l] + 1 : top;
				sched_bad += sched != passes || top > sched;
				cb_access_cost c;
				bool priced = cb_price_access(g, group, E, off, act, n, &c);
				price_bad += priced != (passes > 0) ||
					     (priced && (c.passes != passes || c.min_passes < 1 ||
							 c.conflict_ways < 1 ||
							 (c.passes <= c.min_passes) !=
								 (c.conflict_ways == 1)));
				unsigned w = group && group < n ? group : 0;
				if (w && n % w == 0) {
					uint8_t order[CB_MAX_ORDER];
					for (unsigned l = 0; l < n; l++)
						order[l] = (uint8_t)l;
					cb_access_cost o;
					bool op = cb_price_access_order(g, w, order, n, E, off, act,
									n, &o);
					order_bad += op != priced || (op && o.passes != c.passes);
				}
				free(off);
				free(act);
			}
	tap_ok(wrong == 0,
	       "sub-groups of 1 to 64 lanes: passes equal the definition (%u of %u differ)", wrong,
	       cases);
	tap_ok(sched_bad == 0,
	       "sub-groups of 1 to 64 lanes: the schedule counts the passes (%u bad)", sched_bad);
	tap_ok(price_bad == 0, "sub-groups of 1 to 64 lanes: prices and their ways agree (%u bad)",
	       price_bad);
	tap_ok(order_bad == 0,
	       "sub-groups of 1 to 64 lanes: an identity lane order prices as "
	       "contiguous groups (%u bad)",
	       order_bad);
}

/* A random lane table of N lanes of E bytes, its offsets among POOL choices in a window. */
static void random_table(cb_rng *rng, unsigned n, unsigned E)
{
	unsigned window = 64u << cb_rng_below(rng, 7), pool = 1 + cb_rng_below(rng, n);
	uint32_t choices[64];
	for (unsigned k = 0; k < pool && k < 64; k++)
		choices[k] = cb_rng_below(rng, window / E) * E;
	for (unsigned l = 0; l < n; l++)
		lanes[l] = choices[cb_rng_below(rng, pool < 64 ? pool : 64)];
}

/* cb_fit_predict_each (one preparation per width, banks per count) gives cb_fit_predict's
 * numbers bit for bit, for flat fits, sizes without a fit, bank counts out of range and
 * packing; and passes of large tables (past the stack's room) equal the definition. */
static void predict_each(void)
{
	static const unsigned elems[] = { 1, 2, 4, 8, 16 }, widths[] = { 4, 8, 16 };
	static const unsigned banks[] = { 0, 3, 16, 32, 32, 64, 5000 };
	cb_rng rng;
	cb_rng_seed(&rng, 7);
	unsigned differ = 0, trials = 300, large = 0;
	for (unsigned t = 0; t < trials; t++) {
		cb_fit fit[12];
		const cb_fit *fits[12];
		size_t n = 1 + cb_rng_below(&rng, 12);
		for (size_t k = 0; k < n; k++) {
			cb_fit *f = &fit[k];
			memset(f, 0, sizeof *f);
			f->flat = cb_rng_below(&rng, 8) == 0;
			f->geom = (cb_geometry){ banks[cb_rng_below(&rng, 7)],
						 widths[cb_rng_below(&rng, 3)],
						 cb_rng_below(&rng, 2), cb_rng_below(&rng, 2) };
			for (int e = 0; e < CB_NELEM; e++) {
				f->lanes_per_pass[e] = cb_rng_below(&rng, 6)
							       ? 4u << cb_rng_below(&rng, 4)
							       : 0;
				f->t0[e] = 0.1 + cb_rng_below(&rng, 1000) / 7.0;
				f->c[e] = cb_rng_below(&rng, 1000) / 3.0;
			}
			fits[k] = f;
		}
		unsigned S = 8u << cb_rng_below(&rng, 6), E = elems[cb_rng_below(&rng, 5)];
		random_table(&rng, S, E);
		double out[12];
		cb_fit_predict_each(fits, n, S, E, lanes, out);
		for (size_t k = 0; k < n; k++) {
			double want = cb_fit_predict(fits[k], S, E, lanes);
			differ += !(memcmp(&want, &out[k], sizeof want) == 0 ||
				    (isnan(want) && isnan(out[k])));
		}
		cb_geometry g = { 2 + cb_rng_below(&rng, 127), widths[cb_rng_below(&rng, 3)],
				  cb_rng_below(&rng, 2), false };
		unsigned big = 128u << cb_rng_below(&rng, 2), group = 4u << cb_rng_below(&rng, 5);
		random_table(&rng, big, 16);
		large += cb_passes(&g, group, 16, lanes, big) !=
			 reference(&g, group, 16, lanes, NULL, big);
	}
	tap_ok(differ == 0,
	       "predictions of one table under several fits equal cb_fit_predict "
	       "(%u of %u trials differ)",
	       differ, trials);
	tap_ok(large == 0, "passes of 128 and 256 lanes of 16 B equal the definition (%u differ)",
	       large);
}

int main(void)
{
	documented();
	odd_pairs();
	subgroup_sweep();
	by_hand();
	random_properties();
	predict_each();
	fix_search();
	return tap_done();
}
