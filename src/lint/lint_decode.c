/* SPDX-License-Identifier: MIT */
/* LLVM IR to the lint program, module side: the kernel, the functions it calls (found as the
 * translation reaches their calls) and its arguments; instructions are lint_decode_ins.c's,
 * values, objects and sites lint_dctx.c's. */
#include "config.h"
#include "lint/lint_decode.h"
#include "lint/lint_cfg.h"
#include "lint/lint_dctx.h"
#include "lint/lint_decode_ins.h"
#include "lint/lint_names.h"
#include "lint/lint_target.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The bytes of a by-value aggregate argument K: its byval type (pointers are opaque from
 * LLVM 15 on, and the attribute carries the type since LLVM 12). */
static uint64_t byval_bytes(cb_dctx *d, LLVMValueRef fn, unsigned k)
{
	unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
	LLVMAttributeRef a = kind ? LLVMGetEnumAttributeAtIndex(fn, k + 1, kind) : NULL;
	LLVMTypeRef t = a ? LLVMGetTypeAttributeValue(a) : NULL;
	return t && LLVMTypeIsSized(t) ? LLVMABISizeOfType(d->td, t) : 0;
}

/* A __local pointer argument's object: element type and size from the kernel-argument
 * metadata ("float4*"; base types resolve typedefs), else from its first access. */
static uint32_t local_arg_object(cb_dctx *d, unsigned k, const char *name, char **types,
				 char **base)
{
	cb_prog *p = d->prog;
	uint32_t obj = cb_dobject(d);
	cb_lint_object *o = &p->objects[obj];
	o->name = cb_xstrdup(name);
	o->elem_type = types ? cb_pointee_name(types[k]) : NULL;
	char *bt = base ? cb_pointee_name(base[k]) : NULL;
	o->elem_bytes = bt ? cb_cl_type_bytes(bt) : 0;
	free(bt);
	for (uint32_t i = 0; i < p->nsites && !o->elem_bytes; i++)
		if (p->sites[i].arg == (int32_t)k) {
			o->elem_bytes = p->sites[i].elem_bytes;
			if (!o->elem_type)
				o->elem_type = cb_xstrdup(p->sites[i].elem_type);
		}
	if (!o->elem_type)
		o->elem_type = cb_xstrdup("void");
	if (!o->elem_bytes)
		o->elem_bytes = 1;
	o->is_arg = true;
	return obj;
}

/* An integer argument's C type (kernel_arg_type) and whether it is unsigned: its base type
 * (typedefs resolved, kernel_arg_base_type) is uchar, ushort, uint, ulong or unsigned ... */
static void int_type(cb_karg *a, const char *type, const char *base)
{
	snprintf(a->ctype, sizeof a->ctype, "%s", type && *type ? type : "");
	const char *b = base && *base ? base : type ? type : "";
	a->is_unsigned = b[0] == 'u' || !strncmp(b, "unsigned", 8) || !strcmp(b, "size_t");
}

static void decode_args(cb_dctx *d, LLVMValueRef kernel)
{
	cb_prog *p = d->prog;
	unsigned n = LLVMCountParams(kernel);
	char **names = cb_kernel_arg_strings(d, kernel, "kernel_arg_name", n);
	char **types = cb_kernel_arg_strings(d, kernel, "kernel_arg_type", n);
	char **base = cb_kernel_arg_strings(d, kernel, "kernel_arg_base_type", n);
	p->nargs = n;
	p->args = cb_xcalloc(n ? n : 1, sizeof *p->args);
	for (unsigned i = 0; i < n; i++) {
		cb_karg *a = &p->args[i];
		LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(kernel, i));
		char fallback[32];
		size_t plen;
		const char *pname = LLVMGetValueName2(LLVMGetParam(kernel, i), &plen);
		/* CUDA, HIP: no kernel_arg_name, the IR's names (HIP's pointers end in .coerce) */
		if (plen && plen < sizeof fallback)
			snprintf(fallback, sizeof fallback, "%.*s",
				 (int)(plen > 7 && !strcmp(pname + plen - 7, ".coerce") ? plen - 7
											: plen),
				 pname);
		else
			snprintf(fallback, sizeof fallback, "argument %u", i + 1);
		a->name = cb_xstrdup(names && names[i][0] ? names[i] : fallback);
		a->object = -1;
		a->width = cb_int_width(t);
		if (a->width) {
			a->kind = CB_ARG_INT;
			int_type(a, types ? types[i] : NULL, base ? base[i] : NULL);
		} else if (LLVMGetTypeKind(t) != LLVMPointerTypeKind) {
			a->kind = CB_ARG_OTHER;
		} else if (cb_addrspace(t) == 3) {
			a->kind = CB_ARG_LOCAL;
			a->object = (int32_t)local_arg_object(d, i, a->name, types, base);
		} else if (cb_addrspace(t) == 0 || byval_bytes(d, kernel, i)) {
			a->kind = CB_ARG_PRIVATE;
			a->bytes = byval_bytes(d, kernel, i);
			cb_debug_arg_fields(d, kernel, i, a);
		} else {
			a->kind = CB_ARG_GLOBAL;
		}
	}
	cb_free_strings(names, n);
	cb_free_strings(types, n);
	cb_free_strings(base, n);
	for (uint32_t k = 0; k < p->nsites; k++)
		if (p->sites[k].arg >= 0 && (unsigned)p->sites[k].arg < n)
			p->sites[k].object = p->args[p->sites[k].arg].object;
}

