/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/doc_json.h"
#include "doc/doc_lint.h"

#include "lint/lint_edit.h"
#include "lint/lint_measure.h"

#include <ctype.h>
#include <math.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Strings from the kernel may not be UTF-8: bytes jansson rejects become '?'. */
static json_t *text(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char *copy = strdup(s);
	if (!copy)
		return json_null();
	for (unsigned char *p = (unsigned char *)copy; *p; p++)
		if (*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j ? j : json_null();
}

static json_t *number(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* Geometry and lanes per pass into M. */
static void geometry(json_t *m, const cb_geometry *g, const unsigned lanes_per_pass[CB_NELEM])
{
	json_object_set_new(m, "banks", json_integer(g->banks));
	json_object_set_new(m, "width", json_integer(g->width));
	json_object_set_new(m, "broadcast", json_boolean(g->broadcast));
	json_object_set_new(m, "pair_packing", json_boolean(g->pair_packing));
	json_t *lpp = json_object();
	for (int e = 0; e < CB_NELEM; e++) {
		char key[8];
		snprintf(key, sizeof key, "%u", cb_elems[e].bytes);
		json_object_set_new(lpp, key,
				    lanes_per_pass[e] ? json_integer(lanes_per_pass[e])
						      : json_null());
	}
	json_object_set_new(m, "lanes_per_pass", lpp);
}

/* The loads' model at the top level (as before stores and atomics were measured); "store" and
 * "atomic": that op's own model, or null when the loads' stands in for it. */
static json_t *model(const cb_lint_result *r)
{
	json_t *m = json_object();
	json_object_set_new(m, "subgroup", json_integer(r->subgroup));
	json_object_set_new(m, "banked", json_boolean(r->has_model && !r->flat));
	if (r->has_model)
		json_object_set_new(m, "provenance",
				    json_string(r->documented ? "documented" : "measured"));
	if (!r->has_model || r->flat)
		return m;
	geometry(m, &r->geom, r->lanes_per_pass);
	for (int op = CB_OP_STORE; op < CB_NOPS; op++) {
		json_t *own = json_null();
		if (r->ops[op].measured) {
			own = json_object();
			geometry(own, &r->ops[op].geom, r->ops[op].lanes_per_pass);
			json_object_set_new(own, "by_elem_bytes", json_boolean(r->ops[op].by_size));
		}
		json_object_set_new(m, cb_op_name((cb_op)op), own);
	}
	return m;
}

/* A known offset, the bounds [lo, hi] of an unknown one, or null for an inactive lane. */
static json_t *offsets(const cb_lint_access *a)
{
	json_t *arr = json_array();
	for (unsigned l = 0; l < a->nlanes; l++) {
		const cb_lint_lane *x = &a->lanes[l];
		if (!x->active)
			json_array_append_new(arr, json_null());
		else if (x->known)
			json_array_append_new(arr, json_integer(x->lo));
		else
			json_array_append_new(arr, json_pack("[II]", (json_int_t)x->lo,
							     (json_int_t)x->hi));
	}
	return arr;
}

static json_t *choice(const cb_lint_object *o, const cb_lint_fix *f, const cb_lint_fix_choice *c)
{
	char buf[256];
	cb_lint_fix_text(o, f, c, buf, sizeof buf);
	json_t *j = json_pack("{s:o, s:s, s:I, s:I, s:I, s:b}", "text", text(buf), "kind",
			      c->swizzle ? "swizzle" : "padding", "total_passes",
			      (json_int_t)c->total_passes, "worst_passes",
			      (json_int_t)c->worst_passes, "bytes", (json_int_t)c->bytes,
			      "conflict_free", c->at_minimum);
	if (c->swizzle) {
		json_object_set_new(j, "bits", json_integer(c->bits));
		json_object_set_new(j, "shift", json_integer(c->shift));
	} else {
		json_object_set_new(j, "pad", json_integer(c->pad));
	}
	return j;
}

/* The best fix of array K as edits of the kernel's text, one per place. */
static json_t *edits(const cb_lint_result *r, size_t k)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < r->nedits; i++) {
		const cb_lint_edit *e = &r->edits[i];
		if (e->object == k && e->choice == 0 && cb_lint_edit_first(r, i))
			json_array_append_new(arr,
					      json_pack("{s:o, s:I, s:I, s:I, s:o, s:o}", "file",
							text(e->file), "line", (json_int_t)e->line,
							"column", (json_int_t)e->column,
							"end_column", (json_int_t)e->end_column,
							"from", text(e->from), "to", text(e->to)));
	}
	return arr;
}

