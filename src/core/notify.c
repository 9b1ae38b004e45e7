/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/notify.h"

#include <stdarg.h>
#include <stdio.h>

void cb_note(const cb_notifier *n, cb_note_kind kind, const char *fmt, ...)
{
	if (!n || !n->fn)
		return;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	n->fn(n->ctx, kind, buf);
}
