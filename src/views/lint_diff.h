/* SPDX-License-Identifier: MIT */
/* clbanks lint --format diff: the best fix of every array as a unified diff of the kernel's
 * files (3 lines of context; "a/PATH" and "b/PATH" for a relative path, so that `patch -p1`
 * and `git apply` take it, the path itself when it is absolute, for `patch -p0`). Only an
 * array whose every access (and declaration, for a padding) reads as its name and subscripts
 * is changed: a swizzle applied to some accesses only would corrupt the kernel (the command
 * warns of the arrays left out). */
#ifndef CB_LINT_DIFF_H
#define CB_LINT_DIFF_H

#include "lint/lint.h"

#include <stdio.h>

/* RES: the N kernels' results. Returns the number of changed lines. */
size_t cb_lint_print_diff(FILE *out, const cb_lint_result *res, size_t n);

#endif
