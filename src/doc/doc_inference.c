/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/fleet.h"
#include "doc/doc_json.h"
#include "core/advice.h"
#include "core/infer_quality.h"
#include "core/swizzle.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

char *cb_json_text(json_t *root, size_t indent)
{
	char *s = json_dumps(root, JSON_INDENT(indent) | JSON_SORT_KEYS | JSON_REAL_PRECISION(6));
	json_decref(root);
	size_t n = strlen(s);
	s = cb_xrealloc(s, n + 2);
	s[n] = '\n';
	s[n + 1] = '\0';
	return s;
}

json_t *cb_json_number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *lanes_json(const cb_fit *f, const bool *present)
{
	json_t *o = json_object();
	for (int e = 0; e < CB_NELEM; e++)
		if (present[e] && f->lanes_per_pass[e]) {
			char key[8];
			snprintf(key, sizeof key, "%u", cb_elems[e].bytes);
			json_object_set_new(o, key, json_integer(f->lanes_per_pass[e]));
		}
	return o;
}

static json_t *fit_model_json(const cb_fit *f, const bool *present)
{
	if (f->flat)
		return json_pack("{s:s}", "model", "flat");
	return json_pack("{s:s, s:I, s:I, s:b, s:b, s:o}", "model", "banked", "banks",
			 (json_int_t)f->geom.banks, "bank_width_bytes", (json_int_t)f->geom.width,
			 "broadcast", f->geom.broadcast, "pair_packing", f->geom.pair_packing,
			 "lanes_per_pass", lanes_json(f, present));
}

/* Element sizes whose tables stand out: their misfit, the kind of table that misses most and
 * the worst tables (document indices). */
static json_t *approximate_json(const cb_inference *inf)
{
	const cb_fit_quality *q = &inf->quality;
	json_t *o = json_object();
	for (int e = 0; e < CB_NELEM; e++) {
		if (!inf->elem_present[e] || !q->approximate[e])
			continue;
		char key[8];
		snprintf(key, sizeof key, "%u", cb_elems[e].bytes);
		json_t *worst = json_array();
		for (unsigned k = 0; k < q->nworst[e]; k++)
			json_array_append_new(worst, json_integer((json_int_t)q->worst[e][k]));
		json_object_set_new(o, key,
				    json_pack("{s:o, s:o, s:o, s:o}", "misfit",
					      cb_json_number(q->elem_misfit[e]), "kind",
					      q->approx_kind[e][0] ? json_string(q->approx_kind[e])
								   : json_null(),
					      "kind_misfit",
					      q->approx_kind[e][0]
						      ? cb_json_number(q->approx_kind_misfit[e])
						      : json_null(),
					      "worst_measurements", worst));
	}
	return o;
}

static json_t *warnings_json(const cb_inference *inf)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < inf->nwarnings; i++)
		json_array_append_new(a, json_string(inf->warnings[i]));
	return a;
}

/* "fit": the candidates, the best fit's error, and how it compares with the noise. */
static json_t *fit_json(const cb_inference *inf)
{
	const cb_fit_quality *q = &inf->quality;
	json_t *o = json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o}", "measurements",
			      (json_int_t)inf->n_fit, "candidates", (json_int_t)inf->candidates,
			      "rms_rel", cb_json_number(inf->has_best ? inf->best.rms : NAN),
			      "flat_rms_rel", cb_json_number(inf->flat.rms), "r2",
			      cb_json_number(inf->r2), "sigma", cb_json_number(inf->sigma),
			      "max_ratio", cb_json_number(inf->max_ratio));
	json_object_set_new(o, "misfit", q->judged ? cb_json_number(q->misfit) : json_null());
	json_object_set_new(o, "noise_rel",
			    q->judged && q->noise_known ? cb_json_number(q->noise) : json_null());
	json_object_set_new(o, "expected_rel",
			    q->judged ? cb_json_number(q->expected) : json_null());
	json_object_set_new(o, "model_allowance_rel", json_real(CB_MODEL_ALLOWANCE));
	return o;
}

