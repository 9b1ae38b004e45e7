/* SPDX-License-Identifier: MIT */
/* What the model means for kernels: padding that makes a column walk conflict-free, and the
 * measured slowdown of the strides involved. */
#ifndef CB_ADVICE_H
#define CB_ADVICE_H

#include "core/infer.h"
#include "core/result.h"

/* Padding advice for element sizes 4, 8, 16 and tile widths 16, 32, 64 (up to
 * CB_MAX_PAD_ADVICE entries) from a banked inference of OP; returns the number written. */
unsigned cb_padding_advice(const cb_inference *inf, const cb_result *r, cb_op op,
			   cb_pad_advice *out);

/* Passes of a column walk: lane l reads element l * PITCH (a tile row of PITCH elements). */
unsigned cb_column_walk_passes(const cb_inference *inf, unsigned subgroup, unsigned elem_bytes,
			       unsigned pitch);

/* C type name for a tile declaration: float, double, float4, ... */
const char *cb_elem_c_type(unsigned elem_bytes);

#endif
