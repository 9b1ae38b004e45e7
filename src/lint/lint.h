/* SPDX-License-Identifier: MIT */
/*
 * clbanks lint: which __local accesses of an OpenCL kernel conflict on a measured bank model,
 * how badly, and what fixes them -- without running the kernel.
 *
 * Files: src/lint/README says which need LLVM and which do not.
 *
 * Method. clang (the major version of the LLVM clbanks links) compiles the kernel to LLVM IR
 * with debug info and no LLVM passes (-x cl -cl-std=CL1.2 -target spir64 -g -O1 -Xclang
 * -disable-llvm-passes): every statement keeps its own loads and stores and its line and
 * column (optimized IR merges stores across lines), and C99 inline functions, which -O0 only
 * declares, keep their bodies. A call of a function that is neither defined nor a known
 * built-in and gets a __local pointer is an access of its own, "unknown" (what it does is not
 * seen), never a silent gap. The IR is
 * translated once into a compact program, and a small interpreter runs every work-item of one
 * work-group with its concrete ids (get_local_id, get_group_id, get_local_size, sub-group
 * ids). Integers are concrete or "unknown with bounds" (an interval): values read from
 * __global, __constant or __local memory, floats, and scalar arguments not given with --arg
 * are unknown. Pointers are (object, byte offset); private memory is modelled, so indices and
 * pointers kept in private variables work; helper functions are interpreted, not inlined.
 * Work-items are independent (nothing read from __local memory is known), so each runs to
 * its end and barriers need no scheduling. Every load, store and atomic on __local memory
 * is recorded per work-item under a key of loop iterations (one counter per enclosing loop,
 * and the call sites on the way), lanes are grouped into sub-groups of consecutive linear
 * local ids (x + X * (y + Y * z)), and each sub-group access (the lanes that reached it under
 * one key) is priced by the pricer: the same passes function as predict (cb_passes_active),
 * with the lanes that did not reach it left out but in place.
 *
 * For each access the result has its passes per iteration (worst over sub-groups), the
 * worst passes, the conflict-free minimum (the same active lanes reading consecutive
 * elements; an access whose lanes share words and so take fewer passes is its own minimum),
 * "k-way" (passes over minimum), and, for a conflict in a __local 2-D array T a[R][C] whose
 * row and column indices the interpreter knows, the fix: the smallest row padding that takes
 * every sub-group access to its minimum, and the XOR swizzle a[r][c ^ ((r >> shift) & mask)]
 * (shared with the rest of clbanks) with the fewest passes, offered only when it reaches the
 * minimum too.
 *
 * Honest limits.
 * - An index or pointer computed from the result of a call lint does not evaluate (a function
 *   declared but not defined, a built-in it does not model) is "unknown", naming the call.
 * - A data-dependent index is "unknown" with bounds (from the type, masks, remainders,
 *   comparisons and the object's size), never a guess; so is a lane set that spans two
 *   __local objects: their relative placement is up to the driver. Every __local object is
 *   assumed to start on a bank row (offsets are priced from the object's start).
 * - A branch that cannot be decided and whose two sides only compute values that meet in the
 *   phis of one block (c ? a : b, which clang emits as a branch) runs both sides: each phi is
 *   the hull of its two values, nothing assumed.
 * - Any other branch that cannot be decided is simulated both ways: a side without __local
 *   accesses or calls (an early return) is skipped; when both sides have some, the work-group
 *   runs twice, once with every such branch on its true side and once on its false side, and
 *   each access takes the worse of the two runs. A loop test stays in the loop for
 *   CB_LINT_ASSUMED_ITERATIONS iterations, then leaves. Every access executed under such a
 *   branch (up to its immediate post-dominator), and every access whose address was computed
 *   from values set there, is "assumed", saying which line; a side that neither run takes
 *   (the other side of a nested branch) is "not executed", saying so. (Conservative: every
 *   value computed in the region counts as set there, whether or not it depends on the
 *   branch.)
 * - Paths the simulated work-group does not take are "not executed": another --group may
 *   take them. get_num_groups and get_global_size are bounds only (no global size is given).
 * - Atomics are priced by the load model without merging (lanes on one word serialize),
 *   stores by the load model, until the model has measured stores and atomics.
 * - Recorded: loads, stores, atomics (built-ins and LLVM atomics), vloadN / vstoreN and the
 *   __local side of async_work_group_(strided_)copy (work-item l copies elements l, l + G,
 *   ... of the G work-items, as implementations do; the specification leaves it open). Other
 *   calls that get a __local pointer and are neither defined nor known are unknown accesses.
 *   Aggregate copies (llvm.memcpy) of __local memory are recorded as words. Private arrays
 *   initialized from constant tables, constant vectors, shuffles and anything floating-point
 *   read as unknown; integer vectors built lane by lane, (int2)(a, b), are followed. Kernels
 *   are compiled as OpenCL C 1.2 (no generic address space).
 * - A work-item that runs more than CB_ITEM_STEPS IR instructions (lint_interp.h), or a
 *   sub-group that makes more than CB_REC_LANES lane accesses (lint_record.h), stops the run
 *   with an error that asks for loop bounds (-D, --arg); the work-group has at most
 *   CB_LINT_MAX_ITEMS work-items.
 */
