/* SPDX-License-Identifier: MIT */
/*
 * Recording and pricing: every __local access a work-item makes is kept under its site and
 * its iteration key (loop counters and call sites); when the last work-item of a sub-group
 * ends, each (site, key) the sub-group reached is one sub-group access, priced at once and
 * folded into per-site and per-iteration summaries, so memory stays one sub-group deep. Rows
 * and columns of accesses into 2-D arrays are kept compactly for the fix search.
 */
#ifndef CB_LINT_RECORD_H
#define CB_LINT_RECORD_H

#include "lint/lint_prog.h"

typedef struct {
	int64_t lo, hi;
	int32_t obj, row, col;
	uint32_t line; /* the assumed branch's line, 0 when none or not known */
	uint8_t state; /* 0 not reached, 1 reached, 2 reached twice under one key */
	uint8_t assumed;
	uint8_t unseen; /* the address depends on calls lint does not evaluate: its
				   * CB_VF_UNSEEN and CB_VF_CALLEE bits */
	uint8_t cause;  /* its CB_VF_CAUSES bits, shifted down by 8 */
} cb_lane_rec;

typedef struct {
	bool reached, unknown, assumed;
	unsigned passes, min_passes;
} cb_key_sum;

typedef enum {
	CB_WHY_NONE,
	CB_WHY_DATA,
	CB_WHY_OBJECTS,
	CB_WHY_POINTER,
	CB_WHY_BOUNDS,
	CB_WHY_MODEL,
	CB_WHY_AMBIGUOUS,
	CB_WHY_CALL,
	CB_WHY_UNSEEN /* an offset or pointer from a call lint does not evaluate */
} cb_why;

typedef struct {
	/* iteration keys, in the order the work-group first reached them */
	uint32_t nkeys, keycap, hcap;
	uint32_t *keyoff, *hash, *keydata;
	uint8_t *keylen;
	size_t kdlen, kdcap;
	cb_key_sum *sum;
	/* the sub-group in flight */
	uint32_t *block; /* per key: its lanes in the recorder's pool */
	uint32_t *touched, *stamp;
	uint32_t ntouched;
	/* the whole work-group */
	unsigned subgroups, first_sg, nfirst;
	cb_lint_lane *first;
	bool any, range_known, unknown, assumed, priced, conflict;
	uint32_t assumed_line;
	int64_t lo, hi;
	int32_t obj; /* the object, CB_OBJ_MULTI when several, -1 before any */
	cb_why why;
	int64_t why_lo, why_hi;
	uint8_t unseen_calls; /* CB_VF_CALLEE bits of the lanes an unseen call made unknown */
	uint8_t causes;       /* the cause bits of the lanes whose offsets are not known */
	unsigned passes_max, min_max, ways;
	uint64_t total, total_min; /* passes over every priced sub-group access, and minimum */
	/* fix search data: per sub-group access, nlanes then (row << 16 | col) or ~0 */
	bool fix_ok; /* fix data kept for every priced sub-group access */
	char fix_note[128];
	uint32_t *fix;
	size_t nfix, fixcap;
	cb_lint_tables tables; /* with keep_tables: the distinct lane tables priced */
} cb_site_rec;

/* Lane records of one sub-group in flight, and words of fix data, at most (memory stays
 * bounded when a loop runs long: the run stops with an error instead). */
#define CB_REC_LANES ((size_t)1 << 20)
#define CB_FIX_WORDS ((size_t)16 << 20)

typedef struct cb_recorder {
	const cb_prog *prog;
	const cb_lint_pricer *pricer;
	unsigned subgroup, sg; /* lanes per sub-group; the sub-group in flight */
	cb_site_rec *sites;
	cb_lane_rec *pool; /* blocks of subgroup lane records, one per (site, key) */
	size_t pool_used, pool_cap;
	size_t fix_words; /* fix data kept, all sites */
	bool overflow;    /* more lane records than CB_REC_LANES in one sub-group */
	uint32_t *offsets, *seq;
	bool *active;
	bool keep_tables; /* keep each site's distinct lane tables */
	void (*observe)(void *ctx, const cb_lint_sample *s);
	void *observe_ctx;
	/* Recorders of other models of the same sub-group size (several --model): every access
	 * and flush goes to each, so one simulation feeds them all; NULL when alone. */
	struct cb_recorder *next;
} cb_recorder;

void cb_rec_init(cb_recorder *r, const cb_prog *prog, const cb_lint_pricer *pricer);
void cb_rec_free(cb_recorder *r);
/* Records one lane's access in R and in every recorder chained after it (next). */
void cb_rec_access(cb_recorder *r, int32_t site, const uint32_t *key, unsigned klen, unsigned lane,
		   const cb_val *ptr, bool assumed, uint32_t line);

#endif
