/* SPDX-License-Identifier: MIT */
/* The translation's context (lint_dctx.h): LLVM handles to indices, value slots and
 * constants, __local objects, access sites and GEP steps, shared by both halves of the
 * translation. */
#include "config.h"
#include "lint/lint_dctx.h"
#include "lint/lint_target.h"
#include "lint/lint_mem.h"
#include "lint/lint_names.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t pmap_slot(const cb_pmap *m, const void *key)
{
	size_t h = ((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull;
	size_t i = h & (m->cap - 1);
	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

uint32_t cb_pmap_get(const cb_pmap *m, const void *key)
{
	if (!m->cap)
		return CB_NONE;
	size_t i = pmap_slot(m, key);
	return m->keys[i] ? m->vals[i] : CB_NONE;
}

void cb_pmap_put(cb_pmap *m, const void *key, uint32_t val)
{
	if (2 * (m->n + 1) > m->cap) {
		cb_pmap old = *m;
		m->cap = old.cap ? 2 * old.cap : 64;
		m->keys = cb_xcalloc(m->cap, sizeof *m->keys);
		m->vals = cb_xcalloc(m->cap, sizeof *m->vals);
		m->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.keys[i])
				cb_pmap_put(m, old.keys[i], old.vals[i]);
		free(old.keys);
		free(old.vals);
	}
	size_t i = pmap_slot(m, key);
	if (!m->keys[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
}

void cb_pmap_free(cb_pmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

unsigned cb_int_width(LLVMTypeRef t)
{
	if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
		return 0;
	unsigned w = LLVMGetIntTypeWidth(t);
	return w <= 64 ? w : 0;
}

uint8_t cb_value_kind(LLVMTypeRef t)
{
	if (cb_int_width(t))
		return CB_V_NUM;
	return LLVMGetTypeKind(t) == LLVMPointerTypeKind ? CB_V_PTR : CB_V_OPAQUE;
}

unsigned cb_addrspace(LLVMTypeRef t)
{
	/* in SPIR's numbering whatever the target (CUDA, HIP: lint_target.c) */
	return LLVMGetTypeKind(t) == LLVMPointerTypeKind
		       ? cb_target_space(LLVMGetPointerAddressSpace(t))
		       : 0;
}

/* A static __local variable: clang names it KERNEL.NAME. */
static void describe_global(cb_dctx *d, LLVMValueRef g, cb_lint_object *o)
{
	size_t len;
	const char *name = LLVMGetValueName2(g, &len);
	const char *dot = memchr(name, '.', len);
	char cxx[256];
	o->name = cb_xstrdup(cb_target_static_name(name, cxx, sizeof cxx) ? cxx
			     : dot                                        ? dot + 1
									  : name);
	LLVMTypeRef t = LLVMGlobalGetValueType(g);
	o->bytes = LLVMABISizeOfType(d->td, t);
	while (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
		/* LLVMGetArrayLength is 32 bits before LLVM 17: the length from the sizes */
		LLVMTypeRef e = LLVMGetElementType(t);
		uint64_t eb = LLVMTypeIsSized(e) ? LLVMABISizeOfType(d->td, e) : 0;
		if (o->rank < 4)
			o->dims[o->rank] = eb ? LLVMABISizeOfType(d->td, t) / eb
					      : LLVMGetArrayLength(t);
		o->rank++;
		t = e;
	}
	char buf[64];
	if (!cb_debug_elem_name(d, g, buf, sizeof buf))
		cb_type_name(t, buf, sizeof buf);
	o->elem_type = cb_xstrdup(buf);
	o->elem_bytes = (unsigned)LLVMABISizeOfType(d->td, t);
	o->decl_line = cb_debug_decl_line(d, g);
}

uint32_t cb_dobject(cb_dctx *d)
{
	cb_prog *p = d->prog;
	if (p->nobjects == d->objcap) {
		d->objcap = d->objcap ? 2 * d->objcap : 8;
		p->objects = cb_xrealloc(p->objects, d->objcap * sizeof *p->objects);
	}
	memset(&p->objects[p->nobjects], 0, sizeof *p->objects);
	return p->nobjects++;
}

static int32_t local_object(cb_dctx *d, LLVMValueRef g)
{
	uint32_t k = cb_pmap_get(&d->objs, g);
	if (k != CB_NONE)
		return (int32_t)k;
	k = cb_dobject(d);
	describe_global(d, g, &d->prog->objects[k]);
	if (cb_target_is_dynamic(g)) { /* extern __shared__: as a __local argument, sized later */
		d->prog->objects[k].is_arg = true;
		d->prog->objects[k].rank = 0;
	}
	cb_pmap_put(&d->objs, g, k);
	return (int32_t)k;
}

static cb_val const_expr(cb_dctx *d, LLVMValueRef v)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	switch (LLVMGetConstOpcode(v)) {
	case LLVMBitCast:
	case LLVMAddrSpaceCast:
		if (cb_value_kind(t) == CB_V_PTR)
			return cb_dconst_value(d, LLVMGetOperand(v, 0));
		break;
	case LLVMIntToPtr:
		return cb_val_ptr(CB_OBJ_NONE, 0);
	case LLVMGetElementPtr: {
		cb_gep_steps s;
		if (!cb_gep_decode(d, v, &s))
			break;
		cb_val base = cb_dconst_value(d, LLVMGetOperand(v, 0)), idx[16];
		for (uint32_t k = 0; k < s.n; k++)
			idx[k] = s.idx[k] ? cb_dconst_value(d, s.idx[k])
					  : cb_val_int((int64_t)s.field[k]);
		cb_ins g = { .sub = s.shape, .rows = s.rows, .cols = s.cols, .imm = s.ebytes };
		return cb_gep_eval(d->prog, &g, base, idx, s.stride, s.n);
	}
	default:
		break;
	}
	return cb_value_kind(t) == CB_V_PTR ? cb_val_ptr(CB_OBJ_NONE, 0)
					    : cb_val_range(cb_int_width(t));
}

cb_val cb_dconst_value(cb_dctx *d, LLVMValueRef v)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	if (LLVMIsUndef(v)) {
		cb_val u = cb_val_range(cb_int_width(t));
		u.kind = CB_V_UNDEF;
		return u;
	}
	if (LLVMIsAConstantInt(v)) {
		unsigned w = cb_int_width(t);
		return w ? cb_val_int(cb_wrap(LLVMConstIntGetSExtValue(v), w)) : cb_val_opaque();
	}
	if (LLVMIsAConstantPointerNull(v))
		return cb_val_ptr(CB_OBJ_NONE, 0);
	if (LLVMIsAGlobalVariable(v)) {
		if (cb_addrspace(t) == 3)
			return cb_val_ptr(CB_OBJ_FIRST + local_object(d, v), 0);
		return cb_val_ptr(CB_OBJ_GLOBAL, 0);
	}
	if (LLVMIsAConstantExpr(v))
		return const_expr(d, v);
	return cb_val_opaque();
}

uint32_t cb_dconst(cb_dctx *d, cb_val v)
{
	cb_fn *f = d->f;
	uint32_t k = f->nvals - f->const_base;
	if (k == d->constcap) {
		d->constcap = d->constcap ? 2 * d->constcap : 32;
		f->consts = cb_xrealloc(f->consts, d->constcap * sizeof *f->consts);
	}
	f->consts[k] = v;
	return f->nvals++;
}

uint32_t cb_dref(cb_dctx *d, LLVMValueRef v)
{
	uint32_t k = cb_pmap_get(&d->vals, v);
	if (k != CB_NONE)
		return k;
	k = cb_dconst(d, cb_dconst_value(d, v));
	cb_pmap_put(&d->vals, v, k);
	return k;
}

uint32_t cb_dextra(cb_dctx *d, uint32_t a, uint32_t b)
{
	cb_fn *f = d->f;
	if (f->nextra + 2 > d->extracap) {
		d->extracap = d->extracap ? 2 * d->extracap : 64;
		f->extra = cb_xrealloc(f->extra, d->extracap * sizeof *f->extra);
	}
	f->extra[f->nextra] = a;
	f->extra[f->nextra + 1] = b;
	f->nextra += 2;
	return f->nextra - 2;
}

uint32_t cb_dfunction(cb_dctx *d, LLVMValueRef fn)
{
	uint32_t k = cb_pmap_get(&d->fns, fn);
	if (k != CB_NONE)
		return k;
	cb_prog *p = d->prog;
	if (p->nfns == d->fncap) {
		d->fncap = d->fncap ? 2 * d->fncap : 8;
		p->fns = cb_xrealloc(p->fns, d->fncap * sizeof *p->fns);
		d->fnref = cb_xrealloc(d->fnref, d->fncap * sizeof *d->fnref);
	}
	memset(&p->fns[p->nfns], 0, sizeof *p->fns);
	d->fnref[p->nfns] = fn;
	cb_pmap_put(&d->fns, fn, p->nfns);
	return p->nfns++;
}

/* The __local object a pointer addresses as far as the IR shows it without running: through
 * GEPs and casts to a static __local variable, or to a kernel argument (at -O0 kept in an
 * alloca that one store fills). */
static void static_object(cb_dctx *d, LLVMValueRef v, cb_site *s)
{
	for (int depth = 0; v && depth < 32; depth++) {
		if (LLVMIsAGlobalVariable(v)) {
			if (cb_addrspace(LLVMTypeOf(v)) == 3)
				s->object = local_object(d, v);
			return;
		}
		if (LLVMIsAArgument(v)) {
			if (d->fn_index == 0)
				for (unsigned k = 0; k < LLVMCountParams(d->fnref[0]); k++)
					if (LLVMGetParam(d->fnref[0], k) == v)
						s->arg = (int32_t)k;
			return;
		}
		LLVMValueRef next = NULL;
		if (LLVMIsAGetElementPtrInst(v) || LLVMIsABitCastInst(v) ||
		    LLVMIsAAddrSpaceCastInst(v) ||
		    (LLVMIsAConstantExpr(v) && LLVMGetNumOperands(v) > 0)) {
			next = LLVMGetOperand(v, 0);
		} else if (LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0))) {
			LLVMValueRef slot = LLVMGetOperand(v, 0);
			for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
				LLVMValueRef user = LLVMGetUser(u);
				if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot) {
					if (next)
						return; /* stored more than once */
					next = LLVMGetOperand(user, 0);
				}
			}
		}
		v = next;
	}
}

