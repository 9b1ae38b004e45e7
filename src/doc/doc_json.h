/* SPDX-License-Identifier: MIT */
/* JSON forms of analysis results, shared by the document writer and the other JSON outputs
 * (compare). Internal to src/doc/. */
#ifndef CB_DOC_JSON_H
#define CB_DOC_JSON_H

#include "core/infer.h"
#include "core/result.h"

#include <jansson.h>

json_t *cb_inference_json(const cb_inference *inf, unsigned subgroup);
/* R's inference of OP, with "by_elem_bytes" (each size on its own) where analysis made one. */
json_t *cb_op_inference_json(const cb_result *r, cb_op op);
/* Sets O's "inference" (loads, always) and "inference_<op>" for each other op R measured. */
void cb_add_op_inferences(json_t *o, const cb_result *r);
json_t *cb_padding_json(const cb_pad_advice *a, unsigned n);
json_t *cb_swizzle_json(const cb_swizzle_advice *a, unsigned n);
/* advice.transpose: the summaries of R's transpose check (an empty array without one). */
json_t *cb_transpose_json(const cb_result *r);
/* Sets O's KEY to VALUE when VALUE is a non-empty array or object, else releases VALUE. */
void cb_set_nonempty(json_t *o, const char *key, json_t *value);
/* ROOT as text (sorted keys, INDENT spaces, six significant digits) with a final newline;
 * ROOT is released. */
char *cb_json_text(json_t *root, size_t indent);
/* A number, or null when it is not finite. */
json_t *cb_json_number(double v);

#endif
