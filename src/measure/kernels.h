/* SPDX-License-Identifier: MIT */
/* Kernel sources: embedded at build time from the cl/ folder, or read from --kernel-dir for kernel work. */
#ifndef CB_KERNELS_H
#define CB_KERNELS_H

/* Returns a newly allocated copy of kernel source NAME (e.g. "chase.cl"), from DIR when DIR is
 * not NULL, else the embedded copy. On failure prints a message and returns NULL. */
char *cb_kernel_source(const char *name, const char *dir);

#endif
