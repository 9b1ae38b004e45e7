/* SPDX-License-Identifier: MIT */
/*
 * clbanks lint's output on the kernels of tests/lint: the text renderer (compiler-style
 * warnings, the array's fix and its edits, lines under 100 columns, names escaped, accesses
 * of one place numbered), the JSON document's keys and values, file names that open from the
 * working directory, the __local memory warning, every run's coverage against clang's
 * textual IR, one fix per array judged on all of its accesses, and the fix in the kernel's
 * own expressions (the reference an access's column points at, the substitution, the
 * engine's edits). Skips when clbanks was built without LLVM or clang cannot be run.
 */
#include "config.h"
#include "lint_harness.h"
#include "doc/doc_lint.h"
#include "lint/lint.h"
#include "lint/lint_edit.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool keys_are(json_t *o, const char *const *keys, size_t n)
{
	if (!json_is_object(o) || json_object_size(o) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!json_object_get(o, keys[i]))
			return false;
	return true;
}

static void json_transpose(const cb_lint_result *r)
{
	static const char *const top[] = { "accesses", "format_version", "kernel",
					   "kernels",  "model",          "work_group" };
	static const char *const acc[] = {
		"column",   "conflict_ways", "elem_bytes",  "excess_passes", "file",
		"fix_note", "fixed_passes",  "iterations",  "line",          "min_passes",
		"object",   "offsets",       "op",          "passes_max",    "reason",
		"status",   "suppressed",    "total_passes"
	};
	char *s = cb_lint_to_json(r, 1);
	json_error_t e;
	json_t *doc = s ? json_loads(s, 0, &e) : NULL;
	json_t *a = json_array_get(json_object_get(doc, "accesses"), 1);
	json_t *k0 = json_array_get(json_object_get(doc, "kernels"), 0);
	json_t *fix = json_object_get(json_array_get(json_object_get(k0, "objects"), 0), "fix");
	tap_ok(doc && keys_are(doc, top, 6) && keys_are(a, acc, 18) &&
		       json_integer_value(json_object_get(doc, "format_version")) == 2 &&
		       strstr(s, "\"accesses\"") < strstr(s, "\"kernel\"") &&
		       strstr(s, "\"kernel\"") < strstr(s, "\"work_group\""),
	       "JSON: exactly the keys of the issue, sorted");
	tap_ok(json_integer_value(json_object_get(a, "passes_max")) == 32 &&
		       json_integer_value(json_object_get(a, "min_passes")) == 1 &&
		       json_integer_value(json_array_get(json_object_get(a, "offsets"), 1)) ==
			       128 &&
		       !strcmp(json_string_value(json_object_get(a, "object")),
			       "float tile[32][32]") &&
		       !strcmp(json_string_value(json_object_get(a, "status")), "predicted") &&
		       json_array_size(json_object_get(a, "iterations")) == 1 &&
		       json_integer_value(json_object_get(a, "fixed_passes")) == 1 &&
		       json_integer_value(json_object_get(a, "conflict_ways")) == 32 &&
		       json_integer_value(json_object_get(a, "excess_passes")) == 992 &&
		       !strcmp(json_string_value(json_object_get(fix, "text")),
			       "tile[r][c ^ (r & 31)]") &&
		       json_integer_value(json_object_get(fix, "total_passes_before")) == 1056 &&
		       json_integer_value(json_object_get(fix, "total_passes_after")) == 64 &&
		       json_array_size(json_object_get(fix, "accesses_after")) == 2 &&
		       !strcmp(json_string_value(json_object_get(
				       json_object_get(fix, "alternative"), "text")),
			       "float tile[32][32+1]") &&
		       json_integer_value(json_object_get(json_object_get(fix, "alternative"),
							  "bytes")) == 128,
	       "JSON: passes, offsets, object and the array's fix (objects[].fix)");
	json_t *m = json_object_get(doc, "model");
	tap_ok(json_integer_value(json_object_get(m, "banks")) == 32 &&
		       json_integer_value(json_object_get(m, "subgroup")) == 32 &&
		       json_integer_value(
			       json_object_get(json_object_get(m, "lanes_per_pass"), "8")) == 16 &&
		       json_integer_value(json_array_get(json_object_get(doc, "work_group"), 1)) ==
			       32,
	       "JSON: the model and the work-group");
	json_decref(doc);
	free(s);
}

