/* SPDX-License-Identifier: MIT */
/* Linting a kernel file: the kernels it has, each linted in turn (built with or without LLVM:
 * it calls only lint.h's entry points). */
#include "config.h"
#include "lint/lint_file.h"
#include "core/util.h"

#include <stdlib.h>

/* The kernels to lint into *NAMES (NULL: the request's one, or the file's only one): LIKE's
 * when given, else the file's. A file that does not compile is linted once, which says why. */
static cb_rc kernel_names(const cb_lint_request *req, const cb_lint_result *like, size_t nlike,
			  char ***names, size_t *n, cb_error *err)
{
	*names = NULL;
	*n = 0;
	if (req->kernel_name)
		return CB_OK;
	if (nlike > 1) {
		*names = cb_xcalloc(nlike, sizeof **names);
		for (size_t k = 0; k < nlike; k++)
			(*names)[(*n)++] = cb_xstrdup(like[k].kernel ? like[k].kernel : "");
		return CB_OK;
	}
	if (cb_lint_kernels(req, names, n, err) != CB_OK) {
		if (err->rc == CB_ERR_INTERRUPTED)
			return CB_ERR_INTERRUPTED;
		cb_error_clear(err);
		*names = NULL;
		*n = 0;
	}
	return CB_OK;
}

cb_rc cb_lint_file(cb_lint_request *req, cb_lint_result **res, size_t *nres, cb_error *err)
{
	char **names;
	size_t nk;
	*res = NULL;
	*nres = 0;
	if (kernel_names(req, NULL, 0, &names, &nk, err) != CB_OK)
		return CB_ERR_INTERRUPTED;
	*nres = nk > 1 ? nk : 1;
	*res = cb_xcalloc(*nres, sizeof **res);
	cb_rc rc = CB_OK;
	for (size_t i = 0; i < *nres && rc == CB_OK; i++) {
		if (nk > 1)
			req->kernel_name = names[i];
		rc = cb_lint_run(req, &(*res)[i], err);
		if (rc == CB_ERR_INPUT && (*res)[i].build_log && (*res)[i].build_log[0])
			cb_error_detail(err, "%s", (*res)[i].build_log);
	}
	if (nk > 1)
		req->kernel_name = NULL;
	cb_lint_names_free(names, nk);
	return rc;
}

cb_rc cb_lint_file_models(cb_lint_request *req, const cb_lint_model *const *models, size_t n,
			  const cb_lint_result *like, size_t nlike, cb_lint_result **res,
			  size_t *nk, cb_error *err)
{
	char **names;
	size_t nn;
	*nk = 0;
	if (kernel_names(req, like, nlike, &names, &nn, err) != CB_OK)
		return CB_ERR_INTERRUPTED;
	*nk = nn > 1 ? nn : 1;
	for (size_t i = 0; i < n; i++)
		res[i] = cb_xcalloc(*nk, sizeof **res);
	cb_lint_result *one = cb_xcalloc(n, sizeof *one);
	cb_rc rc = CB_OK;
	for (size_t k = 0; k < *nk && rc == CB_OK; k++) {
		if (nn > 1)
			req->kernel_name = names[k];
		rc = cb_lint_run_models(req, models, n, one, err);
		if (rc == CB_ERR_INPUT && one[0].build_log && one[0].build_log[0])
			cb_error_detail(err, "%s", one[0].build_log);
		for (size_t i = 0; i < n; i++)
			res[i][k] = one[i];
	}
	free(one);
	if (nn > 1)
		req->kernel_name = NULL;
	cb_lint_names_free(names, nn);
	return rc;
}
