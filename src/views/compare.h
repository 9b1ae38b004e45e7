/* SPDX-License-Identifier: MIT */
/* compare: the geometry and key figures of several analyzed results side by side, one column
 * per device (text) or one row per device (CSV). The JSON form is in the codec. */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include "core/result.h"

#include <stdio.h>

/* RS[i] was read from FILES[i]. */
void cb_compare_text(FILE *out, const cb_result *const *rs, const char *const *files, int n);
void cb_compare_csv(FILE *out, const cb_result *const *rs, const char *const *files, int n);

#endif