#ifndef CB_LINT_H
#define CB_LINT_H

#include "core/error.h"
#include "core/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CB_LINT_ASSUMED_ITERATIONS 4
#define CB_LINT_MAX_ITEMS 4096 /* work-items in the simulated group */
/* A comment with this on an access's line accepts its conflict: it is reported only with
 * --verbose and does not fail --fail-on-conflict. */
#define CB_LINT_SUPPRESS "clbanks: ignore"

/* A site's kind: the three measured ops (cb_op), or CB_LINT_CALL, a call of a function lint
 * cannot see (neither defined nor a known built-in) that takes a __local pointer: whatever it
 * accesses is unknown, never priced. */
#define CB_LINT_CALL ((cb_op)CB_NOPS)
#define CB_LINT_KINDS (CB_NOPS + 1)

/* How a model prices one sub-group access; the engine does not know where it came from. */
typedef struct cb_lint_pricer {
	unsigned subgroup; /* lanes per sub-group */
	unsigned period;   /* bytes after which the banks repeat (banks x width), bounding the
			    * padding search; 0 when not known (then 256) */
	/* Passes of one sub-group access, and the conflict-free minimum for the same active lanes
	 * and element size; false when the model cannot price that op or element size. */
	bool (*price)(const struct cb_lint_pricer *p, cb_op op, unsigned elem_bytes,
		      const uint32_t *offsets, const bool *active, unsigned nlanes,
		      unsigned *passes, unsigned *min_passes);
	void *ctx;
} cb_lint_pricer;

/* One op's measured bank model: geometry plus lanes per pass for each element size, indexed
 * as cb_elems (0 = not measured). */
typedef struct {
	bool measured;
	bool by_size; /* the element sizes' own models (by_elem_bytes): only those sizes */
	cb_geometry geom;
	unsigned lanes_per_pass[CB_NELEM];
	/* Lanes served in groups that are not contiguous (a documented model's lane_groups,
	 * core/model.h cb_price_access_order): norder 0 when contiguous. */
	unsigned norder[CB_NELEM];
	uint8_t order[CB_NELEM][CB_MAX_ORDER];
	/* The fitted time per step, t0 + cost x passes, where the document has it (for the
	 * loads in ops[CB_OP_LOAD], whose `measured` stays false): what --measure compares. */
	bool has_time[CB_NELEM];
	double t0[CB_NELEM], cost[CB_NELEM];
} cb_lint_op_model;

/* A pricer over a measured bank model: the loads' (geom, lanes_per_pass), and the stores' and
 * atomics' where the document has them (ops[CB_OP_STORE], ops[CB_OP_ATOMIC]). An op
 * without its own model is priced with the loads' model, atomics without merging (lanes on
 * one word serialize). Caller-owned; pricer.ctx points back to it. */
