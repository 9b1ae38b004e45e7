/* SPDX-License-Identifier: MIT */
/* compare's section on documented models: each measured document against each documented
 * model among the documents compared, fact by fact (core/agree.h). */
#ifndef CB_VIEWS_AGREE_H
#define CB_VIEWS_AGREE_H

#include "core/result.h"

#include <stdio.h>

/* Nothing when the N documents RS (read from FILES) are not both measured and documented. */
void cb_agreement_text(FILE *out, const cb_result *const *rs, const char *const *files, int n);

#endif
