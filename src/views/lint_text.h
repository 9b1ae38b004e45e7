/* SPDX-License-Identifier: MIT */
/* clbanks lint as text: one block per __local access, lines under 100 columns; names from
 * the kernel and paths have control characters escaped (\x1b). */
#ifndef CB_LINT_TEXT_H
#define CB_LINT_TEXT_H

#include "lint/lint.h"

#include <stdio.h>

void cb_lint_print_text(FILE *out, const cb_lint_result *r);

#endif