typedef struct {
	cb_lint_pricer pricer;
	bool flat; /* the loads are not banked: ops without a model of their own take
			     * one pass for every pattern */
	cb_geometry geom;
	unsigned lanes_per_pass[CB_NELEM];
	unsigned norder[CB_NELEM]; /* the loads' lane groups, as in cb_lint_op_model */
	uint8_t order[CB_NELEM][CB_MAX_ORDER];
	cb_lint_op_model ops[CB_NOPS];
	bool documented;          /* from the vendor's documentation, not measured (issue 38) */
	uint64_t local_mem_bytes; /* the device's __local memory (the document's
				   * device.local_mem_bytes); 0: not known. Set after the pricer. */
} cb_lint_model;

void cb_lint_pricer_from_model(cb_lint_model *m, const cb_geometry *g,
			       const unsigned lanes_per_pass[CB_NELEM], unsigned subgroup);
/* A pricer for a not-banked document: one pass for every access. */
void cb_lint_pricer_flat(cb_lint_model *m, unsigned subgroup);
/* Gives OP (store or atomic) its own measured model. */
void cb_lint_model_set_op(cb_lint_model *m, cb_op op, const cb_geometry *g,
			  const unsigned lanes_per_pass[CB_NELEM]);
/* Element size E of OP's model (the loads' for CB_OP_LOAD) serves its lanes in the groups
 * ORDER lists (N lanes, group after group; cb_lane_order_valid), not in contiguous ones. */
void cb_lint_model_set_order(cb_lint_model *m, cb_op op, int e, const uint8_t *order, unsigned n);
/* "measured" when OP has its own model, else what stands in for it. */
const char *cb_lint_model_source(const cb_lint_model *m, cb_op op);

/* One distinct lane table of an access: the byte offsets of a sub-group's lanes in the object
 * (inactive lanes: 0, active false), how many of the work-group's sub-group accesses had it,
 * and its passes on the model. */
typedef struct {
	uint32_t *offsets;
	bool *active;
	unsigned nlanes;
	uint64_t count;
	unsigned passes, min_passes;
	uint32_t hash;
} cb_lint_table;

/* The distinct lane tables of an access (kept with cb_lint_request.keep_tables), most frequent
 * first. Only the first CB_LINT_TABLES_KEPT distinct ones are counted; sub-group accesses
 * with a later new table are counted in `dropped`. */
#define CB_LINT_TABLES_KEPT 64
typedef struct {
	cb_lint_table *v;
	size_t n, cap;
	uint64_t total;   /* sub-group accesses seen */
	uint64_t dropped; /* ... whose table was not kept */
} cb_lint_tables;

/* An access's measured cost (clbanks lint --measure): its most frequent lane tables timed on a
 * device against the conflict-free table of the same op, element size and active lanes. */
typedef struct {
	bool done;
	char note[200];      /* not measured: why ("" when measured) */
	double slowdown;     /* time over the conflict-free table's, weighted by how often each
			      * table occurs */
	double ci_lo, ci_hi; /* its 95% interval */
	double predicted;    /* passes over minimum, weighted the same way; NAN without a model */
	bool disagrees;      /* measured and predicted differ beyond the noise and tolerance */
	unsigned tables;     /* tables measured */
	double coverage;     /* share of the access's sub-group accesses they stand for */
	double ns, baseline_ns; /* ns per access of the tables and of their references, weighted */
} cb_lint_measured;

/* One priced sub-group access, for callers that want every one (tests, traces). */
typedef struct {
	const char *file; /* as clang names it; "" when the IR has no location */
	unsigned line, column;
	cb_op op;
	unsigned elem_bytes;
	unsigned subgroup; /* which sub-group of the work-group */
	size_t iteration;  /* index into the access's iterations */
	unsigned nlanes;
	const uint32_t *offsets; /* byte offsets in the object (inactive lanes: 0) */
	const bool *active;
	unsigned passes, min_passes;
} cb_lint_sample;

/* The kernel's language (--lang, else the file's extension: lint_lang.c). */
typedef enum { CB_LINT_OPENCL, CB_LINT_CUDA, CB_LINT_HIP } cb_lint_lang;

