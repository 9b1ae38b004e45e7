/* SPDX-License-Identifier: MIT */
/* Shared by the two halves of the translation from LLVM IR (lint_decode.c: module, objects,
 * constants; lint_decode_ins.c: instructions). */
#ifndef CB_LINT_DECODE_H
#define CB_LINT_DECODE_H

#include "lint/lint_ir.h"

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
	cb_pmap fns, objs;         /* function -> index, __local global -> object */
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
int32_t cb_dsite(cb_dctx *d, LLVMValueRef ins, LLVMValueRef ptr, cb_lint_op op, LLVMTypeRef type,
		 uint64_t bytes);
cb_val cb_dconst_value(cb_dctx *d, LLVMValueRef v);

unsigned cb_int_width(LLVMTypeRef t);       /* 0 unless an integer of at most 64 bits */
uint8_t cb_value_kind(LLVMTypeRef t);
unsigned cb_addrspace(LLVMTypeRef t);        /* of a pointer; 0 otherwise */

/* Names (lint_names.c): the C name of an IR type; a __local variable's element type as
 * declared (false when the debug information does not say); the kernel_arg_WHAT metadata
 * strings of a kernel (NULL when absent; free with cb_free_strings); "float" of "float*". */
void cb_type_name(LLVMTypeRef t, char *buf, size_t n);
bool cb_debug_elem_name(cb_dctx *d, LLVMValueRef g, char *buf, size_t n);
char **cb_kernel_arg_strings(cb_dctx *d, LLVMValueRef fn, const char *what, unsigned n);
void cb_free_strings(char **s, unsigned n);
char *cb_pointee_name(const char *type);
unsigned cb_cl_type_bytes(const char *type);

/* Steps of a GEP (operand 0 its base): index values and strides, its shape. */
typedef struct {
	uint8_t shape;
	uint32_t rows, cols, ebytes;
	uint32_t n;
	LLVMValueRef idx[16];
	uint64_t stride[16];        /* bytes per index; a struct field is a constant with stride 1 */
	uint64_t field[16];         /* the field's offset when idx is NULL */
} cb_gep_steps;

bool cb_gep_decode(cb_dctx *d, LLVMValueRef gep, cb_gep_steps *s);

/* Translates one instruction into *out; false when it is dropped (debug intrinsics). */
bool cb_decode_ins(cb_dctx *d, LLVMValueRef i, cb_ins *out);

#endif
