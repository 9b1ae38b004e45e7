/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* sched_getaffinity */
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
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#endif

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

/* The length of the valid UTF-8 sequence at P (1 to 4), or 0; *CP gets its code point. */
static size_t utf8_seq(const unsigned char *p, uint32_t *cp)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n = p[0] < 0x80                   ? 1
		   : p[0] >= 0xc2 && p[0] < 0xe0 ? 2
		   : p[0] >= 0xe0 && p[0] < 0xf0 ? 3
		   : p[0] >= 0xf0 && p[0] < 0xf5 ? 4
						 : 0;
	if (!n)
		return 0;
	uint32_t c = n == 1 ? p[0] : p[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
		return 0;
	*cp = c;
	return n;
}

/* C0, DEL, C1 (U+0080..U+009F: CSI, OSC in 8-bit terminals) and the bidirectional controls
 * that reorder what a terminal shows (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069). */
static bool is_control(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x61c || c == 0x200e || c == 0x200f ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff;
}

char *cb_escape_controls(const char *s)
{
	/* An escape takes at most 4 bytes per input byte ("\\xNN" for one, "\\u009b" for two). */
	char *out = cb_xmalloc(4 * strlen(s) + 1), *o = out;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		uint32_t c;
		size_t n = utf8_seq(p, &c);
		if (!n) { /* not UTF-8: the byte itself, escaped */
			o += sprintf(o, "\\x%02x", *p++);
		} else if (is_control(c)) {
			o += c < 0x80 ? sprintf(o, "\\x%02x", (unsigned)c)
				      : sprintf(o, "\\u%04x", (unsigned)c);
			p += n;
		} else {
			memcpy(o, p, n);
			o += n;
			p += n;
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

	/* Decimal only, as the integer options: no "+5", "0x10", "inf" or padding. */
	if (!s || !*s || s[strspn(s, "0123456789.-eE")] || *s == 'e' || *s == 'E')
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

/* A byte that starts a character: anything but a continuation byte (10xxxxxx). */
static bool utf8_start(unsigned char c)
{
	return (c & 0xc0) != 0x80;
}

size_t cb_utf8_len(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += utf8_start((unsigned char)*s);
	return n;
}

size_t cb_utf8_bytes(const char *s, size_t n)
{
	size_t i = 0, chars = 0;
	for (; s[i]; i++) {
		if (utf8_start((unsigned char)s[i]) && chars++ == n)
			break;
	}
	return i;
}

size_t cb_utf8_tail_bytes(const char *s, size_t n)
{
	size_t len = strlen(s), i = len, chars = 0;
	while (i > 0 && chars < n) {
		i--;
		chars += utf8_start((unsigned char)s[i]);
	}
	return len - i;
}

long cb_usable_cores(void)
{
#ifdef __linux__
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		return CPU_COUNT(&set);
#endif
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	return online > 0 ? online : 1;
}