typedef struct {
	const char *kernel_path;
	const char *kernel_name;    /* NULL: the only kernel of the file */
	unsigned local[3];          /* work-group size (--local X[,Y[,Z]]); 0 = not given: the
					* kernel's reqd_work_group_size */
	unsigned global[3];         /* the global size (--global); 0 = not given */
	unsigned group[3];          /* the simulated work-group's id (--group X,Y,Z) */
	const char *const *defines; /* -D: "NAME" or "NAME=VALUE" */
	size_t ndefines;
	const char *const *includes; /* -I: directories */
	size_t nincludes;
	const char *cl_std;        /* "CL1.2" (NULL), "CL2.0" or "CL3.0" */
	const char *build_options; /* clBuildProgram options, passed to clang once checked */
	const char *const *args;   /* --arg: "NAME=VALUE"; a scalar argument's value, or the
					* size in bytes of a __local pointer argument */
	size_t nargs;
	const cb_lint_pricer *pricer;
	const cb_lint_model *model; /* optional: the model to report (JSON "model") */
	const char *clang;          /* NULL: the configured one (the CLI: $CLBANKS_CLANG) */
	bool keep_tables;           /* keep each access's distinct lane tables (--measure) */
	/* When not NULL: object k's fix is fixes_from[k].fix (found there, by a run of the same
	 * kernel), judged on this pricer, instead of the search's: with several models, the fix
	 * best across them. */
	const struct cb_lint_object *fixes_from;
	size_t nfixes_from;
	void (*observe)(void *ctx, const cb_lint_sample *s); /* optional: each priced one */
	void *observe_ctx;
	/* CUDA and HIP (lint_lang.c): the language, clbanks' device headers (cuda_runtime.h,
	 * hip/hip_runtime.h), a real SDK's root instead (--cuda-path, --rocm-path), and the bytes
	 * of the dynamic shared memory (extern __shared__ arrays; 0: not given). */
	cb_lint_lang lang;
	const char *device_include;
	const char *sdk_path;
	uint64_t shared_bytes;
} cb_lint_request;

typedef enum {
	CB_LINT_PREDICTED,   /* every sub-group access priced from known offsets */
	CB_LINT_ASSUMED,     /* priced, but under a branch that could not be decided */
	CB_LINT_UNKNOWN,     /* an offset is data-dependent, or lanes span objects */
	CB_LINT_NOT_EXECUTED /* the simulated work-group never reaches it */
} cb_lint_status;

/* Why an access is not simply predicted (cb_lint_access.reason): what the coverage counts. */
typedef enum {
	CB_LINT_WHY_NONE,
	CB_LINT_WHY_BRANCH,  /* assumed: under an undecidable branch */
	CB_LINT_WHY_DECIDED, /* assumed: under a branch decided by such values */
	CB_LINT_WHY_TAINT,   /* assumed: its address was set under an undecidable branch */
	CB_LINT_WHY_DATA,    /* unknown: offsets depend on memory or arguments not given */
	CB_LINT_WHY_FLOAT,   /* unknown: offsets go through floating-point values alone */
	CB_LINT_WHY_OBJECTS, /* unknown: the lanes span objects */
	CB_LINT_WHY_POINTER, /* unknown: the pointer's object is not known */
	CB_LINT_WHY_BOUNDS,  /* unknown: an offset outside its object */
	CB_LINT_WHY_MODEL,   /* unknown: the model cannot price it */
	CB_LINT_WHY_CALL,    /* unknown: a call lint cannot see gets the pointer */
	CB_LINT_WHY_UNSEEN,  /* unknown: the address comes from such a call */
	CB_LINT_WHY_TWICE,   /* unknown: reached twice in one iteration */
	CB_LINT_WHY_SIDE,    /* not executed: a side of an undecidable branch no run took */
	CB_LINT_WHY_GROUP,   /* not executed: the simulated work-group does not reach it */
	CB_LINT_NWHY
} cb_lint_why;

/* Every run's account of the IR: how many __local memory operations the kernel's IR has
 * (its own count) and how many of them lint reports; a difference is a lint bug, shown. */