/* Metadata KIND of N integer constants on the kernel into OUT (0 where absent):
 * reqd_work_group_size(X, Y, Z), intel_reqd_sub_group_size(S). */
static void kernel_ints(cb_dctx *d, LLVMValueRef kernel, const char *kind_name, unsigned n,
			unsigned *out)
{
	unsigned kind = LLVMGetMDKindIDInContext(d->ctx, kind_name, (unsigned)strlen(kind_name));
	size_t count = 0;
	LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(kernel, &count);
	for (size_t i = 0; i < count; i++) {
		if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) != kind)
			continue;
		LLVMValueRef node = LLVMMetadataAsValue(
			d->ctx, LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
		LLVMValueRef ops[3];
		if (n > 3 || LLVMGetMDNodeNumOperands(node) != n)
			continue;
		LLVMGetMDNodeOperands(node, ops);
		for (unsigned k = 0; k < n; k++)
			out[k] = ops[k] && LLVMIsAConstantInt(ops[k]) &&
						 LLVMConstIntGetZExtValue(ops[k]) <= UINT32_MAX
					 ? (unsigned)LLVMConstIntGetZExtValue(ops[k])
					 : 0;
	}
	if (md)
		LLVMDisposeValueMetadataEntries(md);
}

static cb_rc find_kernel(cb_dctx *d, const char *name, LLVMValueRef *out)
{
	char list[512] = "";
	unsigned count = 0;
	*out = NULL;
	for (LLVMValueRef f = LLVMGetFirstFunction(d->mod); f; f = LLVMGetNextFunction(f)) {
		if (!cb_target_is_kernel(d->mod, f))
			continue;
		char fn[256];
		cb_target_name(f, fn, sizeof fn);
		size_t used = strlen(list);
		snprintf(list + used, sizeof list - used, "%s%s", count ? ", " : "", fn);
		count++;
		if (name ? cb_target_names(f, name) && !*out : count == 1)
			*out = f;
	}
	if (count == 0)
		return cb_error_set(d->err, CB_ERR_INPUT, "has no __kernel function");
	if (name && !*out)
		return cb_error_set(d->err, CB_ERR_INPUT, "has no kernel named '%s' (kernels: %s)",
				    name, list);
	if (!name && count > 1)
		return cb_error_set(d->err, CB_ERR_USAGE,
				    "has %u kernels (%s); choose one with --kernel", count, list);
	return CB_OK;
}

/* Every defined function the kernel reaches, numbered before any is translated. */
static void collect_functions(cb_dctx *d, LLVMValueRef kernel)
{
	cb_dfunction(d, kernel);
	for (uint32_t k = 0; k < d->prog->nfns; k++) {
		LLVMValueRef fn = d->fnref[k];
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
		     bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
			     i = LLVMGetNextInstruction(i)) {
				if (LLVMGetInstructionOpcode(i) != LLVMCall)
					continue;
				LLVMValueRef c = cb_callee(i);
				if (c && !LLVMIsDeclaration(c))
					cb_dfunction(d, c);
			}
	}
}

/* __local memory operations of call I: each __local pointer a memory intrinsic accesses,
 * one for a declared function that gets any; none for an intrinsic that touches no memory
 * (debug info, lifetimes) or a defined function (its body is counted). */
static uint32_t call_local_ops(LLVMValueRef i)
{
	/* clang-format off */
	static const char *const none[] = {
		"llvm.dbg.", "llvm.lifetime.", "llvm.assume", "llvm.experimental.noalias",
		"llvm.invariant.", "llvm.var.annotation", "llvm.donothing",
	};
	/* clang-format on */
	LLVMValueRef c = cb_callee(i);
	if (c && !LLVMIsDeclaration(c))
		return 0;
	size_t len;
	const char *name = c ? LLVMGetValueName2(c, &len) : "";
	for (size_t k = 0; k < sizeof none / sizeof none[0]; k++)
		if (!strncmp(name, none[k], strlen(none[k])))
			return 0;
	bool mem = !strncmp(name, "llvm.mem", 8);
	unsigned n = LLVMGetNumArgOperands(i), ops = 0;
	for (unsigned k = 0; k < n && (!mem || k < 2); k++)
		ops += cb_addrspace(LLVMTypeOf(LLVMGetOperand(i, k))) == 3;
	return mem || !ops ? ops : 1;
}

/* The IR's count of __local memory operations, taken from the instructions themselves (not
 * from the translation's sites), so that the coverage can show an operation lint missed. */
