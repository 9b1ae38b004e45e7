/* SPDX-License-Identifier: MIT */
/*
 * The bank model as the tools that consume one read it (clbanks export): per op, the model
 * the selection rule (core/select.h) gives each element size, its lanes per pass and phase
 * groups, and the cost of one pass, each taken from an analyzed document. The codecs write
 * it as JSON (doc/doc_export.c) or as simulator options (views/export.c).
 */
#ifndef CB_EXPORT_H
#define CB_EXPORT_H

#include "core/result.h"
#include "core/select.h"

typedef struct {
	bool measured;          /* the document has this element size for the op */
	cb_model_choice choice; /* its model, by the one rule */
	unsigned phases;        /* passes of a conflict-free access: sub-group / lanes per pass */
} cb_export_size;

typedef struct {
	bool present;       /* the document has an inference for the op */
	const char *status; /* the op's verdict: "banked", "not_banked", "inconclusive" */
	double confidence;
	bool joint;       /* one model describes every element size (the op's own) */
	cb_geometry geom; /* the op's model (joint), else the first size's */
	bool broadcast_known;
	double pass_ns_per_subgroup, pass_cycles; /* one extra pass (core/infer.h); NAN: unknown */
	cb_export_size size[CB_NELEM];
} cb_export_op;

typedef struct {
	const char *device, *vendor, *driver_version;
	/* A documented model: "NAME (documented, not measured)"; "" for a measured one. */
	char documented[512];
	unsigned subgroup;
	cb_export_op ops[CB_NOPS];
} cb_export_model;

/* R: a document read and analyzed (its strings stay R's). */
void cb_export_build(const cb_result *r, cb_export_model *m);

#endif
