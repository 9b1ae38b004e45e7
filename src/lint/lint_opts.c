/* SPDX-License-Identifier: MIT */
/* clBuildProgram options as clang arguments: only the options the OpenCL specification lists
 * for clBuildProgram pass, so that --build-options cannot run plug-ins or write files. */
#include "config.h"
#include "lint/lint_opts.h"
#include "lint/lint_lang.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options without a value (OpenCL 3.0, 5.8.6). */
/* clang-format off */
static const char *const plain[] = {
	"-cl-single-precision-constant", "-cl-denorms-are-zero",
	"-cl-fp32-correctly-rounded-divide-sqrt", "-cl-opt-disable", "-cl-mad-enable",
	"-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
	"-cl-fast-relaxed-math", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp", "-w",
	"-Werror", "-cl-kernel-arg-info", "-g",
};
/* clang-format on */

static const char *const versions[] = { "CL1.1", "CL1.2", "CL2.0", "CL3.0" };

static bool known_version(const char *v)
{
	for (size_t k = 0; k < sizeof versions / sizeof versions[0]; k++)
		if (!strcmp(v, versions[k]))
			return true;
	return false;
}

static cb_rc add_define(cb_lint_args *a, const char *d, cb_error *err)
{
	if (!d || !*d || *d == '=' || strchr(d, '\n'))
		return cb_error_set(err, CB_ERR_USAGE, "-D needs NAME or NAME=VALUE");
	cb_lint_args_add(a, "-D", d);
	return CB_OK;
}

/* One token of --build-options (NEXT: the one after it, for "-D NAME" and "-I DIR"); *used
 * says whether NEXT was taken. */
static cb_rc add_option(cb_lint_args *a, const char *t, const char *next, bool *used, cb_error *err)
{
	*used = false;
	for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++)
		if (!strcmp(t, plain[k])) {
			cb_lint_args_add(a, "", t);
			return CB_OK;
		}
	if (!strncmp(t, "-cl-std=", 8)) {
		if (!known_version(t + 8))
			return cb_error_set(err, CB_ERR_USAGE,
					    "--build-options: unknown OpenCL C version "
					    "'%s' (CL1.1, CL1.2, CL2.0 or CL3.0)",
					    t + 8);
		cb_lint_args_add(a, "", t);
		return CB_OK;
	}
	bool d = !strncmp(t, "-D", 2), inc = !strncmp(t, "-I", 2);
	if (!d && !inc)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--build-options: '%s' is not an option of "
				    "clBuildProgram (-D, -I, -cl-std=, -cl-* math and optimization "
				    "options, -w, -Werror)",
				    t);
	const char *value = t[2] ? t + 2 : next;
	*used = !t[2];
	if (!value || !*value)
		return cb_error_set(err, CB_ERR_USAGE, "--build-options: %s needs a value", t);
	if (d)
		return add_define(a, value, err);
	cb_lint_args_add(a, "-I", value);
	return CB_OK;
}

static cb_rc split_options(cb_lint_args *a, const char *opts, cb_error *err)
{
	char *copy = cb_xstrdup(opts), *save = NULL;
	char *tok[256];
	size_t n = 0;
	for (char *t = strtok_r(copy, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
		if (n == sizeof tok / sizeof tok[0]) {
			free(copy);
			return cb_error_set(err, CB_ERR_USAGE,
					    "--build-options: more than 256 words");
		}
		tok[n++] = t;
	}
	cb_rc rc = CB_OK;
	for (size_t i = 0; i < n && rc == CB_OK; i++) {
		bool used;
		rc = add_option(a, tok[i], i + 1 < n ? tok[i + 1] : NULL, &used, err);
		i += used;
	}
	free(copy);
	return rc;
}

cb_rc cb_lint_build_args(const cb_lint_request *req, cb_lint_args *out, cb_error *err)
{
	memset(out, 0, sizeof *out);
	if (req->lang != CB_LINT_OPENCL)
		return cb_lint_lang_args(req, out, err);
	const char *std = req->cl_std ? req->cl_std : "CL1.2";
	if (!known_version(std))
		return cb_error_set(err, CB_ERR_USAGE,
				    "--cl-std: unknown OpenCL C version '%s' "
				    "(CL1.1, CL1.2, CL2.0 or CL3.0)",
				    std);
	cb_lint_args_add(out, "-cl-std=", std);
	cb_rc rc = CB_OK;
	for (size_t i = 0; i < req->ndefines && rc == CB_OK; i++)
		rc = add_define(out, req->defines[i], err);
	for (size_t i = 0; i < req->nincludes && rc == CB_OK; i++) {
		if (!req->includes[i] || !*req->includes[i])
			rc = cb_error_set(err, CB_ERR_USAGE, "-I needs a directory");
		else
			cb_lint_args_add(out, "-I", req->includes[i]);
	}
	/* What drivers define and clang does not: the device's OpenCL version (kernels test
	 * it to pick code paths). */
	if (rc == CB_OK && !cb_lint_defines(req, "__OPENCL_VERSION__")) {
		char d[48];
		snprintf(d, sizeof d, "__OPENCL_VERSION__=%u", cb_lint_opencl_version(req));
		cb_lint_args_add(out, "-D", d);
	}
	/* Last: a -cl-std= in the options wins, as clang takes the last one. */
	if (rc == CB_OK && req->build_options)
		rc = split_options(out, req->build_options, err);
	return rc;
}

void cb_lint_args_free(cb_lint_args *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof *a);
}
