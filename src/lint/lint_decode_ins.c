/* SPDX-License-Identifier: MIT */
/* LLVM IR to the lint program, instruction side: each LLVM instruction becomes one cb_ins
 * (debug intrinsics none); what the interpreter cannot follow becomes an unknown value of its
 * type, and every load, store and atomic on address space 3 becomes an access site. */
#include "config.h"
#include "lint/lint_decode_ins.h"
#include "lint/lint_builtin.h"
#include "lint/lint_lang.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static void unknown(cb_ins *o, LLVMTypeRef t)
{
	o->op = CB_I_UNKNOWN;
	o->width = (uint8_t)cb_int_width(t);
	o->sub = cb_value_kind(t);
}

static bool int_vector(cb_dctx *d, LLVMTypeRef t, uint32_t *lanes, uint32_t *bytes);

/* Element K of the constant vector V, or NULL (LLVMGetAggregateElement is LLVM 15's; before
 * it, each kind of constant vector has its own accessor). */
static LLVMValueRef vector_element(LLVMValueRef v, unsigned k)
{
#if CB_LLVM_MAJOR >= 15
	return LLVMGetAggregateElement(v, k);
#else
	if (LLVMIsAConstantDataVector(v))
		return LLVMGetElementAsConstant(v, k);
	if (LLVMIsAConstantVector(v))
		return k < (unsigned)LLVMGetNumOperands(v) ? LLVMGetOperand(v, k) : NULL;
	if (LLVMIsAConstantAggregateZero(v))
		return LLVMConstNull(LLVMGetElementType(LLVMTypeOf(v)));
	if (LLVMIsUndef(v))
		return LLVMGetUndef(LLVMGetElementType(LLVMTypeOf(v)));
	return NULL;
#endif
}

/* A constant integer vector V of N lanes: its lanes as constant slots in the extra list (one
 * pair each); the first pair's index, or CB_NONE when V is no such constant. */
static uint32_t const_lanes(cb_dctx *d, LLVMValueRef v, uint32_t n)
{
	if (!LLVMIsConstant(v) || LLVMIsAConstantExpr(v) || LLVMIsAGlobalValue(v))
		return CB_NONE;
	uint32_t first = CB_NONE;
	for (uint32_t k = 0; k < n; k++) {
		LLVMValueRef e = vector_element(v, k);
		cb_val c = e && LLVMIsAConstantInt(e) ? cb_dconst_value(d, e) : cb_val_range(0);
		if (e && LLVMIsUndef(e))
			c = cb_val_range(64);
		uint32_t at = cb_dextra(d, cb_dconst(d, c), 0);
		first = k ? first : at;
	}
	return first;
}

/* Integer vector arithmetic (int4 * (int4)(1, 2, 1, 1), int2 + offsets): lane by lane. */
static void decode_vbin(cb_dctx *d, LLVMValueRef i, cb_binop b, cb_ins *o)
{
	LLVMValueRef x = LLVMGetOperand(i, 0), y = LLVMGetOperand(i, 1);
	if (!int_vector(d, LLVMTypeOf(i), &o->rows, &o->cols))
		return;
	o->op = CB_I_VBIN;
	o->sub = (uint8_t)b;
	o->a = cb_dref(d, x);
	o->b = cb_dref(d, y);
	if ((o->x = const_lanes(d, x, o->rows)) != CB_NONE)
		o->flags |= CB_INS_VCONST_A;
	if ((o->n = const_lanes(d, y, o->rows)) != CB_NONE)
		o->flags |= CB_INS_VCONST_B;
}

/* shufflevector on integer vectors (the swizzles q.zw, q.yx, q.s10): each result lane is a
 * lane of one of the operands, as the mask says. */
static bool decode_shuffle(cb_dctx *d, LLVMValueRef i, cb_ins *o)
{
	LLVMValueRef x = LLVMGetOperand(i, 0), y = LLVMGetOperand(i, 1);
	uint32_t src, bytes;
	unknown(o, LLVMTypeOf(i));
	if (!int_vector(d, LLVMTypeOf(i), &o->rows, &o->cols) ||
	    !int_vector(d, LLVMTypeOf(x), &src, &bytes) || bytes != o->cols ||
	    LLVMGetNumMaskElements(i) != o->rows)
		return true;
	o->op = CB_I_VSHUF;
	o->imm = src;
	o->a = cb_dref(d, x);
	o->b = cb_dref(d, y);
	if ((o->x = const_lanes(d, x, src)) != CB_NONE)
		o->flags |= CB_INS_VCONST_A;
	if ((o->n = const_lanes(d, y, src)) != CB_NONE)
		o->flags |= CB_INS_VCONST_B;
	for (uint32_t k = 0; k < o->rows; k++) {
		int m = LLVMGetMaskValue(i, k);
		uint32_t at = cb_dextra(d,
					m == LLVMGetUndefMaskElem() || m < 0 ? CB_NONE
									     : (uint32_t)m,
					0);
		o->c = k ? o->c : at;
	}
	return true;
}

