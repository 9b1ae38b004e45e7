/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/select.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool sure(const cb_recorded_model *m)
{
	return m->banked && m->confidence >= CB_BY_SIZE_MIN_CONFIDENCE;
}

static bool measured(const cb_result *r, cb_op op)
{
	for (size_t i = 0; i < r->nms; i++)
		if (r->ms[i].op == op)
			return true;
	return false;
}

static void take(cb_model_choice *c, cb_choice_source src, const cb_recorded_model *m, int e)
{
	c->source = src;
	c->geom = m->geom;
	c->lanes_per_pass = e >= 0 ? m->lanes_per_pass[e] : 0;
	c->confidence = m->confidence;
	c->norder = e >= 0 ? m->norder[e] : 0;
	if (c->norder)
		memcpy(c->order, m->order[e], c->norder);
}

/* Why nothing prices OP at size E: the messages predict has always given. */
static void none(const cb_result *r, cb_op op, unsigned elem_bytes, int e, cb_model_choice *c)
{
	const cb_recorded_model *rec = &r->recorded[op];
	c->source = CB_CHOICE_NONE;
	if (r->documented && !r->has_recorded[op]) {
		const char *why = cb_doc_fact_note(r, op, 0);
		snprintf(c->problem, sizeof c->problem,
			 "is a documented model (from the vendor's "
			 "documentation, not measured) with no %s model: %s",
			 cb_op_name(op), why ? why : "its sources do not describe them");
	} else if (!r->has_recorded[op] && !measured(r, op) && op != CB_OP_LOAD) {
		c->unmeasured = true;
		snprintf(c->problem, sizeof c->problem,
			 "has no %s measurements (a run measures them with --ops %s, the default)",
			 cb_op_name(op), cb_op_name(op));
	} else if (!r->has_recorded[op]) {
		snprintf(c->problem, sizeof c->problem,
			 "has no %s object (write an analyzed copy "
			 "with 'clbanks analyze FILE --format json -o ANALYZED.json' and use that)",
			 cb_inference_key(op));
	} else if (!rec->banked && rec->problem[0]) {
		snprintf(c->problem, sizeof c->problem, "%s", rec->problem);
	} else if (e >= 0 && r->has_recorded_size[op][e]) {
		snprintf(c->problem, sizeof c->problem,
			 "has no bank model to predict with (%s: %s; "
			 "its %u-byte elements on their own: %s, confidence %.3f)",
			 cb_inference_key(op), rec->status ? rec->status : "absent", elem_bytes,
			 r->recorded_size[op][e].status ? r->recorded_size[op][e].status : "absent",
			 r->recorded_size[op][e].confidence);
	} else {
		snprintf(c->problem, sizeof c->problem,
			 "has no bank model to predict with (inference status: %s)",
			 rec->status ? rec->status : "absent");
	}
}

void cb_select_model(const cb_result *r, cb_op op, unsigned elem_bytes, cb_model_choice *c)
{
	memset(c, 0, sizeof *c);
	c->confidence = NAN;
	int e = elem_bytes ? cb_elem_index(elem_bytes) : -1;
	const cb_recorded_model *rec = &r->recorded[op];
	const cb_recorded_model *own = e >= 0 && r->has_recorded_size[op][e]
					       ? &r->recorded_size[op][e]
					       : NULL;
	bool joint = r->has_recorded[op];
	if (joint && sure(rec))
		take(c, CB_CHOICE_JOINT, rec, e);
	else if (own && sure(own))
		take(c, CB_CHOICE_BY_SIZE, own, e);
	else if (joint && rec->banked)
		take(c, CB_CHOICE_JOINT, rec, e);
	else if (joint && rec->status && strcmp(rec->status, "not_banked") == 0)
		c->source = CB_CHOICE_FLAT, c->confidence = rec->confidence;
	else
		none(r, op, elem_bytes, e, c);
	c->documented = r->documented;
	if (op == CB_OP_ATOMIC && c->source == CB_CHOICE_JOINT && !rec->broadcast_known)
		c->geom.broadcast = false;
	if (op == CB_OP_ATOMIC && c->source == CB_CHOICE_BY_SIZE && !own->broadcast_known)
		c->geom.broadcast = false;
}

