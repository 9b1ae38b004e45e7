/* SPDX-License-Identifier: MIT */
/* The document reader: every malformed input gets a message naming what is wrong. */
#include "config.h"
#include "doc/doc.h"
#include "core/plan.h"
#include "core/util.h"
#include "tap.h"

#include <stdio.h>
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

/* Parsed a piece at a time (the default) and whole (CB_DOC_WHOLE): the same verdict, the same
 * message when refused, the same document written back when read. */
static void both_ways(const char *text, size_t len, bool want_ok, const char *what)
{
	cb_result a, b;
	cb_error ea, eb;
	cb_error_clear(&ea);
	cb_error_clear(&eb);
	cb_rc ra = cb_doc_parse(text, len, 0, &a, &ea);
	cb_rc rb = cb_doc_parse(text, len, CB_DOC_WHOLE, &b, &eb);
	bool same = ra == rb && (ra == CB_OK) == want_ok;
	if (same && ra == CB_OK) {
		char *ta = cb_doc_write(&a), *tb = cb_doc_write(&b);
		same = strcmp(ta, tb) == 0;
		free(ta);
		free(tb);
	} else if (same) {
		same = strcmp(ea.text, eb.text) == 0;
	}
	tap_ok(same, "in pieces and whole alike: %s (%s)", what, ra == CB_OK ? "read" : ea.text);
	if (ra == CB_OK)
		cb_result_free(&a);
	if (rb == CB_OK)
		cb_result_free(&b);
}

static void both(const char *text, bool want_ok, const char *what)
{
	both_ways(text, strlen(text), want_ok, what);
}

/* "{... "measurements": [{... "x": [[[...]]] ...}]}" with LEVELS arrays under "x". */
static char *deep(unsigned levels)
{
	const char *head = HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,"
				"\"lanes\":[0,4,8,12],\"ns_per_access\":1,\"x\":";
	size_t hl = strlen(head);
	char *t = cb_xmalloc(hl + 2 * levels + 8);
	memcpy(t, head, hl);
	memset(t + hl, '[', levels);
	memset(t + hl + levels, ']', levels);
	strcpy(t + hl + 2 * levels, "}]}");
	return t;
}

static char *read_text(const char *rel, size_t *len)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", top ? top : ".", rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *t = cb_xmalloc(4 << 20);
	*len = fread(t, 1, (4 << 20) - 1, f);
	t[*len] = '\0';
	fclose(f);
	return t;
}

