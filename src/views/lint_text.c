/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/lint_text.h"
#include "lint/lint_edit.h"
#include "lint/lint_measure.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 98

/* S with control characters as \xHH: kernel names and paths are not to be trusted. */
static int put_escaped(FILE *out, const char *s)
{
	int n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (*p < 0x20 || *p == 0x7f) ? fprintf(out, "\\x%02x", *p) : (putc(*p, out), 1);
	return n;
}

static const char *passes(unsigned n)
{
	return n == 1 ? "pass" : "passes";
}

/* Words wrapped under WIDTH columns, continuation lines indented by 4. */
typedef struct {
	FILE *out;
	int col;
} wrap;

static void word(wrap *w, const char *s)
{
	int len = (int)strlen(s);
	if (w->col + 1 + len > WIDTH) {
		fputs("\n   ", w->out);
		w->col = 3;
	}
	w->col += fprintf(w->out, " %s", s);
}

static void what(FILE *out, const cb_lint_result *r, const cb_lint_access *a)
{
	char decl[256];
	fprintf(out, ": %s ", cb_op_name(a->op));
	if (a->object < 0) {
		put_escaped(out, a->elem_type);
		fputs(" (object not known)", out);
		return;
	}
	const cb_lint_object *o = &r->objects[a->object];
	cb_lint_object_decl(o, decl, sizeof decl);
	if (strcmp(o->elem_type, a->elem_type) != 0) {
		put_escaped(out, a->elem_type);
		fputs(" from ", out);
	}
	put_escaped(out, decl);
	if (a->nsame > 1)
		fprintf(out, " (%u of %u here)", a->nth, a->nsame);
}

/* "  PREFIX NOTE", wrapped; the note's words are escaped. */
/* TEXT's words after what W has written, wrapped, control characters escaped. */
static void words(wrap *w, const char *text)
{
	char buf[256];
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, " ");
		if (len) {
			char *q = buf;
			for (size_t i = 0; i < len && q < buf + sizeof buf - 5; i++) {
				unsigned char c = (unsigned char)p[i];
				q += c < 0x20 || c == 0x7f ? snprintf(q, 5, "\\x%02x", c)
							   : (*q = (char)c, 1);
			}
			*q = '\0';
			word(w, buf);
		}
		p += len + (p[len] == ' ');
	}
}

static void note(FILE *out, const char *prefix, const char *text)
{
	wrap w = { out, 0 };
	w.col = fprintf(out, " %s", prefix);
	words(&w, text);
	fputc('\n', out);
}

static void where(FILE *out, const cb_lint_access *a)
{
	put_escaped(out, a->file);
	fprintf(out, ":%u:%u: ", a->line, a->column);
}

/* "; measured 31.4x (95%: 31.0-31.8)", or why it was not measured. */
static void measured(FILE *out, const cb_lint_result *r, const cb_lint_measured *m)
{
	if (m->done && r->has_model)
		fprintf(out, "; measured %.2fx (95%%: %.2f-%.2f), model %.2fx", m->slowdown,
			m->ci_lo, m->ci_hi, m->predicted);
	else if (m->done)
		fprintf(out, "measured %.2fx the conflict-free time (95%%: %.2f-%.2f)", m->slowdown,
			m->ci_lo, m->ci_hi);
	else if (m->note[0] && strncmp(m->note, "not measured", 12) == 0)
		fprintf(out, "%s%s", r->has_model ? "; " : "", m->note);
	else
		fputs(r->has_model ? "; not measured" : "not measured", out);
}