/* An array's fix: null when none of its accesses conflicts. */
static json_t *array_fix(const cb_lint_result *r, size_t k)
{
	const cb_lint_object *o = &r->objects[k];
	const cb_lint_fix *f = &o->fix;
	if (!f->wanted)
		return json_null();
	json_t *j = json_object();
	json_object_set_new(j, "found", json_boolean(f->found));
	json_object_set_new(j, "note", f->note[0] && !f->found ? text(f->note) : json_null());
	json_object_set_new(j, "accesses_judged", json_integer(f->judged));
	json_object_set_new(j, "accesses_not_judged", json_integer(f->unjudged));
	if (!f->found)
		return j;
	json_t *best = choice(o, f, &f->best);
	json_object_set(j, "text", json_object_get(best, "text"));
	json_object_set_new(j, "total_passes_before", json_integer((json_int_t)f->total_before));
	json_object_set_new(j, "total_passes_after",
			    json_integer((json_int_t)f->best.total_passes));
	json_object_set_new(j, "best", best);
	json_object_set_new(j, "alternative", f->alt_found ? choice(o, f, &f->alt) : json_null());
	if (f->measured)
		json_object_set_new(j, "measured",
				    json_pack("{s:o, s:o}", "slowdown_before",
					      number(f->measured_before), "slowdown_after",
					      number(f->measured_after)));
	json_object_set_new(j, "rows", json_integer(f->rows));
	json_object_set_new(j, "width", json_integer(f->width));
	json_t *after = json_array();
	for (size_t i = 0; i < r->naccesses; i++) {
		const cb_lint_access *a = &r->accesses[i];
		if (a->object == (int)k && a->fixed)
			json_array_append_new(after, json_pack("{s:I, s:I, s:I}", "line",
							       (json_int_t)a->line, "column",
							       (json_int_t)a->column, "passes_max",
							       (json_int_t)a->fixed_passes));
	}
	json_object_set_new(j, "accesses_after", after);
	json_object_set_new(j, "edits", edits(r, k));
	json_object_set_new(j, "edits_complete", json_boolean(cb_lint_edits_complete(r, k, 0)));
	return j;
}

static json_t *objects(const cb_lint_result *r)
{
	json_t *arr = json_array();
	char decl[256];
	for (size_t k = 0; k < r->nobjects; k++) {
		const cb_lint_object *o = &r->objects[k];
		cb_lint_object_decl(o, decl, sizeof decl);
		json_t *j = json_pack("{s:o, s:o, s:I, s:I, s:b}", "name", text(o->name),
				      "declaration", text(decl), "elem_bytes",
				      (json_int_t)o->elem_bytes, "bytes", (json_int_t)o->bytes,
				      "argument", o->is_arg);
		json_object_set_new(j, "fix", array_fix(r, k));
		json_array_append_new(arr, j);
	}
	return arr;
}

/* What --measure timed of one access (lint_measure.h): null slowdown, with the note, when
 * nothing was. */
