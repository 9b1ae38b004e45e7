/* SPDX-License-Identifier: MIT */
/* clbanks lint: the predicted bank conflicts of each __local access of a kernel, priced with the
 * bank model of an analyzed document (the engine is src/lint/). */
#include "config.h"
#include "cli/commands.h"
#include "cli/outfile.h"
#include "core/util.h"
#include "doc/doc_lint.h"
#include "lint/lint.h"
#include "views/lint_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "X[,Y[,Z]]" into V (missing dimensions are FILL); each value in [lo, hi]. */
static cb_rc parse_dims(const char *text, const char *option, unsigned long lo, unsigned long hi,
			unsigned fill, unsigned v[3], cb_error *err)
{
	unsigned n = 0;
	v[0] = v[1] = v[2] = fill;
	for (const char *p = text;; n++) {
		char buf[24];
		size_t len = strcspn(p, ",");
		unsigned long x;
		if (n == 3 || len == 0 || len >= sizeof buf)
			return cb_error_set(err, CB_ERR_USAGE, "invalid value '%s' for --%s: expected X, "
					    "X,Y or X,Y,Z", text, option);
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (!cb_parse_ulong(buf, lo, hi, &x))
			return cb_error_set(err, CB_ERR_USAGE, "invalid value '%s' for --%s: each size "
					    "must be an integer from %lu to %lu", text, option, lo, hi);
		v[n] = (unsigned)x;
		p += len;
		if (!*p)
			return CB_OK;
		p++;
	}
}

static cb_rc check_args(const cb_cli_options *o, cb_error *err)
{
	if (o->nargs != 1)
		return cb_error_set(err, CB_ERR_USAGE, o->nargs ? "lint takes one kernel file; "
				    "unexpected argument '%s'" : "lint needs a kernel file: clbanks lint "
				    "KERNEL.cl --model FILE --local X[,Y[,Z]]", o->nargs ? o->args[1] : "");
	if (!o->model || !o->local_size)
		return cb_error_set(err, CB_ERR_USAGE, "lint needs --model FILE (an analyzed result "
				    "document) and --local X[,Y[,Z]] (the work-group size)");
	if (cb_format_of(o, CB_FMT_TEXT) == CB_FMT_CSV)
		return cb_error_set(err, CB_ERR_USAGE, "lint writes text or json, not csv");
	for (size_t i = 0; i < o->kernel_args.n; i++) {
		const char *a = o->kernel_args.v[i], *eq = strchr(a, '=');
		if (!eq || eq == a || !eq[1])
			return cb_error_set(err, CB_ERR_USAGE, "invalid value '%s' for --arg: expected "
					    "NAME=VALUE", a);
	}
	return CB_OK;
}

/* The request, with the work-group size and id checked. */
static cb_rc make_request(const cb_cli_options *o, const cb_lint_model *m, cb_lint_request *q,
			  cb_error *err)
{
	memset(q, 0, sizeof *q);
	q->kernel_path = o->args[0];
	q->kernel_name = o->kernel_name;
	cb_rc rc = parse_dims(o->local_size, "local", 1, CB_LINT_MAX_ITEMS, 1, q->local, err);
	if (rc == CB_OK && o->group_id)
		rc = parse_dims(o->group_id, "group", 0, 0x7fffffffUL, 0, q->group, err);
	if (rc != CB_OK)
		return rc;
	unsigned long items = (unsigned long)q->local[0] * q->local[1] * q->local[2];
	if (items > CB_LINT_MAX_ITEMS)
		return cb_error_set(err, CB_ERR_USAGE, "invalid value '%s' for --local: %lu work-items; "
				    "lint simulates at most %u", o->local_size, items,
				    (unsigned)CB_LINT_MAX_ITEMS);
	q->defines = o->defines.v;
	q->ndefines = o->defines.n;
	q->args = o->kernel_args.v;
	q->nargs = o->kernel_args.n;
	q->pricer = &m->pricer;
	q->model = m;
	/* The environment is the CLI's to read; the library runs the clang it is given. */
	const char *clang = getenv("CLBANKS_CLANG");
	q->clang = clang && *clang ? clang : NULL;
	return CB_OK;
}

typedef struct {
	cb_format fmt;
	const cb_lint_result *res;
} lint_ctx;

