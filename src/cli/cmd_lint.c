/* SPDX-License-Identifier: MIT */
/* clbanks lint: the predicted bank conflicts of each __local access of a kernel, priced with the
 * bank model of an analyzed document (the engine is src/lint/). */
#include "config.h"
#include "cli/commands.h"
#include "cli/outfile.h"
#include "core/plan.h"
#include "core/select.h"
#include "core/util.h"
#include "doc/doc.h"
#include "doc/doc_lint.h"
#include "lint/lint.h"
#include "lint/lint_edit.h"
#include "lint/lint_lang.h"
#include "lint/lint_measure.h"
#include "views/lint_diff.h"
#include "lint/lint_model.h"
#include "lint/lint_file.h"
#include "views/lint_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
			return cb_error_set(err, CB_ERR_USAGE,
					    "invalid value '%s' for --%s: expected X, X,Y or X,Y,Z",
					    text, option);
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (!cb_parse_ulong(buf, lo, hi, &x))
			return cb_error_set(err, CB_ERR_USAGE,
					    "invalid value '%s' for --%s: each size "
					    "must be an integer from %lu to %lu",
					    text, option, lo, hi);
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
		return cb_error_set(err, CB_ERR_USAGE,
				    o->nargs ? "lint takes one kernel file; "
					       "unexpected argument '%s'"
					     : "lint needs a kernel file: clbanks lint "
					       "KERNEL.cl --model FILE --local X[,Y[,Z]]",
				    o->nargs ? o->args[1] : "");
	/* The run's options that lint takes for --measure only: without it they would be
	 * accepted and ignored (issue 39). --local-mem sizes --format plan's tables too. */
	static const char *const measuring[] = { "device",     "timer",     "min-rounds",
						 "max-rounds", "ci-target", "max-kernel-ms",
						 "timeout",    "kernel-dir" };
	for (size_t i = 0; !o->measure && i < sizeof measuring / sizeof *measuring; i++)
		if (cb_option_given(o, measuring[i]))
			return cb_error_set(err, CB_ERR_USAGE,
					    "--%s is an option of lint --measure "
					    "(the measurement on a device); without --measure lint "
					    "would ignore it",
					    measuring[i]);
	bool plan = o->format == CB_OPT_FORMAT_PLAN;
	if (plan && o->measured)
		return cb_error_set(
			err, CB_ERR_USAGE,
			"lint --format plan writes the lane tables to "
			"measure; --measured reads a measurement of them: one or the other");
	if (o->measure && !plan && !o->measured)
		return cb_error_set(err, CB_ERR_USAGE,
				    "lint --measure is run by clbanks (the program "
				    "that measures), not by the lint helper itself");
	if (!o->model && !o->measured && !(plan && o->subgroup))
		return cb_error_set(
			err, CB_ERR_USAGE,
			plan ? "lint --format plan needs --model FILE "
			       "or --subgroup N (the sub-group size of the tables)"
			     : "lint needs "
			       "--model FILE (an analyzed result document) and --local X[,Y[,Z]] "
			       "(the work-group size) unless the kernel has a reqd_work_group_size");
	for (size_t i = 0; i < o->kernel_args.n; i++) {
		const char *a = o->kernel_args.v[i], *eq = strchr(a, '=');
		if (!eq || eq == a || !eq[1])
			return cb_error_set(err, CB_ERR_USAGE,
					    "invalid value '%s' for --arg: expected NAME=VALUE", a);
	}
	return CB_OK;
}

#ifndef CB_DEVINCDIR
#define CB_DEVINCDIR "/usr/local/share/clbanks/include"
#endif

/* clbanks' CUDA and HIP device headers: $CLBANKS_DEVICE_INCLUDE, else the installed ones,
 * else those beside the program (a build tree); NULL when none is there, which lint says. */
