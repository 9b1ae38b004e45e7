/* SPDX-License-Identifier: MIT */
/* What the commands share: printing errors, the notifier behind -q and -v, formatting an
 * output in memory and committing it, and reading and analyzing documents. Internal to src/cli/. */
#ifndef CB_CLI_COMMON_H
#define CB_CLI_COMMON_H

#include "cli/options.h"
#include "core/error.h"
#include "core/notify.h"
#include "core/result.h"
#include "core/select.h"
#include "views/report.h"

#include <stdio.h>

/* "clbanks: <message>\n" on stderr, control characters escaped. */
void cb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "clbanks: warning: <message>\n" on stderr. */
void cb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A usage error: FMT, then the detail "Usage: USAGE", or with USAGE NULL "Try 'clbanks
 * --help' for more information.". Returns CB_ERR_USAGE. */
cb_rc cb_usage_error(cb_error *err, const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prints ERR on stderr: "clbanks: TEXT[: CALL: NAME (N)]", a hint, the detail lines. */
void cb_print_error(const cb_error *err);
/* The notifier of the command line: warnings and notes unless -q, detail with -v, progress on
 * a terminal. */
cb_notifier cb_cli_notifier(const cb_cli_options *o);
/* Ends a progress line (before other output on stderr). */
void cb_progress_done(void);

typedef void (*cb_render_fn)(FILE *out, const void *ctx);
/* Formats with RENDER into memory, then writes PATH ("-" or NULL: standard output). Nothing is
 * written when interrupted. */
cb_rc cb_emit(const char *path, bool force, cb_render_fn render, const void *ctx, cb_error *err);
/* cb_emit for a measurement: when PATH cannot be written, the output is kept in another file,
 * named in ERR (cb_output_commit_kept). */
cb_rc cb_emit_kept(const char *path, bool force, cb_render_fn render, const void *ctx,
		   cb_error *err);
/* The renderer of a result in FMT (text report, CSV, JSON document). */
cb_render_fn cb_renderer(cb_format fmt);

/* The format the output name asks for (.csv, .txt, .json), else DFLT. */
cb_format cb_format_for_path(const char *path, cb_format dflt);
/* The format of --format, or DFLT when it was not given. */
cb_format cb_format_of(const cb_cli_options *o, cb_format dflt);

/* Reads and analyzes a result document; a documented model (no measurements) is refused:
 * nothing to analyze. */
cb_rc cb_load_analyzed(const char *path, cb_result *r, cb_error *err);
/* Reads the document at PATH for its bank models: when it has timed measurements they are
 * analyzed and the analysis replaces the recorded inferences (one verdict: analyze's). */
cb_rc cb_read_model_doc(const char *path, cb_result *r, cb_error *err);
/* A plan (--plan FILE): any document with measurements; a documented model has none. */
cb_rc cb_load_plan(const char *path, cb_result *plan, cb_error *err);
/* The same, a documented model accepted (its inferences are its model: core/analyze.h). */
cb_rc cb_load_model_doc(const char *path, cb_result *r, cb_error *err);
/* The model that prices OP at ELEM_BYTES (0: the op's own) in the document at PATH
 * (core/select.h's rule), and its sub-group size: a usage error that says why when nothing
 * prices it; a flat (not banked) verdict is an answer. LABEL (SIZE bytes): "NAME (documented,
 * not measured)" for a documented model, else "". */
cb_rc cb_load_model(const char *path, cb_op op, unsigned elem_bytes, cb_model_choice *c,
		    unsigned *subgroup, char *label, size_t size, cb_error *err);
/* CB_ERR_QUALITY when --strict and R is not banked or has warnings. */
cb_rc cb_strict_check(const cb_cli_options *o, const cb_result *r, cb_error *err);

#endif
