/* SPDX-License-Identifier: MIT */
/* CUDA and HIP kernels (lint_lang.c, no LLVM): the language of a file, clang's arguments for
 * its device side, the target built-ins (PTX special registers, AMDGCN work-item ids and the
 * device library's __ockl_get_*) as OpenCL's work-item functions, and what the compile
 * predefines. The module side (address spaces, kernels, names) is lint_target.c's. */
#ifndef CB_LINT_LANG_H
#define CB_LINT_LANG_H

#include "core/error.h"
#include "lint/lint.h"
#include "lint/lint_opts.h"
#include "lint/lint_prog.h"

#include <stdbool.h>
#include <stddef.h>

#define CB_HIP_NO_BOUNDS 1023 /* the HIP bound that stands for no __launch_bounds__ */
#define CB_STR_(x) #x
#define CB_STR(x) CB_STR_(x)

/* "opencl", "cuda" or "hip" (also "cl"); CB_ERR_USAGE otherwise. */
cb_rc cb_lint_lang_parse(const char *text, cb_lint_lang *out, cb_error *err);
/* By extension: .cu and .cuh are CUDA, .hip HIP, anything else OpenCL C. */
cb_lint_lang cb_lint_lang_of_path(const char *path);
const char *cb_lint_lang_name(cb_lint_lang lang);
/* clang's fixed arguments for LANG (before the user's), NULL-terminated. */
const char *const *cb_lint_lang_fixed(cb_lint_lang lang);
/* The user's arguments of a CUDA or HIP request: -D, -I, and either clbanks' device headers or
 * the SDK of --cuda-path / --rocm-path; CB_ERR_USAGE for an OpenCL-only option. */
/* Appends PREFIX VALUE to A as one argument (kept NULL-terminated). */
void cb_lint_args_add(cb_lint_args *a, const char *prefix, const char *value);
cb_rc cb_lint_lang_args(const cb_lint_request *req, cb_lint_args *out, cb_error *err);
/* A target function or intrinsic NAME as a work-item built-in: *dim is its dimension (0, 1,
 * 2), -1 when it has none, -2 when it is the call's first argument (__ockl_get_local_id). */
bool cb_lint_lang_builtin(const char *name, cb_builtin *b, int *dim);
/* Is object K an extern __shared__ array (dynamic shared memory: a __local object marked
 * is_arg that no argument owns)? */
bool cb_lint_lang_dynamic_shared(const cb_prog *p, uint32_t k);
/* extern __shared__ arrays: every one sized BYTES (--shared-bytes); 0 leaves them unsized. */
void cb_lint_lang_shared_bytes(cb_prog *p, uint64_t bytes);
/* --arg NAME=VALUE naming such an array: sized VALUE bytes; false when none is named NAME. */
bool cb_lint_lang_set_shared(cb_prog *p, const char *name, size_t len, long long value);
/* The work-group size from the kernel's __launch_bounds__ when LOCAL (--local) has none: the
 * bound, one-dimensional, when the kernel reads only x ids (else CB_ERR_USAGE: its shape is
 * not known); CB_ERR_USAGE when LOCAL exceeds the bound. */
cb_rc cb_lint_lang_bounds(const cb_prog *p, unsigned local[3], cb_error *err);
/* What the compile of a CUDA or HIP kernel predefines, for the report. */
void cb_lint_lang_predefined(const cb_lint_request *req, char *buf, size_t n);

#endif
