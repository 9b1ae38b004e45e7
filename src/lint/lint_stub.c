/* SPDX-License-Identifier: MIT */
/* lint when clbanks was configured without LLVM: it says how to enable it. */
#include "config.h"
#include "lint/lint.h"
#include "core/util.h"

#include <string.h>

cb_rc cb_lint_run(const cb_lint_request *req, cb_lint_result *res, cb_error *err)
{
	(void)req;
	memset(res, 0, sizeof *res);
	res->build_log = cb_xstrdup("");
	return cb_error_set(err, CB_ERR_USAGE,
			    "clbanks was built without LLVM; install llvm-dev and clang and "
			    "reconfigure with --with-llvm");
}

cb_rc cb_lint_run_models(const cb_lint_request *req, const cb_lint_model *const *models, size_t n,
			 cb_lint_result *res, cb_error *err)
{
	(void)req;
	(void)models;
	memset(res, 0, n * sizeof *res);
	for (size_t i = 0; i < n; i++)
		res[i].build_log = cb_xstrdup("");
	return cb_error_set(err, CB_ERR_USAGE,
			    "clbanks was built without LLVM; install llvm-dev and clang and "
			    "reconfigure with --with-llvm");
}

cb_rc cb_lint_kernels(const cb_lint_request *req, char ***names, size_t *n, cb_error *err)
{
	(void)req;
	*names = NULL;
	*n = 0;
	return cb_error_set(err, CB_ERR_USAGE,
			    "clbanks was built without LLVM; install llvm-dev and clang and "
			    "reconfigure with --with-llvm");
}

bool cb_lint_available(void)
{
	return false;
}
