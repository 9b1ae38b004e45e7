/* SPDX-License-Identifier: MIT */
/* The commands that work on documents (no device): plan, analyze, predict, compare, plot, lint;
 * and what the run of one device and of every device (cmd_all.c) share. Internal to src/cli/. */
#ifndef CB_COMMANDS_H
#define CB_COMMANDS_H

#include "cli/common.h"
#include "cli/options.h"
#include "measure/device.h"
#include "measure/run.h"

cb_rc cb_cmd_plan(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_analyze(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_predict(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_compare(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_plot(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_lint(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_export(const cb_cli_options *o, cb_error *err);

/* The renderer of a result in FMT (text report, CSV, JSON document). */
cb_render_fn cb_renderer(cb_format fmt);

/* Reads and analyzes the documents FILES[0..N-1] and writes their compare table in FMT to
 * OUT ("-": standard output), as 'clbanks compare FILES' does. */
cb_rc cb_compare_files(const char *const *files, int n, cb_format fmt, const char *out, bool force,
		       cb_error *err);

/* The run options of the command line and the environment; notes go to N. */
cb_rc cb_run_options(const cb_cli_options *o, const cb_result *plan, const cb_notifier *n,
		     cb_run_opts *ro, cb_error *err);
/* Measures the device REF with RO (notes to RO's notifier) and analyzes the result into R. */
cb_rc cb_run_device(const cb_cli_options *o, const cb_run_opts *ro, const cb_device_ref *ref,
		    cb_result *r, cb_error *err);
/* Does the device specification (--device, else $CLBANKS_DEVICE) say "all"? */
bool cb_device_spec_all(const cb_cli_options *o);
/* clbanks --device all -o DIR: every device in turn (cmd_all.c). */
cb_rc cb_cmd_run_all(const cb_cli_options *o, cb_error *err);

#endif