static uint32_t count_local_ops(cb_dctx *d)
{
	uint32_t n = 0;
	for (uint32_t k = 0; k < d->prog->nfns; k++)
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(d->fnref[k]); bb;
		     bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
			     i = LLVMGetNextInstruction(i)) {
				switch (LLVMGetInstructionOpcode(i)) {
				case LLVMLoad:
				case LLVMAtomicRMW:
				case LLVMAtomicCmpXchg:
					n += cb_addrspace(LLVMTypeOf(LLVMGetOperand(i, 0))) == 3;
					break;
				case LLVMStore:
					n += cb_addrspace(LLVMTypeOf(LLVMGetOperand(i, 1))) == 3;
					break;
				case LLVMCall:
					n += call_local_ops(i);
					break;
				default:
					break;
				}
			}
	return n;
}

/* Numbers arguments, blocks and results, translates the instructions, then finds loops. */
static void decode_function(cb_dctx *d, uint32_t index)
{
	LLVMValueRef fn = d->fnref[index];
	cb_fn *f = &d->prog->fns[index];
	size_t len;
	const char *name = LLVMGetValueName2(fn, &len);
	f->name = cb_xstrdup(name);
	d->f = f;
	d->fn_index = index;
	d->inscap = d->extracap = d->constcap = 0;
	LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
	f->ret_kind = cb_value_kind(rt);
	f->ret_width = (uint8_t)cb_int_width(rt);
	uint32_t slot = 0;
	f->nargs = LLVMCountParams(fn);
	for (; slot < f->nargs; slot++)
		cb_pmap_put(&d->vals, LLVMGetParam(fn, slot), slot);
	f->nblocks = LLVMCountBasicBlocks(fn);
	f->blocks = cb_xcalloc(f->nblocks ? f->nblocks : 1, sizeof *f->blocks);
	uint32_t b = 0;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
	     bb = LLVMGetNextBasicBlock(bb)) {
		cb_pmap_put(&d->blocks, bb, b++);
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
				cb_pmap_put(&d->vals, i, slot++);
	}
	f->const_base = f->nvals = slot;
	b = 0;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
	     bb = LLVMGetNextBasicBlock(bb), b++) {
		cb_block *blk = &f->blocks[b];
		d->block = b;
		blk->first = f->nins;
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
		     i = LLVMGetNextInstruction(i)) {
			if (f->nins == d->inscap) {
				d->inscap = d->inscap ? 2 * d->inscap : 64;
				f->ins = cb_xrealloc(f->ins, d->inscap * sizeof *f->ins);
			}
			cb_ins *out = &f->ins[f->nins];
			memset(out, 0, sizeof *out);
			out->site = -1;
			uint32_t dst = cb_pmap_get(&d->vals, i);
			if (!cb_decode_ins(d, i, out))
				continue;
			out->dst = dst;
			if (out->op == CB_I_PHI)
				blk->nphi++;
			f->nins++;
		}
		blk->end = f->nins;
	}
	cb_pmap_free(&d->vals);
	cb_pmap_free(&d->blocks);
	cb_fn_analyze(f);
}

void cb_lint_decode_kernels(LLVMModuleRef mod, char ***names, size_t *n)
{
	*names = NULL;
	*n = 0;
	cb_target_use(mod);
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
		if (!cb_target_is_kernel(mod, f))
			continue;
		char name[256];
		cb_target_name(f, name, sizeof name);
		*names = cb_xrealloc(*names, (*n + 1) * sizeof **names);
		(*names)[(*n)++] = cb_xstrdup(name);
	}
}

cb_rc cb_lint_decode(LLVMModuleRef mod, const char *name, cb_prog *prog, cb_error *err)
{
	cb_dctx d;
	memset(&d, 0, sizeof d);
	memset(prog, 0, sizeof *prog);
	d.mod = mod;
	d.ctx = LLVMGetModuleContext(mod);
	d.td = LLVMGetModuleDataLayout(mod);
	d.prog = prog;
	d.err = err;
	if (!getcwd(d.cwd, sizeof d.cwd))
		d.cwd[0] = '\0';
	LLVMValueRef kernel;
	cb_target_use(mod);
	cb_rc rc = find_kernel(&d, name, &kernel);
	if (rc == CB_OK) {
		char kname[256];
		cb_target_name(kernel, kname, sizeof kname);
		prog->kernel = cb_xstrdup(kname);
		collect_functions(&d, kernel);
		for (uint32_t i = 0; i < prog->nfns; i++)
			decode_function(&d, i);
		decode_args(&d, kernel);
		kernel_ints(&d, kernel, "reqd_work_group_size", 3, prog->reqd);
		kernel_ints(&d, kernel, "intel_reqd_sub_group_size", 1, &prog->reqd_subgroup);
		prog->ir_local_ops = count_local_ops(&d);
		prog->launch_bounds = cb_target_launch_bounds(mod, kernel);
		prog->reads_yz = cb_target_reads_yz(&d);
	}
	cb_pmap_free(&d.fns);
	cb_pmap_free(&d.objs);
	free(d.fnref);
	return rc;
}
