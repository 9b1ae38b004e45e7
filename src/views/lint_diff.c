/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/lint_diff.h"

#include "core/readfile.h"
#include "core/util.h"
#include "lint/lint_edit.h"

#include <stdlib.h>
#include <string.h>

#define CONTEXT 3

/* The edits to apply: each array's best fix when its edits are whole, once per place. */
static const cb_lint_edit **chosen(const cb_lint_result *res, size_t n, size_t *count)
{
	size_t cap = 0;
	const cb_lint_edit **v = NULL;
	*count = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t k = 0; k < res[r].nobjects; k++) {
			const cb_lint_object *o = &res[r].objects[k];
			if (!o->fix.found)
				continue;
			if (!cb_lint_edits_complete(&res[r], k, 0))
				continue;
			for (size_t i = 0; i < res[r].nedits; i++) {
				const cb_lint_edit *e = &res[r].edits[i];
				bool again = e->object != k || e->choice != 0;
				for (size_t j = 0; j < *count && !again; j++)
					again = v[j]->line == e->line &&
						v[j]->column == e->column &&
						!strcmp(v[j]->file, e->file);
				if (again)
					continue;
				if (*count == cap) {
					cap = cap ? 2 * cap : 16;
					v = cb_xrealloc(v, cap * sizeof *v);
				}
				v[(*count)++] = e;
			}
		}
	return v;
}

static int by_place(const void *x, const void *y)
{
	const cb_lint_edit *a = *(const cb_lint_edit *const *)x,
			   *b = *(const cb_lint_edit *const *)y;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->column < b->column ? 1 : a->column > b->column ? -1 : 0; /* right to left */
}

typedef struct {
	char **old, **new;
	size_t n;
	bool last_newline;
} lines;

static void split(const char *text, size_t len, lines *l)
{
	l->n = 0;
	for (size_t i = 0; i < len; i++)
		l->n += text[i] == '\n';
	l->last_newline = !len || text[len - 1] == '\n';
	if (!l->last_newline)
		l->n++;
	l->old = cb_xcalloc(l->n ? l->n : 1, sizeof *l->old);
	l->new = cb_xcalloc(l->n ? l->n : 1, sizeof *l->new);
	const char *p = text, *end = text + len;
	for (size_t k = 0; k < l->n; k++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t m = (size_t)((nl ? nl : end) - p);
		l->old[k] = cb_xmalloc(m + 1);
		memcpy(l->old[k], p, m);
		l->old[k][m] = '\0';
		p = nl ? nl + 1 : end;
	}
}

/* Applies E to its line's new text when the line still reads E->from there. */
static bool apply(lines *l, const cb_lint_edit *e)
{
	if (!e->line || e->line > l->n)
		return false;
	char *s = l->new[e->line - 1] ? l->new[e->line - 1] : l->old[e->line - 1];
	size_t len = strlen(s), a = e->column - 1, b = e->end_column - 1, fl = strlen(e->from);
	if (b > len || a > b || b - a < fl)
		return false;
	size_t tl = strlen(e->to);
	char *t = cb_xmalloc(len - (b - a) + tl + 1);
	memcpy(t, s, a);
	memcpy(t + a, e->to, tl);
	memcpy(t + a + tl, s + b, len - b + 1);
	free(l->new[e->line - 1]);
	l->new[e->line - 1] = t;
	return true;
}

static void hunks(FILE *out, const lines *l)
{
	for (size_t i = 0; i < l->n;) {
		if (!l->new[i]) {
			i++;
			continue;
		}
		size_t lo = i > CONTEXT ? i - CONTEXT : 0, hi = i, gap = 0;
		for (size_t j = i; j < l->n && gap <= 2 * CONTEXT; j++) {
			if (l->new[j]) {
				hi = j;
				gap = 0;
			} else {
				gap++;
			}
		}
		hi = hi + CONTEXT + 1 < l->n ? hi + CONTEXT + 1 : l->n;
		fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", lo + 1, hi - lo, lo + 1, hi - lo);
		for (size_t j = lo; j < hi; j++) {
			bool eof = j + 1 == l->n && !l->last_newline;
			if (l->new[j]) {
				fprintf(out, "-%s\n%s", l->old[j],
					eof ? "\\ No newline at end of file\n" : "");
				fprintf(out, "+%s\n%s", l->new[j],
					eof ? "\\ No newline at end of file\n" : "");
			} else {
				fprintf(out, " %s\n%s", l->old[j],
					eof ? "\\ No newline at end of file\n" : "");
			}
		}
		i = hi;
	}
}

static void free_lines(lines *l)
{
	for (size_t k = 0; k < l->n; k++) {
		free(l->old[k]);
		free(l->new[k]);
	}
	free(l->old);
	free(l->new);
}

/* One file's part of the patch: edits V[0..N), all of FILE. */
static size_t file_diff(FILE *out, const cb_lint_edit *const *v, size_t n)
{
	char *text = NULL;
	size_t len = 0, changed = 0;
	cb_error ignored;
	if (cb_read_file(v[0]->file, (size_t)16 << 20, CB_READ_REGULAR_ONLY | CB_READ_TEXT, &text,
			 &len, &ignored) != CB_OK)
		return 0;
	lines l;
	split(text, len, &l);
	free(text);
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		ok &= apply(&l, v[i]);
	for (size_t k = 0; ok && k < l.n; k++)
		changed += l.new[k] && strcmp(l.new[k], l.old[k]) != 0;
	if (ok && changed) {
		const char *f = v[0]->file;
		if (f[0] == '/')
			fprintf(out, "--- %s\n+++ %s\n", f, f);
		else
			fprintf(out, "--- a/%s\n+++ b/%s\n", f, f);
		hunks(out, &l);
	}
	free_lines(&l);
	return ok ? changed : 0;
}

size_t cb_lint_print_diff(FILE *out, const cb_lint_result *res, size_t n)
{
	size_t count, changed = 0;
	const cb_lint_edit **v = chosen(res, n, &count);
	if (count) /* v is NULL when no array has a whole fix */
		qsort(v, count, sizeof *v, by_place);
	for (size_t i = 0, j; i < count; i = j) {
		for (j = i + 1; j < count && !strcmp(v[j]->file, v[i]->file); j++)
			;
		changed += file_diff(out, v + i, j - i);
	}
	free(v);
	return changed;
}
