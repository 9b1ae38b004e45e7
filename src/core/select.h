/* SPDX-License-Identifier: MIT */
/*
 * Model selection: which measured model prices an op at an element size, by one rule that
 * predict, lint and compare share, over a document as read (its recorded inferences):
 *
 *   1. the op's model, when banked with confidence >= CB_BY_SIZE_MIN_CONFIDENCE;
 *   2. else the element size's own model (by_elem_bytes), when banked at that confidence;
 *   3. else the op's less sure banked model;
 *   4. else, when the op's inference is not_banked, flat: every pattern costs the same;
 *   5. else nothing, with the reason.
 * Atomics whose broadcast was not recorded serialize lanes on one word (as on every device
 * measured so far). And the pricing of an access under an inference (advice and the views).
 */
#ifndef CB_SELECT_H
#define CB_SELECT_H

#include "core/infer.h"
#include "core/model.h"
#include "core/notify.h"
#include "core/result.h"

typedef enum {
	CB_CHOICE_NONE,   /* nothing prices it: problem says why */
	CB_CHOICE_FLAT,   /* not banked: every pattern costs one pass */
	CB_CHOICE_JOINT,  /* the op's own model */
	CB_CHOICE_BY_SIZE /* the element size's own model (by_elem_bytes) */
} cb_choice_source;

typedef struct {
	cb_choice_source source;
	bool unmeasured; /* NONE because the document has no measurement of the op */
	cb_geometry geom;
	unsigned lanes_per_pass; /* for the element size (0: that size was not measured) */
	double confidence;
	/* Lanes in groups that are not contiguous, for the element size (a documented model's
	 * lane_groups; core/model.h): norder 0 when contiguous. */
	unsigned norder;
	uint8_t order[CB_MAX_ORDER];
	bool documented;   /* from a vendor's documentation, not measured */
	char problem[320]; /* NONE: why, to follow "FILE: " */
} cb_model_choice;

/* The model for OP at ELEM_BYTES (0: the op's own model only, no size's). */
void cb_select_model(const cb_result *r, cb_op op, unsigned elem_bytes, cb_model_choice *c);

/* Prices LANES (the sub-group's, ACTIVE: NULL = all) with a chosen banked model. */
bool cb_choice_price(const cb_model_choice *c, unsigned elem_bytes, const uint32_t *lanes,
		     const bool *active, unsigned nlanes, cb_access_cost *cost);

/* Prices LANES with an inference's best model (lanes per pass 0: the whole sub-group). */
bool cb_inference_price(const cb_inference *inf, unsigned elem_bytes, const uint32_t *lanes,
			unsigned nlanes, cb_access_cost *cost);
/* The passes of a stride walk (lane i at element i * STRIDE) under INF's model; 0 when it
 * cannot say. */
unsigned cb_inference_stride_passes(const cb_inference *inf, unsigned subgroup, unsigned elem_bytes,
				    unsigned stride);

/* Replaces R's recorded models (what the selection reads) with its analysis (cb_analyze): so
 * that predict and lint use the verdict that analyze prints, not one an older version wrote. */
void cb_record_analysis(cb_result *r);

/* Warns (to N) when the model C (banked, or not banked: flat) of OP from PATH has a confidence
 * below 0.9. */
void cb_warn_unsure_model(const cb_notifier *n, const char *path, cb_op op,
			  const cb_model_choice *c);

#endif
