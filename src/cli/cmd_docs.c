/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/commands.h"
#include "cli/models.h"
#include "cli/outfile.h"
#include "core/analyze.h"
#include "core/plan.h"
#include "core/util.h"
#include "doc/doc.h"
#include "doc/doc_outputs.h"
#include "measure/run.h"
#include "views/agree.h"
#include "views/compare.h"
#include "views/outputs.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const cb_result *r;
	const cb_plan_opts *po;
} plan_ctx;

static void render_plan_summary(FILE *f, const void *p)
{
	const plan_ctx *c = p;
	cb_plan_summary_print(f, c->r, c->po);
}

cb_rc cb_cmd_plan(const cb_cli_options *o, cb_error *err)
{
	cb_rc rc = cb_output_check(o->output, o->force, err);
	if (rc != CB_OK)
		return rc;
	cb_plan_opts po = { .subgroup = o->subgroup ? (unsigned)o->subgroup : 32,
			    .seed = o->seed,
			    .local_mem_budget = CB_DEFAULT_LOCAL_BYTES,
			    .quick = o->quick,
			    .ops = o->ops };
	cb_result r;
	rc = cb_plan_make(&po, &r, err);
	cb_format fmt = cb_format_of(o, CB_FMT_JSON); /* -o's name: cb_format_from_output */
	plan_ctx c = { &r, &po };
	if (rc == CB_OK && fmt == CB_FMT_TEXT)
		rc = cb_emit(o->output, o->force, render_plan_summary, &c, err);
	else if (rc == CB_OK)
		rc = cb_emit(o->output, o->force, cb_renderer(fmt), &r, err);
	cb_result_free(&r);
	return rc;
}

typedef struct {
	const cb_result *const *rs;
	const char *const *files;
	int n;
	cb_format fmt;
} compare_ctx;

static void render_compare(FILE *out, const void *p)
{
	const compare_ctx *c = p;
	if (c->fmt == CB_FMT_JSON) {
		cb_put_owned(out, cb_compare_json(c->rs, c->files, c->n));
	} else if (c->fmt == CB_FMT_CSV) {
		cb_compare_csv(out, c->rs, c->files, c->n);
	} else {
		cb_compare_text(out, c->rs, c->files, c->n);
		cb_agreement_text(out, c->rs, c->files, c->n);
	}
}

/* A usage error of CMD, whose usage line names its OPERANDS and its formats. */
static cb_rc usage(cb_error *err, enum cb_command cmd, const char *operands, const char *msg)
{
	char formats[64], line[160];
	cb_format_choices(cb_commands[cmd].formats, formats, sizeof formats);
	snprintf(line, sizeof line, "clbanks %s %s [--format %s] [-o OUT]", cb_commands[cmd].name,
		 operands, formats);
	return cb_usage_error(err, line, "%s", msg);
}

cb_rc cb_cmd_analyze(const cb_cli_options *o, cb_error *err)
{
	if (o->nargs != 1)
		return usage(err, CB_CMD_ANALYZE, "FILE",
			     o->nargs ? "analyze takes one result document"
				      : "analyze needs a result document");
	cb_rc rc = cb_output_check(o->output, o->force, err);
	if (rc != CB_OK)
		return rc;
	cb_format fmt = cb_format_of(o, CB_FMT_TEXT);
	if (o->summary && fmt != CB_FMT_CSV)
		return cb_error_set(err, CB_ERR_USAGE, "--summary is a CSV form (--format csv)");
	cb_result r;
	rc = cb_load_analyzed(o->args[0], &r, err);
	if (rc == CB_OK && !o->summary)
		cb_cli_match_documented(&r);
	const cb_result *rs[1] = { &r };
	compare_ctx c = { rs, (const char *const *)o->args, 1, CB_FMT_CSV };
	if (rc == CB_OK && o->summary)
		rc = cb_emit(o->output, o->force, render_compare, &c, err);
	else if (rc == CB_OK)
		rc = cb_emit(o->output, o->force, cb_renderer(fmt), &r, err);
	if (rc == CB_OK)
		rc = cb_strict_check(o, &r, err);
	cb_result_free(&r);
	return rc;
}

