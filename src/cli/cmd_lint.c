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
	if (!o->model)
		return cb_error_set(err, CB_ERR_USAGE, "lint needs --model FILE (an analyzed result "
				    "document) and --local X[,Y[,Z]] (the work-group size) unless the "
				    "kernel has a reqd_work_group_size");
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
	cb_rc rc = o->local_size ? parse_dims(o->local_size, "local", 1, CB_LINT_MAX_ITEMS, 1,
					      q->local, err) : CB_OK;
	if (rc == CB_OK && o->group_id)
		rc = parse_dims(o->group_id, "group", 0, 0x7fffffffUL, 0, q->group, err);
	if (rc == CB_OK && o->global_size)
		rc = parse_dims(o->global_size, "global", 1, 0x7fffffffUL, 1, q->global, err);
	if (rc != CB_OK)
		return rc;
	unsigned long items = (unsigned long)q->local[0] * q->local[1] * q->local[2];
	if (items > CB_LINT_MAX_ITEMS)
		return cb_error_set(err, CB_ERR_USAGE, "invalid value '%s' for --local: %lu work-items; "
				    "lint simulates at most %u", o->local_size, items,
				    (unsigned)CB_LINT_MAX_ITEMS);
	q->defines = o->defines.v;
	q->ndefines = o->defines.n;
	q->includes = o->includes.v;
	q->nincludes = o->includes.n;
	q->cl_std = o->cl_std;
	q->build_options = o->build_options;
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
	bool verbose;
	const cb_lint_result *res;
	size_t n;               /* kernels */
} lint_ctx;

static void render_lint(FILE *out, const void *p)
{
	const lint_ctx *c = p;
	if (c->fmt == CB_FMT_JSON || c->fmt == CB_FMT_SARIF) {
		char *s = c->fmt == CB_FMT_JSON ? cb_lint_to_json(c->res, c->n)
						: cb_lint_to_sarif(c->res, c->n, PACKAGE_VERSION);
		if (s)
			fputs(s, out);
		free(s);
		return;
	}
	for (size_t i = 0; i < c->n; i++) {
		if (i)
			fputc('\n', out);
		cb_lint_print_text(out, &c->res[i], c->verbose);
	}
}

/* Without --kernel, every kernel of the file, each with its own result (a file that does not
 * compile, or has one kernel or none, is one run that says so). */
static cb_rc lint_all(cb_lint_request *q, cb_lint_result **res,
		      size_t *nres, cb_error *err)
{
	char **names = NULL;
	size_t nk = 0;
	/* A file that does not compile is linted once below, which says why; a stop is a stop. */
	if (!q->kernel_name && cb_lint_kernels(q, &names, &nk, err) != CB_OK) {
		if (err->rc == CB_ERR_INTERRUPTED)
			return CB_ERR_INTERRUPTED;
		cb_error_clear(err);
		nk = 0;
	}
	*nres = nk > 1 ? nk : 1;
	*res = cb_xcalloc(*nres, sizeof **res);
	cb_rc rc = CB_OK;
	for (size_t i = 0; i < *nres && rc == CB_OK; i++) {
		if (nk > 1)
			q->kernel_name = names[i];
		rc = cb_lint_run(q, &(*res)[i], err);
		if (rc == CB_ERR_INPUT && (*res)[i].build_log && (*res)[i].build_log[0])
			cb_error_detail(err, "%s", (*res)[i].build_log);
	}
	if (nk > 1)
		q->kernel_name = NULL;
	cb_lint_names_free(names, nk);
	return rc;
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
	if (rc == CB_OK && r.device.local_mem_bytes > 0)
		m->local_mem_bytes = (uint64_t)r.device.local_mem_bytes;
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
	cb_lint_result *res = NULL;
	size_t nres = 0;
	rc = make_request(o, &m, &q, err);
	if (rc == CB_OK)
		rc = lint_all(&q, &res, &nres, err);
	for (size_t i = 0; rc == CB_OK && !o->quiet && i < nres; i++)
		if (res[i].warning[0])
			cb_warn("%s", res[i].warning);
	lint_ctx c = { cb_format_of(o, CB_FMT_TEXT), o->verbose, res, nres };
	if (rc == CB_OK)
		rc = cb_emit(o->output, o->force, render_lint, &c, err);
	size_t unknown = 0;
	bool conflict = false;
	for (size_t i = 0; rc == CB_OK && i < nres; i++) {
		unknown += cb_lint_unknown_count(&res[i]);
		conflict |= cb_lint_has_conflict(&res[i]);
	}
	if (rc == CB_OK && o->fail_on_conflict && conflict)
		rc = cb_error_set(err, CB_ERR_QUALITY, "%s: a predicted __local access conflicts "
				  "(--fail-on-conflict)", o->args[0]);
	else if (rc == CB_OK && o->fail_on_conflict && unknown && !o->allow_unknown)
		rc = cb_error_set(err, CB_ERR_QUALITY, "%s: %zu __local access%s unknown, so "
				  "conflicts cannot be ruled out (--fail-on-conflict; --allow-unknown "
				  "accepts them)", o->args[0], unknown, unknown == 1 ? " is" : "es are");
	for (size_t i = 0; i < nres; i++)
		cb_lint_result_free(&res[i]);
	free(res);
	return rc;
}
