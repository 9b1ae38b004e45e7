/* SPDX-License-Identifier: MIT */
/* The parts of lint that need no LLVM (built always): the pricer over a measured model, and
 * the result's names and memory. */
#include "config.h"
#include "lint/lint.h"
#include "lint/lint_edit.h"
#include "lint/lint_lang.h"
#include "core/swizzle.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The op's own model where measured; else the loads', and for atomics without merging (lanes
 * on one word serialize on every device measured so far). */
static bool model_price(const cb_lint_pricer *p, cb_op op, unsigned elem_bytes,
			const uint32_t *offsets, const bool *active, unsigned nlanes,
			unsigned *passes, unsigned *min_passes)
{
	const cb_lint_model *m = p->ctx;
	int e = cb_elem_index(elem_bytes);
	const cb_lint_op_model *own = &m->ops[op];
	if (m->flat && !own->measured) {
		/* Not banked: every access costs what a conflict-free one does. */
		*passes = *min_passes = 1;
		return e >= 0 && nlanes > 0;
	}
	cb_geometry g = own->measured ? own->geom : m->geom;
	const unsigned *lanes = own->measured ? own->lanes_per_pass : m->lanes_per_pass;
	if (e < 0 || !lanes[e] || nlanes == 0 || nlanes > CB_MAX_LANES)
		return false;
	if (op == CB_OP_ATOMIC && !own->measured)
		g.broadcast = g.pair_packing = false;
	unsigned norder = own->measured ? own->norder[e] : m->norder[e];
	const uint8_t *order = own->measured ? own->order[e] : m->order[e];
	cb_access_cost cost;
	bool ok;
	if (!norder) {
		ok = cb_price_access(&g, lanes[e], elem_bytes, offsets, active, nlanes, &cost);
	} else if (nlanes > norder) {
		return false; /* a sub-group wider than the documented groups cover */
	} else {
		/* The documented groups (predict's pricing, core/model.c): a short last sub-group
		 * keeps its lanes where the hardware puts them, the missing ones inactive. */
		uint32_t off[CB_MAX_ORDER] = { 0 };
		bool act[CB_MAX_ORDER] = { false };
		for (unsigned l = 0; l < nlanes; l++) {
			off[l] = offsets[l];
			act[l] = !active || active[l];
		}
		ok = cb_price_access_order(&g, lanes[e], order, norder, elem_bytes, off, act,
					   norder, &cost);
	}
	*passes = cost.passes;
	*min_passes = cost.min_passes;
	return ok;
}

void cb_lint_pricer_from_model(cb_lint_model *m, const cb_geometry *g,
			       const unsigned lanes_per_pass[CB_NELEM], unsigned subgroup)
{
	memset(m, 0, sizeof *m);
	m->geom = *g;
	memcpy(m->lanes_per_pass, lanes_per_pass, sizeof m->lanes_per_pass);
	m->pricer.subgroup = subgroup;
	m->pricer.period = g->banks * g->width;
	m->pricer.price = model_price;
	m->pricer.ctx = m;
}

void cb_lint_pricer_flat(cb_lint_model *m, unsigned subgroup)
{
	memset(m, 0, sizeof *m);
	m->flat = true;
	m->pricer.subgroup = subgroup;
	m->pricer.price = model_price;
	m->pricer.ctx = m;
}

void cb_lint_model_set_op(cb_lint_model *m, cb_op op, const cb_geometry *g,
			  const unsigned lanes_per_pass[CB_NELEM])
{
	m->ops[op].measured = true;
	m->ops[op].geom = *g;
	memcpy(m->ops[op].lanes_per_pass, lanes_per_pass, sizeof m->ops[op].lanes_per_pass);
}

void cb_lint_model_set_order(cb_lint_model *m, cb_op op, int e, const uint8_t *order, unsigned n)
{
	unsigned *norder = op == CB_OP_LOAD ? &m->norder[e] : &m->ops[op].norder[e];
	uint8_t *to = op == CB_OP_LOAD ? m->order[e] : m->ops[op].order[e];
	*norder = n <= CB_MAX_ORDER ? n : 0;
	if (*norder)
		memcpy(to, order, n);
}

