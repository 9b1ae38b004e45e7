/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/doc_scan.h"
#include "core/util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* How many bytes the scan passes between two looks at the stop signal. */
#define SCAN_POLL_BYTES ((size_t)1 << 20)

typedef struct {
	const char *t;
	size_t len;
	unsigned max_depth;
	size_t polled; /* where the stop signal was last looked at */
	cb_error *err;
} scanner;

static size_t skip_ws(const scanner *s, size_t p)
{
	while (p < s->len &&
	       (s->t[p] == ' ' || s->t[p] == '\t' || s->t[p] == '\n' || s->t[p] == '\r'))
		p++;
	return p;
}

static cb_scan_rc poll_stop(scanner *s, size_t p)
{
	if (p - s->polled < SCAN_POLL_BYTES)
		return CB_SCAN_OK;
	s->polled = p;
	return cb_check_interrupt(s->err) == CB_OK ? CB_SCAN_OK : CB_SCAN_STOPPED;
}

static bool structural(unsigned char c)
{
	/* '"' 0x22, '[' 0x5b, ']' 0x5d, '{' 0x7b, '}' 0x7d */
	return c == '"' || ((c | 0x20) == 0x7b) || ((c | 0x20) == 0x7d);
}

/* *END: just past the string that starts at P (a '"'). */
static cb_scan_rc skip_string(scanner *s, size_t p, size_t *end)
{
	for (p++;;) {
		const char *q = memchr(s->t + p, '"', s->len - p);
		if (!q)
			return CB_SCAN_ODD;
		size_t at = (size_t)(q - s->t), bs = 0;
		while (at - bs > p && s->t[at - bs - 1] == '\\')
			bs++;
		p = at + 1;
		if (bs % 2 == 0) {
			*end = p;
			return CB_SCAN_OK;
		}
		if (poll_stop(s, p) != CB_SCAN_OK)
			return CB_SCAN_STOPPED;
	}
}

/* *END: just past the value that starts at P, a container at level DEPTH or a scalar. Only
 * the nesting is followed: brackets of the wrong kind, bad numbers or bad escapes are left to
 * jansson, which parses the span. */
static cb_scan_rc skip_value(scanner *s, size_t p, unsigned depth, size_t *end)
{
	if (p >= s->len)
		return CB_SCAN_ODD;
	if (s->t[p] == '"')
		return skip_string(s, p, end);
	if (s->t[p] != '[' && s->t[p] != '{') {
		while (p < s->len && !strchr(",]} \t\n\r", s->t[p]))
			p++;
		*end = p;
		return CB_SCAN_OK;
	}
	unsigned open = 0;
	while (p < s->len) {
		/* Most bytes are none of '"', '[', ']', '{', '}': passed in a tight loop. */
		while (p < s->len && !structural((unsigned char)s->t[p]))
			p++;
		if (p >= s->len)
			break;
		char c = s->t[p];
		if (c == '"') {
			cb_scan_rc rc = skip_string(s, p, &p);
			if (rc != CB_SCAN_OK)
				return rc;
			continue;
		}
		if (c == '[' || c == '{') {
			if (depth + open > s->max_depth)
				return CB_SCAN_ODD;
			open++;
		} else if ((c == ']' || c == '}') && --open == 0) {
			*end = p + 1;
			return CB_SCAN_OK;
		}
		p++;
		if (poll_stop(s, p) != CB_SCAN_OK)
			return CB_SCAN_STOPPED;
	}
	return CB_SCAN_ODD;
}

static void push(cb_span **a, size_t *n, size_t *cap, size_t at, size_t end)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*a = cb_xrealloc(*a, *cap * sizeof **a);
	}
	(*a)[(*n)++] = (cb_span){ at, end - at };
}

/* The members after the '{' at P, up to the closing '}' and the end of the text. */
static cb_scan_rc scan_members(scanner *s, size_t p, cb_span **keys, cb_span **values, size_t *n)
{
	size_t cap = 0, kcap = 0, end;
	p = skip_ws(s, p + 1);
	if (p < s->len && s->t[p] == '}')
		return skip_ws(s, p + 1) == s->len ? CB_SCAN_OK : CB_SCAN_ODD;
	for (;;) {
		size_t nk = *n;
		if (p >= s->len || s->t[p] != '"')
			return CB_SCAN_ODD;
		cb_scan_rc rc = skip_string(s, p, &end);
		if (rc != CB_SCAN_OK)
			return rc;
		push(keys, &nk, &kcap, p, end);
		p = skip_ws(s, end);
		if (p >= s->len || s->t[p] != ':')
			return CB_SCAN_ODD;
		p = skip_ws(s, p + 1);
		if ((rc = skip_value(s, p, 2, &end)) != CB_SCAN_OK)
			return rc;
		push(values, n, &cap, p, end);
		p = skip_ws(s, end);
		if (p < s->len && s->t[p] == '}')
			return skip_ws(s, p + 1) == s->len ? CB_SCAN_OK : CB_SCAN_ODD;
		if (p >= s->len || s->t[p] != ',')
			return CB_SCAN_ODD;
		p = skip_ws(s, p + 1);
	}
}

cb_scan_rc cb_scan_object(const char *text, size_t len, unsigned max_depth, cb_span **keys,
			  cb_span **values, size_t *n, cb_error *err)
{
	scanner s = { .t = text, .len = len, .max_depth = max_depth, .err = err };
	*keys = *values = NULL;
	*n = 0;
	size_t p = skip_ws(&s, 0);
	cb_scan_rc rc = p < len && text[p] == '{' && max_depth >= 1
				? scan_members(&s, p, keys, values, n)
				: CB_SCAN_ODD;
	if (rc != CB_SCAN_OK) {
		free(*keys);
		free(*values);
		*keys = *values = NULL;
		*n = 0;
	}
	return rc;
}

cb_scan_rc cb_scan_array(const char *text, cb_span array, cb_span **elems, size_t *n, cb_error *err)
{
	scanner s = { .t = text,
		      .len = array.at + array.len,
		      .max_depth = (unsigned)-1,
		      .polled = array.at,
		      .err = err };
	size_t cap = 0, p = array.at, end;
	cb_scan_rc rc = CB_SCAN_ODD;
	*elems = NULL;
	*n = 0;
	if (p >= s.len || text[p] != '[')
		return CB_SCAN_ODD;
	p = skip_ws(&s, p + 1);
	if (p < s.len && text[p] == ']')
		return p + 1 == s.len ? CB_SCAN_OK : CB_SCAN_ODD;
	while ((rc = skip_value(&s, p, 0, &end)) == CB_SCAN_OK) {
		push(elems, n, &cap, p, end);
		p = skip_ws(&s, end);
		if (p < s.len && text[p] == ']' && p + 1 == s.len)
			return CB_SCAN_OK;
		if (p >= s.len || text[p] != ',') {
			rc = CB_SCAN_ODD;
			break;
		}
		p = skip_ws(&s, p + 1);
	}
	free(*elems);
	*elems = NULL;
	*n = 0;
	return rc;
}
