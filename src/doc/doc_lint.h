/* SPDX-License-Identifier: MIT */
/* clbanks lint as JSON (jansson), format CB_LINT_JSON_FORMAT: {"format_version", "model",
 * "kernels": [{"kernel", "file", "work_group", "accesses": [{"file", "line", "column", "op",
 * "elem_bytes", "object", "status", "reason", "passes_max", "min_passes", "conflict_ways",
 * "total_passes", "excess_passes", "fixed_passes", "fix_note", "suppressed", "iterations",
 * "offsets"}], "objects": [{"name", "declaration", ..., "fix": {"text",
 * "total_passes_before", "total_passes_after", "accesses_after": [{"line", "passes_max"}],
 * ...}}], "total_passes", "excess_passes"}]} and the first kernel's "kernel", "work_group"
 * and "accesses" at the top (format 1); keys sorted, integers only (locale independent). And
 * SARIF 2.1.0 for code scanning. */
#ifndef CB_DOC_LINT_H
#define CB_DOC_LINT_H

#include "lint/lint.h"

/* A NUL-terminated document ending in a newline (free it), or NULL when out of memory. */
#define CB_LINT_JSON_FORMAT 2

/* A NUL-terminated document ending in a newline (free it), or NULL when out of memory: the N
 * kernels' results. */
char *cb_lint_to_json(const cb_lint_result *res, size_t n);
/* Several models (RES[m][0..NK), LABELS naming them, each at its own sub-group size): the
 * first model's document, with the top-level "models" [{"label", "subgroup", "model"}] in the
 * order given and in each access "by_model" [{"model", "subgroup", "status", "passes_max",
 * "min_passes", "conflict_ways", "total_passes", "fixed_passes", "reason"}] in that order
 * (status "unknown" with the reason where that model cannot price the access) and each
 * array's fix "by_model" [{"model", "total_passes_before", "total_passes_after"}]. MEAS
 * (NULL: none; else NK results) is each kernel linted at a measuring device's own sub-group
 * size with --measured: each access's "measured" and the kernel's (with "subgroup") from it. */
char *cb_lint_models_to_json(const cb_lint_result *const *res, const char *const *labels,
			     size_t nmodels, size_t nk, const cb_lint_result *meas);
/* Several models as SARIF: one result per access that some model warns of, its message each
 * model's passes ("NVIDIA H200, 32 lanes: 32 passes, ...") and the fix across them (and, with
 * MEAS as cb_lint_models_to_json's, what the device measured). */
char *cb_lint_models_to_sarif(const cb_lint_result *const *res, const char *const *labels,
			      size_t nmodels, size_t nk, const cb_lint_result *meas,
			      const char *version);
/* SARIF 2.1.0 (one run, rules bank-conflict and unpriced-access; an accepted conflict carries
 * an in-source suppression), or NULL when out of memory. */
char *cb_lint_to_sarif(const cb_lint_result *res, size_t n, const char *version);

#endif
