/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/ops.h"

#include <stdio.h>
#include <string.h>

/* clang-format off */
const cb_elem_desc cb_elems[CB_NELEM] = {
	{ 1, "uchar", "char" },
	{ 2, "ushort", "short" },
	{ 4, "uint", "float" },
	{ 8, "uint2", "double" },
	{ 16, "uint4", "float4" },
};
/* clang-format on */

/* Atomics: 32-bit atomic_add and 64-bit atom_add (cl_khr_int64_base_atomics). */
/* clang-format off */
const cb_op_desc cb_ops[CB_NOPS] = {
	{ CB_OP_LOAD, "load", "loads", "inference", "chase.cl", "cb_chase", 0x1f, "",
	  "same-word reads broadcast",
	  "lanes reading the same word share one access (broadcast and multicast)",
	  "lanes reading the same word are served one by one" },
	{ CB_OP_STORE, "store", "stores", "inference_store", "store.cl", "cb_store", 0x1f, "",
	  "same-word stores in one pass",
	  "lanes writing the same word take one pass (one of them wins)",
	  "lanes writing the same word are served one by one" },
	{ CB_OP_ATOMIC, "atomic", "atomics", "inference_atomic", "atomic.cl", "cb_atomic",
	  1u << 2 | 1u << 3, "atomics are measured on 4- and 8-byte elements",
	  "same-word atomics in one pass",
	  "lanes updating the same word are served in one pass",
	  "lanes updating the same word are served one after another (serialized)" },
};
/* clang-format on */

const cb_op_desc *cb_op_desc_of(cb_op op)
{
	return &cb_ops[(unsigned)op < CB_NOPS ? op : CB_OP_LOAD];
}

const char *cb_op_name(cb_op op)
{
	return (unsigned)op < CB_NOPS ? cb_ops[op].name : "?";
}

bool cb_op_parse(const char *s, cb_op *op)
{
	for (int i = 0; i < CB_NOPS; i++)
		if (strcmp(s, cb_ops[i].name) == 0) {
			*op = (cb_op)i;
			return true;
		}
	return false;
}

int cb_elem_index(unsigned elem_bytes)
{
	for (int i = 0; i < CB_NELEM; i++)
		if (cb_elems[i].bytes == elem_bytes)
			return i;
	return -1;
}

const char *cb_elem_c_type(unsigned elem_bytes)
{
	int e = cb_elem_index(elem_bytes);
	return cb_elems[e >= 0 ? e : CB_NELEM - 1].c_type;
}

bool cb_op_has_elem(cb_op op, unsigned elem_bytes)
{
	int e = cb_elem_index(elem_bytes);
	return e >= 0 && (cb_op_desc_of(op)->elem_mask >> e & 1u);
}

const char *cb_inference_key(cb_op op)
{
	return cb_op_desc_of(op)->doc_key;
}

cb_kernel_id cb_kernel_of(int k)
{
	cb_kernel_id id = { (cb_op)(k / CB_NELEM), k % CB_NELEM, cb_elems[k % CB_NELEM].bytes };
	return id;
}

void cb_build_options_key(int k, char *buf, size_t n)
{
	cb_kernel_id id = cb_kernel_of(k);
	if (id.op == CB_OP_LOAD)
		snprintf(buf, n, "%u", id.bytes);
	else
		snprintf(buf, n, "%s %u", cb_op_name(id.op), id.bytes);
}
