/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "lint/lint_val.h"

#include <string.h>

static int64_t smin(unsigned w)
{
	return w <= 1 ? 0 : w >= 64 ? INT64_MIN : -((int64_t)1 << (w - 1));
}

static int64_t smax(unsigned w)
{
	return w <= 1 ? 1 : w >= 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1;
}

/* All ones in the low W bits. */
static uint64_t umask(unsigned w)
{
	return w >= 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1;
}

int64_t cb_wrap(int64_t v, unsigned width)
{
	uint64_t u = (uint64_t)v & umask(width);
	if (width <= 1 || width >= 64)
		return (int64_t)u;
	if (u >> (width - 1))
		u |= ~umask(width);
	return (int64_t)u;
}

static cb_val num(int64_t lo, int64_t hi, uint16_t flags)
{
	cb_val v;
	memset(&v, 0, sizeof v);
	v.kind = CB_V_NUM;
	v.lo = lo;
	v.hi = hi;
	v.flags = flags;
	v.row = v.col = CB_IDX_LOST;
	return v;
}

cb_val cb_val_int(int64_t v)
{
	return num(v, v, 0);
}

cb_val cb_val_range(unsigned width)
{
	if (!width)
		return cb_val_opaque();
	return num(smin(width), smax(width), 0);
}

cb_val cb_val_opaque(void)
{
	cb_val v = num(0, 0, 0);
	v.kind = CB_V_OPAQUE;
	return v;
}

cb_val cb_val_ptr(int32_t obj, int64_t offset)
{
	cb_val v = num(offset, offset, 0);
	v.kind = CB_V_PTR;
	v.obj = obj;
	v.row = v.col = CB_IDX_NONE;
	return v;
}

/* An interval of width W, or the whole range when it does not fit (it may have wrapped). */
static cb_val fit(bool ok, int64_t lo, int64_t hi, unsigned w, uint16_t flags)
{
	if (!ok || lo < smin(w) || hi > smax(w) || lo > hi)
		return num(smin(w), smax(w), flags);
	return num(lo, hi, flags);
}

static cb_val known_binop(cb_binop op, unsigned w, int64_t a, int64_t b, uint16_t fl)
{
	uint64_t ua = (uint64_t)a & umask(w), ub = (uint64_t)b & umask(w), r;
	switch (op) {
	case CB_ADD:
		r = (uint64_t)a + (uint64_t)b;
		break;
	case CB_SUB:
		r = (uint64_t)a - (uint64_t)b;
		break;
	case CB_MUL:
		r = (uint64_t)a * (uint64_t)b;
		break;
	case CB_AND:
		r = (uint64_t)a & (uint64_t)b;
		break;
	case CB_OR:
		r = (uint64_t)a | (uint64_t)b;
		break;
	case CB_XOR:
		r = (uint64_t)a ^ (uint64_t)b;
		break;
	case CB_UDIV:
	case CB_UREM:
		if (ub == 0)
			return num(smin(w), smax(w), fl);
		r = op == CB_UDIV ? ua / ub : ua % ub;
		break;
	case CB_SDIV:
	case CB_SREM:
		if (b == 0 || (a == smin(w) && b == -1))
			return num(smin(w), smax(w), fl);
		r = (uint64_t)(op == CB_SDIV ? a / b : a % b);
		break;
	case CB_SHL:
	case CB_LSHR:
	case CB_ASHR:
		if (ub >= w)
			return num(smin(w), smax(w), fl);
		r = op == CB_SHL ? ua << ub : op == CB_LSHR ? ua >> ub : (uint64_t)(a >> ub);
		break;
	default:
		return num(smin(w), smax(w), fl);
	}
	int64_t v = cb_wrap((int64_t)r, w);
	return num(v, v, fl);
}

