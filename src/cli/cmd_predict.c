/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/commands.h"
#include "cli/outfile.h"
#include "core/model.h"
#include "core/result.h"
#include "core/util.h"
#include "doc/doc.h"
#include "doc/doc_outputs.h"
#include "views/outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lane offsets of --lanes: comma-separated byte offsets, "-" for a lane that takes no
 * part (a divergent branch left it out). */
static cb_rc parse_lanes(const char *text, uint32_t *lanes, bool *active, unsigned *n,
			 cb_error *err)
{
	*n = 0;
	for (const char *p = text; *p;) {
		char buf[32];
		size_t len = strcspn(p, ",");
		unsigned long v = 0;
		if (len == 0)
			return cb_error_set(err, CB_ERR_USAGE,
					    "invalid value '%s' for --lanes: expected "
					    "comma-separated byte offsets",
					    text);
		if (*n >= CB_MAX_LANES)
			return cb_error_set(err, CB_ERR_USAGE,
					    "--lanes has more than %d offsets; a sub-group has at "
					    "most %d lanes",
					    CB_MAX_LANES, CB_MAX_LANES);
		/* An offset too long for BUF is no valid one: said as such, not cut. */
		memcpy(buf, p, len < sizeof buf ? len : sizeof buf - 1);
		buf[len < sizeof buf ? len : sizeof buf - 1] = '\0';
		bool off = strcmp(buf, "-") == 0;
		if (len >= sizeof buf || (!off && !cb_parse_ulong(buf, 0, 0x7fffffffUL, &v)))
			return cb_error_set(err, CB_ERR_USAGE,
					    "invalid value '%.*s' for --lanes: a lane "
					    "offset must be a non-negative integer, or - for an "
					    "inactive lane",
					    (int)len, p);
		active[*n] = !off;
		lanes[(*n)++] = (uint32_t)v;
		p += len;
		if (*p == ',' && !*++p)
			return cb_error_set(err, CB_ERR_USAGE,
					    "invalid value '%s' for --lanes: trailing comma", text);
	}
	return CB_OK;
}

typedef struct {
	cb_format fmt;
	bool verbose;
	cb_predict_answer a;
} predict_ctx;

static void render_predict(FILE *out, const void *p)
{
	const predict_ctx *c = p;
	cb_predict_print(out, &c->a, c->fmt, c->verbose);
}

/* The lanes of --lanes or --stride, checked against the model's sub-group and element size;
 * with --active N, lanes N and up take no part (and --lanes may stop at N offsets). */
static cb_rc predict_lanes(const cb_cli_options *o, unsigned S, unsigned E, uint32_t *lanes,
			   bool *active, cb_error *err)
{
	unsigned n = S;
	bool stride = cb_option_given(o, "stride");
	unsigned act = cb_option_given(o, "active") ? (unsigned)o->active : S;
	if (stride == (o->lanes != NULL))
		return cb_error_set(err, CB_ERR_USAGE,
				    "predict needs one of --lanes A,B,... and --stride S");
	if (act > S)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--active %u: the model's sub-group has %u lanes", act, S);
	for (unsigned l = 0; l < S; l++)
		active[l] = true;
	if (stride)
		cb_stride_lanes(lanes, S, E, (unsigned)o->stride);
	else if (parse_lanes(o->lanes, lanes, active, &n, err) != CB_OK)
		return CB_ERR_USAGE;
	if (n == act && act < S)
		n = S; /* the rest are inactive */
	if (n != S)
		return cb_error_set(
			err, CB_ERR_USAGE,
			"--lanes has %u offsets; the model's sub-group "
			"has %u lanes (mark inactive lanes with -, or give --active N and "
			"N offsets)",
			n, S);
	for (unsigned l = act; l < S; l++)
		active[l] = false;
	for (unsigned l = 0; l < n; l++)
		if (active[l] && lanes[l] % E)
			return cb_error_set(err, CB_ERR_USAGE,
					    "--lanes: lane %u's offset %u is not a "
					    "multiple of the element size (%u bytes)",
					    l, lanes[l], E);
	return CB_OK;
}