/* What --measure found beyond the line: a prediction it contradicts, the tables' share. */
static void measured_notes(FILE *out, const cb_lint_result *r, const cb_lint_access *a,
			   bool verbose)
{
	const cb_lint_measured *m = &a->measured;
	char buf[320];
	if (m->done && m->disagrees) {
		where(out, a);
		fprintf(out,
			"note: measured %.2fx where the model predicts %.2fx: the model is wrong "
			"for this pattern on ",
			m->slowdown, m->predicted);
		put_escaped(out, r->measured_device);
		fputc('\n', out);
	}
	if (m->done && m->note[0] && verbose)
		note(out, " measured:", m->note);
	if (m->done && verbose) {
		snprintf(buf, sizeof buf,
			 "%u lane table%s timed (%.0f%% of its sub-group accesses): "
			 "%.3g ns per access, conflict-free %.3g ns",
			 m->tables, m->tables == 1 ? "" : "s", 100 * m->coverage, m->ns,
			 m->baseline_ns);
		note(out, " measured:", buf);
	}
}

/* A warning for a conflict or an access that cannot be priced, as compilers write them; a
 * conflict-free, suppressed or not executed access only with --verbose, or when measured.
 * False when nothing is written. */
static bool head(FILE *out, const cb_lint_result *r, const cb_lint_access *a, bool verbose)
{
	bool warn = !a->suppressed && (a->status == CB_LINT_UNKNOWN || a->conflict ||
				       cb_lint_measured_warns(&a->measured));
	bool shown = r->measured && a->status != CB_LINT_NOT_EXECUTED;
	if (!warn && !verbose && !shown)
		return false;
	where(out, a);
	fputs(warn ? "warning" : a->suppressed ? "note: accepted" : "note", out);
	what(out, r, a);
	fputs(": ", out);
	if (a->status == CB_LINT_UNKNOWN)
		fputs("unknown (not priced)", out);
	else if (a->status == CB_LINT_NOT_EXECUTED)
		fputs("not executed", out);
	else if (r->has_model && a->conflict)
		fprintf(out, "%u %s, %u-way conflict (minimum %u)", a->passes_max,
			passes(a->passes_max), a->ways, a->min_passes);
	else if (r->has_model)
		fprintf(out, "%u %s (conflict-free)", a->passes_max, passes(a->passes_max));
	if (r->measured && a->status != CB_LINT_UNKNOWN && a->status != CB_LINT_NOT_EXECUTED)
		measured(out, r, &a->measured);
	fputc('\n', out);
	if (a->note[0])
		note(out, a->status == CB_LINT_ASSUMED ? " assumed:" : "", a->note);
	measured_notes(out, r, a, verbose);
	return true;
}

/* The access's array fix, as note lines: its passes here under the fix. */
static void fix(FILE *out, const cb_lint_result *r, const cb_lint_access *a)
{
	char buf[256];
	if (!a->conflict || a->status == CB_LINT_UNKNOWN || a->suppressed)
		return;
	if (!a->fixed) {
		where(out, a);
		fputs("note: no fix: ", out);
		put_escaped(out, a->fix_note[0] ? a->fix_note : "none found");
		fputc('\n', out);
		return;
	}
	const cb_lint_object *o = &r->objects[a->object];
	const cb_lint_fix *f = &o->fix;
	for (int k = 0; k < 2; k++) {
		const cb_lint_fix_choice *c = k ? &f->alt : &f->best;
		unsigned here = k ? a->alt_passes : a->fixed_passes;
		if (k && !f->alt_found)
			break;
		cb_lint_fix_here(r, a, (unsigned)k, buf, sizeof buf);
		where(out, a);
		fputs(k ? "note: or: " : "note: fix: ", out);
		put_escaped(out, buf);
		fprintf(out, " (%u %s here, ", here, passes(here));
		if (c->bytes)
			fprintf(out, "+%" PRIu64 " B", c->bytes);
		else
			fputs("no memory", out);
		if (!k && a->fixed_measured.done)
			fprintf(out, "; measured %.2fx", a->fixed_measured.slowdown);
		fputs(")\n", out);
	}
}

