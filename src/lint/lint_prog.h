/* SPDX-License-Identifier: MIT */
/*
 * The program lint interprets: the kernel and the helper functions it calls, translated once
 * from LLVM IR (lint_decode.c) into flat instructions over numbered value slots, so that the
 * interpreter (lint_interp.c) never calls LLVM and runs 1024 work-items quickly.
 */
#ifndef CB_LINT_PROG_H
#define CB_LINT_PROG_H

#include "lint/lint.h"
#include "lint/lint_val.h"

#include <stdbool.h>
#include <stdint.h>

#define CB_NONE UINT32_MAX

typedef enum {
	CB_I_NOP,
	CB_I_BIN,    /* sub: cb_binop; a, b */
	CB_I_ICMP,   /* sub: cb_pred; a, b; imm: operand width */
	CB_I_CAST,   /* sub: cb_cast; a; imm: source width */
	CB_I_SELECT, /* a ? b : c */
	CB_I_PHI,    /* extra: n pairs (block, value) */
	CB_I_ALLOCA, /* imm: bytes */
	CB_I_LOAD,   /* a: pointer; imm: bytes; sub: cb_vkind of the result */
	CB_I_STORE,  /* a: value, b: pointer; imm: bytes; sub: cb_vkind of the value */
	CB_I_GEP,    /* a: base; extra: n pairs (index value, stride); imm: element bytes */
	CB_I_BR,     /* x: target */
	CB_I_CONDBR, /* a: condition; x: true target, n: false target; imm: source line */
	CB_I_SWITCH, /* a: value; x: default; extra at b: n pairs (case value, target); imm: line */
	CB_I_RET,    /* a: value or CB_NONE */
	CB_I_UNREACHABLE,
	CB_I_CALL,    /* imm: function; extra: n arguments */
	CB_I_BUILTIN, /* sub: cb_builtin; extra: n arguments; imm: access bytes or vector size */
	CB_I_ATOMIC,  /* a: pointer; imm: bytes (atomicrmw, cmpxchg) */
	CB_I_UNKNOWN, /* an unknown integer of width (or opaque when width is 0) */
	CB_I_COPY,    /* a (freeze, pointer casts) */
	CB_I_MEMSET,  /* a: pointer, b: byte value, c: length */
	CB_I_MEMCPY,  /* a: destination, b: source, c: length */
	CB_I_VINS,    /* insertelement: a: vector, b: scalar, c: index; rows: lanes, cols: bytes */
	CB_I_VEXT,    /* extractelement: a: vector, b: index; cols: element bytes */
	CB_I_VBIN,    /* integer vector arithmetic, lane by lane: sub: cb_binop; a, b; rows
			* lanes of cols bytes (a constant operand: CB_INS_VCONST_A/B) */
	CB_I_VSHUF,   /* shufflevector (swizzles: q.zw, q.yx): a, b of imm lanes each; rows
			* lanes of cols bytes; extra at c: the mask, lane k's source (-1 undefined) */
	CB_I_FLOAT,   /* floating-point arithmetic or conversion, not evaluated: a, b (or
			* CB_NONE) its operands, whose marks the unknown result keeps */
} cb_iop;

typedef enum { CB_GEP_PLAIN, CB_GEP_ARRAY2, CB_GEP_ROW } cb_gep_shape;

/* OpenCL C built-ins the interpreter knows; any other call returns an unknown value. */
typedef enum {
	CB_B_OTHER,
	CB_B_NOP,
	CB_B_LOCAL_ID,
	CB_B_GROUP_ID,
	CB_B_GLOBAL_ID,
	CB_B_LOCAL_SIZE,
	CB_B_GLOBAL_SIZE,
	CB_B_NUM_GROUPS,
	CB_B_WORK_DIM,
	CB_B_GLOBAL_OFFSET,
	CB_B_LOCAL_LINEAR_ID,
	CB_B_GLOBAL_LINEAR_ID,
	CB_B_SG_SIZE,
	CB_B_NUM_SG,
	CB_B_SG_ID,
	CB_B_SG_LOCAL_ID,
	CB_B_MIN,
	CB_B_MAX,
	CB_B_CLAMP,
	CB_B_ABS,
	CB_B_MUL24,
	CB_B_MAD24,
	CB_B_ATOMIC,
	CB_B_VLOAD,
	CB_B_VSTORE,
	CB_B_ASYNC_COPY, /* async_work_group_(strided_)copy: the group copies num elements */
} cb_builtin;

typedef struct {
	uint8_t op, sub, width, flags; /* width: bits of an integer result; flags: see below */
	uint32_t dst;                  /* result slot, or CB_NONE */
	uint32_t a, b, c;              /* operand slots */
	uint32_t x, n;                 /* an extra list (prog extra[x .. x + 2n)) or targets */
	uint32_t imm;
	int32_t site;        /* the __local access site, or -1 */
	uint32_t rows, cols; /* GEP over T[rows][cols] or T[cols] (sub: cb_gep_shape) */
} cb_ins;

