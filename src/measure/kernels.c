/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/kernels.h"
#include "core/buf.h"
#include "core/readfile.h"
#include "core/util.h"
#include "cl_sources.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One file as it is: from DIR, or the embedded copy. */
static cb_rc raw_source(const char *name, const char *dir, char **src, cb_error *err)
{
	*src = NULL;
	if (dir) {
		size_t n = strlen(dir) + strlen(name) + 2, len;
		char *path = cb_xmalloc(n);
		snprintf(path, n, "%s/%s", dir, name);
		cb_rc rc = cb_read_file(path, CB_KERNEL_MAX_BYTES,
					CB_READ_REGULAR_ONLY | CB_READ_TEXT, src, &len, err);
		if (rc == CB_ERR_INPUT || rc == CB_ERR_IO) {
			cb_error_prefix(err, "cannot use kernel file ");
			err->rc = rc = CB_ERR_INPUT;
		}
		free(path);
		return rc;
	}
	for (size_t i = 0; i < sizeof cb_embedded_kernels / sizeof cb_embedded_kernels[0]; i++)
		if (strcmp(cb_embedded_kernels[i].name, name) == 0) {
			*src = cb_xstrdup(cb_embedded_kernels[i].source);
			return CB_OK;
		}
	return cb_error_set(err, CB_ERR_RUNTIME, "no embedded kernel file named '%s'", name);
}

/* Whether a block comment is open after LINE, IN saying whether one was open before it. A
 * '//' outside a block comment ends the scan; string literals are not parsed (kernels have
 * none that hold comment delimiters). */
static bool comment_after(const char *line, size_t len, bool in)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (in && line[i] == '*' && line[i + 1] == '/') {
			in = false;
			i++;
		} else if (!in && line[i] == '/' && line[i + 1] == '/') {
			return false;
		} else if (!in && line[i] == '/' && line[i + 1] == '*') {
			in = true;
			i++;
		}
	}
	return in;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

static bool name_char(char c)
{
	return c == '_' || c == '-' || c == '.' || (c >= '0' && c <= '9') ||
	       (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Is LINE a quoted include ('#include "NAME"', then nothing or a '//' comment)? Then NAME goes
 * to NAME (CAP bytes) and *OK says whether clbanks can expand it: a file of the same folder
 * (letters, digits, '_', '-', '.', not starting with '.', shorter than CAP). */
static bool include_line(const char *line, size_t len, char *name, size_t cap, bool *ok)
{
	const char *p = skip_blanks(line, line + len), *end = line + len;
	if (p == end || *p++ != '#')
		return false;
	p = skip_blanks(p, end);
	if ((size_t)(end - p) < 8 || strncmp(p, "include", 7) != 0)
		return false;
	p = skip_blanks(p + 7, end);
	if (p == end || *p++ != '"')
		return false;
	const char *q = memchr(p, '"', (size_t)(end - p));
	if (!q)
		return false;
	size_t n = (size_t)(q - p);
	const char *rest = skip_blanks(q + 1, end);
	*ok = n > 0 && n < cap && p[0] != '.' &&
	      (rest == end || (end - rest >= 2 && rest[0] == '/' && rest[1] == '/'));
	for (size_t i = 0; *ok && i < n; i++)
		*ok = name_char(p[i]);
	n = n < cap ? n : cap - 1;
	memcpy(name, p, n);
	name[n] = '\0';
	return true;
}

/* The expanded source as it grows: LIMIT bytes at most. */
typedef struct {
	cb_buf b;
	size_t limit;
} text_buf;

static bool append(text_buf *t, const char *s, size_t n)
{
	if (t->b.len + n > t->limit)
		return false;
	cb_buf_add(&t->b, s, n);
	return true;
}

/* A '#line' marker: LINE of file NAME. */
static bool append_line_marker(text_buf *t, size_t line, const char *name)
{
	char mark[160];
	int m = snprintf(mark, sizeof mark, "#line %zu \"%.100s\"\n", line, name);
	return append(t, mark, (size_t)m < sizeof mark ? (size_t)m : sizeof mark - 1);
}

static cb_rc too_large(const char *name, cb_error *err)
{
	return cb_error_set(err, CB_ERR_INPUT,
			    "kernel file %s is larger than %d bytes with the files it includes",
			    name, CB_KERNEL_MAX_BYTES);
}

/* Replaces the include of line LINENO of NAME by file INC from the same place. */
static cb_rc expand_one(const char *name, size_t lineno, const char *inc, const char *dir,
			text_buf *t, cb_error *err)
{
	char *body = NULL;
	cb_rc rc = raw_source(inc, dir, &body, err);
	if (rc != CB_OK) {
		char where[160];
		snprintf(where, sizeof where, "%.100s, line %zu: ", name, lineno);
		if (err)
			cb_error_prefix(err, where);
		return rc;
	}
	if (t->b.len > t->limit || !append_line_marker(t, 1, inc) ||
	    !append(t, body, strlen(body)) || !append(t, "\n", 1) ||
	    !append_line_marker(t, lineno + 1, name))
		rc = too_large(name, err);
	free(body);
	return rc;
}

/* SRC (file NAME) with each '#include "X"' outside comments replaced by X from the same place,
 * one level deep (an included file's own includes are left to the compiler), between #line
 * markers so that build logs name the right file and line. */
static cb_rc expand_includes(const char *name, const char *src, const char *dir, char **out,
			     cb_error *err)
{
	size_t lineno = 1;
	bool in_comment = false, expanded = false;
	cb_rc rc = CB_OK;
	text_buf t = { CB_BUF_INIT, SIZE_MAX };
	/* Whose lines these are, kept only once something is expanded; until then the marker does
	 * not count against the limit (the source alone is within it). */
	append_line_marker(&t, 1, name);
	size_t mark = t.b.len;
	t.limit = CB_KERNEL_MAX_BYTES + mark;
	for (const char *line = src; *line && rc == CB_OK; lineno++) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
		char inc[128];
		bool ok = false;
		if (in_comment || !include_line(line, n, inc, sizeof inc, &ok)) {
			if (!append(&t, line, n))
				rc = too_large(name, err);
			in_comment = comment_after(line, n, in_comment);
		} else if (!ok) {
			rc = cb_error_set(
				err, CB_ERR_INPUT,
				"%s, line %zu: '#include \"%s\"' cannot be "
				"expanded: clbanks includes only a file of the kernel folder "
				"(a name of letters, digits, '_', '-' and '.' not starting "
				"with '.'), with nothing after it but a // comment",
				name, lineno, inc);
		} else {
			expanded = true;
			t.limit = CB_KERNEL_MAX_BYTES;
			rc = expand_one(name, lineno, inc, dir, &t, err);
		}
		line += n;
	}
	if (rc != CB_OK) {
		cb_buf_free(&t.b);
		*out = NULL;
		return rc;
	}
	if (!expanded)
		memmove(t.b.data, t.b.data + mark, t.b.len - mark + 1);
	*out = cb_buf_take(&t.b, NULL);
	return CB_OK;
}

cb_rc cb_kernel_source(const char *name, const char *dir, char **src, cb_error *err)
{
	char *raw;
	*src = NULL;
	cb_rc rc = raw_source(name, dir, &raw, err);
	if (rc != CB_OK)
		return rc;
	rc = expand_includes(name, raw, dir, src, err);
	free(raw);
	return rc;
}
