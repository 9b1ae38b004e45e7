/* SPDX-License-Identifier: MIT */
/* The document reader: every malformed input gets a message naming what is wrong. */
#include "config.h"
#include "doc/doc.h"
#include "core/plan.h"
#include "core/util.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static void bad(const char *text, const char *want, const char *what)
{
	cb_result r;
	cb_error err;
	cb_error_clear(&err);
	bool rejected = cb_doc_parse(text, strlen(text), CB_DOC_REQUIRE_TIMES, &r, &err) != CB_OK;
	tap_ok(rejected && strstr(err.text, want), "%s: \"%s\"", what, err.text);
	if (!rejected)
		cb_result_free(&r);
}

#define HEAD "{\"format\":\"clbanks\",\"format_version\":1,\"device\":{\"subgroup_size\":4},"
#define HEAD2 "{\"format\":\"clbanks\",\"format_version\":2,\"device\":{\"subgroup_size\":4},"

int main(void)
{
	bad("[]", "expected an object", "top level array");
	bad("{\"format\":\"other\"}", "not a clbanks result", "wrong format");
	bad("{\"format\":\"clbanks\",\"format_version\":3}", "unsupported format_version 3", "future version");
	bad("{\"format\":\"clbanks\",\"format_version\":0}", "reads versions 1 to 2", "version 0");
	bad("{\"format\":\"clbanks\",\"format_version\":\"1\"}", "format_version", "version as a string");
	bad("{\"format\":\"clbanks\",\"format_version\":1}", "\"device\"", "no device");
	bad("{\"format\":\"clbanks\",\"format_version\":1,\"device\":{\"subgroup_size\":0}}",
	    "subgroup_size", "zero sub-group");
	bad(HEAD "\"measurements\":[]}", "empty", "no measurements");
	bad(HEAD "\"measurements\":{}}", "not an array", "measurements as object");
	bad(HEAD "\"measurements\":[1]}", "measurements[0] is an integer", "measurement as number");
	bad(HEAD "\"measurements\":[{\"op\":\"store\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}]}",
	    "needs format_version 2", "a store in format 1");
	bad(HEAD2 "\"measurements\":[{\"op\":\"copy\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}]}",
	    "\"copy\" is not supported", "an unknown op");
	bad(HEAD2 "\"measurements\":[{\"op\":\"atomic\",\"elem_bytes\":2,\"lanes\":[0,2,4,6],\"ns_per_access\":1}]}",
	    "atomic of 2-byte elements is not a measurement", "a 2-byte atomic");
	bad(HEAD2 "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}],"
	    "\"kernel_checks\":[{\"variant\":\"naive\"}]}", "needs \"kernel\" and \"variant\"",
	    "a kernel check without its kernel");
	bad(HEAD2 "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}],"
	    "\"kernel_checks\":[{\"kernel\":\"transpose\",\"variant\":\"naive\",\"ci95\":[1]}]}",
	    "ci95 must be an array of two numbers", "a kernel check's short CI");
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
	cb_plan_opts po = { .subgroup = 32, .seed = 1, .local_mem_budget = CB_DEFAULT_LOCAL_BYTES };
	cb_result plan, back;
	cb_error err;
	cb_plan_make(&po, &plan, &err);
	char *text = cb_doc_write(&plan);
	tap_ok(cb_doc_parse(text, strlen(text), 0, &back, &err) == CB_OK,
	       "the plan is a valid untimed document");
	char *again = cb_doc_write(&back);
	tap_ok(strcmp(text, again) == 0, "the plan reads back and writes out unchanged");
	cb_result_free(&back);
	tap_ok(cb_doc_parse(text, strlen(text), CB_DOC_REQUIRE_TIMES, &back, &err) != CB_OK &&
	       strstr(err.text, "a plan"), "a plan is refused where times are needed: %s", err.text);
	const char *kinds[] = { "stride", "two_address", "lane_pair", "pair_reference", "pool", "random" };
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		unsigned per_elem[17] = { 0 };
		for (size_t i = 0; i < plan.nms; i++)
			if (cb_kind_is(&plan.ms[i], kinds[k]))
				per_elem[plan.ms[i].elem_bytes]++;
		tap_ok(per_elem[1] && per_elem[2] && per_elem[4] && per_elem[8] && per_elem[16],
		       "plan has %s experiments for every element size", kinds[k]);
	}
	unsigned max_stride4 = 0, pairs4 = 0;
	for (size_t i = 0; i < plan.nms; i++) {
		const cb_measurement *m = &plan.ms[i];
		long long st;
		if (m->elem_bytes != 4)
			continue;
		if (cb_kind_is(m, "stride") && cb_param_get(m, "stride", &st) && st > max_stride4)
			max_stride4 = (unsigned)st;
		pairs4 += cb_kind_is(m, "lane_pair");
	}
	tap_ok(max_stride4 >= 128, "4-byte strides reach 128 (%u)", max_stride4);
	tap_ok(pairs4 == 31, "a lane-pair probe for every lane (%u)", pairs4);
	cb_result plan2;
	cb_plan_make(&po, &plan2, &err);
	char *s2 = cb_doc_write(&plan2);
	tap_ok(strcmp(text, s2) == 0, "the plan is deterministic for a seed");
	free(text);
	free(again);
	free(s2);
	cb_result_free(&plan);
	cb_result_free(&plan2);
	return tap_done();
}
