/* SPDX-License-Identifier: MIT */
/* Robust statistics for timing samples: median, MAD, a nonparametric CI for the median. */
#ifndef CB_STATS_H
#define CB_STATS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	size_t n;
	double median;
	double mad;          /* median absolute deviation, unscaled */
	double ci_lo, ci_hi; /* 95% CI of the median from order statistics; NAN when n < 6 */
	double mean, min, max;
	size_t outliers; /* |x - median| > 10 * 1.4826 * MAD (reported, never removed) */
} cb_summary;

/* qsort comparison of doubles, ascending. */
int cb_cmp_double(const void *a, const void *b);
double cb_median(const double *x, size_t n);
/* The interquartile range of N values (quartiles interpolated between order statistics, as R's
 * default); NAN when n < 4. Over 1.349 it estimates a normal spread, like 1.4826 MAD, but it also
 * sees a second mode that holds a quarter to a half of the values, which the MAD misses. */
double cb_iqr(const double *x, size_t n);
/* Summarizes N values (copied and sorted internally). n == 0 gives all-NAN fields. */
void cb_summarize(const double *x, size_t n, cb_summary *s);
/* 1-based ranks [lo, hi] of the order statistics that bound a 95% CI for the median
 * (exact binomial for small n). Returns false when n is too small (< 6). */
bool cb_median_ci_ranks(size_t n, size_t *lo, size_t *hi);

#endif