/* Passes per iteration, runs of equal values as "N (xK)". */
static void iterations(FILE *out, const cb_lint_access *a)
{
	if (a->niter < 2)
		return;
	wrap w = { out, 0 };
	w.col = fprintf(out, "  passes by iteration:");
	for (size_t i = 0; i < a->niter;) {
		size_t j = i;
		while (j + 1 < a->niter && a->iter[j + 1].known == a->iter[i].known &&
		       a->iter[j + 1].passes == a->iter[i].passes)
			j++;
		char buf[48];
		int k = a->iter[i].known ? snprintf(buf, sizeof buf, "%u", a->iter[i].passes)
					 : snprintf(buf, sizeof buf, "?");
		if (j - i >= 2)
			snprintf(buf + k, sizeof buf - (size_t)k, " (x%zu)", j - i + 1);
		else
			j = i;
		word(&w, buf);
		i = j + 1;
	}
	fputc('\n', out);
}

static void lanes(FILE *out, const cb_lint_result *r, const cb_lint_access *a)
{
	if (!a->nlanes)
		return;
	wrap w = { out, 0 };
	w.col = fprintf(out, "  lanes of sub-group %u, bytes into ", a->first_subgroup);
	w.col += a->object >= 0 ? put_escaped(out, r->objects[a->object].name)
				: fprintf(out, "the object");
	fputc(':', out);
	w.col++;
	for (unsigned l = 0; l < a->nlanes; l++) {
		const cb_lint_lane *x = &a->lanes[l];
		char buf[64];
		if (!x->active)
			snprintf(buf, sizeof buf, "-");
		else if (x->known)
			snprintf(buf, sizeof buf, "%" PRId64, x->lo);
		else
			snprintf(buf, sizeof buf, "%" PRId64 "..%" PRId64, x->lo, x->hi);
		word(&w, buf);
	}
	fputc('\n', out);
	fprintf(out, "  %u sub-group%s: bytes %" PRId64 "..%" PRId64 "%s\n", a->subgroups,
		a->subgroups == 1 ? "" : "s", a->range_lo, a->range_hi,
		a->range_known ? "" : " (bounds)");
}

/* Which model priced the stores and atomics, when the kernel has any. */
static void models_line(FILE *out, const cb_lint_result *r)
{
	bool has[CB_LINT_KINDS] = { false };
	for (size_t i = 0; i < r->naccesses; i++)
		has[r->accesses[i].op] = true;
	if (r->has_model && r->flat) {
		fputs("priced with: a model that is not banked (inference not_banked): every access "
		      "takes one pass\n",
		      out);
		return;
	}
	bool others = false; /* an op beside the loads */
	for (int op = CB_OP_STORE; op < CB_NOPS; op++)
		others |= has[op];
	if (r->has_model && r->documented)
		fputs("priced with: a documented model (the vendor's documentation, not measured)\n",
		      out);
	if (!r->has_model || !others)
		return;
	const char *kind = r->documented ? "documented" : "measured";
	fputs("priced with:", out);
	const char *sep = " ";
	for (int op = CB_OP_STORE; op < CB_NOPS; op++) {
		if (!has[op])
			continue;
		const cb_lint_op_model *own = &r->ops[op];
		fprintf(out, "%s%s ", sep, cb_ops[op].plural);
		if (own->measured && own->by_size) {
			fprintf(out, "the %s model of", kind);
			for (int e = 0, n = 0; e < CB_NELEM; e++)
				if (own->lanes_per_pass[e])
					fprintf(out, "%s %u B", n++ ? "," : "", cb_elems[e].bytes);
			fprintf(out, " only, %u x %u B%s", own->geom.banks, own->geom.width,
				own->geom.broadcast ? "" : " without broadcast");
		} else if (own->measured)
			fprintf(out, "their own %s model, %u x %u B%s", kind, own->geom.banks,
				own->geom.width, own->geom.broadcast ? "" : " without broadcast");
		else
			fprintf(out, "the loads' model%s (the document has no one model for them)",
				op == CB_OP_ATOMIC ? " without broadcast" : "");
		sep = "; ";
	}
	fputc('\n', out);
}

/* The best fix of array K as edits of the kernel, each access's (a swizzle changes every
 * access of the array, judged or not), or why they are not the whole fix. */
