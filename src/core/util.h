/* SPDX-License-Identifier: MIT */
/* Small helpers shared by every module: allocation (out of memory is one of error.h's two
 * sanctioned exits), strict number parsing, escaping, a seeded PRNG, a clock. */
#ifndef CB_UTIL_H
#define CB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

void *cb_xmalloc(size_t n);
void *cb_xcalloc(size_t count, size_t size);
void *cb_xrealloc(void *p, size_t n);
char *cb_xstrdup(const char *s);

/* Strict parsers: the whole string must be a number in [min, max].
 * Return false (and leave *out alone) otherwise. */
bool cb_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);
bool cb_parse_double(const char *s, double min, double max, double *out);

/* A copy of S with every control character (and DEL) written as \xNN, so that text from a
 * document or a driver cannot move the cursor or recolour a terminal. Owned by the caller. */
char *cb_escape_controls(const char *s);

/* The characters of S (UTF-8: bytes that do not start a sequence are not counted). */
size_t cb_utf8_len(const char *s);
/* The bytes of the first N characters of S (all of S when it has fewer). */
size_t cb_utf8_bytes(const char *s, size_t n);
/* The bytes of the last N characters of S, counted from its end. */
size_t cb_utf8_tail_bytes(const char *s, size_t n);

/* Case-insensitive substring search. */
bool cb_strcasestr_bool(const char *haystack, const char *needle);

/* Deterministic PRNG (splitmix64) for plans and shuffles: results depend only on the seed. */
typedef struct {
	uint64_t state;
} cb_rng;
void cb_rng_seed(cb_rng *r, uint64_t seed);
uint64_t cb_rng_next(cb_rng *r);
/* Uniform integer in [0, n). */
uint32_t cb_rng_below(cb_rng *r, uint32_t n);
void cb_shuffle_u32(cb_rng *r, uint32_t *a, size_t n);

/* Monotonic wall clock in seconds. */
double cb_now(void);
/* The cores this process may run on (taskset, a container's cpuset), not the machine's; 1 at
 * least. */
long cb_usable_cores(void);

#endif
