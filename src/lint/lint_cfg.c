/* SPDX-License-Identifier: MIT */
/* Control flow of one translated function: successor lists, natural loops (from depth-first
 * back edges; clang emits reducible control flow for OpenCL C), and immediate post-dominators
 * (Cooper, Harvey and Kennedy's iterative algorithm on the reverse graph), which end the region
 * an assumed branch controls. */
#include "config.h"
#include "lint/lint_cfg.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static void successors(cb_fn *f)
{
	uint32_t n = f->nblocks, total = 0;
	f->succ_first = cb_xcalloc(n + 1, sizeof *f->succ_first);
	for (uint32_t pass = 0; pass < 2; pass++) {
		total = 0;
		for (uint32_t b = 0; b < n; b++) {
			f->succ_first[b] = total;
			const cb_block *blk = &f->blocks[b];
			if (blk->end == blk->first)
				continue;
			const cb_ins *t = &f->ins[blk->end - 1];
			uint32_t list[2] = { t->x, t->n }, k = 0;
			if (t->op == CB_I_BR || t->op == CB_I_CONDBR || t->op == CB_I_SWITCH) {
				k = t->op == CB_I_CONDBR ? 2 : 1;
				for (uint32_t j = 0; j < k; j++)
					if (pass)
						f->succ[total + j] = list[j];
				total += k;
			}
			if (t->op == CB_I_SWITCH) {
				for (uint32_t j = 0; j < t->n; j++)
					if (pass)
						f->succ[total + j] = f->extra[t->b + 2 * j + 1];
				total += t->n;
			}
		}
		f->succ_first[n] = total;
		if (!pass)
			f->succ = cb_xcalloc(total ? total : 1, sizeof *f->succ);
	}
}

typedef struct {
	uint32_t *pred, *pred_first;
} preds;

static preds predecessors(const cb_fn *f)
{
	uint32_t n = f->nblocks, total = f->succ_first[n];
	preds p = { cb_xcalloc(total ? total : 1, sizeof(uint32_t)),
		    cb_xcalloc(n + 2, sizeof(uint32_t)) };
	for (uint32_t k = 0; k < total; k++)
		p.pred_first[f->succ[k] + 2]++;
	for (uint32_t b = 0; b < n; b++)
		p.pred_first[b + 2] += p.pred_first[b + 1];
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t k = f->succ_first[b]; k < f->succ_first[b + 1]; k++)
			p.pred[p.pred_first[f->succ[k] + 1]++] = b;
	return p; /* preds of b: pred[pred_first[b] .. pred_first[b + 1]) */
}

/* Back edges by an iterative depth-first search from the entry: u -> h with h on the stack. */
static void back_edges(const cb_fn *f, bool *is_header, uint32_t *latch_of, uint32_t *nlatch)
{
	uint32_t n = f->nblocks;
	uint8_t *state = cb_xcalloc(n, 1);
	uint32_t *stack = cb_xmalloc(n * sizeof *stack), *next = cb_xcalloc(n, sizeof *next);
	uint32_t sp = 0;
	*nlatch = 0;
	stack[sp++] = 0;
	state[0] = 1;
	while (sp) {
		uint32_t u = stack[sp - 1], k = f->succ_first[u] + next[u];
		if (k >= f->succ_first[u + 1]) {
			state[u] = 2;
			sp--;
			continue;
		}
		next[u]++;
		uint32_t v = f->succ[k];
		if (state[v] == 1) {
			is_header[v] = true;
			latch_of[2 * *nlatch] = u;
			latch_of[2 * *nlatch + 1] = v;
			(*nlatch)++;
		} else if (state[v] == 0) {
			state[v] = 1;
			stack[sp++] = v;
		}
	}
	free(state);
	free(stack);
	free(next);
}

/* Body of the loop at H: H and every block that reaches one of its latches without H. */
static void loop_body(const cb_fn *f, const preds *p, uint32_t h, const uint32_t *latches,
		      uint32_t nlatch, uint8_t *body, uint32_t *work)
{
	uint32_t sp = 0;
	memset(body, 0, f->nblocks);
	body[h] = 1;
	for (uint32_t k = 0; k < nlatch; k++)
		if (latches[2 * k + 1] == h && !body[latches[2 * k]]) {
			body[latches[2 * k]] = 1;
			work[sp++] = latches[2 * k];
		}
	while (sp) {
		uint32_t b = work[--sp];
		for (uint32_t k = p->pred_first[b]; k < p->pred_first[b + 1]; k++)
			if (!body[p->pred[k]]) {
				body[p->pred[k]] = 1;
				work[sp++] = p->pred[k];
			}
	}
}