static bool decode_bin(cb_dctx *d, LLVMValueRef i, LLVMOpcode op, cb_ins *o)
{
	/* clang-format off */
	static const struct { LLVMOpcode op; cb_binop b; } map[] = {
		{ LLVMAdd, CB_ADD }, { LLVMSub, CB_SUB }, { LLVMMul, CB_MUL }, { LLVMUDiv, CB_UDIV },
		{ LLVMSDiv, CB_SDIV }, { LLVMURem, CB_UREM }, { LLVMSRem, CB_SREM },
		{ LLVMShl, CB_SHL }, { LLVMLShr, CB_LSHR }, { LLVMAShr, CB_ASHR },
		{ LLVMAnd, CB_AND }, { LLVMOr, CB_OR }, { LLVMXor, CB_XOR },
	};
	/* clang-format on */
	LLVMTypeRef t = LLVMTypeOf(i);
	unknown(o, t);
	for (size_t k = 0; !cb_int_width(t) && k < sizeof map / sizeof map[0]; k++)
		if (map[k].op == op && LLVMGetTypeKind(t) == LLVMVectorTypeKind)
			decode_vbin(d, i, map[k].b, o);
	if (!cb_int_width(t))
		return true;
	for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
		if (map[k].op == op) {
			o->op = CB_I_BIN;
			o->sub = (uint8_t)map[k].b;
			o->a = cb_dref(d, LLVMGetOperand(i, 0));
			o->b = cb_dref(d, LLVMGetOperand(i, 1));
		}
	return true;
}

static bool decode_icmp(cb_dctx *d, LLVMValueRef i, cb_ins *o)
{
	/* clang-format off */
	static const struct { LLVMIntPredicate p; cb_pred c; } map[] = {
		{ LLVMIntEQ, CB_EQ }, { LLVMIntNE, CB_NE }, { LLVMIntUGT, CB_UGT },
		{ LLVMIntUGE, CB_UGE }, { LLVMIntULT, CB_ULT }, { LLVMIntULE, CB_ULE },
		{ LLVMIntSGT, CB_SGT }, { LLVMIntSGE, CB_SGE }, { LLVMIntSLT, CB_SLT },
		{ LLVMIntSLE, CB_SLE },
	};
	/* clang-format on */
	LLVMTypeRef ot = LLVMTypeOf(LLVMGetOperand(i, 0));
	unknown(o, LLVMTypeOf(i));
	unsigned w = cb_value_kind(ot) == CB_V_PTR ? 64 : cb_int_width(ot);
	if (!w || !cb_int_width(LLVMTypeOf(i)))
		return true;
	LLVMIntPredicate p = LLVMGetICmpPredicate(i);
	for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
		if (map[k].p == p) {
			o->op = CB_I_ICMP;
			o->sub = (uint8_t)map[k].c;
			o->imm = w;
			o->a = cb_dref(d, LLVMGetOperand(i, 0));
			o->b = cb_dref(d, LLVMGetOperand(i, 1));
		}
	return true;
}

