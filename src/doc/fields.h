/* SPDX-License-Identifier: MIT */
/* Table-driven JSON members of the document codec: one table per object says each known key's
 * type, range and place in the typed struct; reading validates with the field path in every
 * message, writing emits the same keys, and whatever a table does not name is kept aside as
 * JSON text and written back unchanged. Internal to src/doc/. */
#ifndef CB_DOC_FIELDS_H
#define CB_DOC_FIELDS_H

#include "core/error.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum {
	CB_F_STR,  /* char *, NULL when absent */
	CB_F_INT,  /* long long, CB_UNSET when absent */
	CB_F_REAL, /* double, NAN when absent; any JSON number is accepted */
	CB_F_REAL_NULL, /* double; null is kept as NAN and written back as null (needs a presence bool) */
	CB_F_BOOL, /* int: -1 absent, 0, 1 */
} cb_field_type;

typedef struct {
	const char *key;
	cb_field_type type;
	size_t offset;
	double min, max; /* numbers: the accepted range */
	size_t present;  /* CB_F_REAL_NULL: offset of a bool that records the key; else 0 */
} cb_field;

/* clang-format off */
#define CB_FIELD_STR(T, m) { #m, CB_F_STR, offsetof(T, m), 0, 0, 0 }
#define CB_FIELD_INT(T, m, lo, hi) { #m, CB_F_INT, offsetof(T, m), lo, hi, 0 }
#define CB_FIELD_REAL(T, m, lo, hi) { #m, CB_F_REAL, offsetof(T, m), lo, hi, 0 }
#define CB_FIELD_BOOL(T, m) { #m, CB_F_BOOL, offsetof(T, m), 0, 0, 0 }
/* clang-format on */

/* "an object", "an integer", ...: for messages. */
const char *cb_json_type_name(json_t *v);

/* Reads the fields of OBJ (at PATH, e.g. "device") into BASE. */
cb_rc cb_fields_read(json_t *obj, const char *path, const cb_field *f, size_t n, void *base,
		     cb_error *err);
/* Adds the fields of BASE that are set to OBJ. */
void cb_fields_write(json_t *obj, const cb_field *f, size_t n, const void *base);

/* Members of OBJ that are neither in F nor in OTHER (a NULL-terminated list), as JSON text;
 * NULL when there are none. */
char *cb_extra_collect(json_t *obj, const cb_field *f, size_t n, const char *const *other);
/* Adds the members of EXTRA (from cb_extra_collect) to OBJ. */
void cb_extra_merge(json_t *obj, const char *extra);

#endif
