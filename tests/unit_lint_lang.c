/* SPDX-License-Identifier: MIT */
/* CUDA and HIP lint, the language side (lint/lint_lang.c, no LLVM): the language of a file,
 * --lang, the target built-ins, the clang arguments of a request, --launch_bounds__ as the
 * block, extern __shared__ sized by --shared-bytes and --arg. */
#include "config.h"
#include "lint/lint_lang.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static void test_names(void)
{
	tap_ok(cb_lint_lang_of_path("a/k.cu") == CB_LINT_CUDA &&
		       cb_lint_lang_of_path("k.cuh") == CB_LINT_CUDA &&
		       cb_lint_lang_of_path("k.hip") == CB_LINT_HIP &&
		       cb_lint_lang_of_path("k.cl") == CB_LINT_OPENCL &&
		       cb_lint_lang_of_path("dir.cu/k") == CB_LINT_OPENCL &&
		       cb_lint_lang_of_path("k") == CB_LINT_OPENCL,
	       "the language by extension");
	cb_lint_lang l = CB_LINT_OPENCL;
	cb_error err;
	tap_ok(cb_lint_lang_parse("hip", &l, &err) == CB_OK && l == CB_LINT_HIP, "--lang hip");
	tap_ok(cb_lint_lang_parse("c++", &l, &err) == CB_ERR_USAGE && strstr(err.text, "'c++'"),
	       "--lang c++ refused, naming it");
}

static void test_builtins(void)
{
	/* clang-format off */
	static const struct { const char *name; cb_builtin b; int dim; } cases[] = {
		{ "llvm.nvvm.read.ptx.sreg.tid.x", CB_B_LOCAL_ID, 0 },
		{ "llvm.nvvm.read.ptx.sreg.ctaid.z", CB_B_GROUP_ID, 2 },
		{ "llvm.nvvm.read.ptx.sreg.ntid.y", CB_B_LOCAL_SIZE, 1 },
		{ "llvm.nvvm.read.ptx.sreg.nctaid.x", CB_B_NUM_GROUPS, 0 },
		{ "llvm.nvvm.read.ptx.sreg.warpsize", CB_B_SG_SIZE, -1 },
		{ "llvm.nvvm.barrier0", CB_B_NOP, -1 },
		{ "llvm.nvvm.barrier.cta.sync.aligned.all", CB_B_NOP, -1 },
		{ "llvm.amdgcn.workitem.id.y", CB_B_LOCAL_ID, 1 },
		{ "llvm.amdgcn.workgroup.id.x", CB_B_GROUP_ID, 0 },
		{ "llvm.amdgcn.s.barrier", CB_B_NOP, -1 },
		{ "__ockl_get_local_size", CB_B_LOCAL_SIZE, -2 },
		{ "__ockl_get_num_groups", CB_B_NUM_GROUPS, -2 },
	};
	/* clang-format on */
	unsigned good = 0;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		cb_builtin b;
		int dim;
		good += cb_lint_lang_builtin(cases[k].name, &b, &dim) && b == cases[k].b &&
			dim == cases[k].dim;
	}
	tap_ok(good == sizeof cases / sizeof cases[0],
	       "PTX, AMDGCN and __ockl work-item built-ins (%u of %zu)", good,
	       sizeof cases / sizeof cases[0]);
	cb_builtin b;
	int dim;
	tap_ok(!cb_lint_lang_builtin("llvm.nvvm.read.ptx.sreg.tid.w", &b, &dim) &&
		       !cb_lint_lang_builtin("llvm.amdgcn.workitem.id.", &b, &dim) &&
		       !cb_lint_lang_builtin("get_local_id", &b, &dim),
	       "other names are not target built-ins");
}

static bool has(const cb_lint_args *a, const char *s)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i], s))
			return true;
	return false;
}