static int bit_length(uint64_t v)
{
	int n = 0;
	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

static cb_val range_mul(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi, unsigned w, uint16_t fl)
{
	int64_t c[4];
	bool ok = !__builtin_mul_overflow(alo, blo, &c[0]) &&
		  !__builtin_mul_overflow(alo, bhi, &c[1]) &&
		  !__builtin_mul_overflow(ahi, blo, &c[2]) &&
		  !__builtin_mul_overflow(ahi, bhi, &c[3]);
	int64_t lo = c[0], hi = c[0];
	for (int i = 1; ok && i < 4; i++) {
		lo = c[i] < lo ? c[i] : lo;
		hi = c[i] > hi ? c[i] : hi;
	}
	return fit(ok, lo, hi, w, fl);
}

/* Division and remainder on intervals: exact bounds for non-negative dividends. */
static cb_val range_div(cb_binop op, unsigned w, cb_val a, cb_val b, uint16_t fl)
{
	bool rem = op == CB_UREM || op == CB_SREM;
	if (b.lo <= 0 && b.hi >= 0)
		return num(smin(w), smax(w), fl);
	if (a.lo >= 0 && b.lo > 0) {
		if (rem)
			return num(0, a.hi < b.hi - 1 ? a.hi : b.hi - 1, fl);
		return num(a.lo / b.hi, a.hi / b.lo, fl);
	}
	if (op == CB_SDIV && cb_val_known(&b) && b.lo != -1) {
		int64_t x = a.lo / b.lo, y = a.hi / b.lo;
		return fit(true, x < y ? x : y, x < y ? y : x, w, fl);
	}
	if (op == CB_SREM && cb_val_known(&b) && b.lo != INT64_MIN) {
		int64_t m = (b.lo < 0 ? -b.lo : b.lo) - 1;
		return num(a.lo >= 0 ? 0 : -m, a.hi <= 0 ? 0 : m, fl);
	}
	if (op == CB_UREM && b.lo > 0)
		return num(0, b.hi - 1, fl);
	return num(smin(w), smax(w), fl);
}

static cb_val range_shift(cb_binop op, unsigned w, cb_val a, cb_val b, uint16_t fl)
{
	if (!cb_val_known(&b) || b.lo < 0 || (uint64_t)b.lo >= w)
		return num(smin(w), smax(w), fl);
	unsigned s = (unsigned)b.lo;
	if (op == CB_SHL) {
		if (s >= 62)
			return num(smin(w), smax(w), fl);
		return range_mul(a.lo, a.hi, (int64_t)1 << s, (int64_t)1 << s, w, fl);
	}
	if (op == CB_ASHR || a.lo >= 0)
		return num(a.lo >> s, a.hi >> s, fl);
	if (s == 0 || w >= 64)
		return num(smin(w), smax(w), fl);
	return num(0, (int64_t)(umask(w) >> s), fl);
}

static cb_val range_bits(cb_binop op, unsigned w, cb_val a, cb_val b, uint16_t fl)
{
	if (op == CB_AND) {
		if (a.lo >= 0 && b.lo >= 0)
			return num(0, a.hi < b.hi ? a.hi : b.hi, fl);
		if (a.lo >= 0 || b.lo >= 0)
			return num(0, a.lo >= 0 ? a.hi : b.hi, fl);
		return num(smin(w), smax(w), fl);
	}
	if (a.lo < 0 || b.lo < 0)
		return num(smin(w), smax(w), fl);
	uint64_t m = (uint64_t)(a.hi > b.hi ? a.hi : b.hi);
	int n = bit_length(m);
	int64_t top = n >= 63 ? INT64_MAX : ((int64_t)1 << n) - 1;
	int64_t lo = op == CB_OR ? (a.lo > b.lo ? a.lo : b.lo) : 0;
	return fit(true, lo, top, w, fl);
}

cb_val cb_val_binop(cb_binop op, unsigned w, cb_val a, cb_val b)
{
	uint16_t fl = a.flags | b.flags;
	if (a.kind != CB_V_NUM || b.kind != CB_V_NUM)
		return num(smin(w), smax(w), fl);
	if (cb_val_known(&a) && cb_val_known(&b))
		return known_binop(op, w, a.lo, b.lo, fl);
	int64_t lo = 0, hi = 0;
	bool ok;
	switch (op) {
	case CB_ADD:
		ok = !__builtin_add_overflow(a.lo, b.lo, &lo) &&
		     !__builtin_add_overflow(a.hi, b.hi, &hi);
		return fit(ok, lo, hi, w, fl);
	case CB_SUB:
		ok = !__builtin_sub_overflow(a.lo, b.hi, &lo) &&
		     !__builtin_sub_overflow(a.hi, b.lo, &hi);
		return fit(ok, lo, hi, w, fl);
	case CB_MUL:
		return range_mul(a.lo, a.hi, b.lo, b.hi, w, fl);
	case CB_UDIV:
	case CB_UREM:
		if (a.lo < 0 || b.lo < 0)
			return num(smin(w), smax(w), fl);
		return range_div(op, w, a, b, fl);
	case CB_SDIV:
	case CB_SREM:
		return range_div(op, w, a, b, fl);
	case CB_SHL:
	case CB_LSHR:
	case CB_ASHR:
		return range_shift(op, w, a, b, fl);
	default:
		return range_bits(op, w, a, b, fl);
	}
}

/* -1, 0, 1 when every pair of A and B compares so (signed), else 2. */
static int order(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi)
{
	if (ahi < blo)
		return -1;
	if (alo > bhi)
		return 1;
	if (alo == ahi && blo == bhi && alo == blo)
		return 0;
	return 2;
}

static int decide(cb_pred p, int o, bool disjoint)
{
	switch (p) {
	case CB_EQ:
		return o == 0 ? 1 : disjoint ? 0 : -1;
	case CB_NE:
		return o == 0 ? 0 : disjoint ? 1 : -1;
	case CB_SGT:
	case CB_UGT:
		return o == 2 ? -1 : o > 0;
	case CB_SGE:
	case CB_UGE:
		return o == 2 ? -1 : o >= 0;
	case CB_SLT:
	case CB_ULT:
		return o == 2 ? -1 : o < 0;
	default:
		return o == 2 ? -1 : o <= 0;
	}
}

cb_val cb_val_icmp(cb_pred p, unsigned w, cb_val a, cb_val b)
{
	uint16_t fl = a.flags | b.flags;
	bool is_unsigned = p == CB_UGT || p == CB_UGE || p == CB_ULT || p == CB_ULE;
	if (a.kind != b.kind || (a.kind != CB_V_NUM && a.kind != CB_V_PTR) ||
	    (a.kind == CB_V_PTR && (a.obj != b.obj || a.obj < CB_OBJ_FIRST)))
		return num(0, 1, fl);
	/* Unsigned order matches signed order when both sides have the same sign throughout. */
	if (is_unsigned && a.kind == CB_V_NUM && !(a.lo >= 0 && b.lo >= 0) &&
	    !(a.hi < 0 && b.hi < 0)) {
		if (!(cb_val_known(&a) && cb_val_known(&b)))
			return num(0, 1, fl);
		uint64_t ua = (uint64_t)a.lo & umask(w), ub = (uint64_t)b.lo & umask(w);
		int r = decide(p, ua < ub ? -1 : ua > ub ? 1 : 0, ua != ub);
		return num(r, r, fl);
	}
	int o = order(a.lo, a.hi, b.lo, b.hi);
	int r = decide(p, o, a.hi < b.lo || a.lo > b.hi);
	return r < 0 ? num(0, 1, fl) : num(r, r, fl);
}

cb_val cb_val_cast(cb_cast c, unsigned from, unsigned to, cb_val a)
{
	uint16_t fl = a.flags;
	switch (c) {
	case CB_PTRTOINT: {
		cb_val r = cb_val_range(to);
		r.flags = fl;
		return r;
	}
	case CB_INTTOPTR: {
		cb_val r = cb_val_ptr(CB_OBJ_NONE, 0);
		r.flags = fl;
		return r;
	}
	default:
		break;
	}
	if (a.kind != CB_V_NUM)
		return num(smin(to), smax(to), fl);
	if (c == CB_TRUNC) {
		if (cb_val_known(&a)) {
			int64_t v = cb_wrap(a.lo, to);
			return num(v, v, fl);
		}
		return fit(true, a.lo, a.hi, to, fl);
	}
	if (c == CB_SEXT && from == 1)
		return num(a.hi ? -1 : 0, a.lo ? -1 : 0, fl);
	if (c == CB_SEXT || a.lo >= 0)
		return num(a.lo, a.hi, fl);
	/* zext of something negative: add 2^from where it is all negative, else any value. */
	if (from >= 64)
		return num(smin(to), smax(to), fl);
	if (a.hi < 0)
		return fit(true, a.lo + (int64_t)((uint64_t)1 << from),
			   a.hi + (int64_t)((uint64_t)1 << from), to, fl);
	return fit(true, 0, (int64_t)umask(from), to, fl);
}

cb_val cb_val_join(cb_val a, cb_val b)
{
	uint16_t fl = a.flags | b.flags;
	if (a.kind == CB_V_NUM && b.kind == CB_V_NUM)
		return num(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi, fl);
	if (a.kind == CB_V_PTR && b.kind == CB_V_PTR) {
		cb_val r = a;
		if (a.obj != b.obj)
			r.obj = CB_OBJ_MULTI;
		r.lo = a.lo < b.lo ? a.lo : b.lo;
		r.hi = a.hi > b.hi ? a.hi : b.hi;
		if (a.row != b.row || a.col != b.col)
			r.row = r.col = CB_IDX_LOST;
		r.flags = fl;
		return r;
	}
	cb_val r = cb_val_opaque();
	r.flags = fl;
	return r;
}

cb_val cb_val_minmax(bool is_max, bool is_signed, unsigned w, cb_val a, cb_val b)
{
	uint16_t fl = a.flags | b.flags;
	if (a.kind != CB_V_NUM || b.kind != CB_V_NUM || (!is_signed && (a.lo < 0 || b.lo < 0)))
		return num(smin(w), smax(w), fl);
	if (is_max)
		return num(a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi, fl);
	return num(a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi, fl);
}