static json_t *measured(const cb_lint_result *r, const cb_lint_measured *m)
{
	json_t *j = json_object();
	json_object_set_new(j, "slowdown", m->done ? number(m->slowdown) : json_null());
	json_object_set_new(j, "ci95",
			    m->done ? json_pack("[oo]", number(m->ci_lo), number(m->ci_hi))
				    : json_null());
	json_object_set_new(j, "predicted_slowdown",
			    m->done && r->has_model ? number(m->predicted) : json_null());
	json_object_set_new(j, "disagrees",
			    m->done && r->has_model ? json_boolean(m->disagrees) : json_null());
	json_object_set_new(j, "tables", json_integer(m->tables));
	json_object_set_new(j, "coverage", m->done ? number(m->coverage) : json_null());
	json_object_set_new(j, "ns_per_access", m->done ? number(m->ns) : json_null());
	json_object_set_new(
		j, "baseline",
		m->done ? json_pack("{s:o, s:s}", "ns_per_access", number(m->baseline_ns), "table",
				    "conflict-free: the same op, element "
				    "size and active lanes reading consecutive elements")
			: json_null());
	json_object_set_new(j, "note", m->note[0] ? text(m->note) : json_null());
	return j;
}

static json_t *access(const cb_lint_result *r, const cb_lint_access *a)
{
	json_t *o = json_object();
	char decl[256];
	json_object_set_new(o, "file", text(a->file));
	json_object_set_new(o, "line", json_integer(a->line));
	json_object_set_new(o, "column", json_integer(a->column));
	json_object_set_new(o, "op", json_string(cb_op_name(a->op)));
	json_object_set_new(o, "elem_bytes", json_integer(a->elem_bytes));
	if (a->object >= 0) {
		cb_lint_object_decl(&r->objects[a->object], decl, sizeof decl);
		json_object_set_new(o, "object", text(decl));
	} else {
		json_object_set_new(o, "object", json_null());
	}
	json_object_set_new(o, "status", json_string(cb_lint_status_name(a->status)));
	json_object_set_new(o, "passes_max", a->priced ? json_integer(a->passes_max) : json_null());
	json_object_set_new(o, "min_passes",
			    a->min_passes ? json_integer(a->min_passes) : json_null());
	json_t *it = json_array();
	for (size_t k = 0; k < a->niter; k++)
		json_array_append_new(it, a->iter[k].known ? json_integer(a->iter[k].passes)
							   : json_null());
	json_object_set_new(o, "iterations", it);
	json_object_set_new(o, "offsets", offsets(a));
	json_object_set_new(o, "conflict_ways", a->priced ? json_integer(a->ways) : json_null());
	json_object_set_new(o, "reason", a->note[0] ? text(a->note) : json_null());
	json_object_set_new(o, "suppressed", json_boolean(a->suppressed));
	if (a->nsame > 1) /* only then: the keys of other accesses stay as they are */
		json_object_set_new(o, "same_place",
				    json_pack("[II]", (json_int_t)a->nth, (json_int_t)a->nsame));
	json_object_set_new(o, "total_passes",
			    a->priced ? json_integer((json_int_t)a->total_passes) : json_null());
	json_object_set_new(o, "excess_passes",
			    a->priced ? json_integer((json_int_t)(a->total_passes - a->total_min))
				      : json_null());
	json_object_set_new(o, "fixed_passes",
			    a->fixed ? json_integer(a->fixed_passes) : json_null());
	json_object_set_new(o, "fix_note", a->fix_note[0] ? text(a->fix_note) : json_null());
	if (r->measured) {
		json_object_set_new(o, "measured", measured(r, &a->measured));
		json_object_set_new(o, "fixed_measured",
				    a->fixed ? measured(r, &a->fixed_measured) : json_null());
	}
	return o;
}

/* The run's coverage: the IR's __local operations, those reported, and per status the
 * accesses by reason ({"branch": 2}; predicted: a count). */
