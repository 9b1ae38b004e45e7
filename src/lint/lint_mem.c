/* SPDX-License-Identifier: MIT */
/* Memory of the interpreter: pointer arithmetic (GEPs, with the row and column of 2-D array
 * accesses), private objects (what a work-item stored where, so that indices and pointers kept
 * in private variables are known again when loaded), and a bump arena for both. */
#include "config.h"
#include "lint/lint_mem.h"
#include "lint/lint_interp.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK ((size_t)1 << 20)

struct cb_chunk {
	cb_chunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

void *cb_arena_alloc(cb_arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (!a->head || a->head->used + n > a->head->cap) {
		size_t cap = n > CHUNK ? n : CHUNK;
		cb_chunk *c = cb_xmalloc(sizeof *c + cap);
		c->used = 0;
		c->cap = cap;
		c->next = a->head;
		a->head = c;
	}
	void *p = a->head->data + a->head->used;
	a->head->used += n;
	memset(p, 0, n);
	return p;
}

cb_arena_mark cb_arena_get_mark(const cb_arena *a)
{
	cb_arena_mark m = { a->head, a->head ? a->head->used : 0 };
	return m;
}

void cb_arena_release(cb_arena *a, cb_arena_mark m)
{
	while (a->head && a->head != m.chunk) {
		cb_chunk *next = a->head->next;
		free(a->head);
		a->head = next;
	}
	if (a->head)
		a->head->used = m.used;
}

/* Keeps the newest chunk for the next work-item. */
void cb_arena_reset(cb_arena *a)
{
	if (!a->head)
		return;
	cb_chunk *keep = a->head, *c = keep->next;
	while (c) {
		cb_chunk *next = c->next;
		free(c);
		c = next;
	}
	keep->next = NULL;
	keep->used = 0;
}

void cb_arena_free(cb_arena *a)
{
	cb_arena_reset(a);
	free(a->head);
	a->head = NULL;
}

static const cb_lint_object *local_object(const cb_prog *p, int32_t obj)
{
	if (obj < CB_OBJ_FIRST || obj >= CB_OBJ_FIRST + (int32_t)p->nobjects)
		return NULL;
	return &p->objects[obj - CB_OBJ_FIRST];
}

static bool known_ptr(const cb_val *v)
{
	return v->kind == CB_V_PTR && v->lo == v->hi;
}

/* Row and column after the GEP: set by a GEP over the array (a[0][r][c], a[0][r]) or over
 * its rows (p[r][c], p[r], from the array's start or from a row); kept by a GEP of zeros of
 * any other type; lost otherwise. */
static void provenance(const cb_prog *p, const cb_ins *g, const cb_val *base, const cb_val *idx,
		       uint32_t n, cb_val *r)
{
	bool zero = true;
	for (uint32_t k = 0; k < n; k++)
		zero &= cb_val_known(&idx[k]) && idx[k].lo == 0;
	r->row = r->col = CB_IDX_LOST;
	const cb_lint_object *o = local_object(p, base->obj);
	bool shaped = o && o->rank == 2 && known_ptr(base) && n <= 3 &&
		      ((g->sub == CB_GEP_ARRAY2 && g->rows == o->dims[0]) ||
		       g->sub == CB_GEP_ROW) &&
		      g->cols == o->dims[1] && g->imm == o->elem_bytes;
	if (!shaped) {
		if (zero) {
			r->row = base->row;
			r->col = base->col;
		}
		return;
	}
	int64_t v[3] = { 0, 0, 0 };
	for (uint32_t k = 0; k < n; k++) {
		if (!cb_val_known(&idx[k]) || idx[k].lo < -0x7fffffff || idx[k].lo > 0x7fffffff)
			return;
		v[k] = idx[k].lo;
	}
	int64_t C = o->dims[1], E = o->elem_bytes, row, col;
	bool fresh = base->row == CB_IDX_NONE && base->lo == 0;
	if (g->sub == CB_GEP_ARRAY2) {
		if (!fresh || n < 2 || v[0] != 0)
			return;
		row = v[1];
		col = n == 3 ? v[2] : CB_IDX_NONE;
	} else {
		if (n > 2)
			return;
		if (fresh)
			row = v[0];
		else if (base->row >= 0 && base->col == CB_IDX_NONE &&
			 base->lo == base->row * C * E)
			row = base->row + v[0];
		else
			return;
		col = n == 2 ? v[1] : CB_IDX_NONE;
	}
	if (row >= 0 && row <= 0x7fffffff &&
	    (col == CB_IDX_NONE || (col >= 0 && col <= 0x7fffffff))) {
		r->row = (int32_t)row;
		r->col = (int32_t)col;
	}
}

cb_val cb_gep_eval(const cb_prog *p, const cb_ins *g, cb_val base, const cb_val *idx,
		   const uint64_t *stride, uint32_t n)
{
	cb_val r = base;
	if (base.kind != CB_V_PTR) {
		r = cb_val_ptr(CB_OBJ_NONE, 0);
		r.flags = base.flags;
		return r;
	}
	bool ok = true;
	for (uint32_t k = 0; k < n; k++) {
		r.flags |= idx[k].flags;
		if (cb_val_known(&idx[k]) && idx[k].lo == 0)
			continue;
		int64_t s = (int64_t)stride[k], a, b;
		if (idx[k].kind != CB_V_NUM || stride[k] > INT32_MAX ||
		    __builtin_mul_overflow(idx[k].lo, s, &a) ||
		    __builtin_mul_overflow(idx[k].hi, s, &b) ||
		    __builtin_add_overflow(r.lo, a, &r.lo) ||
		    __builtin_add_overflow(r.hi, b, &r.hi)) {
			ok = false;
			break;
		}
	}
	const cb_lint_object *o = local_object(p, base.obj);
	if (!ok) {
		r.lo = INT32_MIN;
		r.hi = INT32_MAX;
	}
	if (r.lo != r.hi && o) {
		/* An inbounds GEP stays in its object. */
		r.lo = r.lo < 0 ? 0 : r.lo;
		if (o->bytes)
			r.hi = r.hi > (int64_t)o->bytes - 1 ? (int64_t)o->bytes - 1 : r.hi;
		if (r.lo > r.hi)
			r.lo = r.hi = 0;
	}
	provenance(p, g, &base, idx, n, &r);
	return r;
}

int32_t cb_pmem_new(cb_interp *in, uint64_t size)
{
	if (in->npobj == in->pobjcap) {
		in->pobjcap = in->pobjcap ? 2 * in->pobjcap : 64;
		in->pobj = cb_xrealloc(in->pobj, in->pobjcap * sizeof *in->pobj);
	}
	cb_pobj *o = &in->pobj[in->npobj];
	o->size = size > CB_PRIVATE_MAX ? 0 : (uint32_t)size;
	o->slot = o->size ? cb_arena_alloc(&in->arena, o->size * sizeof *o->slot) : NULL;
	o->len = o->size ? cb_arena_alloc(&in->arena, o->size) : NULL;
	o->guess = 0;
	return CB_OBJ_FIRST + (int32_t)in->prog->nobjects + (int32_t)in->npobj++;
}

static cb_pobj *private_obj(cb_interp *in, const cb_val *ptr)
{
	int32_t k = ptr->obj - CB_OBJ_FIRST - (int32_t)in->prog->nobjects;
	if (ptr->kind != CB_V_PTR || k < 0 || k >= (int32_t)in->npobj || !in->pobj[k].size)
		return NULL;
	return &in->pobj[k];
}

/* The private object PTR points into when BYTES at its offset are known to lie in it (offset
 * in *off). A store somewhere unknown in a private object (WRITE) forgets what it holds. */
static cb_pobj *private_at(cb_interp *in, const cb_val *ptr, uint32_t bytes, uint32_t *off,
			   bool write)
{
	cb_pobj *o = private_obj(in, ptr);
	if (!o)
		return NULL;
	if (ptr->lo != ptr->hi || ptr->lo < 0 || (uint64_t)ptr->lo + bytes > o->size) {
		if (write)
			memset(o->len, 0, o->size);
		return NULL;
	}
	*off = (uint32_t)ptr->lo;
	return o;
}

static void forget(cb_interp *in, const cb_val *ptr)
{
	cb_pobj *o = private_obj(in, ptr);
	if (o)
		memset(o->len, 0, o->size);
}

static cb_val unknown_of(uint8_t kind, unsigned width, uint16_t flags)
{
	cb_val v = kind == CB_V_NUM   ? cb_val_range(width)
		   : kind == CB_V_PTR ? cb_val_ptr(CB_OBJ_NONE, 0)
				      : cb_val_opaque();
	v.flags = flags;
	return v;
}

cb_val cb_pmem_load(cb_interp *in, cb_val ptr, uint32_t bytes, uint8_t kind, unsigned width)
{
	uint32_t off = 0;
	cb_pobj *o = private_at(in, &ptr, bytes, &off, false);
	if (!o) /* __global, __constant or __local memory: contents lint does not follow */
		return unknown_of(kind, width, ptr.flags | CB_VF_MEM);
	if (o->guess & CB_PGUESS_READ)
		ptr.flags |= CB_VF_GUESS;
	if (o->len[off] == bytes && o->slot[off].kind == kind) {
		cb_val v = o->slot[off];
		v.flags |= ptr.flags;
		return v;
	}
	bool zero = true;
	for (uint32_t i = 0; i < bytes; i++)
		zero &= o->len[off + i] == CB_ZERO;
	if (zero && kind == CB_V_NUM) {
		cb_val v = cb_val_int(0);
		v.flags = ptr.flags;
		return v;
	}
	return unknown_of(kind, width, ptr.flags);
}

/* Forgets values that overlap [off, off + bytes). */
static void clear(cb_pobj *o, uint32_t off, uint32_t bytes)
{
	uint32_t from = off > 64 ? off - 64 : 0;
	for (uint32_t j = from; j < off; j++)
		if (o->len[j] && o->len[j] != CB_ZERO && j + o->len[j] > off)
			o->len[j] = 0;
	memset(o->len + off, 0, bytes);
}

void cb_pmem_store(cb_interp *in, cb_val ptr, cb_val v, uint32_t bytes)
{
	uint32_t off;
	cb_pobj *o = private_at(in, &ptr, bytes, &off, true);
	if (!o || !bytes)
		return;
	clear(o, off, bytes);
	if (bytes == o->size) /* all of it: what it held before no longer matters */
		o->guess = 0;
	if (bytes >= CB_ZERO)
		return;
	o->len[off] = (uint8_t)bytes;
	v.flags |= ptr.flags;
	o->slot[off] = v;
}

void cb_pmem_set(cb_interp *in, cb_val ptr, cb_val byte, cb_val len)
{
	if (!cb_val_known(&len) || len.lo <= 0 || len.lo > CB_PRIVATE_MAX) {
		forget(in, &ptr);
		return;
	}
	uint32_t off, n = (uint32_t)len.lo;
	cb_pobj *o = private_at(in, &ptr, n, &off, true);
	if (!o)
		return;
	clear(o, off, n);
	if (cb_val_known(&byte) && byte.lo == 0 && !byte.flags && !ptr.flags)
		memset(o->len + off, CB_ZERO, n);
}

void cb_pmem_copy(cb_interp *in, cb_val dst, cb_val src, cb_val len)
{
	uint32_t doff, soff, n;
	if (!cb_val_known(&len) || len.lo <= 0 || len.lo > CB_PRIVATE_MAX) {
		forget(in, &dst);
		return;
	}
	n = (uint32_t)len.lo;
	cb_pobj *d = private_at(in, &dst, n, &doff, true);
	if (!d)
		return;
	cb_pobj *s = private_at(in, &src, n, &soff, false);
	clear(d, doff, n);
	if (!s || s == d)
		return;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t l = s->len[soff + i];
		if (l == CB_ZERO || (l && i + l <= n)) {
			d->len[doff + i] = l;
			d->slot[doff + i] = s->slot[soff + i];
		}
	}
}

void cb_pmem_guess_write(cb_interp *in, cb_val ptr)
{
	cb_pobj *o = private_obj(in, &ptr);
	if (o)
		o->guess |= CB_PGUESS_OPEN;
}

void cb_pmem_guess_settle(cb_interp *in, bool open)
{
	for (uint32_t k = 0; k < in->npobj; k++) {
		cb_pobj *o = &in->pobj[k];
		if (o->guess & CB_PGUESS_OPEN)
			o->guess = (uint8_t)(CB_PGUESS_READ | (open ? CB_PGUESS_OPEN : 0));
	}
}
