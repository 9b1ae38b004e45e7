/* SPDX-License-Identifier: MIT */
/* clbanks lint: cuda.h names the same device header as cuda_runtime.h. */
#include "cuda_runtime.h"
