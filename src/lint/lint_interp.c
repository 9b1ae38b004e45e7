/* SPDX-License-Identifier: MIT */
/* The interpreter: one work-item at a time, each to its end (nothing read from __local memory
 * is known, so work-items cannot influence each other and barriers need no schedule). Calls
 * are interpreted with their own frames; loop counters and call sites make each access's
 * iteration key; an undecidable branch opens an assumed region up to its immediate
 * post-dominator. */
#include "config.h"
#include "lint/lint_interp.h"
#include "lint/lint_builtin.h"
#include "core/error.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

void cb_interp_init(cb_interp *in, const cb_prog *prog, const cb_wg *wg, const cb_val *argv,
		    cb_recorder *rec)
{
	memset(in, 0, sizeof *in);
	in->prog = prog;
	in->wg = *wg;
	in->argv = argv;
	in->rec = rec;
}

void cb_interp_free(cb_interp *in)
{
	cb_arena_free(&in->arena);
	free(in->pobj);
	free(in->assumed);
	for (uint32_t k = 0; in->side_work && k < in->prog->nfns; k++)
		free(in->side_work[k]);
	free(in->side_work);
	cb_sides_free(&in->sides, in->prog);
	cb_sides_free(&in->all, in->prog);
	memset(in, 0, sizeof *in);
}

void cb_sides_free(cb_sides *s, const cb_prog *p)
{
	for (uint32_t k = 0; s->taken && k < p->nfns; k++)
		free(s->taken[k]);
	free(s->taken);
	free(s->fn_open);
	s->taken = NULL;
	s->fn_open = NULL;
}

bool cb_sides_merge(cb_sides *all, const cb_interp *in)
{
	const cb_prog *p = in->prog;
	bool more = false;
	if (!in->sides.taken)
		return false;
	if (!all->taken)
		all->taken = cb_xcalloc(p->nfns, sizeof *all->taken);
	for (uint32_t f = 0; f < p->nfns; f++) {
		const uint8_t *t = in->sides.taken[f];
		uint32_t nb = p->fns[f].nblocks;
		if (!t)
			continue;
		if (!all->taken[f])
			all->taken[f] = cb_xcalloc(nb ? nb : 1, 1);
		for (uint32_t b = 0; b < nb; b++) {
			more |= (t[b] & ~all->taken[f][b]) != 0;
			all->taken[f][b] |= t[b];
		}
	}
	return more;
}

/* A branch of block B whose other side no run took. */
static bool side_open(const uint8_t *t, uint32_t b)
{
	return t && (t[b] & CB_SIDE_BRANCH) && (t[b] & 3u) != 3u;
}

bool cb_sides_open(cb_sides *all, const cb_prog *p)
{
	bool any = false, changed = true;
	free(all->fn_open);
	all->fn_open = cb_xcalloc(p->nfns ? p->nfns : 1, sizeof *all->fn_open);
	for (uint32_t f = 0; all->taken && f < p->nfns; f++)
		for (uint32_t b = 0; b < p->fns[f].nblocks; b++)
			all->fn_open[f] |= side_open(all->taken[f], b);
	for (uint32_t f = 0; f < p->nfns; f++)
		any |= all->fn_open[f];
	while (any && changed) { /* callers of such functions, to a fixed point */
		changed = false;
		for (uint32_t f = 0; f < p->nfns; f++)
			for (uint32_t i = 0; !all->fn_open[f] && i < p->fns[f].nins; i++)
				if (p->fns[f].ins[i].op == CB_I_CALL &&
				    all->fn_open[p->fns[f].ins[i].imm])
					changed = all->fn_open[f] = true;
	}
	return any;
}

static bool assumed(const cb_frame *fr)
{
	return fr->assumed_base || fr->nassume;
}

/* On a guessed side: what is written to private memory depends on the side taken. */
static bool in_guess(const cb_frame *fr)
{
	bool g = fr->guess_base;
	for (uint32_t k = 0; k < fr->nassume; k++)
		g |= fr->assume_guess[k];
	return g;
}

static bool any_guess(const cb_interp *in)
{
	for (uint32_t d = 0; d < in->depth; d++)
		if (in_guess(&in->frames[d]))
			return true;
	return false;
}

static uint32_t assumed_line(const cb_frame *fr)
{
	return fr->nassume ? fr->assume_line[fr->nassume - 1] : fr->base_line;
}

static void set(cb_frame *fr, const cb_ins *i, cb_val v)
{
	if (i->dst == CB_NONE)
		return;
	if (assumed(fr))
		v.flags |= CB_VF_TAINT;
	fr->v[i->dst] = v;
}

static cb_val unknown_value(uint8_t kind, unsigned width)
{
	return kind == CB_V_NUM   ? cb_val_range(width)
	       : kind == CB_V_PTR ? cb_val_ptr(CB_OBJ_NONE, 0)
				  : cb_val_opaque();
}

static bool in_loop(const cb_fn *f, uint32_t block, int32_t loop)
{
	for (int32_t l = f->blocks[block].loop; l >= 0; l = f->loops[l].parent)
		if (l == loop)
			return true;
	return false;
}

/* Phis read their values for the edge taken, all before any is written; at the meeting of a
 * guessed branch's sides (GUESS) they depend on the side taken. */
static void phis(cb_frame *fr, const cb_block *b, uint32_t from, bool guess)
{
	const cb_fn *f = fr->fn;
	cb_val tmp[64];
	uint32_t n = b->nphi < 64 ? b->nphi : 64;
	for (uint32_t k = 0; k < n; k++) {
		const cb_ins *p = &f->ins[b->first + k];
		tmp[k] = cb_val_range(p->width);
		tmp[k].kind = CB_V_UNDEF;
		for (uint32_t j = 0; j < p->n; j++)
			if (f->extra[p->x + 2 * j] == from) {
				tmp[k] = fr->v[f->extra[p->x + 2 * j + 1]];
				break;
			}
		if (assumed(fr))
			tmp[k].flags |= CB_VF_TAINT;
		if (guess)
			tmp[k].flags |= CB_VF_GUESS;
	}
	for (uint32_t k = 0; k < n; k++)
		if (f->ins[b->first + k].dst != CB_NONE)
			fr->v[f->ins[b->first + k].dst] = tmp[k];
}

