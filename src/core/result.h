/* SPDX-License-Identifier: MIT */
/*
 * The typed result: everything a result document holds -- the device, how the run was made,
 * every measurement with its op, element size, lane table and statistics, the run's quality
 * -- and what analysis adds (an inference per op, advice). Plan, measure, analysis, reports,
 * compare and plot all work on this; only the document codec (src/doc/) turns it into JSON
 * and back.
 *
 * Optional values: strings are NULL, integers CB_UNSET, reals NAN when absent. Keys a reader
 * does not know are kept as JSON text (`extra`) by the codec and written back unchanged, so a
 * document made by another tool passes through clbanks intact.
 */
#ifndef CB_RESULT_H
#define CB_RESULT_H

#include "core/infer.h"
#include "core/model.h"
#include "core/ops.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CB_UNSET LLONG_MIN

/* One named integer parameter of a planned experiment ("stride": 17). */
typedef struct {
	char *name;
	long long value;
} cb_param;

typedef struct {
	unsigned rounds;
	double median, ci_lo, ci_hi, mad; /* ratio to the baseline of the same round */
	long long outliers, invalid;
	bool converged;
} cb_ratio_stats;

typedef struct {
	long long id; /* CB_UNSET when absent */
	char *kind;   /* "stride", "two_address", ..., or NULL */
	cb_op op;
	unsigned elem_bytes;
	cb_param *params;
	unsigned nparams;
	char *params_extra; /* non-integer members of "params", as JSON text */
	bool has_params;
	uint32_t *lanes;       /* one byte offset per lane of the sub-group */
	double ns_per_access;  /* NAN: planned, not timed */
	long long steps;       /* the long chain */
	long long steps_short; /* the short chain of differential timing (CB_UNSET: none) */
	int verified;          /* -1 absent, else 0 or 1 */
	uint64_t *samples_ns;  /* per round, the long chain's time */
	unsigned nsamples;
	bool has_samples;
	uint64_t *samples_short_ns; /* per round, the short chain's time */
	unsigned nsamples_short;
	bool has_stats;
	cb_ratio_stats stats;
	char *extra;
} cb_measurement;

typedef struct {
	bool present;
	cb_op op;
	unsigned elem_bytes;
	uint32_t *lanes;
	long long steps, steps_short;
	double ns_per_access, mad_ns;
	uint64_t *samples_ns, *samples_short_ns;
	unsigned nsamples, nsamples_short;
	char *extra;
} cb_baseline;

#define CB_MAX_PROBE 16
typedef struct {
	char *platform, *platform_vendor, *platform_version;
	char *name, *vendor, *driver_version, *device_version, *opencl_c_version, *type;
	long long compute_units, max_clock_mhz, local_mem_bytes, timer_resolution_ns;
	long long max_work_group_size;
	char *local_mem_type; /* "local", "global", "none" */
	unsigned subgroup_size;
	char *subgroup_source;
	bool has_probe; /* the sub-group probe's curve */
	unsigned probe_n;
	unsigned probe_lanes[CB_MAX_PROBE];
	double probe_ratio[CB_MAX_PROBE];
	long long probe_driver_reported;
	bool has_reported_banks;
	long long reported_banks;
	char *reported_banks_source;
	char *compute_capability, *gfxip;
	unsigned intel_subgroup_sizes[8], n_intel_subgroup_sizes;
	long long slm_units; /* units that own local memory (CB_UNSET: compute units) */
	long long local_mem_per_cu_bytes; /* local memory of one unit, when the driver says */
	char *slm_unit;                   /* what they are: "sub-slice", "compute unit" */
	char *extra;
} cb_device_doc;

/* One batch of the adaptive design: the op, the measurements it chose (their ids) and why. */
typedef struct {
	cb_op op;
	char *why;
	long long *ids;
	size_t nids;
} cb_design_batch;