typedef struct {
	size_t ir;        /* prog's ir_local_ops */
	size_t reported;  /* accesses through __local pointers (each IR operation's) */
	size_t generic;   /* accesses through generic pointers that reached __local */
	size_t status[4]; /* by cb_lint_status */
	size_t why[CB_LINT_NWHY];
} cb_lint_coverage;

/* One fix of a __local array, judged on every access into it (each sub-group access of the
 * simulated work-group counted as often as it runs): the padding or XOR swizzle with the
 * fewest passes in all, then the least memory. A 1-D array indexed as rows (s[r * W + c]) is
 * judged as ROWS x W for the widths W its indices use (cb_lint_object.widths) that divide it,
 * else for each power-of-two W that divides it. */
typedef struct {
	bool swizzle;
	unsigned pad;         /* elements added to each row */
	unsigned bits, shift; /* a[r][c ^ ((r >> shift) & ((1 << bits) - 1))] */
	uint64_t bytes;       /* memory it adds */
	double total_passes;  /* over every judged access */
	unsigned worst_passes;
	bool at_minimum; /* every judged access at its conflict-free minimum */
} cb_lint_fix_choice;

typedef struct {
	bool wanted;          /* some access into the array conflicts */
	bool computed;        /* the accesses allowed a search */
	char note[200];       /* not computed, or no fix found: why */
	unsigned rows, width; /* the shape judged (width: the row a 1-D array is padded by) */
	unsigned judged;      /* accesses judged; the others (unknown offsets, ...) are not */
	unsigned unjudged;
	double total_before; /* passes in all without a fix */
	bool found;          /* a fix lowers the total */
	cb_lint_fix_choice best;
	bool alt_found; /* the best of the other kind, when it lowers the total as much */
	cb_lint_fix_choice alt;
	/* --measure: the measured slowdown over the accesses into the array, without and with
	 * the fix (each access weighted by its sub-group accesses), where both were measured */
	bool measured;
	double measured_before, measured_after;
} cb_lint_fix;

typedef struct cb_lint_object {
	char *name;      /* "tile", or the argument's name */
	char *elem_type; /* C type of one element: "float", "int", "double", "float4" */
	unsigned elem_bytes;
	unsigned rank;      /* 0: a pointer argument; 1: T a[N]; 2: T a[R][C]; ... */
	uint64_t dims[4];   /* the first four dimensions (a length may pass 2^32) */
	uint64_t bytes;     /* size; 0 for a pointer argument of unknown size */
	bool is_arg;        /* a __local kernel argument (dynamic) */
	unsigned decl_line; /* its declaration's line (debug information), 0: not known */
	unsigned widths[4]; /* a 1-D array: the row widths its indices use (s[r * W + c]) */
	unsigned nwidths;
	cb_lint_fix fix; /* the result's objects: the array's fix */
} cb_lint_object;

typedef struct {
	bool known;      /* false: unknown (data-dependent offsets, or spans objects) */
	unsigned passes; /* worst over the sub-groups that reached this iteration */
	unsigned min_passes;
} cb_lint_iter;

typedef struct {
	bool active; /* the lane reached the access */
	bool known;
	int64_t lo, hi; /* byte offset in the object (lo == hi when known), else bounds */
} cb_lint_lane;