static uint32_t enter_block(cb_interp *in, cb_frame *fr, uint32_t to)
{
	const cb_fn *f = fr->fn;
	const cb_block *b = &f->blocks[to];
	uint32_t from = fr->block;
	bool joins = false; /* TO ends a guessed region */
	for (uint32_t k = 0; k < fr->nassume; k++)
		joins |= fr->assume[k] == (int32_t)to && fr->assume_guess[k];
	if (b->nphi)
		phis(fr, b, from, joins);
	int32_t l = b->loop;
	if (b->header && l >= 0 && f->loops[l].header == to) {
		if (from != CB_NONE && in_loop(f, from, l))
			fr->iter[l]++;
		else
			fr->iter[l] = 0;
	}
	for (uint32_t k = 0; k < fr->nassume;) {
		if (fr->assume[k] == (int32_t)to) {
			memmove(&fr->assume[k], &fr->assume[k + 1],
				(fr->nassume - k - 1) * sizeof *fr->assume);
			memmove(&fr->assume_line[k], &fr->assume_line[k + 1],
				(fr->nassume - k - 1) * sizeof *fr->assume_line);
			memmove(&fr->assume_guess[k], &fr->assume_guess[k + 1],
				(fr->nassume - k - 1) * sizeof *fr->assume_guess);
			fr->nassume--;
		} else {
			k++;
		}
	}
	if (joins)
		cb_pmem_guess_settle(in, any_guess(in));
	fr->block = to;
	return b->first + b->nphi;
}

/* The branch in the current block could not be decided (or was decided by assumed values):
 * what follows, up to its immediate post-dominator, is assumed. */
/* The private variables the side of the current block's branch that was not taken (up to
 * END) writes: what they hold after the sides meet depends on the side, even though the
 * side taken did not write them (a binary search's lo when it always goes left). Pointers
 * computed on that side are read as the slot holds them now (from an earlier pass, if any). */
static void untaken_writes(cb_interp *in, const cb_frame *fr, uint32_t taken, int32_t end)
{
	const cb_fn *f = fr->fn;
	uint8_t *seen = cb_xcalloc(f->nblocks, 1);
	uint32_t *work = cb_xmalloc(f->nblocks * sizeof *work), sp = 0;
	for (uint32_t k = f->succ_first[fr->block]; k < f->succ_first[fr->block + 1]; k++) {
		uint32_t s = f->succ[k];
		if (s != taken && (int32_t)s != end && !seen[s]) {
			seen[s] = 1;
			work[sp++] = s;
		}
	}
	while (sp) {
		uint32_t b = work[--sp];
		for (uint32_t i = f->blocks[b].first; i < f->blocks[b].end; i++) {
			const cb_ins *x = &f->ins[i];
			if (x->op == CB_I_STORE && x->site < 0)
				cb_pmem_guess_write(in, fr->v[x->b]);
		}
		for (uint32_t k = f->succ_first[b]; k < f->succ_first[b + 1]; k++) {
			uint32_t s = f->succ[k];
			if ((int32_t)s != end && !seen[s] && s != fr->block) {
				seen[s] = 1;
				work[sp++] = s;
			}
		}
	}
	free(seen);
	free(work);
}

static void assume(cb_interp *in, cb_frame *fr, uint32_t taken, uint32_t line, bool log, bool guess)
{
	if (guess)
		untaken_writes(in, fr, taken, fr->fn->blocks[fr->block].ipdom);
	int32_t end = fr->fn->blocks[fr->block].ipdom;
	bool open = false;
	for (uint32_t k = 0; k < fr->nassume; k++)
		if (fr->assume[k] == end) {
			open = true;
			fr->assume_guess[k] |= guess;
		}
	if (!open && fr->nassume < CB_MAX_ASSUME) {
		fr->assume[fr->nassume] = end;
		fr->assume_guess[fr->nassume] = guess;
		fr->assume_line[fr->nassume++] = line;
	} else if (!open) {
		fr->assumed_base = true; /* too deep: assumed to the end of the function */
		fr->guess_base |= guess;
	}
	if (!log)
		return;
	uint32_t fn = (uint32_t)(fr->fn - in->prog->fns);
	for (uint32_t k = 0; k < in->nassumed; k++)
		if (in->assumed[k].fn == fn && in->assumed[k].block == fr->block &&
		    in->assumed[k].taken == taken)
			return;
	if (in->nassumed == in->assumedcap) {
		in->assumedcap = in->assumedcap ? 2 * in->assumedcap : 8;
		in->assumed = cb_xrealloc(in->assumed, in->assumedcap * sizeof *in->assumed);
	}
	cb_assumed_branch a = { fn, fr->block, taken, line };
	in->assumed[in->nassumed++] = a;
}

bool cb_fn_reaches(const cb_fn *f, const uint32_t *from, size_t n, int32_t end,
		   bool (*pred)(const cb_fn *f, uint32_t block, const void *ctx), const void *ctx)
{
	uint8_t *seen = cb_xcalloc(f->nblocks, 1);
	uint32_t *work = cb_xmalloc(f->nblocks * sizeof *work), sp = 0;
	bool found = false;
	for (size_t k = 0; k < n; k++)
		if ((int32_t)from[k] != end && !seen[from[k]]) {
			seen[from[k]] = 1;
			work[sp++] = from[k];
		}
	while (sp && !found) {
		uint32_t b = work[--sp];
		found = pred(f, b, ctx);
		for (uint32_t k = f->succ_first[b]; k < f->succ_first[b + 1]; k++) {
			uint32_t s = f->succ[k];
			if ((int32_t)s != end && !seen[s]) {
				seen[s] = 1;
				work[sp++] = s;
			}
		}
	}
	free(seen);
	free(work);
	return found;
}

/* Does block B hold a __local access or a call? */
static bool has_work(const cb_fn *f, uint32_t b, const void *ctx)
{
	(void)ctx;
	for (uint32_t i = f->blocks[b].first; i < f->blocks[b].end; i++)
		if (f->ins[i].site >= 0 || f->ins[i].op == CB_I_CALL)
			return true;
	return false;
}