/* Reads every file, then analyzes them all (on every core); *RS (owned by the caller) has N
 * results. */
static cb_rc load_all(const char *const *files, int n, cb_result **rs, cb_error *err)
{
	*rs = cb_xcalloc((size_t)n, sizeof **rs);
	for (int i = 0; i < n; i++)
		cb_result_init(&(*rs)[i]);
	for (int i = 0; i < n; i++) {
		cb_rc rc = cb_doc_read(files[i], CB_DOC_REQUIRE_TIMES, &(*rs)[i], err);
		if (rc != CB_OK)
			return rc;
	}
	return cb_analyze_all(*rs, (size_t)n, 0, err);
}

static void free_all(cb_result *rs, int n)
{
	for (int i = 0; rs && i < n; i++)
		cb_result_free(&rs[i]);
	free(rs);
}

cb_rc cb_compare_files(const char *const *files, int n, cb_format fmt, const char *out, bool force,
		       cb_error *err)
{
	cb_result *rs = NULL;
	const cb_result **ptrs = cb_xcalloc((size_t)n, sizeof *ptrs);
	cb_rc rc = load_all(files, n, &rs, err);
	for (int i = 0; i < n; i++)
		ptrs[i] = &rs[i];
	compare_ctx c = { ptrs, files, n, fmt };
	if (rc == CB_OK)
		rc = cb_emit(out, force, render_compare, &c, err);
	free(ptrs);
	free_all(rs, n);
	return rc;
}

typedef struct {
	const cb_result *old, *new;
	const char *files[2];
	cb_baseline_diff d[CB_MAX_BASELINE_DIFFS];
	size_t n, changed;
} baseline_ctx;

static void render_baseline(FILE *out, const void *p)
{
	const baseline_ctx *c = p;
	cb_compare_baseline_text(out, c->old, c->new, c->files, c->d, c->n, c->changed);
}

/* compare --baseline OLD NEW: every quantity of the two models; exit 5 when one changed. */
static cb_rc compare_baseline(const cb_cli_options *o, cb_error *err)
{
	if (o->nargs != 1)
		return usage(err, CB_CMD_COMPARE, "--baseline OLD NEW",
			     "compare --baseline OLD takes one document to check against it");
	if (cb_format_of(o, CB_FMT_TEXT) != CB_FMT_TEXT)
		return cb_error_set(err, CB_ERR_USAGE, "compare --baseline writes text only");
	baseline_ctx *c = cb_xcalloc(1, sizeof *c);
	c->files[0] = o->baseline;
	c->files[1] = o->args[0];
	cb_result *rs = NULL;
	cb_rc rc = cb_output_check(o->output, o->force, err);
	if (rc == CB_OK)
		rc = load_all(c->files, 2, &rs, err);
	if (rc == CB_OK) {
		c->old = &rs[0];
		c->new = &rs[1];
		c->changed = cb_baseline_compare(c->old, c->new, c->d, &c->n);
		rc = cb_emit(o->output, o->force, render_baseline, c, err);
	}
	if (rc == CB_OK && c->changed)
		rc = cb_error_set(err, CB_ERR_QUALITY,
				  "compare --baseline: %zu of %zu quantities "
				  "changed (%s against %s)",
				  c->changed, c->n, c->files[1], c->files[0]);
	free_all(rs, rs ? 2 : 0);
	free(c);
	return rc;
}

cb_rc cb_cmd_compare(const cb_cli_options *o, cb_error *err)
{
	if (o->baseline)
		return compare_baseline(o, err);
	if (o->nargs < 1)
		return usage(err, CB_CMD_COMPARE, "FILE...",
			     "compare needs at least one result document");
	cb_rc rc = cb_output_check(o->output, o->force, err);
	if (rc != CB_OK)
		return rc;
	return cb_compare_files((const char *const *)o->args, o->nargs,
				cb_format_of(o, CB_FMT_TEXT), o->output, o->force, err);
}
