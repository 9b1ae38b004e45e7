/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_sorted(const double *s, size_t n)
{
	if (n == 0)
		return NAN;
	return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

double cb_median(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double *s = cb_xmalloc(n * sizeof *s);
	memcpy(s, x, n * sizeof *s);
	qsort(s, n, sizeof *s, cb_cmp_double);
	double m = median_sorted(s, n);
	free(s);
	return m;
}

/* The P quantile of N sorted values, interpolated (h = (n - 1) P). */
static double quantile_sorted(const double *s, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t i = (size_t)h;
	return i + 1 < n ? s[i] + (h - (double)i) * (s[i + 1] - s[i]) : s[n - 1];
}

double cb_iqr(const double *x, size_t n)
{
	if (n < 4)
		return NAN;
	double *s = cb_xmalloc(n * sizeof *s);
	memcpy(s, x, n * sizeof *s);
	qsort(s, n, sizeof *s, cb_cmp_double);
	double q = quantile_sorted(s, n, 0.75) - quantile_sorted(s, n, 0.25);
	free(s);
	return q;
}

bool cb_median_ci_ranks(size_t n, size_t *lo, size_t *hi)
{
	if (n < 6)
		return false;
	/* Largest k with P(Binomial(n, 1/2) < k) <= 2.5%: then [x_(k), x_(n+1-k)] covers the
	 * median with probability >= 95%. Computed exactly in log space. */
	double cdf = 0.0;
	size_t k = 0;
	for (size_t j = 0; j <= n; j++) {
		double lp = lgamma((double)n + 1) - lgamma((double)j + 1) -
			    lgamma((double)(n - j) + 1) - (double)n * log(2.0);
		double next = cdf + exp(lp);
		if (next > 0.025)
			break;
		cdf = next;
		k = j + 1;
	}
	if (k == 0)
		return false;
	*lo = k;
	*hi = n + 1 - k;
	return true;
}

void cb_summarize(const double *x, size_t n, cb_summary *s)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	if (n == 0) {
		s->median = s->mad = s->ci_lo = s->ci_hi = s->mean = s->min = s->max = NAN;
		return;
	}
	double *v = cb_xmalloc(n * sizeof *v);
	memcpy(v, x, n * sizeof *v);
	qsort(v, n, sizeof *v, cb_cmp_double);
	s->median = median_sorted(v, n);
	s->min = v[0];
	s->max = v[n - 1];
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / (double)n;
	double *d = cb_xmalloc(n * sizeof *d);
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(v[i] - s->median);
	qsort(d, n, sizeof *d, cb_cmp_double);
	s->mad = median_sorted(d, n);
	double limit = 10.0 * 1.4826 * s->mad;
	for (size_t i = 0; i < n; i++)
		if (s->mad > 0 && fabs(v[i] - s->median) > limit)
			s->outliers++;
	size_t lo, hi;
	if (cb_median_ci_ranks(n, &lo, &hi)) {
		s->ci_lo = v[lo - 1];
		s->ci_hi = v[hi - 1];
	} else {
		s->ci_lo = s->ci_hi = NAN;
	}
	free(d);
	free(v);
}