/* The cost of LANES (core pricing) and, for -v, which lanes share each pass. */
static void answer(const cb_model_choice *m, unsigned S, const uint32_t *lanes, const bool *active,
		   unsigned *pass_of_lane, predict_ctx *c)
{
	cb_predict_answer *a = &c->a;
	cb_access_cost cost;
	cb_choice_price(m, a->elem_bytes, lanes, active, S, &cost);
	a->passes = cost.passes;
	a->min_passes = cost.min_passes;
	a->slowdown = cost.min_passes ? cost.slowdown : 1;
	a->conflict_ways = cost.conflict_ways ? cost.conflict_ways : 1;
	a->nlanes = S;
	a->pass_of_lane = NULL;
	if (c->verbose) {
		cb_pass_schedule_order(&m->geom, m->lanes_per_pass, m->norder ? m->order : NULL,
				       m->norder, a->elem_bytes, lanes, active, S, pass_of_lane);
		a->pass_of_lane = pass_of_lane;
	}
}

cb_rc cb_cmd_predict(const cb_cli_options *o, cb_error *err)
{
	if (o->nargs > 0)
		return cb_error_set(err, CB_ERR_USAGE, "unexpected argument '%s'", o->args[0]);
	if (!o->model || !o->elem_bytes)
		return cb_error_set(err, CB_ERR_USAGE,
				    "predict needs --model FILE, --elem-bytes E and "
				    "--lanes A,B,... or --stride S");
	cb_op op = (cb_op)o->op;
	unsigned S = 0, E = (unsigned)o->elem_bytes;
	cb_model_choice m;
	char label[512];
	cb_rc rc = cb_output_check(o->output, o->force, err);
	if (rc == CB_OK && !cb_op_has_elem(op, E))
		rc = cb_error_set(err, CB_ERR_USAGE, "%s, not %u", cb_op_desc_of(op)->elem_note, E);
	if (rc == CB_OK)
		rc = cb_load_model(o->model, op, E, &m, &S, label, sizeof label, err);
	if (rc != CB_OK)
		return rc;
	cb_notifier n = cb_cli_notifier(o);
	cb_warn_unsure_model(&n, o->model, op, &m);
	bool banked = m.source != CB_CHOICE_FLAT;
	if (banked && !m.lanes_per_pass && m.documented)
		return cb_error_set(err, CB_ERR_USAGE,
				    "%s: %s has no %s model for %u-byte elements: %s", o->model,
				    label, cb_op_name(op), E,
				    m.problem[0] ? m.problem
						 : "its sources do not give their lanes per pass");
	if (banked && !m.lanes_per_pass)
		return cb_error_set(err, CB_ERR_USAGE,
				    "%s: the %s model has no lanes per pass for "
				    "%u-byte elements (not measured)",
				    o->model, cb_op_name(op), E);
	uint32_t *lanes = cb_xmalloc(CB_MAX_LANES * sizeof *lanes);
	unsigned *pass_of_lane = cb_xcalloc(CB_MAX_LANES, sizeof *pass_of_lane);
	bool *active = cb_xcalloc(CB_MAX_LANES, sizeof *active);
	predict_ctx c = { cb_format_of(o, CB_FMT_TEXT),
			  o->verbose,
			  { .op = cb_op_name(op),
			    .elem_bytes = E,
			    .banked = banked,
			    .by_size = m.source == CB_CHOICE_BY_SIZE,
			    .conflict_ways = 1,
			    .passes = 1,
			    .min_passes = 1,
			    .slowdown = 1,
			    .documented = label[0] ? label : NULL } };
	rc = predict_lanes(o, S, E, lanes, active, err);
	if (rc == CB_OK && banked) {
		c.a.lanes_per_pass = m.lanes_per_pass;
		answer(&m, S, lanes, active, pass_of_lane, &c);
	} else {
		c.a.note =
			"the document's local memory is not banked (inference not_banked): every "
			"access pattern costs the same";
	}
	if (rc == CB_OK)
		rc = cb_emit(o->output, o->force, render_predict, &c, err);
	free(lanes);
	free(pass_of_lane);
	free(active);
	return rc;
}
