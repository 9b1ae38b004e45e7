/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/readfile.h"
#include "core/util.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* *SIZE: a regular file's size (the first buffer read_all takes), else 0. */
static cb_rc open_input(const char *path, const char *name, unsigned flags, size_t cap, int *fd,
			size_t *size, cb_error *err)
{
	static bool stdin_taken;
	struct stat st;
	if (strcmp(path, "-") == 0 && stdin_taken)
		/* Its end was read: a second '-' would read nothing (before: "invalid JSON ... near
		 * end of file" for a document that is fine). */
		return cb_error_set(err, CB_ERR_USAGE,
				    "standard input is read once, and '-' was "
				    "given before; give the other documents as files");
	if (strcmp(path, "-") == 0)
		stdin_taken = true;
	if (strcmp(path, "-") == 0)
		*fd = STDIN_FILENO;
	else if ((flags & CB_READ_REGULAR_ONLY) && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		/* Refused unopened: opening a FIFO for reading blocks until a writer comes. */
		return cb_error_set(err, CB_ERR_INPUT, "%s: %s", name,
				    S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
	else {
		/* A regular file reads the same without blocking; a FIFO swapped in after the
		 * stat() is then opened without waiting, and refused below. */
		int nonblock = (flags & CB_READ_REGULAR_ONLY) ? O_NONBLOCK : 0;
		int nofollow = (flags & CB_READ_OWN_FILE) ? O_NOFOLLOW : 0;
		/* open() of a FIFO blocks until a writer comes; a stop signal ends the wait. */
		while ((*fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | nonblock | nofollow)) <
			       0 &&
		       errno == EINTR)
			if (cb_check_interrupt(err) != CB_OK)
				return CB_ERR_INTERRUPTED;
		if (*fd < 0)
			return cb_error_call(err, CB_ERR_INPUT, "open", errno, "%s: %s", name,
					     strerror(errno));
	}
	if (fstat(*fd, &st) != 0)
		return cb_error_call(err, CB_ERR_IO, "fstat", errno, "%s: %s", name,
				     strerror(errno));
	if (S_ISDIR(st.st_mode))
		return cb_error_set(err, CB_ERR_INPUT, "%s: is a directory", name);
	if ((flags & CB_READ_REGULAR_ONLY) && !S_ISREG(st.st_mode))
		return cb_error_set(err, CB_ERR_INPUT, "%s: not a regular file", name);
	if ((flags & CB_READ_OWN_FILE) && st.st_uid != geteuid())
		return cb_error_set(err, CB_ERR_INPUT, "%s: belongs to another user; not used",
				    name);
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > cap)
		return cb_error_set(err, CB_ERR_INPUT, "%s: too large (%lld bytes; at most %zu)",
				    name, (long long)st.st_size, cap);
	*size = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size : 0;
	return CB_OK;
}

/* A regular file's buffer is its size and one byte from the start (no doubling and copying of
 * a 20 MB document; the byte sees the end, or a file that grew); else 64 KiB, doubled. */
static cb_rc read_all(int fd, const char *name, size_t cap, unsigned flags, size_t hint,
		      char **data, size_t *len, cb_error *err)
{
	size_t size = 0, alloc = hint ? hint + 1 : 65536;
	char *buf = cb_xmalloc(alloc + 1);
	for (;;) {
		if (size == alloc) {
			if (alloc > cap) {
				free(buf);
				return cb_error_set(err, CB_ERR_INPUT,
						    "%s: too large (more than %zu bytes)", name,
						    cap);
			}
			alloc *= 2;
			buf = cb_xrealloc(buf, alloc + 1);
		}
		ssize_t r = read(fd, buf + size, alloc - size);
		if (r < 0 && errno == EINTR) {
			if (cb_check_interrupt(err) == CB_OK)
				continue;
			free(buf);
			return CB_ERR_INTERRUPTED;
		}
		if (r < 0) {
			int e = errno;
			free(buf);
			return cb_error_call(err, e == EISDIR ? CB_ERR_INPUT : CB_ERR_IO, "read", e,
					     "%s: %s", name, strerror(e));
		}
		if (r == 0)
			break;
		const char *nul = (flags & CB_READ_TEXT) ? memchr(buf + size, '\0', (size_t)r)
							 : NULL;
		if (nul) {
			size_t at = (size_t)(nul - buf);
			free(buf);
			return cb_error_set(err, CB_ERR_INPUT,
					    "%s: binary data (a NUL byte at offset %zu), not text",
					    name, at);
		}
		size += (size_t)r;
		if (size > cap) {
			free(buf);
			return cb_error_set(err, CB_ERR_INPUT,
					    "%s: too large (more than %zu bytes)", name, cap);
		}
	}
	buf[size] = '\0';
	*data = buf;
	*len = size;
	return CB_OK;
}

cb_rc cb_read_file(const char *path, size_t cap, unsigned flags, char **data, size_t *len,
		   cb_error *err)
{
	const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
	int fd = -1;
	size_t hint = 0;
	*data = NULL;
	*len = 0;
	cb_rc rc = open_input(path, name, flags, cap, &fd, &hint, err);
	if (rc == CB_OK)
		rc = read_all(fd, name, cap, flags, hint, data, len, err);
	if (fd > STDIN_FILENO)
		close(fd);
	return rc;
}
