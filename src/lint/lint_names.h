/* SPDX-License-Identifier: MIT */
/* Names as the kernel spells them (lint_names.c). */
#ifndef CB_LINT_NAMES_H
#define CB_LINT_NAMES_H

#include "lint/lint_dctx.h"

#include <stdbool.h>
#include <stddef.h>

/* The C name of an IR type; a __local variable's element type as
 * declared (false when the debug information does not say); the kernel_arg_WHAT metadata
 * strings of a kernel (NULL when absent; free with cb_free_strings); "float" of "float*". */
void cb_type_name(LLVMTypeRef t, char *buf, size_t n);
bool cb_debug_elem_name(cb_dctx *d, LLVMValueRef g, char *buf, size_t n);
/* The line G is declared on (its debug information), 0 when not known. */
unsigned cb_debug_decl_line(cb_dctx *d, LLVMValueRef g);
char **cb_kernel_arg_strings(cb_dctx *d, LLVMValueRef fn, const char *what, unsigned n);
void cb_free_strings(char **s, unsigned n);
char *cb_pointee_name(const char *type);
unsigned cb_cl_type_bytes(const char *type);
/* The fields of by-value struct argument K of kernel FN, from its debug information (none
 * when it has none, or the argument is no struct). */
void cb_debug_arg_fields(cb_dctx *d, LLVMValueRef fn, unsigned k, cb_karg *a);

#endif