static void edits(FILE *out, const cb_lint_result *r, size_t k)
{
	size_t shown = 0;
	for (size_t i = 0; i < r->nedits; i++) {
		const cb_lint_edit *e = &r->edits[i];
		if (e->object != k || e->choice != 0 || !cb_lint_edit_first(r, i))
			continue;
		fprintf(out, "  %s line %u: ", shown++ ? "   " : "edit", e->line);
		put_escaped(out, e->from);
		fputs(" -> ", out);
		put_escaped(out, e->to);
		fputc('\n', out);
	}
	if (shown && !cb_lint_edits_complete(r, k, 0))
		fputs("  (not every access of the array reads as its name and subscripts: change "
		      "the others the same way by hand)\n",
		      out);
}

/* "line 11", "line 11:14" where another access of the kernel has that line but another
 * column, and "(load)" after it where another shares the place too, "(store 2 of 2)" where
 * several accesses of one op do (a macro's expansion), as their warnings number them. */
static void place(const cb_lint_result *r, const cb_lint_access *a, char *buf, size_t n)
{
	bool col = false, op = a->nsame > 1;
	for (size_t i = 0; i < r->naccesses; i++) {
		const cb_lint_access *b = &r->accesses[i];
		if (b == a || b->line != a->line || strcmp(b->file, a->file))
			continue;
		col |= b->column != a->column;
		op |= b->column == a->column; /* a load and a store of one += */
	}
	int w = col ? snprintf(buf, n, "line %u:%u", a->line, a->column)
		    : snprintf(buf, n, "line %u", a->line);
	if (op && w > 0 && (size_t)w < n) {
		if (a->nsame > 1)
			snprintf(buf + w, n - (size_t)w, " (%s %u of %u)", cb_op_name(a->op),
				 a->nth, a->nsame);
		else
			snprintf(buf + w, n - (size_t)w, " (%s)", cb_op_name(a->op));
	}
}

/* Each array with a fix: the passes in all before and after, and each access under it. */
static void array_fixes(FILE *out, const cb_lint_result *r)
{
	char buf[256], decl[256];
	for (size_t k = 0; k < r->nobjects; k++) {
		const cb_lint_object *o = &r->objects[k];
		const cb_lint_fix *f = &o->fix;
		if (!f->found)
			continue;
		cb_lint_fix_text(o, f, &f->best, buf, sizeof buf);
		cb_lint_object_decl(o, decl, sizeof decl);
		wrap w = { out, 0 };
		w.col = fprintf(out, "fix for ");
		w.col += put_escaped(out, decl);
		w.col += fprintf(out, ": ");
		w.col += put_escaped(out, buf);
		char t[128];
		if (f->measured)
			snprintf(t, sizeof t,
				 ": passes in all %.0f -> %.0f, measured %.2fx -> %.2fx; "
				 "per access:",
				 f->total_before, f->best.total_passes, f->measured_before,
				 f->measured_after);
		else
			snprintf(t, sizeof t,
				 ": passes in all %.0f -> %.0f; per access:", f->total_before,
				 f->best.total_passes);
		w.col += fprintf(out, "%s", t);
		size_t left = 0;
		for (size_t i = 0; i < r->naccesses; i++)
			left += r->accesses[i].object == (int)k && r->accesses[i].fixed;
		for (size_t i = 0; i < r->naccesses; i++) {
			const cb_lint_access *a = &r->accesses[i];
			if (a->object != (int)k || !a->fixed)
				continue;
			char at[64];
			place(r, a, at, sizeof at);
			snprintf(t, sizeof t, "%s: %u -> %u%s", at, a->passes_max, a->fixed_passes,
				 --left ? "," : "");
			word(&w, t);
		}
		fputc('\n', out);
		edits(out, r, k);
		if (f->unjudged) {
			unsigned unknown = 0;
			for (size_t i = 0; i < r->naccesses; i++)
				unknown += r->accesses[i].object == (int)k &&
					   r->accesses[i].status == CB_LINT_UNKNOWN;
			fprintf(out,
				"  (%u access%s of it not judged: %u with unknown offsets, %u not "
				"indexing it by whole elements)\n",
				f->unjudged, f->unjudged == 1 ? "" : "es", unknown,
				f->unjudged > unknown ? f->unjudged - unknown : 0);
		}
	}
}

