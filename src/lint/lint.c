/* SPDX-License-Identifier: MIT */
/* cb_lint_run: compile, translate, simulate the work-group one sub-group at a time (each
 * priced as soon as its last work-item ends), search fixes, and build the typed result.
 * cb_lint_run_models: the same for several models, the work-group simulated once per distinct
 * sub-group size (its models' recorders chained), one fix per array across all of them. */
#include "config.h"
#include "lint/lint.h"
#include "lint/lint_decode.h"
#include "lint/lint_edit.h"
#include "lint/lint_interp.h"
#include "lint/lint_ir.h"
#include "lint/lint_lang.h"
#include "core/readfile.h"
#include "lint/lint_price.h"
#include "core/util.h"

#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cb_lint_available(void)
{
	return true;
}

static cb_rc check_request(const cb_lint_request *req, cb_wg *wg, cb_error *err)
{
	const cb_lint_pricer *p = req->pricer;
	memset(wg, 0, sizeof *wg);
	if (!p || !p->price || p->subgroup == 0 || p->subgroup > CB_MAX_LANES)
		return cb_error_set(
			err, CB_ERR_USAGE,
			"lint needs a model (--model RESULT.json) with a sub-group size");
	if (!req->local[1] && req->local[2])
		return cb_error_set(err, CB_ERR_USAGE, "--local: Y is 0 but Z is given");
	if (req->group[0] > INT32_MAX || req->group[1] > INT32_MAX || req->group[2] > INT32_MAX)
		return cb_error_set(err, CB_ERR_USAGE, "--group: an id is too large");
	wg->subgroup = p->subgroup;
	return CB_OK;
}

/* --global: a whole number of work-groups in each dimension (OpenCL 1.2's rule), which the
 * simulated group lies in. */
static cb_rc global_size(const cb_lint_request *req, cb_wg *wg, cb_error *err)
{
	if (!req->global[0])
		return CB_OK;
	for (int d = 0; d < 3; d++) {
		unsigned g = req->global[d] ? req->global[d] : 1;
		if (g % wg->local[d])
			return cb_error_set(err, CB_ERR_USAGE,
					    "--global: %u is not a multiple of the "
					    "work-group size %u in dimension %d",
					    g, wg->local[d], d);
		wg->num_groups[d] = g / wg->local[d];
		if (wg->group[d] >= wg->num_groups[d])
			return cb_error_set(err, CB_ERR_USAGE,
					    "--group: id %u is not below the %u "
					    "work-groups of --global in dimension %d",
					    wg->group[d], wg->num_groups[d], d);
	}
	return CB_OK;
}

/* The simulated work-group: --local, else the kernel's reqd_work_group_size (which --local
 * must match when both are there, as clEnqueueNDRangeKernel requires). */
static cb_rc work_group(const cb_lint_request *req, const cb_prog *prog, cb_wg *wg, cb_error *err)
{
	const unsigned *r = prog->reqd;
	bool has_reqd = r[0] && r[1] && r[2];
	unsigned local[3] = { req->local[0], req->local[1], req->local[2] };
	cb_rc rc = cb_lint_lang_bounds(prog, local, err); /* CUDA, HIP: __launch_bounds__ */
	if (rc != CB_OK)
		return rc;
	if (!local[0] && !has_reqd)
		return cb_error_set(err, CB_ERR_USAGE,
				    "lint needs --local X[,Y[,Z]], the work-group size to simulate "
				    "(kernel %s has no %s)",
				    prog->kernel,
				    req->lang == CB_LINT_OPENCL ? "reqd_work_group_size"
								: "__launch_bounds__");
	if (local[0] && has_reqd &&
	    (local[0] != r[0] || (local[1] ? local[1] : 1) != r[1] ||
	     (local[2] ? local[2] : 1) != r[2]))
		return cb_error_set(err, CB_ERR_USAGE,
				    "--local %u,%u,%u differs from kernel %s's "
				    "reqd_work_group_size(%u, %u, %u)",
				    local[0], local[1] ? local[1] : 1, local[2] ? local[2] : 1,
				    prog->kernel, r[0], r[1], r[2]);
	if (!local[0])
		for (int d = 0; d < 3; d++)
			local[d] = r[d];
	wg->work_dim = local[2] ? 3 : local[1] ? 2 : 1;
	uint64_t items = 1;
	for (int d = 0; d < 3; d++) {
		wg->local[d] = local[d] ? local[d] : 1;
		wg->group[d] = req->group[d];
		items *= wg->local[d];
	}
	if (items > CB_LINT_MAX_ITEMS)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--local: %" PRIu64 " work-items; lint simulates at most %d",
				    items, CB_LINT_MAX_ITEMS);
	return global_size(req, wg, err);
}

static bool parse_int(const char *s, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (!*s || *end || errno)
		return false;
	*out = v;
	return true;
}

static bool parse_number(const char *s)
{
	char *end;
	errno = 0;
	(void)strtod(s, &end);
	return *s && !*end && !errno;
}

/* "FIELD" or "FIELD[K]" (LEN characters at S) of a by-value struct argument A: its field. */
static const cb_field *find_field(const cb_karg *a, const char *s, size_t len, long long *k)
{
	const char *br = memchr(s, '[', len);
	size_t n = br ? (size_t)(br - s) : len;
	*k = 0;
	if (br) {
		char idx[24];
		size_t il = len - n - 1;
		if (!il || s[len - 1] != ']' || il - 1 >= sizeof idx)
			return NULL;
		memcpy(idx, br + 1, il - 1);
		idx[il - 1] = '\0';
		if (!parse_int(idx, k) || *k < 0)
			return NULL;
	}
	for (uint32_t f = 0; f < a->nfields; f++)
		if (strlen(a->fields[f].name) == n && !strncmp(a->fields[f].name, s, n) &&
		    (uint64_t)*k < a->fields[f].count && (br || a->fields[f].count == 1))
			return &a->fields[f];
	return NULL;
}

/* --arg P.FIELD=V (or P.FIELD[K]=V): a field of by-value struct argument P, stored into each
 * work-item's copy of it. */
