/* SPDX-License-Identifier: MIT */
/* The state of one measurement run, shared by run.c (set-up and the protocol), record.c (the
 * result) and settle.c (has the answer settled?). Internal to src/measure/. */
#ifndef CB_RUN_INTERNAL_H
#define CB_RUN_INTERNAL_H

#include "measure/ocl.h"
#include "measure/protocol.h"
#include "measure/run.h"
#include "core/infer.h"

typedef struct {
	const cb_device_ref *ref;
	cb_device_info *info;
	const cb_run_opts *o;
	cb_ocl *ocl;
	cb_kernel_limits lim;      /* of the 4-byte kernel */
	unsigned long local_avail; /* local memory a work-group may have */
	unsigned long local_alloc; /* what every launch allocates (the static array) */
	unsigned long per_cu;      /* work-groups per local-memory unit (throughput) */
	size_t wg, global;
	unsigned S;
	unsigned pin; /* the pinned sub-group size (Intel), else 0 */
	bool probed;
	cb_subgroup_probe probe;
	unsigned driver_subgroup;
	cb_experiment *ex; /* ex[0]: the baseline */
	size_t nex;
	uint32_t *baseline_lanes;
	cb_protocol_state st;
	/* The settled check: the last answers, and the passes of the plan's tables. */
	cb_pass_cache *cache[CB_NOPS];
	char answers[2][CB_NOPS][160]; /* the last and the one before, by op */
	unsigned nanswers;
	const cb_result *plan; /* the measurements being run (for the settled check) */
	bool adaptive;         /* the adaptive design (adaptive.c) chooses what to measure */
	unsigned base_rounds;  /* rounds the baseline's samples have room for */
	unsigned *base_steps, *base_steps_short; /* adaptive: the baseline's chains, by sample */
	long long launches;                      /* every launch so far */
	double device_ns;                        /* their summed device times */
} cb_runner;

/* The adaptive protocol: calibration and the design's batches into the experiments of R (the
 * pool: every table of RES), analyzing RES between batches; SECONDS[1] and [2] get the
 * calibration's and the batches' time. The design's log goes to RES's run record. */
cb_rc cb_run_adaptive(cb_runner *r, const cb_launcher *l, const cb_protocol_opts *po,
		      cb_result *res, double seconds[4], cb_error *err);
/* After cb_record_run: RES keeps only the tables the design measured. */
void cb_adaptive_finish(cb_runner *r, cb_result *res);

/* Statistics, quality warnings and provenance into RES. */
void cb_record_run(const cb_runner *r, cb_result *res, const double seconds[4]);
/* The timer and the launch length are chosen: the options' on_ready hook, when the launches
 * are timed with the event timer. */
void cb_run_ready(const cb_runner *r);
/* The protocol's settled callback (CTX: the runner). */
bool cb_run_settled(void *ctx, const cb_experiment *ex, size_t nex, unsigned rounds);

#endif