static void test_args(void)
{
	const char *defs[] = { "TILE=16" };
	cb_lint_request q = { .kernel_path = "k.cu",
			      .lang = CB_LINT_CUDA,
			      .defines = defs,
			      .ndefines = 1,
			      .device_include = "/inc" };
	cb_lint_args a;
	cb_error err;
	tap_ok(cb_lint_lang_args(&q, &a, &err) == CB_OK && has(&a, "-DTILE=16") &&
		       has(&a, "-I/inc") && has(&a, "-nocudainc") && !has(&a, "-cl-std=CL1.2"),
	       "CUDA: -D, the device headers, no SDK, no OpenCL version");
	cb_lint_args_free(&a);
	q.sdk_path = "/opt/cuda";
	tap_ok(cb_lint_lang_args(&q, &a, &err) == CB_OK && has(&a, "--cuda-path=/opt/cuda") &&
		       has(&a, "-I/opt/cuda/include") && !has(&a, "-nocudainc") &&
		       !has(&a, "-I/inc"),
	       "--cuda-path: the SDK's headers instead, readable as a -I directory");
	cb_lint_args_free(&a);
	q.lang = CB_LINT_HIP;
	q.sdk_path = NULL;
	q.build_options = "-DX";
	tap_ok(cb_lint_lang_args(&q, &a, &err) == CB_ERR_USAGE &&
		       strstr(err.text, "clBuildProgram"),
	       "HIP: --build-options refused");
	cb_lint_args_free(&a);
	const char *const *fixed = cb_lint_lang_fixed(CB_LINT_HIP);
	bool dev = false;
	for (size_t i = 0; fixed[i]; i++)
		dev |= !strcmp(fixed[i], "--cuda-device-only");
	tap_ok(dev && !strcmp(fixed[1], "hip"), "HIP: clang compiles the device side");
}

static void test_bounds_and_shared(void)
{
	cb_lint_object objs[2] = { { .name = "partial", .is_arg = true, .elem_bytes = 4 },
				   { .name = "tile", .elem_bytes = 4, .rank = 2, .bytes = 4096 } };
	cb_prog p = { .objects = objs, .nobjects = 2, .kernel = "k", .launch_bounds = 256 };
	unsigned local[3] = { 0, 0, 0 };
	cb_error err;
	tap_ok(cb_lint_lang_bounds(&p, local, &err) == CB_OK && local[0] == 256 && !local[1],
	       "__launch_bounds__(256): a block of 256 threads in x");
	p.reads_yz = true;
	local[0] = 0;
	tap_ok(cb_lint_lang_bounds(&p, local, &err) == CB_ERR_USAGE && strstr(err.text, "--local"),
	       "... but not for a kernel that reads a y or z index");
	local[0] = 32, local[1] = 16;
	tap_ok(cb_lint_lang_bounds(&p, local, &err) == CB_ERR_USAGE && strstr(err.text, "512"),
	       "--local 32,16 over __launch_bounds__(256) refused");
	cb_lint_lang_shared_bytes(&p, 2048);
	tap_ok(objs[0].bytes == 2048 && objs[1].bytes == 4096, "--shared-bytes sizes extern "
							       "__shared__ arrays only");
	tap_ok(cb_lint_lang_set_shared(&p, "partial=64", 7, 64) && objs[0].bytes == 64 &&
		       !cb_lint_lang_set_shared(&p, "tile", 4, 64),
	       "--arg partial=64; not a static array");
	/* A __local pointer argument (an argument owns it) is not an extern __shared__ array. */
	cb_karg arg = { .name = "sdata", .kind = CB_ARG_LOCAL, .object = 0 };
	bool extern_shared = cb_lint_lang_dynamic_shared(&p, 0) &&
			     !cb_lint_lang_dynamic_shared(&p, 1);
	p.args = &arg, p.nargs = 1;
	tap_ok(extern_shared && !cb_lint_lang_dynamic_shared(&p, 0),
	       "extern __shared__: an is_arg object no argument owns, not a static array or a "
	       "__local pointer argument");
}

int main(void)
{
	test_names();
	test_builtins();
	test_args();
	test_bounds_and_shared();
	return tap_done();
}
