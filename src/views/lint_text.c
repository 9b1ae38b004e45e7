/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/lint_text.h"

#include <inttypes.h>
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
}

/* "  PREFIX NOTE", wrapped; the note's words are escaped. */
static void note(FILE *out, const char *prefix, const char *text)
{
	wrap w = { out, 0 };
	w.col = fprintf(out, " %s", prefix);
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
			word(&w, buf);
		}
		p += len + (p[len] == ' ');
	}
	fputc('\n', out);
}

static void head(FILE *out, const cb_lint_result *r, const cb_lint_access *a)
{
	put_escaped(out, a->file);
	fprintf(out, ":%u:%u", a->line, a->column);
	what(out, r, a);
	fputs(": ", out);
	if (a->status == CB_LINT_UNKNOWN)
		fputs("unknown", out);
	else if (a->status == CB_LINT_NOT_EXECUTED)
		fputs("not executed", out);
	else if (a->conflict)
		fprintf(out, "%u %s (%u-way conflict; conflict-free minimum %u)", a->passes_max,
			passes(a->passes_max), a->ways, a->min_passes);
	else
		fprintf(out, "%u %s (conflict-free)", a->passes_max, passes(a->passes_max));
	fputc('\n', out);
	if (a->note[0])
		note(out, a->status == CB_LINT_ASSUMED ? " assumed:" : "", a->note);
}

static void fix(FILE *out, const cb_lint_result *r, const cb_lint_access *a)
{
	const cb_lint_fix *f = &a->fix;
	char buf[256];
	if (!f->wanted)
		return;
	if (!f->computed || (!f->pad_found && !f->swizzle_found)) {
		fprintf(out, "  fix: %s: ", f->computed ? "none found" : "no fix computed");
		put_escaped(out, f->note);
		fputc('\n', out);
		return;
	}
	const cb_lint_object *o = &r->objects[a->object];
	const char *lead = "  fix: ";
	if (f->pad_found) {
		cb_lint_pad_decl(o, f->pad, buf, sizeof buf);
		fputs(lead, out);
		put_escaped(out, buf);
		fprintf(out, " (%u %s, +%" PRIu64 " B)\n", f->pad_passes, passes(f->pad_passes),
			f->pad_bytes);
		lead = "   or: ";
	}
	if (f->swizzle_found) {
		cb_lint_swizzle_expr(o, f->bits, f->shift, buf, sizeof buf);
		fputs(lead, out);
		put_escaped(out, buf);
		fprintf(out, " (%u %s, no memory)\n", f->swizzle_passes, passes(f->swizzle_passes));
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
	bool has[3] = { false, false, false };
	for (size_t i = 0; i < r->naccesses; i++)
		has[r->accesses[i].op] = true;
	if (!r->has_model || (!has[CB_OP_STORE] && !has[CB_OP_ATOMIC]))
		return;
	fputs("priced with:", out);
	const char *sep = " ";
	for (int op = CB_OP_STORE; op <= CB_OP_ATOMIC; op++) {
		if (!has[op])
			continue;
		const cb_lint_op_model *own = &r->ops[op];
		fprintf(out, "%s%s ", sep, op == CB_OP_STORE ? "stores" : "atomics");
		if (own->measured && own->by_size) {
			fputs("the measured model of", out);
			for (int e = 0, n = 0; e < CB_NELEM; e++)
				if (own->lanes_per_pass[e])
					fprintf(out, "%s %u B", n++ ? "," : "", cb_elems[e].bytes);
			fprintf(out, " only, %u x %u B%s", own->geom.banks, own->geom.width,
				own->geom.broadcast ? "" : " without broadcast");
		} else if (own->measured)
			fprintf(out, "their own measured model, %u x %u B%s", own->geom.banks,
				own->geom.width, own->geom.broadcast ? "" : " without broadcast");
		else
			fprintf(out, "the loads' model%s (the document has no one model for them)",
				op == CB_OP_ATOMIC ? " without broadcast" : "");
		sep = "; ";
	}
	fputc('\n', out);
}

void cb_lint_print_text(FILE *out, const cb_lint_result *r)
{
	size_t counts[4] = { 0, 0, 0, 0 }, conflicts = 0;
	put_escaped(out, r->path ? r->path : "");
	fputs(": kernel ", out);
	put_escaped(out, r->kernel ? r->kernel : "");
	fprintf(out, ", work-group %u x %u x %u (group %u,%u,%u), sub-groups of %u\n", r->local[0],
		r->local[1], r->local[2], r->group[0], r->group[1], r->group[2], r->subgroup);
	models_line(out, r);
	for (size_t i = 0; i < r->naccesses; i++) {
		const cb_lint_access *a = &r->accesses[i];
		head(out, r, a);
		counts[a->status]++;
		conflicts += a->conflict && a->status != CB_LINT_UNKNOWN;
		if (a->status == CB_LINT_NOT_EXECUTED)
			continue;
		fix(out, r, a);
		iterations(out, a);
		lanes(out, r, a);
	}
	fprintf(out, "%zu __local access%s: %zu predicted, %zu assumed, %zu unknown, %zu not "
		"executed; %zu with conflicts\n", r->naccesses, r->naccesses == 1 ? "" : "es",
		counts[CB_LINT_PREDICTED], counts[CB_LINT_ASSUMED], counts[CB_LINT_UNKNOWN],
		counts[CB_LINT_NOT_EXECUTED], conflicts);
}
