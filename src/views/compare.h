/* SPDX-License-Identifier: MIT */
/* compare: the geometry and key figures of several analyzed results side by side, one column
 * per device (text) or one row per device (CSV). The JSON form is in the codec. */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include "core/fleet.h"
#include "core/result.h"

#include <stdio.h>

/* RS[i] was read from FILES[i]. */
void cb_compare_text(FILE *out, const cb_result *const *rs, const char *const *files, int n);
/* compare --baseline's report of cb_baseline_compare's N quantities D (CHANGED of them) of
 * OLD (FILES[0]) against NEW (FILES[1]). */
void cb_compare_baseline_text(FILE *out, const cb_result *old, const cb_result *new,
			      const char *const files[2], const cb_baseline_diff *d, size_t n,
			      size_t changed);
void cb_compare_csv(FILE *out, const cb_result *const *rs, const char *const *files, int n);

#endif
