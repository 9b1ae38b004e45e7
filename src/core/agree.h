/* SPDX-License-Identifier: MIT */
/*
 * A measured document against a documented model (provenance "documented"): fact by fact,
 * where the measurement and the vendor's documentation agree and where they differ -- banks,
 * bank width, same-word reads and stores, pair packing, lanes per pass per element size --
 * and what cannot be compared (not documented, not measured). What compare prints after its
 * table, and the run's report uses to name the documented model a device matches.
 */
#ifndef CB_AGREE_H
#define CB_AGREE_H

#include "core/result.h"

#include <stddef.h>

typedef enum { CB_AGREE, CB_DIFFER, CB_NOT_COMPARED } cb_agree_verdict;

typedef struct {
	cb_op op;
	bool device;   /* a fact of the device (the sub-group size), not of OP */
	char fact[40]; /* "banks", "lanes per pass, 8 B", ... */
	char measured[48], documented[48];
	cb_agree_verdict verdict;
	const cb_doc_fact *doc; /* the documented fact (basis, source), or NULL */
	char note[160];         /* NOT_COMPARED: why */
} cb_agree_fact;

#define CB_MAX_AGREE 64

typedef struct {
	cb_agree_fact facts[CB_MAX_AGREE];
	size_t n, agree, differ;
} cb_agreement;

/* MEASURED (analyzed) against DOCUMENTED (read and analyzed: its inferences are its model). */
void cb_agreement_of(const cb_result *measured, const cb_result *documented, cb_agreement *a);

/* Of the documented models DOCS[0..N-1], the one MEASURED agrees with on every fact compared
 * (and on at least one fact of an op's model, not the sub-group size alone), the first such;
 * -1 when none does. */
int cb_agreement_match(const cb_result *measured, const cb_result *const *docs, size_t n);

#endif