/* The path of an instruction's file as it can be opened from the working directory: clang
 * names a file relative to its debug-info directory ("A/k.cl" in "/tmp" for /tmp/A/k.cl run
 * from /tmp/B), so a relative name is joined to that directory, and shown relative to the
 * working directory when it lies below it. "" when the IR has no location. */
static char *site_file(const cb_dctx *d, LLVMValueRef ins, LLVMMetadataRef at)
{
	unsigned flen = 0, dlen = 0;
	const char *file = at ? cb_target_loc_file(at, &flen, false)
			      : LLVMGetDebugLocFilename(ins, &flen);
	const char *dir = !flen || file[0] == '/' ? NULL
			  : at                    ? cb_target_loc_file(at, &dlen, true)
						  : LLVMGetDebugLocDirectory(ins, &dlen);
	size_t n = (size_t)flen + dlen + 2;
	char *path = cb_xmalloc(n);
	if (dir && dlen)
		snprintf(path, n, "%.*s%s%.*s", (int)dlen, dir, dir[dlen - 1] == '/' ? "" : "/",
			 (int)flen, file);
	else
		snprintf(path, n, "%.*s", (int)flen, flen ? file : "");
	size_t cl = strlen(d->cwd);
	if (cl && path[0] == '/' && !strncmp(path, d->cwd, cl) && path[cl] == '/' && path[cl + 1])
		memmove(path, path + cl + 1, strlen(path + cl + 1) + 1);
	return path;
}