static cb_rc set_field(cb_karg *a, const char *spec, const char *dot, const char *eq, cb_error *err)
{
	long long k, v;
	const cb_field *f = find_field(a, dot + 1, (size_t)(eq - dot - 1), &k);
	if (!f) {
		char names[200] = "";
		for (uint32_t i = 0; i < a->nfields; i++) {
			size_t used = strlen(names);
			snprintf(names + used, sizeof names - used,
				 a->fields[i].count > 1 ? "%s%s[%u]" : "%s%s", i ? ", " : "",
				 a->fields[i].name, a->fields[i].count);
		}
		return cb_error_set(
			err, CB_ERR_USAGE, "--arg %.*s: %s has no such field (%s%s)",
			(int)(eq - spec), spec, a->name,
			a->nfields ? "its fields: "
				   : "no field lint can see: no debug information, or not a struct",
			names);
	}
	if (!f->integer || !parse_int(eq + 1, &v))
		return cb_error_set(err, CB_ERR_USAGE, "--arg %.*s: %s", (int)(eq - spec), spec,
				    f->integer ? "the value is not an integer"
					       : "only integer fields take a value");
	if (f->bytes < 8 &&
	    (v < -((long long)1 << (8 * f->bytes - 1)) || v >= (long long)1 << (8 * f->bytes)))
		return cb_error_set(err, CB_ERR_USAGE, "--arg %.*s: %lld does not fit in %u bytes",
				    (int)(eq - spec), spec, v, f->bytes);
	a->values = cb_xrealloc(a->values, (a->nvalues + 1) * sizeof *a->values);
	cb_field_value x = { f->offset + (uint32_t)k * f->bytes, f->bytes, v };
	a->values[a->nvalues++] = x;
	return CB_OK;
}

/* --arg NAME=TEXT of an integer argument: within its own C type's range (before: wrapped). */
static cb_rc int_arg(const cb_karg *a, const char *text, cb_val *out, cb_error *err)
{
	unsigned w = a->width;
	char type[40];
	snprintf(type, sizeof type, "%s",
		 a->ctype[0]      ? a->ctype
		 : a->is_unsigned ? "unsigned"
				  : "signed");
	if (!a->ctype[0])
		snprintf(type + strlen(type), sizeof type - strlen(type), " %u-bit", w);
	char *end;
	errno = 0;
	bool neg = text[strspn(text, " \t")] == '-';
	long long s = 0;
	unsigned long long u = 0;
	if (neg)
		s = strtoll(text, &end, 0);
	else
		u = strtoull(text, &end, 0);
	if (!*text || *end || (errno && errno != ERANGE))
		return cb_error_set(err, CB_ERR_USAGE, "--arg %s: '%s' is not an integer", a->name,
				    text);
	unsigned long long umax = w >= 64 ? ULLONG_MAX : (1ULL << w) - 1;
	long long smax = w >= 64 ? LLONG_MAX : (long long)((1ULL << (w - 1)) - 1);
	long long smin = -smax - 1;
	bool out_of_range = errno == ERANGE || (a->is_unsigned ? neg || u > umax
						: neg          ? s < smin
							       : u > (unsigned long long)smax);
	if (out_of_range && a->is_unsigned)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--arg %s: %s is out of range for %s (0..%llu)", a->name, text,
				    type, umax);
	if (out_of_range)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--arg %s: %s is out of range for %s (%lld..%lld)", a->name,
				    text, type, smin, smax);
	*out = cb_val_int(cb_wrap(neg ? s : (int64_t)u, w));
	return CB_OK;
}

static cb_rc set_arg(cb_prog *p, cb_val *argv, const char *spec, cb_error *err)
{
	const char *eq0 = strchr(spec, '='), *dot = strchr(spec, '.');
	if (eq0 && dot && dot < eq0) {
		for (uint32_t k = 0; k < p->nargs; k++)
			if (p->args[k].kind == CB_ARG_PRIVATE &&
			    strlen(p->args[k].name) == (size_t)(dot - spec) &&
			    !strncmp(p->args[k].name, spec, (size_t)(dot - spec)))
				return set_field(&p->args[k], spec, dot, eq0, err);
		return cb_error_set(err, CB_ERR_USAGE,
				    "--arg %.*s: the kernel has no by-value struct "
				    "argument named %.*s",
				    (int)(eq0 - spec), spec, (int)(dot - spec), spec);
	}
	const char *eq = strchr(spec, '=');
	size_t len = eq ? (size_t)(eq - spec) : 0;
	long long v;
	for (uint32_t k = 0; eq && k < p->nargs; k++) {
		cb_karg *a = &p->args[k];
		if (strlen(a->name) != len || strncmp(a->name, spec, len) != 0)
			continue;
		/* A float argument's value is taken, and changes nothing: floats are unknown to
		 * the interpreter (no index is computed from them exactly). */
		if (a->kind == CB_ARG_OTHER && parse_number(eq + 1))
			return CB_OK;
		if (a->kind == CB_ARG_INT)
			return int_arg(a, eq + 1, &argv[k], err);
		if (!parse_int(eq + 1, &v))
			return cb_error_set(err, CB_ERR_USAGE, "--arg %s: '%s' is not an integer",
					    a->name, eq + 1);
		if (a->kind == CB_ARG_LOCAL && v > 0) {
			p->objects[a->object].bytes = (uint64_t)v;
			return CB_OK;
		}
		if (a->kind == CB_ARG_LOCAL)
			return cb_error_set(
				err, CB_ERR_USAGE,
				"--arg %s: %s is a __local pointer; its value is the size in "
				"bytes of its buffer, which must be at least 1 (got %lld)",
				a->name, a->name, v);
		return cb_error_set(
			err, CB_ERR_USAGE,
			"--arg %s: only integer arguments (a value) and __local pointers "
			"(a size in bytes) take a value",
			a->name);
	}
	/* CUDA, HIP: an extern __shared__ array's bytes */
	if (eq && parse_int(eq + 1, &v) && cb_lint_lang_set_shared(p, spec, len, v))
		return CB_OK;
	return cb_error_set(err, CB_ERR_USAGE, "--arg %s: %s", spec,
			    eq ? "the kernel has no argument of that name" : "expected NAME=VALUE");
}

static cb_rc arg_values(const cb_lint_request *req, cb_prog *p, cb_val **out, cb_error *err)
{
	cb_val *argv = cb_xcalloc(p->nargs ? p->nargs : 1, sizeof *argv);
	*out = argv;
	for (uint32_t k = 0; k < p->nargs; k++) {
		const cb_karg *a = &p->args[k];
		switch (a->kind) {
		case CB_ARG_GLOBAL:
			argv[k] = cb_val_ptr(CB_OBJ_GLOBAL, 0);
			break;
		case CB_ARG_LOCAL:
			argv[k] = cb_val_ptr(CB_OBJ_FIRST + a->object, 0);
			break;
		case CB_ARG_INT:
			argv[k] = cb_val_range(a->width);
			argv[k].flags = CB_VF_ARG;
			break;
		default:
			argv[k] = cb_val_opaque();
			break;
		}
	}
	cb_lint_lang_shared_bytes(p, req->shared_bytes);
	for (size_t i = 0; i < req->nargs; i++) {
		cb_rc rc = set_arg(p, argv, req->args[i] ? req->args[i] : "", err);
		if (rc != CB_OK)
			return rc;
	}
	return CB_OK;
}