static json_t *coverage(const cb_lint_result *r)
{
	static const char *const key[4] = { "predicted", "assumed", "unknown", "not_executed" };
	const cb_lint_coverage *c = &r->coverage;
	json_t *j = json_pack("{s:I, s:I, s:I, s:I}", "ir", (json_int_t)c->ir, "reported",
			      (json_int_t)c->reported, "generic", (json_int_t)c->generic, "missed",
			      (json_int_t)(c->ir > c->reported ? c->ir - c->reported : 0));
	json_object_set_new(j, key[0], json_integer((json_int_t)c->status[CB_LINT_PREDICTED]));
	json_t *by[4] = { NULL, json_object(), json_object(), json_object() };
	for (size_t i = 0; i < r->naccesses; i++) {
		const cb_lint_access *a = &r->accesses[i];
		json_t *o = by[a->status];
		if (!o)
			continue;
		const char *w = cb_lint_why_key(a->reason);
		json_object_set_new(o, w,
				    json_integer(json_integer_value(json_object_get(o, w)) + 1));
	}
	for (int s = 1; s < 4; s++)
		json_object_set_new(j, key[s], by[s]);
	return j;
}

static json_t *kernel(const cb_lint_result *r)
{
	json_t *k = json_object(), *acc = json_array();
	uint64_t total = 0, min = 0;
	json_object_set_new(k, "kernel", text(r->kernel ? r->kernel : ""));
	json_object_set_new(k, "file", text(r->path ? r->path : ""));
	json_object_set_new(k, "work_group",
			    json_pack("[III]", (json_int_t)r->local[0], (json_int_t)r->local[1],
				      (json_int_t)r->local[2]));
	for (size_t i = 0; i < r->naccesses; i++) {
		json_array_append_new(acc, access(r, &r->accesses[i]));
		total += r->accesses[i].total_passes;
		min += r->accesses[i].total_min;
	}
	json_object_set_new(k, "accesses", acc);
	json_object_set_new(k, "objects", objects(r));
	json_object_set_new(k, "total_passes", json_integer((json_int_t)total));
	json_object_set_new(k, "excess_passes", json_integer((json_int_t)(total - min)));
	json_object_set_new(k, "coverage", coverage(r));
	if (r->measured)
		json_object_set_new(
			k, "measured",
			json_pack("{s:o, s:o, s:o, s:o, s:I}", "device",
				  text(r->measured_device ? r->measured_device : ""), "slowdown",
				  number(r->measured_total), "ci95",
				  json_pack("[oo]",
					    number(r->measured_total - r->measured_total_ci),
					    number(r->measured_total + r->measured_total_ci)),
				  "predicted_slowdown", number(r->predicted_total), "accesses",
				  (json_int_t)r->measured_accesses));
	if (r->warning[0]) /* only when there is one: the keys of a clean kernel stay as they are */
		json_object_set_new(k, "warnings", json_pack("[o]", text(r->warning)));
	return k;
}

/* Format 2: "kernels" (each with its accesses and arrays); the first kernel's keys also at
 * the top level, as format 1 had them. */
char *cb_lint_to_json(const cb_lint_result *res, size_t n)
{
	json_t *root = json_object(), *ks = json_array();
	json_object_set_new(root, "format_version", json_integer(CB_LINT_JSON_FORMAT));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(ks, kernel(&res[i]));
	if (n) {
		json_object_set_new(root, "kernel", text(res[0].kernel ? res[0].kernel : ""));
		json_object_set(root, "work_group",
				json_object_get(json_array_get(ks, 0), "work_group"));
		json_object_set(root, "accesses",
				json_object_get(json_array_get(ks, 0), "accesses"));
		json_object_set_new(root, "model", model(&res[0]));
	}
	json_object_set_new(root, "kernels", ks);
	return cb_json_text(root, 2);
}

