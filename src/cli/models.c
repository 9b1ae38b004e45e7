/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/models.h"
#include "cli/common.h"
#include "core/util.h"
#include "doc/model_find.h"
#include "views/models.h"

#include <stdlib.h>

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

static void render_models(FILE *out, const void *p)
{
	cb_models_print(out, p);
}

cb_rc cb_cmd_list_models(const cb_cli_options *o, cb_error *err)
{
	if (o->format >= 0 && o->format != CB_OPT_FORMAT_TEXT)
		return cb_usage_error(err, NULL, "--list-models writes text");
	cb_model_list l;
	cb_rc rc = cb_models_scan(getenv("CLBANKS_MODEL_PATH"), CB_MODELDIR, &l, err);
	if (rc != CB_OK)
		return rc;
	cb_models_describe(&l);
	rc = cb_emit(o->output, o->force, render_models, &l, err);
	cb_models_free(&l);
	return rc;
}