int32_t cb_dsite(cb_dctx *d, LLVMValueRef ins, LLVMValueRef ptr, cb_op op, LLVMTypeRef type,
		 uint64_t bytes)
{
	cb_prog *p = d->prog;
	if (p->nsites == d->sitecap) {
		d->sitecap = d->sitecap ? 2 * d->sitecap : 16;
		p->sites = cb_xrealloc(p->sites, d->sitecap * sizeof *p->sites);
	}
	cb_site *s = &p->sites[p->nsites];
	memset(s, 0, sizeof *s);
	LLVMMetadataRef at = cb_target_call_site(ins); /* CUDA, HIP: inlined functions */
	s->file = site_file(d, ins, at);
	s->line = at ? LLVMDILocationGetLine(at) : LLVMGetDebugLocLine(ins);
	s->column = at ? LLVMDILocationGetColumn(at) : LLVMGetDebugLocColumn(ins);
	s->op = op;
	s->elem_bytes = (unsigned)bytes;
	char buf[64];
	cb_type_name(type, buf, sizeof buf);
	s->elem_type = cb_xstrdup(buf);
	s->fn = d->fn_index;
	s->block = d->block;
	s->object = s->arg = -1;
	static_object(d, ptr, s);
	return (int32_t)p->nsites++;
}

