/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/util.h"
#include "core/error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A sanctioned exit (error.h): no caller could do more than say it. */
static void out_of_memory(void)
{
	fputs("clbanks: out of memory\n", stderr);
	exit(cb_exit_status(&(cb_error){ .rc = CB_ERR_NOMEM }));
}

void *cb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *cb_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *cb_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *cb_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = cb_xmalloc(n);
	memcpy(p, s, n);
	return p;
}

char *cb_escape_controls(const char *s)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += *p < 0x20 || *p == 0x7f ? 4 : 1;
	char *out = cb_xmalloc(n + 1), *o = out;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			snprintf(o, 5, "\\x%02x", *p);
			o += 4;
		} else {
			*o++ = (char)*p;
		}
	}
	*o = '\0';
	return out;
}

bool cb_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool cb_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool cb_strcasestr_bool(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);
	if (n == 0)
		return true;
	for (; *haystack; haystack++) {
		size_t i = 0;
		while (i < n && haystack[i] &&
		       tolower((unsigned char)haystack[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return true;
	}
	return false;
}

void cb_rng_seed(cb_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t cb_rng_next(cb_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint32_t cb_rng_below(cb_rng *r, uint32_t n)
{
	/* Multiply-shift: unbiased enough for plans and shuffles, and portable. */
	return n ? (uint32_t)(((cb_rng_next(r) >> 32) * (uint64_t)n) >> 32) : 0;
}

void cb_shuffle_u32(cb_rng *r, uint32_t *a, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = cb_rng_below(r, (uint32_t)i);
		uint32_t t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

double cb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
