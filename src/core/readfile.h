/* SPDX-License-Identifier: MIT */
/* Reading an input whole, with a size cap for every kind of input (regular files, pipes,
 * FIFOs, devices, standard input), so that no input can exhaust memory, and with a stop
 * signal honoured while blocked. */
#ifndef CB_READFILE_H
#define CB_READFILE_H

#include "core/error.h"

#include <stddef.h>

enum {
	CB_READ_REGULAR_ONLY = 1, /* refuse anything but a regular file */
	CB_READ_TEXT = 2,         /* refuse binary data (a NUL byte) as soon as it is seen */
	CB_READ_OWN_FILE = 4      /* not through a symbolic link, and only a file of this user
				   * (checked on the open file: nothing can be swapped in) */
};

/* Reads PATH ("-" = standard input) into *DATA (NUL-terminated, owned by the caller), at most
 * CAP bytes. Errors:
 * CB_ERR_INPUT (missing, unreadable, a directory, too large, binary), CB_ERR_IO (a read
 * failed), CB_ERR_INTERRUPTED. */
cb_rc cb_read_file(const char *path, size_t cap, unsigned flags, char **data, size_t *len,
		   cb_error *err);

#endif
