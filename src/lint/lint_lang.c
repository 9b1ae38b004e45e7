/* SPDX-License-Identifier: MIT */
/* CUDA and HIP kernels, the language side: clang compiles the device side only
 * (--cuda-device-only) for one GPU (sm_90, gfx90a: the address spaces and built-ins are those
 * of every GPU of the vendor), without the SDK (-nocudainc / -nogpuinc) unless the user names
 * one, against clbanks' own device headers. See lint_lang.h. */
#include "config.h"
#include "lint/lint_lang.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -O0: the IR as the front end writes it, with __forceinline__ functions inlined (clang's
 * always-inliner runs at -O0), their accesses at the call site (lint_target.c); C++ inline
 * functions keep their bodies, unlike C99's. The IR's value names name the arguments. */
#define COMMON "-g", "-O0", "-fno-discard-value-names", "-emit-llvm", "-c", "-o", "-", "-H"

/* clang-format off */
static const char *const opencl[] = {
	"-x", "cl", "-target", "spir64", "-g", "-O1", "-Xclang", "-disable-llvm-passes",
	"-cl-kernel-arg-info", "-emit-llvm", "-c", "-o", "-", "-H", NULL,
};
/* clang-format on */
/* -nocudalib: no libdevice (its functions stay declarations, their results unknown). */
/* clang-format off */
static const char *const cuda[] = {
	"-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", "-nocudalib",
	"-Wno-unknown-cuda-version", COMMON, NULL,
};
/* clang-format on */
/* clang gives every HIP kernel a bound, by default 1024: lint's default, 1023, tells a kernel
 * without __launch_bounds__ (lint_target.c) */
/* clang-format off */
static const char *const hip[] = {
	"-x", "hip", "--cuda-device-only", "--offload-arch=gfx90a", "-nogpulib",
	"--gpu-max-threads-per-block=" CB_STR(CB_HIP_NO_BOUNDS), COMMON, NULL,
};
/* clang-format on */

/* clang-format off */
static const struct {
	const char *name;
	cb_lint_lang lang;
} names[] = {
	{ "opencl", CB_LINT_OPENCL }, { "cl", CB_LINT_OPENCL }, { "cuda", CB_LINT_CUDA },
	{ "hip", CB_LINT_HIP },
};
/* clang-format on */

cb_rc cb_lint_lang_parse(const char *text, cb_lint_lang *out, cb_error *err)
{
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
		if (text && !strcmp(text, names[k].name)) {
			*out = names[k].lang;
			return CB_OK;
		}
	return cb_error_set(err, CB_ERR_USAGE,
			    "invalid value '%s' for --lang: expected opencl, cuda or hip",
			    text ? text : "");
}

cb_lint_lang cb_lint_lang_of_path(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (!dot || strchr(dot, '/'))
		return CB_LINT_OPENCL;
	if (!strcmp(dot, ".cu") || !strcmp(dot, ".cuh"))
		return CB_LINT_CUDA;
	return !strcmp(dot, ".hip") ? CB_LINT_HIP : CB_LINT_OPENCL;
}

const char *cb_lint_lang_name(cb_lint_lang lang)
{
	return lang == CB_LINT_CUDA ? "CUDA" : lang == CB_LINT_HIP ? "HIP" : "OpenCL C";
}

const char *const *cb_lint_lang_fixed(cb_lint_lang lang)
{
	return lang == CB_LINT_CUDA ? cuda : lang == CB_LINT_HIP ? hip : opencl;
}

void cb_lint_args_add(cb_lint_args *a, const char *prefix, const char *value)
{
	size_t len = strlen(prefix) + strlen(value) + 1;
	a->v = cb_xrealloc(a->v, (a->n + 2) * sizeof *a->v);
	a->v[a->n] = cb_xmalloc(len);
	snprintf(a->v[a->n++], len, "%s%s", prefix, value);
	a->v[a->n] = NULL;
}

/* The SDK's include directory is a -I too, so that lint reads its headers (lint_ir.c reads
 * only the kernel's directory, the -I directories and clang's own headers). */