static int by_excess(const void *x, const void *y)
{
	const cb_lint_access *a = *(const cb_lint_access *const *)x;
	const cb_lint_access *b = *(const cb_lint_access *const *)y;
	uint64_t ea = a->total_passes - a->total_min, eb = b->total_passes - b->total_min;
	return ea < eb ? 1 : ea > eb ? -1 : 0;
}

/* The kernel's passes in all and those beyond the minimum (Nsight's excessive wavefronts),
 * with the accesses that cost most, ranked. */
static void excess(FILE *out, const cb_lint_result *r)
{
	uint64_t total = 0, min = 0;
	const cb_lint_access **rank = calloc(r->naccesses + 1, sizeof *rank);
	size_t n = 0;
	for (size_t i = 0; i < r->naccesses; i++) {
		const cb_lint_access *a = &r->accesses[i];
		total += a->total_passes;
		min += a->total_min;
		if (rank && a->total_passes > a->total_min && !a->suppressed)
			rank[n++] = a;
	}
	if (!r->has_model && r->measured)
		n = 0; /* nothing was predicted: only the measurement below */
	else
		fprintf(out,
			"passes in all: %" PRIu64 ", %" PRIu64 " beyond the conflict-free minimum",
			total, total - min);
	if (rank && n) {
		qsort(rank, n, sizeof *rank, by_excess);
		fputs("; most:", out);
		for (size_t i = 0; i < n && i < 3; i++) {
			char at[64];
			place(r, rank[i], at, sizeof at);
			fprintf(out, "%s %s (%" PRIu64 ")", i ? "," : "", at,
				rank[i]->total_passes - rank[i]->total_min);
		}
	}
	if (r->has_model || !r->measured)
		fputc('\n', out);
	free(rank);
	if (r->measured && r->measured_accesses)
		if (r->measured && r->measured_accesses) {
			fputs("measured on ", out);
			put_escaped(out, r->measured_device);
		}
	if (r->measured && r->measured_accesses)
		fprintf(out, ": %.2fx the conflict-free time (95%%: %.2f-%.2f) over %zu access%s%s",
			r->measured_total, r->measured_total - r->measured_total_ci,
			r->measured_total + r->measured_total_ci, r->measured_accesses,
			r->measured_accesses == 1 ? "" : "es", r->has_model ? "" : "\n");
	else if (r->measured)
		fputs("measured: no access could be timed\n", out);
	if (r->measured && r->measured_accesses && r->has_model)
		fprintf(out, "; the model predicts %.2fx\n", r->predicted_total);
}

/* "PATH: kernel K, work-group X x Y x Z (group ...), sub-groups of S" and, with models in
 * columns (NMODELS > 0, each at its own sub-group size), "; N models" instead of S. */
static void kernel_line(FILE *out, const cb_lint_result *r, size_t nmodels)
{
	put_escaped(out, r->path ? r->path : "");
	fputs(": kernel ", out);
	put_escaped(out, r->kernel ? r->kernel : "");
	fprintf(out, ", work-group %u x %u x %u (group %u,%u,%u)", r->local[0], r->local[1],
		r->local[2], r->group[0], r->group[1], r->group[2]);
	if (nmodels)
		fprintf(out, "; %zu model%s", nmodels, nmodels == 1 ? "" : "s");
	else
		fprintf(out, ", sub-groups of %u", r->subgroup);
	fputc('\n', out);
}

/* The coverage's count. OpenCL: "IR 5 __local operations, 5 reported" (the accesses through
 * generic pointers, if any, follow the statuses). CUDA and HIP reach __shared__ memory through
 * generic pointers, which the IR's count of __shared__ operations does not hold: "2 __shared__
 * accesses, all through generic pointers", that count added only where it has any. */
