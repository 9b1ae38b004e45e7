/* SPDX-License-Identifier: MIT */
/*
 * What unit_lint and unit_lint_out share: the H200-like and AMD-like models, the cross-check
 * of every priced sub-group access with cb_passes, running a kernel of tests/lint and
 * finding and checking its accesses, the text renderer for the tests on text.
 */
#include "config.h"
#include "lint_harness.h"
#include "views/lint_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The TAP counters of the program (tap.h with CB_TAP_SHARED). */
int tap_n = 0, tap_failed = 0;

cb_lint_model h200, amd;

/* predict's function on the engine's offsets; atomics are priced without merging. */
void observe(void *ctx, const cb_lint_sample *s)
{
	cross_check *c = ctx;
	cb_geometry g = c->model->geom;
	if (s->op == CB_OP_ATOMIC)
		g.broadcast = g.pair_packing = false;
	unsigned lpp = c->model->lanes_per_pass[cb_elem_index(s->elem_bytes)], n = s->nlanes;
	bool full = true;
	for (unsigned l = 0; l < n; l++)
		full &= s->active[l];
	unsigned p = full ? cb_passes(&g, lpp, s->elem_bytes, s->offsets, n)
			  : cb_passes_active(&g, lpp, s->elem_bytes, s->offsets, s->active, n);
	uint32_t seq[CB_MAX_LANES];
	for (unsigned l = 0; l < n; l++)
		seq[l] = l * s->elem_bytes;
	unsigned m = cb_passes_active(&g, lpp, s->elem_bytes, seq, s->active, n);
	if (p < m)
		m = p; /* lanes sharing words: the access is at its minimum */
	c->samples++;
	c->full += full;
	if (p != s->passes || m != s->min_passes) {
		if (c->mismatches++ < 5)
			tap_diag("line %u: engine %u/%u passes, cb_passes %u/%u", s->line,
				 s->passes, s->min_passes, p, m);
	}
}

/* Build inputs of the next runs (test_build_inputs): -I under tests/lint, --cl-std, options. */
const char *build_include, *build_std, *build_options;
unsigned global_size[3];

char srcdir[2048];

const unsigned ONE[] = { 1, 0 }, ONE4[] = { 1, 1, 1, 1, 0 }, ONE8[] = { 1, 1, 1, 1, 1, 1, 1, 1, 0 };

cb_rc run(const job *j, cb_lint_result *r, cb_error *err, cross_check *cc)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/lint/%s", srcdir, j->file);
	cb_lint_request req;
	memset(&req, 0, sizeof req);
	memset(cc, 0, sizeof *cc);
	cc->model = j->model ? j->model : &h200;
	req.kernel_path = path;
	req.kernel_name = j->kernel;
	req.local[0] = j->x;
	req.local[1] = j->y;
	req.group[0] = j->group_x;
	req.defines = j->defs;
	req.ndefines = j->defs[1] ? 2 : j->defs[0] ? 1 : 0;
	char inc[4096];
	snprintf(inc, sizeof inc, "%s/tests/lint/%s", srcdir, build_include ? build_include : "");
	const char *incs[1] = { inc };
	req.includes = incs;
	req.nincludes = build_include ? 1 : 0;
	req.cl_std = build_std;
	memcpy(req.global, global_size, sizeof req.global);
	req.build_options = build_options;
	req.args = j->args;
	req.nargs = j->args[1] ? 2 : j->args[0] ? 1 : 0;
	req.pricer = &cc->model->pricer;
	req.model = cc->model;
	req.observe = observe;
	req.observe_ctx = cc;
	cb_error_clear(err);
	cb_rc rc = cb_lint_run(&req, r, err);
	if (rc != CB_OK)
		tap_diag("%s %s: %s", j->file, j->kernel ? j->kernel : "", err->text);
	return rc;
}

/* Runs J, checks the cross-check, and leaves the result in R. */
bool lint(const job *j, cb_lint_result *r)
{
	cb_error err;
	cross_check cc;
	cb_rc rc = run(j, r, &err, &cc);
	tap_ok(rc == CB_OK && cc.mismatches == 0 && cc.samples > 0,
	       "%s %s %ux%u: runs; %u sub-group accesses (%u full) equal cb_passes", j->file,
	       j->kernel ? j->kernel : "", j->x, j->y ? j->y : 1, cc.samples, cc.full);
	return rc == CB_OK;
}

void skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_n, why);
	fflush(stdout);
}

const cb_lint_access *find(const cb_lint_result *r, unsigned line, unsigned col, cb_op op)
{
	for (size_t i = 0; i < r->naccesses; i++)
		if (r->accesses[i].line == line && r->accesses[i].column == col &&
		    r->accesses[i].op == op)
			return &r->accesses[i];
	return NULL;
}

