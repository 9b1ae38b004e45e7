/* SPDX-License-Identifier: MIT */
/*
 * Values of the lint interpreter. An integer of width w is an interval [lo, hi] of its signed
 * reading (known when lo == hi; i1 is 0 or 1); operations are exact on known values (with
 * two's complement wrap-around) and sound on intervals: a result that may wrap becomes the
 * whole range of its type, never a guess. A pointer is an object and an interval of byte
 * offsets in it. Anything else (floats, vectors) is opaque.
 */
#ifndef CB_LINT_VAL_H
#define CB_LINT_VAL_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { CB_V_UNDEF, CB_V_NUM, CB_V_PTR, CB_V_OPAQUE } cb_vkind;

#define CB_VF_TAINT 1 /* depends on a branch that was assumed */
#define CB_VF_UNSEEN \
	2 /* depends on the result of a call lint does not evaluate (a function
			* declared but not defined, a built-in it does not model) */
/* Which of those calls (the program's list of them, cb_prog.unseen): bit 2 + K for the K-th,
 * the last bit for the fifth and later ones. */
#define CB_VF_CALLEE(k) ((uint8_t)(4u << ((k) < 4 ? (k) : 4)))
#define CB_VF_CALLEES 0x7Cu
/* Depends on which side an undecidable branch took (a variable written on one side, read
 * after the sides meet): an address with it is unknown, never the guessed side's value. */
#define CB_VF_GUESS 0x80u
/* Why an integer is not known, so that an unknown address names its cause: it went through
 * floating-point values (float arithmetic, a float built-in, a conversion: never evaluated),
 * was read from memory whose contents lint does not know (__global, __local, an atomic's old
 * value), or is a kernel argument not given with --arg. */
#define CB_VF_FLOAT 0x100u
#define CB_VF_MEM 0x200u
#define CB_VF_ARG 0x400u
#define CB_VF_CAUSES 0x700u

/* Objects a pointer can point into; __local and private objects follow. */
enum { CB_OBJ_NONE = 0, CB_OBJ_GLOBAL = 1, CB_OBJ_MULTI = 2, CB_OBJ_FIRST = 3 };

#define CB_IDX_NONE (-1) /* a pointer at an object's start, no index recorded yet */
#define CB_IDX_LOST (-2) /* indices not known (pointer arithmetic, casts, unknown index) */

typedef struct {
	int64_t lo, hi;   /* NUM: the value's bounds; PTR: the byte offset's bounds */
	int32_t obj;      /* PTR: object */
	int32_t row, col; /* PTR into a 2-D array: the indices of a[row][col], or CB_IDX_* */
	uint8_t kind;
	uint16_t flags;
} cb_val;

typedef enum {
	CB_ADD,
	CB_SUB,
	CB_MUL,
	CB_UDIV,
	CB_SDIV,
	CB_UREM,
	CB_SREM,
	CB_SHL,
	CB_LSHR,
	CB_ASHR,
	CB_AND,
	CB_OR,
	CB_XOR
} cb_binop;

typedef enum {
	CB_EQ,
	CB_NE,
	CB_UGT,
	CB_UGE,
	CB_ULT,
	CB_ULE,
	CB_SGT,
	CB_SGE,
	CB_SLT,
	CB_SLE
} cb_pred;

typedef enum { CB_TRUNC, CB_ZEXT, CB_SEXT, CB_PTRTOINT, CB_INTTOPTR } cb_cast;

static inline bool cb_val_known(const cb_val *v)
{
	return v->kind == CB_V_NUM && v->lo == v->hi;
}

cb_val cb_val_int(int64_t v);
/* Every value of an integer of WIDTH bits (opaque when WIDTH is 0). */
cb_val cb_val_range(unsigned width);
cb_val cb_val_opaque(void);
cb_val cb_val_ptr(int32_t obj, int64_t offset);
/* V as an integer of WIDTH bits: wrapped to the signed reading (i1: 0 or 1). */
int64_t cb_wrap(int64_t v, unsigned width);

cb_val cb_val_binop(cb_binop op, unsigned width, cb_val a, cb_val b);
/* Comparison of integers of WIDTH bits, or of pointers: i1, unknown when undecided. */
cb_val cb_val_icmp(cb_pred p, unsigned width, cb_val a, cb_val b);
cb_val cb_val_cast(cb_cast c, unsigned from, unsigned to, cb_val a);
/* Either A or B (a select whose condition is not known): the hull of both. */
cb_val cb_val_join(cb_val a, cb_val b);

/* Integer min/max/clamp/abs of OpenCL C, signed or not. */
cb_val cb_val_minmax(bool is_max, bool is_signed, unsigned width, cb_val a, cb_val b);

#endif
