/* SPDX-License-Identifier: MIT */
/* The document reader: every malformed input gets a message naming what is wrong. */
#include "config.h"
#include "doc/doc.h"
#include "core/plan.h"
#include "core/util.h"
#include "tap.h"

#include <string.h>

static void bad(const char *text, const char *want, const char *what)
{
	json_error_t e;
	char err[512] = "";
	json_t *doc = json_loads(text, 0, &e);
	bool rejected = !doc || !cb_doc_validate(doc, true, err, sizeof err);
	tap_ok(rejected && (!doc || strstr(err, want)), "%s: \"%s\"", what, doc ? err : e.text);
	json_decref(doc);
}

#define HEAD "{\"format\":\"clbanks\",\"format_version\":1,\"device\":{\"subgroup_size\":4},"

int main(void)
{
	bad("[]", "expected an object", "top level array");
	bad("{\"format\":\"other\"}", "not a clbanks result", "wrong format");
	bad("{\"format\":\"clbanks\",\"format_version\":2}", "unsupported format_version 2", "future version");
	bad("{\"format\":\"clbanks\",\"format_version\":\"1\"}", "format_version", "version as a string");
	bad("{\"format\":\"clbanks\",\"format_version\":1}", "\"device\"", "no device");
	bad("{\"format\":\"clbanks\",\"format_version\":1,\"device\":{\"subgroup_size\":0}}",
	    "subgroup_size", "zero sub-group");
	bad(HEAD "\"measurements\":[]}", "empty", "no measurements");
	bad(HEAD "\"measurements\":{}}", "not an array", "measurements as object");
	bad(HEAD "\"measurements\":[1]}", "measurements[0] is an integer", "measurement as number");
	bad(HEAD "\"measurements\":[{\"op\":\"store\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}]}",
	    "not supported", "store op");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":3,\"lanes\":[0,4,8,12],\"ns_per_access\":1}]}",
	    "elem_bytes must be", "3-byte elements");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8],\"ns_per_access\":1}]}",
	    "has 3 offsets; expected 4", "short lane table");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,-4],\"ns_per_access\":1}]}",
	    "outside local memory", "negative offset");
	bad("{\"format\":\"clbanks\",\"format_version\":1,\"device\":{\"subgroup_size\":4,\"local_mem_bytes\":4096},"
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,4096],\"ns_per_access\":1}]}",
	    "outside local memory", "offset beyond local memory");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,\"x\"],\"ns_per_access\":1}]}",
	    "lanes[3] is a string", "lane as string");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":0}]}",
	    "not a positive time", "zero time");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":-2.5}]}",
	    "not a positive time", "negative time");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":\"NaN\"}]}",
	    "expected a number", "NaN as a string");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12]}]}",
	    "no ns_per_access", "untimed measurement where times are needed");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1,\"kind\":7}]}",
	    "kind", "kind as a number");

	/* A plan validates without times and has the catalogue the issue asks for. */
	cb_plan_opts po = { .subgroup = 32, .seed = 1, .local_mem_budget = 32768 };
	json_t *plan = cb_plan_make(&po);
	char err[256];
	tap_ok(cb_doc_validate(plan, false, err, sizeof err), "the plan is a valid untimed document");
	tap_ok(!cb_doc_validate(plan, true, err, sizeof err) && strstr(err, "a plan"),
	       "a plan is refused where times are needed: %s", err);
	const char *kinds[] = { "stride", "two_address", "lane_pair", "pair_reference", "pool", "random" };
	json_t *ms = json_object_get(plan, "measurements"), *m;
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		unsigned per_elem[17] = { 0 };
		size_t i;
		json_array_foreach(ms, i, m)
			if (strcmp(json_string_value(json_object_get(m, "kind")), kinds[k]) == 0)
				per_elem[json_integer_value(json_object_get(m, "elem_bytes"))]++;
		tap_ok(per_elem[1] && per_elem[2] && per_elem[4] && per_elem[8] && per_elem[16],
		       "plan has %s experiments for every element size", kinds[k]);
	}
	unsigned max_stride4 = 0, pairs4 = 0;
	size_t i;
	json_array_foreach(ms, i, m) {
		if (json_integer_value(json_object_get(m, "elem_bytes")) != 4)
			continue;
		const char *k = json_string_value(json_object_get(m, "kind"));
		if (strcmp(k, "stride") == 0) {
			unsigned s = (unsigned)json_integer_value(json_object_get(json_object_get(m, "params"), "stride"));
			max_stride4 = s > max_stride4 ? s : max_stride4;
		}
		pairs4 += strcmp(k, "lane_pair") == 0;
	}
	tap_ok(max_stride4 >= 128, "4-byte strides reach 128 (%u)", max_stride4);
	tap_ok(pairs4 == 31, "a lane-pair probe for every lane (%u)", pairs4);
	json_t *plan2 = cb_plan_make(&po);
	char *s1 = cb_doc_dumps(plan), *s2 = cb_doc_dumps(plan2);
	tap_ok(strcmp(s1, s2) == 0, "the plan is deterministic for a seed");
	free(s1);
	free(s2);
	json_decref(plan);
	json_decref(plan2);
	return tap_done();
}
