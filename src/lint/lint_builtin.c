/* SPDX-License-Identifier: MIT */
/* OpenCL C built-ins: recognised by their Itanium-mangled names (clang mangles every OpenCL
 * built-in), work-item functions answered from the simulated work-group, a few integer
 * functions evaluated; everything else returns an unknown value of its type. */
#include "config.h"
#include "lint/lint_builtin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const struct {
	const char *name;
	cb_builtin b;
} table[] = {
	{ "get_local_id", CB_B_LOCAL_ID }, { "get_group_id", CB_B_GROUP_ID },
	{ "get_global_id", CB_B_GLOBAL_ID }, { "get_local_size", CB_B_LOCAL_SIZE },
	{ "get_enqueued_local_size", CB_B_LOCAL_SIZE }, { "get_global_size", CB_B_GLOBAL_SIZE },
	{ "get_num_groups", CB_B_NUM_GROUPS }, { "get_work_dim", CB_B_WORK_DIM },
	{ "get_global_offset", CB_B_GLOBAL_OFFSET }, { "get_local_linear_id", CB_B_LOCAL_LINEAR_ID },
	{ "get_global_linear_id", CB_B_GLOBAL_LINEAR_ID },
	{ "get_sub_group_size", CB_B_SG_SIZE }, { "get_max_sub_group_size", CB_B_SG_SIZE },
	{ "get_num_sub_groups", CB_B_NUM_SG }, { "get_enqueued_num_sub_groups", CB_B_NUM_SG },
	{ "get_sub_group_id", CB_B_SG_ID }, { "get_sub_group_local_id", CB_B_SG_LOCAL_ID },
	{ "barrier", CB_B_NOP }, { "work_group_barrier", CB_B_NOP }, { "sub_group_barrier", CB_B_NOP },
	{ "mem_fence", CB_B_NOP }, { "read_mem_fence", CB_B_NOP }, { "write_mem_fence", CB_B_NOP },
	{ "min", CB_B_MIN }, { "max", CB_B_MAX }, { "clamp", CB_B_CLAMP }, { "abs", CB_B_ABS },
	{ "mul24", CB_B_MUL24 }, { "mad24", CB_B_MAD24 },
	{ "async_work_group_copy", CB_B_ASYNC_COPY },
	{ "async_work_group_strided_copy", CB_B_ASYNC_COPY },
	{ "wait_group_events", CB_B_NOP },
};
/* clang-format on */

/* The plain name of _Z<len><name><parameters>, and where the parameters start. */
static bool demangle(const char *m, char *name, size_t n, const char **params)
{
	if (strncmp(m, "_Z", 2) != 0) {
		snprintf(name, n, "%s", m);
		*params = "";
		return true;
	}
	char *end;
	unsigned long len = strtoul(m + 2, &end, 10);
	if (end == m + 2 || len == 0 || len >= n || strlen(end) < len)
		return false;
	memcpy(name, end, len);
	name[len] = '\0';
	*params = end + len;
	return true;
}

void cb_builtin_source_name(const char *mangled, char *buf, size_t n)
{
	const char *params;
	if (!demangle(mangled, buf, n, &params))
		snprintf(buf, n, "%s", mangled);
}

