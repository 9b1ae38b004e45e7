/* SPDX-License-Identifier: MIT */
/*
 * What clbanks measures, as one table: the ops (loads, stores, atomics), each with its names,
 * its document key, its kernel in cl/ and the element sizes it is measured on; the element
 * sizes (1 to 16 bytes), each with its OpenCL type and the C type advice writes; and the
 * kernels, one per op and element size. Every other place asks these tables (in the spirit of
 * hwloc's component descriptors); nothing keeps a parallel list.
 */
#ifndef CB_OPS_H
#define CB_OPS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { CB_OP_LOAD, CB_OP_STORE, CB_OP_ATOMIC } cb_op;
#define CB_NOPS 3
#define CB_NELEM 5 /* element sizes 1, 2, 4, 8, 16 bytes */

typedef struct {
	unsigned bytes;
	const char *cl_type; /* the kernels' element (CB_ELEM): "uint2" for 8 bytes */
	const char *c_type;  /* a tile's element in advice: "double" for 8 bytes */
} cb_elem_desc;

typedef struct {
	cb_op op;
	const char *name;        /* "load": --ops, --op, JSON "op" */
	const char *plural;      /* "loads": reports */
	const char *doc_key;     /* the document key of its inference: "inference_store" */
	const char *kernel_file; /* in cl/: "store.cl" */
	const char *kernel_name; /* "cb_store" */
	unsigned elem_mask;      /* bit e: element size e (cb_elems) is measured */
	const char *elem_note;   /* why sizes are missing, for messages ("" when all) */
	/* Lanes on the same word: the fact's name ("same-word reads broadcast") and what each
	 * answer means in a report. */
	const char *same_word, *same_word_yes, *same_word_no;
} cb_op_desc;

extern const cb_elem_desc cb_elems[CB_NELEM];
extern const cb_op_desc cb_ops[CB_NOPS];

/* OP's row (a valid op; an invalid one gets the loads'). */
const cb_op_desc *cb_op_desc_of(cb_op op);
const char *cb_op_name(cb_op op);
bool cb_op_parse(const char *s, cb_op *op);
/* Is an element size measured for OP? Atomics: 4 and 8 bytes (32- and 64-bit integers). */
bool cb_op_has_elem(cb_op op, unsigned elem_bytes);
/* The document key of OP's inference: "inference" (loads), "inference_store", ... */
const char *cb_inference_key(cb_op op);

/* Index of an element size in cb_elems, or -1. */
int cb_elem_index(unsigned elem_bytes);
/* The C type of a tile's element in advice ("double"); "float4" for 16 bytes. */
const char *cb_elem_c_type(unsigned elem_bytes);

/* A kernel: one op at one element size. Per-kernel arrays are indexed by cb_kernel_index. */
typedef struct {
	cb_op op;
	int elem; /* index in cb_elems */
	unsigned bytes;
} cb_kernel_id;
#define CB_NKERNELS (CB_NOPS * CB_NELEM)
static inline int cb_kernel_index(cb_op op, int elem)
{
	return (int)op * CB_NELEM + elem;
}
cb_kernel_id cb_kernel_of(int k);
/* The key of run.build_options for kernel K: "4" for loads (as in format 1), "store 4",
 * "atomic 8". */
void cb_build_options_key(int k, char *buf, size_t n);

#endif