static json_t *access_by_model(const cb_lint_result *const *res, size_t n, size_t k, size_t i)
{
	json_t *arr = json_array();
	const cb_lint_access *a0 = &res[0][k].accesses[i];
	for (size_t m = 0; m < n; m++) {
		const cb_lint_access *a = cb_lint_same_access(&res[m][k], a0);
		json_t *j = json_object();
		json_object_set_new(j, "model", json_integer((json_int_t)m));
		json_object_set_new(j, "subgroup", json_integer(res[m][k].subgroup));
		bool priced = a && a->priced;
		json_object_set_new(j, "status",
				    json_string(a ? cb_lint_status_name(a->status)
						  : "not_executed"));
		json_object_set_new(j, "passes_max",
				    priced ? json_integer(a->passes_max) : json_null());
		json_object_set_new(j, "min_passes",
				    a && a->min_passes ? json_integer(a->min_passes) : json_null());
		json_object_set_new(j, "conflict_ways",
				    priced ? json_integer(a->ways) : json_null());
		json_object_set_new(j, "total_passes",
				    priced ? json_integer((json_int_t)a->total_passes)
					   : json_null());
		json_object_set_new(j, "fixed_passes",
				    a && a->fixed ? json_integer(a->fixed_passes) : json_null());
		json_object_set_new(j, "reason", a && a->note[0] ? text(a->note) : json_null());
		json_array_append_new(arr, j);
	}
	return arr;
}

static void fix_by_model(json_t *objects, const cb_lint_result *const *res, size_t n, size_t k)
{
	for (size_t j = 0; j < res[0][k].nobjects; j++) {
		json_t *fix = json_object_get(json_array_get(objects, j), "fix");
		if (!json_is_object(fix) || !res[0][k].objects[j].fix.found)
			continue;
		json_t *arr = json_array();
		for (size_t m = 0; m < n; m++) {
			const cb_lint_fix *f = &res[m][k].objects[j].fix;
			json_array_append_new(arr, json_pack("{s:I, s:I, s:I}", "model",
							     (json_int_t)m, "total_passes_before",
							     (json_int_t)f->total_before,
							     "total_passes_after",
							     (json_int_t)f->best.total_passes));
		}
		json_object_set_new(fix, "by_model", arr);
	}
}

/* Kernel K's measurement at the device's own sub-group size (MEAS) beside the models: each
 * access's "measured" and the kernel's, as a measured lint has them (with "subgroup"). */
static void measured_beside(json_t *kj, const cb_lint_result *meas, const cb_lint_result *r)
{
	json_t *acc = json_object_get(kj, "accesses");
	for (size_t i = 0; i < r->naccesses; i++) {
		const cb_lint_access *a = cb_lint_same_access(meas, &r->accesses[i]);
		json_object_set_new(json_array_get(acc, i), "measured",
				    a ? measured(meas, &a->measured) : json_null());
	}
	json_t *km = kernel(meas), *m = json_object_get(km, "measured");
	if (m) {
		json_object_set_new(m, "subgroup", json_integer(meas->subgroup));
		json_object_set(kj, "measured", m);
	}
	json_decref(km);
}

char *cb_lint_models_to_json(const cb_lint_result *const *res, const char *const *labels,
			     size_t nmodels, size_t nk, const cb_lint_result *meas)
{
	json_t *root = json_object(), *ks = json_array(), *models = json_array();
	json_object_set_new(root, "format_version", json_integer(CB_LINT_JSON_FORMAT));
	for (size_t k = 0; k < nk; k++) {
		json_t *kj = kernel(&res[0][k]), *acc = json_object_get(kj, "accesses");
		for (size_t i = 0; i < res[0][k].naccesses; i++)
			json_object_set_new(json_array_get(acc, i), "by_model",
					    access_by_model(res, nmodels, k, i));
		fix_by_model(json_object_get(kj, "objects"), res, nmodels, k);
		if (meas && meas[k].measured)
			measured_beside(kj, &meas[k], &res[0][k]);
		json_array_append_new(ks, kj);
	}
	for (size_t m = 0; m < nmodels; m++)
		json_array_append_new(models,
				      json_pack("{s:o, s:I, s:o}", "label", text(labels[m]),
						"subgroup",
						(json_int_t)(nk ? res[m][0].subgroup : 0), "model",
						nk ? model(&res[m][0]) : json_null()));
	if (nk) {
		json_object_set_new(root, "kernel", text(res[0][0].kernel ? res[0][0].kernel : ""));
		json_object_set(root, "work_group",
				json_object_get(json_array_get(ks, 0), "work_group"));
		json_object_set(root, "accesses",
				json_object_get(json_array_get(ks, 0), "accesses"));
		json_object_set_new(root, "model", model(&res[0][0]));
	}
	json_object_set_new(root, "models", models);
	json_object_set_new(root, "kernels", ks);
	return cb_json_text(root, 2);
}