typedef struct {
	char *file; /* as clang names it (the path given, or an included file) */
	unsigned line, column;
	cb_op op;
	unsigned elem_bytes;
	char *elem_type; /* the accessed C type */
	int object;      /* index in objects; -1 when unknown or several */
	cb_lint_status status;
	cb_lint_why reason;  /* CB_LINT_WHY_NONE when predicted */
	char note[240];      /* why unknown, assumed or not executed; "" when predicted */
	bool priced;         /* passes_max is known */
	unsigned passes_max; /* worst passes of any sub-group access */
	unsigned min_passes; /* the conflict-free minimum, worst over the sub-group accesses */
	unsigned ways;       /* passes over minimum, rounded up, worst: "k-way conflict" */
	bool conflict;       /* some priced sub-group access takes more than its minimum */
	size_t niter;
	cb_lint_iter *iter;      /* per loop iteration, in the order the work-group reached them */
	unsigned first_subgroup; /* the sub-group whose lanes follow: of the first priced
				   * sub-group access with the most passes (else the first) */
	unsigned nlanes;
	cb_lint_lane *lanes;        /* that sub-group access's */
	bool range_known;           /* every offset known (else lo/hi are bounds) */
	int64_t range_lo, range_hi; /* byte offsets over every sub-group and iteration */
	unsigned subgroups;         /* sub-groups that reached it */
	uint32_t site;              /* the program's site it reports */
	uint64_t total_passes;      /* over every sub-group access the work-group made */
	uint64_t total_min;         /* the same at the conflict-free minimum */
	bool suppressed;            /* its line says "clbanks: ignore" */
	unsigned nth, nsame;        /* the nth (from 1) of nsame accesses of its op at its line and
				   * column (a macro's expansion), in the order the kernel runs them */
	bool fixed;                 /* judged by its object's fix: passes under it follow */
	unsigned fixed_passes, alt_passes;
	char fix_note[200];          /* a conflict its object's fix does not judge: why */
	cb_lint_tables tables;       /* with keep_tables: its lane tables */
	cb_lint_tables fixed_tables; /* ... and under its object's fix */
	cb_lint_measured measured, fixed_measured;
} cb_lint_access;

/* One edit of the kernel's text that an array's fix makes (lint_edit.h): on LINE, the bytes
 * [COLUMN, END_COLUMN) (from 1) that read FROM become TO. */
typedef struct {
	size_t object;   /* index in objects */
	unsigned choice; /* 0: the array's best fix, 1: the other kind's (cb_lint_fix.alt) */
	size_t access;   /* index in accesses; CB_LINT_DECL: the array's declaration */
	char *file;
	unsigned line, column, end_column;
	char *from, *to;
} cb_lint_edit;

typedef struct {
	char *kernel, *path;
	cb_lint_lang lang; /* the kernel's language: its __local memory is __shared__ in
				    * CUDA and HIP */
	unsigned local[3], group[3], work_dim, subgroup;
	bool has_model;
	bool flat;       /* the model is not banked: every access one pass */
	bool documented; /* the model is documented, not measured */
	cb_geometry geom;
	unsigned lanes_per_pass[CB_NELEM];
	unsigned norder[CB_NELEM]; /* the loads' lane groups, as in cb_lint_op_model */
	uint8_t order[CB_NELEM][CB_MAX_ORDER];
	cb_lint_op_model ops[CB_NOPS]; /* the stores' and atomics' own models, where measured */
	cb_lint_object *objects;
	size_t nobjects;
	cb_lint_access *accesses; /* in source order */
	size_t naccesses;
	cb_lint_edit *edits; /* the arrays' fixes as edits of the source (lint_edit.h) */
	size_t nedits;
	char *build_log; /* clang's messages, "" when none; kept when the build fails */
	uint64_t steps;  /* IR instructions interpreted */
	cb_lint_coverage coverage;
	char predefined[320]; /* the macros the kernel was compiled with, as a driver would
				   * define them (cb_lint_predefined) */
	/* Measured (cb_lint_apply_measured): on which device, and the kernel's measured time over
	 * its accesses' conflict-free time (and the model's passes over minimum) for the
	 * accesses measured. */
	bool measured;
	char *measured_device;
	double measured_total, measured_total_ci, predicted_total;
	size_t measured_accesses;
	uint64_t local_bytes;     /* __local memory of its arrays and sized __local arguments */
	unsigned local_unsized;   /* __local arguments of unknown size (not in local_bytes) */
	uint64_t local_mem_bytes; /* the model's device's, 0 when not known */
	char warning[240];        /* "" or why the kernel cannot run on the model's device as
				   * linted: more __local memory than it has */
} cb_lint_result;

/* Compiles, simulates and prices. On failure ERR says why; a kernel that does not compile
 * gives CB_ERR_INPUT with clang's messages in res->build_log. Always call
 * cb_lint_result_free. Without LLVM: CB_ERR_USAGE, saying how to enable lint. */
