/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/doc_outputs.h"
#include "doc/doc_agree.h"
#include "doc/doc_json.h"
#include "core/fleet.h"
#include "core/util.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

static const char *const figure_keys[CB_FLEET_NMETRICS] = {
	[CB_FLEET_COST] = "pass_ns_per_subgroup",
	[CB_FLEET_THROUGHPUT] = "bandwidth_4B_gbs",
};

/* The groups of identical devices and the outliers (core/fleet.h), by document index. */
static void add_fleet(json_t *top, const cb_result *const *rs, const char *const *files, int n)
{
	cb_fleet f;
	cb_fleet_build(rs, (size_t)n, &f);
	json_t *groups = json_array(), *outliers = json_array();
	for (size_t g = 0; g < f.ngroups; g++) {
		const cb_fleet_group *grp = &f.groups[g];
		json_t *o = json_object(), *fl = json_array();
		for (size_t i = 0; i < grp->n; i++)
			json_array_append_new(fl, json_string(files[grp->members[i]]));
		json_object_set_new(o, "device",
				    json_string(or_dash(rs[grp->members[0]]->device.name)));
		json_object_set_new(o, "count", json_integer((json_int_t)grp->n));
		json_object_set_new(o, "files", fl);
		for (int k = 0; k < CB_FLEET_NMETRICS; k++)
			json_object_set_new(o, figure_keys[k],
					    json_pack("{s:o, s:o}", "median",
						      cb_json_number(grp->median[k]), "spread",
						      cb_json_number(grp->spread[k])));
		json_array_append_new(groups, o);
	}
	for (size_t i = 0; i < f.noutliers; i++) {
		const cb_fleet_outlier *x = &f.outliers[i];
		json_array_append_new(outliers,
				      json_pack("{s:s, s:I, s:s, s:o, s:o, s:o, s:o}", "file",
						files[x->doc], "group", (json_int_t)x->group,
						"figure", figure_keys[x->metric], "value",
						cb_json_number(x->value), "median",
						cb_json_number(x->median), "deviation",
						cb_json_number(x->deviation), "allowed",
						cb_json_number(x->allowed)));
	}
	json_object_set_new(top, "groups", groups);
	json_object_set_new(top, "outliers", outliers);
	cb_fleet_free(&f);
}

char *cb_compare_json(const cb_result *const *rs, const char *const *files, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++) {
		const cb_result *r = rs[i];
		json_t *o = json_object();
		json_object_set_new(o, "file", json_string(files[i]));
		json_object_set_new(o, "device", json_string(or_dash(r->device.name)));
		json_object_set_new(o, "platform", json_string(or_dash(r->device.platform)));
		json_object_set_new(o, "regime", json_string(or_dash(r->run.regime)));
		cb_add_op_inferences(o, r);
		cb_set_nonempty(o, "transpose", cb_transpose_json(r));
		json_object_set_new(o, "stride2_4B",
				    cb_json_number(cb_stride_ratio(r, CB_OP_LOAD, 4, 2)));
		json_object_set_new(o, "stride32_4B",
				    cb_json_number(cb_stride_ratio(r, CB_OP_LOAD, 4, 32)));
		json_array_append_new(a, o);
	}
	json_t *top = json_pack("{s:s, s:i, s:o}", "format", "clbanks-compare", "format_version", 3,
				"devices", a);
	add_fleet(top, rs, files, n);
	json_t *documented = cb_agreement_json(rs, files, n);
	if (documented)
		json_object_set_new(top, "documented", documented);
	return cb_json_text(top, 2);
}

/* NAME: N when reported, else null. */
static void set_count(json_t *o, const char *name, unsigned long long n)
{
	json_object_set_new(o, name, n ? json_integer((json_int_t)n) : json_null());
}

static void set_text(json_t *o, const char *name, const char *s)
{
	json_object_set_new(o, name, s && *s ? json_string(s) : json_null());
}

char *cb_devices_json(const cb_device_entry *d, size_t n)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		char pd[32];
		snprintf(pd, sizeof pd, "%u:%u", d[i].platform_index, d[i].device_index);
		json_t *o = json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:b}", "index",
				      (json_int_t)d[i].index, "id", pd, "type", d[i].type, "name",
				      d[i].name, "vendor", d[i].vendor, "platform", d[i].platform,
				      "default", d[i].is_default);
		set_count(o, "local_mem_bytes", d[i].local_mem_bytes);
		set_text(o, "local_mem_type", d[i].local_mem_type);
		set_count(o, "compute_units", d[i].compute_units);
		set_count(o, "max_clock_mhz", d[i].max_clock_mhz);
		json_t *sg = json_array();
		for (unsigned k = 0; k < d[i].nsubgroup_sizes && k < 8; k++)
			json_array_append_new(sg, json_integer(d[i].subgroup_sizes[k]));
		json_object_set_new(o, "subgroup_sizes", sg);
		set_text(o, "subgroup_source", d[i].subgroup_source);
		set_text(o, "driver_version", d[i].driver_version);
		set_text(o, "device_version", d[i].device_version);
		set_text(o, "opencl_c_version", d[i].opencl_c_version);
		set_text(o, "platform_version", d[i].platform_version);
		json_array_append_new(arr, o);
	}
	return cb_json_text(arr, 2);
}

char *cb_predict_json(const cb_predict_answer *a)
{
	json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:b}", "op", a->op, "elem_bytes",
			      (json_int_t)a->elem_bytes, "passes", (json_int_t)a->passes,
			      "min_passes", (json_int_t)a->min_passes, "banked", a->banked);
	json_object_set_new(o, "lanes_per_pass",
			    a->lanes_per_pass ? json_integer(a->lanes_per_pass) : json_null());
	json_object_set_new(o, "conflict_ways", json_integer(a->conflict_ways));
	json_object_set_new(o, "slowdown", cb_json_number(a->slowdown));
	json_object_set_new(o, "model", json_string(a->by_size ? "elem_bytes" : "op"));
	if (a->note)
		json_object_set_new(o, "note", json_string(a->note));
	json_object_set_new(o, "provenance",
			    json_string(a->documented ? "documented" : "measured"));
	if (a->documented)
		json_object_set_new(o, "documented_model", json_string(a->documented));
	if (a->pass_of_lane) {
		unsigned npass = 0;
		for (unsigned l = 0; l < a->nlanes; l++)
			npass = a->pass_of_lane[l] + 1 > npass ? a->pass_of_lane[l] + 1 : npass;
		json_t *passes = json_array();
		for (unsigned p = 0; p < npass; p++) {
			json_t *lanes = json_array();
			for (unsigned l = 0; l < a->nlanes; l++)
				if (a->pass_of_lane[l] == p)
					json_array_append_new(lanes, json_integer(l));
			json_array_append_new(passes, lanes);
		}
		json_object_set_new(o, "lanes_by_pass", passes);
	}
	return cb_json_text(o, 0);
}
