/* SPDX-License-Identifier: MIT */
/* The plan: a deterministic list of experiments (element size + lane table), as a result
 * without times. Needs no device. */
#ifndef CB_PLAN_H
#define CB_PLAN_H

#include "core/error.h"
#include "core/result.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
	unsigned subgroup;     /* lanes per table, 4..1024 */
	uint64_t seed;
	unsigned long local_mem_budget; /* bytes a table may span */
	bool quick;            /* fewer experiments: enough for banks and width */
} cb_plan_opts;

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
