/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "lint/lint_edit.h"

#include "core/readfile.h"
#include "core/swizzle.h"
#include "core/util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The byte after the bracket group opening at LINE[I] ('[' or '('), or 0 when unbalanced. */
static size_t close_of(const char *line, size_t len, size_t i)
{
	int depth = 0;
	for (; i < len; i++) {
		if (line[i] == '[' || line[i] == '(')
			depth++;
		else if ((line[i] == ']' || line[i] == ')') && --depth == 0)
			return i + 1;
	}
	return 0;
}

/* NAME[..] with RANK subscripts starting at byte AT of LINE, into REF. */
static bool ref_at(const char *line, size_t len, size_t at, const char *name, unsigned rank,
		   cb_src_ref *ref)
{
	size_t nl = strlen(name);
	if (at + nl > len || memcmp(line + at, name, nl) != 0 || (at && ident_char(line[at - 1])) ||
	    (at + nl < len && ident_char(line[at + nl])))
		return false;
	size_t i = at + nl;
	ref->nsubs = 0;
	for (unsigned k = 0; k < rank && k < 4; k++) {
		while (i < len && line[i] == ' ')
			i++;
		if (i >= len || line[i] != '[')
			return false;
		size_t e = close_of(line, len, i);
		if (!e)
			return false;
		ref->sub_start[k] = i + 1;
		ref->sub_end[k] = e - 1;
		ref->nsubs++;
		i = e;
	}
	/* one more subscript would make it another element than the one priced */
	size_t j = i;
	while (j < len && line[j] == ' ')
		j++;
	if (j < len && line[j] == '[')
		return false;
	ref->start = at;
	ref->end = i;
	return rank >= 1 && rank <= 4;
}

bool cb_src_find_ref(const char *line, size_t len, unsigned column, const char *name, unsigned rank,
		     cb_src_ref *ref)
{
	size_t col = column ? column - 1 : 0;
	cb_src_ref r, before = { 0 }, only = { 0 };
	unsigned nbefore = 0, count = 0;
	for (size_t at = 0; at < len; at++) {
		if (!ref_at(line, len, at, name, rank, &r))
			continue;
		if (at == col) {
			*ref = r;
			return true;
		}
		count++;
		only = r;
		/* a store: the reference, spaces, then the assignment at COLUMN */
		size_t j = r.end;
		while (j < col && line[j] == ' ')
			j++;
		if (j == col && r.end <= col) {
			before = r;
			nbefore++;
		}
	}
	if (nbefore == 1) {
		*ref = before;
		return true;
	}
	if (count == 1 && nbefore == 0) {
		*ref = only;
		return true;
	}
	return false;
}

/* Is S (trimmed) one operand: a name or number, a call, or a parenthesized expression? */
static bool one_operand(const char *s)
{
	size_t n = strlen(s), i = 0;
	if (!n)
		return false;
	if (s[0] == '(')
		return close_of(s, n, 0) == n;
	while (i < n && (ident_char(s[i]) || s[i] == '.'))
		i++;
	if (i == n)
		return true;
	return i > 0 && s[i] == '(' && close_of(s, n, i) == n;
}

void cb_src_substitute(const char *tmpl, const char *r, const char *c, char *out, size_t n)
{
	size_t k = 0;
	if (!n)
		return;
	for (size_t i = 0; tmpl[i] && k + 1 < n; i++) {
		bool alone = (tmpl[i] == 'r' || tmpl[i] == 'c') &&
			     (i == 0 || !ident_char(tmpl[i - 1])) && !ident_char(tmpl[i + 1]);
		if (!alone) {
			out[k++] = tmpl[i];
			continue;
		}
		const char *v = tmpl[i] == 'r' ? r : c;
		bool paren = !one_operand(v);
		int w = snprintf(out + k, n - k, paren ? "(%s)" : "%s", v);
		k = w < 0 || (size_t)w >= n - k ? n - 1 : k + (size_t)w;
	}
	out[k] = '\0';
}