static const char *device_include(void)
{
	const char *inc = getenv("CLBANKS_DEVICE_INCLUDE");
	if (inc && *inc)
		return inc;
	static char beside[4096];
	char probe[4200];
	snprintf(probe, sizeof probe, "%s/cuda_runtime.h", CB_DEVINCDIR);
	if (access(probe, R_OK) == 0)
		return CB_DEVINCDIR;
	ssize_t n = readlink("/proc/self/exe", beside, sizeof beside - 16);
	if (n <= 0)
		return NULL;
	beside[n] = '\0';
	char *slash = strrchr(beside, '/');
	if (!slash)
		return NULL;
	strcpy(slash, "/include");
	snprintf(probe, sizeof probe, "%s/cuda_runtime.h", beside);
	return access(probe, R_OK) == 0 ? beside : NULL;
}

/* CUDA and HIP: the language (--lang, else the extension), the device headers
 * ($CLBANKS_DEVICE_INCLUDE, else the installed ones) or the SDK, the dynamic shared memory. */
static cb_rc lang_request(const cb_cli_options *o, cb_lint_request *q, cb_error *err)
{
	q->lang = cb_lint_lang_of_path(q->kernel_path);
	if (o->lang && cb_lint_lang_parse(o->lang, &q->lang, err) != CB_OK)
		return CB_ERR_USAGE;
	const char *lang = cb_lint_lang_name(q->lang);
	if (o->cuda_path && q->lang != CB_LINT_CUDA)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--cuda-path is for CUDA kernels; %s is %s (--lang cuda)",
				    q->kernel_path, lang);
	if (o->rocm_path && q->lang != CB_LINT_HIP)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--rocm-path is for HIP kernels; %s is %s (--lang hip)",
				    q->kernel_path, lang);
	if (o->shared_bytes && q->lang == CB_LINT_OPENCL)
		return cb_error_set(
			err, CB_ERR_USAGE,
			"--shared-bytes sizes CUDA's and HIP's extern "
			"__shared__ arrays; %s is OpenCL C (size a __local argument with "
			"--arg NAME=BYTES)",
			q->kernel_path);
	q->sdk_path = q->lang == CB_LINT_CUDA ? o->cuda_path : o->rocm_path;
	q->shared_bytes = o->shared_bytes;
	q->device_include = device_include();
	return CB_OK;
}

/* The request, with the work-group size and id checked. */
static cb_rc make_request(const cb_cli_options *o, const cb_lint_model *m, bool has_model,
			  cb_lint_request *q, cb_error *err)
{
	memset(q, 0, sizeof *q);
	q->kernel_path = o->args[0];
	q->kernel_name = o->kernel_name;
	cb_rc rc = o->local_size ? parse_dims(o->local_size, "local", 1, CB_LINT_MAX_ITEMS, 1,
					      q->local, err)
				 : CB_OK;
	if (rc == CB_OK && o->group_id)
		rc = parse_dims(o->group_id, "group", 0, 0x7fffffffUL, 0, q->group, err);
	if (rc == CB_OK && o->global_size)
		rc = parse_dims(o->global_size, "global", 1, 0x7fffffffUL, 1, q->global, err);
	if (rc != CB_OK)
		return rc;
	unsigned long items = (unsigned long)q->local[0] * q->local[1] * q->local[2];
	if (items > CB_LINT_MAX_ITEMS)
		return cb_error_set(err, CB_ERR_USAGE,
				    "invalid value '%s' for --local: %lu work-items; "
				    "lint simulates at most %u",
				    o->local_size, items, (unsigned)CB_LINT_MAX_ITEMS);
	q->defines = o->defines.v;
	q->ndefines = o->defines.n;
	q->includes = o->includes.v;
	q->nincludes = o->includes.n;
	q->cl_std = o->cl_std;
	q->build_options = o->build_options;
	q->args = o->kernel_args.v;
	q->nargs = o->kernel_args.n;
	q->pricer = &m->pricer;
	q->model = has_model ? m : NULL;
	q->keep_tables = o->measured || o->format == CB_OPT_FORMAT_PLAN;
	/* The environment is the CLI's to read; the library runs the clang it is given. */
	const char *clang = getenv("CLBANKS_CLANG");
	q->clang = clang && *clang ? clang : NULL;
	return lang_request(o, q, err);
}