unsigned cb_builtin_pointee(const char *mangled, char *name, size_t n)
{
	/* clang-format off */
	static const struct { char code; const char *name; unsigned bytes; } types[] = {
		{ 'c', "char", 1 }, { 'a', "char", 1 }, { 'h', "uchar", 1 }, { 's', "short", 2 },
		{ 't', "ushort", 2 }, { 'i', "int", 4 }, { 'j', "uint", 4 }, { 'l', "long", 8 },
		{ 'm', "ulong", 8 }, { 'f', "float", 4 }, { 'd', "double", 8 },
	};
	/* clang-format on */
	char fn[64];
	const char *p;
	if (!demangle(mangled, fn, sizeof fn, &p) || *p++ != 'P')
		return 0;
	if (!strncmp(p, "U3AS", 4))
		for (p += 4; *p >= '0' && *p <= '9'; p++)
			;
	while (*p == 'r' || *p == 'V' || *p == 'K')
		p++;
	unsigned long vec = 1;
	if (!strncmp(p, "Dv", 2)) {
		char *end;
		vec = strtoul(p + 2, &end, 10);
		if (*end != '_' || (vec != 2 && vec != 3 && vec != 4 && vec != 8 && vec != 16))
			return 0;
		p = end + 1;
	}
	const char *base = NULL;
	unsigned bytes = 0;
	if (!strncmp(p, "Dh", 2))
		base = "half", bytes = 2;
	for (size_t k = 0; !base && k < sizeof types / sizeof types[0]; k++)
		if (*p == types[k].code)
			base = types[k].name, bytes = types[k].bytes;
	if (!base)
		return 0;
	if (vec > 1)
		snprintf(name, n, "%s%lu", base, vec);
	else
		snprintf(name, n, "%s", base);
	return bytes * (unsigned)(vec == 3 ? 4 : vec);
}

/* vloadN / vstoreN: N in 2, 3, 4, 8, 16; 0 otherwise. */
static unsigned vector_width(const char *name, const char *prefix)
{
	size_t k = strlen(prefix);
	if (strncmp(name, prefix, k) != 0)
		return 0;
	char *end;
	unsigned long v = strtoul(name + k, &end, 10);
	if (*end || end == name + k)
		return 0;
	return v == 2 || v == 3 || v == 4 || v == 8 || v == 16 ? (unsigned)v : 0;
}

cb_builtin cb_builtin_classify(const char *mangled, bool *is_signed, unsigned *vec)
{
	char name[64];
	const char *params;
	*is_signed = false;
	*vec = 0;
	if (!demangle(mangled, name, sizeof name, &params))
		return CB_B_OTHER;
	if (!strncmp(name, "atomic_", 7) || !strncmp(name, "atom_", 5))
		return CB_B_ATOMIC;
	if ((*vec = vector_width(name, "vload")))
		return CB_B_VLOAD;
	if ((*vec = vector_width(name, "vstore")))
		return CB_B_VSTORE;
	for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
		if (strcmp(name, table[k].name) != 0)
			continue;
		if (table[k].b >= CB_B_MIN && table[k].b <= CB_B_MAD24) {
			/* Scalar integers only: i s c a l signed, j t h m unsigned. */
			if (!*params || !strchr("isaljthmc", params[0]))
				return CB_B_OTHER;
			*is_signed = strchr("isacl", params[0]) != NULL;
		}
		return table[k].b;
	}
	return CB_B_OTHER;
}

static cb_val sized(int64_t lo, int64_t hi)
{
	cb_val v = cb_val_int(lo);
	v.hi = hi;
	return v;
}

