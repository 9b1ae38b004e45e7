/* SPDX-License-Identifier: MIT */
/*
 * The document codec: the only place that knows JSON. A result document (format "clbanks")
 * is read with strict validation -- every message names the field path, e.g.
 * "measurements[3].lanes[7]" -- into a cb_result, and a cb_result is written back with sorted
 * keys, one-space indentation and six significant digits, independent of the locale. Every
 * format version clbanks ever wrote stays readable.
 *
 * Format versions: 1 (clbanks 0.1: loads only).
 */
#ifndef CB_DOC_H
#define CB_DOC_H

#include "core/error.h"
#include "core/result.h"

#include <stdbool.h>
#include <stddef.h>

#define CB_FORMAT_NAME "clbanks"
#define CB_FORMAT_VERSION \
	4                       /* what clbanks writes (2: stores and atomics; 3: one
				      * unit per quantity, the cost of a pass per sub-group; 4:
				      * run.host_id and run.host_name) */
#define CB_FORMAT_VERSION_MIN 1 /* the oldest it reads */
/* Inputs larger than this are refused rather than parsed (every kind of input). */
#define CB_DOC_MAX_BYTES (256UL * 1024 * 1024)
#define CB_DOC_MAX_MEASUREMENTS 200000
/* The times a reader accepts (ns per step): a launch lasts at most a second, and a timer ticks
 * at a nanosecond at best; beyond a wide margin on both sides a time is no measurement. */
#define CB_DOC_MIN_NS 1e-6
#define CB_DOC_MAX_NS 1e12
/* The largest ratio to the baseline a measurement's statistics may hold. */
#define CB_DOC_MAX_RATIO 1e9

enum {
	CB_DOC_REQUIRE_TIMES = 1, /* every measurement needs ns_per_access (a result, not a plan) */
	/* Parse the whole tree at once. By default a document whose top level is an object is
	 * parsed a member at a time and its measurements one at a time (a stop signal is seen
	 * within a piece; memory is about the text and the result, not 9x the text). Both ways
	 * read the same documents; the tests and the fuzzer compare them. */
	CB_DOC_WHOLE = 2
};

/* Parses and validates TEXT into R (initialized here). Messages carry no file name. */
cb_rc cb_doc_parse(const char *text, size_t len, unsigned flags, cb_result *r, cb_error *err);
/* Reads PATH ("-" = standard input) with the size cap; messages start with the file name. */
cb_rc cb_doc_read(const char *path, unsigned flags, cb_result *r, cb_error *err);
/* The document of R, ending with a newline. Owned by the caller. */
char *cb_doc_write(const cb_result *r);

#endif
