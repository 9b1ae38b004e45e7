/* SPDX-License-Identifier: MIT */
#ifndef CB_LINT_EXEC_H
#define CB_LINT_EXEC_H

#include "core/error.h"

/* Replaces this process with the clbanks-lint helper, given ARGV: $CLBANKS_LINT, else the one
 * beside this program, else the installed one. Returns only on failure (or, built without
 * LLVM, with a message that says how to get lint). */
cb_rc cb_lint_exec(int argc, char **argv, cb_error *err);

#endif