/* Frees the design's batches LOG[0..N-1] and its stop reasons STOP[op] (the log is the run's
 * once recorded, cb_design_record, else the design's own). */
void cb_design_log_free(cb_design_batch *log, size_t n, char *stop[CB_NOPS]);

typedef struct {
	bool present;
	char *regime, *timer, *kernels, *clbanks_version, *command_line, *warmup;
	/* The machine: a short id (core/hostid.h) unless --host none, its hostname only with
	 * --host name (format 4; NULL in older documents). */
	char *host_id, *host_name;
	/* The protocol: "adaptive" (the default), "full" (--plan full) or "plan" (--plan FILE);
	 * NULL in documents before it was recorded. */
	char *protocol;
	long long launches;      /* every launch of the measurement, calibration included */
	double device_seconds;   /* their summed event times (NAN: not recorded) */
	long long lengthened;    /* times the rounds' noise doubled the launch length */
	cb_design_batch *design; /* the adaptive design's batches, in the order chosen */
	size_t ndesign;
	char *design_stop[CB_NOPS]; /* why the design stopped measuring each op (NULL: not run) */
	long long work_group_size, global_size, local_mem_alloc_bytes, rounds, min_rounds;
	long long max_rounds, seed;
	double subgroups_per_cu, ci_target, target_launch_ms;
	bool has_build_options;
	char *build_options[CB_NKERNELS]; /* by kernel (cb_kernel_index) */
	bool has_seconds;
	double seconds_build, seconds_calibration, seconds_measurement, seconds_total;
	double seconds_analysis;
	double seconds_check; /* the transpose check (in total); NAN: none */
	char *timer_reason, *stop, *timing;
	char *check_skipped; /* why the transpose check did not run (NULL: it
						* ran, or was not due) */
	long long timer_granularity_ns, chain_cap, shortened, work_groups_per_cu;
	long long
		resident_work_groups_per_cu; /* bounded by local memory, when its size per unit is known */
	double launch_noise;
	char *extra;
} cb_run_meta;

typedef struct {
	bool present;
	int converged; /* -1 absent */
	bool has_drift;
	double drift; /* NAN: unknown (written as null) */
	double outlier_share;
	long long invalid_samples, samples;
	char **warnings;
	unsigned nwarnings;
	char *extra;
} cb_quality;

typedef struct {
	bool present;
	long long seed, subgroup_size, local_mem_budget;
	int quick; /* -1 absent */
	char *ops; /* "load,store,atomic"; NULL: loads (format 1) */
	char *extra;
} cb_plan_meta;

/* The confidence an element size's own model (by_elem_bytes) needs before it is used in place
 * of its op's: what the man page promises of 0.9, "a kernel author can rely on it". */
#define CB_BY_SIZE_MIN_CONFIDENCE 0.9

/* A bank model as recorded in a document's inference (what predict needs). */
typedef struct {
	char *status;         /* "banked", "not_banked", ... */
	bool banked;          /* banked, with a complete, valid model */
	double confidence;    /* as recorded; NAN when absent */
	bool broadcast_known; /* "broadcast" was true or false, not null */
	char problem[160];    /* why a "banked" model is unusable, else "" */
	cb_geometry geom;
	unsigned lanes_per_pass[CB_NELEM]; /* 0: not measured */
	/* Lanes served in groups that are not contiguous (a documented model's lane_groups):
	 * the lanes group after group (core/model.h, cb_price_access_order); 0: contiguous. */
	unsigned norder[CB_NELEM];
	uint8_t order[CB_NELEM][CB_MAX_ORDER];
	/* The fitted time per access step, t0 + cost x passes, per element size (per_elem). */
	bool has_time[CB_NELEM];
	double t0_ns[CB_NELEM], cost_ns[CB_NELEM];
} cb_recorded_model;