/* Issue 23.10 and 23.11: the piecewise reader reads what the whole-tree reader reads. */
static void pieces(void)
{
#define M1 "{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}"
	both(HEAD "\"measurements\":[" M1 "," M1 "]}", true, "a small document");
	both("{\"measurements\":[" M1 "],\"device\":{\"subgroup_size\":4},\"format_version\":1,"
	     "\"format\":\"clbanks\"}",
	     true, "measurements before the header");
	both(HEAD "\"measurement\\u0073\":[" M1 "]}", true, "a key written with an escape");
	both(" \r\n\t" HEAD " \"measurements\" :\n[ " M1 " ,\t" M1 " ]\r\n}\n ", true,
	     "whitespace around every piece");
	both("{\"format\":\"clbanks\",\"format_version\":1,\"device\":{\"subgroup_size\":4,"
	     "\"name\":\"a\\\"]}[{\\\\\"},\"measurements\":[" M1 "]}",
	     true, "a name holding quotes, brackets and backslashes");
	both(HEAD "\"measurements\":[" M1 "],\"measurements\":[" M1 "]}", false,
	     "measurements twice");
	both(HEAD "\"format\":\"clbanks\",\"measurements\":[" M1 "]}", false, "format twice");
	both(HEAD "\"measurements\":{},\"measurements\":[" M1 "]}", false,
	     "measurements twice, first an object");
	both(HEAD "\"measurements\":[" M1 "]} x", false, "text after the document");
	both(HEAD "\"measurements\":[" M1 ",]}", false, "a comma before the bracket");
	both(HEAD "\"measurements\":[" M1 " " M1 "]}", false, "no comma between measurements");
	both(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],"
		  "\"ns_per_access\":1,\"op\":\"load\"}]}",
	     false, "a key twice inside a measurement");
	both(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],"
		  "\"ns_per_access\":1e999}]}",
	     false, "a number too large inside a measurement");
	both(HEAD "\"measurements\":[" M1 "," M1 "]", false, "no closing brace");
	both(HEAD "\"measurements\":[" M1 ", {\"op\":\"lo", false, "cut inside a string");
	both(HEAD "\"measurements\":[{]}", false, "brackets that do not match");
	both("{}", false, "an empty object");
	both("[]", false, "an array");
	both("{1:2}", false, "a key that is not a string");
	both("{\"a\\u0000\":1}", false, "a key holding NUL");
	both(HEAD "\"measurements\":[" M1 "],\"run\":\"\\ud800\"}", false, "a lone surrogate");
	both(HEAD "\"measurements\":[]}", false, "no measurements");
	char *t = deep(2045);
	both(t, true, "nested to jansson's depth limit (2048)");
	free(t);
	t = deep(2046);
	both(t, false, "nested one level beyond it");
	free(t);
	size_t len = 0;
	char *h200 = read_text("results/nvidia/h200.json", &len);
	tap_ok(h200 != NULL, "results/nvidia/h200.json opens");
	if (h200) {
		both_ways(h200, len, true, "results/nvidia/h200.json");
		char *bom = cb_xmalloc(len + 4);
		memcpy(bom, "\xef\xbb\xbf", 3);
		memcpy(bom + 3, h200, len + 1);
		cb_result a, b;
		cb_error e;
		bool ok = cb_doc_parse(bom, len + 3, 0, &a, &e) == CB_OK;
		if (ok && cb_doc_parse(h200, len, 0, &b, &e) == CB_OK) {
			char *ta = cb_doc_write(&a), *tb = cb_doc_write(&b);
			ok = strcmp(ta, tb) == 0;
			free(ta);
			free(tb);
			cb_result_free(&b);
		}
		if (ok)
			cb_result_free(&a);
		tap_ok(ok, "a UTF-8 byte order mark before the document is ignored");
		both_ways(bom, len + 3, true, "the same with a byte order mark");
		free(bom);
		bad("\xef\xbb\xbf\xef\xbb\xbf{}", "near '\xef\xbb\xbf'",
		    "two byte order marks: the second is no JSON");
		free(h200);
	}
#undef M1
}

/* Issue 34: format 3 names the fit's per-step times t0_ns_per_access and pass_ns_per_access;
 * formats 1 and 2 named them t0_ns and cost_per_pass_ns: a model reads the same from both. */
static void per_elem_names(void)
{
	/* clang-format off */
	static const char *const names[][3] = {
		{ "1", "t0_ns", "cost_per_pass_ns" }, { "3", "t0_ns_per_access", "pass_ns_per_access" },
	};
	/* clang-format on */
	for (int k = 0; k < 2; k++) {
		char text[1024];
		snprintf(
			text, sizeof text,
			"{\"format\":\"clbanks\",\"format_version\":%s,\"device\":"
			"{\"subgroup_size\":4},\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,"
			"\"lanes\":[0,4,8,12],\"ns_per_access\":1}],\"inference\":{\"status\":\"banked\","
			"\"banks\":4,\"bank_width_bytes\":4,\"lanes_per_pass\":{\"4\":4},\"per_elem\":"
			"{\"4\":{\"%s\":2.5,\"%s\":7.25}}}}",
			names[k][0], names[k][1], names[k][2]);
		cb_result r;
		cb_error err;
		cb_error_clear(&err);
		bool ok = cb_doc_parse(text, strlen(text), 0, &r, &err) == CB_OK;
		int e = cb_elem_index(4);
		tap_ok(ok && r.recorded[CB_OP_LOAD].has_time[e] &&
			       r.recorded[CB_OP_LOAD].t0_ns[e] == 2.5 &&
			       r.recorded[CB_OP_LOAD].cost_ns[e] == 7.25,
		       "format %s: per_elem's %s and %s read", names[k][0], names[k][1],
		       names[k][2]);
		if (ok)
			cb_result_free(&r);
	}
}

