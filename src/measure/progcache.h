/* SPDX-License-Identifier: MIT */
/*
 * The program cache: a built program's binary (clGetProgramInfo CL_PROGRAM_BINARIES) kept on
 * disk under a key that names the platform, device, driver, build options and the whole
 * source, so that the next run creates it with clCreateProgramWithBinary instead of compiling
 * the source again. Pure file code (no OpenCL): ocl.c makes the key and the programs.
 *
 * An entry is one file, DIR/<16 hex digits of the key's hash>.bin:
 *   "clbanks program cache 2\n", "<key bytes> <binary bytes> <binary's FNV-1a, 16 hex>\n",
 *   the key, the binary.
 * The key is stored whole and compared on load: a hash collision is a miss, never a wrong
 * program. Entries are written to a temporary file and renamed, so a reader never sees half
 * of one; an entry is read only from a regular file of this user, not through a link.
 */
#ifndef CB_PROGCACHE_H
#define CB_PROGCACHE_H

#include "core/error.h"

#include <stddef.h>

/* The largest binary kept (a driver that returns more is not cached). */
#define CB_PROGCACHE_MAX_BYTES (64u << 20)

/* The cache's folder: $CLBANKS_CACHE_DIR (empty or "off": no cache), else
 * $XDG_CACHE_HOME/clbanks, else $HOME/.cache/clbanks; NULL when there is none. Owned by the
 * caller. */
char *cb_progcache_dir(void);

/* The file of KEY in DIR (owned by the caller). */
char *cb_progcache_path(const char *dir, const char *key, size_t keylen);

/* KEY's binary: CB_OK with *BIN (owned by the caller) and *LEN; CB_ERR_INPUT when there is no
 * entry (ERR's code ENOENT), or the entry is of another key, damaged or too large (ERR says
 * which). */
cb_rc cb_progcache_load(const char *dir, const char *key, size_t keylen, unsigned char **bin,
			size_t *len, cb_error *err);

/* Keeps BIN under KEY, creating DIR (and its parent, not more; mode 0700) if needed: CB_OK, or
 * CB_ERR_IO. */
cb_rc cb_progcache_store(const char *dir, const char *key, size_t keylen, const unsigned char *bin,
			 size_t len, cb_error *err);

#endif