static void coverage_count(FILE *out, const cb_lint_result *r)
{
	const cb_lint_coverage *c = &r->coverage;
	const char *mem = r->lang == CB_LINT_OPENCL ? "__local" : "__shared__";
	if (r->lang == CB_LINT_OPENCL || !c->generic) {
		fprintf(out, "IR %zu %s operation%s, %zu reported", c->ir, mem,
			c->ir == 1 ? "" : "s", c->reported);
		return;
	}
	size_t n = c->reported + c->generic;
	fprintf(out, "%zu %s access%s, ", n, mem, n == 1 ? "" : "es");
	if (!c->ir && !c->reported)
		fputs(n == 1 ? "through a generic pointer" : "all through generic pointers", out);
	else
		fprintf(out, "%zu through generic pointers (IR %zu %s operation%s, %zu reported)",
			c->generic, c->ir, mem, c->ir == 1 ? "" : "s", c->reported);
}

/* "coverage: IR 5 __local operations, 5 reported: ..." on every run, so that nothing is
 * skipped silently, then a line of reasons for each status that has any; an operation of the
 * IR that no access reports is shown as missed. */
static void coverage_line(FILE *out, const cb_lint_result *r)
{
	static const char *const label[4] = { "predicted", "assumed", "unknown", "not executed" };
	static const cb_lint_why first[4] = { CB_LINT_NWHY, CB_LINT_WHY_BRANCH, CB_LINT_WHY_DATA,
					      CB_LINT_WHY_SIDE };
	static const cb_lint_why end[4] = { CB_LINT_NWHY, CB_LINT_WHY_DATA, CB_LINT_WHY_SIDE,
					    CB_LINT_NWHY };
	const cb_lint_coverage *c = &r->coverage;
	fputs("coverage: ", out);
	coverage_count(out, r);
	fputc(':', out);
	for (unsigned s = 0; s < 4; s++)
		fprintf(out, "%s %zu %s", s ? "," : "", c->status[s], label[s]);
	if (c->generic && r->lang == CB_LINT_OPENCL)
		fprintf(out, "; %zu through generic pointers", c->generic);
	if (c->reported != c->ir)
		fprintf(out, "; %zu of the IR's NOT SEEN (a lint bug: please report it)",
			c->reported < c->ir ? c->ir - c->reported : c->reported - c->ir);
	fputc('\n', out);
	for (unsigned s = 1; s < 4; s++) {
		const char *sep = ":";
		for (unsigned w = first[s]; w < end[s]; w++) {
			if (!c->why[w])
				continue;
			if (sep[0] == ':')
				fprintf(out, "  %s", label[s]);
			fprintf(out, "%s %s %zu", sep, cb_lint_why_text((cb_lint_why)w), c->why[w]);
			sep = ",";
		}
		if (sep[0] == ',')
			fputc('\n', out);
	}
}

void cb_lint_print_text(FILE *out, const cb_lint_result *r, bool verbose)
{
	size_t counts[4] = { 0, 0, 0, 0 }, conflicts = 0, accepted = 0, measured_n = 0;
	kernel_line(out, r, 0);
	models_line(out, r);
	if (verbose && r->predefined[0])
		note(out, " predefined:", r->predefined);
	for (size_t i = 0; i < r->naccesses; i++) {
		const cb_lint_access *a = &r->accesses[i];
		counts[a->status]++;
		conflicts += (a->conflict || cb_lint_measured_warns(&a->measured)) &&
			     a->status != CB_LINT_UNKNOWN && !a->suppressed;
		measured_n += a->measured.done;
		accepted += a->conflict && a->suppressed;
		if (!head(out, r, a, verbose) || a->status == CB_LINT_NOT_EXECUTED)
			continue;
		fix(out, r, a);
		if (verbose) {
			iterations(out, a);
			lanes(out, r, a);
		}
	}
	array_fixes(out, r);
	if (r->has_model)
		fprintf(out,
			"%zu __local access%s: %zu predicted, %zu assumed, %zu unknown, %zu not "
			"executed; %zu with conflicts",
			r->naccesses, r->naccesses == 1 ? "" : "es", counts[CB_LINT_PREDICTED],
			counts[CB_LINT_ASSUMED], counts[CB_LINT_UNKNOWN],
			counts[CB_LINT_NOT_EXECUTED], conflicts);
	else
		fprintf(out,
			"%zu __local access%s: %zu measured, %zu unknown, %zu not executed; %zu "
			"with measured conflicts (no model: nothing predicted)",
			r->naccesses, r->naccesses == 1 ? "" : "es", measured_n,
			counts[CB_LINT_UNKNOWN], counts[CB_LINT_NOT_EXECUTED], conflicts);
	if (accepted)
		fprintf(out, ", %zu accepted", accepted);
	fputc('\n', out);
	coverage_line(out, r);
	excess(out, r);
}