static void render_lint(FILE *out, const void *p)
{
	const lint_ctx *c = p;
	if (c->fmt == CB_FMT_JSON) {
		char *s = cb_lint_to_json(c->res);
		fputs(s, out);
		free(s);
	} else {
		cb_lint_print_text(out, c->res);
	}
}

/* OP's element sizes that have a confident model of their own (by_elem_bytes), when they
 * share one geometry: that model, for those sizes only (the others cannot be priced). */
static bool size_models(const char *path, cb_op op, cb_geometry *g, unsigned lanes[CB_NELEM])
{
	bool any = false;
	memset(lanes, 0, CB_NELEM * sizeof *lanes);
	for (int e = 0; e < CB_NELEM; e++) {
		cb_recorded_model rec;
		unsigned subgroup;
		bool by_size = false;
		cb_error ignored;
		if (cb_load_model(path, op, cb_elem_sizes[e], &by_size, false, &rec, &subgroup,
				  &ignored) != CB_OK || !by_size || !rec.lanes_per_pass[e])
			continue;
		if (any && (g->banks != rec.geom.banks || g->width != rec.geom.width ||
			    g->broadcast != rec.geom.broadcast ||
			    g->pair_packing != rec.geom.pair_packing))
			return false; /* sizes that disagree: no one model to price with */
		*g = rec.geom;
		lanes[e] = rec.lanes_per_pass[e];
		any = true;
	}
	return any;
}

/* Stores and atomics get their own model: the op's where it is banked with confidence 0.9 or
 * more; else the confident models of some element sizes (as predict would use them); else the
 * op's less sure one; otherwise the loads' stands in (the text and JSON say which). */
static void add_op_models(const char *path, cb_lint_model *m)
{
	static const struct { cb_op op; cb_lint_op lint; } ops[] = {
		{ CB_OP_STORE, CB_LINT_STORE }, { CB_OP_ATOMIC, CB_LINT_ATOMIC } };
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		cb_recorded_model rec;
		unsigned subgroup, lanes[CB_NELEM];
		cb_error ignored;
		cb_geometry g;
		bool joint = cb_load_model(path, ops[i].op, 0, NULL, false, &rec, &subgroup,
					   &ignored) == CB_OK;
		if (joint && rec.confidence >= CB_BY_SIZE_MIN_CONFIDENCE) {
			cb_lint_model_set_op(m, ops[i].lint, &rec.geom, rec.lanes_per_pass);
		} else if (size_models(path, ops[i].op, &g, lanes)) {
			cb_lint_model_set_op(m, ops[i].lint, &g, lanes);
			m->ops[ops[i].lint].by_size = true;
		} else if (joint) {
			cb_lint_model_set_op(m, ops[i].lint, &rec.geom, rec.lanes_per_pass);
		}
	}
}

cb_rc cb_cmd_lint(const cb_cli_options *o, cb_error *err)
{
	cb_rc rc = check_args(o, err);
	if (rc == CB_OK)
		rc = cb_output_check(o->output, o->force, err);
	cb_recorded_model rec;
	unsigned subgroup = 0;
	if (rc == CB_OK)
		rc = cb_load_model(o->model, CB_OP_LOAD, 0, NULL, false, &rec, &subgroup, err);
	if (rc != CB_OK)
		return rc;
	cb_lint_model m;
	cb_lint_pricer_from_model(&m, &rec.geom, rec.lanes_per_pass, subgroup);
	add_op_models(o->model, &m);
	cb_lint_request q;
	cb_lint_result res;
	memset(&res, 0, sizeof res);
	rc = make_request(o, &m, &q, err);
	if (rc == CB_OK)
		rc = cb_lint_run(&q, &res, err);
	if (rc == CB_ERR_INPUT && res.build_log && res.build_log[0])
		cb_error_detail(err, "%s", res.build_log);
	lint_ctx c = { cb_format_of(o, CB_FMT_TEXT), &res };
	if (rc == CB_OK)
		rc = cb_emit(o->output, o->force, render_lint, &c, err);
	if (rc == CB_OK && o->fail_on_conflict && cb_lint_has_conflict(&res))
		rc = cb_error_set(err, CB_ERR_QUALITY, "%s: a predicted __local access conflicts "
				  "(--fail-on-conflict)", o->args[0]);
	cb_lint_result_free(&res);
	return rc;
}
