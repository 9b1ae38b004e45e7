/* SPDX-License-Identifier: MIT */
/* The plan: a deterministic list of experiments (element size + lane table), as a result
 * without times. Needs no device. */
#ifndef CB_PLAN_H
#define CB_PLAN_H

#include "core/error.h"
#include "core/result.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	unsigned subgroup; /* lanes per table, 4..1024 */
	uint64_t seed;
	unsigned long local_mem_budget; /* bytes a table may span */
	bool quick;                     /* fewer experiments: enough for banks and width */
	unsigned ops;                   /* CB_OPS_* bits; 0: loads only */
	bool pool; /* stores and atomics get the loads' full set of tables too (the
				* adaptive design's pool, which measures only what it needs) */
} cb_plan_opts;

#define CB_OP_BIT(op) (1u << (op))
#define CB_OPS_ALL (CB_OP_BIT(CB_OP_LOAD) | CB_OP_BIT(CB_OP_STORE) | CB_OP_BIT(CB_OP_ATOMIC))

/* Parses "load,store,atomic" (any non-empty subset, any order) into CB_OP_BIT bits. */
bool cb_ops_parse(const char *text, unsigned *ops);
/* "load,store" from bits, into BUF. */
void cb_ops_format(unsigned ops, char *buf, size_t n);

/* The tiles the advice covers, walked by columns: widths and element sizes. */
/* clang-format off */
#define CB_ADVICE_TILES { 16, 32, 64 }
#define CB_ADVICE_ELEMS { 4, 8, 16 }
/* clang-format on */

/* Local memory a plan may span, and a run allocates, unless told otherwise. */
#define CB_DEFAULT_LOCAL_BYTES 32768UL
/* Byte distance between the two conflicting lanes of a lane-pair probe: one bank apart for
 * every power-of-two geometry up to 2048 bytes per row. */
#define CB_PAIR_DISTANCE 2048u
/* A word that no lane-pair or pair-reference lane conflicts with for common geometries. */
#define CB_PAIR_SHARED 48u

/* Builds the plan into R (initialized here): untimed measurements, the plan's parameters, the
 * sub-group size. CB_ERR_USAGE when the options cannot give a plan. */
cb_rc cb_plan_make(const cb_plan_opts *opts, cb_result *r, cb_error *err);

#endif
