/* SPDX-License-Identifier: MIT */
/*
 * The OpenCL layer of the measure stage: context and profiling queue, one program per kernel
 * (operation and element size), the lane tables and result buffers on the device, launches,
 * verification of a launch's results, release; and programs, buffers and timed batches for
 * the transpose check. With device.c the only code that calls OpenCL; every call is checked
 * and a failure is reported under its own name; every call that can block is under the
 * watchdog.
 */
#ifndef CB_OCL_H
#define CB_OCL_H

#include "core/error.h"
#include "core/model.h"
#include "core/notify.h"
#include "core/result.h"
#include "measure/device.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kernels are indexed by cb_kernel_index (core/ops.h). The 4-byte load kernel is built
 * first; its limits size every launch. */
#define CB_ELEM_INDEX_4B 2
#define CB_KERNEL_LOAD_4B CB_ELEM_INDEX_4B

typedef struct cb_ocl cb_ocl;

typedef struct {
	const char *kernel_dir;    /* NULL: the embedded kernels */
	const char *build_options; /* extra clBuildProgram options, or NULL */
	const cb_notifier *notify;
	bool host_clock;       /* no profiling queue: launches are timed with the host clock */
	const char *cache_dir; /* the program cache (measure/progcache.h), or NULL: none */
	int one_kernel;        /* > 0: every lane-table kernel is cl/cpu.cl's one kernel (op
				     * and element size as arguments); < 0: one kernel per op and
				     * element (cl/chase.cl...); 0: the one kernel on a CPU device
				     * whose local memory is global, with the embedded kernels */
} cb_ocl_opts;

/* What every kernel is built for: the static __local array's size and, with
 * cl_intel_required_subgroup_size, the pinned sub-group size (0: not pinned). */
typedef struct {
	unsigned long local_bytes;
	unsigned subgroup_pin;
} cb_build_params;

/* One launch of a lane-table kernel (one slot of a batch). */
typedef struct {
	cb_op op;
	int elem;               /* element size index */
	unsigned table, nlanes; /* lane table TABLE of NLANES offsets in the table buffer */
	unsigned steps;         /* chain length, a multiple of 8 (atomics: of 4) */
	unsigned fill_words;    /* 32-bit words of local memory to fill */
	const uint32_t *lanes;  /* the table, for verification */
	const char *what;       /* names the launch in messages */
} cb_launch_req;

/* What the kernel of REQ returns for lane L of a work-group of LOCAL work-items (see the
 * kernels in cl/ for what they compute). */
uint32_t cb_expected_result(const cb_launch_req *req, unsigned l, size_t local, bool little_endian);

cb_rc cb_ocl_open(const cb_device_ref *ref, const cb_device_info *info, const cb_ocl_opts *o,
		  cb_ocl **out, cb_error *err);
void cb_ocl_close(cb_ocl *c);
/* The host watchdog of every launch (0: none). */
void cb_ocl_set_timeout(cb_ocl *c, unsigned seconds);

/* Is there a profiling timer (else launches are timed with the host clock)? */
bool cb_ocl_event_timer(const cb_ocl *c);
/* From now on launches are timed with the host clock (a run that found the event timer wrong
 * hands its context on). */
void cb_ocl_use_host_clock(cb_ocl *c);

/* Sets what every kernel is built for; before the first build. */
void cb_ocl_set_build_params(cb_ocl *c, const cb_build_params *bp);
/* Whether the lane-table kernels are cl/cpu.cl's one kernel (see cb_ocl_opts.one_kernel). */
bool cb_ocl_one_kernel(const cb_ocl *c);
/* Builds every kernel of NEEDED not built yet, in one program: one compiler run instead of one
 * per op and element size (most of a first run on a CPU driver is compiling). With the one
 * kernel, every kernel of NEEDED is that kernel: a CPU driver compiles it once, at its first
 * launch, instead of once per op and element size. */
cb_rc cb_ocl_build_set(cb_ocl *c, const bool needed[CB_NKERNELS], cb_error *err);
bool cb_ocl_built(const cb_ocl *c, int k);
/* The options kernel K was built with. */
const char *cb_ocl_build_options(const cb_ocl *c, int k);