typedef struct {
	cb_format fmt;
	bool verbose, diff;
	const cb_lint_result *res;
	size_t n; /* kernels */
} lint_ctx;

/* --format diff: the arrays whose fix the patch leaves out, and why. */
static void diff_warnings(const cb_cli_options *o, const cb_lint_result *res, size_t n)
{
	for (size_t r = 0; !o->quiet && o->format == CB_OPT_FORMAT_DIFF && r < n; r++)
		for (size_t k = 0; k < res[r].nobjects; k++)
			if (res[r].objects[k].fix.found && !cb_lint_edits_complete(&res[r], k, 0))
				cb_warn("%s: kernel %s: the fix of %s is not in the patch: not every "
					"access of it reads as its name and subscripts (the text "
					"output gives the fix)",
					o->args[0], res[r].kernel ? res[r].kernel : "?",
					res[r].objects[k].name);
}

static void render_lint(FILE *out, const void *p)
{
	const lint_ctx *c = p;
	if (c->diff) {
		cb_lint_print_diff(out, c->res, c->n);
		return;
	}
	if (c->fmt == CB_FMT_JSON || c->fmt == CB_FMT_SARIF) {
		cb_put_owned(out, c->fmt == CB_FMT_JSON
					  ? cb_lint_to_json(c->res, c->n)
					  : cb_lint_to_sarif(c->res, c->n, PACKAGE_VERSION));
		return;
	}
	for (size_t i = 0; i < c->n; i++) {
		if (i)
			fputc('\n', out);
		cb_lint_print_text(out, &c->res[i], c->verbose);
	}
}

/* The loads' model and the others' from the document at PATH, read once (a model less sure
 * than 0.9 is warned of to N); SUBGROUP (0: any) the sub-group size it must have. */
static cb_rc lint_model(const char *path, unsigned subgroup, const cb_notifier *n, cb_lint_model *m,
			cb_error *err)
{
	cb_result r;
	cb_rc rc = cb_read_model_doc(path, &r, err);
	if (rc != CB_OK)
		return rc;
	rc = cb_lint_model_from_result(&r, path, subgroup, n, m, err);
	cb_result_free(&r);
	return rc;
}

static void render_plan(FILE *out, const void *p)
{
	cb_put_owned(out, cb_doc_write(p));
}

/* The pricer: --model's, or without one (a measurement only) one pass for everything on
 * sub-groups of SUBGROUP lanes, no prediction reported. With SUBGROUP (the lane tables of a
 * measuring device), the one --model is used only when it is of that sub-group size; another
 * model, or several, are priced at their own sizes beside the measurement (*BESIDE). */
static cb_rc pricer(const cb_cli_options *o, unsigned subgroup, cb_lint_model *m, bool *has_model,
		    bool *beside, cb_error *err)
{
	cb_notifier notes = cb_cli_notifier(o);
	const cb_notifier *n = &notes;
	*has_model = false;
	*beside = o->models.n > 1;
	if (o->model && !*beside) {
		cb_rc rc = lint_model(o->model, 0, n, m, err);
		if (rc != CB_OK)
			return rc;
		*has_model = !subgroup || m->pricer.subgroup == subgroup;
		*beside = !*has_model;
		if (*has_model)
			return CB_OK;
		memset(m, 0, sizeof *m);
	}
	if (!subgroup)
		return cb_error_set(err, CB_ERR_USAGE,
				    "lint --format plan with several --model needs "
				    "--subgroup N: the lane tables are of one sub-group size");
	if (subgroup < 4 || subgroup > CB_MAX_LANES)
		return cb_error_set(err, CB_ERR_INPUT, "%s: sub-group size %u is outside 4..%u",
				    o->measured ? o->measured : o->args[0], subgroup, CB_MAX_LANES);
	cb_lint_pricer_flat(m, subgroup);
	return CB_OK;
}

