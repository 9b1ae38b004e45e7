/* SPDX-License-Identifier: MIT */
/* Kernel sources: embedded at build time from the cl/ folder, or read from --kernel-dir for
 * kernel work (regular files of at most CB_KERNEL_MAX_BYTES only). */
#ifndef CB_KERNELS_H
#define CB_KERNELS_H

#include "core/error.h"

#define CB_KERNEL_MAX_BYTES (1024 * 1024)

/* A newly allocated copy of kernel source NAME (e.g. "chase.cl") in *SRC: from DIR when DIR
 * is not NULL, else the embedded copy, with each '#include "FILE"' line replaced by FILE
 * from the same place (cl/lane_table.clh). CB_ERR_INPUT when DIR's copy, or a file it
 * includes, cannot be used. */
cb_rc cb_kernel_source(const char *name, const char *dir, char **src, cb_error *err);

#endif