/* Limits of the built kernel K: work-group size, static local memory, preferred multiple. */
typedef struct {
	size_t work_group_size;
	unsigned long long local_mem_static;
	size_t preferred_multiple; /* 0 when the driver does not say */
} cb_kernel_limits;
cb_rc cb_ocl_kernel_limits(cb_ocl *c, int k, cb_kernel_limits *lim, cb_error *err);
/* The sub-group size kernel K runs with for LOCAL work-items (cl_khr_subgroups or OpenCL
 * 2.1); 0 when the driver cannot say. */
unsigned cb_ocl_kernel_subgroup(cb_ocl *c, int k, size_t local);

/* Uploads NTABLES lane tables of NLANES offsets each (replacing earlier ones). */
cb_rc cb_ocl_set_tables(cb_ocl *c, const uint32_t *tables, size_t ntables, unsigned nlanes,
			cb_error *err);
/* Work sizes of every launch, and the buffers: every work-item's result, and the check slots
 * of up to MAX_SLOTS launches of tables of up to MAX_NLANES lanes. */
cb_rc cb_ocl_set_work(cb_ocl *c, size_t global, size_t local, unsigned max_nlanes, size_t max_slots,
		      cb_error *err);

/* Enqueues N launches (tables of one size), waits once (under the watchdog), and checks each
 * one's results; the watchdog allows the timeout plus ten times EXPECTED_S. NS[i] gets launch
 * i's END - START in integer nanoseconds (0 for an invalid sample), *HOST_S the
 * wall time of the whole batch. When a launch's results are wrong, *BAD is its index and the
 * error says so; otherwise *BAD is -1. */
cb_rc cb_ocl_run_batch(cb_ocl *c, const cb_launch_req *reqs, size_t n, double expected_s,
		       uint64_t *ns, double *host_s, long *bad, cb_error *err);

/* Programs beyond the lane-table kernels (the transpose check): a file of cl/ (or of the
 * kernel folder) built with its own options, its kernels, buffers, and timed batches. */
typedef struct cb_ocl_program cb_ocl_program;
typedef struct cb_ocl_buffer cb_ocl_buffer;

/* Builds FILE with OPTIONS (then the run's extra options) and creates its NKERNELS kernels
 * NAMES; the build log is the error's detail. */
cb_rc cb_ocl_program_build(cb_ocl *c, const char *file, const char *options,
			   const char *const *names, unsigned nkernels, cb_ocl_program **out,
			   cb_error *err);
void cb_ocl_program_free(cb_ocl_program *p);
/* Starts building FILE with OPTIONS (then the run's extra options) in a thread of its own, for
 * a later cb_ocl_program_build of the same file and options to take instead of building: the
 * transpose check's programs compile while the device measures. Nothing on a CPU device,
 * whose cores the measurement times. A build that fails is done again by
 * cb_ocl_program_build, which reports it; cb_ocl_close waits for those not taken. */
void cb_ocl_program_prebuild(cb_ocl *c, const char *file, const char *options);

/* A buffer of BYTES that kernels read and write. */
cb_rc cb_ocl_buffer_new(cb_ocl *c, size_t bytes, cb_ocl_buffer **out, cb_error *err);
void cb_ocl_buffer_free(cb_ocl_buffer *b);
/* Blocking copies of BYTES at byte OFFSET, under the watchdog. */
cb_rc cb_ocl_buffer_write(cb_ocl *c, cb_ocl_buffer *b, size_t offset, const void *src, size_t bytes,
			  cb_error *err);
cb_rc cb_ocl_buffer_read(cb_ocl *c, cb_ocl_buffer *b, size_t offset, void *dst, size_t bytes,
			 cb_error *err);

/* A kernel argument: a buffer, else SIZE bytes at VALUE. */
typedef struct {
	const cb_ocl_buffer *buf;
	size_t size;
	const void *value;
} cb_ocl_arg;
cb_rc cb_ocl_program_args(cb_ocl_program *p, unsigned kernel, const cb_ocl_arg *args,
			  unsigned nargs, cb_error *err);

/* A launch shape: DIMS dimensions of GLOBAL work-items in work-groups of LOCAL. */
typedef struct {
	unsigned dims;
	size_t global[3], local[3];
} cb_ndrange;
/* COUNT launches of kernel KERNEL of P, waited for once under the watchdog (WHAT names them);
 * *NS_PER_LAUNCH: first start to last end by the events with an event timer, else the
 * batch's host wall time, divided by COUNT. */
cb_rc cb_ocl_time_launches(cb_ocl *c, cb_ocl_program *p, unsigned kernel, const cb_ndrange *nd,
			   unsigned count, const char *what, double *ns_per_launch, cb_error *err);

#endif
