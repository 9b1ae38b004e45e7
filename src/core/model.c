/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/model.h"
#include "core/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

bool cb_prepare(cb_prepared *p, unsigned width, unsigned elem_bytes, const uint32_t *offsets,
		unsigned nlanes)
{
	return cb_prepare_active(p, width, elem_bytes, offsets, NULL, nlanes);
}

/* Inactive lanes touch no word; a pair counts as uniform when both lanes are inactive, or both
 * active on the same offset. */
static bool lanes_pair(const uint32_t *offsets, const bool *active, unsigned a, unsigned b)
{
	if (!active)
		return offsets[a] == offsets[b];
	if (!active[a] || !active[b])
		return active[a] == active[b];
	return offsets[a] == offsets[b];
}

/* Slots of the word map below kept on the stack: every table of up to 512 lane-words (a
 * sub-group of 64 with 16-byte elements at any width of 4 bytes or more). cb_passes runs
 * millions of times on small tables (predictions, advice): its mallocs were half its time. */
#define STACK_SLOTS 1024

/* Word W's first slot of 2^BITS: the high bits of Fibonacci hashing. The low bits (as before)
 * are the same for every word of a stride of 2^k words, so a column walk's words crowded into
 * one run of slots and each lookup walked it. */
static unsigned word_slot(uint32_t w, unsigned bits)
{
	return (unsigned)((w * 2654435761u) >> (32 - bits));
}

/* Whether P's words (lane-major) rise strictly: then no word repeats (most strides). */
static bool words_rise(const cb_prepared *p)
{
	for (unsigned k = 1; k < p->nwords; k++)
		if (p->words[k] <= p->words[k - 1])
			return false;
	return true;
}

/* P's prev_lane, by a small open-addressing map from word to the last lane that touched it
 * (none when the words rise: no map). */
static void find_prev_lanes(cb_prepared *p)
{
	if (words_rise(p)) {
		for (unsigned k = 0; k < p->nwords; k++)
			p->prev_lane[k] = -1;
		return;
	}
	unsigned size = 16, bits = 4, k = p->nwords;
	while (size < 2 * k) {
		size *= 2;
		bits++;
	}
	uint32_t keys_s[STACK_SLOTS];
	int32_t vals_s[STACK_SLOTS];
	bool used_s[STACK_SLOTS];
	bool small = size <= STACK_SLOTS;
	uint32_t *keys = small ? keys_s : cb_xmalloc(size * sizeof *keys);
	int32_t *vals = small ? vals_s : cb_xmalloc(size * sizeof *vals);
	bool *used = small ? used_s : cb_xmalloc(size * sizeof *used);
	memset(used, 0, size * sizeof *used);
	for (unsigned l = 0; l < p->nlanes; l++) {
		/* First look all of this lane's words up, then record the lane, so that a lane's
		 * own words never count as an earlier lane. */
		for (unsigned j = p->lane_first[l]; j < p->lane_first[l + 1]; j++) {
			uint32_t w = p->words[j];
			unsigned h = word_slot(w, bits);
			p->prev_lane[j] = -1;
			while (used[h]) {
				if (keys[h] == w) {
					p->prev_lane[j] = vals[h];
					break;
				}
				h = (h + 1) & (size - 1);
			}
		}
		for (unsigned j = p->lane_first[l]; j < p->lane_first[l + 1]; j++) {
			uint32_t w = p->words[j];
			unsigned h = word_slot(w, bits);
			while (used[h] && keys[h] != w)
				h = (h + 1) & (size - 1);
			used[h] = true;
			keys[h] = w;
			vals[h] = (int32_t)l;
		}
	}
	if (!small) {
		free(keys);
		free(vals);
		free(used);
	}
}

/* The lane-words a table of NLANES lanes of ELEM_BYTES may touch at WIDTH, at most. */
static unsigned words_cap(unsigned width, unsigned elem_bytes, unsigned nlanes)
{
	return nlanes * (elem_bytes / width + 2);
}