static bool decode_cast(cb_dctx *d, LLVMValueRef i, LLVMOpcode op, cb_ins *o)
{
	LLVMTypeRef t = LLVMTypeOf(i), st = LLVMTypeOf(LLVMGetOperand(i, 0));
	uint8_t tk = cb_value_kind(t), sk = cb_value_kind(st);
	unknown(o, t);
	o->a = cb_dref(d, LLVMGetOperand(i, 0));
	o->imm = cb_int_width(st);
	switch (op) {
	case LLVMTrunc:
	case LLVMZExt:
	case LLVMSExt:
		if (tk == CB_V_NUM && sk == CB_V_NUM) {
			o->op = CB_I_CAST;
			o->sub = op == LLVMTrunc ? CB_TRUNC : op == LLVMZExt ? CB_ZEXT : CB_SEXT;
		}
		break;
	case LLVMPtrToInt:
		if (tk == CB_V_NUM && sk == CB_V_PTR) {
			o->op = CB_I_CAST;
			o->sub = CB_PTRTOINT;
		}
		break;
	case LLVMIntToPtr:
		if (tk == CB_V_PTR) {
			o->op = CB_I_CAST;
			o->sub = CB_INTTOPTR;
		}
		break;
	case LLVMBitCast:
	case LLVMAddrSpaceCast:
	case LLVMFreeze:
		if (tk == sk && tk != CB_V_OPAQUE && cb_int_width(t) == cb_int_width(st))
			o->op = CB_I_COPY;
		break;
	default:
		break;
	}
	return true;
}

/* Floating-point arithmetic and conversions are not evaluated; the result (an unknown
 * integer after fptosi, else opaque) keeps its operands' marks and gains CB_VF_FLOAT, so that
 * an index computed through floats says so rather than blaming memory or --arg. */
static bool decode_float(cb_dctx *d, LLVMValueRef i, cb_ins *o)
{
	unknown(o, LLVMTypeOf(i));
	o->op = CB_I_FLOAT;
	o->a = cb_dref(d, LLVMGetOperand(i, 0));
	o->b = LLVMGetNumOperands(i) > 1 ? cb_dref(d, LLVMGetOperand(i, 1)) : CB_NONE;
	return true;
}

/* Address space 3 is __local; 4 is generic (OpenCL C 2.0 helpers with unqualified pointers),
 * an access only when the pointer turns out to be __local. */
static void access_site(cb_dctx *d, LLVMValueRef i, LLVMValueRef ptr, cb_op op, LLVMTypeRef type,
			uint64_t bytes, cb_ins *o)
{
	unsigned as = cb_addrspace(LLVMTypeOf(ptr));
	if (as != 3 && as != 4)
		return;
	o->site = cb_dsite(d, i, ptr, op, type, bytes);
	if (as == 4) {
		o->flags |= CB_INS_GENERIC;
		d->prog->sites[o->site].generic = true;
	}
}

/* A 1-D __local array indexed as rows (s[r * W + c]): W is a row width its fix is sought in. */
static void row_width(cb_dctx *d, LLVMValueRef gep, LLVMValueRef idx)
{
	unsigned w = cb_index_width(idx);
	int32_t obj = w ? cb_dstatic_object(d, LLVMGetOperand(gep, 0)) : -1;
	if (obj < 0)
		return;
	cb_lint_object *o = &d->prog->objects[obj];
	for (unsigned k = 0; k < o->nwidths; k++)
		if (o->widths[k] == w)
			return;
	if (o->nwidths < sizeof o->widths / sizeof o->widths[0])
		o->widths[o->nwidths++] = w;
}

static bool decode_gep(cb_dctx *d, LLVMValueRef i, cb_ins *o)
{
	cb_gep_steps s;
	unknown(o, LLVMTypeOf(i));
	if (!cb_gep_decode(d, i, &s))
		return true;
	o->op = CB_I_GEP;
	o->a = cb_dref(d, LLVMGetOperand(i, 0));
	o->sub = s.shape;
	if (s.shape == CB_GEP_ROW && s.n >= 2 && s.idx[1])
		row_width(d, i, s.idx[1]);
	o->rows = s.rows;
	o->cols = s.cols;
	o->imm = s.ebytes;
	o->n = s.n;
	for (uint32_t k = 0; k < s.n; k++) {
		uint32_t v = s.idx[k] ? cb_dref(d, s.idx[k])
				      : cb_dconst(d, cb_val_int((int64_t)s.field[k]));
		uint32_t stride = s.stride[k] > UINT32_MAX ? 0 : (uint32_t)s.stride[k];
		uint32_t at = cb_dextra(d, v, stride);
		if (k == 0)
			o->x = at;
		/* a zero index over a huge type (the object's own index 0) moves nothing */
		bool zero = s.idx[k] && LLVMIsAConstantInt(s.idx[k]) &&
			    !LLVMConstIntGetZExtValue(s.idx[k]);
		if (s.stride[k] > UINT32_MAX && !zero)
			unknown(o, LLVMTypeOf(i));
	}
	return true;
}

/* An integer vector of at most 16 lanes of at most 8 bytes (int2, uint4, ...): its lanes and
 * their bytes in *LANES and *BYTES; false for any other type. */