const char *cb_lint_model_source(const cb_lint_model *m, cb_op op)
{
	if (op == CB_OP_LOAD || m->ops[op].measured)
		return "measured";
	return op == CB_OP_STORE ? "the loads' model" : "the loads' model without broadcast";
}

const char *cb_lint_status_name(cb_lint_status s)
{
	switch (s) {
	case CB_LINT_PREDICTED:
		return "predicted";
	case CB_LINT_ASSUMED:
		return "assumed";
	case CB_LINT_UNKNOWN:
		return "unknown";
	default:
		return "not_executed";
	}
}

/* clang-format off */
static const struct { const char *key, *text; } why_names[CB_LINT_NWHY] = {
	[CB_LINT_WHY_NONE] = { "none", "known" },
	[CB_LINT_WHY_BRANCH] = { "branch", "undecidable branch" },
	[CB_LINT_WHY_DECIDED] = { "decided", "branch decided by assumed values" },
	[CB_LINT_WHY_TAINT] = { "set_under_branch", "address set under an undecidable branch" },
	[CB_LINT_WHY_DATA] = { "data", "offsets depend on memory contents or arguments" },
	[CB_LINT_WHY_FLOAT] = { "float", "offsets go through floating-point values" },
	[CB_LINT_WHY_OBJECTS] = { "objects", "lanes span several objects" },
	[CB_LINT_WHY_POINTER] = { "pointer", "pointer of no known object" },
	[CB_LINT_WHY_BOUNDS] = { "bounds", "offset outside its object" },
	[CB_LINT_WHY_MODEL] = { "model", "the model cannot price it" },
	[CB_LINT_WHY_CALL] = { "call", "call lint cannot see" },
	[CB_LINT_WHY_UNSEEN] = { "unseen_call", "address from a call lint does not evaluate" },
	[CB_LINT_WHY_TWICE] = { "twice", "reached twice in one iteration" },
	[CB_LINT_WHY_SIDE] = { "branch_side", "side of an undecidable branch not simulated" },
	[CB_LINT_WHY_GROUP] = { "work_group", "the simulated work-group does not reach it" },
};
/* clang-format on */

const char *cb_lint_why_text(cb_lint_why w)
{
	return (unsigned)w < CB_LINT_NWHY ? why_names[w].text : "?";
}

const char *cb_lint_why_key(cb_lint_why w)
{
	return (unsigned)w < CB_LINT_NWHY ? why_names[w].key : "?";
}

void cb_lint_object_decl(const cb_lint_object *o, char *buf, size_t n)
{
	if (o->rank == 0) {
		snprintf(buf, n, o->is_arg ? "%s *%s" : "%s %s", o->elem_type, o->name);
		return;
	}
	int k = snprintf(buf, n, "%s %s", o->elem_type, o->name);
	for (unsigned d = 0; d < o->rank && d < 4 && k > 0 && (size_t)k < n; d++)
		k += snprintf(buf + k, n - (size_t)k, "[%" PRIu64 "]", o->dims[d]);
	if (o->rank > 4 && k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "[...]");
}

void cb_lint_fix_text(const cb_lint_object *o, const cb_lint_fix *f, const cb_lint_fix_choice *c,
		      char *buf, size_t n)
{
	char sw[112];
	unsigned cols = o->rank == 2 ? (unsigned)o->dims[1] : f->width;
	cb_swizzle_column_expr_in(c->bits, c->shift, cols, sw, sizeof sw);
	if (o->rank == 2 && c->swizzle)
		cb_swizzle_expr_in(o->name, c->bits, c->shift, cols, buf, n);
	else if (o->rank == 2)
		snprintf(buf, n, "%s %s[%" PRIu64 "][%" PRIu64 "+%u]", o->elem_type, o->name,
			 o->dims[0], o->dims[1], c->pad);
	else if (c->swizzle)
		snprintf(buf, n, "%s[r * %u + (%s)]", o->name, f->width, sw);
	else
		snprintf(buf, n, "%s %s[%u*(%u+%u)], %s[r * (%u+%u) + c]", o->elem_type, o->name,
			 f->rows, f->width, c->pad, o->name, f->width, c->pad);
}

