/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/buf.h"
#include "core/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for N more bytes and the NUL; doubling keeps appends linear overall. */
static void reserve(cb_buf *b, size_t n)
{
	if (n >= (size_t)-1 / 2 - b->len)
		cb_xrealloc(NULL, (size_t)-1); /* beyond any allocation: the out-of-memory exit */
	if (b->len + n + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + n + 1)
		cap *= 2;
	b->data = cb_xrealloc(b->data, cap);
	b->cap = cap;
}

void cb_buf_add(cb_buf *b, const void *p, size_t n)
{
	reserve(b, n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void cb_buf_printf(cb_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return; /* an encoding error: nothing to add */
	reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *cb_buf_take(cb_buf *b, size_t *len)
{
	char *s = b->data ? b->data : cb_xstrdup("");
	if (len)
		*len = b->len;
	*b = (cb_buf)CB_BUF_INIT;
	return s;
}

void cb_buf_free(cb_buf *b)
{
	free(b->data);
	*b = (cb_buf)CB_BUF_INIT;
}