/* Fills P (its arrays allocated: nlanes + 1 lane_first, words_cap words and prev_lane). */
static void fill_prepared(cb_prepared *p, unsigned width, unsigned elem_bytes,
			  const uint32_t *offsets, const bool *active, unsigned nlanes)
{
	p->width = width;
	p->elem_bytes = elem_bytes;
	p->nlanes = nlanes;
	unsigned k = 0;
	for (unsigned l = 0; l < nlanes; l++) {
		uint64_t first = offsets[l] / width;
		uint64_t last = ((uint64_t)offsets[l] + elem_bytes - 1) / width;
		p->lane_first[l] = k;
		if (active && !active[l])
			continue;
		for (uint64_t w = first; w <= last; w++)
			p->words[k++] = (uint32_t)w;
	}
	p->lane_first[nlanes] = k;
	p->nwords = k;
	bool pair1 = nlanes % 2 == 0, pair2 = nlanes % 4 == 0;
	/* Each test only while it holds: for 2 mod 4 lanes l ^ 2 runs past the last lane. */
	for (unsigned l = 0; l < nlanes && (pair1 || pair2); l++) {
		pair1 = pair1 && lanes_pair(offsets, active, l, l ^ 1u);
		pair2 = pair2 && lanes_pair(offsets, active, l, l ^ 2u);
	}
	p->packable = pair1 || pair2;
	find_prev_lanes(p);
}

static bool preparable(unsigned width, unsigned elem_bytes, unsigned nlanes)
{
	return width != 0 && elem_bytes != 0 && nlanes != 0 && nlanes <= CB_MAX_LANES;
}

bool cb_prepare_active(cb_prepared *p, unsigned width, unsigned elem_bytes, const uint32_t *offsets,
		       const bool *active, unsigned nlanes)
{
	memset(p, 0, sizeof *p);
	if (!preparable(width, elem_bytes, nlanes))
		return false;
	unsigned cap = words_cap(width, elem_bytes, nlanes);
	p->lane_first = cb_xmalloc((nlanes + 1) * sizeof *p->lane_first);
	p->words = cb_xmalloc(cap * sizeof *p->words);
	p->prev_lane = cb_xmalloc((cap ? cap : 1) * sizeof *p->prev_lane);
	fill_prepared(p, width, elem_bytes, offsets, active, nlanes);
	return true;
}

void cb_prepared_free(cb_prepared *p)
{
	free(p->words);
	free(p->lane_first);
	free(p->prev_lane);
	memset(p, 0, sizeof *p);
}

unsigned cb_effective_group(const cb_prepared *p, bool pair_packing, unsigned group)
{
	if (group == 0 || group >= p->nlanes)
		return p->nlanes;
	if (pair_packing && p->packable)
		return 2 * group < p->nlanes ? 2 * group : p->nlanes;
	return group;
}

void cb_prepared_banks(const cb_prepared *p, unsigned banks, uint16_t *bank_of_word)
{
	if ((banks & (banks - 1)) == 0) {
		uint32_t mask = banks - 1;
		for (unsigned k = 0; k < p->nwords; k++)
			bank_of_word[k] = (uint16_t)(p->words[k] & mask);
	} else {
		for (unsigned k = 0; k < p->nwords; k++)
			bank_of_word[k] = (uint16_t)(p->words[k] % banks);
	}
}

unsigned cb_prepared_passes(const cb_prepared *p, const uint16_t *bank_of_word, unsigned banks,
			    bool broadcast, unsigned group)
{
	/* Per-bank counters, zeroed for the banks a group touches before it counts (no reset of
	 * every bank per call: the analysis calls this for up to 128 banks and 32 words, millions
	 * of times). */
	uint16_t count[CB_MAX_BANKS];
	unsigned total = 0;

	if (banks == 0 || banks > CB_MAX_BANKS)
		return 0;
	if (group == 0 || group > p->nlanes)
		group = p->nlanes;
	for (unsigned g0 = 0; g0 < p->nlanes; g0 += group) {
		unsigned g1 = g0 + group < p->nlanes ? g0 + group : p->nlanes;
		unsigned worst = 0, k0 = p->lane_first[g0], k1 = p->lane_first[g1];
		for (unsigned k = k0; k < k1; k++)
			count[bank_of_word[k]] = 0;
		/* Broadcast: a word already touched by an earlier lane of this group is free. The
		 * two loops apart: the branch inside one was a sixth of its instructions. */
		if (broadcast) {
			for (unsigned k = k0; k < k1; k++) {
				if (p->prev_lane[k] >= (int32_t)g0)
					continue;
				unsigned c = ++count[bank_of_word[k]];
				worst = c > worst ? c : worst;
			}
		} else {
			for (unsigned k = k0; k < k1; k++) {
				unsigned c = ++count[bank_of_word[k]];
				worst = c > worst ? c : worst;
			}
		}
		total += worst;
	}
	return total;
}

