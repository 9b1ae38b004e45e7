/* SPDX-License-Identifier: MIT */
/* Names as the kernel spells them, for the report: C type names of IR types, element types
 * from debug information (the IR cannot tell int from uint), and kernel argument names and
 * types from clang's -cl-kernel-arg-info metadata. */
#include "config.h"
#include "lint/lint_names.h"
#include "core/util.h"

#include <llvm-c/DebugInfo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_type_name(LLVMTypeRef t, char *buf, size_t n)
{
	switch (LLVMGetTypeKind(t)) {
	case LLVMIntegerTypeKind: {
		unsigned w = LLVMGetIntTypeWidth(t);
		snprintf(buf, n, "%s",
			 w == 1    ? "bool"
			 : w == 8  ? "char"
			 : w == 16 ? "short"
			 : w == 32 ? "int"
			 : w == 64 ? "long"
				   : "integer");
		return;
	}
	case LLVMHalfTypeKind:
		snprintf(buf, n, "half");
		return;
	case LLVMFloatTypeKind:
		snprintf(buf, n, "float");
		return;
	case LLVMDoubleTypeKind:
		snprintf(buf, n, "double");
		return;
	case LLVMPointerTypeKind:
		snprintf(buf, n, "pointer");
		return;
	case LLVMVectorTypeKind: {
		char base[32];
		cb_type_name(LLVMGetElementType(t), base, sizeof base);
		snprintf(buf, n, "%s%u", base, LLVMGetVectorSize(t));
		return;
	}
	case LLVMArrayTypeKind:
		cb_type_name(LLVMGetElementType(t), buf, n);
		return;
	case LLVMStructTypeKind: {
		const char *s = LLVMGetStructName(t);
		if (s && !strncmp(s, "struct.", 7))
			s += 7;
		snprintf(buf, n, "struct %s", s && *s ? s : "(anonymous)");
		return;
	}
	default:
		snprintf(buf, n, "unknown");
	}
}

/* Operand K of metadata node MD as metadata, or NULL. */
static LLVMMetadataRef md_operand(LLVMContextRef ctx, LLVMMetadataRef md, unsigned k)
{
	LLVMValueRef v = LLVMMetadataAsValue(ctx, md);
	unsigned n = LLVMGetMDNodeNumOperands(v);
	if (k >= n || n > 64)
		return NULL;
	LLVMValueRef ops[64];
	LLVMGetMDNodeOperands(v, ops);
	return ops[k] ? LLVMValueAsMetadata(ops[k]) : NULL;
}

/* The element type as the kernel spells it ("uint", "float4"), from the variable's debug
 * information: its type (operand 3 of a DIVariable) is an array whose base type (operand 3
 * of a composite type) is named. The IR's type cannot tell int from uint. */
/* The DIGlobalVariable of G, or NULL. */
static LLVMMetadataRef debug_var(cb_dctx *d, LLVMValueRef g)
{
	size_t count = 0;
	LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(g, &count);
	unsigned dbg = LLVMGetMDKindIDInContext(d->ctx, "dbg", 3);
	LLVMMetadataRef var = NULL;
	for (size_t i = 0; i < count && !var; i++) {
		LLVMMetadataRef e = LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i);
		if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) == dbg &&
		    LLVMGetMetadataKind(e) == LLVMDIGlobalVariableExpressionMetadataKind)
			var = LLVMDIGlobalVariableExpressionGetVariable(e);
	}
	if (md)
		LLVMDisposeValueMetadataEntries(md);
	return var && LLVMGetMetadataKind(var) == LLVMDIGlobalVariableMetadataKind ? var : NULL;
}

unsigned cb_debug_decl_line(cb_dctx *d, LLVMValueRef g)
{
	LLVMMetadataRef var = debug_var(d, g);
	return var ? LLVMDIVariableGetLine(var) : 0;
}