/* Does a path from block FROM reach a __local access or a call before block END? */
static bool side_has_work(const cb_fn *f, uint32_t from, int32_t end)
{
	return cb_fn_reaches(f, &from, 1, end, has_work, NULL);
}

/* Which sides of the branch I ending the current block hold work (cached per block). */
static unsigned sides_with_work(cb_interp *in, const cb_frame *fr, const cb_ins *i)
{
	const cb_fn *f = fr->fn;
	uint32_t fn = (uint32_t)(f - in->prog->fns);
	if (!in->side_work)
		in->side_work = cb_xcalloc(in->prog->nfns, sizeof *in->side_work);
	if (!in->side_work[fn])
		in->side_work[fn] = cb_xcalloc(f->nblocks ? f->nblocks : 1, 1);
	uint8_t *c = &in->side_work[fn][fr->block];
	if (!*c) {
		int32_t end = f->blocks[fr->block].ipdom;
		*c = (uint8_t)(1 + (side_has_work(f, i->x, end) ? 1 : 0) +
			       (side_has_work(f, i->n, end) ? 2 : 0));
	}
	return *c - 1u;
}

/* Block B (of function FN, the context) has a branch with a side no run took, or calls a
 * function that has one. */
typedef struct {
	const cb_sides *prev;
	uint32_t fn;
} open_ctx;

static bool leads_open(const cb_fn *f, uint32_t b, const void *ctx)
{
	const open_ctx *c = ctx;
	if (side_open(c->prev->taken ? c->prev->taken[c->fn] : NULL, b))
		return true;
	for (uint32_t i = f->blocks[b].first; i < f->blocks[b].end; i++)
		if (f->ins[i].op == CB_I_CALL && c->prev->fn_open &&
		    c->prev->fn_open[f->ins[i].imm])
			return true;
	return false;
}

/* The side a two-sided undecidable branch takes in this run, recorded: the true side in the
 * first run; later, a side no run took, else the side that leads to such a branch. */
static bool choose_side(cb_interp *in, const cb_frame *fr, const cb_ins *i)
{
	const cb_fn *f = fr->fn;
	uint32_t fn = (uint32_t)(f - in->prog->fns);
	bool t = true;
	if (in->prev) {
		const uint8_t *pt = in->prev->taken ? in->prev->taken[fn] : NULL;
		unsigned c = pt ? pt[fr->block] : 0;
		open_ctx ctx = { in->prev, fn };
		t = !(c & CB_SIDE_FALSE)  ? false
		    : !(c & CB_SIDE_TRUE) ? true
					  : !cb_fn_reaches(f, &i->n, 1, f->blocks[fr->block].ipdom,
							   leads_open, &ctx);
	}
	if (!in->sides.taken)
		in->sides.taken = cb_xcalloc(in->prog->nfns, sizeof *in->sides.taken);
	if (!in->sides.taken[fn])
		in->sides.taken[fn] = cb_xcalloc(f->nblocks ? f->nblocks : 1, 1);
	in->sides.taken[fn][fr->block] |= CB_SIDE_BRANCH | (t ? CB_SIDE_TRUE : CB_SIDE_FALSE);
	return t;
}

/* An undecidable branch takes the side with work when only one has any (past an early
 * return), else the side choose_side picks; a loop's exit test stays in the loop for
 * CB_LINT_ASSUMED_ITERATIONS iterations and then leaves. */
static bool guess(cb_interp *in, const cb_frame *fr, const cb_ins *i)
{
	const cb_fn *f = fr->fn;
	int32_t l = f->blocks[fr->block].loop;
	bool in_x = l >= 0 && in_loop(f, i->x, l), in_n = l >= 0 && in_loop(f, i->n, l);
	if (in_x == in_n) {
		unsigned w = sides_with_work(in, fr, i);
		if (w != 3)
			return w != 2 && !(w == 0 && in->flip);
		in->two_sided = true;
		return choose_side(in, fr, i);
	}
	/* Iterations done when staying: a test at the header starts one, a test at the end
	 * (do-while) follows one. */
	uint32_t done = fr->block == f->loops[l].header ? fr->iter[l] + 1 : fr->iter[l] + 2;
	bool stay = done <= CB_LINT_ASSUMED_ITERATIONS;
	return stay ? in_x : !in_x;
}

/* Instructions without memory effects, calls or control: what a value diamond may hold. */
static bool pure_op(uint8_t op)
{
	return op == CB_I_BIN || op == CB_I_ICMP || op == CB_I_CAST || op == CB_I_SELECT ||
	       op == CB_I_COPY || op == CB_I_UNKNOWN || op == CB_I_FLOAT || op == CB_I_NOP;
}

/* ... and what else it may hold: address arithmetic and reads that are no __local access
 * (private variables, as clang leaves them without LLVM passes; __global data). */
static bool side_op(const cb_ins *i)
{
	return pure_op(i->op) || i->op == CB_I_GEP || (i->op == CB_I_LOAD && i->site < 0);
}

/* Runs pure instruction I; false for any other. */
static bool exec_pure(cb_frame *fr, const cb_ins *i)
{
	const cb_val *v = fr->v;
	switch (i->op) {
	case CB_I_BIN:
		set(fr, i, cb_val_binop((cb_binop)i->sub, i->width, v[i->a], v[i->b]));
		return true;
	case CB_I_ICMP:
		set(fr, i, cb_val_icmp((cb_pred)i->sub, i->imm, v[i->a], v[i->b]));
		return true;
	case CB_I_CAST:
		set(fr, i, cb_val_cast((cb_cast)i->sub, i->imm, i->width, v[i->a]));
		return true;
	case CB_I_SELECT: {
		cb_val x = cb_val_known(&v[i->a]) ? (v[i->a].lo ? v[i->b] : v[i->c])
						  : cb_val_join(v[i->b], v[i->c]);
		x.flags |= v[i->a].flags;
		set(fr, i, x);
		return true;
	}
	case CB_I_COPY:
		set(fr, i, v[i->a]);
		return true;
	case CB_I_UNKNOWN:
		set(fr, i, unknown_value(i->sub, i->width));
		return true;
	case CB_I_FLOAT: {
		cb_val x = unknown_value(i->sub, i->width);
		x.flags = v[i->a].flags | (i->b != CB_NONE ? v[i->b].flags : 0) | CB_VF_FLOAT;
		set(fr, i, x);
		return true;
	}
	case CB_I_NOP:
		return true;
	default:
		return false;
	}
}

