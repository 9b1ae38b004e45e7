/* SPDX-License-Identifier: MIT */
/* The measure stage: runs every experiment of a plan on one device (the OpenCL layer, ocl.c)
 * with the timing protocol (protocol.c) and records the result: statistics, quality warnings
 * and provenance. */
#ifndef CB_RUN_H
#define CB_RUN_H

#include "core/error.h"
#include "core/notify.h"
#include "core/result.h"
#include "measure/device.h"
#include "measure/ocl.h"
#include "measure/protocol.h"
#include "core/infer.h"

#include <stdbool.h>
#include <stdint.h>

/* --check: the transpose check where it proves something (auto), always, or never (the order
 * of the option's choices). */
typedef enum { CB_CHECK_AUTO, CB_CHECK_TRANSPOSE, CB_CHECK_NONE } cb_check_mode;

typedef struct {
	const char *kernel_dir;    /* NULL: embedded kernels */
	const char *build_options; /* extra options for clBuildProgram, may be NULL */
	const char *cache_dir;     /* the program cache (measure/progcache.h), or NULL: none */
	bool latency;              /* one sub-group instead of every compute unit busy */
	bool quick;
	unsigned ops; /* CB_OP_BIT bits to measure (0: loads only) */
	unsigned min_rounds, max_rounds;
	double ci_target;            /* a ratio's CI half-width target, as a share */
	bool all_narrow;             /* stop only when every ratio's CI meets the target */
	cb_timer_mode timer;         /* auto, event or host */
	double max_kernel_ms;        /* cap of one launch */
	unsigned timeout_s;          /* host watchdog per launch */
	unsigned subgroup_override;  /* 0: from the driver, or measured */
	bool measure_subgroup;       /* measure even when the driver reports a size */
	unsigned long local_mem;     /* 0: default budget */
	unsigned long groups_per_cu; /* throughput regime: work-groups per compute unit (0: 64) */
	int one_kernel;              /* cb_ocl_opts.one_kernel (0: on a CPU device, by default) */
	uint64_t seed;
	const cb_result *plan; /* NULL: the default plan for the device, measured by the
				     * adaptive design; given: exactly its tables, every one timed */
	bool full_plan;        /* --plan full: the whole default plan, every table timed */
	cb_check_mode check;   /* the transpose check after the analysis */
	/* When not NULL (and plan is NULL): makes the plan, into PLAN (initialized there), once
	 * the run knows the device's sub-group size and the local memory it allocates. */
	cb_rc (*make_plan)(void *ctx, unsigned subgroup, unsigned long local_bytes, cb_result *plan,
			   cb_error *err);
	void *make_plan_ctx;
	const char *command_line;
	const cb_notifier *notify;
	/* When not NULL: receives the pass cache of the measured tables (for cb_analyze_cached),
	 * or NULL. */
	cb_pass_cache **keep_cache;
	/* When not NULL: receives the run's OpenCL context on success (the caller closes it), so
	 * that the transpose check needs no second one (on the H200 a context costs 0.17 s to
	 * create and release, half of the check); NULL on failure. */
	cb_ocl **keep_ocl;
	/* When not NULL: called once the timer and the launch length are chosen, before the
	 * first table, when the launches are timed with the event timer (the session starts the
	 * check's builds there: a compile on another thread stalls the host clock's timings). */
	void (*on_ready)(void *ctx, cb_ocl *ocl, unsigned subgroup);
	void *on_ready_ctx;
} cb_run_opts;

/* Measures into R (initialized here; not analyzed). CB_ERR_USAGE for a plan or options that do
 * not suit this device, CB_ERR_RUNTIME, CB_ERR_INTERRUPTED. */
cb_rc cb_measure(const cb_device_ref *ref, cb_device_info *info, const cb_run_opts *o, cb_result *r,
		 cb_error *err);

#endif