/* Work-item functions; DIM is the argument (0, 1, 2; others per the specification). */
static cb_val work_item(const cb_interp *in, cb_builtin b, const cb_val *dim)
{
	const cb_wg *wg = &in->wg;
	unsigned sg = wg->subgroup, items = wg->local[0] * wg->local[1] * wg->local[2];
	switch (b) {
	case CB_B_WORK_DIM:
		return cb_val_int(wg->work_dim);
	case CB_B_LOCAL_LINEAR_ID:
		return cb_val_int(in->linear);
	case CB_B_SG_SIZE:
		return cb_val_int(sg);
	case CB_B_NUM_SG:
		return cb_val_int((items + sg - 1) / sg);
	case CB_B_SG_ID:
		return cb_val_int(in->linear / sg);
	case CB_B_SG_LOCAL_ID:
		return cb_val_int(in->linear % sg);
	case CB_B_GLOBAL_LINEAR_ID:
		return sized(0, INT32_MAX);
	default:
		break;
	}
	if (!dim || !cb_val_known(dim))
		return cb_val_range(64);
	unsigned d = dim->lo >= 0 && dim->lo < 3 ? (unsigned)dim->lo : 3;
	bool out = d == 3;
	switch (b) {
	case CB_B_LOCAL_ID:
		return cb_val_int(out ? 0 : in->lid[d]);
	case CB_B_GROUP_ID:
		return cb_val_int(out ? 0 : wg->group[d]);
	case CB_B_LOCAL_SIZE:
		return cb_val_int(out ? 1 : wg->local[d]);
	case CB_B_GLOBAL_OFFSET:
		return cb_val_int(0);
	case CB_B_GLOBAL_ID:
		return cb_val_int(out ? 0 : (int64_t)wg->group[d] * wg->local[d] + in->lid[d]);
	case CB_B_NUM_GROUPS: /* not given: at least one more than the group id */
		if (!out && wg->num_groups[d])
			return cb_val_int(wg->num_groups[d]);
		return out ? cb_val_int(1) : sized((int64_t)wg->group[d] + 1, INT32_MAX);
	case CB_B_GLOBAL_SIZE:
		if (!out && wg->num_groups[d])
			return cb_val_int((int64_t)wg->num_groups[d] * wg->local[d]);
		return out ? cb_val_int(1)
			   : sized(((int64_t)wg->group[d] + 1) * wg->local[d],
				   (int64_t)INT32_MAX * wg->local[d]);
	default:
		return cb_val_range(64);
	}
}

static cb_val integer(const cb_ins *ins, const cb_val *a, unsigned n)
{
	unsigned w = ins->width;
	bool s = ins->flags & CB_INS_SIGNED;
	switch (ins->sub) {
	case CB_B_MIN:
	case CB_B_MAX:
		return n == 2 ? cb_val_minmax(ins->sub == CB_B_MAX, s, w, a[0], a[1])
			      : cb_val_range(w);
	case CB_B_CLAMP:
		if (n != 3)
			return cb_val_range(w);
		return cb_val_minmax(false, s, w, cb_val_minmax(true, s, w, a[0], a[1]), a[2]);
	case CB_B_MUL24:
		return n == 2 ? cb_val_binop(CB_MUL, w, a[0], a[1]) : cb_val_range(w);
	case CB_B_MAD24:
		if (n != 3)
			return cb_val_range(w);
		return cb_val_binop(CB_ADD, w, cb_val_binop(CB_MUL, w, a[0], a[1]), a[2]);
	case CB_B_ABS: {
		if (n != 1 || a[0].kind != CB_V_NUM)
			return cb_val_range(w);
		if (a[0].lo >= 0 || !s)
			return a[0];
		int64_t top = w >= 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1;
		if (a[0].lo < -top)
			return cb_val_range(w);
		if (a[0].hi <= 0)
			return sized(-a[0].hi, -a[0].lo);
		return sized(0, -a[0].lo > a[0].hi ? -a[0].lo : a[0].hi);
	}
	default:
		return cb_val_range(w);
	}
}

cb_val cb_builtin_eval(const cb_interp *in, const cb_ins *ins, const cb_val *args, unsigned n)
{
	cb_val r;
	uint16_t flags = 0;
	for (unsigned k = 0; k < n; k++)
		flags |= args[k].flags;
	if (ins->sub >= CB_B_LOCAL_ID && ins->sub <= CB_B_SG_LOCAL_ID)
		r = work_item(in, (cb_builtin)ins->sub, n ? &args[0] : NULL);
	else if (ins->sub >= CB_B_MIN && ins->sub <= CB_B_MAD24)
		r = integer(ins, args, n);
	else
		r = cb_val_range(ins->width);
	if (ins->sub == CB_B_ATOMIC || ins->sub == CB_B_VLOAD)
		flags |= CB_VF_MEM; /* an old value or a vector read from memory */
	if (r.kind == CB_V_NUM && ins->width)
		r = r.lo == r.hi ? cb_val_int(cb_wrap(r.lo, ins->width)) : r;
	r.flags |= flags;
	if (ins->flags & CB_INS_UNSEEN)
		r.flags |= CB_VF_UNSEEN | CB_VF_CALLEE(ins->cols);
	return r;
}
