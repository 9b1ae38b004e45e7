/* SPDX-License-Identifier: MIT */
/* The result document (format "clbanks", version 1): reading with strict validation, the view
 * the inference works on, and writing (sorted keys, locale-independent numbers). */
#ifndef CB_DOC_H
#define CB_DOC_H

#include "core/infer.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#define CB_FORMAT_NAME "clbanks"
#define CB_FORMAT_VERSION 1
/* Documents larger than this are refused rather than parsed. */
#define CB_DOC_MAX_BYTES (256L * 1024 * 1024)
#define CB_DOC_MAX_MEASUREMENTS 200000

/* Loads and validates PATH ("-" = stdin). On failure prints "clbanks: PATH: what is wrong" and
 * returns NULL. With REQUIRE_TIMES every measurement needs ns_per_access. */
json_t *cb_doc_load(const char *path, bool require_times);

/* Validates an already parsed document; on failure writes a message into ERR. */
bool cb_doc_validate(json_t *doc, bool require_times, char *err, size_t errlen);

/* Builds the inference's view of a validated document. Lanes stay owned by DS
 * (free with cb_dataset_free). */
void cb_doc_dataset(json_t *doc, cb_dataset *ds);
void cb_dataset_free(cb_dataset *ds);

/* Serializes for output: sorted keys, two-space indent, 6 significant digits for reals. */
char *cb_doc_dumps(json_t *doc);

#endif