json_t *cb_inference_json(const cb_inference *inf, unsigned subgroup)
{
	json_t *o = json_object();
	json_object_set_new(o, "status", json_string(cb_status_name(inf->status)));
	json_object_set_new(o, "confidence", cb_json_number(inf->confidence));
	json_object_set_new(o, "reason", json_string(inf->reason));
	bool banked = inf->status == CB_BANKED;
	json_object_set_new(o, "banks", banked ? json_integer(inf->best.geom.banks) : json_null());
	json_object_set_new(o, "bank_width_bytes",
			    banked ? json_integer(inf->best.geom.width) : json_null());
	json_object_set_new(o, "lanes_per_pass",
			    banked ? lanes_json(&inf->best, inf->elem_present) : json_null());
	json_object_set_new(o, "broadcast",
			    banked && inf->broadcast_known ? json_boolean(inf->best.geom.broadcast)
							   : json_null());
	json_object_set_new(o, "pair_packing",
			    banked ? json_boolean(inf->best.geom.pair_packing) : json_null());
	json_object_set_new(o, "pass_ns_per_subgroup",
			    banked ? cb_json_number(inf->pass_ns_per_subgroup) : json_null());
	json_object_set_new(o, "pass_cycles",
			    banked ? cb_json_number(inf->pass_cycles) : json_null());
	json_object_set_new(o, "pass_ns_per_access",
			    banked ? cb_json_number(inf->step_pass_ns) : json_null());
	json_object_set_new(o, "subgroup_size", json_integer(subgroup));
	if (banked) {
		json_t *cert = json_object(), *pe = json_object();
		for (int e = 0; e < CB_NELEM; e++) {
			if (!inf->elem_present[e])
				continue;
			char key[8];
			snprintf(key, sizeof key, "%u", cb_elems[e].bytes);
			json_object_set_new(cert, key, json_boolean(inf->lanes_certain[e]));
			json_object_set_new(pe, key,
					    json_pack("{s:o, s:o}", "t0_ns_per_access",
						      cb_json_number(inf->best.t0[e]),
						      "pass_ns_per_access",
						      cb_json_number(inf->best.c[e])));
		}
		json_object_set_new(o, "lanes_per_pass_certain", cert);
		json_object_set_new(o, "per_elem", pe);
		json_object_set_new(o, "approximate", approximate_json(inf));
		json_object_set_new(o, "confidence_parts",
				    json_pack("{s:o, s:o, s:o, s:o}", "geometry",
					      cb_json_number(inf->geometry_share), "lanes_per_pass",
					      cb_json_number(inf->lanes_share), "fit",
					      cb_json_number(inf->fit_factor), "run",
					      cb_json_number(inf->run_factor)));
	}
	if (!banked)
		json_object_set_new(o, "confidence_parts",
				    json_pack("{s:o}", "run", cb_json_number(inf->run_factor)));
	json_object_set_new(o, "warnings", warnings_json(inf));
	if (inf->has_best && !banked)
		json_object_set_new(o, "best_candidate",
				    fit_model_json(&inf->best, inf->elem_present));
	json_object_set_new(o, "fit", fit_json(inf));
	if (inf->has_runner_up) {
		json_t *ru = fit_model_json(&inf->runner_up, inf->elem_present);
		json_object_set_new(ru, "rms_rel", cb_json_number(inf->runner_up.rms));
		json_object_set_new(ru, "sse_ratio",
				    cb_json_number(inf->best.sse > 0
							   ? inf->runner_up.sse / inf->best.sse
							   : NAN));
		json_object_set_new(ru, "delta_score",
				    cb_json_number(inf->runner_up.score - inf->best.score));
		json_object_set_new(o, "runner_up", ru);
	}
	json_object_set_new(
		o, "validation",
		json_pack("{s:I, s:s, s:o, s:o, s:o, s:o}", "measurements", (json_int_t)inf->val_n,
			  "model", inf->status == CB_NOT_BANKED ? "flat" : "banked", "rms_rel",
			  cb_json_number(inf->val_rms), "max_rel", cb_json_number(inf->val_max),
			  "within_10pct", cb_json_number(inf->val_within10), "misfit",
			  cb_json_number(inf->status != CB_NOT_BANKED && inf->quality.judged
						 ? inf->quality.val_misfit
						 : NAN)));
	return o;
}

json_t *cb_op_inference_json(const cb_result *r, cb_op op)
{
	json_t *o = cb_inference_json(&r->inference[op], r->device.subgroup_size), *by = NULL;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!r->has_by_size[op][e])
			continue;
		char key[8];
		snprintf(key, sizeof key, "%u", cb_elems[e].bytes);
		if (!by)
			by = json_object();
		json_object_set_new(by, key,
				    cb_inference_json(&r->by_size[op][e], r->device.subgroup_size));
	}
	if (by)
		json_object_set_new(o, "by_elem_bytes", by);
	/* Conflict-free bandwidth by element size beside banks x width x clock x units (GB/s). */
	json_t *bw = json_object();
	for (int e = 0; e < CB_NELEM && op != CB_OP_ATOMIC; e++) {
		double v = r->inference[op].elem_present[e] ? cb_conflict_free_gbs(r, op, e) : NAN;
		char key[8];
		snprintf(key, sizeof key, "%u", cb_elems[e].bytes);
		if (isfinite(v))
			json_object_set_new(bw, key, cb_json_number(v));
	}
	json_object_set_new(o, "bandwidth_gbs", json_object_size(bw) ? bw : json_null());
	if (!json_object_size(bw))
		json_decref(bw);
	json_object_set_new(o, "bandwidth_limit_gbs",
			    cb_json_number(cb_bandwidth_limit_gbs(r, &r->inference[op])));
	return o;
}

