/* SPDX-License-Identifier: MIT */
/* LLVM IR to the program the interpreter runs (lint_decode.c). */
#ifndef CB_LINT_DECODE_H
#define CB_LINT_DECODE_H

#include "core/error.h"
#include "lint/lint_prog.h"

#include <llvm-c/Core.h>

/* Translates kernel NAME (NULL: the only kernel) and what it calls. */
cb_rc cb_lint_decode(LLVMModuleRef mod, const char *name, cb_prog *prog, cb_error *err);

/* The names of the module's kernels (defined spir_kernel functions), in order. */
void cb_lint_decode_kernels(LLVMModuleRef mod, char ***names, size_t *n);

#endif
