/* SPDX-License-Identifier: MIT */
/* LLVM IR to the lint program, instruction side (lint_decode_ins.c). */
#ifndef CB_LINT_DECODE_INS_H
#define CB_LINT_DECODE_INS_H

#include "lint/lint_dctx.h"

/* Translates one instruction into *out; false when it is dropped (debug intrinsics). */
bool cb_decode_ins(cb_dctx *d, LLVMValueRef i, cb_ins *out);

#endif