static cb_rc simulate(cb_interp *in, cb_recorder *rec, const cb_wg *wg, cb_error *err)
{
	unsigned items = wg->local[0] * wg->local[1] * wg->local[2], sg = wg->subgroup;
	for (unsigned first = 0; first < items; first += sg) {
		unsigned nl = items - first < sg ? items - first : sg;
		for (unsigned l = 0; l < nl; l++) {
			cb_rc rc = cb_interp_item(in, first + l, err);
			if (rc != CB_OK)
				return rc;
			if (rec->overflow)
				return cb_error_set(
					err, CB_ERR_INPUT,
					"sub-group %u makes more than %zu __local lane accesses; "
					"bound its loops with -D or --arg",
					first / sg, CB_REC_LANES);
		}
		cb_rec_flush(rec, nl);
	}
	return CB_OK;
}

/* The site records of B that are worse than A's take A's place (assumed: they lie under
 * the branch): a site A did not reach, or reached with fewer passes. */
static void take_worse(const cb_prog *p, cb_recorder *rec, cb_recorder *r2)
{
	for (uint32_t k = 0; k < p->nsites; k++) {
		cb_site_rec *a = &rec->sites[k], *b = &r2->sites[k];
		bool worse = b->subgroups &&
			     (!a->subgroups || (b->unknown && !a->unknown) ||
			      (!b->unknown && !a->unknown && b->passes_max > a->passes_max));
		if (worse) {
			cb_site_rec t = *a;
			*a = *b;
			*b = t;
		}
	}
}

/* At most this many runs of the work-group (the first included) cover the sides of
 * undecidable branches: a nesting of that depth. */
#define CB_SIDE_RUNS 16

/* One more run of the work-group on the sides ALL says no run took: each site the runs
 * before did not reach, or reached with fewer passes, takes this run's record (assumed: it
 * lies under the branch). REC may be a chain (several models of one sub-group size): each
 * of its recorders gets its own record. *MORE: the run took a side none before had. */
static cb_rc side_run(cb_interp *in, cb_recorder *rec, const cb_val *argv, cb_sides *all,
		      unsigned run, uint64_t *steps, bool *more, cb_error *err)
{
	const cb_prog *p = in->prog;
	size_t n = 0, j = 0;
	for (const cb_recorder *r = rec; r; r = r->next)
		n++;
	cb_recorder *r2 = cb_xcalloc(n, sizeof *r2);
	for (const cb_recorder *r = rec; r; r = r->next, j++) {
		cb_rec_init(&r2[j], p, r->pricer);
		r2[j].keep_tables = r->keep_tables;
		r2[j].observe = r->observe;
		r2[j].observe_ctx = r->observe_ctx;
		r2[j].next = j + 1 < n ? &r2[j + 1] : NULL;
	}
	cb_interp i2;
	cb_interp_init(&i2, p, &in->wg, argv, &r2[0]);
	i2.flip = true;
	i2.run = run;
	i2.prev = all;
	i2.steps = *steps; /* the later runs share one budget */
	cb_rc rc = simulate(&i2, &r2[0], &in->wg, err);
	j = 0;
	for (cb_recorder *r = rec; rc == CB_OK && r; r = r->next, j++)
		take_worse(p, r, &r2[j]);
	*more = rc == CB_OK && cb_sides_merge(all, &i2);
	in->want = i2.want > in->want ? i2.want : in->want;
	in->steps += i2.steps - *steps;
	*steps = i2.steps;
	cb_interp_free(&i2);
	for (j = 0; j < n; j++)
		cb_rec_free(&r2[j]);
	free(r2);
	return rc;
}

/* After the first run met two-sided undecidable branches or switches: runs on the sides not
 * yet taken until every side of every branch met has run and every switch's cases (or no
 * run takes a new side), CB_SIDE_RUNS, or the budget would not hold another run as long as
 * the first. */
static cb_rc side_runs(cb_interp *in, cb_recorder *rec, const cb_val *argv, cb_error *err)
{
	cb_sides all = { NULL, NULL };
	uint64_t first = in->steps, steps = 0;
	bool more = cb_sides_merge(&all, in);
	cb_rc rc = CB_OK;
	in->runs = 1;
	for (unsigned run = 1; rc == CB_OK && run < CB_SIDE_RUNS; run++) {
		bool open = cb_sides_open(&all, in->prog) && more;
		/* the second run is always made; later ones while a side is open and the budget
		 * holds them */
		if (run > 1 && ((!open && run >= in->want) || steps + first > CB_GROUP_STEPS))
			break;
		rc = side_run(in, rec, argv, &all, run, &steps, &more, err);
		in->runs = run + 1;
	}
	in->all = all; /* freed with IN: not_executed_note names the branches left open */
	return rc;
}

/* SITE and the function whose blocks are walked. */
typedef struct {
	const cb_site *site;
	uint32_t fn;
} site_in_fn;

/* Does block B hold the site, or a call of the site's function? */
static bool holds_site(const cb_fn *f, uint32_t b, const void *ctx)
{
	const site_in_fn *c = ctx;
	if (c->site->fn == c->fn && c->site->block == b)
		return true;
	for (uint32_t i = f->blocks[b].first; i < f->blocks[b].end; i++)
		if (f->ins[i].op == CB_I_CALL && f->ins[i].imm == c->site->fn)
			return true;
	return false;
}

/* Blocks reached from the side of assumed branch A that was not taken, before its immediate
 * post-dominator: does it hold SITE (or a call of its function)? */
static bool untaken_side(const cb_prog *p, const cb_assumed_branch *a, const cb_site *site)
{
	const cb_fn *f = &p->fns[a->fn];
	uint32_t first = f->succ_first[a->block], n = 0;
	uint32_t *from = cb_xmalloc((f->succ_first[a->block + 1] - first + 1) * sizeof *from);
	for (uint32_t k = first; k < f->succ_first[a->block + 1]; k++)
		if (f->succ[k] != a->taken)
			from[n++] = f->succ[k];
	site_in_fn c = { site, a->fn };
	bool found = cb_fn_reaches(f, from, n, f->blocks[a->block].ipdom, holds_site, &c);
	free(from);
	return found;
}

