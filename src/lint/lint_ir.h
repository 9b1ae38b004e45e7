/* SPDX-License-Identifier: MIT */
/* The LLVM side of lint: compile a kernel with clang (a child process), load the bitcode, and
 * hand the module to the translation (lint_decode.h). */
#ifndef CB_LINT_IR_H
#define CB_LINT_IR_H

#include "lint/lint.h"

#include <llvm-c/Core.h>

#include <stdbool.h>

typedef struct {
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	char *log;   /* clang's stderr, NUL-terminated; "" when silent */
	bool cached; /* ctx and mod belong to the compile cache (lint_ir.c), not to this */
} cb_lint_ir;

/* The clang lint runs: REQUESTED (the CLI passes $CLBANKS_CLANG), else the one configure
 * found. */
const char *cb_lint_clang(const char *requested);

/* Compiles req->kernel_path with its -D defines and loads the module. On a build failure:
 * CB_ERR_INPUT, with clang's messages in ir->log. Call cb_lint_ir_free in every case. The
 * module of the last successful compile is kept: the same file (unchanged) with the same
 * options is compiled once, however many of its kernels are linted. The module is read,
 * never changed. */
cb_rc cb_lint_compile(const cb_lint_request *req, cb_lint_ir *ir, cb_error *err);
void cb_lint_ir_free(cb_lint_ir *ir);

#endif
