/* SPDX-License-Identifier: MIT */
/*
 * The timing protocol, independent of OpenCL: it runs batches of launches through a launcher
 * (the OpenCL layer in a real run, a fake device with a fake clock in the tests).
 *
 *   timer       the baseline (4-byte loads at stride 1) with growing chains, each launch
 *               verified: the longest chain that verifies, the time per step, and whether the
 *               device's event timer agrees with the host clock (a timer that is zero,
 *               constant, coarser than declared or at odds with the host clock is not used:
 *               launches are then timed one by one with the host clock)
 *   length      the shortest launch whose repeat noise meets the target
 *   calibration every experiment's chain sized to that length (two verified probe chains each,
 *               in one batch), then every experiment at its chain, verified; a chain that does
 *               not verify is halved until it does
 *   rounds      the baseline and every experiment in a fresh shuffled order, one batch per
 *               round; each experiment is timed at its chain L and at L/4, and its time per
 *               step is the difference over the steps in between, so that the launch's fixed
 *               costs (start, drain, filling local memory) cancel; a round's statistic is each
 *               experiment's ratio to the baseline of the same round
 *   stop        from the minimum rounds on, when the caller says the answer has settled (or,
 *               when every interval must be narrow, when every ratio's 95% CI is within the
 *               target), else at the most rounds
 *   sub-group   tables of n lanes on n rows of one bank: the cost grows with n until n passes
 *               the number of lanes served together, then levels off
 */
#ifndef CB_PROTOCOL_H
#define CB_PROTOCOL_H

#include "core/error.h"
#include "core/notify.h"
#include "core/result.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CB_STEPS_MIN 8u
#define CB_STEPS_MAX (1u << 26)
#define CB_BASELINE SIZE_MAX    /* the experiment index of the baseline */
#define CB_PROBE (SIZE_MAX - 1) /* ... and of the sub-group probe */
/* The baseline is timed this many times per round; its median is the round's reference, so
 * that one slow launch of it does not skew a whole round. */
#define CB_BASELINE_REPS 3

typedef enum { CB_TIMER_AUTO, CB_TIMER_EVENT, CB_TIMER_HOST } cb_timer_mode;

typedef struct {
	size_t index; /* measurement index, CB_BASELINE or CB_PROBE */
	cb_op op;
	int elem;               /* element size index */
	unsigned table, nlanes; /* its lane table on the device */
	const uint32_t *lanes;
	unsigned fill;               /* 32-bit words of local memory to fill */
	unsigned steps, steps_short; /* the long and the short chain */
	double *ratios;              /* one per round with a valid pair of samples */
	unsigned n;
	unsigned rounds; /* rounds it was measured in */
	/* Per round (the baseline: CB_BASELINE_REPS per round, round-major): the long chain's
	 * time, ns (0: invalid), and the short chain's. */
	uint64_t *samples, *samples_short;
} cb_experiment;

typedef struct {
	const cb_experiment *x;
	unsigned steps;
} cb_launch_item;

typedef struct cb_launcher {
	/* Runs N launches as one batch and verifies each: NS[i] its device time (0: invalid),
	 * *HOST_S the batch's wall time, *BAD the index of a launch whose result was wrong (-1:
	 * none). EXPECTED_S sizes the watchdog. */
	cb_rc (*run)(void *ctx, const cb_launch_item *items, size_t n, double expected_s,
		     uint64_t *ns, double *host_s, long *bad, cb_error *err);
	double (*now)(void *ctx); /* seconds, monotonic */
	void *ctx;
	size_t max_batch; /* launches one batch may hold */
} cb_launcher;

typedef struct {
	unsigned min_rounds, max_rounds;
	double ci_target;     /* a ratio's CI half-width, as a share of the median */
	bool all_narrow;      /* stop only when every ratio's CI is within the target */
	double max_launch_ns; /* longest launch */
	double budget_s;      /* the rounds' time budget: caps the launch length */
	cb_timer_mode timer;
	bool event_timer; /* the driver has a profiling timer */
	uint64_t declared_resolution_ns;
	/* A CPU device, or local memory in global memory (PoCL): its launch times fall in modes
	 * a few percent apart and its time per step grows with the chain up to a few hundred
	 * steps. The launch length is then chosen from 36 pairs by their quartiles, and kept for
	 * the whole run (see calibrate.c). */
	bool cpu;
	uint64_t seed;
	const cb_notifier *notify;
	/* From the minimum rounds on, after each round: has the answer settled? NULL: never. */
	bool (*settled)(void *ctx, const cb_experiment *ex, size_t nex, unsigned rounds);
	void *settled_ctx;
} cb_protocol_opts;