/* --format plan: the lane tables as a plan; --measured: the measured figures added. */
static cb_rc measurement(const cb_cli_options *o, cb_lint_result *res, size_t nres,
			 const cb_result *measured, cb_error *err)
{
	if (o->measured)
		return cb_lint_apply_measured(res, nres, measured, err);
	if (o->format != CB_OPT_FORMAT_PLAN)
		return CB_OK;
	cb_result plan;
	unsigned long local = o->local_mem ? o->local_mem : CB_DEFAULT_LOCAL_BYTES;
	cb_rc rc = cb_lint_plan(res, nres, res[0].subgroup, local, &plan, err);
	if (rc == CB_OK && plan.nms == 0)
		rc = cb_error_set(err, CB_ERR_INPUT, "%s: no __local access can be measured",
				  o->args[0]);
	if (rc == CB_OK)
		rc = cb_emit(o->output, o->force, render_plan, &plan, err);
	cb_result_free(&plan);
	return rc;
}

/* --fail-on-conflict over every kernel linted: a predicted or measured conflict, an
 * assumed one unless --allow-assumed, or an unknown access unless --allow-unknown. */
static cb_rc gate(const cb_cli_options *o, const cb_lint_result *res, size_t nres, cb_error *err)
{
	size_t unknown = 0, assumed = 0;
	bool conflict = false, measured = false;
	for (size_t i = 0; i < nres; i++) {
		unknown += cb_lint_unknown_count(&res[i]);
		assumed += cb_lint_assumed_conflicts(&res[i]);
		conflict |= cb_lint_has_conflict(&res[i]);
		for (size_t j = 0; j < res[i].naccesses; j++) {
			const cb_lint_access *a = &res[i].accesses[j];
			measured |= !a->suppressed && cb_lint_measured_conflict(&a->measured);
		}
	}
	if (!o->fail_on_conflict)
		return CB_OK;
	if (conflict || measured)
		return cb_error_set(err, CB_ERR_QUALITY,
				    "%s: a %s __local access conflicts (--fail-on-conflict)",
				    o->args[0], conflict ? "predicted" : "measured");
	if (assumed && !o->allow_assumed)
		return cb_error_set(
			err, CB_ERR_QUALITY,
			"%s: %zu assumed __local access%s conflict%s "
			"under a branch lint cannot decide (--fail-on-conflict; --allow-assumed "
			"or a '" CB_LINT_SUPPRESS "' comment on the line accepts them)",
			o->args[0], assumed, assumed == 1 ? "" : "es", assumed == 1 ? "s" : "");
	if (unknown && !o->allow_unknown)
		return cb_error_set(
			err, CB_ERR_QUALITY,
			"%s: %zu __local access%s unknown, so "
			"conflicts cannot be ruled out (--fail-on-conflict; --allow-unknown "
			"accepts them)",
			o->args[0], unknown, unknown == 1 ? " is" : "es are");
	return CB_OK;
}

typedef struct {
	cb_format fmt;
	bool verbose, diff;
	cb_lint_result **res; /* per model, the kernels' results */
	const char *const *labels;
	size_t nmodels, nkernels;
	const cb_lint_result *meas; /* NULL, or the kernels measured at the device's size */
} models_ctx;

static void render_models(FILE *out, const void *p)
{
	const models_ctx *c = p;
	const cb_lint_result *const *res = (const cb_lint_result *const *)c->res;
	/* every model judges the one fix chosen across them: the first model's edits */
	if (c->diff) {
		cb_lint_print_diff(out, res[0], c->nkernels);
		return;
	}
	if (c->fmt == CB_FMT_JSON || c->fmt == CB_FMT_SARIF) {
		cb_put_owned(out, c->fmt == CB_FMT_JSON
					  ? cb_lint_models_to_json(res, c->labels, c->nmodels,
								   c->nkernels, c->meas)
					  : cb_lint_models_to_sarif(res, c->labels, c->nmodels,
								    c->nkernels, c->meas,
								    PACKAGE_VERSION));
		return;
	}
	for (size_t k = 0; k < c->nkernels; k++) {
		if (k)
			fputc('\n', out);
		cb_lint_print_models(out, res, c->labels, c->nmodels, k,
				     c->meas ? &c->meas[k] : NULL, c->verbose);
	}
}

