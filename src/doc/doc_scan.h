/* SPDX-License-Identifier: MIT */
/* The top level of a JSON text found without building it: where each member of the outermost
 * object and each element of an array lie, so that the reader can parse a large document one
 * piece at a time (and stop on a signal between pieces) instead of holding all of its tree.
 * The scan checks the structure around the pieces only; each piece is parsed, and so checked,
 * by jansson. Internal to src/doc/. */
#ifndef CB_DOC_SCAN_H
#define CB_DOC_SCAN_H

#include "core/error.h"

#include <stddef.h>

typedef struct {
	size_t at, len; /* TEXT[at .. at + len) */
} cb_span;

typedef enum {
	CB_SCAN_OK,
	CB_SCAN_ODD,    /* not the shape asked for: the caller parses the whole text instead,
			  * and jansson says what is wrong */
	CB_SCAN_STOPPED /* a stop signal came (recorded in the error) */
} cb_scan_rc;

/* The members of the object that TEXT[0 .. LEN) is (whitespace around it allowed): their keys
 * (with the quotes) and values, *N of each, allocated. ODD when TEXT is anything else or nests
 * containers deeper than MAX_DEPTH levels (the object itself is level 1). */
cb_scan_rc cb_scan_object(const char *text, size_t len, unsigned max_depth, cb_span **keys,
			  cb_span **values, size_t *n, cb_error *err);
/* The elements of the array at ARRAY (a span of TEXT, as cb_scan_object gives it), *N of
 * them, allocated. ODD when ARRAY is not an array. */
cb_scan_rc cb_scan_array(const char *text, cb_span array, cb_span **elems, size_t *n,
			 cb_error *err);

#endif