bool cb_gep_decode(cb_dctx *d, LLVMValueRef gep, cb_gep_steps *s)
{
	memset(s, 0, sizeof *s);
	unsigned nops = (unsigned)LLVMGetNumOperands(gep);
	LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
	if (nops < 2 || nops - 1 > 16 || LLVMGetTypeKind(LLVMTypeOf(gep)) != LLVMPointerTypeKind)
		return false;
	if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
		LLVMTypeRef e = LLVMGetElementType(t);
		LLVMTypeKind ek = LLVMGetTypeKind(e);
		if (ek == LLVMArrayTypeKind) {
			LLVMTypeRef ee = LLVMGetElementType(e);
			LLVMTypeKind k = LLVMGetTypeKind(ee);
			if (k != LLVMArrayTypeKind && k != LLVMStructTypeKind) {
				s->shape = CB_GEP_ARRAY2;
				s->rows = LLVMGetArrayLength(t);
				s->cols = LLVMGetArrayLength(e);
				s->ebytes = (uint32_t)LLVMABISizeOfType(d->td, ee);
			}
		} else if (ek != LLVMStructTypeKind) {
			s->shape = CB_GEP_ROW;
			s->cols = LLVMGetArrayLength(t);
			s->ebytes = (uint32_t)LLVMABISizeOfType(d->td, e);
		}
	}
	s->n = nops - 1;
	s->idx[0] = LLVMGetOperand(gep, 1);
	s->stride[0] = LLVMABISizeOfType(d->td, t);
	for (unsigned k = 1; k < s->n; k++) {
		LLVMValueRef ix = LLVMGetOperand(gep, k + 1);
		LLVMTypeKind kind = LLVMGetTypeKind(t);
		if (kind == LLVMStructTypeKind) {
			if (!LLVMIsAConstantInt(ix))
				return false;
			unsigned field = (unsigned)LLVMConstIntGetZExtValue(ix);
			s->field[k] = LLVMOffsetOfElement(d->td, t, field);
			s->stride[k] = 1;
			t = LLVMStructGetTypeAtIndex(t, field);
		} else if (kind == LLVMArrayTypeKind || kind == LLVMVectorTypeKind) {
			t = LLVMGetElementType(t);
			s->idx[k] = ix;
			s->stride[k] = LLVMABISizeOfType(d->td, t);
		} else {
			return false;
		}
	}
	return LLVMGetTypeKind(LLVMTypeOf(s->idx[0])) == LLVMIntegerTypeKind;
}

LLVMValueRef cb_callee(LLVMValueRef call)
{
	LLVMValueRef c = LLVMGetCalledValue(call);
	while (c && LLVMIsAConstantExpr(c) && LLVMGetConstOpcode(c) == LLVMBitCast)
		c = LLVMGetOperand(c, 0);
	return c && LLVMIsAFunction(c) ? c : NULL;
}

int32_t cb_dstatic_object(cb_dctx *d, LLVMValueRef v)
{
	cb_site s;
	memset(&s, 0, sizeof s);
	s.object = s.arg = -1;
	static_object(d, v, &s);
	return s.object;
}

/* V as a constant: an integer constant, or a load of a variable that one store of a constant
 * fills (a const local at -O1 without LLVM passes); -1 when it is neither. */
static long long const_of(LLVMValueRef v)
{
	if (LLVMIsAConstantInt(v))
		return LLVMConstIntGetSExtValue(v);
	if (!LLVMIsALoadInst(v) || !LLVMIsAAllocaInst(LLVMGetOperand(v, 0)))
		return -1;
	LLVMValueRef slot = LLVMGetOperand(v, 0), stored = NULL;
	for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot) {
			if (stored)
				return -1;
			stored = LLVMGetOperand(user, 0);
		}
	}
	return stored && LLVMIsAConstantInt(stored) ? LLVMConstIntGetSExtValue(stored) : -1;
}

static LLVMValueRef strip_casts(LLVMValueRef v)
{
	while (v && (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v) || LLVMIsATruncInst(v)))
		v = LLVMGetOperand(v, 0);
	return v;
}

/* The constant factor of a product (x * W, W * x, x << k), or 0. */
static unsigned factor(LLVMValueRef v)
{
	v = strip_casts(v);
	if (!v || !LLVMIsAInstruction(v))
		return 0;
	LLVMOpcode op = LLVMGetInstructionOpcode(v);
	if (op == LLVMMul)
		for (unsigned k = 0; k < 2; k++) {
			long long c = const_of(strip_casts(LLVMGetOperand(v, k)));
			if (c >= 2 && c <= 65536)
				return (unsigned)c;
		}
	if (op == LLVMShl) {
		long long c = const_of(strip_casts(LLVMGetOperand(v, 1)));
		if (c >= 1 && c <= 16)
			return 1u << c;
	}
	return 0;
}

unsigned cb_index_width(LLVMValueRef idx)
{
	LLVMValueRef v = strip_casts(idx);
	if (!v || !LLVMIsAInstruction(v))
		return 0;
	LLVMOpcode op = LLVMGetInstructionOpcode(v);
	if (op == LLVMAdd || op == LLVMOr)
		for (unsigned k = 0; k < 2; k++) {
			unsigned w = factor(LLVMGetOperand(v, k));
			if (w)
				return w;
		}
	return factor(v);
}