/* A path as a relative URI reference: unreserved characters and '/' as they are, the rest
 * percent-encoded (SARIF's artifactLocation.uri). */
static json_t *uri(const char *path)
{
	size_t n = strlen(path);
	char *u = malloc(3 * n + 1), *q = u;
	if (!u)
		return json_null();
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("-._~/", *p))
			*q++ = (char)*p;
		else
			q += sprintf(q, "%%%02X", *p);
	}
	*q = '\0';
	json_t *j = json_string(u);
	free(u);
	return j ? j : json_null();
}

/* The message of one result: what the text's warning line and its fix say. */
static json_t *sarif_message(const cb_lint_result *r, const cb_lint_access *a)
{
	char decl[256] = "", fix[256] = "", msg[768];
	if (a->object >= 0)
		cb_lint_object_decl(&r->objects[a->object], decl, sizeof decl);
	if (a->status == CB_LINT_UNKNOWN) {
		snprintf(msg, sizeof msg, "%s %s: not priced: %s", cb_op_name(a->op),
			 decl[0] ? decl : a->elem_type, a->note);
		return json_pack("{s:o}", "text", text(msg));
	}
	int k = r->has_model ? snprintf(msg, sizeof msg,
					"%s %s: %u passes, %u-way bank conflict (minimum %u)%s",
					cb_op_name(a->op), decl[0] ? decl : a->elem_type,
					a->passes_max, a->ways, a->min_passes,
					r->documented ? " on a documented model (the "
							"vendor's documentation, not measured)"
						      : "")
			     : snprintf(msg, sizeof msg, "%s %s", cb_op_name(a->op),
					decl[0] ? decl : a->elem_type);
	const cb_lint_measured *m = &a->measured;
	if (m->done && k > 0 && (size_t)k < sizeof msg)
		k += snprintf(msg + k, sizeof msg - (size_t)k,
			      "; measured %.2fx the conflict-free time on %s (95%%: %.2f-%.2f)%s",
			      m->slowdown, r->measured_device, m->ci_lo, m->ci_hi,
			      m->disagrees ? ", which the model does not predict" : "");
	if (a->fixed && k > 0 && (size_t)k < sizeof msg) {
		cb_lint_fix_here(r, a, 0, fix, sizeof fix);
		snprintf(msg + k, sizeof msg - (size_t)k, "; fix: %s (%u pass%s here)", fix,
			 a->fixed_passes, a->fixed_passes == 1 ? "" : "es");
	}
	return json_pack("{s:o}", "text", text(msg));
}

/* The best fix of OBJECT as SARIF's fixes[]: every edit it makes, by file; NULL when its
 * edits are not the whole fix (some access does not read as the array's name). */
static json_t *sarif_fixes(const cb_lint_result *r, size_t object)
{
	if (!cb_lint_edits_complete(r, object, 0))
		return NULL;
	json_t *changes = json_array();
	for (size_t i = 0; i < r->nedits; i++) {
		const cb_lint_edit *e = &r->edits[i];
		if (e->object != object || e->choice != 0 || !cb_lint_edit_first(r, i))
			continue;
		json_t *rep = json_pack("{s:{s:I, s:I, s:I}, s:{s:o}}", "deletedRegion",
					"startLine", (json_int_t)e->line, "startColumn",
					(json_int_t)e->column, "endColumn",
					(json_int_t)e->end_column, "insertedContent", "text",
					text(e->to));
		json_t *change = NULL;
		for (size_t c = 0; c < json_array_size(changes) && !change; c++) {
			json_t *ch = json_array_get(changes, c);
			const char *u = json_string_value(
				json_object_get(json_object_get(ch, "artifactLocation"), "uri"));
			json_t *mine = uri(e->file);
			if (u && json_string_value(mine) && !strcmp(u, json_string_value(mine)))
				change = ch;
			json_decref(mine);
		}
		if (!change) {
			change = json_pack("{s:{s:o}, s:[]}", "artifactLocation", "uri",
					   uri(e->file), "replacements");
			json_array_append_new(changes, change);
		}
		json_array_append_new(json_object_get(change, "replacements"), rep);
	}
	char what[300];
	cb_lint_fix_text(&r->objects[object], &r->objects[object].fix, &r->objects[object].fix.best,
			 what, sizeof what);
	char desc[400];
	snprintf(desc, sizeof desc, "%s, at every access of %s", what, r->objects[object].name);
	return json_pack("[{s:{s:o}, s:o}]", "description", "text", text(desc), "artifactChanges",
			 changes);
}