/* One model's passes of an access, on a line of its own: "  NVIDIA H200, 32 lanes: 32 passes,
 * 32-way (minimum 1)"; where the model cannot price it, why. */
static void model_passes(FILE *out, const char *label, const cb_lint_result *r,
			 const cb_lint_access *a)
{
	wrap w = { out, 2 };
	fputs("  ", out);
	w.col += put_escaped(out, label);
	w.col += fprintf(out, ", %u lanes: ", r->subgroup);
	if (!a)
		fputs("not reached", out);
	else if (!a->priced) {
		fputs(a->note[0] ? "not priced:" : "not priced", out);
		w.col += 11;
		words(&w, a->note);
	} else if (a->conflict)
		fprintf(out, "%u %s, %u-way (minimum %u)", a->passes_max, passes(a->passes_max),
			a->ways, a->min_passes);
	else
		fprintf(out, "%u %s", a->passes_max, passes(a->passes_max));
	fputc('\n', out);
}

static void fix_by_model(FILE *out, const cb_lint_result *const *res, const char *const *labels,
			 size_t n, size_t k, size_t i)
{
	const cb_lint_access *a0 = &res[0][k].accesses[i];
	size_t f = 0; /* the first model that judged the fix (one that cannot price: none) */
	while (a0->object >= 0 && f < n && !res[f][k].objects[a0->object].fix.found)
		f++;
	if (a0->object < 0 || f == n)
		return;
	const cb_lint_object *o = &res[f][k].objects[a0->object];
	char buf[256];
	cb_lint_fix_text(o, &o->fix, &o->fix.best, buf, sizeof buf);
	where(out, a0);
	fputs("note: fix across the models: ", out);
	put_escaped(out, buf);
	if (o->fix.best.bytes)
		fprintf(out, " (+%" PRIu64 " B); here:\n", o->fix.best.bytes);
	else
		fputs(" (no memory); here:\n", out);
	for (size_t m = 0; m < n; m++) {
		const cb_lint_access *a = cb_lint_same_access(&res[m][k], a0);
		fputs("  ", out);
		put_escaped(out, labels[m]);
		if (a && a->fixed)
			fprintf(out, ", %u lanes: %u %s\n", res[m][k].subgroup, a->fixed_passes,
				passes(a->fixed_passes));
		else
			fprintf(out, ", %u lanes: not judged\n", res[m][k].subgroup);
	}
}

/* "model NVIDIA H200: sub-groups of 32", a line per model in the order given. */
static void models_list(FILE *out, const cb_lint_result *const *res, const char *const *labels,
			size_t n, size_t k)
{
	for (size_t m = 0; m < n; m++) {
		fputs("model ", out);
		put_escaped(out, labels[m]);
		fprintf(out, ": sub-groups of %u%s\n", res[m][k].subgroup,
			res[m][k].flat ? ", not banked (every access one pass)" : "");
	}
}

/* "  measured on DEVICE, 8 lanes: 1.02x the conflict-free time (95%: ...)": the access's
 * tables timed on the device (at its own sub-group size), beside the models. */
