/* SPDX-License-Identifier: MIT */
/* Atomic output: a temporary file beside the destination, fsync, rename. Readers of the final
 * path see nothing or a complete file, never a partial one -- also after a failure or a signal. */
#ifndef CB_OUTFILE_H
#define CB_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
	char *path;     /* final path; NULL or "-" means stdout */
	char *tmp;      /* temporary path while open */
	FILE *fp;
} cb_outfile;

/* Opens PATH for writing ("-" or NULL = stdout). Fails (message, false) when PATH exists and
 * FORCE is not set, when its directory is missing or not writable. Checked before any long
 * work so that a bad path fails fast. */
bool cb_outfile_open(cb_outfile *o, const char *path, bool force);
/* Flushes, syncs and renames into place. Returns false after a message on any failure (the
 * temporary file is removed then). */
bool cb_outfile_commit(cb_outfile *o);
/* Removes the temporary file without touching the destination. Safe to call twice. */
void cb_outfile_abort(cb_outfile *o);

#endif