static void find_loops(cb_fn *f, const preds *p)
{
	uint32_t n = f->nblocks, nedges = f->succ_first[n], nlatch;
	bool *is_header = cb_xcalloc(n, sizeof *is_header);
	uint32_t *latches = cb_xmalloc((2 * nedges + 2) * sizeof *latches);
	back_edges(f, is_header, latches, &nlatch);
	uint32_t nl = 0, *size = cb_xcalloc(n, sizeof *size), *work = cb_xmalloc(n * sizeof *work);
	uint32_t nh = 0;
	for (uint32_t h = 0; h < n; h++)
		nh += is_header[h];
	uint8_t *bodies = cb_xcalloc((size_t)nh * n + 1, 1);
	f->loops = cb_xcalloc(n, sizeof *f->loops);
	for (uint32_t h = 0; h < n; h++) {
		if (!is_header[h])
			continue;
		loop_body(f, p, h, latches, nlatch, bodies + (size_t)nl * n, work);
		for (uint32_t b = 0; b < n; b++)
			size[nl] += bodies[(size_t)nl * n + b];
		f->loops[nl].header = h;
		f->blocks[h].header = true;
		nl++;
	}
	f->nloops = nl;
	/* Innermost loop of each block and each loop's parent: the smallest loop containing it. */
	for (uint32_t b = 0; b < n; b++) {
		f->blocks[b].loop = -1;
		for (uint32_t l = 0; l < nl; l++)
			if (bodies[(size_t)l * n + b] &&
			    (f->blocks[b].loop < 0 || size[l] < size[f->blocks[b].loop]))
				f->blocks[b].loop = (int32_t)l;
	}
	for (uint32_t l = 0; l < nl; l++) {
		f->loops[l].parent = -1;
		for (uint32_t m = 0; m < nl; m++)
			if (m != l && bodies[(size_t)m * n + f->loops[l].header] &&
			    size[m] > size[l] &&
			    (f->loops[l].parent < 0 || size[m] < size[f->loops[l].parent]))
				f->loops[l].parent = (int32_t)m;
	}
	for (uint32_t l = 0; l < nl; l++) {
		uint32_t depth = 1;
		for (int32_t m = f->loops[l].parent; m >= 0 && depth <= nl; m = f->loops[m].parent)
			depth++;
		f->loops[l].depth = depth;
	}
	free(is_header);
	free(latches);
	free(size);
	free(work);
	free(bodies);
}

static uint32_t intersect(const int32_t *idom, const uint32_t *po, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (po[a] < po[b])
			a = (uint32_t)idom[a];
		while (po[b] < po[a])
			b = (uint32_t)idom[b];
	}
	return a;
}

/* Post-order of the reverse graph from the virtual exit X = n (its successors: the blocks
 * without successors; a block's: its predecessors). */
static uint32_t reverse_postorder(const cb_fn *f, const preds *p, uint32_t *order, uint32_t *po)
{
	uint32_t n = f->nblocks, X = n, count = 0, sp = 0;
	uint8_t *seen = cb_xcalloc(n + 1, 1);
	uint32_t *stack = cb_xmalloc((n + 1) * sizeof *stack),
		 *next = cb_xcalloc(n + 1, sizeof *next);
	stack[sp++] = X;
	seen[X] = 1;
	while (sp) {
		uint32_t u = stack[sp - 1], v = CB_NONE;
		if (u == X) {
			for (; next[u] < n && v == CB_NONE; next[u]++)
				if (f->succ_first[next[u]] == f->succ_first[next[u] + 1] &&
				    !seen[next[u]])
					v = next[u];
		} else {
			for (; p->pred_first[u] + next[u] < p->pred_first[u + 1] && v == CB_NONE;
			     next[u]++)
				if (!seen[p->pred[p->pred_first[u] + next[u]]])
					v = p->pred[p->pred_first[u] + next[u]];
		}
		if (v == CB_NONE) {
			po[u] = count;
			order[count++] = u;
			sp--;
			continue;
		}
		seen[v] = 1;
		stack[sp++] = v;
	}
	free(seen);
	free(stack);
	free(next);
	return count;
}

static void post_dominators(cb_fn *f, const preds *p)
{
	uint32_t n = f->nblocks, X = n;
	uint32_t *order = cb_xmalloc((n + 1) * sizeof *order),
		 *po = cb_xmalloc((n + 1) * sizeof *po);
	int32_t *idom = cb_xmalloc((n + 1) * sizeof *idom);
	for (uint32_t b = 0; b <= n; b++)
		idom[b] = -1;
	uint32_t count = reverse_postorder(f, p, order, po);
	idom[X] = (int32_t)X;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t k = count - 1; k-- > 0;) {
			uint32_t b = order[k], nd = CB_NONE;
			bool exit = f->succ_first[b] == f->succ_first[b + 1];
			if (exit)
				nd = X;
			for (uint32_t s = f->succ_first[b]; s < f->succ_first[b + 1]; s++) {
				uint32_t c = f->succ[s];
				if (idom[c] < 0)
					continue;
				nd = nd == CB_NONE ? c : intersect(idom, po, c, nd);
			}
			if (nd != CB_NONE && idom[b] != (int32_t)nd) {
				idom[b] = (int32_t)nd;
				changed = true;
			}
		}
	}
	for (uint32_t b = 0; b < n; b++)
		f->blocks[b].ipdom = idom[b] < 0 || idom[b] == (int32_t)X ? -1 : idom[b];
	free(order);
	free(po);
	free(idom);
}

void cb_fn_analyze(cb_fn *f)
{
	successors(f);
	if (!f->nblocks)
		return;
	preds p = predecessors(f);
	find_loops(f, &p);
	post_dominators(f, &p);
	free(p.pred);
	free(p.pred_first);
}
