/* SPDX-License-Identifier: MIT */
/*
 * The timing protocol, independent of OpenCL: it runs launches through a launcher (the OpenCL
 * layer in a real run, a fake device with a fake clock in the tests).
 *
 *   calibration  the baseline (4-byte loads at stride 1) until its time settles, sized to the
 *                target launch length; a warm-up; then each experiment once with a short,
 *                verified chain to size its own chain
 *   rounds       the baseline and every experiment in a fresh shuffled order; the statistic of
 *                a round is each experiment's ratio to that round's baseline; stop after the
 *                minimum rounds once every ratio's 95% CI is within the target, or at the most
 *   sub-group    tables of n lanes on n rows of one bank: the cost grows with n until n passes
 *                the number of lanes served together, then levels off
 */
#ifndef CB_PROTOCOL_H
#define CB_PROTOCOL_H

#include "core/error.h"
#include "core/notify.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CB_STEPS_MIN 8u
#define CB_STEPS_MAX (1u << 26)
#define CB_BASELINE SIZE_MAX    /* the experiment index of the baseline */
#define CB_PROBE (SIZE_MAX - 1) /* ... and of the sub-group probe */

typedef struct {
	size_t index;               /* measurement index, or CB_BASELINE */
	int elem;                   /* element size index */
	unsigned table, nlanes;     /* its lane table on the device */
	const uint32_t *lanes;
	unsigned fill;              /* 32-bit words of local memory to fill */
	unsigned steps;             /* calibrated chain length */
	double *ratios;             /* one per round with a valid sample */
	unsigned n;
	uint64_t *samples;          /* one per round, ns (0: invalid) */
} cb_experiment;

typedef struct cb_launcher {
	/* Runs X with a chain of STEPS; *NS gets its time (0 for an invalid sample). */
	cb_rc (*launch)(void *ctx, const cb_experiment *x, unsigned steps, bool verify, uint64_t *ns,
			cb_error *err);
	double (*now)(void *ctx);   /* seconds, monotonic */
	void *ctx;
} cb_launcher;

typedef struct {
	unsigned min_rounds, max_rounds;
	double ci_target;           /* every ratio's CI half-width within this share */
	double target_ns;           /* length of one launch */
	uint64_t seed;
	const cb_notifier *notify;
} cb_protocol_opts;

typedef struct {
	unsigned rounds;
	bool converged;
	size_t invalid_samples, total_samples;
} cb_protocol_state;

/* "the baseline", "the sub-group probe" or "measurement N (E-byte)". */
void cb_experiment_name(const cb_experiment *x, char *buf, size_t n);
/* A chain length: at least CB_STEPS_MIN, at most CB_STEPS_MAX, a multiple of 8. */
unsigned cb_round_steps(double steps);
/* 32-bit words to fill so that every lane's element is initialized. */
unsigned cb_fill_words(const uint32_t *lanes, unsigned n, unsigned elem_bytes);
/* Has X's ratio converged (at least 6 rounds, CI half-width within TARGET of the median)? */
bool cb_ratio_converged(const cb_experiment *x, double target);

/* EX[0] is the baseline. Sizes every experiment's chain. */
cb_rc cb_calibrate(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex,
		   size_t nex, cb_protocol_state *st, cb_error *err);
/* The rounds; EX[i].samples and .ratios need room for o->max_rounds entries. */
cb_rc cb_measure_rounds(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex,
			size_t nex, cb_protocol_state *st, cb_error *err);

#define CB_PROBE_MAX 16
typedef struct {
	unsigned n;
	unsigned lanes[CB_PROBE_MAX];
	double ratio[CB_PROBE_MAX];
	unsigned found;             /* lanes served together, 0 when the curve has not the shape */
} cb_subgroup_probe;

/* The probe's lane tables: for n = 1, 2, 4, ... up to MAXN lanes (within LOCAL_BYTES), the n
 * offsets at table index 1 of n-lane tables, i.e. TABLES[n .. 2n). Returns the count. */
#define CB_PROBE_MAXN 128u
#define CB_PROBE_STRIDE 512u
unsigned cb_probe_tables(uint32_t *tables, unsigned long local_bytes, unsigned *ns);
/* Runs the probe with 4-byte loads through L. */
cb_rc cb_probe_subgroup(const cb_launcher *l, const uint32_t *tables, const unsigned *ns,
			unsigned count, cb_subgroup_probe *probe, cb_error *err);

#endif