static void json_unknown(const cb_lint_result *r)
{
	char *s = cb_lint_to_json(r, 1);
	json_t *doc = s ? json_loads(s, 0, NULL) : NULL, *acc = json_object_get(doc, "accesses");
	json_t *unknown = NULL, *v;
	size_t i;
	json_array_foreach(acc, i, v)
	{
		const char *st = json_string_value(json_object_get(v, "status"));
		if (st && !strcmp(st, "unknown") && !unknown)
			unknown = v;
	}
	json_t *lane0 = json_array_get(json_object_get(unknown, "offsets"), 0);
	tap_ok(unknown && json_is_null(json_object_get(unknown, "passes_max")) &&
		       json_is_array(lane0) && json_integer_value(json_array_get(lane0, 1)) == 252,
	       "JSON: unknown offsets as [lo, hi], null passes");
	json_decref(doc);
	free(s);
}

/* branches.cl chain: one access not executed; the coverage by status and reason. */
static void json_coverage(const cb_lint_result *r)
{
	char *s = cb_lint_to_json(r, 1);
	json_t *doc = s ? json_loads(s, 0, NULL) : NULL, *acc = json_object_get(doc, "accesses");
	json_t *skipped = NULL, *v;
	size_t i;
	json_array_foreach(acc, i, v)
	{
		const char *st = json_string_value(json_object_get(v, "status"));
		if (st && !strcmp(st, "not_executed"))
			skipped = v;
	}
	json_t *cov = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0),
				      "coverage");
	tap_ok(skipped && json_is_null(json_object_get(skipped, "passes_max")) &&
		       !strcmp(json_string_value(json_object_get(skipped, "object")),
			       "float tile[32][32]") &&
		       json_integer_value(json_object_get(cov, "ir")) == 17 &&
		       json_integer_value(json_object_get(cov, "reported")) == 17 &&
		       json_integer_value(json_object_get(json_object_get(cov, "not_executed"),
							  "branch_side")) == 1,
	       "JSON: not_executed with null passes; the coverage by status and reason");
	json_decref(doc);
	free(s);
}

/* A kernel file whose name holds an escape sequence must not reach a terminal raw. */
static void escapes(void)
{
	char dir[] = "tests/tmp.lintXXXXXX", from[4096], to[4200], line[512];
	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp");
		return;
	}
	snprintf(from, sizeof from, "%s/tests/lint/rows16.cl", srcdir);
	snprintf(to, sizeof to, "%s/esc\x1b[31m.cl", dir);
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	while (in && out && fgets(line, sizeof line, in))
		fputs(line, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	cb_lint_request req;
	cb_lint_result r;
	cb_error err;
	memset(&req, 0, sizeof req);
	req.kernel_path = to;
	req.local[0] = req.local[1] = 16;
	req.pricer = &h200.pricer;
	bool ok = cb_lint_run(&req, &r, &err) == CB_OK;
	char *t = ok ? text_of(&r) : NULL;
	tap_ok(t && strstr(t, "esc\\x1b[31m.cl:9:20") && !strchr(t, 0x1b),
	       "text: control characters in names are escaped (\\x1b)");
	free(t);
	cb_lint_result_free(&r);
	unlink(to);
	rmdir(dir);
}

/* One fix per array, judged on all of its accesses (tests/lint/clash.cl, 32 x 32 groups: a
 * sub-group is tx = 0..31 at one ty). */