static bool int_vector(cb_dctx *d, LLVMTypeRef t, uint32_t *lanes, uint32_t *bytes)
{
	if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
		return false;
	LLVMTypeRef e = LLVMGetElementType(t);
	unsigned n = LLVMGetVectorSize(t);
	if (LLVMGetTypeKind(e) != LLVMIntegerTypeKind || !n || n > 16 ||
	    LLVMGetIntTypeWidth(e) % 8 || LLVMGetIntTypeWidth(e) > 64)
		return false;
	*lanes = n;
	*bytes = (uint32_t)LLVMStoreSizeOfType(d->td, e);
	return true;
}

/* insertelement and extractelement on integer vectors: their lanes are followed, so that
 * (int2)(lid, 7) indexes as lid and 7. */
static bool decode_vector(cb_dctx *d, LLVMValueRef i, LLVMOpcode op, cb_ins *o)
{
	LLVMValueRef vec = LLVMGetOperand(i, 0);
	unknown(o, LLVMTypeOf(i));
	if (!int_vector(d, LLVMTypeOf(vec), &o->rows, &o->cols))
		return true;
	o->op = op == LLVMInsertElement ? CB_I_VINS : CB_I_VEXT;
	o->a = cb_dref(d, vec);
	o->b = cb_dref(d, LLVMGetOperand(i, 1));
	if (op == LLVMInsertElement)
		o->c = cb_dref(d, LLVMGetOperand(i, 2));
	return true;
}

static bool decode_memory(cb_dctx *d, LLVMValueRef i, LLVMOpcode op, cb_ins *o)
{
	LLVMTypeRef t = LLVMTypeOf(i);
	switch (op) {
	case LLVMAlloca: {
		LLVMTypeRef at = LLVMGetAllocatedType(i);
		uint64_t bytes = LLVMTypeIsSized(at) ? LLVMABISizeOfType(d->td, at) : 0;
		LLVMValueRef count = LLVMGetOperand(i, 0);
		if (LLVMIsAConstantInt(count))
			bytes *= LLVMConstIntGetZExtValue(count);
		o->op = CB_I_ALLOCA;
		o->imm = bytes > (1u << 20) ? (1u << 20) : (uint32_t)bytes;
		return true;
	}
	case LLVMLoad:
		o->op = CB_I_LOAD;
		o->a = cb_dref(d, LLVMGetOperand(i, 0));
		o->imm = (uint32_t)LLVMStoreSizeOfType(d->td, t);
		o->sub = cb_value_kind(t);
		o->width = (uint8_t)cb_int_width(t);
		if (int_vector(d, t, &o->rows, &o->cols))
			o->flags |= CB_INS_VECTOR;
		access_site(d, i, LLVMGetOperand(i, 0), CB_OP_LOAD, t, o->imm, o);
		return true;
	case LLVMStore: {
		LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(i, 0));
		o->op = CB_I_STORE;
		o->a = cb_dref(d, LLVMGetOperand(i, 0));
		o->b = cb_dref(d, LLVMGetOperand(i, 1));
		o->imm = (uint32_t)LLVMStoreSizeOfType(d->td, vt);
		o->sub = cb_value_kind(vt);
		if (int_vector(d, vt, &o->rows, &o->cols)) {
			o->flags |= CB_INS_VECTOR;
			if ((o->x = const_lanes(d, LLVMGetOperand(i, 0), o->rows)) != CB_NONE)
				o->flags |= CB_INS_VCONST_A;
		}
		access_site(d, i, LLVMGetOperand(i, 1), CB_OP_STORE, vt, o->imm, o);
		return true;
	}
	case LLVMAtomicRMW:
	case LLVMAtomicCmpXchg: {
		LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(i, 1));
		o->op = CB_I_ATOMIC;
		o->a = cb_dref(d, LLVMGetOperand(i, 0));
		o->imm = (uint32_t)LLVMStoreSizeOfType(d->td, vt);
		o->width = (uint8_t)cb_int_width(t);
		o->sub = cb_value_kind(t);
		access_site(d, i, LLVMGetOperand(i, 0), CB_OP_ATOMIC, vt, o->imm, o);
		return true;
	}
	default:
		return decode_gep(d, i, o);
	}
}

static uint32_t block_of(cb_dctx *d, LLVMBasicBlockRef bb)
{
	return cb_pmap_get(&d->blocks, bb);
}