static void sdk_args(const cb_lint_request *req, cb_lint_args *out)
{
	bool is_cuda = req->lang == CB_LINT_CUDA;
	if (!req->sdk_path) {
		cb_lint_args_add(out, "", is_cuda ? "-nocudainc" : "-nogpuinc");
		/* a CUDA installation that clang finds is not read either */
		if (is_cuda)
			cb_lint_args_add(out, "--cuda-path=", "/nonexistent/clbanks-no-cuda");
		if (req->device_include)
			cb_lint_args_add(out, "-I", req->device_include);
		/* nvcc, and clang with the SDK (its wrapper), include the runtime header before
		 * the file: a kernel need not include it to know __global__ or threadIdx. */
		cb_lint_args_add(out, "", "-include");
		cb_lint_args_add(out, "", is_cuda ? "cuda_runtime.h" : "hip/hip_runtime.h");
		return;
	}
	cb_lint_args_add(out, is_cuda ? "--cuda-path=" : "--rocm-path=", req->sdk_path);
	cb_lint_args_add(out, "-I", req->sdk_path);
	char *inc = cb_xmalloc(strlen(req->sdk_path) + 16);
	sprintf(inc, "%s/include", req->sdk_path);
	cb_lint_args_add(out, "-I", inc);
	free(inc);
}

cb_rc cb_lint_lang_args(const cb_lint_request *req, cb_lint_args *out, cb_error *err)
{
	memset(out, 0, sizeof *out);
	const char *lang = cb_lint_lang_name(req->lang);
	if (req->cl_std)
		return cb_error_set(err, CB_ERR_USAGE, "--cl-std is OpenCL C's; %s is %s",
				    req->kernel_path, lang);
	if (req->build_options)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--build-options are clBuildProgram's; %s is "
				    "%s (give -D and -I)",
				    req->kernel_path, lang);
	if (!req->sdk_path && !req->device_include)
		return cb_error_set(
			err, CB_ERR_USAGE,
			"lint of %s needs clbanks' device headers "
			"(cuda_runtime.h); set CLBANKS_DEVICE_INCLUDE to their directory, "
			"or name an SDK with --%s-path",
			lang, req->lang == CB_LINT_CUDA ? "cuda" : "rocm");
	for (size_t i = 0; i < req->ndefines; i++) {
		const char *d = req->defines[i];
		if (!d || !*d || *d == '=' || strchr(d, '\n'))
			return cb_error_set(err, CB_ERR_USAGE, "-D needs NAME or NAME=VALUE");
		cb_lint_args_add(out, "-D", d);
	}
	for (size_t i = 0; i < req->nincludes; i++) {
		if (!req->includes[i] || !*req->includes[i])
			return cb_error_set(err, CB_ERR_USAGE, "-I needs a directory");
		cb_lint_args_add(out, "-I", req->includes[i]);
	}
	sdk_args(req, out);
	return CB_OK;
}

/* Target built-ins: the PTX special registers (clang's threadIdx and friends read them), the
 * AMDGCN work-item and work-group ids, the barriers; a dimension suffix .x .y .z. */
static const struct {
	const char *prefix;
	cb_builtin b;
	bool has_dim;
} targets[] = {
	{ "llvm.nvvm.read.ptx.sreg.tid.", CB_B_LOCAL_ID, true },
	{ "llvm.nvvm.read.ptx.sreg.ctaid.", CB_B_GROUP_ID, true },
	{ "llvm.nvvm.read.ptx.sreg.ntid.", CB_B_LOCAL_SIZE, true },
	{ "llvm.nvvm.read.ptx.sreg.nctaid.", CB_B_NUM_GROUPS, true },
	{ "llvm.nvvm.read.ptx.sreg.warpsize", CB_B_SG_SIZE, false },
	{ "llvm.nvvm.read.ptx.sreg.laneid", CB_B_SG_LOCAL_ID, false },
	{ "llvm.nvvm.barrier", CB_B_NOP, false },
	{ "llvm.nvvm.bar.", CB_B_NOP, false },
	{ "llvm.nvvm.membar.", CB_B_NOP, false },
	{ "llvm.amdgcn.workitem.id.", CB_B_LOCAL_ID, true },
	{ "llvm.amdgcn.workgroup.id.", CB_B_GROUP_ID, true },
	{ "llvm.amdgcn.wavefrontsize", CB_B_SG_SIZE, false },
	{ "llvm.amdgcn.s.barrier", CB_B_NOP, false },
};