bool cb_lint_has_conflict(const cb_lint_result *res)
{
	for (size_t i = 0; i < res->naccesses; i++)
		if (res->accesses[i].status == CB_LINT_PREDICTED && res->accesses[i].conflict &&
		    !res->accesses[i].suppressed)
			return true;
	return false;
}

void cb_lint_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

size_t cb_lint_assumed_conflicts(const cb_lint_result *res)
{
	size_t n = 0;
	for (size_t i = 0; i < res->naccesses; i++)
		n += res->accesses[i].status == CB_LINT_ASSUMED && res->accesses[i].conflict &&
		     !res->accesses[i].suppressed;
	return n;
}

size_t cb_lint_unknown_count(const cb_lint_result *res)
{
	size_t n = 0;
	for (size_t i = 0; i < res->naccesses; i++)
		n += res->accesses[i].status == CB_LINT_UNKNOWN;
	return n;
}

void cb_lint_result_free(cb_lint_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->nobjects; i++) {
		free(res->objects[i].name);
		free(res->objects[i].elem_type);
	}
	for (size_t i = 0; i < res->naccesses; i++) {
		free(res->accesses[i].file);
		free(res->accesses[i].elem_type);
		free(res->accesses[i].iter);
		free(res->accesses[i].lanes);
		cb_lint_tables_free(&res->accesses[i].tables);
		cb_lint_tables_free(&res->accesses[i].fixed_tables);
	}
	free(res->measured_device);
	cb_lint_edits_free(res->edits, res->nedits);
	free(res->objects);
	free(res->accesses);
	free(res->kernel);
	free(res->path);
	free(res->build_log);
	memset(res, 0, sizeof *res);
}

unsigned cb_lint_opencl_version(const cb_lint_request *req)
{
	const char *std = req->cl_std ? req->cl_std : "CL1.2";
	for (const char *o = req->build_options; o && (o = strstr(o, "-cl-std=CL")); o += 10)
		std = o + 8;
	unsigned major = 1, minor = 2;
	if (std[2] >= '1' && std[2] <= '9' && std[3] == '.' && std[4] >= '0' && std[4] <= '9') {
		major = (unsigned)(std[2] - '0');
		minor = (unsigned)(std[4] - '0');
	}
	return major * 100 + minor * 10;
}

bool cb_lint_defines(const cb_lint_request *req, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < req->ndefines; i++)
		if (req->defines[i] && !strncmp(req->defines[i], name, n) &&
		    (!req->defines[i][n] || req->defines[i][n] == '='))
			return true;
	return req->build_options && strstr(req->build_options, name);
}

void cb_lint_predefined(const cb_lint_request *req, char *buf, size_t n)
{
	if (req->lang != CB_LINT_OPENCL) {
		cb_lint_lang_predefined(req, buf, n);
		return;
	}
	unsigned v = cb_lint_opencl_version(req);
	bool own = cb_lint_defines(req, "__OPENCL_VERSION__");
	char mine[64];
	snprintf(mine, sizeof mine, "__OPENCL_VERSION__=%u (a device of that version)", v);
	snprintf(
		buf, n,
		"%s; by clang for OpenCL C %u.%u: __OPENCL_C_VERSION__=%u, "
		"CL_VERSION_1_0 .. CL_VERSION_3_0, __ENDIAN_LITTLE__, __IMAGE_SUPPORT__, __SPIR__, "
		"cl_khr_fp64, cl_khr_fp16, the cl_khr_*_atomics",
		own ? "__OPENCL_VERSION__ as your -D or build options define it" : mine, v / 100,
		v / 10 % 10, v);
}

const cb_lint_access *cb_lint_same_access(const cb_lint_result *r, const cb_lint_access *a)
{
	for (size_t i = 0; i < r->naccesses; i++)
		if (r->accesses[i].site == a->site && r->accesses[i].nth == a->nth)
			return &r->accesses[i];
	return NULL;
}