/* A two-sided branch that one side of no run took (the runs' sides, in->all), whose other
 * side holds SITE: its line, else 0. */
static uint32_t open_branch_line(const cb_interp *in, const cb_site *site)
{
	const cb_prog *p = in->prog;
	for (uint32_t f = 0; in->all.taken && f < p->nfns; f++) {
		const uint8_t *t = in->all.taken[f];
		for (uint32_t b = 0; t && b < p->fns[f].nblocks; b++) {
			const cb_block *bl = &p->fns[f].blocks[b];
			const cb_ins *br = bl->end > bl->first ? &p->fns[f].ins[bl->end - 1] : NULL;
			if (!(t[b] & CB_SIDE_BRANCH) || (t[b] & 3u) == 3u || !br ||
			    br->op != CB_I_CONDBR)
				continue;
			cb_assumed_branch ab = { f, b, t[b] & CB_SIDE_TRUE ? br->x : br->n,
						 br->imm };
			if (untaken_side(p, &ab, site))
				return br->imm;
		}
	}
	return 0;
}

static void not_executed_note(const cb_interp *in, const cb_site *site, cb_lint_access *a)
{
	uint32_t line = open_branch_line(in, site);
	if (line) {
		snprintf(a->note, sizeof a->note,
			 "on the side of the undecidable branch at line %u "
			 "that no run of the work-group took (%u runs)",
			 line, in->runs);
		a->reason = CB_LINT_WHY_SIDE;
		return;
	}
	for (uint32_t k = 0; k < in->nassumed; k++)
		if (untaken_side(in->prog, &in->assumed[k], site)) {
			snprintf(a->note, sizeof a->note,
				 "on the side of the undecidable branch at line %u that was not "
				 "simulated",
				 in->assumed[k].line);
			a->reason = CB_LINT_WHY_SIDE;
			return;
		}
	a->reason = CB_LINT_WHY_GROUP;
	snprintf(a->note, sizeof a->note,
		 "work-group (%u,%u,%u) of %u x %u x %u work-items does not reach it",
		 in->wg.group[0], in->wg.group[1], in->wg.group[2], in->wg.local[0],
		 in->wg.local[1], in->wg.local[2]);
}

/* The calls whose results lint does not compute: "Idx (declared, not defined)", "built-in
 * popcount", joined by " or ". */
static void unseen_names(const cb_prog *p, uint8_t calls, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int builtin = 0; builtin < 2; builtin++) {
		unsigned k = 0;
		for (uint32_t i = 0; i < p->nunseen && len < n; i++) {
			if (p->unseen_builtin[i] != (bool)builtin || !(calls & CB_VF_CALLEE(i)))
				continue;
			int w = snprintf(buf + len, n - len, "%s%s%s", len ? " or " : "",
					 builtin && !k ? "built-in " : "", p->unseen[i]);
			len += w > 0 ? (size_t)w : 0;
			k++;
		}
		if (!builtin && k && len < n) {
			int w = snprintf(buf + len, n - len, " (declared, not defined)");
			len += w > 0 ? (size_t)w : 0;
		}
	}
	if (!buf[0])
		snprintf(buf, n, "(unnamed)");
}

/* An offset lint could not compute, by what it came from (the lanes' cause marks): memory
 * contents, arguments not given, floating-point values; without any mark, either of the
 * first two. Floats alone are their own reason, so that no --arg is asked for in vain. */
static void data_note(const cb_site_rec *s, const char *obj, cb_lint_access *a)
{
	/* clang-format off */
	static const char *const cause[3] = {
		"memory contents", "arguments not given with --arg",
		"floating-point arithmetic, which lint does not evaluate",
	};
	/* clang-format on */
	static const unsigned bits[3] = { CB_VF_MEM >> 8, CB_VF_ARG >> 8, CB_VF_FLOAT >> 8 };
	char what[256] = "";
	size_t len = 0;
	unsigned n = 0, causes = s->causes & 7u;
	for (unsigned k = 0; k < 3; k++) {
		if (!(causes & bits[k]))
			continue;
		/* "A and B", "A, B and C" */
		unsigned left = 0;
		for (unsigned j = k + 1; j < 3; j++)
			left += (causes & bits[j]) != 0;
		const char *sep = !n ? "" : left ? ", " : " and ";
		int w = snprintf(what + len, sizeof what - len, "%s%s", sep, cause[k]);
		len += w > 0 && (size_t)w < sizeof what - len ? (size_t)w : 0;
		n++;
	}
	if (!n)
		snprintf(what, sizeof what, "memory contents or on arguments not given with --arg");
	if (causes == (CB_VF_FLOAT >> 8))
		a->reason = CB_LINT_WHY_FLOAT;
	snprintf(a->note, sizeof a->note,
		 "offsets depend on %s (within bytes %" PRId64 "..%" PRId64 " of %s)", what, s->lo,
		 s->hi, obj);
}