void cb_add_op_inferences(json_t *o, const cb_result *r)
{
	for (int op = 0; op < CB_NOPS; op++)
		if (op == CB_OP_LOAD || r->op_present[op])
			json_object_set_new(o, cb_inference_key((cb_op)op),
					    cb_op_inference_json(r, (cb_op)op));
}

void cb_set_nonempty(json_t *o, const char *key, json_t *value)
{
	if (json_array_size(value) || json_object_size(value))
		json_object_set_new(o, key, value);
	else
		json_decref(value);
}

/* What padding and swizzle advice share: the case, whether a fix was found, the passes
 * without it (under UNFIXED_KEY) and the minimum. */
static json_t *advice_head(unsigned elem_bytes, unsigned tile, unsigned rows, bool found,
			   const char *unfixed_key, unsigned unfixed, unsigned ideal)
{
	return json_pack("{s:I, s:I, s:I, s:b, s:I, s:I}", "elem_bytes", (json_int_t)elem_bytes,
			 "tile", (json_int_t)tile, "rows", (json_int_t)rows, "found", found,
			 unfixed_key, (json_int_t)unfixed, "passes_ideal", (json_int_t)ideal);
}

json_t *cb_padding_json(const cb_pad_advice *a, unsigned n)
{
	json_t *arr = json_array();
	for (unsigned i = 0; i < n; i++) {
		json_t *o = advice_head(a[i].elem_bytes, a[i].tile, a[i].rows, a[i].found,
					"passes_unpadded", a[i].passes_unpadded, a[i].passes_ideal);
		json_object_set_new(o, "pad", a[i].found ? json_integer(a[i].pad) : json_null());
		json_object_set_new(o, "measured_unpadded", cb_json_number(a[i].measured_unpadded));
		json_object_set_new(o, "measured_padded", cb_json_number(a[i].measured_padded));
		if (a[i].found) {
			json_object_set_new(o, "declaration",
					    json_sprintf("%s tile[%u][%u+%u]",
							 cb_elem_c_type(a[i].elem_bytes), a[i].rows,
							 a[i].tile, a[i].pad));
			json_object_set_new(o, "memory_bytes",
					    json_integer((json_int_t)a[i].rows * a[i].pad *
							 a[i].elem_bytes));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

json_t *cb_swizzle_json(const cb_swizzle_advice *a, unsigned n)
{
	json_t *arr = json_array();
	for (unsigned i = 0; i < n; i++) {
		json_t *o = advice_head(a[i].elem_bytes, a[i].tile, a[i].rows, a[i].found,
					"passes_unswizzled", a[i].passes_unswizzled,
					a[i].passes_ideal);
		json_object_set_new(o, "measured_unswizzled",
				    cb_json_number(a[i].measured_unswizzled));
		json_object_set_new(o, "measured_swizzled", cb_json_number(a[i].measured_swizzled));
		if (a[i].found) {
			char expr[64];
			cb_swizzle_expr("tile", a[i].bits, a[i].shift, expr, sizeof expr);
			json_object_set_new(o, "declaration",
					    json_sprintf("%s tile[%u][%u]",
							 cb_elem_c_type(a[i].elem_bytes), a[i].rows,
							 a[i].tile));
			json_object_set_new(o, "index", json_string(expr));
			json_object_set_new(o, "bits", json_integer(a[i].bits));
			json_object_set_new(o, "shift", json_integer(a[i].shift));
			json_object_set_new(o, "passes_swizzled",
					    json_integer(a[i].passes_swizzled));
			json_object_set_new(o, "passes_write", json_integer(a[i].passes_write));
			json_object_set_new(o, "memory_bytes", json_integer(0));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

json_t *cb_transpose_json(const cb_result *r)
{
	cb_transpose_summary s[CB_MAX_TRANSPOSE];
	unsigned n = cb_transpose_summaries(r, s);
	json_t *arr = json_array();
	for (unsigned i = 0; i < n; i++) {
		json_t *o = json_pack("{s:I, s:I, s:b, s:o, s:o, s:o, s:o, s:o}", "elem_bytes",
				      (json_int_t)s[i].elem_bytes, "tile", (json_int_t)s[i].tile,
				      "verified", s[i].verified, "naive_ns",
				      cb_json_number(s[i].naive_ns), "padded_ns",
				      cb_json_number(s[i].padded_ns), "swizzled_ns",
				      cb_json_number(s[i].swizzled_ns), "speedup_padded",
				      cb_json_number(s[i].speedup_padded), "speedup_swizzled",
				      cb_json_number(s[i].speedup_swizzled));
		if (s[i].matrix != CB_UNSET)
			json_object_set_new(o, "matrix", json_integer(s[i].matrix));
		json_array_append_new(arr, o);
	}
	return arr;
}
