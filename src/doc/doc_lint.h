/* SPDX-License-Identifier: MIT */
/* clbanks lint as JSON (jansson): {"kernel", "work_group", "model", "accesses": [{"file",
 * "line", "column", "op", "elem_bytes", "object", "status", "passes_max", "min_passes",
 * "iterations", "offsets", "fix"}]}, keys sorted, integers only (locale independent). */
#ifndef CB_DOC_LINT_H
#define CB_DOC_LINT_H

#include "lint/lint.h"

/* A NUL-terminated document ending in a newline (free it), or NULL when out of memory. */
char *cb_lint_to_json(const cb_lint_result *r);

#endif