/* Side TO of a branch out of FROM is pure when it is the join block J itself, or one block
 * with FROM as its only way in (no phis), pure instructions and a jump to J. *J is set by
 * the first side, checked by the second. */
static bool pure_side(const cb_fn *f, uint32_t to, uint32_t *j, uint32_t *pred)
{
	const cb_block *b = &f->blocks[to];
	const cb_ins *last = b->end > b->first ? &f->ins[b->end - 1] : NULL;
	bool block = !b->nphi && !b->header && last && last->op == CB_I_BR &&
		     (*j == CB_NONE || last->x == *j);
	for (uint32_t k = b->first; block && k + 1 < b->end; k++)
		block = side_op(&f->ins[k]);
	if (block) {
		*j = last->x;
		*pred = to;
		return true;
	}
	if (*j == CB_NONE || *j == to) {
		*j = to;
		*pred = CB_NONE; /* the edge from the branch's own block */
		return true;
	}
	return false;
}

static void exec_memory(cb_interp *in, cb_frame *fr, const cb_ins *i);

/* A branch whose condition is not known but whose two sides only compute values that meet
 * in the phis of one block (c ? a : b, which clang emits as a branch): both sides run, and
 * each phi gets the hull of its two values, sound and not assumed. Returns the join block's
 * first instruction, or CB_NONE when the branch is no such diamond. */
static uint32_t value_diamond(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	const cb_fn *f = fr->fn;
	uint32_t j = CB_NONE, pt = CB_NONE, pf = CB_NONE, self = fr->block;
	if (i->x == i->n || !pure_side(f, i->x, &j, &pt) || !pure_side(f, i->n, &j, &pf) ||
	    j == self || f->blocks[j].header || (pt == CB_NONE && pf == CB_NONE))
		return CB_NONE;
	const uint32_t side[2] = { pt, pf };
	for (int k = 0; k < 2; k++)
		for (uint32_t x = side[k] == CB_NONE ? 0 : f->blocks[side[k]].first;
		     side[k] != CB_NONE && x + 1 < f->blocks[side[k]].end; x++) {
			if (!exec_pure(fr, &f->ins[x]))
				exec_memory(in, fr, &f->ins[x]);
			in->item_steps++;
		}
	const cb_block *b = &f->blocks[j];
	uint32_t from[2] = { pt == CB_NONE ? self : pt, pf == CB_NONE ? self : pf };
	cb_val tmp[64];
	uint32_t n = b->nphi < 64 ? b->nphi : 64;
	for (uint32_t k = 0; k < n; k++) {
		const cb_ins *p = &f->ins[b->first + k];
		cb_val got[2];
		for (int e = 0; e < 2; e++) {
			got[e] = unknown_value(CB_V_NUM, p->width);
			for (uint32_t q = 0; q < p->n; q++)
				if (f->extra[p->x + 2 * q] == from[e]) {
					got[e] = fr->v[f->extra[p->x + 2 * q + 1]];
					break;
				}
		}
		tmp[k] = cb_val_join(got[0], got[1]);
		tmp[k].flags |= fr->v[i->a].flags;
		if (assumed(fr))
			tmp[k].flags |= CB_VF_TAINT;
	}
	uint32_t pc = enter_block(in, fr, j); /* leaves assumed regions that end at J */
	for (uint32_t k = 0; k < n; k++)
		if (f->ins[b->first + k].dst != CB_NONE)
			fr->v[f->ins[b->first + k].dst] = tmp[k];
	return pc;
}

static uint32_t branch(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	cb_val c = fr->v[i->a];
	bool taken;
	int32_t l = fr->fn->blocks[fr->block].loop;
	uint32_t pc;
	if (!cb_val_known(&c) && (l < 0 || in_loop(fr->fn, i->x, l) == in_loop(fr->fn, i->n, l)) &&
	    (pc = value_diamond(in, fr, i)) != CB_NONE)
		return pc;
	if (cb_val_known(&c)) {
		taken = c.lo != 0;
		if (c.flags & CB_VF_TAINT)
			assume(in, fr, taken ? i->x : i->n, i->imm | CB_DECIDED, false,
			       c.flags & CB_VF_GUESS);
	} else {
		bool loop_test = l >= 0 && in_loop(fr->fn, i->x, l) != in_loop(fr->fn, i->n, l);
		taken = guess(in, fr, i);
		assume(in, fr, taken ? i->x : i->n, i->imm, true, !loop_test);
	}
	return enter_block(in, fr, taken ? i->x : i->n);
}

static uint32_t do_switch(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	const cb_fn *f = fr->fn;
	cb_val c = fr->v[i->a];
	uint32_t target = i->x;
	if (cb_val_known(&c)) {
		for (uint32_t k = 0; k < i->n; k++) {
			const cb_val *cv = &fr->v[f->extra[i->b + 2 * k]];
			if (cb_val_known(cv) && cv->lo == c.lo) {
				target = f->extra[i->b + 2 * k + 1];
				break;
			}
		}
		if (c.flags & CB_VF_TAINT)
			assume(in, fr, target, i->imm | CB_DECIDED, false, c.flags & CB_VF_GUESS);
	} else {
		/* run k of the work-group takes case k (the first run the default), so that
		 * n + 1 runs take every side */
		if (in->run && in->run <= i->n)
			target = f->extra[i->b + 2 * (in->run - 1) + 1];
		in->two_sided |= i->n > 0;
		in->want = in->want > i->n + 1 ? in->want : i->n + 1;
		assume(in, fr, target, i->imm, true, true);
	}
	return enter_block(in, fr, target);
}

/* The iteration key: per frame, outermost first, the call site (below the kernel) and the
 * counters of the loops around the current block, outermost first. */
static unsigned make_key(const cb_interp *in, uint32_t *key)
{
	unsigned n = 0;
	for (uint32_t d = 0; d < in->depth; d++) {
		const cb_frame *fr = &in->frames[d];
		const cb_fn *f = fr->fn;
		if (d > 0 && n < CB_MAX_KEY)
			key[n++] = 0x80000000u | fr->call_ins;
		uint32_t chain[CB_MAX_KEY], nc = 0;
		for (int32_t l = f->blocks[fr->block].loop; l >= 0 && nc < CB_MAX_KEY;
		     l = f->loops[l].parent)
			chain[nc++] = fr->iter[l];
		while (nc && n < CB_MAX_KEY)
			key[n++] = chain[--nc];
	}
	return n;
}