static void test_array_fixes(void)
{
	cb_lint_result r;
	job clash = { "clash.cl", "clash", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&clash, &r)) {
		/* Row write tile[ty][tx]: 1 pass; column read tile[tx][ty]: 32; diagonal
		 * tile[tx][tx], word 33 tx: 1. Rows of 33 + p: the column read wants p odd, the
		 * diagonal 33 + p odd, so no padding serves both; p = 1 leaves the diagonal on
		 * banks 2 tx (2 passes): 1 + 1 + 2 = 4 a sub-group, 128 in all. The swizzle
		 * c ^ ((r >> 1) & 15) reads the column on banks ty ^ (tx >> 1) (2 passes) and the
		 * diagonal on the Gray code tx ^ (tx >> 1) (1 pass): also 4, with no memory, so it
		 * is the fix; the padding is the alternative. Before: 32 x (1 + 32 + 1) = 1088. */
		const cb_lint_access *col = find(&r, 9, 14, CB_OP_LOAD);
		const cb_lint_access *diag = find(&r, 10, 15, CB_OP_LOAD);
		const cb_lint_access *row = find(&r, 7, 15, CB_OP_STORE);
		const cb_lint_fix *f = col && col->object >= 0 ? &r.objects[col->object].fix : NULL;
		tap_ok(f && f->found && f->total_before == 1088 && f->best.total_passes == 128 &&
			       f->best.swizzle && f->best.bits == 4 && f->best.shift == 1 &&
			       f->alt_found && !f->alt.swizzle && f->alt.pad == 1 &&
			       f->alt.bytes == 128 && f->alt.total_passes == 128 && f->judged == 3,
		       "clash: one fix for the array (c ^ ((r >> 1) & 15), or rows of 33 as good)");
		tap_ok(col && diag && row && col->fixed_passes == 2 && col->alt_passes == 1 &&
			       diag->fixed && diag->fixed_passes == 1 && diag->alt_passes == 2 &&
			       row->fixed_passes == 1 && row->alt_passes == 1 && !diag->conflict,
		       "clash: each access's passes under the fix (the diagonal becomes 2-way padded)");
		cb_lint_result_free(&r);
	}
	job flat = { "clash.cl", "flat", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&flat, &r)) {
		/* s[tx * 32 + ty] of a 1-D float s[1024]: judged as rows of W = 32 (and of every
		 * other power of two dividing 1024); rows of 32 swizzled with r & 31, or padded by
		 * one, take every access to 1 pass: 1056 -> 64. Its line accepts the conflict. */
		const cb_lint_access *a = find(&r, 20, 22, CB_OP_LOAD);
		const cb_lint_fix *f = a && a->object >= 0 ? &r.objects[a->object].fix : NULL;
		char buf[256] = "";
		if (f && f->alt_found)
			cb_lint_fix_text(&r.objects[a->object], f, &f->alt, buf, sizeof buf);
		tap_ok(f && f->found && f->width == 32 && f->rows == 32 && f->best.swizzle &&
			       f->best.bits == 5 && f->best.shift == 0 &&
			       f->best.total_passes == 64 && f->alt_found && f->alt.pad == 1 &&
			       f->alt.bytes == 128 &&
			       !strcmp(buf, "float s[32*(32+1)], s[r * (32+1) + c]") &&
			       a->fixed_passes == 1,
		       "flat: a 1-D tile indexed r * 32 + c is padded or swizzled by its rows (%s)",
		       buf);
		tap_ok(a && a->suppressed && a->conflict && !cb_lint_has_conflict(&r),
		       "flat: '" CB_LINT_SUPPRESS "' on the line accepts the conflict");
		cb_lint_result_free(&r);
	}
}

static void test_renderers(void)
{
	cb_lint_result r;
	job naive = { "transpose.cl", "naive", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&naive, &r)) {
		char *t = text_of(&r);
		tap_ok(t &&
			       strstr(t,
				      ":22:26: warning: load float tile[32][32]: 32 passes, 32-way "
				      "conflict (minimum 1)\n") &&
			       strstr(t,
				      ":22:26: note: fix: tile[tx][(ty + j) ^ (tx & 31)] (1 pass here, no "
				      "memory)") &&
			       strstr(t,
				      ":22:26: note: or: line 13: tile[TILE][TILE + 1] (1 pass here, "
				      "+128 B)") &&
			       strstr(t,
				      "fix for float tile[32][32]: tile[r][c ^ (r & 31)]: passes in all "
				      "1056 -> 64") &&
			       strstr(t,
				      "  edit line 17: tile[ty + j][tx] -> tile[ty + j][tx ^ ((ty + j) & "
				      "31)]\n      line 22: tile[tx][ty + j] -> tile[tx][(ty + j) ^ (tx & 31)]\n") &&
			       strstr(t,
				      "passes in all: 1056, 992 beyond the conflict-free minimum; most: "
				      "line 22 (992)"),
		       "text: a compiler-style warning, the array's fix and its alternative in the kernel's "
		       "words, every access's edit, totals");
		tap_ok(t && narrow(t), "text: lines under 100 columns");
		free(t);
		json_transpose(&r);
		cb_lint_result_free(&r);
	}
	job c = { "histogram.cl", "clipped", 256, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&c, &r)) {
		char *t = text_of(&r);
		tap_ok(t && strstr(t, ": unknown (not priced)\n  offsets depend on memory contents") &&
			       strstr(t, "\n  assumed: under the undecidable branch at line 26") &&
			       narrow(t),
		       "text: unknown and assumed accesses say why");
		free(t);
		json_unknown(&r);
		cb_lint_result_free(&r);
	}
	job chain = { "branches.cl", "chain", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&chain, &r)) {
		char *t = text_of(&r);
		tap_ok(t &&
			       strstr(t,
				      ": not executed\n  on the side of the undecidable branch at line 93 "
				      "that no run of the work-group took (16 runs)") &&
			       strstr(t,
				      "\n  not executed: side of an undecidable branch not simulated 1\n") &&
			       narrow(t),
		       "text: a not executed access says why, and the coverage counts it");
		free(t);
		json_coverage(&r);
		cb_lint_result_free(&r);
	}
	escapes();
}

