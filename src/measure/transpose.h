/* SPDX-License-Identifier: MIT */
/*
 * The transpose check: the advice tried on a kernel a user would write. cl/transpose.cl is run
 * naive, padded and swizzled (the padding and the swizzle the analysis advises, or +1 and the
 * full swizzle when it advises none) for 4- and 8-byte elements at 32 x 32 tiles, and at the
 * sub-group's width when that is 16 or 64; each variant's result is checked against the
 * host's transpose, then the variants are timed in rounds, in a new random order each round,
 * a batch of launches at a time (long enough for the timer), with the run's timer. It asks
 * the device for everything through the OpenCL layer (ocl.h) and calls no OpenCL itself.
 */
#ifndef CB_TRANSPOSE_H
#define CB_TRANSPOSE_H

#include "core/error.h"
#include "core/notify.h"
#include "core/result.h"
#include "measure/device.h"
#include "measure/ocl.h"

#include <stdbool.h>

typedef struct {
	bool event_timer;       /* the run trusted the event timer */
	double tick_ns;         /* its granularity as the run measured it (0: unknown) */
	bool quick;             /* 4-byte elements only, fewer rounds */
	unsigned timeout_s;     /* host watchdog of one batch */
	const char *kernel_dir; /* NULL: the embedded kernel */
	const char *build_options;
	const char *cache_dir; /* the program cache, or NULL: none */
	const cb_notifier *notify;
	cb_ocl *ocl; /* the run's context, kept open (NULL: the check opens one) */
} cb_transpose_opts;

/* Runs the check on the device and appends its variants to R->checks (R analyzed: its advice
 * gives the fixes). A variant whose result is wrong is recorded unverified and untimed, with a
 * warning; OpenCL failures are errors. */
cb_rc cb_check_transpose(const cb_device_ref *ref, const cb_device_info *info,
			 const cb_transpose_opts *o, cb_result *r, cb_error *err);

/* Why the check proves nothing on R, analyzed (NULL: it is due): on local memory the driver
 * emulates in global memory (every CPU driver) or loads that are not banked, padding and
 * swizzles change nothing but noise, and the six kernels more cost a first run seconds. */
const char *cb_transpose_skip_reason(const cb_result *r);

/* Starts building, in the background (cb_ocl_program_prebuild), the check's programs on OCL's
 * device with sub-groups of SUBGROUP for the fixes the advice is likely to give, so that their
 * compilation overlaps the measurement: +1 with the full swizzle (no advice) and with the
 * swizzle of rows of 128 bytes (32 banks of 4 bytes: NVIDIA's and AMD's GPUs). A check whose
 * advice differs builds its own; on an H100 these builds are 0.14 s of a first run. */
void cb_transpose_prebuild(cb_ocl *ocl, unsigned subgroup, bool quick);

#endif