static json_t *sarif_result(const cb_lint_result *r, const cb_lint_access *a)
{
	json_t *region = json_pack("{s:I, s:I}", "startLine", (json_int_t)a->line, "startColumn",
				   (json_int_t)(a->column ? a->column : 1));
	json_t *loc = json_pack("{s:{s:{s:o}, s:o}}", "physicalLocation", "artifactLocation", "uri",
				uri(a->file[0] ? a->file : (r->path ? r->path : "")), "region",
				region);
	json_t *res = json_pack("{s:s, s:s, s:o, s:[o]}", "ruleId",
				a->status == CB_LINT_UNKNOWN ? "unpriced-access" : "bank-conflict",
				"level", "warning", "message", sarif_message(r, a), "locations",
				loc);
	if (a->suppressed)
		json_object_set_new(res, "suppressions", json_pack("[{s:s}]", "kind", "inSource"));
	json_t *fixes = a->fixed ? sarif_fixes(r, (size_t)a->object) : NULL;
	if (fixes)
		json_object_set_new(res, "fixes", fixes);
	return res;
}

static json_t *sarif_rules(void)
{
	return json_pack(
		"[{s:s, s:{s:s}, s:{s:s}}, {s:s, s:{s:s}, s:{s:s}}]", "id", "bank-conflict",
		"shortDescription", "text",
		"A __local access takes more passes than its conflict-free minimum",
		"defaultConfiguration", "level", "warning", "id", "unpriced-access",
		"shortDescription", "text",
		"A __local access whose offsets lint cannot know (data-dependent, or an undefined call)",
		"defaultConfiguration", "level", "warning");
}

/* The SARIF document around RESULTS. */
static char *sarif_doc(json_t *results, const char *version)
{
	json_t *driver = json_pack("{s:s, s:s, s:s, s:o}", "name", "clbanks", "version", version,
				   "informationUri", PACKAGE_URL, "rules", sarif_rules());
	json_t *root = json_pack("{s:s, s:s, s:[{s:{s:o}, s:o}]}", "$schema",
				 "https://json.schemastore.org/sarif-2.1.0.json", "version",
				 "2.1.0", "runs", "tool", "driver", driver, "results", results);
	return root ? cb_json_text(root, 2) : NULL;
}

/* One model's part of a message: "NVIDIA H200, 32 lanes: 32 passes, 32-way (minimum 1)". */
static int model_part(char *buf, size_t len, const char *label, const cb_lint_result *r,
		      const cb_lint_access *a)
{
	if (!a)
		return snprintf(buf, len, "%s, %u lanes: not reached", label, r->subgroup);
	if (!a->priced)
		return snprintf(buf, len, "%s, %u lanes: not priced: %s", label, r->subgroup,
				a->note);
	if (!a->conflict)
		return snprintf(buf, len, "%s, %u lanes: %u pass%s", label, r->subgroup,
				a->passes_max, a->passes_max == 1 ? "" : "es");
	return snprintf(buf, len, "%s, %u lanes: %u passes, %u-way bank conflict (minimum %u)",
			label, r->subgroup, a->passes_max, a->ways, a->min_passes);
}

