/* SPDX-License-Identifier: MIT */
/* Reference models by name on the command line (doc/model_find.h): --model NAME for predict
 * and lint, a NAME operand for analyze, compare, export and plot, and --list-models. */
#ifndef CB_CLI_MODELS_H
#define CB_CLI_MODELS_H

#include "cli/options.h"
#include "core/result.h"

/* The files that names were resolved to, owned until cb_cli_models_free. */
typedef struct {
	char **v;
	size_t n;
} cb_cli_model_paths;

/* Replaces every --model NAME, and every document operand NAME of analyze, compare, export and
 * plot, with the file of the model of that name; paths stay as they are. CB_ERR_INPUT (exit
 * 2) for a name that no model has. */
cb_rc cb_cli_models_resolve(cb_cli_options *o, cb_cli_model_paths *paths, cb_error *err);
void cb_cli_models_free(cb_cli_model_paths *paths);
/* The documented models of the model path (--list-models' folders) that R, a measured and
 * analyzed result, agrees with on every fact compared, into R->match (checked even when there
 * is none). Models that cannot be read are passed over. */
void cb_cli_match_documented(cb_result *r);
/* clbanks --list-models */
cb_rc cb_cmd_list_models(const cb_cli_options *o, cb_error *err);

#endif
