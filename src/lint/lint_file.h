/* SPDX-License-Identifier: MIT */
/* Linting a kernel file, for any front end: every kernel of it (or the one the request
 * names), each with one model or with several at once. */
#ifndef CB_LINT_FILE_H
#define CB_LINT_FILE_H

#include "lint/lint.h"

/* Every kernel of REQ's file (REQ->kernel_name NULL) or the one it names, each with its own
 * result, into *RES[0..*NRES-1] (allocated here, *NRES >= 1). A file that does not compile,
 * or has one kernel or none, is one run that says why: its build log is ERR's detail. A stop
 * is CB_ERR_INTERRUPTED. REQ is left as it was given. */
cb_rc cb_lint_file(cb_lint_request *req, cb_lint_result **res, size_t *nres, cb_error *err);

/* The same, each kernel with the N MODELS at once: RES[m][k] is model m's result of kernel k
 * (each RES[m] allocated here, *NK kernels). Without REQ->kernel_name and with LIKE (NLIKE
 * > 1: the results of an earlier lint of the file), the kernels are LIKE's, in its order. */
cb_rc cb_lint_file_models(cb_lint_request *req, const cb_lint_model *const *models, size_t n,
			  const cb_lint_result *like, size_t nlike, cb_lint_result **res,
			  size_t *nk, cb_error *err);

#endif
