/* SPDX-License-Identifier: MIT */
/* Preparing a lint: the model that prices its accesses, built from an analyzed result. */
#ifndef CB_LINT_MODEL_H
#define CB_LINT_MODEL_H

#include "core/notify.h"
#include "core/result.h"
#include "lint/lint.h"

/* The loads' model of R (the document at PATH, named in messages) and the stores' and
 * atomics' where R has their own, into M; a model less sure than 0.9 is warned of to N.
 * SUBGROUP (0: any) is the sub-group size R must have. */
cb_rc cb_lint_model_from_result(const cb_result *r, const char *path, unsigned subgroup,
				const cb_notifier *n, cb_lint_model *m, cb_error *err);

#endif
