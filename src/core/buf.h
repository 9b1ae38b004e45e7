/* SPDX-License-Identifier: MIT */
/* A growable byte buffer, always NUL-terminated, for text built piece by piece and for a child
 * process's output. Out of memory is error.h's sanctioned exit (the cb_x* allocators). */
#ifndef CB_BUF_H
#define CB_BUF_H

#include <stddef.h>

typedef struct {
	char *data; /* NULL until the first byte; then data[len] == '\0' */
	size_t len, cap;
} cb_buf;

/* clang-format off */
#define CB_BUF_INIT { NULL, 0, 0 }
/* clang-format on */

/* Appends N bytes at P. */
void cb_buf_add(cb_buf *b, const void *p, size_t n);
/* Appends the formatted text. */
void cb_buf_printf(cb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text (never NULL: "" when empty), now the caller's; *LEN (may be NULL) its length. B is
 * empty afterwards. */
char *cb_buf_take(cb_buf *b, size_t *len);
void cb_buf_free(cb_buf *b);

#endif