/* The model's name in the text: its device's ("NVIDIA H200"), else the file's ("h200" for
 * ".../h200.json"), into a new string. */
static char *label_of(const char *path, const char *device)
{
	if (device && *device)
		return cb_xstrdup(device);
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	char *s = cb_xmalloc(n + 1);
	memcpy(s, base, n);
	s[n] = '\0';
	return s;
}

/* Two models of one device name are told apart by their files: "NVIDIA H200 (h200-b)". */
static void distinct_labels(char **labels, const char *const *paths, size_t n)
{
	bool *dup = cb_xcalloc(n, sizeof *dup);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(labels[i], labels[j]) == 0)
				dup[i] = dup[j] = true;
	for (size_t i = 0; i < n; i++) {
		if (!dup[i])
			continue;
		char *file = label_of(paths[i], NULL);
		size_t len = strlen(labels[i]) + strlen(file) + 4;
		char *s = cb_xmalloc(len);
		snprintf(s, len, "%s (%s)", labels[i], file);
		free(file);
		free(labels[i]);
		labels[i] = s;
	}
	free(dup);
}

/* Each --model's model (M) and its name (LABELS), read once. */
static cb_rc read_models(const cb_cli_options *o, bool warned, cb_lint_model *m, char **labels,
			 cb_error *err)
{
	/* WARNED: the one model was read (and warned of) to see its sub-group size already */
	cb_notifier notes = warned ? (cb_notifier){ NULL, NULL } : cb_cli_notifier(o);
	const char *const *paths = o->models.n ? (const char *const *)o->models.v : &o->model;
	size_t n = o->models.n ? o->models.n : 1;
	cb_rc rc = CB_OK;
	for (size_t i = 0; rc == CB_OK && i < n; i++) {
		cb_result r;
		char doc_label[512];
		/* The verdict analyze prints (issue 34), as the one-model lint reads it. */
		rc = cb_read_model_doc(paths[i], &r, err);
		if (rc != CB_OK)
			break;
		rc = cb_lint_model_from_result(&r, paths[i], 0, &notes, &m[i], err);
		/* A documented model says so wherever it is named (text, JSON, SARIF). */
		labels[i] = label_of(paths[i],
				     r.documented ? cb_model_label(&r, doc_label, sizeof doc_label)
						  : r.device.name);
		cb_result_free(&r);
	}
	if (rc == CB_OK)
		distinct_labels(labels, paths, n);
	return rc;
}

/* lint --model A --model B ...: every model at its own sub-group size, a column per model,
 * one fix per array across them. MEAS (NULL: none): the NMEAS kernels linted at a measuring
 * device's sub-group size with --measured, shown beside the models (the same kernels). */