/* Issue 23 item 8: file names open from the working directory. Kernel T/A/k.cl given by its
 * absolute path, run from T/B: clang names it "A/k.cl" in its debug-info directory T. */
static bool copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
	char buf[4096];
	size_t n;
	bool ok = in && out;
	while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = false;
	return ok;
}

static void test_paths(void)
{
	char tmp[] = "/tmp/cb-lint-XXXXXX", a[64], b[64], k[80], src[4096], old[4096];
	snprintf(src, sizeof src, "%s/tests/lint/transpose.cl", srcdir);
	if (!mkdtemp(tmp) || !getcwd(old, sizeof old)) {
		tap_ok(false, "paths: a scratch directory");
		return;
	}
	snprintf(a, sizeof a, "%s/A", tmp);
	snprintf(b, sizeof b, "%s/B", tmp);
	snprintf(k, sizeof k, "%s/k.cl", a);
	bool ready = mkdir(a, 0700) == 0 && mkdir(b, 0700) == 0 && copy_file(src, k) &&
		     chdir(b) == 0;
	cb_lint_request req;
	memset(&req, 0, sizeof req);
	req.kernel_path = k;
	req.kernel_name = "naive";
	req.local[0] = req.local[1] = 32;
	req.pricer = &h200.pricer;
	cb_lint_result r;
	cb_error err;
	bool ok = ready && cb_lint_run(&req, &r, &err) == CB_OK && r.naccesses > 0;
	struct stat st;
	for (size_t i = 0; ok && i < r.naccesses; i++)
		if (stat(r.accesses[i].file, &st) != 0) {
			tap_diag("%s does not exist from %s", r.accesses[i].file, b);
			ok = false;
		}
	tap_ok(ok,
	       "lint's file names open from the working directory (kernel in a sibling folder)");
	if (ready)
		cb_lint_result_free(&r);
	if (chdir(old) != 0)
		tap_diag("cannot return to %s", old);
	unlink(k);
	rmdir(a);
	rmdir(b);
	rmdir(tmp);
}

/* Issue 31, point 9: the stores of one SWAP macro share its line and column; they are
 * numbered in the order they run, so the 32-way conflict is charged to the second store
 * (b = max(t, b), s[l * 32]), not the first (s[l]). */
