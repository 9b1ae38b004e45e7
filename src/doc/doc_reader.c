/* SPDX-License-Identifier: MIT */
/* What both halves of the document reader use: its error, an object read by its field table,
 * and a piece of the text parsed with the stop signal looked at as it goes. */
#include "config.h"
#include "doc/doc_reader.h"

#include <stdarg.h>
#include <string.h>

cb_rc cb_doc_fail(cb_doc_reader *rd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cb_rc rc = cb_error_vset(rd->err, CB_ERR_INPUT, fmt, ap);
	va_end(ap);
	return rc;
}

cb_rc cb_doc_read_object(cb_doc_reader *rd, json_t *obj, const char *path, const cb_field *f,
			 size_t n, const char *const *other, void *base, char **extra)
{
	if (!json_is_object(obj))
		return cb_doc_fail(rd, "\"%s\" is %s, expected an object", path,
				   cb_json_type_name(obj));
	if (cb_fields_read(obj, path, f, n, base, rd->err) != CB_OK)
		return CB_ERR_INPUT;
	*extra = cb_extra_collect(obj, f, n, other);
	return CB_OK;
}

/* A span handed to jansson a buffer at a time (1 KiB), the stop signal looked at before each. */
typedef struct {
	const char *p;
	size_t left;
	bool stopped;
} feed;

static size_t feed_piece(void *buf, size_t size, void *arg)
{
	feed *f = arg;
	if (cb_stop_signal) {
		f->stopped = true;
		return (size_t)-1;
	}
	size_t n = f->left < size ? f->left : size;
	memcpy(buf, f->p, n);
	f->p += n;
	f->left -= n;
	return n;
}

/* TEXT[0 .. LEN) parsed; NULL with *STOPPED set (and the interruption recorded in ERR) when a
 * stop signal came, or NULL with JERR. */
json_t *cb_doc_load_span(const char *text, size_t len, size_t flags, json_error_t *jerr,
			 cb_error *err, bool *stopped)
{
	feed f = { text, len, false };
	json_t *v = json_load_callback(feed_piece, &f, flags, jerr);
	if (f.stopped) {
		json_decref(v);
		cb_check_interrupt(err);
		*stopped = true;
		return NULL;
	}
	return v;
}