static bool decode_control(cb_dctx *d, LLVMValueRef i, LLVMOpcode op, cb_ins *o)
{
	switch (op) {
	case LLVMBr:
		if (LLVMIsConditional(i)) {
			o->op = CB_I_CONDBR;
			o->imm = LLVMGetDebugLocLine(i);
			o->a = cb_dref(d, LLVMGetCondition(i));
			o->x = block_of(d, LLVMGetSuccessor(i, 0));
			o->n = block_of(d, LLVMGetSuccessor(i, 1));
		} else {
			o->op = CB_I_BR;
			o->x = block_of(d, LLVMGetSuccessor(i, 0));
		}
		return true;
	case LLVMSwitch: {
		unsigned ns = LLVMGetNumSuccessors(i);
		o->op = CB_I_SWITCH;
		o->imm = LLVMGetDebugLocLine(i);
		o->a = cb_dref(d, LLVMGetOperand(i, 0));
		o->x = block_of(d, LLVMGetSuccessor(i, 0));
		o->n = ns - 1;
		o->b = d->f->nextra;
		for (unsigned k = 1; k < ns; k++)
			cb_dextra(d, cb_dref(d, LLVMGetOperand(i, 2 * k)),
				  block_of(d, LLVMGetSuccessor(i, k)));
		return true;
	}
	case LLVMRet:
		o->op = CB_I_RET;
		o->a = LLVMGetNumOperands(i) ? cb_dref(d, LLVMGetOperand(i, 0)) : CB_NONE;
		return true;
	case LLVMPHI: {
		unsigned n = LLVMCountIncoming(i);
		o->op = CB_I_PHI;
		o->n = n;
		o->x = d->f->nextra;
		for (unsigned k = 0; k < n; k++)
			cb_dextra(d, block_of(d, LLVMGetIncomingBlock(i, k)),
				  cb_dref(d, LLVMGetIncomingValue(i, k)));
		return true;
	}
	case LLVMSelect:
		unknown(o, LLVMTypeOf(i));
		if (cb_int_width(LLVMTypeOf(LLVMGetOperand(i, 0))) == 1) {
			o->op = CB_I_SELECT;
			o->a = cb_dref(d, LLVMGetOperand(i, 0));
			o->b = cb_dref(d, LLVMGetOperand(i, 1));
			o->c = cb_dref(d, LLVMGetOperand(i, 2));
		}
		return true;
	default:
		o->op = CB_I_UNREACHABLE;
		return true;
	}
}

static void call_args(cb_dctx *d, LLVMValueRef i, cb_ins *o)
{
	unsigned n = LLVMGetNumArgOperands(i);
	o->n = n;
	o->x = d->f->nextra;
	for (unsigned k = 0; k < n; k++)
		cb_dextra(d, cb_dref(d, LLVMGetOperand(i, k)), 0);
}

/* The bytes of the words a copy of __local memory moves: the largest power of two, at most
 * 16, that divides both pointers' alignment and a constant length (1 without alignment). */
static unsigned copy_word(LLVMValueRef i, bool cpy)
{
	unsigned kind = LLVMGetEnumAttributeKindForName("align", 5), word = 16;
	for (unsigned k = 0; k < (cpy ? 2u : 1u); k++) {
		LLVMAttributeRef a = kind ? LLVMGetCallSiteEnumAttribute(i, k + 1, kind) : NULL;
		uint64_t al = a ? LLVMGetEnumAttributeValue(a) : 1;
		while (word > 1 && (!al || al % word))
			word /= 2;
	}
	LLVMValueRef len = LLVMGetOperand(i, 2);
	if (LLVMIsAConstantInt(len)) {
		unsigned long long n = LLVMConstIntGetZExtValue(len);
		while (word > 1 && n % word)
			word /= 2;
	}
	return word;
}

/* llvm.memcpy / memmove / memset on __local memory (whole structs): the device moves them
 * as words, so each __local side is an access site of the word's size, a store into the
 * destination or a load from the source. o->site is the first (o->n: its operand), o->rows
 * the second plus one (a copy from __local to __local), o->imm the word's bytes. */
