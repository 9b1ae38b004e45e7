/* SPDX-License-Identifier: MIT */
/* The commands that work on documents (no device): plan, analyze, predict, compare, plot, lint.
 * Internal to src/cli/. */
#ifndef CB_COMMANDS_H
#define CB_COMMANDS_H

#include "cli/common.h"
#include "cli/options.h"

cb_rc cb_cmd_plan(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_analyze(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_predict(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_compare(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_plot(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_lint(const cb_cli_options *o, cb_error *err);

/* The renderer of a result in FMT (text report, CSV, JSON document). */
cb_render_fn cb_renderer(cb_format fmt);

#endif