static void measured_beside(FILE *out, const cb_lint_result *meas, const cb_lint_access *a0)
{
	const cb_lint_access *a = cb_lint_same_access(meas, a0);
	fputs("  measured on ", out);
	put_escaped(out, meas->measured_device ? meas->measured_device : "");
	fprintf(out, ", %u lanes: ", meas->subgroup);
	const cb_lint_measured *m = a ? &a->measured : NULL;
	if (!a)
		fputs("not reached", out);
	else if (m->done)
		fprintf(out, "%.2fx the conflict-free time (95%%: %.2f-%.2f)", m->slowdown,
			m->ci_lo, m->ci_hi);
	else
		put_escaped(out, m->note[0] ? m->note : "not measured");
	fputc('\n', out);
}

/* "measured on DEVICE, 8 lanes: 1.01x the conflict-free time (95%: ...) over 2 accesses". */
static void measured_total(FILE *out, const cb_lint_result *meas)
{
	fputs("measured on ", out);
	put_escaped(out, meas->measured_device ? meas->measured_device : "");
	if (meas->measured_accesses)
		fprintf(out,
			", %u lanes: %.2fx the conflict-free time (95%%: %.2f-%.2f) over %zu "
			"access%s\n",
			meas->subgroup, meas->measured_total,
			meas->measured_total - meas->measured_total_ci,
			meas->measured_total + meas->measured_total_ci, meas->measured_accesses,
			meas->measured_accesses == 1 ? "" : "es");
	else
		fprintf(out, ", %u lanes: no access could be timed\n", meas->subgroup);
}

void cb_lint_print_models(FILE *out, const cb_lint_result *const *res, const char *const *labels,
			  size_t n, size_t k, const cb_lint_result *meas, bool verbose)
{
	const cb_lint_result *r = &res[0][k];
	kernel_line(out, r, n);
	models_list(out, res, labels, n, k);
	for (size_t i = 0; i < r->naccesses; i++) {
		bool warn = false;
		for (size_t m = 0; m < n; m++) {
			const cb_lint_access *a = cb_lint_same_access(&res[m][k], &r->accesses[i]);
			warn |= a && !a->suppressed &&
				(a->status == CB_LINT_UNKNOWN || a->conflict);
		}
		const cb_lint_access *a = &r->accesses[i],
				     *ma = meas ? cb_lint_same_access(meas, a) : NULL;
		warn |= ma && !ma->suppressed && cb_lint_measured_conflict(&ma->measured);
		if ((!warn && !verbose && !(ma && ma->measured.done)) ||
		    a->status == CB_LINT_NOT_EXECUTED)
			continue;
		where(out, a);
		fputs(warn ? "warning" : "note", out);
		what(out, r, a);
		fputs(":\n", out);
		for (size_t m = 0; m < n; m++)
			model_passes(out, labels[m], &res[m][k],
				     cb_lint_same_access(&res[m][k], a));
		if (meas)
			measured_beside(out, meas, a);
		if (a->note[0] && a->reason != CB_LINT_WHY_MODEL)
			note(out, a->status == CB_LINT_ASSUMED ? " assumed:" : "", a->note);
		if (warn)
			fix_by_model(out, res, labels, n, k, i);
	}
	for (size_t m = 0; m < n; m++) {
		uint64_t total = 0, min = 0;
		size_t priced = 0;
		for (size_t i = 0; i < res[m][k].naccesses; i++) {
			total += res[m][k].accesses[i].total_passes;
			min += res[m][k].accesses[i].total_min;
			priced += res[m][k].accesses[i].priced;
		}
		fputs("passes in all, ", out);
		put_escaped(out, labels[m]);
		if (!priced && res[m][k].naccesses) {
			fputs(": no access priced\n", out);
			continue;
		}
		fprintf(out, ": %" PRIu64 ", %" PRIu64 " beyond the conflict-free minimum", total,
			total - min);
		for (size_t j = 0; j < res[m][k].nobjects; j++) {
			const cb_lint_fix *f = &res[m][k].objects[j].fix;
			if (f->found) {
				fputs("; fix of ", out);
				put_escaped(out, res[m][k].objects[j].name);
				fprintf(out, ": %.0f -> %.0f", f->total_before,
					f->best.total_passes);
			}
		}
		fputc('\n', out);
	}
	if (meas && meas->measured)
		measured_total(out, meas);
}