/* One group's lanes [G0, G1): pass within the group of each lane (UINT_MAX for a lane that
 * touches no word: inactive); returns the group's passes. */
static unsigned schedule_group(const cb_prepared *p, const uint16_t *bank_of_word,
			       const cb_geometry *g, unsigned g0, unsigned g1,
			       unsigned *pass_of_lane)
{
	uint16_t count[CB_MAX_BANKS] = { 0 };
	unsigned worst = 0;
	for (unsigned l = g0; l < g1; l++) {
		unsigned pass = 0;
		if (p->lane_first[l] == p->lane_first[l + 1]) {
			pass_of_lane[l] = UINT_MAX;
			continue;
		}
		for (unsigned k = p->lane_first[l]; k < p->lane_first[l + 1]; k++) {
			int32_t prev = p->prev_lane[k];
			unsigned here;
			if (g->broadcast && prev >= (int32_t)g0)
				here = pass_of_lane[prev]; /* the earlier lane's word: its pass */
			else
				here = count[bank_of_word[k]]++;
			pass = here > pass ? here : pass;
		}
		pass_of_lane[l] = pass;
		worst = pass + 1 > worst ? pass + 1 : worst;
	}
	return worst;
}

/* Lane-words and lanes of a table kept on the stack (as STACK_SLOTS: any table of a sub-group
 * of 64 at width 4 or more). */
#define STACK_WORDS 512
#define STACK_LANES 64

/* A table prepared for G, the bank of each of its words and the lanes served together: what
 * the passes and the schedule share, on the stack when small. False when the table cannot be
 * modelled. */
typedef struct {
	cb_prepared p;
	uint16_t *banks;
	unsigned eff;
	bool heap; /* p and banks allocated, else the arrays below */
	uint32_t words[STACK_WORDS], lane_first[STACK_LANES + 1];
	int32_t prev_lane[STACK_WORDS];
	uint16_t bank[STACK_WORDS];
} banked;

static bool bank_table(const cb_geometry *g, unsigned group, unsigned elem_bytes,
		       const uint32_t *offsets, const bool *active, unsigned nlanes, banked *b)
{
	if (!g || g->banks == 0 || g->banks > CB_MAX_BANKS ||
	    !preparable(g->width, elem_bytes, nlanes))
		return false;
	b->heap = words_cap(g->width, elem_bytes, nlanes) > STACK_WORDS || nlanes > STACK_LANES;
	if (b->heap) {
		cb_prepare_active(&b->p, g->width, elem_bytes, offsets, active, nlanes);
		b->banks = cb_xmalloc((b->p.nwords ? b->p.nwords : 1) * sizeof *b->banks);
	} else {
		memset(&b->p, 0, sizeof b->p);
		b->p.words = b->words;
		b->p.lane_first = b->lane_first;
		b->p.prev_lane = b->prev_lane;
		fill_prepared(&b->p, g->width, elem_bytes, offsets, active, nlanes);
		b->banks = b->bank;
	}
	cb_prepared_banks(&b->p, g->banks, b->banks);
	b->eff = cb_effective_group(&b->p, g->broadcast && g->pair_packing, group);
	return true;
}

static void banked_free(banked *b)
{
	if (!b->heap)
		return;
	free(b->banks);
	cb_prepared_free(&b->p);
}

unsigned cb_pass_schedule(const cb_geometry *g, unsigned group, unsigned elem_bytes,
			  const uint32_t *offsets, const bool *active, unsigned nlanes,
			  unsigned *pass_of_lane)
{
	banked b;
	if (!bank_table(g, group, elem_bytes, offsets, active, nlanes, &b))
		return 0;
	const cb_prepared p = b.p;
	const uint16_t *banks = b.banks;
	unsigned eff = b.eff, total = 0;
	for (unsigned g0 = 0; g0 < p.nlanes; g0 += eff) {
		unsigned g1 = g0 + eff < p.nlanes ? g0 + eff : p.nlanes;
		unsigned n = schedule_group(&p, banks, g, g0, g1, pass_of_lane);
		for (unsigned l = g0; l < g1; l++)
			if (pass_of_lane[l] != UINT_MAX)
				pass_of_lane[l] += total;
		total += n;
	}
	banked_free(&b);
	return total;
}

/* P passes against M for the same lanes in order: the cost, false when either is 0. */
static bool fill_cost(unsigned p, unsigned m, cb_access_cost *cost)
{
	if (!p || !m)
		return false;
	cost->passes = p;
	cost->min_passes = m;
	cost->conflict_ways = p > m ? (p + m - 1) / m : 1;
	cost->slowdown = (double)p / m;
	return true;
}