/* Whether instruction I accesses __local memory at PTR: its site's pointer is __local, or
 * generic and pointing into a __local object now, or into no known object (it may be
 * __local: an unknown access, never a silent gap; CUDA's pointers are all generic). */
static bool local_access(const cb_interp *in, const cb_ins *i, const cb_val *ptr)
{
	if (i->site < 0)
		return false;
	if (!(i->flags & CB_INS_GENERIC))
		return true;
	if (ptr->kind != CB_V_PTR || ptr->obj == CB_OBJ_NONE || ptr->obj == CB_OBJ_MULTI)
		return true;
	return ptr->obj >= CB_OBJ_FIRST && ptr->obj < CB_OBJ_FIRST + (int32_t)in->prog->nobjects;
}

/* An address that depends on which side of an undecidable branch ran is not the guessed
 * side's: anywhere in its object (the whole object, or any offset for an unsized one). */
static cb_val unguess(const cb_interp *in, int32_t site, const cb_val *ptr)
{
	cb_val p = *ptr;
	int32_t k = p.obj - CB_OBJ_FIRST;
	if (!(p.flags & CB_VF_GUESS) || p.kind != CB_V_PTR || k < 0 ||
	    k >= (int32_t)in->prog->nobjects)
		return p;
	uint64_t size = in->prog->objects[k].bytes, elem = in->prog->sites[site].elem_bytes;
	p.lo = 0;
	p.hi = size >= elem && size - elem <= INT32_MAX ? (int64_t)(size - elem) : INT32_MAX;
	p.row = p.col = CB_IDX_LOST;
	return p;
}

static void record(cb_interp *in, const cb_frame *fr, int32_t site, const cb_val *raw)
{
	cb_val p = unguess(in, site, raw);
	const cb_val *ptr = &p;
	uint32_t key[CB_MAX_KEY];
	unsigned n = make_key(in, key);
	bool a = assumed(fr) || (ptr->flags & CB_VF_TAINT);
	cb_rec_access(in->rec, site, key, n, in->linear % in->wg.subgroup, ptr, a,
		      assumed(fr) ? assumed_line(fr) : 0);
}

/* An access of the K-th element a work-item copies in an async copy: the key gets K. */
static void record_nth(cb_interp *in, const cb_frame *fr, int32_t site, const cb_val *raw,
		       uint32_t k)
{
	cb_val p = unguess(in, site, raw);
	const cb_val *ptr = &p;
	uint32_t key[CB_MAX_KEY + 1];
	unsigned n = make_key(in, key);
	key[n++] = k;
	bool a = assumed(fr) || (ptr->flags & CB_VF_TAINT);
	cb_rec_access(in->rec, site, key, n, in->linear % in->wg.subgroup, ptr, a,
		      assumed(fr) ? assumed_line(fr) : 0);
}

/* PTR advanced by INDEX elements of BYTES (vloadN and vstoreN). */
static cb_val advance(cb_val ptr, cb_val index, uint32_t bytes)
{
	cb_val off = cb_val_binop(CB_MUL, 64, index, cb_val_int(bytes));
	if (ptr.kind != CB_V_PTR || off.kind != CB_V_NUM)
		return cb_val_ptr(CB_OBJ_NONE, 0);
	ptr.flags |= off.flags;
	if (__builtin_add_overflow(ptr.lo, off.lo, &ptr.lo) ||
	    __builtin_add_overflow(ptr.hi, off.hi, &ptr.hi))
		ptr.lo = INT32_MIN, ptr.hi = INT32_MAX;
	if (!cb_val_known(&off) || off.lo != 0)
		ptr.row = ptr.col = CB_IDX_LOST;
	return ptr;
}

/* The work-group copies NUM elements; as implementations do, work-item L copies elements L,
 * L + G, L + 2G ... of the G work-items (an assumption: the specification leaves it open).
 * An unknown NUM makes one access at an unknown element. */
static void async_copy(cb_interp *in, cb_frame *fr, const cb_ins *i, const cb_val *args)
{
	const cb_wg *wg = &in->wg;
	uint64_t items = (uint64_t)wg->local[0] * wg->local[1] * wg->local[2];
	cb_val ptr = args[i->c], num = args[2];
	if (!cb_val_known(&num) || num.lo < 0) {
		cb_val any = num.kind == CB_V_NUM ? num : cb_val_range(64);
		any.lo = 0;
		cb_val p = advance(ptr, any, i->imm);
		record_nth(in, fr, i->site, &p, 0);
		return;
	}
	for (uint64_t e = in->linear, k = 0; e < (uint64_t)num.lo; e += items, k++) {
		if (in->rec->overflow)
			return;
		cb_val p = advance(ptr, cb_val_int((int64_t)e), i->imm);
		record_nth(in, fr, i->site, &p, (uint32_t)k);
	}
}

/* A copy of LEN bytes at PTR in __local memory, moved as words of WORD bytes: the K-th word
 * is its own access (the key gets K); an unknown length, one access at an unknown word. */
static void copy_words(cb_interp *in, const cb_frame *fr, int32_t site, cb_val ptr, cb_val len,
		       uint32_t word)
{
	if (!cb_val_known(&len) || len.lo <= 0) {
		cb_val any = len.kind == CB_V_NUM ? len : cb_val_range(64);
		any.lo = 0;
		any.hi = any.hi > 0 ? (any.hi - 1) / word : 0;
		cb_val p = advance(ptr, any, word);
		record_nth(in, fr, site, &p, 0);
		return;
	}
	for (int64_t k = 0; k < len.lo / word && !in->rec->overflow; k++) {
		cb_val p = advance(ptr, cb_val_int(k), word);
		record_nth(in, fr, site, &p, (uint32_t)k);
	}
}

