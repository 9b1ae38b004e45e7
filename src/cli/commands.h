/* SPDX-License-Identifier: MIT */
/* The commands, which cli.c's command table dispatches to: run (cmd_run.c), --device all
 * (cmd_all.c), and those that work on documents (no device): plan, analyze, predict, compare,
 * plot, lint. What the run of one device and of every device share is in cmd_run.h. Internal
 * to src/cli/. */
#ifndef CB_COMMANDS_H
#define CB_COMMANDS_H

#include "cli/common.h"
#include "cli/options.h"

/* clbanks [run]: --list, or the measurement of the selected device. */
cb_rc cb_cmd_run(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_plan(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_analyze(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_predict(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_compare(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_plot(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_lint(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_export(const cb_cli_options *o, cb_error *err);

/* Reads and analyzes the documents FILES[0..N-1] and writes their compare table in FMT to
 * OUT ("-": standard output), as 'clbanks compare FILES' does. */
cb_rc cb_compare_files(const char *const *files, int n, cb_format fmt, const char *out, bool force,
		       cb_error *err);

/* clbanks --device all -o DIR: every device in turn (cmd_all.c). */
cb_rc cb_cmd_run_all(const cb_cli_options *o, cb_error *err);

#endif