bool cb_debug_elem_name(cb_dctx *d, LLVMValueRef g, char *buf, size_t n)
{
	LLVMMetadataRef var = debug_var(d, g);
	if (!var)
		return false;
	LLVMMetadataRef t = md_operand(d->ctx, var, 3);
	for (int depth = 0;
	     t && depth < 8 && LLVMGetMetadataKind(t) == LLVMDICompositeTypeMetadataKind; depth++)
		t = md_operand(d->ctx, t, 3);
	if (!t || (LLVMGetMetadataKind(t) != LLVMDIBasicTypeMetadataKind &&
		   LLVMGetMetadataKind(t) != LLVMDIDerivedTypeMetadataKind))
		return false;
	size_t len = 0;
	const char *name = LLVMDITypeGetName(t, &len);
	if (!name || !len || len >= n)
		return false;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return true;
}

/* The kernel_arg_NAME metadata strings of FN (clang -cl-kernel-arg-info), or NULL. */
char **cb_kernel_arg_strings(cb_dctx *d, LLVMValueRef fn, const char *what, unsigned n)
{
	unsigned kind = LLVMGetMDKindIDInContext(d->ctx, what, (unsigned)strlen(what));
	size_t count = 0;
	LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(fn, &count);
	char **out = NULL;
	for (size_t i = 0; i < count && !out; i++) {
		if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) != kind)
			continue;
		LLVMValueRef node = LLVMMetadataAsValue(
			d->ctx, LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
		if (LLVMGetMDNodeNumOperands(node) != n)
			continue;
		LLVMValueRef *ops = cb_xcalloc(n ? n : 1, sizeof *ops);
		LLVMGetMDNodeOperands(node, ops);
		out = cb_xcalloc(n ? n : 1, sizeof *out);
		for (unsigned j = 0; j < n; j++) {
			unsigned len = 0;
			const char *s = ops[j] ? LLVMGetMDString(ops[j], &len) : NULL;
			out[j] = cb_xmalloc(len + 1);
			if (s && len)
				memcpy(out[j], s, len);
			out[j][len] = '\0';
		}
		free(ops);
	}
	if (md)
		LLVMDisposeValueMetadataEntries(md);
	return out;
}

/* "__local float*" style type strings: the element type without qualifiers and '*'. */
char *cb_pointee_name(const char *type)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", type);
	char *star = strrchr(buf, '*');
	if (star)
		*star = '\0';
	size_t n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
	const char *p = buf;
	static const char *const quals[] = { "const ", "volatile ", "restrict ", "__local ",
					     "local " };
	for (bool again = true; again;) {
		again = false;
		for (size_t q = 0; q < sizeof quals / sizeof quals[0]; q++)
			if (!strncmp(p, quals[q], strlen(quals[q]))) {
				p += strlen(quals[q]);
				again = true;
			}
	}
	return cb_xstrdup(*p ? p : "void");
}