static void test_macro_places(void)
{
	cb_lint_result r;
	job m = { "median.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (!lint(&m, &r))
		return;
	const cb_lint_access *st[2] = { NULL, NULL };
	for (size_t i = 0; i < r.naccesses; i++) {
		const cb_lint_access *a = &r.accesses[i];
		if (a->line == 14 && a->op == CB_OP_STORE && a->nsame == 2 && a->nth >= 1 &&
		    a->nth <= 2)
			st[a->nth - 1] = a;
	}
	tap_ok(st[0] && st[1] && st[0]->passes_max == 1 && !st[0]->conflict &&
		       st[1]->passes_max == 32 && st[1]->conflict && lanes_are(st[1], 32, 128, 0),
	       "SWAP(s[l], s[l * 32]): store 1 of 2 conflict-free, store 2 of 2 32-way");
	char *t = text_of(&r);
	tap_ok(t && strstr(t, ":14:2: warning: store float s[1024] (2 of 2 here): 32 passes"),
	       "text: the conflicting store is named 2 of 2 at the macro's place");
	tap_ok(t && strstr(t, "line 14 (store 2 of 2): 32 -> 1") &&
		       strstr(t, "line 14 (store 1 of 2): 1 -> 1") &&
		       strstr(t, "; most: line 14 (load ") &&
		       strstr(t, ", line 14 (store 2 of 2) (31)"),
	       "text: the fix's accesses and the costliest ones numbered as the warnings are");
	free(t);
	cb_lint_result_free(&r);
}

/* The IR's __local operations counted from clang's textual IR, apart from lint: loads and
 * stores whose pointer operand is in address space 3, atomics on one, each address-space-3
 * pointer of llvm.mem* (named in the intrinsic: .p3), and calls of declared functions that
 * get one. Typed (LLVM 14) and opaque pointers both. */
static bool as3_field(const char *f)
{
	while (*f == ' ')
		f++;
	if (!strncmp(f, "ptr addrspace(3) ", 17))
		return true;
	/* typed: "float addrspace(3)* %p", the type before the operand's name */
	const char *t = strstr(f, "addrspace(3)* ");
	return t && !memchr(f, '%', (size_t)(t - f)) && !memchr(f, '@', (size_t)(t - f)) &&
	       !memchr(f, ',', (size_t)(t - f));
}

static unsigned text_ops(const char *line, char **declared, size_t ndeclared)
{
	const char *p;
	if ((p = strstr(line, " load ")) && (p = strchr(p, ',')))
		return as3_field(p + 1);
	if ((p = strstr(line, "store ")) == line + strspn(line, " ") && (p = strchr(p, ',')))
		return as3_field(p + 1);
	if ((p = strstr(line, " atomicrmw ")) || (p = strstr(line, " cmpxchg "))) {
		p = strchr(p + 2, ' ');
		if (p && strncmp(p, " volatile", 9) == 0)
			p += 9;
		if (p && strstr(line, " atomicrmw "))
			p = strchr(p + 1, ' '); /* the operation */
		return p && as3_field(p);
	}
	if (!(p = strstr(line, " @")) || !strstr(line, "call "))
		return 0;
	if (!strncmp(p, " @llvm.mem", 10)) {
		const char *d = strchr(p + 10, '.');
		unsigned n = 0;
		for (int k = 0; d && k < (strncmp(p, " @llvm.memset", 13) ? 2 : 1); k++) {
			n += !strncmp(d, ".p3", 3);
			d = strchr(d + 1, '.');
		}
		return n;
	}
	const char *open = strchr(p, '(');
	for (size_t k = 0; open && k < ndeclared; k++)
		if ((size_t)(open - p - 2) == strlen(declared[k]) &&
		    !strncmp(p + 2, declared[k], open - p - 2))
			return strstr(open, "addrspace(3)") != NULL && strncmp(p, " @llvm.", 7);
	return 0;
}

static long ir_text_count(const char *file)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd,
		 "'%s' -x cl -cl-std=CL1.2 -target spir64 -O1 -Xclang "
		 "-disable-llvm-passes -D__OPENCL_VERSION__=120 -emit-llvm -S -o - "
		 "'%s/tests/lint/%s' 2>/dev/null",
		 CB_CLANG, srcdir, file);
	FILE *f = popen(cmd, "r");
	if (!f)
		return -1;
	char line[8192], *declared[256];
	size_t nd = 0;
	char **lines = NULL;
	size_t n = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "declare ", 8) && nd < 256) {
			const char *at = strchr(line, '@'), *open = at ? strchr(at, '(') : NULL;
			if (open)
				declared[nd++] = strndup(at + 1, (size_t)(open - at - 1));
		}
		lines = realloc(lines, (n + 1) * sizeof *lines);
		lines[n++] = strdup(line);
	}
	long count = pclose(f) == 0 ? 0 : -1;
	for (size_t k = 0; k < n; k++) {
		if (count >= 0)
			count += text_ops(lines[k], declared, nd);
		free(lines[k]);
	}
	for (size_t k = 0; k < nd; k++)
		free(declared[k]);
	free(lines);
	return count;
}

/* Every run's coverage on a corpus of the test kernels: the accesses lint reports are the
 * IR's __local operations, by lint's own count and by the textual IR's, and the statuses add
 * up (files whose helpers each serve one kernel, so the file's count is its kernels' sum). */
