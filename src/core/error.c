/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void format_text(cb_error *err, const char *fmt, va_list ap)
{
	vsnprintf(err->text, sizeof err->text, fmt, ap);
}

cb_rc cb_error_set(cb_error *err, cb_rc rc, const char *fmt, ...)
{
	if (!err)
		return rc;
	memset(err, 0, sizeof *err);
	err->rc = rc;
	va_list ap;
	va_start(ap, fmt);
	format_text(err, fmt, ap);
	va_end(ap);
	return rc;
}

cb_rc cb_error_call(cb_error *err, cb_rc rc, const char *call, int code, const char *fmt, ...)
{
	if (!err)
		return rc;
	memset(err, 0, sizeof *err);
	err->rc = rc;
	err->call = call;
	err->code = code;
	va_list ap;
	va_start(ap, fmt);
	format_text(err, fmt, ap);
	va_end(ap);
	return rc;
}

void cb_error_clear(cb_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
}

int cb_exit_status(const cb_error *err)
{
	switch (err->rc) {
	case CB_OK: return 0;
	case CB_ERR_USAGE: case CB_ERR_INPUT: return 2;
	case CB_ERR_NODEV: return 3;
	case CB_ERR_QUALITY: return 5;
	case CB_ERR_INTERRUPTED: return 128 + (err->signal > 0 ? err->signal : 15);
	default: return 4;
	}
}
