/* SPDX-License-Identifier: MIT */
/* The measure stage: runs every experiment of a plan on one device with the timing protocol of
 * DESIGN.md (calibrated chain length, warm-up, shuffled rounds with a baseline, per-round
 * ratios, verification of every kernel's result). */
#ifndef CB_RUNNER_H
#define CB_RUNNER_H

#include "measure/device.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
	const char *kernel_dir;     /* NULL: embedded kernels */
	const char *build_options;  /* extra options for clBuildProgram, may be NULL */
	bool latency;               /* one sub-group instead of every compute unit busy */
	bool quick;
	unsigned min_rounds, max_rounds;
	double ci_target;           /* stop when every ratio CI half-width <= this share */
	double max_kernel_ms;       /* cap of one launch */
	unsigned timeout_s;         /* host watchdog per launch */
	unsigned subgroup_override; /* 0: from the driver, or measured */
	bool measure_subgroup;      /* measure even when the driver reports a size */
	unsigned long local_mem;    /* 0: default budget */
	uint64_t seed;
	bool quiet;
	bool verbose;
	json_t *plan;               /* NULL: make the default plan for the device */
	const char *command_line;
} cb_run_opts;

/* Measures and returns the result document in *DOC (without inference). Returns an exit
 * status: CB_EXIT_OK, CB_EXIT_USAGE (bad plan or options for this device), CB_EXIT_RUNTIME,
 * or CB_EXIT_SIGINT / CB_EXIT_SIGTERM when interrupted. */
int cb_run(const cb_device_ref *ref, cb_device_info *info, const cb_run_opts *opts, json_t **doc);

/* Expected kernel result for one lane (exposed for tests): the fold of the element of
 * ELEM_BYTES at byte OFFSET of the fill pattern, plus STEPS. */
uint32_t cb_expected_result(unsigned elem_bytes, uint32_t offset, uint32_t steps, bool little_endian);

#endif