static void copy_sites(cb_dctx *d, LLVMValueRef i, bool cpy, cb_ins *o)
{
	unsigned word = copy_word(i, cpy);
	LLVMTypeRef t = word == 16 ? LLVMVectorType(LLVMInt32TypeInContext(d->ctx), 4)
				   : LLVMIntTypeInContext(d->ctx, word * 8);
	o->imm = word;
	for (unsigned k = 0; k < (cpy ? 2u : 1u); k++) {
		LLVMValueRef p = LLVMGetOperand(i, k);
		if (cb_addrspace(LLVMTypeOf(p)) != 3)
			continue;
		int32_t site = cb_dsite(d, i, p, k == 0 ? CB_OP_STORE : CB_OP_LOAD, t, word);
		if (o->site < 0) {
			o->site = site;
			o->n = k;
		} else {
			o->rows = (uint32_t)site + 1;
		}
	}
}

static bool decode_intrinsic(cb_dctx *d, LLVMValueRef i, const char *name, cb_ins *o)
{
	/* clang-format off */
	static const char *const dropped[] = {
		"llvm.dbg.", "llvm.lifetime.", "llvm.assume", "llvm.experimental.noalias",
		"llvm.invariant.", "llvm.var.annotation", "llvm.donothing",
	};
	/* clang-format on */
	for (size_t k = 0; k < sizeof dropped / sizeof dropped[0]; k++)
		if (!strncmp(name, dropped[k], strlen(dropped[k])))
			return false;
	bool cpy = !strncmp(name, "llvm.memcpy.", 12) || !strncmp(name, "llvm.memmove.", 13);
	if (cpy || !strncmp(name, "llvm.memset.", 12)) {
		o->op = cpy ? CB_I_MEMCPY : CB_I_MEMSET;
		o->a = cb_dref(d, LLVMGetOperand(i, 0));
		o->b = cb_dref(d, LLVMGetOperand(i, 1));
		o->c = cb_dref(d, LLVMGetOperand(i, 2));
		copy_sites(d, i, cpy, o);
		return true;
	}
	/* clang-format off */
	static const struct { const char *name; cb_builtin b; bool is_signed; } mm[] = {
		{ "llvm.smax.", CB_B_MAX, true }, { "llvm.smin.", CB_B_MIN, true },
		{ "llvm.umax.", CB_B_MAX, false }, { "llvm.umin.", CB_B_MIN, false },
	};
	/* clang-format on */
	for (size_t k = 0; k < sizeof mm / sizeof mm[0]; k++)
		if (!strncmp(name, mm[k].name, strlen(mm[k].name)) && o->width) {
			o->op = CB_I_BUILTIN;
			o->sub = (uint8_t)mm[k].b;
			o->flags = mm[k].is_signed ? CB_INS_SIGNED : 0;
			call_args(d, i, o);
		}
	return true;
}

/* The element type a built-in accesses, from its values rather than its pointer (opaque from
 * LLVM 15 on): vloadN's result and vstoreN's data are vectors of it; an atomic returns it or
 * takes it as its second argument (atomic_store); atomic_flag_* work on an int. */
static LLVMTypeRef builtin_elem_type(cb_dctx *d, LLVMValueRef i, cb_builtin b)
{
	LLVMTypeRef t = LLVMTypeOf(i);
	if (b == CB_B_VSTORE)
		t = LLVMTypeOf(LLVMGetOperand(i, 0));
	else if (b == CB_B_ATOMIC && LLVMGetTypeKind(t) == LLVMVoidTypeKind &&
		 LLVMGetNumArgOperands(i) > 1)
		t = LLVMTypeOf(LLVMGetOperand(i, 1));
	if (b != CB_B_ATOMIC && LLVMGetTypeKind(t) == LLVMVectorTypeKind)
		return LLVMGetElementType(t);
	LLVMTypeKind k = LLVMGetTypeKind(t);
	if (b == CB_B_ATOMIC && (k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind ||
				 (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) > 1)))
		return t;
	return LLVMInt32TypeInContext(d->ctx);
}

/* Atomics and vloadN / vstoreN on __local memory are accesses; the pointer is argument
 * 0 of an atomic, 1 of vloadN (offset, p) and 2 of vstoreN (data, offset, p). */