static void unknown_note(const cb_prog *p, const cb_site_rec *s, const cb_site *site,
			 cb_lint_access *a)
{
	char names[120];
	const char *obj = s->obj >= CB_OBJ_FIRST ? p->objects[s->obj - CB_OBJ_FIRST].name
						 : "the object";
	/* clang-format off */
	static const cb_lint_why why[] = {
		[CB_WHY_NONE] = CB_LINT_WHY_TWICE, [CB_WHY_DATA] = CB_LINT_WHY_DATA,
		[CB_WHY_OBJECTS] = CB_LINT_WHY_OBJECTS, [CB_WHY_POINTER] = CB_LINT_WHY_POINTER,
		[CB_WHY_BOUNDS] = CB_LINT_WHY_BOUNDS, [CB_WHY_MODEL] = CB_LINT_WHY_MODEL,
		[CB_WHY_AMBIGUOUS] = CB_LINT_WHY_TWICE, [CB_WHY_CALL] = CB_LINT_WHY_CALL,
		[CB_WHY_UNSEEN] = CB_LINT_WHY_UNSEEN,
	};
	/* clang-format on */
	a->reason = (unsigned)s->why < sizeof why / sizeof why[0] ? why[s->why] : CB_LINT_WHY_TWICE;
	switch (s->why) {
	case CB_WHY_DATA:
		data_note(s, obj, a);
		break;
	case CB_WHY_OBJECTS:
		snprintf(
			a->note, sizeof a->note,
			"the lanes span several __local objects, whose placement is up to the driver");
		break;
	case CB_WHY_POINTER:
		snprintf(a->note, sizeof a->note,
			 "the pointer does not come from a known __local object (read from memory, "
			 "or made from an integer)");
		break;
	case CB_WHY_BOUNDS: {
		/* name the bytes outside the object, not only the range the lanes touched */
		int64_t hi = s->why_hi + site->elem_bytes - 1, lo = s->why_lo;
		uint64_t size = s->obj >= CB_OBJ_FIRST ? p->objects[s->obj - CB_OBJ_FIRST].bytes
						       : 0;
		if (size && lo >= 0 && hi >= (int64_t)size)
			snprintf(a->note, sizeof a->note,
				 "bytes %" PRIu64 "..%" PRId64 " lie past the "
				 "end of %s (%" PRIu64 " bytes; the lanes touch bytes %" PRId64
				 "..%" PRId64 ")",
				 size, hi, obj, size, lo, hi);
		else if (size && lo < 0)
			snprintf(a->note, sizeof a->note,
				 "bytes %" PRId64 "..-1 lie before the start "
				 "of %s (the lanes touch bytes %" PRId64 "..%" PRId64 ")",
				 lo, obj, lo, hi);
		else
			snprintf(a->note, sizeof a->note,
				 "an offset lies outside %s (bytes %" PRId64 "..%" PRId64
				 " touched)",
				 obj, lo, hi);
		break;
	}
	case CB_WHY_UNSEEN:
		unseen_names(p, s->unseen_calls, names, sizeof names);
		if (s->any)
			snprintf(a->note, sizeof a->note,
				 "its address depends on the result of a call "
				 "lint does not evaluate: %s (within bytes %" PRId64 "..%" PRId64
				 " of %s)",
				 names, s->lo, s->hi, obj);
		else
			snprintf(a->note, sizeof a->note,
				 "its address depends on the result of a call "
				 "lint does not evaluate: %s",
				 names);
		break;
	case CB_WHY_CALL:
		snprintf(a->note, sizeof a->note,
			 "calls undefined function %s, which gets a pointer into %s: its accesses "
			 "are not seen",
			 site->callee ? site->callee : "(unnamed)", obj);
		break;
	case CB_WHY_MODEL:
		snprintf(a->note, sizeof a->note, "the model cannot price %u-byte %ss",
			 site->elem_bytes, cb_op_name(site->op));
		break;
	default:
		snprintf(
			a->note, sizeof a->note,
			"a work-item reached it twice in one iteration (irreducible control flow)");
	}
}

static void copy_iterations(const cb_site_rec *s, cb_lint_access *a)
{
	a->niter = s->nkeys;
	a->iter = cb_xcalloc(s->nkeys ? s->nkeys : 1, sizeof *a->iter);
	for (uint32_t k = 0; k < s->nkeys; k++) {
		a->iter[k].known = s->sum[k].reached && !s->sum[k].unknown;
		a->iter[k].passes = a->iter[k].known ? s->sum[k].passes : 0;
		a->iter[k].min_passes = s->sum[k].min_passes;
	}
	a->first_subgroup = s->first_sg;
	a->nlanes = s->nfirst;
	a->lanes = cb_xcalloc(s->nfirst ? s->nfirst : 1, sizeof *a->lanes);
	if (s->nfirst)
		memcpy(a->lanes, s->first, s->nfirst * sizeof *a->lanes);
}

static void fill_access(cb_interp *in, cb_recorder *rec, const char *path, uint32_t i,
			cb_lint_access *a)
{
	const cb_prog *p = in->prog;
	const cb_site *site = &p->sites[i];
	const cb_site_rec *s = &rec->sites[i];
	a->file = cb_xstrdup(site->file[0] ? site->file : path);
	a->line = site->line;
	a->column = site->column;
	a->op = site->op;
	a->elem_bytes = site->elem_bytes;
	a->object = s->obj >= CB_OBJ_FIRST ? s->obj - CB_OBJ_FIRST : s->obj < 0 ? site->object : -1;
	/* An access of the element's size reads the element: say its type as declared. */
	const cb_lint_object *o = a->object >= 0 ? &p->objects[a->object] : NULL;
	a->elem_type = cb_xstrdup(
		o && (o->elem_bytes == site->elem_bytes || site->op == CB_LINT_CALL)
			? o->elem_type
			: site->elem_type);
	copy_iterations(s, a);
	a->subgroups = s->subgroups;
	a->range_known = s->range_known;
	a->range_lo = s->lo;
	a->range_hi = s->hi;
	a->min_passes = s->min_max;
	if (!s->subgroups) {
		a->status = CB_LINT_NOT_EXECUTED;
		not_executed_note(in, site, a);
		return;
	}
	if (s->unknown) {
		a->status = CB_LINT_UNKNOWN;
		unknown_note(p, s, site, a);
		return;
	}
	a->priced = true;
	if (rec->keep_tables) {
		a->tables = rec->sites[i].tables;
		memset(&rec->sites[i].tables, 0, sizeof rec->sites[i].tables);
		cb_lint_tables_sort(&a->tables);
	}
	a->total_passes = s->total;
	a->total_min = s->total_min;
	a->passes_max = s->passes_max;
	a->ways = s->ways;
	a->conflict = s->conflict;
	a->status = s->assumed ? CB_LINT_ASSUMED : CB_LINT_PREDICTED;
	a->reason = !s->assumed                    ? CB_LINT_WHY_NONE
		    : s->assumed_line & CB_DECIDED ? CB_LINT_WHY_DECIDED
		    : s->assumed_line              ? CB_LINT_WHY_BRANCH
						   : CB_LINT_WHY_TAINT;
	if (s->assumed && s->assumed_line & CB_DECIDED)
		snprintf(a->note, sizeof a->note,
			 "under the branch at line %u, decided by values an undecidable branch set",
			 s->assumed_line & ~CB_DECIDED);
	else if (s->assumed && s->assumed_line)
		snprintf(a->note, sizeof a->note, "under the undecidable branch at line %u",
			 s->assumed_line);
	else if (s->assumed)
		snprintf(a->note, sizeof a->note,
			 "its address depends on values set under an undecidable branch");
}

