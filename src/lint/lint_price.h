/* SPDX-License-Identifier: MIT */
/* Pricing of recorded sub-group accesses and the fix search (lint_price.c). */
#ifndef CB_LINT_PRICE_H
#define CB_LINT_PRICE_H

#include "lint/lint_record.h"

/* Prices the sub-group in flight (NLANES lanes) and moves to the next. */
void cb_rec_flush(cb_recorder *r, unsigned nlanes);

/* The fix of object K: the padding or swizzle with the fewest passes over every access into
 * it; each site's worst passes under it (and under the other kind's best when that is as
 * good) into SITE_WORST and SITE_ALT, zeroed arrays of one per site; when SITE_FIXED is not
 * NULL, each site's lane tables under the fix into it (one per site). */
void cb_rec_array_fix(cb_recorder *r, uint32_t k, cb_lint_fix *fix, unsigned *site_worst,
		      unsigned *site_alt, cb_lint_tables *site_fixed);

/* Object K's fix across several models (one kernel recorded at each model's sub-group size,
 * RS[0..N)): the candidate with the fewest passes summed over them, no site's passes kept
 * (each model judges it with cb_rec_judge_fix). */
void cb_rec_array_fix_across(cb_recorder *const *rs, size_t n, uint32_t k, cb_lint_fix *fix);

/* Object K's fix as GIVEN chose it (the same shape and candidate), judged on this recorder's
 * pricer into FIX; SITE_WORST and SITE_FIXED as cb_rec_array_fix. */
void cb_rec_judge_fix(cb_recorder *r, uint32_t k, const cb_lint_fix *given, cb_lint_fix *fix,
		      unsigned *site_worst, cb_lint_tables *site_fixed);

#endif
