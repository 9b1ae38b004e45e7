/* SPDX-License-Identifier: MIT */
/* Memory of the interpreter (lint_mem.c): GEP arithmetic, the bump arena, and the private
 * objects of a work-item. */
#ifndef CB_LINT_MEM_H
#define CB_LINT_MEM_H

#include "lint/lint_prog.h"
#include "lint/lint_val.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cb_interp cb_interp; /* lint_interp.h */

/* A GEP G: BASE plus idx[k] * stride[k] bytes, with the row and column of a __local 2-D array
 * T a[R][C] when G indexes it as a[r][c] (directly, or through a pointer to its rows). An
 * unknown offset into a __local object of known size is bounded by the object. */
cb_val cb_gep_eval(const cb_prog *p, const cb_ins *g, cb_val base, const cb_val *idx,
		   const uint64_t *stride, uint32_t n);

/* Bump allocation, released all at once between work-items. */
typedef struct cb_chunk cb_chunk;
typedef struct {
	cb_chunk *head;
} cb_arena;

typedef struct {
	cb_chunk *chunk;
	size_t used;
} cb_arena_mark;

void *cb_arena_alloc(cb_arena *a, size_t n); /* zeroed */
cb_arena_mark cb_arena_get_mark(const cb_arena *a);
/* Frees what was allocated since M (a returning call's frame and private objects). */
void cb_arena_release(cb_arena *a, cb_arena_mark m);
void cb_arena_reset(cb_arena *a);
void cb_arena_free(cb_arena *a);

/* A private object: the value stored at each byte offset. */
typedef struct {
	uint32_t size;
	cb_val *slot;
	uint8_t *len; /* bytes of the value starting at that offset; 0 none; CB_ZERO: a zero byte */
	uint8_t guess; /* CB_PGUESS_* */
} cb_pobj;

#define CB_PGUESS_OPEN 1 /* written on a side of an undecidable branch still open */
#define CB_PGUESS_READ \
	2 /* ... whose sides have met: what it holds depends on the side taken
			   * (loads get CB_VF_GUESS) */

#define CB_ZERO 0xFF
#define CB_PRIVATE_MAX (64u << 10) /* larger private objects are not modelled */

/* Private memory of the work-item IN runs. */
int32_t cb_pmem_new(cb_interp *in, uint64_t size);
cb_val cb_pmem_load(cb_interp *in, cb_val ptr, uint32_t bytes, uint8_t kind, unsigned width);
void cb_pmem_store(cb_interp *in, cb_val ptr, cb_val v, uint32_t bytes);
void cb_pmem_set(cb_interp *in, cb_val ptr, cb_val byte, cb_val len);
void cb_pmem_copy(cb_interp *in, cb_val dst, cb_val src, cb_val len);
/* The private object PTR points into was written on a side of an undecidable branch. */
void cb_pmem_guess_write(cb_interp *in, cb_val ptr);
/* Such a branch's sides met: objects written there read as guessed from now on; OPEN: some
 * other such branch is still open (its writes stay marked open). */
void cb_pmem_guess_settle(cb_interp *in, bool open);

#endif
