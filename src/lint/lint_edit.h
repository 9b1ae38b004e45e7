/* SPDX-License-Identifier: MIT */
/*
 * A fix in the kernel's own words: each array's fix as edits of the source text, so that a
 * user can paste it (or apply `clbanks lint -F diff`) instead of translating "tile[r][c ^ (r &
 * 31)]" by hand. A swizzle rewrites every access of the array with its own row and column
 * expressions (tile[tx][ty + j] becomes tile[tx][(ty + j) ^ (tx & 31)]); a padding rewrites
 * the declaration (tile[TILE][TILE] becomes tile[TILE][TILE + 1]) and, for a 1-D array, each
 * index's row width. Only text that reads as the array's name and its subscripts is edited:
 * behind a macro there is no edit, and the generic form stays the answer.
 */
#ifndef CB_LINT_EDIT_H
#define CB_LINT_EDIT_H

#include "lint/lint.h"

#include <stdbool.h>
#include <stddef.h>

/* Where an array reference lies in a line of text: bytes [start, end) from its name to its
 * last ']', and each subscript's text [sub_start[i], sub_end[i]) without the brackets. */
typedef struct {
	size_t start, end;
	size_t sub_start[4], sub_end[4];
	unsigned nsubs;
} cb_src_ref;

/* The reference NAME[..]..[..] with RANK subscripts that an access reported at COLUMN (from
 * 1, bytes) of LINE (LEN bytes) is: the one starting at COLUMN (a load), the one ending just
 * before it (a store's '=' or a compound assignment), else the only one on the line (an
 * atomic's call). False when none or several could be meant. */
bool cb_src_find_ref(const char *line, size_t len, unsigned column, const char *name, unsigned rank,
		     cb_src_ref *ref);

/* Line LINE (from 1) of TEXT (LEN bytes) as S, N bytes without its newline; false past the
 * end. */
bool cb_text_line(const char *text, size_t len, unsigned line, const char **s, size_t *n);

/* TEMPLATE with the whole tokens 'r' and 'c' replaced by R and C, each in parentheses unless
 * it is one operand already (a name, a number, a call, a parenthesized expression). */
void cb_src_substitute(const char *tmpl, const char *r, const char *c, char *out, size_t n);

/* Each array's fix (best: CHOICE 0, the other kind: 1) as edits, into RES->edits: every
 * access the fix judges, and the declaration when the fix changes it. Reads the files the
 * accesses name; a line that cannot be read or parsed gives no edit. */
void cb_lint_make_edits(cb_lint_result *res);

/* The edit of ACCESS (an index into res->accesses; CB_LINT_DECL: OBJECT's declaration) under
 * the fix CHOICE of OBJECT, or NULL. */
#define CB_LINT_DECL ((size_t)-1)
const cb_lint_edit *cb_lint_edit_of(const cb_lint_result *res, size_t object, unsigned choice,
				    size_t access);
/* Is RES->edits[I] the first of its array and choice at its place? Several accesses at one
 * place (a macro's, a vector's) each have the same edit; outputs show it once. */
bool cb_lint_edit_first(const cb_lint_result *res, size_t i);
/* Does the fix CHOICE of OBJECT have an edit for each access it judges (and its declaration
 * when it changes it)? Then the edits are the whole fix. */
bool cb_lint_edits_complete(const cb_lint_result *res, size_t object, unsigned choice);

/* The fix CHOICE of A's array as it reads at A (A must have an array): its own edit
 * ("tile[tx][(ty + j) ^ (tx & 31)]"), a padding's declaration ("line 13: tile[TILE][TILE +
 * 1]"), else the generic form of cb_lint_fix_text. */
void cb_lint_fix_here(const cb_lint_result *r, const cb_lint_access *a, unsigned choice, char *buf,
		      size_t n);

void cb_lint_edits_free(cb_lint_edit *edits, size_t n);

#endif
