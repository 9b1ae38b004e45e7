/* SPDX-License-Identifier: MIT */
/* The interpreter: runs one work-item of the translated kernel to its end, recording every
 * __local access (lint_record.h); private memory lives in lint_mem.h. */
#ifndef CB_LINT_INTERP_H
#define CB_LINT_INTERP_H

#include "lint/lint_mem.h"
#include "lint/lint_prog.h"
#include "lint/lint_record.h"

#define CB_MAX_DEPTH 64  /* nested calls */
#define CB_MAX_ASSUME 16 /* nested assumed regions per frame */
#define CB_ITEM_STEPS 20000000ull
/* The whole work-group's budget (its first run, and again the later runs of the other sides
 * of undecidable branches together): some seconds of simulation. Without it, a loop just
 * under CB_ITEM_STEPS in each of 1024 work-items ran for minutes, silently. */
#define CB_GROUP_STEPS 200000000ull
#define CB_STOP_POLL 65536u    /* instructions between two looks at cb_stop_signal (power of 2) */
#define CB_MAX_KEY 32          /* words of an iteration key */
#define CB_DECIDED 0x80000000u /* with a line: the branch was decided by assumed values */

typedef struct {
	unsigned local[3], group[3], work_dim, subgroup;
	unsigned num_groups[3]; /* from --global; 0 when not known */
} cb_wg;

typedef struct {
	const cb_fn *fn;
	cb_val *v;
	uint32_t *iter; /* one counter per loop of fn */
	uint32_t block;
	uint32_t call_ins; /* the call instruction in the caller */
	int32_t assume
		[CB_MAX_ASSUME]; /* end blocks (immediate post-dominators) of assumed regions */
	uint32_t assume_line[CB_MAX_ASSUME];
	bool assume_guess[CB_MAX_ASSUME]; /* the region is a side of a branch that is no loop
					   * test (which side ran is a guess) */
	uint32_t nassume;
	bool assumed_base; /* called under an assumption, or too many nested */
	bool guess_base;   /* ... under a guessed side */
	uint32_t base_line;
} cb_frame;

/* A branch that could not be decided: which side was taken. */
typedef struct {
	uint32_t fn, block, taken, line;
} cb_assumed_branch;

/* Which sides of the two-sided undecidable branches the runs of the work-group took: per
 * function, per block, CB_SIDE_BRANCH | CB_SIDE_TRUE | CB_SIDE_FALSE (NULL: none met). */
#define CB_SIDE_TRUE 1u
#define CB_SIDE_FALSE 2u
#define CB_SIDE_BRANCH 4u
typedef struct {
	uint8_t **taken;
	bool *fn_open; /* per function: it, or one it calls, has a branch with a side
				   * no run took */
} cb_sides;

typedef struct cb_interp {
	const cb_prog *prog;
	cb_wg wg;
	const cb_val *argv; /* kernel argument values (private aggregates made per item) */
	unsigned lid[3], linear;
	cb_arena arena;
	cb_pobj *pobj;
	uint32_t npobj, pobjcap;
	cb_frame frames[CB_MAX_DEPTH];
	uint32_t depth;
	uint64_t steps, item_steps;
	bool stopped; /* the work-item reached unreachable */
	cb_recorder *rec;
	cb_assumed_branch *assumed;
	uint32_t nassumed, assumedcap;
	/* Undecidable branches (not loop tests) whose two sides both hold __local accesses or
	 * calls take their true side in the first run of the work-group. Later runs (`prev`:
	 * the sides the runs before took) take a side no run took yet, and at a branch whose
	 * sides were both taken, the side that leads to such a branch, so that nested sides
	 * (an else inside a then) are priced too. A side without any (an early return) is never
	 * taken. `flip`: a later run. An undecidable switch takes its default in the first run
	 * and case k in run k (`run`); `want`: the runs its cases need. */
	bool flip;
	unsigned run, want;
	bool two_sided; /* such a branch was met: another run is worth making */
	const cb_sides *prev;
	cb_sides sides;      /* the sides this run took (taken only) */
	cb_sides all;        /* the first run's: the sides every run took */
	unsigned runs;       /* the first run's: runs of the work-group made */
	uint8_t **side_work; /* per function and block: 0 not computed, else 1 + bits
				   * (1: the true side has work, 2: the false side) */
} cb_interp;

void cb_interp_init(cb_interp *in, const cb_prog *prog, const cb_wg *wg, const cb_val *argv,
		    cb_recorder *rec);
void cb_interp_free(cb_interp *in);
/* Does a block for which PRED holds lie on a path from a block of FROM (N of them) that does
 * not pass block END (-1: none)? A walk over F's successors. */
bool cb_fn_reaches(const cb_fn *f, const uint32_t *from, size_t n, int32_t end,
		   bool (*pred)(const cb_fn *f, uint32_t block, const void *ctx), const void *ctx);
/* Adds the sides IN's run took to ALL; true when it took one no run before had. */
bool cb_sides_merge(cb_sides *all, const cb_interp *in);
/* Marks the functions that hold (or call one that holds) a branch with a side not taken;
 * true when there is any. */
bool cb_sides_open(cb_sides *all, const cb_prog *p);
void cb_sides_free(cb_sides *s, const cb_prog *p);
/* Runs the work-item with linear local id LINEAR. */
cb_rc cb_interp_item(cb_interp *in, unsigned linear, cb_error *err);

#endif