/* Issue 38: a documented model (provenance "documented") has no measurements and its
 * sources; anything else is refused, and its lane groups must group every lane. */
static void documented(void)
{
#define DOCD HEAD2 "\"provenance\":\"documented\","
#define FACTS                                                                     \
	"\"documentation\":{\"title\":\"T\",\"facts\":[{\"fact\":\"load.banks\"," \
	"\"basis\":\"stated\",\"source\":\"S\"}]},"
#define LOADS(lg)                                                                  \
	"\"inference\":{\"status\":\"banked\",\"banks\":4,\"bank_width_bytes\":4," \
	"\"broadcast\":true,\"lanes_per_pass\":{\"4\":2}" lg "}"
	both(DOCD FACTS LOADS("") "}", true, "a documented model without measurements");
	both(DOCD FACTS "\"measurements\":[]," LOADS("") "}", true, "... with an empty array");
	bad(DOCD FACTS "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],"
		       "\"ns_per_access\":1}]," LOADS("") "}",
	    "has no measurements", "a documented model with a measurement");
	bad(DOCD LOADS("") "}", "needs \"documentation\"", "a documented model without sources");
	bad(DOCD FACTS "\"measurements\":[]}", "needs its loads' model",
	    "a documented model without a model");
	bad(DOCD
	    "\"documentation\":{\"title\":\"T\",\"facts\":[{\"fact\":\"x\",\"basis\":\"guessed\","
	    "\"source\":\"S\"}]}," LOADS("") "}",
	    "not stated, inferred", "a fact of unknown basis");
	bad(DOCD
	    "\"documentation\":{\"title\":\"T\",\"facts\":[{\"fact\":\"x\",\"basis\":\"stated\"}]}," LOADS(
		    "") "}",
	    "facts[0].source", "a fact without its source");
	bad(HEAD2 "\"provenance\":7}", "\"provenance\" is an integer", "provenance as a number");
	const char *good = DOCD FACTS LOADS(",\"lane_groups\":{\"4\":[[0,3],[1,2]]}") "}";
	const char *twice = DOCD FACTS LOADS(",\"lane_groups\":{\"4\":[[0,3],[3,2]]}") "}";
	cb_result r;
	cb_error err;
	bool ok = cb_doc_parse(good, strlen(good), 0, &r, &err) == CB_OK;
	tap_ok(ok && r.documented && r.recorded[0].banked && r.recorded[0].norder[2] == 4 &&
		       r.recorded[0].order[2][1] == 3 && r.recorded[0].order[2][2] == 1,
	       "lane_groups read as the lanes' order");
	if (ok)
		cb_result_free(&r);
	ok = cb_doc_parse(twice, strlen(twice), 0, &r, &err) == CB_OK;
	tap_ok(ok && !r.recorded[0].banked && strstr(r.recorded[0].problem, "lane_groups"),
	       "lane_groups with a lane twice: the model is unusable, and says why");
	if (ok)
		cb_result_free(&r);
#undef DOCD
#undef FACTS
#undef LOADS
}

/* The error record every message goes through: a message may repeat the record's own text (it
 * is formatted before the record is cleared), and one over its size keeps both ends. */
static void error_record(void)
{
	cb_error err;
	cb_error_set(&err, CB_ERR_INPUT, "measurements[3]: %s", "op is not a string");
	cb_error_set(&err, CB_ERR_INPUT, "in FILE: %s", err.text);
	tap_ok(strcmp(err.text, "in FILE: measurements[3]: op is not a string") == 0,
	       "a message may repeat the error's own text: \"%s\"", err.text);
	size_t n = 3 * sizeof err.text;
	char *value = cb_xmalloc(n + 1);
	memset(value, 'x', n);
	value[n] = '\0';
	cb_error_call(&err, CB_ERR_INPUT, "read", 5, "'%s' is %s", value, "not an op");
	size_t len = strlen(err.text);
	tap_ok(len < sizeof err.text && strncmp(err.text, "'xxx", 4) == 0 &&
		       strstr(err.text, " [...] ") &&
		       strcmp(err.text + len - 14, "' is not an op") == 0 && err.code == 5 &&
		       strcmp(err.call, "read") == 0,
	       "a long message keeps both ends, and the call (%zu bytes)", len);
	free(value);
}

