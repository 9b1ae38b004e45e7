/* SPDX-License-Identifier: MIT */
/*
 * The adaptive design: which lane tables of a pool (the full default plan) to measure next,
 * and when to stop. Pure code: the run (measure/adaptive.c) and the tests drive it alike.
 *
 * Per op, in phases:
 *   start   strides 0, 1, 2, 8 and 32 of every element size;
 *   search  batches of the tables where the leading models of the posterior (the same family
 *           and fit as analyze, cb_infer_leaders) disagree most: for each leader after the
 *           best, in order of weight, the table whose predicted time differs most between it
 *           and the best. Every kind of the pool (stride, two-address, lane-pair, pool, split,
 *           swizzle) is a candidate; random tables are kept for validation;
 *   final   when the verdict is decided (banked or not banked at the target confidence), or
 *           decided but for the run's noise (the run factor alone keeps a banked verdict
 *           below the target: more tables cannot help), or no table separates the leaders,
 *           or the search's batches are spent: the random
 *           tables (validation), the strides the report prints (loads), and the tables the
 *           advice's padding and swizzles cite;
 *   done    unless the final tables took the confidence below the target: then the search
 *           resumes while batches are left.
 * Each batch is logged with its reason; each op ends with a stop reason.
 */
#ifndef CB_DESIGN_H
#define CB_DESIGN_H

#include "core/result.h"

#include <stdbool.h>
#include <stddef.h>

/* The confidence at which a verdict is decided. */
#define CB_DESIGN_TARGET 0.95
/* Tables one search batch adds per op, and the most search batches per op. */
#define CB_DESIGN_BATCH 6
#define CB_DESIGN_MAX_SEARCH 6

typedef enum { CB_DESIGN_START, CB_DESIGN_SEARCH, CB_DESIGN_FINAL, CB_DESIGN_DONE } cb_design_phase;

typedef struct {
	size_t nms;
	bool *taken; /* pool measurement chosen (measured or about to be) */
	bool present[CB_NOPS];
	cb_design_phase phase[CB_NOPS];
	unsigned searches[CB_NOPS];
	bool was_flat[CB_NOPS];   /* not banked at the batch before */
	bool was_misfit[CB_NOPS]; /* no bank model fitted at the batch before */
	double target;
	cb_design_batch *log; /* every batch, in order */
	size_t nlog;
	char *stop[CB_NOPS];
} cb_design;

/* A design over POOL's measurements (their order is the index the batches give). */
void cb_design_init(cb_design *d, const cb_result *pool);
void cb_design_free(cb_design *d);

/* The next batch: measurement indices of RES (the pool, with times where measured and NAN
 * where not, analyzed) into OUT (room for res->nms); returns their count, 0 when every op is
 * done. Each op contributes to the same batch. Fails only when interrupted. */
cb_rc cb_design_next(cb_design *d, const cb_result *res, size_t *out, size_t *n, cb_error *err);

/* After cb_design_next chose a batch: how many batches may follow it, at most, unless a
 * final batch takes a decided verdict below the target (then the search resumes): each op's
 * searches left and its final batch, the ops' batches being shared. For a progress estimate. */
size_t cb_design_batches_left(const cb_design *d);

/* Moves the log and the stop reasons into RUN (the design keeps none). */
void cb_design_record(cb_design *d, cb_run_meta *run);

#endif
