/* SPDX-License-Identifier: MIT */
/* The GPU target of a module: see lint_target.h. CUDA and HIP address __shared__ memory
 * through generic pointers (addrspacecast of the shared global), which the translation
 * follows as OpenCL C 2.0's generic pointers: each access through one is reported when it
 * reaches __shared__ memory. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "config.h"
#include "lint/lint_target.h"
#include "lint/lint_lang.h"

#include <llvm-c/DebugInfo.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cb_target target;

/* NVPTX: 0 generic, 1 global, 3 shared, 4 constant, 5 local; AMDGCN: 0 flat, 1 global,
 * 3 LDS, 4 constant, 5 private. Both into SPIR's. */
static const unsigned gpu_spaces[6] = { 4, 1, 1, 3, 2, 0 };

void cb_target_use(LLVMModuleRef mod)
{
	const char *t = LLVMGetTarget(mod);
	target = !strncmp(t, "nvptx", 5)    ? CB_TARGET_NVPTX
		 : !strncmp(t, "amdgcn", 6) ? CB_TARGET_AMDGCN
					    : CB_TARGET_SPIR;
}

unsigned cb_target_space(unsigned as)
{
	if (target == CB_TARGET_SPIR)
		return as;
	return as < 6 ? gpu_spaces[as] : 1;
}

/* nvvm.annotations: !{ptr @f, !"kernel", i32 1}, and !"maxntidx" for __launch_bounds__. */
static unsigned annotation(LLVMModuleRef mod, LLVMValueRef f, const char *key)
{
	unsigned n = LLVMGetNamedMetadataNumOperands(mod, "nvvm.annotations");
	if (!n)
		return 0;
	LLVMValueRef *nodes = calloc(n, sizeof *nodes);
	unsigned value = 0;
	if (!nodes)
		return 0;
	LLVMGetNamedMetadataOperands(mod, "nvvm.annotations", nodes);
	for (unsigned i = 0; i < n && !value; i++) {
		unsigned k = LLVMGetMDNodeNumOperands(nodes[i]);
		LLVMValueRef ops[16];
		if (k > 16)
			continue;
		LLVMGetMDNodeOperands(nodes[i], ops);
		for (unsigned j = 1; ops[0] == f && j + 1 < k; j += 2) {
			unsigned len;
			const char *s = ops[j] ? LLVMGetMDString(ops[j], &len) : NULL;
			if (s && len == strlen(key) && !memcmp(s, key, len) &&
			    LLVMIsAConstantInt(ops[j + 1]))
				value = (unsigned)LLVMConstIntGetZExtValue(ops[j + 1]);
		}
	}
	free(nodes);
	return value;
}

bool cb_target_is_kernel(LLVMModuleRef mod, LLVMValueRef f)
{
	if (LLVMIsDeclaration(f))
		return false;
	unsigned cc = LLVMGetFunctionCallConv(f);
	if (cc == LLVMSPIRKERNELCallConv || cc == LLVMAMDGPUKERNELCallConv ||
	    cc == LLVMPTXKernelCallConv)
		return true;
	return target == CB_TARGET_NVPTX && annotation(mod, f, "kernel") == 1;
}

/* The C++ runtime's demangler, which the LLVM library brings into the process (found at run
 * time: C cannot link it by name); NULL when it is not there. */