void cb_free_strings(char **s, unsigned n)
{
	for (unsigned i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

/* Bytes of an OpenCL C scalar or vector type as kernel-argument metadata spells it ("uint",
 * "float4", "float __attribute__((ext_vector_type(4)))"); 0 when not one (a struct). */
unsigned cb_cl_type_bytes(const char *type)
{
	/* clang-format off */
	static const struct { const char *name; unsigned bytes; } scalars[] = {
		/* longer names before their prefixes */
		{ "uintptr_t", 8 }, { "intptr_t", 8 }, { "size_t", 8 }, { "ptrdiff_t", 8 },
		{ "uchar", 1 }, { "char", 1 }, { "bool", 1 }, { "ushort", 2 }, { "short", 2 },
		{ "half", 2 }, { "uint", 4 }, { "int", 4 }, { "float", 4 }, { "ulong", 8 },
		{ "long", 8 }, { "double", 8 },
	};
	/* clang-format on */
	if (!strncmp(type, "unsigned ", 9))
		type += 9;
	for (size_t k = 0; k < sizeof scalars / sizeof scalars[0]; k++) {
		size_t len = strlen(scalars[k].name);
		if (strncmp(type, scalars[k].name, len) != 0)
			continue;
		const char *rest = type + len;
		if (!strncmp(rest, " __attribute__((ext_vector_type(", 32))
			rest += 32;
		if (!*rest)
			return scalars[k].bytes;
		char *end;
		unsigned long n = strtoul(rest, &end, 10);
		if (end == rest || (*end && strcmp(end, ")))") != 0))
			return 0;
		if (n == 2 || n == 3 || n == 4 || n == 8 || n == 16)
			return scalars[k].bytes * (unsigned)(n == 3 ? 4 : n);
		return 0;
	}
	return 0;
}

/* T without typedefs and qualifiers (derived types that are no members: followed to their base,
 * operand 3), at most a few levels deep. */
static LLVMMetadataRef strip_derived(LLVMContextRef ctx, LLVMMetadataRef t)
{
	for (int depth = 0;
	     t && depth < 8 && LLVMGetMetadataKind(t) == LLVMDIDerivedTypeMetadataKind; depth++)
		t = md_operand(ctx, t, 3);
	return t;
}

/* Member M of a struct as a field: its offset and size, an array's elements (a composite whose
 * elements, operand 4, are subranges), and whether its scalar type is an integer. */
static bool member_field(LLVMContextRef ctx, LLVMMetadataRef m, cb_field *f)
{
	size_t len = 0;
	const char *name = LLVMDITypeGetName(m, &len);
	LLVMMetadataRef t = strip_derived(ctx, md_operand(ctx, m, 3)), e = t;
	if (!name || !len || !t || LLVMDITypeGetOffsetInBits(m) % 8)
		return false;
	uint64_t total = LLVMDITypeGetSizeInBits(t);
	if (LLVMGetMetadataKind(t) == LLVMDICompositeTypeMetadataKind) {
		LLVMMetadataRef sub = md_operand(ctx, t, 4),
				s0 = sub ? md_operand(ctx, sub, 0) : NULL;
		if (!s0 || LLVMGetMetadataKind(s0) != LLVMDISubrangeMetadataKind)
			return false; /* a nested struct: its fields are not offered */
		e = strip_derived(ctx, md_operand(ctx, t, 3));
	}
	if (!e || LLVMGetMetadataKind(e) != LLVMDIBasicTypeMetadataKind)
		return false;
	uint64_t bits = LLVMDITypeGetSizeInBits(e);
	if (!bits || bits % 8 || bits > 64 || total % bits)
		return false;
	size_t elen = 0;
	const char *ename = LLVMDITypeGetName(e, &elen);
	f->name = cb_xmalloc(len + 1);
	memcpy(f->name, name, len);
	f->name[len] = '\0';
	f->offset = (uint32_t)(LLVMDITypeGetOffsetInBits(m) / 8);
	f->bytes = (uint32_t)(bits / 8);
	f->count = (uint32_t)(total / bits);
	f->integer = !(ename && (strstr(ename, "float") || strstr(ename, "double") ||
				 strstr(ename, "half")));
	return true;
}

void cb_debug_arg_fields(cb_dctx *d, LLVMValueRef fn, unsigned k, cb_karg *a)
{
	LLVMMetadataRef sp = LLVMGetSubprogram(fn);
	LLVMMetadataRef st = sp ? md_operand(d->ctx, sp, 4) : NULL;
	LLVMMetadataRef types = st && LLVMGetMetadataKind(st) == LLVMDISubroutineTypeMetadataKind
					? md_operand(d->ctx, st, 3)
					: NULL;
	LLVMMetadataRef t = types ? strip_derived(d->ctx, md_operand(d->ctx, types, k + 1)) : NULL;
	if (!t || LLVMGetMetadataKind(t) != LLVMDICompositeTypeMetadataKind)
		return;
	LLVMMetadataRef elems = md_operand(d->ctx, t, 4);
	for (unsigned i = 0; elems && i < 64; i++) {
		LLVMMetadataRef m = md_operand(d->ctx, elems, i);
		if (!m)
			break;
		cb_field f;
		if (LLVMGetMetadataKind(m) != LLVMDIDerivedTypeMetadataKind ||
		    !member_field(d->ctx, m, &f))
			continue;
		a->fields = cb_xrealloc(a->fields, (a->nfields + 1) * sizeof *a->fields);
		a->fields[a->nfields++] = f;
	}
}
