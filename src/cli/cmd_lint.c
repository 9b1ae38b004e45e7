/* SPDX-License-Identifier: MIT */
/* clbanks lint: the predicted bank conflicts of each __local access of a kernel, priced with the
 * bank model of an analyzed document (the engine is src/lint/). */
#include "config.h"
#include "cli/commands.h"
#include "cli/outfile.h"
#include "core/select.h"
#include "core/util.h"
#include "doc/doc.h"
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
		return cb_error_set(err, CB_ERR_USAGE, "lint writes text, json or sarif, not csv");
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
	return CB_OK;
}

typedef struct {
	cb_format fmt;
	bool verbose;
	const cb_lint_result *res;
} lint_ctx;

static void render_lint(FILE *out, const void *p)
{
	const lint_ctx *c = p;
	if (c->fmt == CB_FMT_JSON || c->fmt == CB_FMT_SARIF) {
		char *s = c->fmt == CB_FMT_JSON ? cb_lint_to_json(c->res, 1)
						: cb_lint_to_sarif(c->res, 1, PACKAGE_VERSION);
		if (s)
			fputs(s, out);
		free(s);
	} else {
		cb_lint_print_text(out, c->res, c->verbose);
	}
}

/* Stores and atomics get their own model, size by size by the core rule (core/select.h),
 * when the sizes that have one share one geometry; a size without one cannot be priced.
 * An op the document never measured is priced with the loads' model (the text and JSON say
 * so). */
static void add_op_models(const cb_result *r, cb_lint_model *m)
{
	for (int op = CB_OP_STORE; op < CB_NOPS; op++) {
		cb_geometry g = { 0 };
		unsigned lanes[CB_NELEM] = { 0 };
		bool any = false, by_size = false;
		for (int e = 0; e < CB_NELEM; e++) {
			cb_model_choice c;
			cb_select_model(r, (cb_op)op, cb_elems[e].bytes, &c);
			if (c.source != CB_CHOICE_JOINT && c.source != CB_CHOICE_BY_SIZE)
				continue;
			if (any && !cb_geometry_equal(&g, &c.geom))
				continue; /* sizes that disagree: only the first geometry prices */
			g = c.geom;
			lanes[e] = c.lanes_per_pass;
			by_size |= c.source == CB_CHOICE_BY_SIZE;
			any = true;
		}
		if (any) {
			cb_lint_model_set_op(m, (cb_op)op, &g, lanes);
			m->ops[op].by_size = by_size;
		}
	}
}

/* The loads' model and the others' from the document at PATH, read once. */
static cb_rc lint_model(const char *path, cb_lint_model *m, cb_error *err)
{
	cb_result r;
	cb_rc rc = cb_doc_read(path, 0, &r, err);
	if (rc != CB_OK)
		return rc;
	cb_model_choice c;
	cb_select_model(&r, CB_OP_LOAD, 0, &c);
	if (c.source == CB_CHOICE_NONE)
		rc = cb_error_set(err, CB_ERR_USAGE, "%s: %s", path, c.problem);
	if (rc == CB_OK && c.source == CB_CHOICE_FLAT) {
		cb_lint_pricer_flat(m, r.device.subgroup_size);
	} else if (rc == CB_OK) {
		cb_recorded_model *rec = &r.recorded[CB_OP_LOAD];
		cb_lint_pricer_from_model(m, &rec->geom, rec->lanes_per_pass, r.device.subgroup_size);
		add_op_models(&r, m);
	}
	cb_result_free(&r);
	return rc;
}

cb_rc cb_cmd_lint(const cb_cli_options *o, cb_error *err)
{
	cb_rc rc = check_args(o, err);
	if (rc == CB_OK)
		rc = cb_output_check(o->output, o->force, err);
	cb_lint_model m;
	if (rc == CB_OK)
		rc = lint_model(o->model, &m, err);
	if (rc != CB_OK)
		return rc;
	cb_lint_request q;
	cb_lint_result res;
	memset(&res, 0, sizeof res);
	rc = make_request(o, &m, &q, err);
	if (rc == CB_OK)
		rc = cb_lint_run(&q, &res, err);
	if (rc == CB_ERR_INPUT && res.build_log && res.build_log[0])
		cb_error_detail(err, "%s", res.build_log);
	lint_ctx c = { cb_format_of(o, CB_FMT_TEXT), o->verbose, &res };
	if (rc == CB_OK)
		rc = cb_emit(o->output, o->force, render_lint, &c, err);
	if (rc == CB_OK && o->fail_on_conflict && cb_lint_has_conflict(&res))
		rc = cb_error_set(err, CB_ERR_QUALITY, "%s: a predicted __local access conflicts "
				  "(--fail-on-conflict)", o->args[0]);
	cb_lint_result_free(&res);
	return rc;
}
