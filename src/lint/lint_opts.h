/* SPDX-License-Identifier: MIT */
/* The build inputs of a lint request as clang arguments (lint_opts.c): -D, -I, -cl-std and
 * clBuildProgram's options, checked against what clBuildProgram takes. No LLVM. */
#ifndef CB_LINT_OPTS_H
#define CB_LINT_OPTS_H

#include "core/error.h"
#include "lint/lint.h"

#include <stddef.h>

typedef struct {
	char **v; /* NULL-terminated */
	size_t n;
} cb_lint_args;

/* The arguments for REQ (-cl-std=CL1.2 unless it names another); CB_ERR_USAGE for an option
 * clBuildProgram does not take, a bad -D or an unknown OpenCL C version. */
cb_rc cb_lint_build_args(const cb_lint_request *req, cb_lint_args *out, cb_error *err);
void cb_lint_args_free(cb_lint_args *a);

#endif