static bool warn_conflict(const cb_lint_access *ma)
{
	return ma && cb_lint_measured_conflict(&ma->measured);
}

/* Kernel K's access I under every model: one result when some model warns of it, its
 * message each model's passes and the fix across them. */
static json_t *sarif_models_result(const cb_lint_result *const *res, const char *const *labels,
				   size_t n, size_t k, size_t i, const cb_lint_result *meas)
{
	const cb_lint_result *r = &res[0][k];
	const cb_lint_access *a0 = &r->accesses[i];
	const cb_lint_access *ma = meas ? cb_lint_same_access(meas, a0) : NULL;
	bool warn = warn_conflict(ma);
	for (size_t m = 0; m < n; m++) {
		const cb_lint_access *a = cb_lint_same_access(&res[m][k], a0);
		warn |= a && (a->status == CB_LINT_UNKNOWN || (a->conflict && a->priced));
	}
	if (!warn)
		return NULL;
	char decl[256] = "", msg[2048];
	if (a0->object >= 0)
		cb_lint_object_decl(&r->objects[a0->object], decl, sizeof decl);
	size_t at = (size_t)snprintf(msg, sizeof msg, "%s %s: ", cb_op_name(a0->op),
				     decl[0] ? decl : a0->elem_type);
	for (size_t m = 0; m < n && at < sizeof msg; m++) {
		if (m)
			at += (size_t)snprintf(msg + at, sizeof msg - at, "; ");
		if (at < sizeof msg)
			at += (size_t)model_part(msg + at, sizeof msg - at, labels[m], &res[m][k],
						 cb_lint_same_access(&res[m][k], a0));
	}
	if (ma && ma->measured.done && at < sizeof msg)
		at += (size_t)snprintf(msg + at, sizeof msg - at,
				       "; measured on %s, %u lanes: %.2fx "
				       "the conflict-free time (95%%: %.2f-%.2f)",
				       meas->measured_device, meas->subgroup, ma->measured.slowdown,
				       ma->measured.ci_lo, ma->measured.ci_hi);
	if (a0->fixed && at < sizeof msg) {
		char fix[256];
		const cb_lint_object *o = &r->objects[a0->object];
		cb_lint_fix_text(o, &o->fix, &o->fix.best, fix, sizeof fix);
		snprintf(msg + at, sizeof msg - at, "; fix across the models: %s", fix);
	}
	json_t *j = sarif_result(r, a0);
	json_object_set_new(j, "message", json_pack("{s:o}", "text", text(msg)));
	bool unknown_only = !warn_conflict(ma);
	for (size_t m = 0; m < n; m++) {
		const cb_lint_access *a = cb_lint_same_access(&res[m][k], a0);
		unknown_only &= !a || a->status == CB_LINT_UNKNOWN || !a->conflict;
	}
	json_object_set_new(j, "ruleId",
			    json_string(unknown_only ? "unpriced-access" : "bank-conflict"));
	return j;
}

char *cb_lint_models_to_sarif(const cb_lint_result *const *res, const char *const *labels,
			      size_t nmodels, size_t nk, const cb_lint_result *meas,
			      const char *version)
{
	json_t *results = json_array();
	for (size_t k = 0; k < nk; k++)
		for (size_t i = 0; i < res[0][k].naccesses; i++) {
			json_t *j = sarif_models_result(res, labels, nmodels, k, i,
							meas && meas[k].measured ? &meas[k] : NULL);
			if (j)
				json_array_append_new(results, j);
		}
	return sarif_doc(results, version);
}

char *cb_lint_to_sarif(const cb_lint_result *res, size_t n, const char *version)
{
	json_t *results = json_array();
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < res[k].naccesses; i++) {
			const cb_lint_access *a = &res[k].accesses[i];
			bool measured = cb_lint_measured_warns(&a->measured);
			if (a->status == CB_LINT_UNKNOWN || (a->conflict && a->priced) || measured)
				json_array_append_new(results, sarif_result(&res[k], a));
		}
	return sarif_doc(results, version);
}