static void builtin_site(cb_dctx *d, LLVMValueRef i, cb_builtin b, unsigned vec, cb_ins *o)
{
	unsigned arg = b == CB_B_ATOMIC ? 0 : b == CB_B_VLOAD ? 1 : 2;
	if (LLVMGetNumArgOperands(i) <= arg)
		return;
	LLVMTypeRef pt = LLVMTypeOf(LLVMGetOperand(i, arg));
	if (cb_addrspace(pt) != 3 && cb_addrspace(pt) != 4)
		return;
	LLVMTypeRef e = builtin_elem_type(d, i, b);
	uint64_t bytes = LLVMTypeIsSized(e) ? LLVMStoreSizeOfType(d->td, e) : 0;
	cb_op op = b == CB_B_ATOMIC ? CB_OP_ATOMIC : b == CB_B_VLOAD ? CB_OP_LOAD : CB_OP_STORE;
	LLVMTypeRef type = b == CB_B_ATOMIC ? e : LLVMVectorType(e, vec);
	o->imm = (uint32_t)(bytes * (b == CB_B_ATOMIC ? 1 : vec));
	o->site = cb_dsite(d, i, LLVMGetOperand(i, arg), op, type, o->imm);
	if (cb_addrspace(pt) == 4) {
		o->flags |= CB_INS_GENERIC;
		d->prog->sites[o->site].generic = true;
	}
}

/* A call of a function that is neither defined here nor a known built-in (C99 inline without
 * a body, a function of another file, a built-in lint does not model) that takes a __local
 * pointer: one access site for it, unknown, naming the function; o->c is the
 * argument whose pointer is recorded. */
static void unseen_call_site(cb_dctx *d, LLVMValueRef i, const char *name, cb_ins *o)
{
	unsigned n = LLVMGetNumArgOperands(i);
	for (unsigned k = 0; k < n; k++) {
		if (cb_addrspace(LLVMTypeOf(LLVMGetOperand(i, k))) != 3)
			continue;
		o->c = k;
		o->site = cb_dsite(d, i, LLVMGetOperand(i, k), CB_LINT_CALL,
				   LLVMInt8TypeInContext(d->ctx), 1);
		char buf[128];
		cb_builtin_source_name(name, buf, sizeof buf);
		d->prog->sites[o->site].callee = cb_xstrdup(buf);
		return;
	}
}

/* async_work_group_(strided_)copy(dst, src, num, ...): the __local side (contiguous, also when
 * strided) is a store into dst or a load from src; o->c is that argument, o->imm the element
 * bytes (from the mangled name: pointers are opaque from LLVM 15 on). */
static void async_copy_site(cb_dctx *d, LLVMValueRef i, const char *name, cb_ins *o)
{
	char type[32];
	unsigned bytes = cb_builtin_pointee(name, type, sizeof type);
	if (LLVMGetNumArgOperands(i) < 3 || !bytes)
		return;
	for (unsigned k = 0; k < 2; k++) {
		LLVMValueRef p = LLVMGetOperand(i, k);
		if (cb_addrspace(LLVMTypeOf(p)) != 3)
			continue;
		o->c = k;
		o->imm = bytes;
		o->site = cb_dsite(d, i, p, k == 0 ? CB_OP_STORE : CB_OP_LOAD,
				   LLVMInt8TypeInContext(d->ctx), bytes);
		cb_site *s = &d->prog->sites[o->site];
		free(s->elem_type);
		s->elem_type = cb_xstrdup(type);
		return;
	}
}

/* Names the call NAME (neither defined nor modelled) in the program's list of calls whose
 * result lint does not compute, when that result is an integer or a pointer. */
static void note_unseen(cb_dctx *d, LLVMValueRef i, const char *name, cb_ins *o)
{
	LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(i));
	if (k != LLVMIntegerTypeKind && k != LLVMPointerTypeKind)
		return;
	o->flags |= CB_INS_UNSEEN;
	char buf[128];
	cb_builtin_source_name(name, buf, sizeof buf);
	cb_prog *p = d->prog;
	for (uint32_t k2 = 0; k2 < p->nunseen; k2++)
		if (!strcmp(p->unseen[k2], buf)) {
			o->cols = k2;
			return;
		}
	o->cols = p->nunseen;
	p->unseen = cb_xrealloc(p->unseen, (p->nunseen + 1) * sizeof *p->unseen);
	p->unseen_builtin = cb_xrealloc(p->unseen_builtin,
					(p->nunseen + 1) * sizeof *p->unseen_builtin);
	p->unseen[p->nunseen] = cb_xstrdup(buf);
	p->unseen_builtin[p->nunseen++] = !strncmp(name, "_Z", 2);
}