typedef struct {
	unsigned elem_bytes, tile;
	unsigned rows; /* rows of the tile: its width, or the sub-group when larger */
	unsigned pad;  /* smallest padding (elements) the model says is conflict-free */
	bool found;    /* false: no padding up to one bank period helps */
	unsigned passes_unpadded, passes_padded, passes_ideal;
	double measured_unpadded, measured_padded; /* slowdown vs stride 1; NAN when not measured */
} cb_pad_advice;

#define CB_MAX_PAD_ADVICE 9

/* The smallest XOR swizzle (core/swizzle.h) that makes the column read and the row write of a
 * tile conflict-free under the inferred load and store models, and what was measured. */
typedef struct {
	unsigned elem_bytes, tile, rows;
	bool found;
	unsigned bits, shift;
	unsigned passes_unswizzled, passes_swizzled, passes_write, passes_ideal;
	double measured_unswizzled, measured_swizzled; /* slowdown vs stride 1; NAN: not measured */
} cb_swizzle_advice;

/* One variant of the transpose check (cl/transpose.cl): a kernel a user would write, timed. */
typedef struct {
	char *kernel;                     /* "transpose" */
	char *variant;                    /* "naive", "padded" or "swizzled" */
	long long elem_bytes, tile, rows; /* rows: of the work-group (cl/transpose.cl's CB_ROWS) */
	long long pad, bits, shift;       /* the fix it applies (CB_UNSET: none) */
	long long matrix;                 /* the order N of the N x N matrix */
	long long launches;               /* launches per timed batch */
	double ns_per_launch;             /* median over the rounds */
	double ci_lo, ci_hi;              /* its 95% CI */
	double *samples_ns;               /* per round: a batch's time per launch */
	unsigned nsamples;
	int verified; /* -1 absent, else 0 or 1 */
	char *extra;
} cb_kernel_check;
void cb_kernel_check_init(cb_kernel_check *k);
void cb_kernel_check_free(cb_kernel_check *k);

/* One fact of a documented model (its "documentation" object): what it is ("load.banks",
 * "load.lanes_per_pass.16", "store.broadcast"), whether the vendor states it or it is
 * inferred from what they state ("stated", "inferred", "disputed", "not documented"), where,
 * and a note (what the inference rests on, or why a size is refused). */
typedef struct {
	char *fact, *basis, *source, *note;
} cb_doc_fact;

/* A model from a vendor's documentation rather than a measurement (provenance
 * "documented"): it has no measurements, and its inferences are the documented model. */
typedef struct {
	char *title;   /* "AMD CDNA1-3 (MI100, MI200, MI300)" */
	char *summary; /* one paragraph: what it covers, what is inferred */
	cb_doc_fact *facts;
	size_t nfacts;
} cb_documentation;

