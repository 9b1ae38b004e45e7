/* SPDX-License-Identifier: MIT */
/*
 * Output, written only when it is complete. A command formats its result into memory
 * (cb_membuf), then commits it in one step:
 *   - "-" (or no path): standard output, every write checked;
 *   - a path that names one of this process's descriptors (/dev/stdout, /dev/stderr, /dev/fd/N,
 *     /proc/self/fd/N, or a symbolic link to one): written to that descriptor, like "-";
 *   - an existing FIFO or character device (also through a symbolic link, e.g. /dev/null):
 *     with --force only, written in place, never replaced or removed; a symbolic link or FIFO
 *     of another user in a sticky world-writable directory (/tmp) is refused, as the kernel's
 *     protected_symlinks and protected_fifos rules do;
 *   - a regular file (new, or existing with --force, also through a symbolic link): a short
 *     temporary file in the same directory, fsync, then an atomic rename; a new file is
 *     published without replacing one that appeared meanwhile. The signals that would end the
 *     process without removing the temporary file are held back until it is gone.
 * Readers of the final path see nothing or a complete file -- also after a failure or a signal.
 * cb_output_check() applies the same rules before any long work, so a bad path fails fast.
 */
#ifndef CB_OUTFILE_H
#define CB_OUTFILE_H

#include "core/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
	FILE *fp;   /* format into this */
	char *data; /* after cb_membuf_finish */
	size_t len;
} cb_membuf;

/* Opens an in-memory stream. Returns false only when out of memory. */
bool cb_membuf_open(cb_membuf *b);
/* Closes the stream; the text is then in b->data (NUL-terminated), b->len bytes. */
cb_rc cb_membuf_finish(cb_membuf *b, cb_error *err);
void cb_membuf_free(cb_membuf *b);

/* Is PATH ("-" = standard output) a place this command may write to? */
cb_rc cb_output_check(const char *path, bool force, cb_error *err);
/* Writes DATA to PATH by the rules above. */
cb_rc cb_output_commit(const char *path, bool force, const char *data, size_t len, cb_error *err);
/* cb_output_commit for a result that is expensive to make again (a measurement): when it cannot
 * be written (a write error, a directory removed, a file that appeared meanwhile), it is kept
 * in a new file, PATH.clbanks-PID beside it or $TMPDIR/clbanks-PID-NAME, named in ERR. */
cb_rc cb_output_commit_kept(const char *path, bool force, const char *data, size_t len,
			    cb_error *err);
/* Flushes and closes standard output, reporting any write error of the whole process. */
cb_rc cb_stdout_close(cb_error *err);

#endif