/* Why a conflicting access that no array fix judges has no fix. */
static void fix_note(const cb_recorder *rec, const cb_lint_result *res, uint32_t i,
		     cb_lint_access *a)
{
	const cb_site_rec *s = &rec->sites[i];
	if (!a->conflict || a->fixed || a->status == CB_LINT_UNKNOWN)
		return;
	if (s->obj < CB_OBJ_FIRST)
		snprintf(a->fix_note, sizeof a->fix_note, "the lanes do not index one array");
	else if (!s->fix_ok)
		snprintf(a->fix_note, sizeof a->fix_note, "%s", s->fix_note);
	else
		snprintf(a->fix_note, sizeof a->fix_note, "%s",
			 res->objects[s->obj - CB_OBJ_FIRST].fix.note);
}

/* One fix per array (the search's, or the one the request gives), and each access's passes
 * under its array's fix. */
static void array_fixes(const cb_lint_request *req, cb_recorder *rec, cb_lint_result *res)
{
	const cb_prog *p = rec->prog;
	unsigned *worst = cb_xcalloc(p->nsites + 1, sizeof *worst);
	unsigned *alt = cb_xcalloc(p->nsites + 1, sizeof *alt);
	cb_lint_tables *fixed = rec->keep_tables ? cb_xcalloc(p->nsites + 1, sizeof *fixed) : NULL;
	for (uint32_t k = 0; k < p->nobjects; k++) {
		memset(worst, 0, (p->nsites + 1) * sizeof *worst);
		memset(alt, 0, (p->nsites + 1) * sizeof *alt);
		if (req->fixes_from && k < req->nfixes_from)
			cb_rec_judge_fix(rec, k, &req->fixes_from[k].fix, &res->objects[k].fix,
					 worst, fixed);
		else
			cb_rec_array_fix(rec, k, &res->objects[k].fix, worst, alt, fixed);
		if (!res->objects[k].fix.found)
			continue;
		for (size_t j = 0; j < res->naccesses; j++) {
			cb_lint_access *a = &res->accesses[j];
			if (!worst[a->site])
				continue;
			a->fixed = true;
			a->fixed_passes = worst[a->site];
			a->alt_passes = alt[a->site];
			if (fixed) {
				a->fixed_tables = fixed[a->site];
				memset(&fixed[a->site], 0, sizeof fixed[a->site]);
				cb_lint_tables_sort(&a->fixed_tables);
			}
		}
	}
	for (uint32_t i = 0; fixed && i < p->nsites; i++)
		cb_lint_tables_free(&fixed[i]);
	free(fixed);
	for (size_t j = 0; j < res->naccesses; j++)
		fix_note(rec, res, res->accesses[j].site, &res->accesses[j]);
	free(worst);
	free(alt);
}

/* Does line LINE of TEXT carry the suppression comment? */
static bool line_suppressed(const char *text, size_t len, unsigned line)
{
	const char *p;
	size_t n;
	if (!cb_text_line(text, len, line ? line : 1, &p, &n)) /* no line: the first */
		return false;
	static const char tag[] = CB_LINT_SUPPRESS;
	for (size_t i = 0; i + sizeof tag - 1 <= n; i++)
		if (memcmp(p + i, tag, sizeof tag - 1) == 0)
			return true;
	return false;
}

/* Accesses on a line that says CB_LINT_SUPPRESS, a conflict the author accepts. */
static void suppressions(cb_lint_result *res)
{
	/* Accesses come sorted by file: each file is read once, when the file changes. */
	const char *file = NULL;
	char *text = NULL;
	size_t len = 0;
	for (size_t i = 0; i < res->naccesses; i++) {
		cb_lint_access *a = &res->accesses[i];
		if (!a->file[0])
			continue;
		if (!file || strcmp(file, a->file) != 0) {
			cb_error ignored;
			free(text);
			text = NULL;
			file = a->file;
			if (cb_read_file(file, (size_t)16 << 20,
					 CB_READ_REGULAR_ONLY | CB_READ_TEXT, &text, &len,
					 &ignored) != CB_OK)
				text = NULL;
		}
		a->suppressed = text && line_suppressed(text, len, a->line);
	}
	free(text);
}

static int access_order(const void *x, const void *y)
{
	const cb_lint_access *a = x, *b = y;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	if (a->op != b->op)
		return (int)a->op - (int)b->op;
	/* one place, several accesses (a macro's): in the order of the IR, the order they run */
	return a->site < b->site ? -1 : a->site > b->site;
}

/* Accesses of one op at one line and column: which is which (1 of 2, 2 of 2). */
static void number_same(cb_lint_result *res)
{
	for (size_t i = 0, j; i < res->naccesses; i = j) {
		const cb_lint_access *a = &res->accesses[i];
		for (j = i + 1;
		     j < res->naccesses && res->accesses[j].line == a->line &&
		     res->accesses[j].column == a->column && res->accesses[j].op == a->op &&
		     !strcmp(res->accesses[j].file, a->file);
		     j++)
			;
		for (size_t k = i; k < j; k++) {
			res->accesses[k].nth = (unsigned)(k - i + 1);
			res->accesses[k].nsame = (unsigned)(j - i);
		}
	}
}

/* The kernel's __local memory against the model's device: a kernel that needs more cannot
 * be launched there (CL_OUT_OF_RESOURCES), whatever its conflicts. */
static void local_use(const cb_lint_request *req, cb_lint_result *res)
{
	for (size_t k = 0; k < res->nobjects; k++) {
		const cb_lint_object *o = &res->objects[k];
		if (o->is_arg && !o->bytes)
			res->local_unsized++;
		else if (res->local_bytes > UINT64_MAX - o->bytes)
			res->local_bytes = UINT64_MAX;
		else
			res->local_bytes += o->bytes;
	}
	res->local_mem_bytes = req->model ? req->model->local_mem_bytes : 0;
	if (!res->local_mem_bytes || res->local_bytes <= res->local_mem_bytes)
		return;
	snprintf(res->warning, sizeof res->warning,
		 "kernel %s uses %" PRIu64 " B of __local memory%s, more than the %" PRIu64 " B "
		 "of the model's device: it cannot be launched there as linted",
		 res->kernel, res->local_bytes,
		 res->local_unsized ? " (and arguments of unknown size)" : "",
		 res->local_mem_bytes);
}

/* The run's account: the IR's count of __local operations against the accesses reported. */
static void coverage(const cb_prog *p, cb_lint_result *res)
{
	cb_lint_coverage *c = &res->coverage;
	c->ir = p->ir_local_ops;
	for (size_t i = 0; i < res->naccesses; i++) {
		const cb_lint_access *a = &res->accesses[i];
		if (p->sites[a->site].generic)
			c->generic++;
		else
			c->reported++;
		c->status[a->status]++;
		c->why[a->reason]++;
	}
}

