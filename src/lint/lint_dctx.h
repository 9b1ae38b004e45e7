/* SPDX-License-Identifier: MIT */
/* The translation's context (lint_dctx.c), shared by the two halves of the translation from
 * LLVM IR (lint_decode.c: module, functions, arguments; lint_decode_ins.c: instructions). */
#ifndef CB_LINT_DCTX_H
#define CB_LINT_DCTX_H

#include "lint/lint_prog.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

/* LLVM handles to indices. */
typedef struct {
	const void **keys;
	uint32_t *vals;
	size_t cap, n;
} cb_pmap;

uint32_t cb_pmap_get(const cb_pmap *m, const void *key); /* CB_NONE when absent */
void cb_pmap_put(cb_pmap *m, const void *key, uint32_t val);
void cb_pmap_free(cb_pmap *m);

typedef struct {
	LLVMModuleRef mod;
	LLVMContextRef ctx;
	LLVMTargetDataRef td;
	cb_prog *prog;
	cb_error *err;
	char cwd[4096];    /* the working directory ("" when not known), for file names */
	cb_pmap fns, objs; /* function -> index, __local global -> object */
	LLVMValueRef *fnref;
	size_t fncap, sitecap, objcap;
	/* the function being translated */
	uint32_t fn_index, block;
	cb_fn *f;
	cb_pmap vals, blocks;
	size_t inscap, extracap, constcap;
} cb_dctx;

/* Value slot of an operand (constants are evaluated and given a slot on first use). */
uint32_t cb_dref(cb_dctx *d, LLVMValueRef v);
/* A constant slot holding V. */
uint32_t cb_dconst(cb_dctx *d, cb_val v);
uint32_t cb_dextra(cb_dctx *d, uint32_t a, uint32_t b); /* appends a pair; its index */
/* The function a call calls (through pointer casts), or NULL. */
LLVMValueRef cb_callee(LLVMValueRef call);
/* Index of a defined function, queued for translation. */
uint32_t cb_dfunction(cb_dctx *d, LLVMValueRef fn);
/* A new, zeroed __local object; its index. */
uint32_t cb_dobject(cb_dctx *d);
/* The static __local object pointer V addresses as the IR shows it, or -1. */
int32_t cb_dstatic_object(cb_dctx *d, LLVMValueRef v);
/* The row width W of an index r * W + c (or r * W, r << k + c; W a constant, or a variable
 * stored once with a constant), 0 when it is no such expression. */
unsigned cb_index_width(LLVMValueRef idx);
int32_t cb_dsite(cb_dctx *d, LLVMValueRef ins, LLVMValueRef ptr, cb_op op, LLVMTypeRef type,
		 uint64_t bytes);
cb_val cb_dconst_value(cb_dctx *d, LLVMValueRef v);

unsigned cb_int_width(LLVMTypeRef t); /* 0 unless an integer of at most 64 bits */
uint8_t cb_value_kind(LLVMTypeRef t);
unsigned cb_addrspace(LLVMTypeRef t); /* of a pointer; 0 otherwise */

/* Steps of a GEP (operand 0 its base): index values and strides, its shape. */
typedef struct {
	uint8_t shape;
	uint32_t rows, cols, ebytes;
	uint32_t n;
	LLVMValueRef idx[16];
	uint64_t stride[16]; /* bytes per index; a struct field is a constant with stride 1 */
	uint64_t field[16];  /* the field's offset when idx is NULL */
} cb_gep_steps;

bool cb_gep_decode(cb_dctx *d, LLVMValueRef gep, cb_gep_steps *s);

#endif
