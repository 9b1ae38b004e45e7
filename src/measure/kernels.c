/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/kernels.h"
#include "core/readfile.h"
#include "core/util.h"
#include "cl_sources.h"

#include <stdbool.h>
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
		cb_rc rc = cb_read_file(path, CB_KERNEL_MAX_BYTES, CB_READ_REGULAR_ONLY | CB_READ_TEXT,
					src, &len, err);
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

/* The file named by LINE when it is '#include "NAME"' (NAME: letters, digits, '_', '-', '.',
 * no folder), copied to NAME; false for every other line. */
static bool include_line(const char *line, size_t len, char *name, size_t cap)
{
	const char *p = line, *end = line + len;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p++ != '#')
		return false;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < 8 || strncmp(p, "include", 7) != 0)
		return false;
	p += 7;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p++ != '"')
		return false;
	size_t n = 0;
	while (p + n < end && p[n] != '"') {
		char c = p[n];
		if (!(c == '_' || c == '-' || c == '.' || (c >= '0' && c <= '9') ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return false;
		n++;
	}
	if (p + n == end || n == 0 || n >= cap || p[0] == '.')
		return false;
	memcpy(name, p, n);
	name[n] = '\0';
	return true;
}

static void append(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*out = cb_xrealloc(*out, *cap);
	}
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = '\0';
}

/* SRC (file NAME) with each '#include "X"' replaced by X from the same place, one level deep
 * (an included file's own includes are left to the compiler), between #line markers so that
 * build logs name the right file and line. */
static cb_rc expand_includes(const char *name, const char *src, const char *dir, char **out,
			     cb_error *err)
{
	size_t len = 0, cap = strlen(src) + 1, lineno = 1;
	*out = cb_xmalloc(cap);
	(*out)[0] = '\0';
	for (const char *line = src; *line; lineno++) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
		char inc[128], *body = NULL, mark[300], where[300];
		if (!include_line(line, n, inc, sizeof inc)) {
			append(out, &len, &cap, line, n);
		} else if (raw_source(inc, dir, &body, err) != CB_OK) {
			snprintf(where, sizeof where, "%s, line %zu: ", name, lineno);
			cb_error_prefix(err, where);
			free(*out);
			*out = NULL;
			return err->rc;
		} else {
			int m = snprintf(mark, sizeof mark, "#line 1 \"%s\"\n", inc);
			append(out, &len, &cap, mark, (size_t)m);
			append(out, &len, &cap, body, strlen(body));
			m = snprintf(mark, sizeof mark, "\n#line %zu \"%s\"\n", lineno + 1, name);
			append(out, &len, &cap, mark, (size_t)m);
			free(body);
		}
		line += n;
	}
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