/* M as the document writer would record INF (doc_inference.c) and its reader read it back. */
static void record(const cb_inference *inf, cb_recorded_model *m)
{
	free(m->status);
	memset(m, 0, sizeof *m);
	m->status = cb_xstrdup(cb_status_name(inf->status));
	m->confidence = inf->confidence;
	if (inf->status != CB_BANKED)
		return;
	m->banked = true;
	m->geom = inf->best.geom;
	m->broadcast_known = inf->broadcast_known;
	if (!inf->broadcast_known)
		m->geom.broadcast = true; /* as read: unknown broadcast is the common case */
	for (int e = 0; e < CB_NELEM; e++) {
		if (!inf->elem_present[e])
			continue;
		m->lanes_per_pass[e] = inf->best.lanes_per_pass[e];
		double t0 = inf->best.t0[e], c = inf->best.c[e];
		m->has_time[e] = isfinite(t0) && isfinite(c) && t0 >= 0 && c > 0;
		m->t0_ns[e] = m->has_time[e] ? t0 : 0;
		m->cost_ns[e] = m->has_time[e] ? c : 0;
	}
}

void cb_record_analysis(cb_result *r)
{
	/* A documented model's analysis is derived from its recorded models, which hold more (the
	 * lane groups): they stay. */
	if (!r->analyzed || r->documented)
		return;
	for (int op = 0; op < CB_NOPS; op++) {
		bool has = r->op_present[op] || op == CB_OP_LOAD;
		r->has_recorded[op] = has;
		if (has)
			record(&r->inference[op], &r->recorded[op]);
		for (int e = 0; e < CB_NELEM; e++) {
			r->has_recorded_size[op][e] = has && r->has_by_size[op][e];
			if (r->has_recorded_size[op][e])
				record(&r->by_size[op][e], &r->recorded_size[op][e]);
		}
	}
}

bool cb_choice_price(const cb_model_choice *c, unsigned elem_bytes, const uint32_t *lanes,
		     const bool *active, unsigned nlanes, cb_access_cost *cost)
{
	if (c->source != CB_CHOICE_JOINT && c->source != CB_CHOICE_BY_SIZE) {
		memset(cost, 0, sizeof *cost);
		return false;
	}
	return cb_price_access_order(&c->geom, c->lanes_per_pass, c->norder ? c->order : NULL,
				     c->norder, elem_bytes, lanes, active, nlanes, cost);
}

bool cb_inference_price(const cb_inference *inf, unsigned elem_bytes, const uint32_t *lanes,
			unsigned nlanes, cb_access_cost *cost)
{
	int e = cb_elem_index(elem_bytes);
	if (!inf || e < 0) {
		memset(cost, 0, sizeof *cost);
		return false;
	}
	return cb_price_access(&inf->best.geom, inf->best.lanes_per_pass[e], elem_bytes, lanes,
			       NULL, nlanes, cost);
}

unsigned cb_inference_stride_passes(const cb_inference *inf, unsigned subgroup, unsigned elem_bytes,
				    unsigned stride)
{
	if (subgroup == 0 || subgroup > CB_MAX_LANES)
		return 0;
	uint32_t *lanes = cb_xmalloc(subgroup * sizeof *lanes);
	cb_stride_lanes(lanes, subgroup, elem_bytes, stride);
	cb_access_cost cost;
	cb_inference_price(inf, elem_bytes, lanes, subgroup, &cost);
	free(lanes);
	return cost.passes;
}

void cb_warn_unsure_model(const cb_notifier *n, const char *path, cb_op op,
			  const cb_model_choice *c)
{
	bool unsure = isfinite(c->confidence) && c->confidence < CB_BY_SIZE_MIN_CONFIDENCE;
	if ((c->source == CB_CHOICE_JOINT || c->source == CB_CHOICE_BY_SIZE) && unsure)
		cb_note(n, CB_NOTE_WARNING,
			"%s: the %s model used (%u x %u B) has confidence %.3f, "
			"below %.1f: treat its passes as a guess",
			path, cb_op_name(op), c->geom.banks, c->geom.width, c->confidence,
			CB_BY_SIZE_MIN_CONFIDENCE);
	else if (c->source == CB_CHOICE_FLAT && (unsure || !isfinite(c->confidence)))
		cb_note(n, CB_NOTE_WARNING,
			"%s: the %s model used is not banked (flat: every access "
			"pattern costs one pass) with confidence %.3f, below %.1f: its \"no conflict\" "
			"is a guess, not a measurement",
			path, cb_op_name(op), c->confidence, CB_BY_SIZE_MIN_CONFIDENCE);
}