bool cb_price_access(const cb_geometry *g, unsigned group, unsigned elem_bytes,
		     const uint32_t *offsets, const bool *active, unsigned nlanes,
		     cb_access_cost *cost)
{
	memset(cost, 0, sizeof *cost);
	if (nlanes == 0 || nlanes > CB_MAX_LANES)
		return false;
	uint32_t seq[CB_MAX_LANES];
	for (unsigned l = 0; l < nlanes; l++)
		seq[l] = l * elem_bytes;
	unsigned p = cb_passes_active(g, group, elem_bytes, offsets, active, nlanes);
	unsigned m = cb_passes_active(g, group, elem_bytes, seq, active, nlanes);
	return fill_cost(p, m, cost);
}

unsigned cb_passes(const cb_geometry *g, unsigned group, unsigned elem_bytes,
		   const uint32_t *offsets, unsigned nlanes)
{
	return cb_passes_active(g, group, elem_bytes, offsets, NULL, nlanes);
}

unsigned cb_passes_active(const cb_geometry *g, unsigned group, unsigned elem_bytes,
			  const uint32_t *offsets, const bool *active, unsigned nlanes)
{
	banked b;
	if (!bank_table(g, group, elem_bytes, offsets, active, nlanes, &b))
		return 0;
	unsigned passes = cb_prepared_passes(&b.p, b.banks, g->banks, g->broadcast, b.eff);
	banked_free(&b);
	return passes;
}

bool cb_lane_order_valid(const uint8_t *order, unsigned n, unsigned group)
{
	bool seen[CB_MAX_ORDER] = { false };
	if (!order || n == 0 || n > CB_MAX_ORDER || group == 0 || n % group)
		return false;
	for (unsigned i = 0; i < n; i++) {
		if (order[i] >= n || seen[order[i]])
			return false;
		seen[order[i]] = true;
	}
	return true;
}

/* Position i of the permuted table holds lane ORDER[i]: its offset and whether it is active. */
static void permute(const uint8_t *order, unsigned n, const uint32_t *offsets, const bool *active,
		    uint32_t *p_off, bool *p_act)
{
	for (unsigned i = 0; i < n; i++) {
		p_off[i] = offsets[order[i]];
		p_act[i] = !active || active[order[i]];
	}
}

static bool ordered(const uint8_t *order, unsigned norder, unsigned nlanes)
{
	return order && norder == nlanes && nlanes <= CB_MAX_ORDER;
}

bool cb_price_access_order(const cb_geometry *g, unsigned group, const uint8_t *order,
			   unsigned norder, unsigned elem_bytes, const uint32_t *offsets,
			   const bool *active, unsigned nlanes, cb_access_cost *cost)
{
	if (!ordered(order, norder, nlanes))
		return cb_price_access(g, group, elem_bytes, offsets, active, nlanes, cost);
	memset(cost, 0, sizeof *cost);
	uint32_t off[CB_MAX_ORDER] = { 0 }, seq[CB_MAX_ORDER] = { 0 };
	bool act[CB_MAX_ORDER] = { false };
	permute(order, nlanes, offsets, active, off, act);
	for (unsigned i = 0; i < nlanes; i++)
		seq[i] = order[i] * elem_bytes; /* lane l at element l, wherever it stands */
	unsigned p = cb_passes_active(g, group, elem_bytes, off, act, nlanes);
	unsigned m = cb_passes_active(g, group, elem_bytes, seq, act, nlanes);
	return fill_cost(p, m, cost);
}

unsigned cb_pass_schedule_order(const cb_geometry *g, unsigned group, const uint8_t *order,
				unsigned norder, unsigned elem_bytes, const uint32_t *offsets,
				const bool *active, unsigned nlanes, unsigned *pass_of_lane)
{
	if (!ordered(order, norder, nlanes))
		return cb_pass_schedule(g, group, elem_bytes, offsets, active, nlanes,
					pass_of_lane);
	uint32_t off[CB_MAX_ORDER] = { 0 };
	bool act[CB_MAX_ORDER] = { false };
	unsigned pass[CB_MAX_ORDER];
	permute(order, nlanes, offsets, active, off, act);
	unsigned n = cb_pass_schedule(g, group, elem_bytes, off, act, nlanes, pass);
	for (unsigned i = 0; n && i < nlanes; i++)
		pass_of_lane[order[i]] = pass[i];
	return n;
}