bool cb_lint_lang_builtin(const char *name, cb_builtin *b, int *dim)
{
	for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++) {
		size_t n = strlen(targets[k].prefix);
		if (strncmp(name, targets[k].prefix, n) != 0)
			continue;
		if (targets[k].has_dim && (!name[n] || !strchr("xyz", name[n]) || name[n + 1]))
			return false;
		*b = targets[k].b;
		*dim = targets[k].has_dim ? name[n] - 'x' : -1;
		return true;
	}
	/* ROCm's device library: __ockl_get_local_size(dim) and friends, OpenCL's names */
	/* clang-format off */
	static const char *const ockl[] = {
		"__ockl_get_local_id", "__ockl_get_group_id", "__ockl_get_local_size",
		"__ockl_get_num_groups", "__ockl_get_global_id", "__ockl_get_global_size",
	};
	/* clang-format on */
	for (size_t k = 0; k < sizeof ockl / sizeof ockl[0]; k++)
		if (!strcmp(name, ockl[k])) {
			static const cb_builtin bs[] = { CB_B_LOCAL_ID,   CB_B_GROUP_ID,
							 CB_B_LOCAL_SIZE, CB_B_NUM_GROUPS,
							 CB_B_GLOBAL_ID,  CB_B_GLOBAL_SIZE };
			*b = bs[k];
			*dim = -2;
			return true;
		}
	return false;
}

void cb_lint_lang_predefined(const cb_lint_request *req, char *buf, size_t n)
{
	if (req->lang == CB_LINT_CUDA)
		snprintf(buf, n,
			 "by clang for the CUDA device side of sm_90: __CUDA__, "
			 "__CUDA_ARCH__=900, __NVPTX__; %s",
			 req->sdk_path ? "the SDK's headers" : "clbanks' device headers (no SDK)");
	else
		snprintf(buf, n,
			 "by clang for the HIP device side of gfx90a: __HIP__, "
			 "__HIP_DEVICE_COMPILE__, __AMDGCN__, __AMDGCN_WAVEFRONT_SIZE=64; %s",
			 req->sdk_path ? "the SDK's headers" : "clbanks' device headers (no SDK)");
}

bool cb_lint_lang_dynamic_shared(const cb_prog *p, uint32_t k)
{
	if (!p->objects[k].is_arg)
		return false;
	for (uint32_t a = 0; a < p->nargs; a++)
		if (p->args[a].object == (int32_t)k)
			return false;
	return true;
}

static void size_object(cb_lint_object *o, uint64_t bytes)
{
	o->bytes = bytes;
}

void cb_lint_lang_shared_bytes(cb_prog *p, uint64_t bytes)
{
	for (uint32_t k = 0; bytes && k < p->nobjects; k++)
		if (cb_lint_lang_dynamic_shared(p, k))
			size_object(&p->objects[k], bytes);
}

bool cb_lint_lang_set_shared(cb_prog *p, const char *name, size_t len, long long value)
{
	for (uint32_t k = 0; value > 0 && k < p->nobjects; k++)
		if (cb_lint_lang_dynamic_shared(p, k) && strlen(p->objects[k].name) == len &&
		    !strncmp(p->objects[k].name, name, len)) {
			size_object(&p->objects[k], (uint64_t)value);
			return true;
		}
	return false;
}

cb_rc cb_lint_lang_bounds(const cb_prog *p, unsigned local[3], cb_error *err)
{
	unsigned b = p->launch_bounds;
	if (!b)
		return CB_OK;
	if (local[0]) {
		uint64_t items = (uint64_t)local[0] * (local[1] ? local[1] : 1) *
				 (local[2] ? local[2] : 1);
		if (items > b)
			return cb_error_set(err, CB_ERR_USAGE,
					    "--local: %llu threads, more than kernel "
					    "%s's __launch_bounds__(%u) allows",
					    (unsigned long long)items, p->kernel, b);
		return CB_OK;
	}
	if (p->reads_yz)
		return cb_error_set(
			err, CB_ERR_USAGE,
			"lint needs --local X,Y[,Z]: kernel %s reads "
			"a y or z thread index or block size, and its __launch_bounds__(%u) "
			"gives only the number of threads",
			p->kernel, b);
	if (b > CB_LINT_MAX_ITEMS)
		return cb_error_set(
			err, CB_ERR_USAGE,
			"lint needs --local X: kernel %s's "
			"__launch_bounds__(%u) is more than the %u threads lint simulates",
			p->kernel, b, (unsigned)CB_LINT_MAX_ITEMS);
	local[0] = b;
	local[1] = local[2] = 0; /* one-dimensional */
	return CB_OK;
}