#define CB_INS_SIGNED 1  /* a builtin's integer arguments are signed */
#define CB_INS_GENERIC 2 /* its site's pointer is generic: an access only when it is __local */
#define CB_INS_UNSEEN \
	4               /* a call lint does not evaluate, whose integer or pointer result is
			  * marked CB_VF_UNSEEN; cols: its name's index in cb_prog.unseen */
#define CB_INS_VECTOR 8 /* a load or store of an integer vector: rows lanes of cols bytes */
/* Operand a (a store's value) or b of a vector instruction is a constant vector: its lanes
 * are the slots extra[x + 2k] (a) or extra[n + 2k] (b). */
#define CB_INS_VCONST_A 16
#define CB_INS_VCONST_B 32

typedef struct {
	uint32_t first, end; /* instructions [first, end); phis first */
	uint32_t nphi;
	int32_t loop;  /* innermost loop, or -1 */
	int32_t ipdom; /* immediate post-dominator, or -1 (the exit) */
	bool header;   /* a loop header */
} cb_block;

typedef struct {
	uint32_t header;
	int32_t parent; /* enclosing loop, or -1 */
	uint32_t depth; /* 1 for an outermost loop */
} cb_loop;

typedef struct {
	char *name;
	uint32_t nargs;      /* slots [0, nargs) */
	uint32_t nvals;      /* all slots: arguments, results, constants */
	uint32_t const_base; /* constants fill [const_base, nvals) */
	cb_val *consts;
	cb_ins *ins;
	uint32_t nins;
	cb_block *blocks;
	uint32_t nblocks;
	uint32_t *succ, *succ_first; /* successors of block b: succ[succ_first[b] .. [b + 1]) */
	uint32_t *extra;
	uint32_t nextra;
	cb_loop *loops;
	uint32_t nloops;
	uint8_t ret_kind; /* cb_vkind of the return value */
	uint8_t ret_width;
} cb_fn;

typedef struct {
	char *file;
	unsigned line, column;
	cb_op op;
	unsigned elem_bytes;
	char *elem_type;
	uint32_t fn, block;
	int32_t object; /* the object the IR shows it addresses, or -1 (not executed) */
	int32_t arg;    /* that object is this kernel argument's, or -1 */
	char *callee;   /* CB_LINT_CALL: the function's name as the source spells it */
	bool generic;   /* through a generic pointer (OpenCL C 2.0): reported only when
				  * a __local pointer reaches it */
} cb_site;

typedef enum {
	CB_ARG_GLOBAL,  /* a __global or __constant pointer */
	CB_ARG_LOCAL,   /* a __local pointer: a dynamic object */
	CB_ARG_INT,     /* an integer (given with --arg, or unknown) */
	CB_ARG_PRIVATE, /* a by-value aggregate: private memory of unknown contents */
	CB_ARG_OTHER    /* floats, vectors, images: opaque */
} cb_arg_kind;

/* A field of a by-value struct argument, from the debug information: NAME at byte OFFSET,
 * COUNT elements of BYTES (COUNT 1: not an array). */
typedef struct {
	char *name;
	uint32_t offset, bytes, count;
	bool integer;
} cb_field;

/* A field's value given with --arg NAME.FIELD=V: stored into the argument's private copy. */
typedef struct {
	uint32_t offset, bytes;
	int64_t value;
} cb_field_value;

typedef struct {
	char *name;
	cb_arg_kind kind;
	unsigned width;   /* integer bits */
	bool is_unsigned; /* an integer argument's C type is unsigned (uint, size_t...) */
	char ctype[24];   /* an integer argument's C type as written ("int", "size_t"), or "" */
	uint64_t bytes;   /* private aggregate size */
	int32_t object;   /* local object of a CB_ARG_LOCAL */
	cb_field *fields; /* a CB_ARG_PRIVATE struct's fields (none without debug info) */
	uint32_t nfields;
	cb_field_value *values;
	uint32_t nvalues;
} cb_karg;

typedef struct {
	cb_fn *fns;
	uint32_t nfns; /* fns[0] is the kernel */
	cb_site *sites;
	uint32_t nsites;
	cb_lint_object *objects; /* __local objects: statics, then arguments */
	uint32_t nobjects;
	cb_karg *args;
	uint32_t nargs;
	char *kernel;
	unsigned reqd[3];       /* the kernel's reqd_work_group_size, or 0s */
	unsigned reqd_subgroup; /* its intel_reqd_sub_group_size (the SIMD width it is compiled
				  * for), or 0 */
	unsigned launch_bounds; /* CUDA, HIP: its __launch_bounds__ (most threads), or 0 */
	bool reads_yz;          /* it reads a y or z thread id or block size (lint_target.c) */
	/* Calls whose integer or pointer result lint does not compute, each name once as the
	 * source spells it: functions declared but not defined, then built-ins (mangled). */
	char **unseen;
	bool *unseen_builtin;
	uint32_t nunseen;
	/* The IR's own count of __local memory operations in the kernel and the functions it
	 * calls (lint_decode.c, apart from the translation): loads, stores, atomics, each
	 * __local pointer of llvm.memcpy / memmove / memset, and calls of declared functions
	 * with a __local pointer. The coverage compares the sites with it. */
	uint32_t ir_local_ops;
} cb_prog;

void cb_prog_free(cb_prog *p); /* lint_prog.c */

#endif