static void exec_builtin(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	const cb_fn *f = fr->fn;
	cb_val args[8];
	unsigned n = i->n < 8 ? i->n : 8;
	for (unsigned k = 0; k < n; k++)
		args[k] = fr->v[f->extra[i->x + 2 * k]];
	switch (i->sub) {
	case CB_B_NOP:
		return;
	case CB_B_OTHER:
		/* a call lint cannot see that takes a __local pointer: its access is unknown */
		if (i->site >= 0 && i->c < n)
			record(in, fr, i->site, &args[i->c]);
		break;
	case CB_B_ATOMIC:
		if (n >= 1 && local_access(in, i, &args[0]))
			record(in, fr, i->site, &args[0]);
		set(fr, i, cb_val_range(i->width));
		return;
	case CB_B_VLOAD:
	case CB_B_VSTORE: {
		unsigned at = i->sub == CB_B_VLOAD ? 0 : 1;
		if (n < at + 2)
			break;
		cb_val p = advance(args[at + 1], args[at], i->imm);
		if (local_access(in, i, &p))
			record(in, fr, i->site, &p);
		else if (i->sub == CB_B_VSTORE)
			cb_pmem_store(in, p, cb_val_opaque(), i->imm);
		set(fr, i, cb_val_opaque());
		return;
	}
	case CB_B_ASYNC_COPY:
		if (i->site >= 0 && n >= 3)
			async_copy(in, fr, i, args);
		set(fr, i, cb_val_opaque());
		return;
	default:
		break;
	}
	set(fr, i, cb_builtin_eval(in, i, args, n));
}

/* Integer vectors: a vector value is a handle (opaque, obj) to a private object holding its
 * lanes, the instruction's own (reused each time it runs: a vector is copied lane by lane
 * into and out of variables, never shared). */
static bool vec_handle(const cb_interp *in, const cb_val *h)
{
	int32_t k = h->obj - CB_OBJ_FIRST - (int32_t)in->prog->nobjects;
	return h->kind == CB_V_OPAQUE && k >= 0 && k < (int32_t)in->npobj;
}

static cb_val vec_lane_ptr(const cb_val *h, uint32_t k, uint32_t bytes)
{
	return cb_val_ptr(h->obj, (int64_t)k * bytes);
}

/* The storage of I's vector result: the one it had, else a new private object of N lanes. */
static cb_val vec_storage(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	uint32_t bytes = i->rows * i->cols;
	cb_val *cur = &fr->v[i->dst];
	if (i->dst != CB_NONE && vec_handle(in, cur) &&
	    in->pobj[cur->obj - CB_OBJ_FIRST - (int32_t)in->prog->nobjects].size == bytes)
		return *cur;
	cb_val h = cb_val_opaque();
	h.obj = cb_pmem_new(in, bytes);
	return h;
}

/* Copies N lanes of B bytes from the vector or memory at FROM to TO (unknown lanes when
 * FROM is no vector and no private memory). */
static void vec_copy(cb_interp *in, cb_val to, cb_val from, uint32_t n, uint32_t b)
{
	cb_val lanes[16];
	for (uint32_t k = 0; k < n && k < 16; k++) {
		cb_val at = from;
		if (from.kind == CB_V_PTR || vec_handle(in, &from))
			at = from.kind == CB_V_PTR ? cb_val_ptr(from.obj, from.lo + (int64_t)k * b)
						   : vec_lane_ptr(&from, k, b);
		if (from.kind == CB_V_PTR && from.lo != from.hi)
			at.hi = from.hi + (int64_t)k * b;
		at.flags = from.flags;
		lanes[k] = at.kind == CB_V_PTR ? cb_pmem_load(in, at, b, CB_V_NUM, b * 8)
					       : cb_val_range(b * 8);
	}
	for (uint32_t k = 0; k < n && k < 16; k++) {
		cb_val at = to.kind == CB_V_PTR ? cb_val_ptr(to.obj, to.lo + (int64_t)k * b)
						: vec_lane_ptr(&to, k, b);
		if (to.kind == CB_V_PTR && to.lo != to.hi) {
			at.hi = to.hi + (int64_t)k * b;
		}
		cb_pmem_store(in, at, lanes[k], b);
	}
}

/* Lane K (B bytes) of a vector operand: a constant's slot (extra list at AT), or the lane of
 * a vector handle H; unknown otherwise. */
static cb_val vec_lane(cb_interp *in, const cb_frame *fr, bool constant, uint32_t at,
		       const cb_val *h, uint32_t k, uint32_t b)
{
	cb_val x;
	if (constant)
		x = fr->v[fr->fn->extra[at + 2 * k]];
	else if (vec_handle(in, h))
		x = cb_pmem_load(in, vec_lane_ptr(h, k, b), b, CB_V_NUM, b * 8);
	else
		x = cb_val_range(b * 8);
	x.flags |= h->flags;
	return x;
}

/* Integer vector arithmetic, lane by lane, into the instruction's own vector. */
static void exec_vbin(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	cb_val h = vec_storage(in, fr, i);
	uint16_t flags = 0;
	for (uint32_t k = 0; k < i->rows && k < 16; k++) {
		cb_val a = vec_lane(in, fr, i->flags & CB_INS_VCONST_A, i->x, &fr->v[i->a], k,
				    i->cols);
		cb_val b = vec_lane(in, fr, i->flags & CB_INS_VCONST_B, i->n, &fr->v[i->b], k,
				    i->cols);
		cb_val r = cb_val_binop((cb_binop)i->sub, i->cols * 8, a, b);
		flags |= r.flags;
		cb_pmem_store(in, vec_lane_ptr(&h, k, i->cols), r, i->cols);
	}
	h.flags = flags & ~CB_VF_TAINT;
	set(fr, i, h);
}

/* A swizzle: lane k of the result is lane mask[k] of a (below imm) or of b. */
static void exec_vshuf(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	cb_val h = vec_storage(in, fr, i);
	uint16_t flags = 0;
	for (uint32_t k = 0; k < i->rows && k < 16; k++) {
		uint32_t m = fr->fn->extra[i->c + 2 * k];
		cb_val x = cb_val_range(i->cols * 8);
		if (m != CB_NONE && m < i->imm)
			x = vec_lane(in, fr, i->flags & CB_INS_VCONST_A, i->x, &fr->v[i->a], m,
				     i->cols);
		else if (m != CB_NONE && m < 2 * i->imm)
			x = vec_lane(in, fr, i->flags & CB_INS_VCONST_B, i->n, &fr->v[i->b],
				     m - i->imm, i->cols);
		flags |= x.flags;
		cb_pmem_store(in, vec_lane_ptr(&h, k, i->cols), x, i->cols);
	}
	h.flags = flags & ~CB_VF_TAINT;
	set(fr, i, h);
}

