/* SPDX-License-Identifier: MIT */
/* compare's JSON section on documented models (core/agree.h). */
#ifndef CB_DOC_AGREE_H
#define CB_DOC_AGREE_H

#include "core/result.h"

#include <jansson.h>

/* "documented": one object per measured document and documented model among RS (read from
 * FILES), fact by fact; NULL when there is no such pair. */
json_t *cb_agreement_json(const cb_result *const *rs, const char *const *files, int n);

#endif