bool cb_text_line(const char *text, size_t len, unsigned line, const char **s, size_t *n)
{
	const char *p = text, *end = text + len;
	if (!line)
		return false;
	for (unsigned l = 1; l < line && p < end; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	if (p >= end)
		return false;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*s = p;
	*n = (size_t)((nl ? nl : end) - p);
	return true;
}

/* A file's lines, read once for all the edits in it. */
typedef struct {
	const char *path;
	char *text;
	size_t len;
} src_file;

static bool line_of(src_file *f, const char *path, unsigned line, const char **s, size_t *n)
{
	if (!f->path || strcmp(f->path, path) != 0) {
		cb_error ignored;
		free(f->text);
		f->text = NULL;
		f->path = path;
		if (cb_read_file(path, (size_t)16 << 20, CB_READ_REGULAR_ONLY | CB_READ_TEXT,
				 &f->text, &f->len, &ignored) != CB_OK)
			f->text = NULL;
	}
	return f->text && cb_text_line(f->text, f->len, line, s, n);
}

static char *slice(const char *s, size_t a, size_t b)
{
	while (a < b && s[a] == ' ')
		a++;
	while (b > a && s[b - 1] == ' ')
		b--;
	char *t = cb_xmalloc(b - a + 1);
	memcpy(t, s + a, b - a);
	t[b - a] = '\0';
	return t;
}

static void add_edit(cb_lint_result *res, size_t *cap, const cb_lint_edit *e)
{
	if (res->nedits == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		res->edits = cb_xrealloc(res->edits, *cap * sizeof *res->edits);
	}
	res->edits[res->nedits++] = *e;
}

/* "r * W + c" split at its top-level '+' into the row R and column C, when one side is a
 * product with the literal W (a 1-D array indexed by rows of W). */
static bool split_rows(const char *x, unsigned width, char **r, char **c)
{
	size_t n = strlen(x);
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		depth += x[i] == '(' || x[i] == '[';
		depth -= x[i] == ')' || x[i] == ']';
		if (depth || x[i] != '+')
			continue;
		for (int side = 0; side < 2; side++) {
			char *t = side ? slice(x, i + 1, n) : slice(x, 0, i);
			char *other = side ? slice(x, 0, i) : slice(x, i + 1, n);
			char *star = strrchr(t, '*');
			char w[16];
			snprintf(w, sizeof w, "%u", width);
			char *lit = star ? slice(star, 1, strlen(star)) : NULL;
			if (star && lit && strcmp(lit, w) == 0 && !strchr(t, '+') &&
			    !strchr(t, '-')) {
				*r = slice(t, 0, (size_t)(star - t));
				*c = other;
				free(lit);
				free(t);
				return true;
			}
			free(lit);
			free(t);
			free(other);
		}
		return false;
	}
	return false;
}

/* The new text of reference REF of access A under choice C of object O, or NULL. */
static char *access_text(const cb_lint_object *o, const cb_lint_fix *f, const cb_lint_fix_choice *c,
			 const char *line, const cb_src_ref *ref)
{
	char tmpl[112], out[512];
	unsigned cols = o->rank == 2 ? (unsigned)o->dims[1] : f->width;
	cb_swizzle_column_expr_in(c->bits, c->shift, cols, tmpl, sizeof tmpl);
	char *s0 = slice(line, ref->sub_start[0], ref->sub_end[0]);
	char *s1 = ref->nsubs > 1 ? slice(line, ref->sub_start[1], ref->sub_end[1]) : NULL;
	char *r = NULL, *col = NULL, *res = NULL;
	if (o->rank == 2 && c->swizzle) {
		char sw[384];
		cb_src_substitute(tmpl, s0, s1, sw, sizeof sw);
		snprintf(out, sizeof out, "%s[%s][%s]", o->name, s0, sw);
		res = cb_xstrdup(out);
	} else if (o->rank == 1 && split_rows(s0, f->width, &r, &col)) {
		char sw[384];
		if (c->swizzle) {
			cb_src_substitute(tmpl, r, col, sw, sizeof sw);
			snprintf(out, sizeof out, "%s[%s * %u + (%s)]", o->name, r, f->width, sw);
		} else {
			cb_src_substitute("r", r, r, sw, sizeof sw);
			snprintf(out, sizeof out, "%s[%s * (%u + %u) + %s]", o->name, sw, f->width,
				 c->pad, col);
		}
		res = cb_xstrdup(out);
	}
	free(s0);
	free(s1);
	free(r);
	free(col);
	return res;
}

/* The declaration's new text under a padding C: the last subscript of a 2-D array plus the
 * padding, a 1-D array's length as rows of the padded width. */
static char *decl_text(const cb_lint_object *o, const cb_lint_fix *f, const cb_lint_fix_choice *c,
		       const char *line, const cb_src_ref *ref)
{
	char out[512];
	if (c->swizzle)
		return NULL;
	if (o->rank == 2) {
		char *s0 = slice(line, ref->sub_start[0], ref->sub_end[0]);
		char *s1 = slice(line, ref->sub_start[1], ref->sub_end[1]);
		snprintf(out, sizeof out, "%s[%s][%s + %u]", o->name, s0, s1, c->pad);
		free(s0);
		free(s1);
	} else {
		snprintf(out, sizeof out, "%s[%u * (%u + %u)]", o->name, f->rows, f->width, c->pad);
	}
	return cb_xstrdup(out);
}

