/* SPDX-License-Identifier: MIT */
/*
 * The bank model. A geometry is B banks of W bytes: byte address a lies in bank (a / W) % B,
 * row a / (W * B). An access of E bytes at offset o touches the W-byte words
 * o / W .. (o + E - 1) / W. Lanes are served in fixed contiguous groups of g lanes (g = the
 * whole table when g is 0 or not smaller than the table). Within a group, each bank serves one
 * word per pass; with broadcast (multicast too) lanes that touch the same word share it.
 *
 *   passes = sum over groups of max over banks of (distinct words, or accesses without broadcast)
 *
 * Pair packing (NVIDIA Volta and later, for loads split into lane groups): when every lane n
 * reads what lane n^1 reads, or every lane n what lane n^2 reads, each request carries two
 * lanes per word and a group serves twice as many lanes. The model applies it only when the
 * geometry says so, and inference chooses it only when the data ask for it.
 *
 * This is the one definition used by inference, predict and the tests.
 */
#ifndef CB_MODEL_H
#define CB_MODEL_H

#include "core/ops.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CB_MAX_LANES 1024
#define CB_MAX_BANKS 4096
/* The most lanes an explicit lane grouping (below) may order. */
#define CB_MAX_ORDER 64

typedef struct {
	unsigned banks;    /* B */
	unsigned width;    /* W, bytes */
	bool broadcast;    /* lanes touching the same word are served together (multicast too) */
	bool pair_packing; /* uniform lane pairs double the group (needs broadcast) */
} cb_geometry;

static inline bool cb_geometry_equal(const cb_geometry *a, const cb_geometry *b)
{
	return a->banks == b->banks && a->width == b->width && a->broadcast == b->broadcast &&
	       a->pair_packing == b->pair_packing;
}

/* A lane table prepared for one bank width: the words each lane touches, and for each word the
 * last earlier lane that touched the same word (so merging within any grouping is cheap). */
typedef struct {
	unsigned width, elem_bytes, nlanes;
	unsigned nwords; /* total lane-words */
	uint32_t *words; /* word index of each lane-word, lane-major */
	uint32_t *
		lane_first; /* nlanes + 1 entries: words of lane l are [lane_first[l], lane_first[l+1]) */
	int32_t *prev_lane; /* last earlier lane touching the same word, or -1 */
	bool packable;      /* all lanes n, n^1 (or all n, n^2) read the same offset */
} cb_prepared;

/* Returns false when the table cannot be modelled (too many lanes, width 0). */
bool cb_prepare(cb_prepared *p, unsigned width, unsigned elem_bytes, const uint32_t *offsets,
		unsigned nlanes);
/* The same with an ACTIVE mask (NULL = every lane): an inactive lane touches no word but keeps
 * its position, so lane groups stay where the hardware puts them. */
bool cb_prepare_active(cb_prepared *p, unsigned width, unsigned elem_bytes, const uint32_t *offsets,
		       const bool *active, unsigned nlanes);
void cb_prepared_free(cb_prepared *p);

/* Bank of every lane-word of P for BANKS banks (reused across groupings and broadcast rules). */
void cb_prepared_banks(const cb_prepared *p, unsigned banks, uint16_t *bank_of_word);

/* Lanes served together for a prepared table: GROUP, doubled when pair packing applies. */
unsigned cb_effective_group(const cb_prepared *p, bool pair_packing, unsigned group);

/* Passes of a prepared table given its banks; GROUP lanes per pass (0 = whole table), taken
 * as given (callers apply cb_effective_group). */
unsigned cb_prepared_passes(const cb_prepared *p, const uint16_t *bank_of_word, unsigned banks,
			    bool broadcast, unsigned group);

/* Passes of one lane table: the whole computation in one call (predict, tests). Returns 0 when
 * the table cannot be modelled. */
unsigned cb_passes(const cb_geometry *g, unsigned group, unsigned elem_bytes,
		   const uint32_t *offsets, unsigned nlanes);
/* The same for the lanes of ACTIVE (NULL = all; a divergent branch leaves some out): inactive
 * lanes take no part but keep their position in the lane groups; pair packing needs every pair
 * active on one offset or inactive together. 0 when nothing is active. */
unsigned cb_passes_active(const cb_geometry *g, unsigned group, unsigned elem_bytes,
			  const uint32_t *offsets, const bool *active, unsigned nlanes);

/* What one sub-group access costs: the one pricing that predict, lint, advice and the views
 * share. */
typedef struct {
	unsigned passes;        /* 0: the table cannot be modelled */
	unsigned min_passes;    /* the same active lanes reading consecutive elements */
	unsigned conflict_ways; /* passes over the minimum, rounded up; 1 when conflict-free */
	double slowdown;        /* passes / min_passes */
} cb_access_cost;

/* Prices OFFSETS (ACTIVE: NULL = every lane) under G with GROUP lanes per pass; false when the
 * table cannot be modelled (COST then says 0 passes). */
bool cb_price_access(const cb_geometry *g, unsigned group, unsigned elem_bytes,
		     const uint32_t *offsets, const bool *active, unsigned nlanes,
		     cb_access_cost *cost);

/* Which pass serves each lane (PASS_OF_LANE, NLANES entries; UINT_MAX for a lane ACTIVE
 * leaves out, NULL = all active), as cb_passes_active counts them: in
 * its group, the k-th distinct word of a bank goes to the group's k-th pass (a lane spanning
 * several words, to the latest); a lane on a word an earlier lane of the group touched shares
 * that lane's pass (broadcast). Returns the passes, 0 when the table cannot be modelled. With
 * pair packing (a group twice as wide), the same rule over the wider group. */
unsigned cb_pass_schedule(const cb_geometry *g, unsigned group, unsigned elem_bytes,
			  const uint32_t *offsets, const bool *active, unsigned nlanes,
			  unsigned *pass_of_lane);

/* Lanes served in groups that are not contiguous (AMD CDNA's ds_read_b128: lanes 0-3 with
 * 20-23, 4-7 with 16-19, ...): ORDER lists the NORDER lanes group after group, GROUP lanes
 * each, so that the k-th group is ORDER[k * GROUP .. (k + 1) * GROUP). The table is priced as if
 * lane ORDER[i] stood at position i; the conflict-free minimum is that of lane l reading
 * element l, as in cb_price_access. ORDER NULL (or NORDER other than NLANES): contiguous
 * groups, exactly cb_price_access. */
bool cb_price_access_order(const cb_geometry *g, unsigned group, const uint8_t *order,
			   unsigned norder, unsigned elem_bytes, const uint32_t *offsets,
			   const bool *active, unsigned nlanes, cb_access_cost *cost);
/* cb_pass_schedule with such an ORDER; PASS_OF_LANE is by lane, as there. */
unsigned cb_pass_schedule_order(const cb_geometry *g, unsigned group, const uint8_t *order,
				unsigned norder, unsigned elem_bytes, const uint32_t *offsets,
				const bool *active, unsigned nlanes, unsigned *pass_of_lane);
/* Is ORDER (N entries) each lane 0..N-1 once, N a multiple of GROUP (N <= CB_MAX_ORDER)? */
bool cb_lane_order_valid(const uint8_t *order, unsigned n, unsigned group);

#endif
