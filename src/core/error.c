/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A message longer than the text (a value of 100 KB echoed) keeps both ends: what failed
 * starts it and why ends it ("invalid value '...' for --ops: expected ..."). */
static void set_text(cb_error *err, const char *full, size_t n)
{
	static const char cut[] = " [...] ";
	if (n < sizeof err->text) {
		memmove(err->text, full, n + 1);
		return;
	}
	size_t keep = (sizeof err->text - sizeof cut) / 2, head = keep, tail = n - keep;
	/* not inside a UTF-8 character */
	while (head > 0 && ((unsigned char)full[head] & 0xc0) == 0x80)
		head--;
	while (tail < n && ((unsigned char)full[tail] & 0xc0) == 0x80)
		tail++;
	memmove(err->text, full, head);
	memcpy(err->text + head, cut, sizeof cut - 1);
	memcpy(err->text + head + sizeof cut - 1, full + tail, n - tail + 1);
}

/* The whole message is formatted before ERR is cleared, so an argument may be its old text
 * (a document's reader repeats it): into BUF when it fits, else into memory of its size. */
cb_rc cb_error_vset(cb_error *err, cb_rc rc, const char *fmt, va_list ap)
{
	if (!err)
		return rc;
	char buf[sizeof err->text];
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	char *full = n >= (int)sizeof buf ? malloc((size_t)n + 1) : NULL;
	if (full)
		vsnprintf(full, (size_t)n + 1, fmt, again);
	va_end(again);
	if (n < 0)
		buf[0] = '\0';
	memset(err, 0, sizeof *err);
	err->rc = rc;
	/* out of memory for a long one: BUF's first 8 KiB */
	set_text(err, full ? full : buf, full ? (size_t)n : strlen(buf));
	free(full);
	return rc;
}

cb_rc cb_error_set(cb_error *err, cb_rc rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cb_error_vset(err, rc, fmt, ap);
	va_end(ap);
	return rc;
}

cb_rc cb_error_call(cb_error *err, cb_rc rc, const char *call, int code, const char *fmt, ...)
{
	if (!err)
		return rc;
	va_list ap;
	va_start(ap, fmt);
	cb_error_vset(err, rc, fmt, ap);
	va_end(ap);
	err->call = call;
	err->code = code;
	return rc;
}

void cb_error_detail(cb_error *err, const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof err->detail, fmt, ap);
	va_end(ap);
}

void cb_error_prefix(cb_error *err, const char *prefix)
{
	if (!err)
		return;
	size_t p = strlen(prefix), t = strlen(err->text);
	char *full = malloc(p + t + 1);
	if (!full) { /* out of memory: the prefix, then as much of the text as fits */
		size_t cap = sizeof err->text - 1;
		p = p > cap ? cap : p;
		t = p + t > cap ? cap - p : t;
		memmove(err->text + p, err->text, t);
		memcpy(err->text, prefix, p);
		err->text[p + t] = '\0';
		return;
	}
	memcpy(full, prefix, p);
	memcpy(full + p, err->text, t + 1);
	set_text(err, full, p + t);
	free(full);
}

void cb_error_clear(cb_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
}

int cb_exit_status(const cb_error *err)
{
	switch (err->rc) {
	case CB_OK:
		return 0;
	case CB_ERR_USAGE:
	case CB_ERR_INPUT:
		return 2;
	case CB_ERR_NODEV:
		return 3;
	case CB_ERR_QUALITY:
		return 5;
	case CB_ERR_INTERRUPTED:
		return 128 + (err->signal > 0 ? err->signal : 15);
	default:
		return 4;
	}
}

cb_rc cb_rc_of_exit_status(int status)
{
	switch (status) {
	case 0:
		return CB_OK;
	case 2:
		return CB_ERR_INPUT;
	case 3:
		return CB_ERR_NODEV;
	case 5:
		return CB_ERR_QUALITY;
	default:
		return status > 128 ? CB_ERR_INTERRUPTED : CB_ERR_RUNTIME;
	}
}

volatile sig_atomic_t cb_stop_signal = 0;
volatile sig_atomic_t cb_child_pid = 0;

const char *cb_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	default:
		return "a signal";
	}
}

cb_rc cb_error_interrupted(cb_error *err, const char *fmt, ...)
{
	int sig = cb_stop_signal;
	char where[sizeof err->text];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(where, sizeof where, fmt, ap);
	va_end(ap);
	cb_error_set(err, CB_ERR_INTERRUPTED, "interrupted by %s%s", cb_signal_name(sig), where);
	if (err)
		err->signal = sig;
	return CB_ERR_INTERRUPTED;
}

cb_rc cb_check_interrupt(cb_error *err)
{
	return cb_stop_signal ? cb_error_interrupted(err, "; nothing written") : CB_OK;
}

void cb_stop_signals_set(sigset_t *stops)
{
	sigemptyset(stops);
	sigaddset(stops, SIGINT);
	sigaddset(stops, SIGTERM);
	sigaddset(stops, SIGHUP);
	sigaddset(stops, SIGQUIT);
}

void cb_stop_signals_block(sigset_t *saved)
{
	sigset_t stops;
	cb_stop_signals_set(&stops);
	sigprocmask(SIG_BLOCK, &stops, saved);
}

void cb_stop_signals_restore(const sigset_t *saved)
{
	sigprocmask(SIG_SETMASK, saved, NULL);
}