static void test_coverage(void)
{
	/* clang-format off */
	static const struct { const char *file; unsigned x, y; } corpus[] = {
		{ "async.cl", 64, 0 }, { "bitonic_inline.cl", 32, 0 }, { "branches.cl", 32, 32 },
		{ "clash.cl", 32, 32 }, { "gemm_inline.cl", 8, 8 }, { "halo.cl", 16, 16 },
		{ "helper.cl", 32, 0 }, { "histogram.cl", 256, 0 }, { "reduce.cl", 256, 0 },
		{ "scan_inline.cl", 64, 0 }, { "structs.cl", 32, 0 }, { "ternary.cl", 32, 0 },
		{ "transpose.cl", 32, 32 }, { "unseen.cl", 32, 0 }, { "unseen_index.cl", 32, 0 },
		{ "vec_inline.cl", 16, 0 }, { "warphist.cl", 64, 0 }, { "wide.cl", 16, 16 },
		{ "bins.cl", 64, 0 }, { "predef.cl", 32, 32 }, { "params.cl", 32, 32 },
		{ "rows36.cl", 32, 32 }, { "vectors.cl", 32, 0 }, { "median.cl", 32, 0 },
		{ "floatidx.cl", 64, 0 },
	};
	/* clang-format on */
	for (size_t c = 0; c < sizeof corpus / sizeof corpus[0]; c++) {
		char path[4096], **names = NULL;
		size_t n = 0;
		snprintf(path, sizeof path, "%s/tests/lint/%s", srcdir, corpus[c].file);
		cb_lint_request req;
		memset(&req, 0, sizeof req);
		req.kernel_path = path;
		cb_error err;
		bool ok = cb_lint_kernels(&req, &names, &n, &err) == CB_OK && n > 0;
		size_t ir = 0, reported = 0, statuses = 0, accesses = 0;
		for (size_t k = 0; ok && k < n; k++) {
			cb_lint_result r;
			req.kernel_name = names[k];
			req.local[0] = corpus[c].x;
			req.local[1] = corpus[c].y;
			req.pricer = &h200.pricer;
			ok = cb_lint_run(&req, &r, &err) == CB_OK;
			if (!ok)
				tap_diag("%s %s: %s", corpus[c].file, names[k], err.text);
			ir += r.coverage.ir;
			reported += r.coverage.reported + r.coverage.generic;
			accesses += r.naccesses;
			for (int s = 0; s < 4; s++)
				statuses += r.coverage.status[s];
			cb_lint_result_free(&r);
		}
		cb_lint_names_free(names, n);
		long text = ir_text_count(corpus[c].file);
		tap_ok(ok && ir > 0 && reported == ir && (long)ir == text && statuses == accesses,
		       "coverage of %s: %zu __local operations in the IR (textual IR: %ld), %zu "
		       "reported",
		       corpus[c].file, ir, text, reported);
	}
}

/* Issue 23 item 11: __local use beyond the model's device (48 KiB here): 49216 B of arrays
 * plus a 128-byte argument is 49344 B, a warning that names both sizes; without the
 * argument's size it says so; the transpose (4 KiB) and a model without the size give none. */
static void test_local_memory(void)
{
	cb_lint_result r;
	h200.local_mem_bytes = 49152;
	job t = { "toolarge.cl", NULL, 32, 0, { NULL }, { "dyn=128" }, NULL, 0 };
	if (lint(&t, &r)) {
		tap_ok(r.local_bytes == 49344 && r.local_mem_bytes == 49152 && !r.local_unsized &&
			       strstr(r.warning,
				      "uses 49344 B of __local memory, more than the 49152 B"),
		       "toolarge: 49344 B of __local memory against 49152 B: a warning (%s)",
		       r.warning);
		char *s = cb_lint_to_json(&r, 1);
		json_error_t e;
		json_t *doc = s ? json_loads(s, 0, &e) : NULL;
		json_t *w = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0),
					    "warnings");
		tap_ok(json_array_size(w) == 1 &&
			       strstr(json_string_value(json_array_get(w, 0)), "49344 B"),
		       "toolarge: the warning in JSON (kernels[].warnings)");
		json_decref(doc);
		free(s);
		cb_lint_result_free(&r);
	}
	job u = { "toolarge.cl", NULL, 32, 0, { NULL }, { NULL }, NULL, 0 };
	if (lint(&u, &r)) {
		tap_ok(r.local_bytes == 49216 && r.local_unsized == 1 &&
			       strstr(r.warning,
				      "49216 B of __local memory (and arguments of unknown size)"),
		       "toolarge without the buffer's size: 49216 B and an argument of unknown size");
		cb_lint_result_free(&r);
	}
	job n = { "transpose.cl", "naive", 32, 32, { NULL }, { NULL }, NULL, 0 };
	if (lint(&n, &r)) {
		tap_ok(r.local_bytes == 4096 && !r.warning[0], "transpose: 4096 B fit, no warning");
		cb_lint_result_free(&r);
	}
	h200.local_mem_bytes = 0;
	if (lint(&t, &r)) {
		tap_ok(r.local_bytes == 49344 && !r.warning[0],
		       "a model without the size: no warning");
		cb_lint_result_free(&r);
	}
}

