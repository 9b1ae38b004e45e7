/* SPDX-License-Identifier: MIT */
/*
 * The harness of the lint unit tests (unit_lint: the engine on kernels; unit_lint_out: its
 * text and JSON): the models, running a kernel of tests/lint with every priced sub-group
 * access cross-checked against cb_passes, and the checks on a result. One TAP count for the
 * program: tap.h's counters are defined in lint_harness.c.
 */
#ifndef CB_LINT_HARNESS_H
#define CB_LINT_HARNESS_H

#define CB_TAP_SHARED
#include "lint/lint.h"
#include "tap.h"

#include <stdbool.h>
#include <stdint.h>

/* An H200-like model (32 banks x 4 B, broadcast, pair packing, 32/32/32/16/8 lanes per pass,
 * sub-groups of 32) and an AMD-like one (sub-groups of 64, 32 lanes per pass for 4 B). */
extern cb_lint_model h200, amd;

typedef struct {
	const cb_lint_model *model;
	unsigned samples, full, mismatches;
} cross_check;

void observe(void *ctx, const cb_lint_sample *s);

typedef struct {
	const char *file, *kernel;
	unsigned x, y;
	const char *defs[2], *args[2];
	const cb_lint_model *model;
	unsigned group_x;
} job;

/* Build inputs of the next runs (test_build_inputs): -I under tests/lint, --cl-std, options. */
extern const char *build_include, *build_std, *build_options;
extern unsigned global_size[3];

extern char srcdir[2048];

/* Passes at each iteration, 0-terminated: 1, 4 and 8 iterations of 1 pass. */
extern const unsigned ONE[], ONE4[], ONE8[];

cb_rc run(const job *j, cb_lint_result *r, cb_error *err, cross_check *cc);
bool lint(const job *j, cb_lint_result *r);
void skip(const char *why);
const cb_lint_access *find(const cb_lint_result *r, unsigned line, unsigned col, cb_op op);
bool iterations_are(const cb_lint_access *a, const unsigned *iter);
void expect(const cb_lint_result *r, unsigned line, unsigned col, cb_op op, cb_lint_status status,
	    unsigned passes, unsigned minp, const unsigned *iter, const char *what);
void expect_fix(const cb_lint_result *r, unsigned line, unsigned col, unsigned pad,
		unsigned pad_passes, uint64_t bytes, unsigned bits, unsigned shift,
		unsigned swz_passes, const char *what);
bool lanes_are(const cb_lint_access *a, unsigned n, int64_t mul, int64_t add);
bool narrow(const char *text);
char *text_of(const cb_lint_result *r);

/* The models from their geometries, srcdir from $top_srcdir. */
void lint_harness_init(void);
/* Whether the engine can run: false after a skip without LLVM (WITHOUT_LLVM, if any, first)
 * or when clang cannot be run. */
bool lint_harness_engine(void (*without_llvm)(void));

#endif
