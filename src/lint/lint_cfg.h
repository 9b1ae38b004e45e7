/* SPDX-License-Identifier: MIT */
/* Control flow of the translated program (lint_cfg.c). */
#ifndef CB_LINT_CFG_H
#define CB_LINT_CFG_H

#include "lint/lint_prog.h"

/* Loops (from depth-first back edges) and immediate post-dominators of one function's blocks,
 * from its successor lists. */
void cb_fn_analyze(cb_fn *f);

#endif
