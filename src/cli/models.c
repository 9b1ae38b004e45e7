/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/models.h"
#include "cli/common.h"
#include "cli/outfile.h"
#include "core/agree.h"
#include "core/util.h"
#include "doc/model_find.h"
#include "views/models.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#ifndef CB_MODELDIR
#define CB_MODELDIR "/usr/local/share/clbanks/models"
#endif

/* *ARG, when a model's name, becomes its file (kept in PATHS). */
static cb_rc resolve(const char **arg, cb_cli_model_paths *paths, cb_error *err)
{
	char *path;
	cb_rc rc = cb_model_find(*arg, getenv("CLBANKS_MODEL_PATH"), CB_MODELDIR, &path, err);
	if (rc != CB_OK || !path)
		return rc;
	paths->v = cb_xrealloc(paths->v, (paths->n + 1) * sizeof *paths->v);
	paths->v[paths->n++] = path;
	*arg = path;
	return CB_OK;
}

cb_rc cb_cli_models_resolve(cb_cli_options *o, cb_cli_model_paths *paths, cb_error *err)
{
	cb_rc rc = CB_OK;
	for (size_t k = 0; k < o->models.n && rc == CB_OK; k++)
		rc = resolve(&o->models.v[k], paths, err);
	if (rc == CB_OK && o->models.n)
		o->model = o->models.v[0];
	if (rc == CB_OK && !o->models.n && o->model)
		rc = resolve(&o->model, paths, err);
	if (rc == CB_OK && o->baseline)
		rc = resolve(&o->baseline, paths, err);
	if (o->cmd != CB_CMD_ANALYZE && o->cmd != CB_CMD_COMPARE && o->cmd != CB_CMD_EXPORT &&
	    o->cmd != CB_CMD_PLOT)
		return rc;
	for (int k = 0; k < o->nargs && rc == CB_OK; k++) {
		const char *a = o->args[k];
		rc = resolve(&a, paths, err);
		o->args[k] = (char *)a; /* the operands point into argv, or into PATHS */
	}
	return rc;
}

void cb_cli_models_free(cb_cli_model_paths *paths)
{
	for (size_t k = 0; k < paths->n; k++)
		free(paths->v[k]);
	free(paths->v);
	*paths = (cb_cli_model_paths){ 0 };
}

/* Does TITLE name R's device: a word of its name with a digit in it ("H200" in "NVIDIA H200"),
 * or its compute capability ("compute capability 9.0")? */
static bool names_device(const char *title, const cb_result *r)
{
	const char *cc = r->device.compute_capability;
	char buf[64];
	if (cc && *cc && snprintf(buf, sizeof buf, "capability %s", cc) < (int)sizeof buf &&
	    strstr(title, buf))
		return true;
	for (const char *p = r->device.name ? r->device.name : ""; *p;) {
		size_t n = strcspn(p, " \t()/,;"), k;
		bool digit = false;
		for (k = 0; k < n; k++)
			digit |= isdigit((unsigned char)p[k]) != 0;
		if (digit && n >= 2 && n < sizeof buf) {
			snprintf(buf, sizeof buf, "%.*s", (int)n, p);
			const char *t = strstr(title, buf);
			/* a whole word: "H200" in "H100, H200", not "H20" in it */
			if (t && !isalnum((unsigned char)t[n]) &&
			    (t == title || !isalnum((unsigned char)t[-1])))
				return true;
		}
		p += n;
		p += *p != '\0';
	}
	return false;
}

void cb_cli_match_documented(cb_result *r)
{
	cb_model_list l;
	cb_error err;
	if (r->documented || !r->analyzed ||
	    cb_models_scan(getenv("CLBANKS_MODEL_PATH"), CB_MODELDIR, &l, &err) != CB_OK)
		return;
	cb_result *docs = cb_xcalloc(l.n + 1, sizeof *docs);
	const cb_result **ptrs = cb_xcalloc(l.n + 1, sizeof *ptrs);
	size_t *entry = cb_xcalloc(l.n + 1, sizeof *entry), n = 0;
	for (size_t k = 0; k < l.n; k++) {
		cb_result_init(&docs[n]);
		if (cb_model_documented(l.v[k].path) &&
		    cb_load_model_doc(l.v[k].path, &docs[n], &err) == CB_OK) {
			ptrs[n] = &docs[n];
			entry[n++] = k;
		} else {
			cb_result_free(&docs[n]);
		}
	}
	r->match.checked = true;
	r->match.models = n;
	/* Every model that agrees, the first match after the one before; the one whose title
	 * names the device goes first. */
	for (size_t from = 0; from < n && r->match.n < sizeof r->match.v / sizeof *r->match.v;) {
		int m = cb_agreement_match(r, ptrs + from, n - from);
		if (m < 0)
			break;
		size_t i = from + (size_t)m, at = r->match.n++;
		cb_agreement a;
		cb_agreement_of(r, ptrs[i], &a);
		const char *title = docs[i].doc.title ? docs[i].doc.title : l.v[entry[i]].name;
		bool named = names_device(title, r);
		if (named && at > 0 && !r->match.v[0].names_device) {
			memmove(r->match.v + 1, r->match.v, at * sizeof *r->match.v);
			at = 0;
		}
		r->match.v[at].name = cb_xstrdup(l.v[entry[i]].name);
		r->match.v[at].title = cb_xstrdup(title);
		r->match.v[at].agree = a.agree;
		r->match.v[at].names_device = named;
		from = i + 1;
	}
	for (size_t i = 0; i < n; i++)
		cb_result_free(&docs[i]);
	free(docs);
	free(ptrs);
	free(entry);
	cb_models_free(&l);
}

static void render_models(FILE *out, const void *p)
{
	cb_models_print(out, p);
}

cb_rc cb_cmd_list_models(const cb_cli_options *o, cb_error *err)
{
	if (o->format >= 0 && o->format != CB_OPT_FORMAT_TEXT)
		return cb_usage_error(err, NULL, "--list-models writes text");
	cb_rc rc = cb_output_check(o->output, o->force, err); /* as every other command */
	if (rc != CB_OK)
		return rc;
	cb_model_list l;
	rc = cb_models_scan(getenv("CLBANKS_MODEL_PATH"), CB_MODELDIR, &l, err);
	if (rc != CB_OK)
		return rc;
	cb_models_describe(&l);
	rc = cb_emit(o->output, o->force, render_models, &l, err);
	cb_models_free(&l);
	return rc;
}
