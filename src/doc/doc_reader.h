/* SPDX-License-Identifier: MIT */
/* What the two halves of the document reader share: the reader's state and its error, the
 * measurements' source, and the readers of the measurements and the baseline
 * (doc_read_ms.c) that the sections' reader (doc_read.c) calls. Internal to src/doc/. */
#ifndef CB_DOC_READER_H
#define CB_DOC_READER_H

#include "core/error.h"
#include "core/result.h"
#include "doc/doc_scan.h"
#include "doc/fields.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* What one measurement (or the baseline) may span: the device's local memory when the document
 * names it, else 1 GiB. */
typedef struct {
	unsigned flags;
	int format_version;
	unsigned subgroup;
	long long local_limit;
	cb_error *err;
} cb_doc_reader;

/* The document is invalid: FMT says where and why. Returns CB_ERR_INPUT. */
cb_rc cb_doc_fail(cb_doc_reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The object OBJ at PATH: the fields F[0..N-1] into BASE, the members neither they nor OTHER
 * name kept as EXTRA (written back as they came). */
cb_rc cb_doc_read_object(cb_doc_reader *rd, json_t *obj, const char *path, const cb_field *f,
			 size_t n, const char *const *other, void *base, char **extra);

/* Where the measurements come from: the parsed document's array, or (a large document read
 * a piece at a time) the spans of its elements, each parsed when it is read and released. */
typedef struct {
	json_t *array;
	bool streamed; /* else ARRAY */
	const char *text;
	cb_span *spans;
	size_t n;
	bool odd; /* a span is not JSON: the whole document is parsed instead, for the message */
} cb_ms_source;

/* TEXT[0 .. LEN) parsed; NULL with *STOPPED set (and the interruption recorded in ERR) when a
 * stop signal came, or NULL with JERR. */
json_t *cb_doc_load_span(const char *text, size_t len, size_t flags, json_error_t *jerr,
			 cb_error *err, bool *stopped);

/* The measurements of SRC into R (a stop signal is looked at every 64). */
cb_rc cb_doc_read_measurements(cb_doc_reader *rd, cb_ms_source *src, cb_result *r);
/* The baseline B into M. */
cb_rc cb_doc_read_baseline(cb_doc_reader *rd, json_t *b, cb_baseline *m);

#endif
