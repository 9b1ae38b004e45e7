/* SPDX-License-Identifier: MIT */
/* The parts of the text report (internal to src/views/): report_text.c writes the header and
 * one block per operation, report_advice.c the stride tables, the padding and swizzle advice
 * and the transpose check. */
#ifndef CB_REPORT_PARTS_H
#define CB_REPORT_PARTS_H

#include "core/result.h"

#include <stdbool.h>
#include <stdio.h>

/* Text from a document, printable: control characters as \xNN (NULL: DFLT). */
void cb_report_put(FILE *out, const char *s, const char *dflt);

/* "loads", "stores", "atomics". */

/* The stride table of OP: measured slowdown and the model's passes per element size. */
void cb_report_strides(FILE *out, const cb_result *r, cb_op op);
/* The padding and swizzle advice, and the transpose check. */
void cb_report_advice(FILE *out, const cb_result *r);

#endif