int main(void)
{
	error_record();
	pieces();
	documented();
	bad("[]", "expected an object", "top level array");
	bad("{\"format\":\"other\"}", "not a clbanks result", "wrong format");
	bad("{\"format\":\"clbanks\",\"format_version\":5}", "unsupported format_version 5",
	    "future version");
	bad("{\"format\":\"clbanks\",\"format_version\":0}", "reads versions 1 to 4", "version 0");
	per_elem_names();
	bad("{\"format\":\"clbanks\",\"format_version\":\"1\"}", "format_version",
	    "version as a string");
	bad("{\"format\":\"clbanks\",\"format_version\":1}", "\"device\"", "no device");
	bad("{\"format\":\"clbanks\",\"format_version\":1,\"device\":{\"subgroup_size\":0}}",
	    "subgroup_size", "zero sub-group");
	bad(HEAD "\"measurements\":[]}", "empty", "no measurements");
	bad(HEAD "\"measurements\":{}}", "not an array", "measurements as object");
	bad(HEAD "\"measurements\":[1]}", "measurements[0] is an integer", "measurement as number");
	bad(HEAD
	    "\"measurements\":[{\"op\":\"store\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}]}",
	    "needs format_version 2", "a store in format 1");
	bad(HEAD2
	    "\"measurements\":[{\"op\":\"copy\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}]}",
	    "\"copy\" is not supported", "an unknown op");
	bad(HEAD2
	    "\"measurements\":[{\"op\":\"atomic\",\"elem_bytes\":2,\"lanes\":[0,2,4,6],\"ns_per_access\":1}]}",
	    "atomic of 2-byte elements is not a measurement", "a 2-byte atomic");
	bad(HEAD2
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}],"
	    "\"kernel_checks\":[{\"variant\":\"naive\"}]}",
	    "needs \"kernel\" and \"variant\"", "a kernel check without its kernel");
	bad(HEAD2
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1}],"
	    "\"kernel_checks\":[{\"kernel\":\"transpose\",\"variant\":\"naive\",\"ci95\":[1]}]}",
	    "ci95 must be an array of two numbers", "a kernel check's short CI");
	bad(HEAD
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":3,\"lanes\":[0,4,8,12],\"ns_per_access\":1}]}",
	    "elem_bytes must be", "3-byte elements");
	bad(HEAD
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8],\"ns_per_access\":1}]}",
	    "has 3 offsets; expected 4", "short lane table");
	bad(HEAD
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,-4],\"ns_per_access\":1}]}",
	    "outside local memory", "negative offset");
	bad("{\"format\":\"clbanks\",\"format_version\":1,\"device\":{\"subgroup_size\":4,\"local_mem_bytes\":4096},"
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,4096],\"ns_per_access\":1}]}",
	    "outside local memory", "offset beyond local memory");
	bad(HEAD
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,\"x\"],\"ns_per_access\":1}]}",
	    "lanes[3] is a string", "lane as string");
	bad(HEAD
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":0}]}",
	    "not a positive time", "zero time");
	bad(HEAD
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":-2.5}]}",
	    "not a positive time", "negative time");
	bad(HEAD
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":\"NaN\"}]}",
	    "expected a number", "NaN as a string");
	bad(HEAD "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12]}]}",
	    "no ns_per_access", "untimed measurement where times are needed");
	bad(HEAD
	    "\"measurements\":[{\"op\":\"load\",\"elem_bytes\":4,\"lanes\":[0,4,8,12],\"ns_per_access\":1,\"kind\":7}]}",
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
		       strstr(err.text, "a plan"),
	       "a plan is refused where times are needed: %s", err.text);
	const char *kinds[] = { "stride",         "two_address", "lane_pair",
				"pair_reference", "pool",        "random" };
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