/* CUDA's and HIP's work-item functions (lint_lang.c): the dimension an intrinsic names
 * becomes the argument of OpenCL's built-in. */
static bool target_builtin(cb_dctx *d, LLVMValueRef i, const char *name, cb_ins *o)
{
	cb_builtin b;
	int dim;
	if (!cb_lint_lang_builtin(name, &b, &dim))
		return false;
	o->op = CB_I_BUILTIN;
	o->sub = (uint8_t)b;
	o->flags = 0;
	if (dim == -2) {
		call_args(d, i, o);
	} else {
		o->n = dim >= 0;
		o->x = d->f->nextra;
		if (dim >= 0)
			cb_dextra(d, cb_dconst(d, cb_val_int(dim)), 0);
	}
	return true;
}

static bool decode_call(cb_dctx *d, LLVMValueRef i, cb_ins *o)
{
	LLVMValueRef callee = cb_callee(i);
	LLVMTypeRef t = LLVMTypeOf(i);
	unknown(o, t);
	if (!callee)
		return true;
	size_t len;
	const char *name = LLVMGetValueName2(callee, &len);
	if (!LLVMIsDeclaration(callee)) {
		o->op = CB_I_CALL;
		o->imm = cb_dfunction(d, callee);
		call_args(d, i, o);
		return true;
	}
	if (target_builtin(d, i, name, o))
		return true;
	if (!strncmp(name, "llvm.", 5))
		return decode_intrinsic(d, i, name, o);
	bool is_signed = false;
	unsigned vec = 0;
	cb_builtin b = cb_builtin_classify(name, &is_signed, &vec);
	o->op = CB_I_BUILTIN;
	o->sub = (uint8_t)b;
	o->flags = is_signed ? CB_INS_SIGNED : 0;
	call_args(d, i, o);
	if (b == CB_B_ATOMIC || b == CB_B_VLOAD || b == CB_B_VSTORE)
		builtin_site(d, i, b, vec, o);
	else if (b == CB_B_ASYNC_COPY)
		async_copy_site(d, i, name, o);
	else if (b == CB_B_OTHER) {
		unseen_call_site(d, i, name, o);
		note_unseen(d, i, name, o);
	}
	return true;
}

bool cb_decode_ins(cb_dctx *d, LLVMValueRef i, cb_ins *o)
{
	LLVMOpcode op = LLVMGetInstructionOpcode(i);
	LLVMTypeRef t = LLVMTypeOf(i);
	o->width = (uint8_t)cb_int_width(t);
	switch (op) {
	case LLVMAdd:
	case LLVMSub:
	case LLVMMul:
	case LLVMUDiv:
	case LLVMSDiv:
	case LLVMURem:
	case LLVMSRem:
	case LLVMShl:
	case LLVMLShr:
	case LLVMAShr:
	case LLVMAnd:
	case LLVMOr:
	case LLVMXor:
		return decode_bin(d, i, op, o);
	case LLVMICmp:
		return decode_icmp(d, i, o);
	case LLVMTrunc:
	case LLVMZExt:
	case LLVMSExt:
	case LLVMPtrToInt:
	case LLVMIntToPtr:
	case LLVMBitCast:
	case LLVMAddrSpaceCast:
	case LLVMFreeze:
		return decode_cast(d, i, op, o);
	case LLVMAlloca:
	case LLVMLoad:
	case LLVMStore:
	case LLVMAtomicRMW:
	case LLVMAtomicCmpXchg:
	case LLVMGetElementPtr:
		return decode_memory(d, i, op, o);
	case LLVMInsertElement:
	case LLVMExtractElement:
		return decode_vector(d, i, op, o);
	case LLVMShuffleVector:
		return decode_shuffle(d, i, o);
	case LLVMFAdd:
	case LLVMFSub:
	case LLVMFMul:
	case LLVMFDiv:
	case LLVMFRem:
	case LLVMFNeg:
	case LLVMFPToUI:
	case LLVMFPToSI:
	case LLVMUIToFP:
	case LLVMSIToFP:
	case LLVMFPTrunc:
	case LLVMFPExt:
		return decode_float(d, i, o);
	case LLVMBr:
	case LLVMSwitch:
	case LLVMRet:
	case LLVMPHI:
	case LLVMSelect:
	case LLVMUnreachable:
		return decode_control(d, i, op, o);
	case LLVMCall:
		return decode_call(d, i, o);
	default:
		unknown(o, t);
		return true;
	}
}
