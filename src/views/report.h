/* SPDX-License-Identifier: MIT */
/* Reports of one analyzed result: text for people, CSV (one row per measurement) for
 * programs. Numbers never depend on the locale; text from documents is printed with control
 * characters escaped. (The JSON form is the document itself: src/doc/.) */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include "core/result.h"

#include <stdbool.h>
#include <stdio.h>

typedef enum { CB_FMT_TEXT, CB_FMT_JSON, CB_FMT_CSV, CB_FMT_SARIF } cb_format;

void cb_report_text(FILE *out, const cb_result *r);
/* The report's first lines: the device, its driver, units, local memory, sub-group, the run. */
void cb_report_header(FILE *out, const cb_result *r);

/* The width in columns that text output keeps to: 100 unless set (the CLI sets it from
 * COLUMNS or the terminal), within CB_TEXT_WIDTH_MIN to _MAX. */
#define CB_TEXT_WIDTH_DEFAULT 100
#define CB_TEXT_WIDTH_MIN 40
#define CB_TEXT_WIDTH_MAX 1000
void cb_text_set_width(unsigned columns);
unsigned cb_text_width(void);
/* Writes TEXT with every line longer than the width broken at spaces; a continuation is
 * indented under its label ("Why:        ..."), or by two more spaces than the line. */
void cb_text_wrap(FILE *out, const char *text);
/* The same without the labels: a continuation is indented as its line. */
void cb_text_fill(FILE *out, const char *text);
void cb_report_csv(FILE *out, const cb_result *r);

/* Writes S, a string the caller hands over (a JSON form from doc/; NULL writes nothing), and
 * frees it. */
void cb_put_owned(FILE *out, char *s);

/* Writes one CSV field: control characters escaped as \xNN, RFC 4180 quoting. */
void cb_csv_field(FILE *out, const char *s, bool last);
/* A text field from a document (NULL: empty): like cb_csv_field, and a leading = + - or @ is
 * preceded by ' so that a spreadsheet shows it instead of running it as a formula. */
void cb_csv_text(FILE *out, const char *s, bool last);
/* A number as a CSV field (%.6g; empty when not finite). */
void cb_csv_number(FILE *out, double v, bool last);

#endif
