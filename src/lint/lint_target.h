/* SPDX-License-Identifier: MIT */
/* The GPU target of a module (lint_target.c): SPIR (OpenCL C), NVPTX (CUDA) or AMDGCN (HIP).
 * Its address spaces in SPIR's numbering (what the translation speaks), its kernels, their
 * names as the source spells them, their __launch_bounds__. Needs LLVM. */
#ifndef CB_LINT_TARGET_H
#define CB_LINT_TARGET_H

#include "lint/lint_dctx.h"

#include <llvm-c/DebugInfo.h>

#include <stdbool.h>
#include <stddef.h>

typedef enum { CB_TARGET_SPIR, CB_TARGET_NVPTX, CB_TARGET_AMDGCN } cb_target;

/* Sets the target of MOD for the translation that follows (one at a time: lint is one
 * process per run). */
void cb_target_use(LLVMModuleRef mod);
/* An address space of the module's target in SPIR's numbering: 0 private, 1 global,
 * 2 constant, 3 __local / __shared__, 4 generic. */
unsigned cb_target_space(unsigned as);
/* Is F a kernel: OpenCL's and AMDGPU's calling conventions, PTX's, or nvvm.annotations. */
bool cb_target_is_kernel(LLVMModuleRef mod, LLVMValueRef f);
/* F's name as the source spells it: C++ names demangled without their parameters
 * ("transpose<32>"), others as they are. */
void cb_target_name(LLVMValueRef f, char *buf, size_t n);
/* Does NAME (mangled, demangled, or demangled without parameters) name F? */
bool cb_target_names(LLVMValueRef f, const char *name);
/* The kernel's __launch_bounds__ (most threads of a block), 0 when it has none; and whether
 * the functions of D read a y or z thread id or block size. */
unsigned cb_target_launch_bounds(LLVMModuleRef mod, LLVMValueRef kernel);
bool cb_target_reads_yz(const cb_dctx *d);
/* An instruction of a function inlined into another (CUDA's __forceinline__): the location
 * it is reported at, the innermost of its inlining chain that lies in the file of the
 * function it was inlined into (a helper of a header is reported where the kernel calls
 * it; one of the kernel's file where it is written). NULL for code not inlined. */
LLVMMetadataRef cb_target_call_site(LLVMValueRef ins);
/* A DILocation's file name, or its directory (DIR). */
const char *cb_target_loc_file(LLVMMetadataRef loc, unsigned *len, bool dir);
/* extern __shared__ arrays (CUDA's dynamic shared memory) are the __local objects of
 * unknown size that --arg NAME=BYTES or --shared-bytes size, as __local arguments. */
bool cb_target_is_dynamic(LLVMValueRef global);
/* A C++ function's static variable (a __shared__ array of a kernel): its own name, from
 * "_ZZ9transposeILi32EEvPfPKfiE4tile"; false for any other name. */
bool cb_target_static_name(const char *mangled, char *buf, size_t n);

#endif