/* ITER: the passes expected at each iteration, 0-terminated (0 for unknown is not used). */
bool iterations_are(const cb_lint_access *a, const unsigned *iter)
{
	size_t n = 0;
	while (iter[n])
		n++;
	if (a->niter != n)
		return false;
	for (size_t k = 0; k < n; k++)
		if (!a->iter[k].known || a->iter[k].passes != iter[k])
			return false;
	return true;
}

void expect(const cb_lint_result *r, unsigned line, unsigned col, cb_op op, cb_lint_status status,
	    unsigned passes, unsigned minp, const unsigned *iter, const char *what)
{
	const cb_lint_access *a = find(r, line, col, op);
	bool ok = a && a->status == status && (!passes || (a->priced && a->passes_max == passes)) &&
		  a->min_passes == minp && (!iter || iterations_are(a, iter));
	if (a && !ok)
		tap_diag("%u:%u %s: status %s, passes %u (priced %d), minimum %u, %zu iterations",
			 line, col, cb_op_name(op), cb_lint_status_name(a->status), a->passes_max,
			 a->priced, a->min_passes, a->niter);
	tap_ok(ok, "%s (%u:%u %s): %s, %u passes, minimum %u", what, line, col, cb_op_name(op),
	       cb_lint_status_name(status), passes, minp);
}

void expect_fix(const cb_lint_result *r, unsigned line, unsigned col, unsigned pad,
		unsigned pad_passes, uint64_t bytes, unsigned bits, unsigned shift,
		unsigned swz_passes, const char *what)
{
	const cb_lint_access *a = find(r, line, col, CB_OP_LOAD);
	const cb_lint_fix *f = a && a->object >= 0 ? &r->objects[a->object].fix : NULL;
	const cb_lint_fix_choice *p = NULL, *s = NULL;
	for (int k = 0; f && f->found && k < 2; k++) {
		const cb_lint_fix_choice *c = k ? (f->alt_found ? &f->alt : NULL) : &f->best;
		if (c && c->swizzle)
			s = c;
		else if (c)
			p = c;
	}
	/* The array's fix: its padding and swizzle, each judged on every access of the array. */
	bool ok = f && f->wanted && f->computed && a->fixed && p && p->pad == pad &&
		  p->worst_passes == pad_passes && p->bytes == bytes &&
		  (bits ? s && s->bits == bits && s->shift == shift && s->worst_passes == swz_passes
			: !s);
	tap_ok(ok, "%s: pad %u (%u passes, +%llu B), swizzle bits %u shift %u (%u passes)", what,
	       pad, pad_passes, (unsigned long long)bytes, bits, shift, swz_passes);
}

/* Lane l of the first sub-group at byte offset A * l + B (every lane active and known). */
bool lanes_are(const cb_lint_access *a, unsigned n, int64_t mul, int64_t add)
{
	if (!a || a->nlanes != n)
		return false;
	for (unsigned l = 0; l < n; l++)
		if (!a->lanes[l].active || !a->lanes[l].known || a->lanes[l].lo != mul * l + add)
			return false;
	return true;
}

/* Every line under 100 columns, counting a kernel's path as its file name only. */
bool narrow(const char *text)
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n"), dir = 0;
		const char *cl = strstr(p, ".cl:");
		if (cl && (size_t)(cl - p) < len)
			for (const char *q = p; q < cl; q++)
				if (*q == '/')
					dir = (size_t)(q - p) + 1;
		if (len - dir >= 100) {
			tap_diag("%zu columns: %.*s", len - dir, (int)len, p);
			return false;
		}
		p += len + (p[len] == '\n');
	}
	return true;
}

char *text_of(const cb_lint_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cb_lint_print_text(f, r, true);
	fclose(f);
	return buf;
}

void lint_harness_init(void)
{
	static const cb_geometry hg = { 32, 4, true, true }, ag = { 32, 4, true, false };
	static const unsigned hl[CB_NELEM] = { 32, 32, 32, 16, 8 },
			      al[CB_NELEM] = { 0, 0, 32, 0, 0 };
	cb_lint_pricer_from_model(&h200, &hg, hl, 32);
	cb_lint_pricer_from_model(&amd, &ag, al, 64);
	const char *top = getenv("top_srcdir");
	snprintf(srcdir, sizeof srcdir, "%s", top ? top : ".");
}

bool lint_harness_engine(void (*without_llvm)(void))
{
	if (!cb_lint_available()) {
		if (without_llvm)
			without_llvm();
		skip("the lint engine: clbanks was built without LLVM");
		return false;
	}
	cb_lint_result r;
	cb_error err;
	cross_check cc;
	job probe = { "rows16.cl", NULL, 16, 16, { NULL }, { NULL }, NULL, 0 };
	if (run(&probe, &r, &err, &cc) == CB_ERR_RUNTIME && err.call) {
		skip("the lint engine: clang cannot be run");
		cb_lint_result_free(&r);
		return false;
	}
	cb_lint_result_free(&r);
	return true;
}