/* A kernel compiled for one SIMD width (intel_reqd_sub_group_size) priced on a model of
 * another sub-group size: the model cannot express the kernel's grouping, so none of its
 * accesses is priced (each says why) and no fix is offered. */
static void other_width(const cb_prog *p, unsigned subgroup, cb_lint_result *res)
{
	if (!p->reqd_subgroup || p->reqd_subgroup == subgroup)
		return;
	for (size_t i = 0; i < res->naccesses; i++) {
		cb_lint_access *a = &res->accesses[i];
		if (a->status != CB_LINT_PREDICTED && a->status != CB_LINT_ASSUMED)
			continue;
		a->status = CB_LINT_UNKNOWN;
		a->reason = CB_LINT_WHY_MODEL;
		snprintf(
			a->note, sizeof a->note,
			"kernel %s is compiled for sub-groups of %u "
			"(intel_reqd_sub_group_size); the model's are of %u: a model of the device "
			"measured at %u lanes prices it",
			p->kernel, p->reqd_subgroup, subgroup, p->reqd_subgroup);
		a->priced = a->conflict = a->fixed = false;
		a->passes_max = a->min_passes = a->ways = a->fixed_passes = a->alt_passes = 0;
		a->total_passes = a->total_min = 0;
		a->fix_note[0] = '\0';
		for (size_t k = 0; k < a->niter; k++)
			a->iter[k].known = false;
	}
	for (size_t k = 0; k < res->nobjects; k++) {
		cb_lint_fix *f = &res->objects[k].fix;
		memset(f, 0, sizeof *f);
	}
	memset(&res->coverage, 0, sizeof res->coverage);
	coverage(p, res);
}

static void build_result(const cb_lint_request *req, cb_interp *in, cb_recorder *rec,
			 cb_lint_result *res)
{
	const cb_prog *p = in->prog;
	res->kernel = cb_xstrdup(p->kernel);
	res->path = cb_xstrdup(req->kernel_path);
	res->lang = req->lang;
	memcpy(res->local, in->wg.local, sizeof res->local);
	memcpy(res->group, in->wg.group, sizeof res->group);
	res->work_dim = in->wg.work_dim;
	res->subgroup = in->wg.subgroup;
	if (req->model) {
		res->has_model = true;
		res->flat = req->model->flat;
		res->documented = req->model->documented;
		res->geom = req->model->geom;
		memcpy(res->lanes_per_pass, req->model->lanes_per_pass, sizeof res->lanes_per_pass);
		memcpy(res->ops, req->model->ops, sizeof res->ops);
	}
	res->nobjects = p->nobjects;
	res->objects = cb_xcalloc(p->nobjects ? p->nobjects : 1, sizeof *res->objects);
	for (uint32_t k = 0; k < p->nobjects; k++) {
		res->objects[k] = p->objects[k];
		res->objects[k].name = cb_xstrdup(p->objects[k].name);
		res->objects[k].elem_type = cb_xstrdup(p->objects[k].elem_type);
	}
	res->accesses = cb_xcalloc(p->nsites ? p->nsites : 1, sizeof *res->accesses);
	for (uint32_t i = 0; i < p->nsites; i++) {
		/* a generic access no __local pointer reached is not a __local access */
		if (p->sites[i].generic && !rec->sites[i].subgroups)
			continue;
		fill_access(in, rec, req->kernel_path, i, &res->accesses[res->naccesses]);
		res->accesses[res->naccesses++].site = i;
	}
	coverage(p, res);
	array_fixes(req, rec, res);
	other_width(p, in->wg.subgroup, res);
	/* The object index survives sorting: it refers to res->objects. */
	qsort(res->accesses, res->naccesses, sizeof *res->accesses, access_order);
	number_same(res);
	suppressions(res);
	cb_lint_make_edits(res);
	res->steps = in->steps;
	cb_lint_predefined(req, res->predefined, sizeof res->predefined);
	local_use(req, res);
}

cb_rc cb_lint_kernels(const cb_lint_request *req, char ***names, size_t *n, cb_error *err)
{
	*names = NULL;
	*n = 0;
	cb_lint_ir ir;
	cb_rc rc = cb_lint_compile(req, &ir, err);
	if (rc == CB_OK)
		cb_lint_decode_kernels(ir.mod, names, n);
	cb_lint_ir_free(&ir);
	return rc;
}

cb_rc cb_lint_run(const cb_lint_request *req, cb_lint_result *res, cb_error *err)
{
	memset(res, 0, sizeof *res);
	cb_wg wg;
	cb_rc rc = check_request(req, &wg, err);
	cb_lint_ir ir;
	memset(&ir, 0, sizeof ir);
	if (rc == CB_OK)
		rc = cb_lint_compile(req, &ir, err);
	res->build_log = cb_xstrdup(ir.log ? ir.log : "");
	cb_prog prog;
	memset(&prog, 0, sizeof prog);
	if (rc == CB_OK && (rc = cb_lint_decode(ir.mod, req->kernel_name, &prog, err)) != CB_OK) {
		char prefix[256];
		snprintf(prefix, sizeof prefix, "%s: ", req->kernel_path);
		cb_error_prefix(err, prefix);
	}
	cb_lint_ir_free(&ir);
	cb_val *argv = NULL;
	if (rc == CB_OK)
		rc = work_group(req, &prog, &wg, err);
	if (rc == CB_OK)
		rc = arg_values(req, &prog, &argv, err);
	if (rc == CB_OK) {
		cb_recorder rec;
		cb_interp in;
		cb_rec_init(&rec, &prog, req->pricer);
		rec.keep_tables = req->keep_tables;
		rec.observe = req->observe;
		rec.observe_ctx = req->observe_ctx;
		cb_interp_init(&in, &prog, &wg, argv, &rec);
		rc = simulate(&in, &rec, &wg, err);
		if (rc == CB_OK && in.two_sided)
			rc = side_runs(&in, &rec, argv, err);
		if (rc == CB_OK)
			build_result(req, &in, &rec, res);
		cb_interp_free(&in);
		cb_rec_free(&rec);
	}
	free(argv);
	cb_prog_free(&prog);
	return rc;
}

/* One distinct sub-group size of a run over several models: the work-group simulated once at
 * that size, feeding the recorders of its models (chained). */
