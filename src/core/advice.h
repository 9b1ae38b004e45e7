/* SPDX-License-Identifier: MIT */
/* What the model means for kernels: padding that makes a column walk conflict-free, and the
 * measured slowdown of the strides involved. */
#ifndef CB_ADVICE_H
#define CB_ADVICE_H

#include "core/infer.h"

#include <jansson.h>

typedef struct {
	unsigned elem_bytes, tile;
	unsigned pad;             /* smallest padding (elements) the model says is conflict-free */
	bool found;               /* false: no padding up to one bank period helps */
	unsigned passes_unpadded, passes_padded, passes_ideal;
	double measured_unpadded, measured_padded;  /* slowdown vs stride 1; NAN when not measured */
} cb_pad_advice;

/* Padding advice for element sizes 4, 8, 16 and tile widths 16, 32, 64 (up to 9 entries).
 * Needs a banked inference; returns the number of entries written. */
unsigned cb_padding_advice(const cb_inference *inf, json_t *doc, unsigned subgroup,
			   cb_pad_advice *out);

/* The timed stride experiment of that element size and stride, or NULL. */
json_t *cb_stride_measurement(json_t *doc, unsigned elem_bytes, unsigned stride);

/* Measured slowdown of a stride experiment against stride 1 of the same element size, from
 * the document (NAN when either was not measured). */
double cb_measured_stride_ratio(json_t *doc, unsigned elem_bytes, unsigned stride);

json_t *cb_padding_advice_json(const cb_pad_advice *a, unsigned n);

/* C type name for a tile declaration: float, double, float4, ... */
const char *cb_elem_c_type(unsigned elem_bytes);

#endif