static void edit_of(cb_lint_result *res, size_t *cap, src_file *sf, size_t k, unsigned choice,
		    size_t access)
{
	const cb_lint_object *o = &res->objects[k];
	const cb_lint_fix *f = &o->fix;
	const cb_lint_fix_choice *c = choice ? &f->alt : &f->best;
	const cb_lint_access *a = access == CB_LINT_DECL ? NULL : &res->accesses[access];
	const char *file = NULL;
	for (size_t i = 0; i < res->naccesses && !file; i++)
		if (res->accesses[i].object == (int)k && res->accesses[i].file[0])
			file = res->accesses[i].file;
	if (a)
		file = a->file;
	unsigned line = a ? a->line : o->decl_line;
	const char *s;
	size_t n;
	cb_src_ref ref;
	if (!file || !line_of(sf, file, line, &s, &n) ||
	    !cb_src_find_ref(s, n, a ? a->column : 0, o->name, o->rank, &ref))
		return;
	char *to = a ? access_text(o, f, c, s, &ref) : decl_text(o, f, c, s, &ref);
	if (!to)
		return;
	cb_lint_edit e = { .object = k,
			   .choice = choice,
			   .access = access,
			   .file = cb_xstrdup(file),
			   .line = line,
			   .column = (unsigned)ref.start + 1,
			   .end_column = (unsigned)ref.end + 1,
			   .from = slice(s, ref.start, ref.end),
			   .to = to };
	add_edit(res, cap, &e);
}

void cb_lint_make_edits(cb_lint_result *res)
{
	size_t cap = 0;
	src_file sf = { 0 };
	for (size_t k = 0; k < res->nobjects; k++) {
		const cb_lint_object *o = &res->objects[k];
		if (!o->fix.found || o->is_arg || o->rank < 1 || o->rank > 2)
			continue;
		for (unsigned choice = 0; choice < 2; choice++) {
			const cb_lint_fix_choice *c = choice ? &o->fix.alt : &o->fix.best;
			if (choice && !o->fix.alt_found)
				break;
			if (!c->swizzle && o->decl_line)
				edit_of(res, &cap, &sf, k, choice, CB_LINT_DECL);
			if (c->swizzle || o->rank == 1)
				/* every access changes with the layout, judged or not */
				for (size_t i = 0; i < res->naccesses; i++)
					if (res->accesses[i].object == (int)k)
						edit_of(res, &cap, &sf, k, choice, i);
		}
	}
	free(sf.text);
}

const cb_lint_edit *cb_lint_edit_of(const cb_lint_result *res, size_t object, unsigned choice,
				    size_t access)
{
	for (size_t i = 0; i < res->nedits; i++) {
		const cb_lint_edit *e = &res->edits[i];
		if (e->object == object && e->choice == choice && e->access == access)
			return e;
	}
	return NULL;
}

bool cb_lint_edit_first(const cb_lint_result *res, size_t i)
{
	const cb_lint_edit *e = &res->edits[i];
	for (size_t j = 0; j < i; j++) {
		const cb_lint_edit *d = &res->edits[j];
		if (d->object == e->object && d->choice == e->choice && d->line == e->line &&
		    d->column == e->column && !strcmp(d->file, e->file))
			return false;
	}
	return true;
}

bool cb_lint_edits_complete(const cb_lint_result *res, size_t object, unsigned choice)
{
	const cb_lint_object *o = &res->objects[object];
	const cb_lint_fix_choice *c = choice ? &o->fix.alt : &o->fix.best;
	if (!o->fix.found || (choice && !o->fix.alt_found))
		return false;
	if (!c->swizzle && !cb_lint_edit_of(res, object, choice, CB_LINT_DECL))
		return false;
	if (!c->swizzle && o->rank == 2)
		return true;
	for (size_t i = 0; i < res->naccesses; i++)
		if (res->accesses[i].object == (int)object &&
		    !cb_lint_edit_of(res, object, choice, i))
			return false;
	return true;
}

/* The fix CHOICE of A's array as it reads at A: its own edit ("tile[tx][(ty + j) ^ (tx & 31)]"),
 * a padding's declaration ("line 13: tile[TILE][TILE + 1]"), else the generic form. */
void cb_lint_fix_here(const cb_lint_result *r, const cb_lint_access *a, unsigned choice, char *buf,
		      size_t n)
{
	const cb_lint_object *o = &r->objects[a->object];
	size_t i = (size_t)(a - r->accesses);
	const cb_lint_edit *e = cb_lint_edit_of(r, (size_t)a->object, choice, i);
	const cb_lint_edit *d = cb_lint_edit_of(r, (size_t)a->object, choice, CB_LINT_DECL);
	if (e && d)
		snprintf(buf, n, "%s, with line %u: %s", e->to, d->line, d->to);
	else if (e)
		snprintf(buf, n, "%s", e->to);
	else if (d && o->rank == 2)
		snprintf(buf, n, "line %u: %s", d->line, d->to);
	else
		cb_lint_fix_text(o, &o->fix, choice ? &o->fix.alt : &o->fix.best, buf, n);
}

void cb_lint_edits_free(cb_lint_edit *edits, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(edits[i].file);
		free(edits[i].from);
		free(edits[i].to);
	}
	free(edits);
}