typedef struct {
	int format_version;
	/* The document's "provenance" when it says one ("documented"; NULL: a measurement, or a
	 * synthetic document), and a documented model's sources (read only; the document's
	 * members are written back as they came). */
	char *provenance;
	bool documented;
	cb_documentation doc;
	bool has_generator;
	char *generator_name, *generator_version;
	cb_plan_meta plan;
	cb_device_doc device;
	cb_run_meta run;
	cb_quality quality;
	cb_baseline baseline;
	cb_measurement *ms;
	size_t nms;
	/* In the document as read (for predict); analysis does not change these. */
	bool has_recorded[CB_NOPS];
	cb_recorded_model recorded[CB_NOPS];
	bool has_recorded_size[CB_NOPS][CB_NELEM]; /* ... and by element size (by_elem_bytes) */
	cb_recorded_model recorded_size[CB_NOPS][CB_NELEM];
	/* Filled by cb_analyze(). */
	bool analyzed;
	bool op_present[CB_NOPS];
	cb_inference inference[CB_NOPS];
	/* When no one geometry describes an op's element sizes together (inconclusive, the model
	 * misses), each size on its own: the H200's 8-byte atomics are a compare-and-swap loop,
	 * its 4-byte atomics are banked. */
	bool has_by_size[CB_NOPS][CB_NELEM];
	cb_inference by_size[CB_NOPS][CB_NELEM];
	unsigned npad;
	cb_pad_advice pad[CB_MAX_PAD_ADVICE];
	unsigned nswizzle;
	cb_swizzle_advice swizzle[CB_MAX_PAD_ADVICE];
	/* The documented models (models/, provenance "documented") this measurement agrees with
	 * on every fact compared (core/agree.h), looked for by the front end among those it
	 * finds; the one whose title names the device first. Written as the document's
	 * "documented_models", found again at each analysis. */
	struct {
		bool checked; /* looked for, among MODELS documented models (0: none found) */
		size_t models, n;
		struct {
			char *name;        /* the model's name ("nvidia-hopper") */
			char *title;       /* its title ("NVIDIA Hopper (H100, H200; ...)") */
			size_t agree;      /* the facts compared, all agreeing */
			bool names_device; /* its title names the device ("H200") */
		} v[16];
	} match;
	/* Measured by a run (kept by analysis): the transpose check. */
	cb_kernel_check *checks;
	size_t nchecks;
	char *extra;
	/* Never written: the memo its analyses use; NULL otherwise. The adaptive run sets it, and
	 * the result keeps it for the analysis after the run (which read every table's passes
	 * again: 40% of the stub's analysis time); cb_result_free frees it. */
	cb_pass_memo *pass_memo;
} cb_result;

void cb_result_init(cb_result *r);
void cb_result_free(cb_result *r);
/* Appends a kernel check (initialized) and returns it. */
cb_kernel_check *cb_result_add_check(cb_result *r);
/* Appends a measurement (zeroed, with optional fields unset) and returns it. */
cb_measurement *cb_result_add(cb_result *r);
void cb_measurement_init(cb_measurement *m);
void cb_measurement_free(cb_measurement *m);
/* A deep copy of SRC (a table of SUBGROUP lanes) into DST. */
void cb_measurement_copy(cb_measurement *dst, const cb_measurement *src, unsigned subgroup);

/* The timed stride experiment of that op, element size and stride, or NULL. */
const cb_measurement *cb_find_stride(const cb_result *r, cb_op op, unsigned elem_bytes,
				     unsigned stride);
/* Measured slowdown of a stride against stride 1 of the same op and element size; NAN when
 * either was not measured. */
double cb_stride_ratio(const cb_result *r, cb_op op, unsigned elem_bytes, unsigned stride);
/* The slowdown of the timed measurement of OP whose lane table is LANES (the sub-group's),
 * against stride 1 of the same element size; NAN when either was not measured. */
double cb_table_ratio(const cb_result *r, cb_op op, unsigned elem_bytes, const uint32_t *lanes);
/* A named parameter of a measurement; false when absent. */
bool cb_param_get(const cb_measurement *m, const char *name, long long *value);
/* Is the measurement of that kind? */
bool cb_kind_is(const cb_measurement *m, const char *kind);

/* A documented model's fact by its name ("load.banks"), or NULL. */
const cb_doc_fact *cb_doc_fact_find(const cb_result *r, const char *fact);
/* The note of the fact about OP as a whole ("atomic"; ELEM_BYTES 0) or about its lanes per
 * pass at ELEM_BYTES ("load.lanes_per_pass.1"): why the sources leave it out; NULL if none. */
const char *cb_doc_fact_note(const cb_result *r, cb_op op, unsigned elem_bytes);
/* "NAME (documented, not measured)" for a documented model, else NAME (R's device name, "-"
 * when it has none), into BUF. */
const char *cb_model_label(const cb_result *r, char *buf, size_t size);

/* The lane table of a stride walk: lane l reads element l * STRIDE of ELEM_BYTES bytes. */
void cb_stride_lanes(uint32_t *lanes, unsigned n, unsigned elem_bytes, unsigned stride);

#endif