static char *demangle(const char *mangled)
{
	typedef char *(*fn)(const char *, char *, size_t *, int *);
	static fn cxa;
	static bool looked;
	if (!looked) {
		void *s = dlsym(RTLD_DEFAULT, "__cxa_demangle");
		memcpy(&cxa, &s, sizeof cxa);
		looked = true;
	}
	int status = -1;
	char *out = cxa && !strncmp(mangled, "_Z", 2) ? cxa(mangled, NULL, NULL, &status) : NULL;
	if (status != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* "void f<32>(float*, int)" without its parameter list (from the '(' that matches the last
 * ')') and the return type a template's name carries (up to the last space outside <>). */
static void strip_params(char *s)
{
	size_t len = strlen(s);
	if (!len || s[len - 1] != ')')
		return;
	int depth = 0;
	for (size_t i = len; i-- > 0;) {
		depth += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
		if (!depth) {
			s[i] = '\0';
			break;
		}
	}
	size_t start = 0;
	depth = 0;
	for (size_t i = 0; s[i]; i++) {
		depth += s[i] == '<' || s[i] == '(' ? 1 : s[i] == '>' || s[i] == ')' ? -1 : 0;
		if (!depth && s[i] == ' ')
			start = i + 1;
	}
	memmove(s, s + start, strlen(s + start) + 1);
}

void cb_target_name(LLVMValueRef f, char *buf, size_t n)
{
	size_t len;
	const char *name = LLVMGetValueName2(f, &len);
	char *d = target == CB_TARGET_SPIR ? NULL : demangle(name);
	if (d)
		strip_params(d);
	snprintf(buf, n, "%s", d ? d : name);
	free(d);
}

bool cb_target_names(LLVMValueRef f, const char *name)
{
	size_t len;
	const char *m = LLVMGetValueName2(f, &len);
	if (!strcmp(m, name))
		return true;
	char *d = target == CB_TARGET_SPIR ? NULL : demangle(m);
	bool same = d && !strcmp(d, name);
	if (d && !same) {
		strip_params(d);
		same = !strcmp(d, name);
	}
	free(d);
	return same;
}

/* A string attribute of F as an unsigned: its last number ("1,256" gives 256). */
static unsigned string_attr(LLVMValueRef f, const char *key)
{
	LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, key,
							   (unsigned)strlen(key));
	unsigned len = 0;
	const char *v = a ? LLVMGetStringAttributeValue(a, &len) : NULL;
	char buf[32];
	if (!v || !len || len >= sizeof buf)
		return 0;
	memcpy(buf, v, len);
	buf[len] = '\0';
	const char *last = strrchr(buf, ',');
	return (unsigned)strtoul(last ? last + 1 : buf, NULL, 10);
}

unsigned cb_target_launch_bounds(LLVMModuleRef mod, LLVMValueRef kernel)
{
	if (target == CB_TARGET_NVPTX) {
		unsigned n = annotation(mod, kernel, "maxntidx");
		return n ? n : string_attr(kernel, "nvvm.maxntid"); /* LLVM 20 on */
	}
	/* HIP: clang writes the attribute for every kernel, lint's CB_HIP_NO_BOUNDS (its
	 * --gpu-max-threads-per-block) without __launch_bounds__. */
	unsigned n = target == CB_TARGET_AMDGCN ? string_attr(kernel, "amdgpu-flat-work-group-size")
						: 0;
	return n == CB_HIP_NO_BOUNDS ? 0 : n;
}

bool cb_target_reads_yz(const cb_dctx *d)
{
	for (uint32_t k = 0; k < d->prog->nfns; k++)
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(d->fnref[k]); bb;
		     bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
			     i = LLVMGetNextInstruction(i)) {
				LLVMValueRef c = LLVMGetInstructionOpcode(i) == LLVMCall
							 ? cb_callee(i)
							 : NULL;
				size_t len;
				const char *name = c ? LLVMGetValueName2(c, &len) : "";
				cb_builtin b;
				int dim;
				if (!c || !cb_lint_lang_builtin(name, &b, &dim) ||
				    (b != CB_B_LOCAL_ID && b != CB_B_LOCAL_SIZE))
					continue;
				if (dim == -2 && LLVMGetNumArgOperands(i) > 0) {
					LLVMValueRef a = LLVMGetOperand(i, 0);
					dim = LLVMIsAConstantInt(a)
						      ? (int)LLVMConstIntGetZExtValue(a)
						      : 1;
				}
				if (dim > 0)
					return true;
			}
	return false;
}

bool cb_target_is_dynamic(LLVMValueRef g)
{
	if (target == CB_TARGET_SPIR || !LLVMIsDeclaration(g))
		return false;
	LLVMTypeRef t = LLVMGlobalGetValueType(g);
	return LLVMGetTypeKind(t) == LLVMArrayTypeKind && LLVMGetArrayLength(t) == 0;
}

bool cb_target_static_name(const char *mangled, char *buf, size_t n)
{
	if (target == CB_TARGET_SPIR || strncmp(mangled, "_ZZ", 3) != 0)
		return false;
	char *d = demangle(mangled);
	const char *tail = d ? strrchr(d, ':') : NULL;
	if (tail)
		snprintf(buf, n, "%s", tail + 1);
	free(d);
	return tail != NULL;
}

/* The file of a DILocation's scope, compared by name. */
static bool same_file(LLVMMetadataRef a, LLVMMetadataRef b)
{
	LLVMMetadataRef fa = LLVMDIScopeGetFile(LLVMDILocationGetScope(a));
	LLVMMetadataRef fb = LLVMDIScopeGetFile(LLVMDILocationGetScope(b));
	if (fa == fb)
		return true;
	unsigned la, lb;
	const char *na = fa ? LLVMDIFileGetFilename(fa, &la) : NULL;
	const char *nb = fb ? LLVMDIFileGetFilename(fb, &lb) : NULL;
	return na && nb && la == lb && !memcmp(na, nb, la);
}

LLVMMetadataRef cb_target_call_site(LLVMValueRef ins)
{
	LLVMMetadataRef loc = target == CB_TARGET_SPIR ? NULL : LLVMInstructionGetDebugLoc(ins);
	if (!loc || !LLVMDILocationGetInlinedAt(loc))
		return NULL;
	LLVMMetadataRef chain[64], outer;
	size_t n = 0;
	for (LLVMMetadataRef l = loc; l && n < 64; l = LLVMDILocationGetInlinedAt(l))
		chain[n++] = l;
	outer = chain[n - 1];
	for (size_t k = 0; k < n; k++)
		if (same_file(chain[k], outer))
			return chain[k];
	return outer;
}

const char *cb_target_loc_file(LLVMMetadataRef loc, unsigned *len, bool dir)
{
	LLVMMetadataRef f = LLVMDIScopeGetFile(LLVMDILocationGetScope(loc));
	*len = 0;
	if (!f)
		return "";
	return dir ? LLVMDIFileGetDirectory(f, len) : LLVMDIFileGetFilename(f, len);
}
