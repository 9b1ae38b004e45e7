/* SPDX-License-Identifier: MIT */
/* A minimal TAP producer for the C unit tests (automake's tap-driver.sh reads it). */
#ifndef CB_TAP_H
#define CB_TAP_H

#include <stdarg.h>
#include <stdio.h>

#ifdef CB_TAP_SHARED
/* A program of several files counts in one place, which defines these (lint_harness.c). */
extern int tap_n, tap_failed;
#else
static int tap_n = 0, tap_failed = 0;
#endif

static void tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static __attribute__((unused)) void tap_diag(const char *fmt, ...)
{
	va_list ap;
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* A test that cannot run here (TAP's SKIP directive: counted, neither passed nor failed). */
static __attribute__((unused)) void tap_skip(const char *why)
{
	tap_n++;
	printf("ok %d # SKIP %s\n", tap_n, why);
	fflush(stdout);
}

static __attribute__((unused)) int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
