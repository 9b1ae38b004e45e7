/* SPDX-License-Identifier: MIT */
/* Pricing of recorded sub-group accesses and the fix search (lint_price.c). */
#ifndef CB_LINT_PRICE_H
#define CB_LINT_PRICE_H

#include "lint/lint_record.h"

/* Prices the sub-group in flight (NLANES lanes) and moves to the next. */
void cb_rec_flush(cb_recorder *r, unsigned nlanes);

/* The fix for a site: padding and swizzle searched with the pricer. */
void cb_fix_search(cb_recorder *r, uint32_t site, cb_lint_fix *fix);

#endif
