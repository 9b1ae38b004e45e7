/* SPDX-License-Identifier: MIT */
/* What the stub driver's halves share: its OpenCL objects, the device it poses as (read from
 * the environment, stub_device.c) and what a launch on it returns and takes, which the API
 * entry points (stub_icd.c) call. */
#ifndef CB_STUB_ICD_H
#define CB_STUB_ICD_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include "core/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern struct _cl_icd_dispatch dispatch;

struct _cl_platform_id {
	struct _cl_icd_dispatch *d;
};
struct _cl_device_id {
	struct _cl_icd_dispatch *d;
};
struct _cl_context {
	struct _cl_icd_dispatch *d;
};
struct _cl_command_queue {
	struct _cl_icd_dispatch *d;
};
struct _cl_mem {
	struct _cl_icd_dispatch *d;
	size_t size;
	unsigned char *data;
	unsigned gen;
};
struct _cl_program {
	struct _cl_icd_dispatch *d;
	unsigned elem, pin;
	unsigned tile, pad, xmask, shift; /* transpose.cl */
	char log[256];
	unsigned refs; /* clbanks' kernels of one program share it */
	bool store8;   /* its source holds the 8-byte store kernel */
	bool binary;   /* created from a binary (clCreateProgramWithBinary) */
};
enum { OP_LOAD, OP_STORE, OP_ATOMIC, OP_TRANSPOSE };
/* cl/transpose.cl's kernels beyond the variants naive (0), padded (1) and swizzled (2). */
enum { STUB_FILL = 3, STUB_VERIFY = 4 };
struct _cl_kernel {
	struct _cl_icd_dispatch *d;
	unsigned elem, pin, op, variant;
	const struct _cl_program *prog;
	cl_mem tables, out, check, in;
	cl_uint table, nlanes, steps, mask, fill, slot, n;
	bool done; /* transpose: OUT holds the result of these arguments and IN's generation */
	unsigned done_gen, done_out_gen;
};
struct _cl_event {
	struct _cl_icd_dispatch *d;
	cl_ulong start, end;
};

#define MAX_DEVICES 4

/* The device, from the environment (stub_device.c). */
typedef struct {
	bool ready;
	cb_geometry geom, op_geom[3];
	unsigned lanes[CB_NELEM], op_lanes[3][CB_NELEM];
	bool int64_atomics;
	unsigned subgroup;
	bool report_subgroup, flat, global_local, amd, intel;
	unsigned kernel_subgroup, loop_cap;
	double noise;
	double t0; /* the fixed part of a step's time, in passes (CBSTUB_T0) */
	size_t timer_res, max_wg, kernel_wg;
	cl_uint units, clock_mhz;
	const char *name;
	char fault[64];
	int fault_n, fault_code, fault_device; /* fault_device -1: every device */
	unsigned ndevices, current;            /* current: the device of the last context */
	bool fault_fired;
	unsigned launches;
	unsigned source_builds, binary_builds; /* clBuildProgram of a source, of a binary */
	cl_ulong clock;
	uint64_t rng;
} stub_device;
extern stub_device dev;

/* Reads the environment once (every entry point calls it first). */
void stub_setup(void);
/* Is fault WHAT asked for, on the device now in use? */
bool stub_fault_is(const char *what);
/* A driver call that never returns: signals interrupt the wait, and it waits again. */
void stub_hang(const char *call) __attribute__((noreturn));
/* What cl/chase.cl, store.cl or atomic.cl returns for work-item LID of a group of WG. */
uint32_t stub_expected(const struct _cl_kernel *k, const uint32_t *table, size_t lid, size_t wg);
/* cl/transpose.cl, done for real, and its event. */
cl_int stub_transpose(cl_kernel k, cl_event *ev);
/* A launch of NS (with noise) on the virtual clock, and its event. */
cl_event stub_new_event(double ns);

#endif
