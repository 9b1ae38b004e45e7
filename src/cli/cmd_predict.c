/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/commands.h"
#include "cli/outfile.h"
#include "core/model.h"
#include "core/result.h"
#include "core/util.h"
#include "doc/doc.h"
#include "doc/doc_outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lane offsets of --lanes: comma-separated byte offsets. */
static cb_rc parse_lanes(const char *text, uint32_t *lanes, unsigned *n, cb_error *err)
{
	*n = 0;
	for (const char *p = text; *p;) {
		char buf[32];
		size_t len = strcspn(p, ",");
		unsigned long v;
		if (len == 0 || len >= sizeof buf || *n >= CB_MAX_LANES)
			return cb_error_set(err, CB_ERR_USAGE, "invalid value '%s' for --lanes: expected "
					    "comma-separated byte offsets", text);
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (!cb_parse_ulong(buf, 0, 0x7fffffffUL, &v))
			return cb_error_set(err, CB_ERR_USAGE, "invalid value '%s' for --lanes: a lane "
					    "offset must be a non-negative integer", buf);
		lanes[(*n)++] = (uint32_t)v;
		p += len;
		if (*p == ',' && !*++p)
			return cb_error_set(err, CB_ERR_USAGE, "invalid value '%s' for --lanes: trailing "
					    "comma", text);
	}
	return CB_OK;
}

typedef struct {
	cb_format fmt;
	cb_predict_answer a;
} predict_ctx;

static void render_predict(FILE *out, const void *p)
{
	const predict_ctx *c = p;
	if (c->fmt == CB_FMT_JSON) {
		char *s = cb_predict_json(&c->a);
		fputs(s, out);
		free(s);
	} else if (c->fmt == CB_FMT_CSV) {
		fprintf(out, "elem_bytes,passes,lanes_per_pass\r\n%u,%u,%u\r\n", c->a.elem_bytes,
			c->a.passes, c->a.lanes_per_pass);
	} else {
		fprintf(out, "%u\n", c->a.passes);
	}
}

cb_rc cb_cmd_predict(const cb_cli_options *o, cb_error *err)
{
	if (o->nargs > 0)
		return cb_error_set(err, CB_ERR_USAGE, "unexpected argument '%s'", o->args[0]);
	if (!o->model || !o->elem_bytes || !o->lanes)
		return cb_error_set(err, CB_ERR_USAGE, "predict needs --model FILE, --elem-bytes E and "
				    "--lanes A,B,...");
	cb_rc rc = cb_output_check(o->output, o->force, err);
	cb_recorded_model m;
	unsigned S = 0, n = 0, E = (unsigned)o->elem_bytes;
	if (rc == CB_OK)
		rc = cb_load_model(o->model, CB_OP_LOAD, &m, &S, err);
	if (rc != CB_OK)
		return rc;
	int e = cb_elem_index(E);
	if (!m.lanes_per_pass[e])
		return cb_error_set(err, CB_ERR_USAGE, "%s: the model has no lanes per pass for %u-byte "
				    "elements (not measured)", o->model, E);
	uint32_t *lanes = cb_xmalloc(CB_MAX_LANES * sizeof *lanes);
	rc = parse_lanes(o->lanes, lanes, &n, err);
	if (rc == CB_OK && n != S)
		rc = cb_error_set(err, CB_ERR_USAGE, "--lanes has %u offsets; the model's sub-group has "
				  "%u lanes", n, S);
	for (unsigned l = 0; rc == CB_OK && l < n; l++)
		if (lanes[l] % E)
			rc = cb_error_set(err, CB_ERR_USAGE, "--lanes: lane %u's offset %u is not a multiple "
					  "of the element size (%u bytes)", l, lanes[l], E);
	predict_ctx c = { cb_format_of(o, CB_FMT_TEXT), { .op = "load", .elem_bytes = E,
		.lanes_per_pass = m.lanes_per_pass[e], .banked = true, .conflict_ways = 1 } };
	if (rc == CB_OK) {
		c.a.passes = cb_passes(&m.geom, m.lanes_per_pass[e], E, lanes, n);
		cb_stride_lanes(lanes, n, E, 1);
		c.a.min_passes = cb_passes(&m.geom, m.lanes_per_pass[e], E, lanes, n);
		c.a.slowdown = c.a.min_passes ? (double)c.a.passes / c.a.min_passes : 1;
		c.a.conflict_ways = c.a.passes > c.a.min_passes && c.a.min_passes ?
			(c.a.passes + c.a.min_passes - 1) / c.a.min_passes : 1;
		rc = cb_emit(o->output, o->force, render_predict, &c, err);
	}
	free(lanes);
	return rc;
}
