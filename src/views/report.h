/* SPDX-License-Identifier: MIT */
/* Reports of one analyzed document: text for people, CSV (one row per measurement) and JSON
 * (the whole document) for programs. Numbers never depend on the locale. */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include "core/infer.h"

#include <jansson.h>
#include <stdio.h>

typedef enum { CB_FMT_TEXT, CB_FMT_JSON, CB_FMT_CSV } cb_format;

/* Parses "text", "json" or "csv". */
bool cb_format_parse(const char *s, cb_format *f);

void cb_report_text(FILE *out, json_t *doc, const cb_inference *inf, unsigned subgroup);
void cb_report_csv(FILE *out, json_t *doc, const cb_inference *inf, unsigned subgroup);

/* Writes one CSV field with RFC 4180 quoting. */
void cb_csv_field(FILE *out, const char *s, bool last);

#endif