static cb_rc cmd_lint_models(const cb_cli_options *o, const cb_lint_result *meas, size_t nmeas,
			     cb_error *err)
{
	size_t n = o->models.n ? o->models.n : 1, nk = 0;
	if (o->measure && !o->measured)
		return cb_error_set(err, CB_ERR_USAGE,
				    "lint --measure is run by clbanks (the program "
				    "that measures), not by the lint helper itself");
	cb_rc rc = cb_output_check(o->output, o->force, err);
	cb_lint_model *m = cb_xcalloc(n, sizeof *m);
	const cb_lint_model **mp = cb_xcalloc(n, sizeof *mp);
	cb_lint_result **res = cb_xcalloc(n, sizeof *res);
	char **labels = cb_xcalloc(n, sizeof *labels);
	for (size_t i = 0; i < n; i++)
		mp[i] = &m[i];
	if (rc == CB_OK)
		rc = read_models(o, meas && o->models.n <= 1, m, labels, err);
	cb_lint_request q;
	if (rc == CB_OK)
		rc = make_request(o, &m[0], true, &q, err);
	q.keep_tables = false;
	if (rc == CB_OK)
		rc = cb_lint_file_models(&q, mp, n, meas, nmeas, res, &nk, err);
	for (size_t i = 0; rc == CB_OK && !o->quiet && i < n; i++)
		for (size_t k = 0; k < nk; k++)
			if (res[i][k].warning[0])
				cb_warn("%s: %s", labels[i], res[i][k].warning);
	if (rc == CB_OK && meas && nk != nmeas)
		rc = cb_error_set(err, CB_ERR_RUNTIME, "lint found %zu kernels, then %zu", nmeas,
				  nk);
	models_ctx c = { cb_format_of(o, CB_FMT_TEXT),
			 o->verbose,
			 o->format == CB_OPT_FORMAT_DIFF,
			 res,
			 (const char *const *)labels,
			 n,
			 nk,
			 meas };
	if (rc == CB_OK)
		rc = cb_emit(o->output, o->force, render_models, &c, err);
	if (rc == CB_OK && n)
		diff_warnings(o, res[0], nk);
	for (size_t i = 0; rc == CB_OK && i < n; i++)
		rc = gate(o, res[i], nk, err);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; res[i] && k < nk; k++)
			cb_lint_result_free(&res[i][k]);
		free(res[i]);
		free(labels[i]);
	}
	free(res);
	free(labels);
	free(mp);
	free(m);
	return rc;
}

cb_rc cb_cmd_lint(const cb_cli_options *o, cb_error *err)
{
	if (o->models.n > 1 && !o->measured && o->format != CB_OPT_FORMAT_PLAN)
		return check_args(o, err) != CB_OK ? err->rc : cmd_lint_models(o, NULL, 0, err);
	cb_result measured;
	cb_result_init(&measured);
	cb_rc rc = check_args(o, err);
	if (rc == CB_OK)
		rc = cb_output_check(o->output, o->force, err);
	if (rc == CB_OK && o->measured)
		rc = cb_doc_read(o->measured, CB_DOC_REQUIRE_TIMES, &measured, err);
	unsigned subgroup = o->subgroup ? (unsigned)o->subgroup : measured.device.subgroup_size;
	cb_lint_model m;
	bool has_model = false, beside = false;
	if (rc == CB_OK)
		rc = pricer(o, subgroup, &m, &has_model, &beside, err);
	cb_lint_request q;
	cb_lint_result *res = NULL;
	size_t nres = 0;
	if (rc == CB_OK)
		rc = make_request(o, &m, has_model, &q, err);
	if (rc == CB_OK)
		rc = cb_lint_file(&q, &res, &nres, err);
	for (size_t i = 0; rc == CB_OK && !o->quiet && i < nres; i++)
		if (res[i].warning[0])
			cb_warn("%s", res[i].warning);
	if (rc == CB_OK)
		rc = measurement(o, res, nres, &measured, err);
	lint_ctx c = { cb_format_of(o, CB_FMT_TEXT), o->verbose, o->format == CB_OPT_FORMAT_DIFF,
		       res, nres };
	if (rc == CB_OK && beside && o->measured)
		rc = cmd_lint_models(o, res, nres, err);
	else if (rc == CB_OK && o->format != CB_OPT_FORMAT_PLAN)
		rc = cb_emit(o->output, o->force, render_lint, &c, err);
	if (rc == CB_OK)
		diff_warnings(o, res, nres);
	if (rc == CB_OK && o->format != CB_OPT_FORMAT_PLAN)
		rc = gate(o, res, nres, err);
	for (size_t i = 0; i < nres; i++)
		cb_lint_result_free(&res[i]);
	free(res);
	cb_result_free(&measured);
	return rc;
}
