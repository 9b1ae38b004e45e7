/* SPDX-License-Identifier: MIT */
#ifndef CB_LINT_EXEC_H
#define CB_LINT_EXEC_H

#include "core/error.h"

#include <stddef.h>

/* Replaces this process with the clbanks-lint helper, given ARGV: $CLBANKS_LINT, else the one
 * beside this program, else the installed one. Returns only on failure (or, built without
 * LLVM, with a message that says how to get lint). */
cb_rc cb_lint_exec(int argc, char **argv, cb_error *err);
/* The same with EXTRA[0..NEXTRA) appended to ARGV. */
cb_rc cb_lint_exec_with(int argc, char **argv, const char *const *extra, size_t nextra,
			cb_error *err);
/* The helper that cb_lint_exec would run, into PATH, for running it as a child. */
cb_rc cb_lint_helper_path(const char *argv0, char *path, size_t n, cb_error *err);

#endif
