/* SPDX-License-Identifier: MIT */
/* The field tables of the document's objects, shared by the reader and the writer so that the
 * two cannot drift apart. Internal to src/doc/. */
#ifndef CB_DOC_TABLES_H
#define CB_DOC_TABLES_H

#include "doc/fields.h"
#include "core/device_fields.h"
#include "core/result.h"

#define CB_NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

/* The device section's list is shared with the gathering of the driver's values. */
#define CB_DEVICE_STR(m) CB_FIELD_STR(cb_device_doc, m),
#define CB_DEVICE_INT(m, lo, hi) CB_FIELD_INT(cb_device_doc, m, lo, hi),
/* clang-format off */
static const cb_field cb_device_fields[] = {
	CB_DEVICE_DOC_FIELDS(CB_DEVICE_STR, CB_DEVICE_INT)
};
/* clang-format on */
#undef CB_DEVICE_STR
#undef CB_DEVICE_INT
/* Read and written by hand: */
static const char *const cb_device_other[] = { "subgroup_size", "subgroup_probe", "reported_banks",
					       "intel_subgroup_sizes", NULL };

static const cb_field cb_run_fields[] = {
	CB_FIELD_STR(cb_run_meta, regime),
	CB_FIELD_STR(cb_run_meta, timer),
	CB_FIELD_INT(cb_run_meta, work_group_size, 1, 1e9),
	CB_FIELD_INT(cb_run_meta, global_size, 1, 1e15),
	CB_FIELD_REAL(cb_run_meta, subgroups_per_cu, 1e-9, 1e9),
	CB_FIELD_INT(cb_run_meta, local_mem_alloc_bytes, 0, 1e12),
	CB_FIELD_INT(cb_run_meta, rounds, 0, 1e9),
	CB_FIELD_INT(cb_run_meta, min_rounds, 0, 1e9),
	CB_FIELD_INT(cb_run_meta, max_rounds, 0, 1e9),
	CB_FIELD_REAL(cb_run_meta, ci_target, 0, 1),
	CB_FIELD_REAL(cb_run_meta, target_launch_ms, 0, 1e9),
	CB_FIELD_INT(cb_run_meta, seed, 0, 9.2e18),
	CB_FIELD_STR(cb_run_meta, kernels),
	CB_FIELD_STR(cb_run_meta, clbanks_version),
	CB_FIELD_STR(cb_run_meta, command_line),
	CB_FIELD_STR(cb_run_meta, host_id),
	CB_FIELD_STR(cb_run_meta, host_name),
	CB_FIELD_STR(cb_run_meta, warmup),
	CB_FIELD_STR(cb_run_meta, timer_reason),
	CB_FIELD_STR(cb_run_meta, stop),
	CB_FIELD_STR(cb_run_meta, timing),
	CB_FIELD_STR(cb_run_meta, check_skipped),
	CB_FIELD_INT(cb_run_meta, timer_granularity_ns, 0, 1e12),
	CB_FIELD_INT(cb_run_meta, chain_cap, 0, 1e12),
	CB_FIELD_INT(cb_run_meta, shortened, 0, 1e9),
	CB_FIELD_INT(cb_run_meta, work_groups_per_cu, 0, 1e9),
	CB_FIELD_INT(cb_run_meta, resident_work_groups_per_cu, 0, 1e9),
	CB_FIELD_REAL(cb_run_meta, launch_noise, 0, 1e9),
	CB_FIELD_STR(cb_run_meta, protocol),
	CB_FIELD_INT(cb_run_meta, launches, 0, 1e15),
	CB_FIELD_REAL(cb_run_meta, device_seconds, 0, 1e12),
	CB_FIELD_INT(cb_run_meta, lengthened, 0, 1e9),
};
static const char *const cb_run_other[] = { "build_options", "seconds", "design", NULL };