/* A constant integer vector stored to private memory: its lanes, one by one. */
static void store_const_vector(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	cb_val to = fr->v[i->b];
	for (uint32_t k = 0; k < i->rows && k < 16; k++) {
		cb_val at = to;
		at.lo = to.lo + (int64_t)k * i->cols;
		at.hi = to.hi + (int64_t)k * i->cols;
		cb_val x = fr->v[fr->fn->extra[i->x + 2 * k]];
		if (assumed(fr))
			x.flags |= CB_VF_TAINT;
		cb_pmem_store(in, at, x, i->cols);
	}
}

static void exec_vector(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	const cb_val *v = fr->v;
	if (i->op == CB_I_VBIN || i->op == CB_I_VSHUF) {
		(i->op == CB_I_VBIN ? exec_vbin : exec_vshuf)(in, fr, i);
		return;
	}
	if (i->op == CB_I_VEXT) {
		cb_val x = cb_val_range(i->cols * 8), idx = v[i->b];
		if (vec_handle(in, &v[i->a]) && cb_val_known(&idx) && idx.lo >= 0 &&
		    idx.lo < (int64_t)i->rows)
			x = cb_pmem_load(in, vec_lane_ptr(&v[i->a], (uint32_t)idx.lo, i->cols),
					 i->cols, CB_V_NUM, i->cols * 8);
		x.flags |= v[i->a].flags | idx.flags;
		set(fr, i, x);
		return;
	}
	cb_val h = vec_storage(in, fr, i), idx = v[i->c];
	vec_copy(in, h, v[i->a], i->rows, i->cols);
	if (cb_val_known(&idx) && idx.lo >= 0 && idx.lo < (int64_t)i->rows)
		cb_pmem_store(in, vec_lane_ptr(&h, (uint32_t)idx.lo, i->cols), v[i->b], i->cols);
	else
		vec_copy(in, h, cb_val_opaque(), i->rows, i->cols);
	h.flags = v[i->a].flags | idx.flags;
	set(fr, i, h);
}

static void exec_memory(cb_interp *in, cb_frame *fr, const cb_ins *i)
{
	cb_val *v = fr->v;
	switch (i->op) {
	case CB_I_ALLOCA:
		set(fr, i, cb_val_ptr(cb_pmem_new(in, i->imm), 0));
		return;
	case CB_I_LOAD:
		if (local_access(in, i, &v[i->a])) {
			record(in, fr, i->site, &v[i->a]);
		} else if (i->flags & CB_INS_VECTOR) {
			cb_val h = vec_storage(in, fr, i);
			vec_copy(in, h, v[i->a], i->rows, i->cols);
			set(fr, i, h);
			return;
		}
		set(fr, i, cb_pmem_load(in, v[i->a], i->imm, i->sub, i->width));
		return;
	case CB_I_STORE:
		if (local_access(in, i, &v[i->b])) {
			record(in, fr, i->site, &v[i->b]);
		} else {
			cb_val x = v[i->a];
			if (assumed(fr))
				x.flags |= CB_VF_TAINT;
			if ((i->flags & CB_INS_VCONST_A) && v[i->b].kind == CB_V_PTR)
				store_const_vector(in, fr, i);
			else if ((i->flags & CB_INS_VECTOR) && vec_handle(in, &x))
				vec_copy(in, v[i->b], x, i->rows, i->cols);
			else
				cb_pmem_store(in, v[i->b], x, i->imm);
			if (in_guess(fr))
				cb_pmem_guess_write(in, v[i->b]);
		}
		return;
	case CB_I_ATOMIC:
		if (local_access(in, i, &v[i->a]))
			record(in, fr, i->site, &v[i->a]);
		cb_val old = unknown_value(i->sub, i->width);
		old.flags = CB_VF_MEM;
		set(fr, i, old);
		return;
	case CB_I_MEMSET:
		if (i->site >= 0)
			copy_words(in, fr, i->site, v[i->a], v[i->c], i->imm);
		else
			cb_pmem_set(in, v[i->a], assumed(fr) ? cb_val_range(8) : v[i->b], v[i->c]);
		return;
	case CB_I_MEMCPY:
		if (i->site >= 0)
			copy_words(in, fr, i->site, v[i->n ? i->b : i->a], v[i->c], i->imm);
		if (i->rows)
			copy_words(in, fr, (int32_t)i->rows - 1, v[i->b], v[i->c], i->imm);
		cb_pmem_copy(in, v[i->a], v[i->b], v[i->c]);
		return;
	default: {
		const cb_fn *f = fr->fn;
		cb_val idx[16];
		uint64_t stride[16];
		uint32_t n = i->n < 16 ? i->n : 16;
		for (uint32_t k = 0; k < n; k++) {
			idx[k] = v[f->extra[i->x + 2 * k]];
			stride[k] = f->extra[i->x + 2 * k + 1];
		}
		set(fr, i, cb_gep_eval(in->prog, i, v[i->a], idx, stride, n));
	}
	}
}

static cb_frame *push_frame(cb_interp *in, const cb_fn *fn)
{
	cb_frame *fr = &in->frames[in->depth++];
	memset(fr, 0, sizeof *fr);
	fr->fn = fn;
	fr->block = CB_NONE;
	fr->v = cb_arena_alloc(&in->arena, (fn->nvals ? fn->nvals : 1) * sizeof *fr->v);
	if (fn->nvals > fn->const_base)
		memcpy(fr->v + fn->const_base, fn->consts,
		       (fn->nvals - fn->const_base) * sizeof *fr->v);
	fr->iter = cb_arena_alloc(&in->arena, (fn->nloops ? fn->nloops : 1) * sizeof *fr->iter);
	return fr;
}

static cb_rc run_frame(cb_interp *in, uint32_t depth, cb_val *ret, cb_error *err);