cb_rc cb_lint_run(const cb_lint_request *req, cb_lint_result *res, cb_error *err);
void cb_lint_result_free(cb_lint_result *res);
/* Several models in one run (--model given more than once), each at its own sub-group size:
 * the kernel compiled and translated once, the work-group simulated once per distinct
 * sub-group size (every model of that size priced from the same simulation), and each
 * array's fix the one with the fewest passes summed over the models, judged on each. RES[i]
 * (N results, each to free) is MODELS[i]'s; req->pricer, model and fixes_from are not used.
 * Failures as cb_lint_run (every RES[i].build_log has clang's messages). */
cb_rc cb_lint_run_models(const cb_lint_request *req, const cb_lint_model *const *models, size_t n,
			 cb_lint_result *res, cb_error *err);

/* The kernels of req->kernel_path, in file order (compiled once; req->kernel_name is not
 * used), so that a caller can lint each; free with cb_lint_names_free. A file that does not
 * compile fails as cb_lint_run does (without the build log: run it for that). */
cb_rc cb_lint_kernels(const cb_lint_request *req, char ***names, size_t *n, cb_error *err);
void cb_lint_names_free(char **names, size_t n);

/* The access of R at A's place (the same site and nth), for comparing results of one kernel
 * under several models; NULL when R has none there. */
const cb_lint_access *cb_lint_same_access(const cb_lint_result *r, const cb_lint_access *a);

/* --fail-on-conflict: some predicted access takes more passes than its minimum. */
bool cb_lint_has_conflict(const cb_lint_result *res);
/* Assumed accesses (under a branch lint cannot decide) that conflict, not accepted with
 * CB_LINT_SUPPRESS: --fail-on-conflict fails on them unless --allow-assumed. */
size_t cb_lint_assumed_conflicts(const cb_lint_result *res);
/* Accesses whose passes are unknown (--fail-on-conflict fails on them unless --allow-unknown). */
size_t cb_lint_unknown_count(const cb_lint_result *res);

/* Tables (lint_tables.c): one more sub-group access with this table; most frequent first;
 * free. */
void cb_lint_tables_add(cb_lint_tables *t, const uint32_t *offsets, const bool *active,
			unsigned nlanes, unsigned passes, unsigned min_passes);
void cb_lint_tables_sort(cb_lint_tables *t);
void cb_lint_tables_free(cb_lint_tables *t);

const char *cb_lint_status_name(cb_lint_status s);
/* "undecidable branch", "data-dependent offsets" ...: a reason as the coverage says it; and
 * its JSON key ("branch", "data" ...). */
const char *cb_lint_why_text(cb_lint_why w);
const char *cb_lint_why_key(cb_lint_why w);

/* Declarations for the renderers (names as the kernel spells them, not escaped):
 * "float tile[32][32]" or "float *buf"; the padded "float tile[32][32+1]"; the swizzled
 * access "tile[r][c ^ ((r >> 1) & 15)]". */
void cb_lint_object_decl(const cb_lint_object *o, char *buf, size_t n);
/* A fix in the kernel's words: "float tile[32][32+1]", "tile[r][c ^ (r & 31)]"; for a 1-D
 * array "float s[32*(32+1)], s[r * (32+1) + c]" or "s[r * 32 + (c ^ (r & 31))]". */
void cb_lint_fix_text(const cb_lint_object *o, const cb_lint_fix *f, const cb_lint_fix_choice *c,
		      char *buf, size_t n);

/* The OpenCL version a device of the request's OpenCL C version (--cl-std, or a -cl-std= in
 * the build options, the last one winning) reports: 110, 120 (the default), 200 or 300. Lint
 * defines __OPENCL_VERSION__ to it, as drivers do, unless -D or the options define it. */
unsigned cb_lint_opencl_version(const cb_lint_request *req);
/* Whether the request defines NAME itself (-D NAME or NAME=..., or in the build options). */
bool cb_lint_defines(const cb_lint_request *req, const char *name);
/* Which predefined macros the kernel sees and from where, for --verbose. */
void cb_lint_predefined(const cb_lint_request *req, char *buf, size_t n);

/* True when lint was built (configure found LLVM and clang). */
bool cb_lint_available(void);

#endif