typedef struct {
	unsigned rounds;
	bool converged; /* every ratio's CI within the target */
	bool settled;   /* the caller's answer settled */
	size_t invalid_samples, total_samples;
	cb_timer_mode timer;     /* what timed the rounds: CB_TIMER_EVENT or CB_TIMER_HOST */
	char timer_reason[200];  /* why */
	uint64_t granularity_ns; /* the event timer's measured step (0: unknown) */
	double event_host_ratio; /* event time over host time of the longest check launch */
	double launch_ns;        /* the length of a long launch */
	double noise;            /* the baseline's relative noise at that length */
	unsigned chain_cap;      /* the longest chain that verified, when the device cut one */
	unsigned shortened;      /* experiments whose chain was halved to verify */
	double launch_ceil_ns;   /* the longest launch the budget allows */
	unsigned lengthened;     /* times the rounds' noise doubled the launch length */
	double warm_ns;          /* the warm-up before the launch length: its device time */
	unsigned warm_launches;  /* ... and launches */
} cb_protocol_state;

/* "the baseline", "the sub-group probe" or "measurement N (E-byte)". */
void cb_experiment_name(const cb_experiment *x, char *buf, size_t n);
/* A chain length: at least CB_STEPS_MIN, at most CB_STEPS_MAX, a multiple of 8. */
unsigned cb_round_steps(double steps);
/* STEPS rounded up to a multiple of GRANULE (8, or 4 for the atomics' kernels), at least
 * GRANULE, at most CB_STEPS_MAX (a multiple of both). */
unsigned cb_round_chain(double steps, unsigned granule);
/* 32-bit words to fill so that every lane's element is initialized. */
unsigned cb_fill_words(const uint32_t *lanes, unsigned n, unsigned elem_bytes);
/* Has X's ratio converged (at least 6 rounds, CI half-width within TARGET of the median)? */
bool cb_ratio_converged(const cb_experiment *x, double target);

/* The warm-up before the launch length is chosen, so that the clock has left its idle state
 * when the noise that decides the length is measured: the baseline in batches of
 * CB_WARM_BATCH launches of CB_WARM_BATCH_MS in all, until two batches in a row agree (their
 * median launch times within CB_WARM_AGREE), for at most CB_WARM_BEFORE_LENGTH_MS (with the
 * host clock: one batch). An H100 at 345 MHz after 20 s idle ran a 15 us launch at its steady
 * time from the third launch on, and drifted 5% in the first millisecond, then no more (.gpu's
 * ramp probe in results/nvidia/h100-cache-check-bench.txt); 50 ms took 0.03 s of a 0.3 s run
 * for nothing, and 20 ms still 0.02 s of a 0.25 s one. */
#define CB_WARM_BEFORE_LENGTH_MS 20
#define CB_WARM_BATCH 4
#define CB_WARM_BATCH_MS 2.0
#define CB_WARM_AGREE 0.01
/* EX[0] is the baseline. Chooses the timer and the launch length and sizes every chain. */
cb_rc cb_calibrate(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex, size_t nex,
		   cb_protocol_state *st, cb_error *err);
/* The parts of cb_calibrate: the timer, a warm-up and the launch length from the baseline B
 * (NEX: the experiments the budget plans for); then EX's chains (EX[0] the baseline, whose
 * chain is kept), verified. */
cb_rc cb_calibrate_timing(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *b,
			  size_t nex, cb_protocol_state *st, cb_error *err);
cb_rc cb_calibrate_chains(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex,
			  size_t nex, cb_protocol_state *st, cb_error *err);
/* EX's chains (EX[0] the baseline, kept) from the time per step each is expected to take,
 * RATIO[i] times the baseline's (from a model fitted to what is measured), without probes. */
void cb_size_chains_predicted(cb_experiment *ex, size_t nex, const double *ratio,
			      const cb_protocol_state *st);
/* After rounds [FROM, TO) of B: when the noise they show is over twice what the launch length
 * was chosen for, the launch length doubles (within the budget; never on a CPU device, o->cpu);
 * returns whether it did. */
bool cb_revisit_length(const cb_protocol_opts *o, cb_experiment *b, unsigned from, unsigned to,
		       cb_protocol_state *st);
/* The rounds; EX[i]'s samples and ratios need room for o->max_rounds entries (the baseline's
 * samples for CB_BASELINE_REPS times as many). */
cb_rc cb_measure_rounds(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex,
			size_t nex, cb_protocol_state *st, cb_error *err);

#define CB_PROBE_MAX 16
typedef struct {
	unsigned n;
	unsigned lanes[CB_PROBE_MAX];
	double ratio[CB_PROBE_MAX];
	unsigned found; /* lanes served together, 0 when the curve has not the shape */
} cb_subgroup_probe;

/* The probe's lane tables: for n = 1, 2, 4, ... up to MAXN lanes (within LOCAL_BYTES), the n
 * offsets at table index 1 of n-lane tables, i.e. TABLES[n .. 2n). Returns the count. */
#define CB_PROBE_MAXN 128u
#define CB_PROBE_STRIDE 512u
unsigned cb_probe_tables(uint32_t *tables, unsigned long local_bytes, unsigned *ns);
/* Runs the probe with 4-byte loads through L (timed with the host clock when HOST: the event
 * timer is not checked yet when the probe runs). */
cb_rc cb_probe_subgroup(const cb_launcher *l, bool host, const uint32_t *tables, const unsigned *ns,
			unsigned count, cb_subgroup_probe *probe, cb_error *err);

#endif