/* Issue 34, point 4: the fix in the kernel's own expressions. The reference an access's
 * column points at (a load's name, a store's '=', an atomic's call), and the substitution. */
static void test_source_refs(void)
{
	static const char load[] = "\t\tout[(y + j) * n + x] = tile[tx][ty + j];";
	static const char store[] = "\t\ttile[ty + j][tx] = in[(y + j) * n + x];";
	static const char two[] = "\ttile[a][b] = tile[c][d];";
	static const char deep[] = "\tq = tile[i][j][k];";
	cb_src_ref r;
	bool ok = cb_src_find_ref(load, strlen(load), 26, "tile", 2, &r);
	tap_ok(ok && r.start == 25 && r.end == 41 && r.sub_start[1] == 34 && r.sub_end[1] == 40,
	       "a load's column is its name: tile[tx][ty + j]");
	ok = cb_src_find_ref(store, strlen(store), 20, "tile", 2, &r);
	tap_ok(ok && r.start == 2 && r.end == 18,
	       "a store's column is its '=': the reference before it");
	ok = cb_src_find_ref(two, strlen(two), 13, "tile", 2, &r);
	tap_ok(ok && r.start == 1, "two references on a line: the store is the one before '='");
	ok = cb_src_find_ref(two, strlen(two), 15, "tile", 2, &r);
	tap_ok(ok && r.start == 14, "two references on a line: the load is the one at its column");
	tap_ok(!cb_src_find_ref(two, strlen(two), 5, "tile", 2, &r),
	       "two references and a column at neither: no edit rather than a guess");
	tap_ok(!cb_src_find_ref(deep, strlen(deep), 6, "tile", 2, &r),
	       "a third subscript is another element: no edit");
	tap_ok(!cb_src_find_ref(load, strlen(load), 26, "til", 2, &r),
	       "a name is a whole token (til is not tile)");
	char out[128];
	cb_src_substitute("c ^ (r & 31)", "ty + j", "tx", out, sizeof out);
	tap_ok(!strcmp(out, "tx ^ ((ty + j) & 31)"), "substituted: %s", out);
	cb_src_substitute("c ^ ((r >> 1) & 15)", "get_local_id(1)", "(a+b)", out, sizeof out);
	tap_ok(!strcmp(out, "(a+b) ^ ((get_local_id(1) >> 1) & 15)"),
	       "a call and a parenthesized operand stay as they are: %s", out);
	cb_src_substitute("(c ^ (r & 1)) < 3 ? c ^ (r & 1) : c", "row", "x * 2", out, sizeof out);
	tap_ok(!strcmp(out, "((x * 2) ^ (row & 1)) < 3 ? (x * 2) ^ (row & 1) : (x * 2)"),
	       "every c and r, whole tokens only: %s", out);
	cb_src_substitute("c ^ (r & 31)", "a", "b", out, 8);
	tap_ok(strlen(out) == 7, "a short buffer is cut, terminated (%s)", out);
}

/* The engine's edits on kernels of its own: a swizzle rewrites every access of the array, a
 * padding the declaration, and a 1-D array's rows of a literal width. */
