/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/doc_lint.h"

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
		json_object_set_new(lpp, key, lanes_per_pass[e] ? json_integer(lanes_per_pass[e])
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
	if (!r->has_model)
		return m;
	geometry(m, &r->geom, r->lanes_per_pass);
	static const char *const names[3] = { NULL, "store", "atomic" };
	for (int op = CB_OP_STORE; op <= CB_OP_ATOMIC; op++) {
		json_t *own = json_null();
		if (r->ops[op].measured) {
			own = json_object();
			geometry(own, &r->ops[op].geom, r->ops[op].lanes_per_pass);
			json_object_set_new(own, "by_elem_bytes", json_boolean(r->ops[op].by_size));
		}
		json_object_set_new(m, names[op], own);
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
			json_array_append_new(arr, json_pack("[II]", (json_int_t)x->lo, (json_int_t)x->hi));
	}
	return arr;
}

static json_t *fix(const cb_lint_result *r, const cb_lint_access *a)
{
	const cb_lint_fix *f = &a->fix;
	if (!f->wanted)
		return json_null();
	json_t *o = json_object(), *pad = json_null(), *swz = json_null();
	char buf[256];
	if (f->pad_found) {
		cb_lint_pad_decl(&r->objects[a->object], f->pad, buf, sizeof buf);
		pad = json_pack("{s:o, s:I, s:I, s:I}", "declaration", text(buf), "pad",
				(json_int_t)f->pad, "passes", (json_int_t)f->pad_passes, "bytes",
				(json_int_t)f->pad_bytes);
	}
	if (f->swizzle_found) {
		cb_lint_swizzle_expr(&r->objects[a->object], f->bits, f->shift, buf, sizeof buf);
		swz = json_pack("{s:o, s:I, s:I, s:I, s:I}", "expression", text(buf), "bits",
				(json_int_t)f->bits, "shift", (json_int_t)f->shift, "passes",
				(json_int_t)f->swizzle_passes, "bytes", (json_int_t)0);
	}
	json_object_set_new(o, "padding", pad);
	json_object_set_new(o, "swizzle", swz);
	json_object_set_new(o, "note", f->note[0] ? text(f->note) : json_null());
	return o;
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
	json_object_set_new(o, "min_passes", a->min_passes ? json_integer(a->min_passes) : json_null());
	json_t *it = json_array();
	for (size_t k = 0; k < a->niter; k++)
		json_array_append_new(it, a->iter[k].known ? json_integer(a->iter[k].passes) : json_null());
	json_object_set_new(o, "iterations", it);
	json_object_set_new(o, "offsets", offsets(a));
	json_object_set_new(o, "fix", fix(r, a));
	return o;
}

char *cb_lint_to_json(const cb_lint_result *r)
{
	json_t *root = json_object(), *acc = json_array();
	json_object_set_new(root, "kernel", text(r->kernel ? r->kernel : ""));
	json_object_set_new(root, "work_group",
			    json_pack("[III]", (json_int_t)r->local[0], (json_int_t)r->local[1],
				      (json_int_t)r->local[2]));
	json_object_set_new(root, "model", model(r));
	for (size_t i = 0; i < r->naccesses; i++)
		json_array_append_new(acc, access(r, &r->accesses[i]));
	json_object_set_new(root, "accesses", acc);
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (!s)
		return NULL;
	size_t n = strlen(s);
	char *out = realloc(s, n + 2);
	if (!out) {
		free(s);
		return NULL;
	}
	out[n] = '\n';
	out[n + 1] = '\0';
	return out;
}
