/* SPDX-License-Identifier: MIT */
/* OpenCL C built-ins (lint_builtin.c): classified by name when the IR is translated, and
 * evaluated when the interpreter runs them. */
#ifndef CB_LINT_BUILTIN_H
#define CB_LINT_BUILTIN_H

#include "lint/lint_interp.h"
#include "lint/lint_prog.h"

#include <stdbool.h>
#include <stddef.h>

/* The built-in behind a (mangled) function name; *is_signed for integer built-ins, *vec for
 * vloadN / vstoreN. */
cb_builtin cb_builtin_classify(const char *name, bool *is_signed, unsigned *vec);
/* The source name of a function: "modf" of "_Z4modffPU3AS3f", an unmangled name itself. */
void cb_builtin_source_name(const char *mangled, char *buf, size_t n);
/* The element the first pointer parameter of a mangled built-in points to: its bytes (3-vectors
 * take 4 elements) and C name ("float4"); 0 when the name does not say. */
unsigned cb_builtin_pointee(const char *mangled, char *name, size_t n);

/* Built-ins without memory effects (lint_builtin.c). */
cb_val cb_builtin_eval(const cb_interp *in, const cb_ins *ins, const cb_val *args, unsigned n);

#endif