static const cb_field cb_seconds_fields[] = {
	{ "build", CB_F_REAL, offsetof(cb_run_meta, seconds_build), 0, 1e12, 0 },
	{ "calibration", CB_F_REAL, offsetof(cb_run_meta, seconds_calibration), 0, 1e12, 0 },
	{ "measurement", CB_F_REAL, offsetof(cb_run_meta, seconds_measurement), 0, 1e12, 0 },
	{ "total", CB_F_REAL, offsetof(cb_run_meta, seconds_total), 0, 1e12, 0 },
	{ "analysis", CB_F_REAL, offsetof(cb_run_meta, seconds_analysis), 0, 1e12, 0 },
	{ "check", CB_F_REAL, offsetof(cb_run_meta, seconds_check), 0, 1e12, 0 },
};

static const cb_field cb_quality_fields[] = {
	CB_FIELD_BOOL(cb_quality, converged),
	{ "drift", CB_F_REAL_NULL, offsetof(cb_quality, drift), -1e12, 1e12,
	  offsetof(cb_quality, has_drift) },
	CB_FIELD_REAL(cb_quality, outlier_share, 0, 1),
	CB_FIELD_INT(cb_quality, invalid_samples, 0, 1e15),
	CB_FIELD_INT(cb_quality, samples, 0, 1e15),
};
static const char *const cb_quality_other[] = { "warnings", NULL };

static const cb_field cb_plan_fields[] = {
	CB_FIELD_INT(cb_plan_meta, seed, 0, 9.2e18),
	CB_FIELD_INT(cb_plan_meta, subgroup_size, 1, 1e6),
	CB_FIELD_INT(cb_plan_meta, local_mem_budget, 0, 1e12),
	CB_FIELD_BOOL(cb_plan_meta, quick),
	CB_FIELD_STR(cb_plan_meta, ops),
};

static const cb_field cb_baseline_fields[] = {
	CB_FIELD_INT(cb_baseline, steps, 0, 1e15),
	CB_FIELD_INT(cb_baseline, steps_short, 0, 1e15),
	CB_FIELD_REAL(cb_baseline, ns_per_access, 0, 1e15),
	CB_FIELD_REAL(cb_baseline, mad_ns, 0, 1e15),
};
static const char *const cb_baseline_other[] = { "op",         "elem_bytes",       "lanes",
						 "samples_ns", "samples_short_ns", NULL };

static const char *const cb_measurement_keys[] = { "id",
						   "kind",
						   "op",
						   "elem_bytes",
						   "params",
						   "lanes",
						   "ns_per_access",
						   "steps",
						   "steps_short",
						   "verified",
						   "samples_ns",
						   "samples_short_ns",
						   "stats",
						   NULL };

static const cb_field cb_check_fields[] = {
	CB_FIELD_STR(cb_kernel_check, kernel),
	CB_FIELD_STR(cb_kernel_check, variant),
	CB_FIELD_INT(cb_kernel_check, elem_bytes, 1, 16),
	CB_FIELD_INT(cb_kernel_check, tile, 1, 4096),
	CB_FIELD_INT(cb_kernel_check, rows, 1, 4096),
	CB_FIELD_INT(cb_kernel_check, pad, 0, 4096),
	CB_FIELD_INT(cb_kernel_check, bits, 0, 12),
	CB_FIELD_INT(cb_kernel_check, shift, 0, 12),
	CB_FIELD_INT(cb_kernel_check, matrix, 1, 1e6),
	CB_FIELD_INT(cb_kernel_check, launches, 1, 1e6),
	CB_FIELD_REAL(cb_kernel_check, ns_per_launch, 0, 1e15),
	CB_FIELD_BOOL(cb_kernel_check, verified),
};
/* Read and written by hand: */
static const char *const cb_check_other[] = { "ci95", "samples_ns", NULL };

/* With each op's inference (cb_ops' doc_key) beside them. */
static const char *const cb_top_keys[] = { "format",  "format_version", "generator",
					   "plan",    "device",         "run",
					   "quality", "baseline",       "measurements",
					   "advice",  "kernel_checks",  "documented_models",
					   NULL };

#endif