static cb_rc exec_call(cb_interp *in, uint32_t depth, const cb_ins *i, uint32_t pc, cb_error *err)
{
	cb_frame *fr = &in->frames[depth];
	const cb_fn *callee = &in->prog->fns[i->imm];
	if (in->depth >= CB_MAX_DEPTH)
		return cb_error_set(err, CB_ERR_INPUT,
				    "calls nest deeper than %d in %s (recursion?)", CB_MAX_DEPTH,
				    callee->name);
	cb_arena_mark mark = cb_arena_get_mark(&in->arena);
	uint32_t npobj = in->npobj;
	cb_frame *nf = push_frame(in, callee);
	for (uint32_t k = 0; k < i->n && k < callee->nargs; k++)
		nf->v[k] = fr->v[fr->fn->extra[i->x + 2 * k]];
	nf->assumed_base = assumed(fr);
	nf->guess_base = in_guess(fr);
	nf->base_line = assumed_line(fr);
	nf->call_ins = pc;
	cb_val r = cb_val_opaque();
	cb_rc rc = run_frame(in, in->depth - 1, &r, err);
	in->depth--;
	cb_arena_release(&in->arena, mark);
	in->npobj = npobj;
	if (r.kind == CB_V_OPAQUE)
		r = cb_val_opaque(); /* a vector of the callee's frame, released */
	if (rc == CB_OK)
		set(fr, i, r);
	return rc;
}

static cb_rc too_long(const cb_interp *in, cb_error *err)
{
	return cb_error_set(
		err, CB_ERR_INPUT,
		"work-item %u ran more than %llu instructions without ending; bound its "
		"loops with -D or --arg",
		in->linear, (unsigned long long)CB_ITEM_STEPS);
}

static cb_rc group_too_long(const cb_interp *in, cb_error *err)
{
	const cb_wg *wg = &in->wg;
	return cb_error_set(
		err, CB_ERR_INPUT,
		"the work-group ran more than %llu instructions (at work-item %u of %u) "
		"without ending; bound its loops with -D or --arg",
		(unsigned long long)CB_GROUP_STEPS, in->linear,
		wg->local[0] * wg->local[1] * wg->local[2]);
}

static cb_rc run_frame(cb_interp *in, uint32_t depth, cb_val *ret, cb_error *err)
{
	cb_frame *fr = &in->frames[depth];
	const cb_fn *f = fr->fn;
	uint32_t pc = enter_block(in, fr, 0);
	for (;;) {
		if (pc >= f->blocks[fr->block].end || ++in->item_steps > CB_ITEM_STEPS ||
		    in->rec->overflow) {
			in->stopped = true;
			return in->item_steps > CB_ITEM_STEPS ? too_long(in, err) : CB_OK;
		}
		/* A stop signal (SIGINT, SIGTERM, SIGHUP) ends a long simulation within
		 * milliseconds: the flag is read every CB_STOP_POLL instructions, and so is the
		 * work-group's budget. */
		if ((in->item_steps & (CB_STOP_POLL - 1)) == 0 &&
		    (cb_stop_signal || in->steps + in->item_steps > CB_GROUP_STEPS)) {
			in->stopped = true;
			return cb_stop_signal ? cb_check_interrupt(err) : group_too_long(in, err);
		}
		const cb_ins *i = &f->ins[pc];
		const cb_val *v = fr->v;
		if (pure_op(i->op) && i->op != CB_I_NOP) {
			exec_pure(fr, i);
			pc++;
			continue;
		}
		switch (i->op) {
		case CB_I_ALLOCA:
		case CB_I_LOAD:
		case CB_I_STORE:
		case CB_I_ATOMIC:
		case CB_I_GEP:
		case CB_I_MEMSET:
		case CB_I_MEMCPY:
			exec_memory(in, fr, i);
			break;
		case CB_I_VINS:
		case CB_I_VEXT:
		case CB_I_VBIN:
		case CB_I_VSHUF:
			exec_vector(in, fr, i);
			break;
		case CB_I_BUILTIN:
			exec_builtin(in, fr, i);
			break;
		case CB_I_CALL: {
			cb_rc rc = exec_call(in, depth, i, pc, err);
			if (rc != CB_OK || in->stopped)
				return rc;
			break;
		}
		case CB_I_BR:
			pc = enter_block(in, fr, i->x);
			continue;
		case CB_I_CONDBR:
			pc = branch(in, fr, i);
			continue;
		case CB_I_SWITCH:
			pc = do_switch(in, fr, i);
			continue;
		case CB_I_RET:
			*ret = i->a != CB_NONE ? v[i->a] : cb_val_opaque();
			return CB_OK;
		case CB_I_PHI:
		case CB_I_NOP:
			break;
		default: /* unreachable: the work-item ends here */
			in->stopped = true;
			return CB_OK;
		}
		pc++;
	}
}

cb_rc cb_interp_item(cb_interp *in, unsigned linear, cb_error *err)
{
	const cb_prog *p = in->prog;
	const cb_wg *wg = &in->wg;
	in->linear = linear;
	in->lid[0] = linear % wg->local[0];
	in->lid[1] = linear / wg->local[0] % wg->local[1];
	in->lid[2] = linear / (wg->local[0] * wg->local[1]);
	in->item_steps = 0;
	in->stopped = false;
	in->depth = 0;
	in->npobj = 0;
	cb_arena_reset(&in->arena);
	cb_frame *fr = push_frame(in, &p->fns[0]);
	for (uint32_t k = 0; k < p->nargs && k < p->fns[0].nargs; k++) {
		fr->v[k] = in->argv[k];
		if (p->args[k].kind != CB_ARG_PRIVATE)
			continue;
		fr->v[k] = cb_val_ptr(cb_pmem_new(in, p->args[k].bytes), 0);
		for (uint32_t f = 0; f < p->args[k].nvalues; f++) {
			const cb_field_value *x = &p->args[k].values[f];
			cb_val at = fr->v[k];
			at.lo = at.hi = x->offset;
			cb_pmem_store(in, at, cb_val_int(x->value), x->bytes);
		}
	}
	cb_val r;
	cb_rc rc = run_frame(in, 0, &r, err);
	in->steps += in->item_steps;
	in->depth = 0;
	return rc;
}
