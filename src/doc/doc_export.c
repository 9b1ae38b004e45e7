/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/doc_export.h"
#include "doc/doc_json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *str_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;
	return j ? j : json_null();
}

static const char *source_name(cb_choice_source s)
{
	switch (s) {
	case CB_CHOICE_JOINT:
		return "op";
	case CB_CHOICE_BY_SIZE:
		return "elem_bytes";
	case CB_CHOICE_FLAT:
		return "not_banked";
	default:
		return "none";
	}
}

/* Groups that are not contiguous (a documented model's lane_groups): each group's lanes. */
static json_t *lane_groups(const cb_model_choice *c)
{
	json_t *groups = json_array();
	for (unsigned g0 = 0; c->lanes_per_pass && g0 < c->norder; g0 += c->lanes_per_pass) {
		json_t *lanes = json_array();
		for (unsigned k = g0; k < g0 + c->lanes_per_pass && k < c->norder; k++)
			json_array_append_new(lanes, json_integer(c->order[k]));
		json_array_append_new(groups, lanes);
	}
	return groups;
}

/* Lanes [g * L, (g + 1) * L) are served together: the phase groups of one access (null when
 * they are not contiguous: lane_groups lists them). */
static json_t *phase_groups(unsigned subgroup, unsigned lanes_per_pass, const cb_model_choice *c)
{
	if (c->norder)
		return json_null();
	json_t *groups = json_array();
	for (unsigned g0 = 0; lanes_per_pass && g0 < subgroup; g0 += lanes_per_pass) {
		unsigned g1 = g0 + lanes_per_pass < subgroup ? g0 + lanes_per_pass : subgroup;
		json_array_append_new(groups,
				      json_pack("[II]", (json_int_t)g0, (json_int_t)g1 - 1));
	}
	return groups;
}

static json_t *size_json(const cb_export_model *m, const cb_export_size *s)
{
	const cb_model_choice *c = &s->choice;
	json_t *j = json_pack("{s:s}", "model", source_name(c->source));
	bool banked = c->source == CB_CHOICE_JOINT || c->source == CB_CHOICE_BY_SIZE;
	json_object_set_new(j, "confidence", cb_json_number(c->confidence));
	if (c->source == CB_CHOICE_NONE)
		json_object_set_new(j, "problem", str_or_null(c->problem));
	if (!banked)
		return j;
	json_object_set_new(j, "banks", json_integer(c->geom.banks));
	json_object_set_new(j, "width_bytes", json_integer(c->geom.width));
	json_object_set_new(j, "broadcast", json_boolean(c->geom.broadcast));
	json_object_set_new(j, "pair_packing", json_boolean(c->geom.pair_packing));
	json_object_set_new(j, "lanes_per_pass",
			    c->lanes_per_pass ? json_integer(c->lanes_per_pass) : json_null());
	json_object_set_new(j, "phases", s->phases ? json_integer(s->phases) : json_null());
	json_object_set_new(j, "phase_groups", phase_groups(m->subgroup, c->lanes_per_pass, c));
	if (c->norder)
		json_object_set_new(j, "lane_groups", lane_groups(c));
	return j;
}

static json_t *op_json(const cb_export_model *m, const cb_export_op *x)
{
	json_t *j = json_pack("{s:o, s:o}", "status", str_or_null(x->status), "confidence",
			      cb_json_number(x->confidence));
	json_object_set_new(j, "pass_ns_per_subgroup", cb_json_number(x->pass_ns_per_subgroup));
	json_object_set_new(j, "pass_cycles", cb_json_number(x->pass_cycles));
	json_object_set_new(j, "broadcast_measured", json_boolean(x->broadcast_known));
	json_t *sizes = json_object();
	for (int e = 0; e < CB_NELEM; e++) {
		if (!x->size[e].measured)
			continue;
		char key[8];
		snprintf(key, sizeof key, "%u", cb_elems[e].bytes);
		json_object_set_new(sizes, key, size_json(m, &x->size[e]));
	}
	json_object_set_new(j, "by_elem_bytes", sizes);
	return j;
}

char *cb_export_json(const cb_export_model *m, const char *source)
{
	json_t *root = json_pack("{s:s, s:i}", "format", "clbanks-bank-model", "format_version", 2);
	json_object_set_new(root, "source",
			    json_pack("{s:o, s:o, s:o, s:o}", "document", str_or_null(source),
				      "device", str_or_null(m->device), "vendor",
				      str_or_null(m->vendor), "driver_version",
				      str_or_null(m->driver_version)));
	json_object_set_new(root, "subgroup_size", json_integer(m->subgroup));
	json_object_set_new(root, "provenance",
			    json_string(m->documented[0] ? "documented" : "measured"));
	if (m->documented[0])
		json_object_set_new(root, "documented_model", json_string(m->documented));
	json_t *ops = json_object();
	for (int op = 0; op < CB_NOPS; op++)
		if (m->ops[op].present)
			json_object_set_new(ops, cb_op_name((cb_op)op), op_json(m, &m->ops[op]));
	json_object_set_new(root, "ops", ops);
	return cb_json_text(root, 2);
}