static void test_edits(void)
{
	cb_lint_result r;
	job naive = { "transpose.cl", "naive", 32, 8, { NULL }, { NULL }, NULL, 0 };
	if (lint(&naive, &r)) {
		const cb_lint_access *ld = find(&r, 22, 26, CB_OP_LOAD);
		const cb_lint_access *st = find(&r, 17, 20, CB_OP_STORE);
		size_t il = ld ? (size_t)(ld - r.accesses) : 0,
		       is = st ? (size_t)(st - r.accesses) : 0;
		const cb_lint_edit *el = ld ? cb_lint_edit_of(&r, (size_t)ld->object, 0, il) : NULL;
		const cb_lint_edit *es = st ? cb_lint_edit_of(&r, (size_t)st->object, 0, is) : NULL;
		const cb_lint_edit *d = ld ? cb_lint_edit_of(&r, (size_t)ld->object, 1,
							     CB_LINT_DECL)
					   : NULL;
		tap_ok(el && !strcmp(el->from, "tile[tx][ty + j]") &&
			       !strcmp(el->to, "tile[tx][(ty + j) ^ (tx & 31)]") &&
			       el->column == 26 && el->end_column == 42,
		       "transpose: the load's swizzle in its own words (%s)", el ? el->to : "none");
		tap_ok(es && !strcmp(es->to, "tile[ty + j][tx ^ ((ty + j) & 31)]"),
		       "transpose: the store, which does not conflict, changes too (%s)",
		       es ? es->to : "none");
		tap_ok(d && d->line == 13 && !strcmp(d->from, "tile[TILE][TILE]") &&
			       !strcmp(d->to, "tile[TILE][TILE + 1]"),
		       "transpose: the padding edits the declaration, macros kept (%s)",
		       d ? d->to : "none");
		tap_ok(ld && cb_lint_edits_complete(&r, (size_t)ld->object, 0) &&
			       cb_lint_edits_complete(&r, (size_t)ld->object, 1),
		       "transpose: both fixes are whole edits");
		cb_lint_result_free(&r);
	}
	job flat = { "clash.cl", "flat", 32, 8, { NULL }, { NULL }, NULL, 0 };
	if (lint(&flat, &r)) {
		const cb_lint_edit *e = NULL;
		for (size_t i = 0; i < r.nedits && !e; i++)
			if (r.edits[i].choice == 0 && strstr(r.edits[i].from, "tx * 32"))
				e = &r.edits[i];
		tap_ok(e && !strcmp(e->to, "s[tx * 32 + (ty ^ (tx & 31))]"),
		       "a 1-D array of rows of 32: its row and column found (%s)",
		       e ? e->to : "none");
		cb_lint_result_free(&r);
	}
}

/* The coverage line in the kernel's language's words (results made here, no engine): OpenCL's
 * IR count of __local operations; CUDA's and HIP's __shared__ accesses, through generic
 * pointers said only when they are, the IR's count added only when it has any. */
static void test_coverage_words(void)
{
	/* clang-format off */
	static const struct {
		cb_lint_lang lang;
		size_t ir, reported, generic;
		const char *line;
	} cases[] = {
		{ CB_LINT_OPENCL, 4, 4, 0, "coverage: IR 4 __local operations, 4 reported: 4 predicted, "
		  "0 assumed, 0 unknown, 0 not executed\n" },
		{ CB_LINT_OPENCL, 0, 0, 2, "coverage: IR 0 __local operations, 0 reported: 2 predicted, "
		  "0 assumed, 0 unknown, 0 not executed; 2 through generic pointers\n" },
		{ CB_LINT_CUDA, 0, 0, 2, "coverage: 2 __shared__ accesses, all through generic pointers: "
		  "2 predicted, 0 assumed, 0 unknown, 0 not executed\n" },
		{ CB_LINT_HIP, 0, 0, 1, "coverage: 1 __shared__ access, through a generic pointer: "
		  "1 predicted, 0 assumed, 0 unknown, 0 not executed\n" },
		{ CB_LINT_CUDA, 3, 3, 2, "coverage: 5 __shared__ accesses, 2 through generic pointers "
		  "(IR 3 __shared__ operations, 3 reported): 5 predicted, 0 assumed, 0 unknown, "
		  "0 not executed\n" },
		{ CB_LINT_HIP, 1, 1, 0, "coverage: IR 1 __shared__ operation, 1 reported: 1 predicted, "
		  "0 assumed, 0 unknown, 0 not executed\n" },
		{ CB_LINT_CUDA, 0, 0, 0, "coverage: IR 0 __shared__ operations, 0 reported: 0 predicted, "
		  "0 assumed, 0 unknown, 0 not executed\n" },
	};
	/* clang-format on */
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		cb_lint_result r;
		memset(&r, 0, sizeof r);
		r.lang = cases[k].lang;
		r.coverage.ir = cases[k].ir;
		r.coverage.reported = cases[k].reported;
		r.coverage.generic = cases[k].generic;
		r.coverage.status[CB_LINT_PREDICTED] = cases[k].reported + cases[k].generic;
		char *t = text_of(&r);
		tap_ok(t && strstr(t, cases[k].line), "coverage in words of its language: %.*s",
		       (int)strlen(cases[k].line) - 1, cases[k].line);
		free(t);
	}
}

int main(void)
{
	lint_harness_init();
	test_coverage_words();
	if (!lint_harness_engine(NULL))
		return tap_done();
	test_source_refs();
	test_edits();
	test_array_fixes();
	test_paths();
	test_macro_places();
	test_coverage();
	test_local_memory();
	test_renderers();
	return tap_done();
}