typedef struct {
	unsigned subgroup;
	cb_interp in;
	cb_recorder *recs; /* one per model of this size, recs[j].next == &recs[j + 1] */
	size_t *models;    /* their indices in the models given */
	size_t n;
	bool started;
} size_run;

/* The distinct sub-group sizes of MODELS[0..N) into RUNS (N at most), in order of first
 * appearance; how many. */
static size_t group_sizes(const cb_lint_model *const *models, size_t n, size_run *runs)
{
	size_t nr = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned sg = models[i]->pricer.subgroup;
		size_t r = 0;
		while (r < nr && runs[r].subgroup != sg)
			r++;
		if (r == nr) {
			runs[nr].subgroup = sg;
			runs[nr].models = cb_xcalloc(n, sizeof *runs[nr].models);
			runs[nr++].recs = cb_xcalloc(n, sizeof *runs[r].recs);
		}
		runs[r].models[runs[r].n++] = i;
	}
	return nr;
}

/* The work-group simulated once at RUN's sub-group size, each of its models recording. */
static cb_rc run_size(const cb_lint_request *req, const cb_prog *prog, const cb_wg *wg0,
		      const cb_val *argv, const cb_lint_model *const *models, size_run *run,
		      cb_error *err)
{
	cb_wg wg = *wg0;
	wg.subgroup = run->subgroup;
	for (size_t j = 0; j < run->n; j++) {
		cb_recorder *r = &run->recs[j];
		cb_rec_init(r, prog, &models[run->models[j]]->pricer);
		r->keep_tables = req->keep_tables;
		r->next = j + 1 < run->n ? &run->recs[j + 1] : NULL;
	}
	cb_interp_init(&run->in, prog, &wg, argv, &run->recs[0]);
	run->started = true;
	cb_rc rc = simulate(&run->in, &run->recs[0], &wg, err);
	if (rc == CB_OK && run->in.two_sided)
		rc = side_runs(&run->in, &run->recs[0], argv, err);
	return rc;
}

static void free_sizes(size_run *runs, size_t nr)
{
	for (size_t r = 0; r < nr; r++) {
		if (runs[r].started)
			cb_interp_free(&runs[r].in);
		for (size_t j = 0; runs[r].started && j < runs[r].n; j++)
			cb_rec_free(&runs[r].recs[j]);
		free(runs[r].recs);
		free(runs[r].models);
	}
	free(runs);
}

/* Each array's fix across every model (the fewest passes summed over them), into CHOSEN, and
 * each model's result with that fix judged on it. */
static void build_results(const cb_lint_request *req, const cb_prog *p, size_run *runs, size_t nr,
			  const cb_lint_model *const *models, size_t n, cb_lint_result *res)
{
	cb_recorder **all = cb_xcalloc(n, sizeof *all);
	size_t na = 0;
	for (size_t r = 0; r < nr; r++) /* not the models that cannot price the kernel */
		for (size_t j = 0; j < runs[r].n; j++)
			if (!p->reqd_subgroup || runs[r].subgroup == p->reqd_subgroup)
				all[na++] = &runs[r].recs[j];
	cb_lint_object *chosen = cb_xcalloc(p->nobjects ? p->nobjects : 1, sizeof *chosen);
	for (uint32_t k = 0; na && k < p->nobjects; k++)
		cb_rec_array_fix_across(all, na, k, &chosen[k].fix);
	for (size_t r = 0; r < nr; r++)
		for (size_t j = 0; j < runs[r].n; j++) {
			size_t i = runs[r].models[j];
			cb_lint_request q = *req;
			q.pricer = &models[i]->pricer;
			q.model = models[i];
			q.fixes_from = chosen;
			q.nfixes_from = p->nobjects;
			char *log = res[i].build_log;
			build_result(&q, &runs[r].in, &runs[r].recs[j], &res[i]);
			res[i].build_log = log;
		}
	free(chosen);
	free(all);
}

/* The checks and the translation cb_lint_run makes, for the several models' run: PROG and
 * ARGV from REQ's kernel, WG its work-group (sub-group size not set). */
static cb_rc prepare(const cb_lint_request *req, const cb_lint_model *const *models, size_t n,
		     cb_lint_result *res, cb_prog *prog, cb_wg *wg, cb_val **argv, cb_error *err)
{
	cb_lint_request q = *req;
	q.pricer = n ? &models[0]->pricer : NULL;
	cb_rc rc = check_request(&q, wg, err);
	for (size_t i = 1; rc == CB_OK && i < n; i++) {
		q.pricer = &models[i]->pricer;
		rc = check_request(&q, wg, err);
	}
	cb_lint_ir ir;
	memset(&ir, 0, sizeof ir);
	if (rc == CB_OK)
		rc = cb_lint_compile(req, &ir, err);
	for (size_t i = 0; i < n; i++)
		res[i].build_log = cb_xstrdup(ir.log ? ir.log : "");
	if (rc == CB_OK && (rc = cb_lint_decode(ir.mod, req->kernel_name, prog, err)) != CB_OK) {
		char prefix[256];
		snprintf(prefix, sizeof prefix, "%s: ", req->kernel_path);
		cb_error_prefix(err, prefix);
	}
	cb_lint_ir_free(&ir);
	if (rc == CB_OK)
		rc = work_group(req, prog, wg, err);
	if (rc == CB_OK)
		rc = arg_values(req, prog, argv, err);
	return rc;
}

cb_rc cb_lint_run_models(const cb_lint_request *req, const cb_lint_model *const *models, size_t n,
			 cb_lint_result *res, cb_error *err)
{
	memset(res, 0, n * sizeof *res);
	if (!n)
		return cb_error_set(err, CB_ERR_USAGE, "lint needs a model");
	cb_prog prog;
	memset(&prog, 0, sizeof prog);
	cb_wg wg;
	cb_val *argv = NULL;
	cb_rc rc = prepare(req, models, n, res, &prog, &wg, &argv, err);
	size_run *runs = cb_xcalloc(n, sizeof *runs);
	size_t nr = rc == CB_OK ? group_sizes(models, n, runs) : 0;
	for (size_t r = 0; rc == CB_OK && r < nr; r++)
		rc = run_size(req, &prog, &wg, argv, models, &runs[r], err);
	if (rc == CB_OK)
		build_results(req, &prog, runs, nr, models, n, res);
	free_sizes(runs, nr);
	free(argv);
	cb_prog_free(&prog);
	return rc;
}
