/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* renameat2 where the C library has it */
#include "config.h"
#include "cli/outfile.h"
#include "cli/signals.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cb_membuf_open(cb_membuf *b)
{
	memset(b, 0, sizeof *b);
	b->fp = open_memstream(&b->data, &b->len);
	return b->fp != NULL;
}

cb_rc cb_membuf_finish(cb_membuf *b, cb_error *err)
{
	bool bad = ferror(b->fp) != 0;
	if (fclose(b->fp) != 0)
		bad = true;
	b->fp = NULL;
	if (bad)
		return cb_error_set(err, CB_ERR_NOMEM, "out of memory while formatting the output");
	return CB_OK;
}

void cb_membuf_free(cb_membuf *b)
{
	if (b->fp)
		fclose(b->fp);
	free(b->data);
	memset(b, 0, sizeof *b);
}

static bool is_stdout(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

/* The directory part of PATH ("." when it has none); owned by the caller. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return cb_xstrdup(".");
	if (slash == path)
		return cb_xstrdup("/");
	char *d = cb_xmalloc((size_t)(slash - path) + 1);
	memcpy(d, path, (size_t)(slash - path));
	d[slash - path] = '\0';
	return d;
}

static cb_rc check_dir(const char *path, cb_error *err)
{
	char *dir = dir_of(path);
	struct stat st;
	cb_rc rc = CB_OK;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		rc = cb_error_set(err, CB_ERR_USAGE, "cannot write '%s': directory '%s' does not exist",
				  path, dir);
	else if (access(dir, W_OK | X_OK) != 0)
		rc = cb_error_set(err, CB_ERR_USAGE, "cannot write '%s': directory '%s' is not writable "
				  "(%s)", path, dir, strerror(errno));
	free(dir);
	return rc;
}

/* The file a path names: itself, or the file a symbolic link points to. Owned by the caller. */
static char *resolve(const char *path)
{
	struct stat ls, st;
	if (lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode) && stat(path, &st) == 0) {
		char *real = realpath(path, NULL);
		if (real)
			return real;
	}
	return cb_xstrdup(path);
}

cb_rc cb_output_check(const char *path, bool force, cb_error *err)
{
	if (path && !*path)
		return cb_error_set(err, CB_ERR_USAGE, "the output file name is empty");
	if (is_stdout(path))
		return CB_OK;
	struct stat ls, st;
	if (lstat(path, &ls) != 0) {
		if (errno != ENOENT)
			return cb_error_set(err, CB_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
		return check_dir(path, err);
	}
	if (stat(path, &st) != 0) {
		/* A dangling symbolic link: replacing it is replacing a file. */
		if (!force)
			return cb_error_set(err, CB_ERR_USAGE, "output file '%s' exists (a dangling symbolic "
					    "link); use --force to replace it", path);
		return check_dir(path, err);
	}
	if (S_ISDIR(st.st_mode))
		return cb_error_set(err, CB_ERR_USAGE, "output path '%s' is a directory", path);
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		if (access(path, W_OK) != 0)
			return cb_error_set(err, CB_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
		return CB_OK;
	}
	if (!S_ISREG(st.st_mode))
		return cb_error_set(err, CB_ERR_USAGE, "output path '%s' is not a regular file, FIFO or "
				    "character device; not written", path);
	if (!force)
		return cb_error_set(err, CB_ERR_USAGE, "output file '%s' exists; use --force to replace it",
				    path);
	/* A symbolic link's target is what gets replaced: its directory must be writable. */
	char *target = resolve(path);
	cb_rc rc = check_dir(target, err);
	free(target);
	return rc;
}

static cb_rc write_all(int fd, const char *data, size_t len, const char *name, cb_error *err)
{
	while (len > 0) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return cb_error_call(err, CB_ERR_IO, "write", errno, "cannot write '%s': %s", name,
					     w < 0 ? strerror(errno) : "no progress");
		data += w;
		len -= (size_t)w;
	}
	return CB_OK;
}

/* A FIFO or a character device: written in place, never created, replaced or removed. */
static cb_rc write_in_place(const char *path, const char *data, size_t len, cb_error *err)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return cb_error_call(err, CB_ERR_IO, "open", errno, "cannot write '%s': %s", path,
				     strerror(errno));
	cb_rc rc = write_all(fd, data, len, path, err);
	if (close(fd) != 0 && rc == CB_OK)
		rc = cb_error_call(err, CB_ERR_IO, "close", errno, "cannot write '%s': %s", path,
				   strerror(errno));
	return rc;
}

/* Publishes TMP as TARGET unless TARGET exists by now. */
static int link_noreplace(const char *tmp, const char *target)
{
	if (link(tmp, target) == 0)
		return unlink(tmp), 0;
	if (errno == EEXIST)
		return -1;
#ifdef RENAME_NOREPLACE
	/* File systems without hard links (FAT, some network ones). */
	return renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_NOREPLACE);
#else
	return -1;
#endif
}

/* A temporary file in TARGET's directory with DATA in it and MODE, synced; its path in *TMP. */
static cb_rc write_temp(const char *target, const char *data, size_t len, mode_t mode, char **tmp,
			cb_error *err)
{
	char *dir = dir_of(target);
	size_t n = strlen(dir) + 20;
	*tmp = cb_xmalloc(n);
	/* A short name: a target name of NAME_MAX bytes still leaves room for it. */
	snprintf(*tmp, n, "%s/.clbanks-XXXXXX", dir);
	free(dir);
	cb_signals_set_tempfile(*tmp);
	int fd = mkstemp(*tmp);
	if (fd < 0) {
		cb_signals_set_tempfile(NULL);
		return cb_error_call(err, CB_ERR_IO, "mkstemp", errno, "cannot write '%s': %s", target,
				     strerror(errno));
	}
	cb_signals_set_tempfile(*tmp);
	fchmod(fd, mode);
	cb_rc rc = write_all(fd, data, len, target, err);
	if (rc == CB_OK && fsync(fd) != 0)
		rc = cb_error_call(err, CB_ERR_IO, "fsync", errno, "cannot write '%s': %s", target,
				   strerror(errno));
	if (close(fd) != 0 && rc == CB_OK)
		rc = cb_error_call(err, CB_ERR_IO, "close", errno, "cannot write '%s': %s", target,
				   strerror(errno));
	return rc;
}

static cb_rc commit_file(const char *path, bool force, const char *data, size_t len, cb_error *err)
{
	char *target = resolve(path), *tmp = NULL;
	struct stat ls;
	bool existed = lstat(target, &ls) == 0;
	if (existed && !force) {
		/* cb_output_check() found no file when the command started. */
		free(target);
		return cb_error_set(err, CB_ERR_USAGE, "'%s' appeared while clbanks was working; not "
				    "replaced (use --force)", path);
	}
	/* mkstemp makes 0600: a new result is an ordinary file, a replaced one keeps its mode. */
	mode_t mask = umask(0);
	umask(mask);
	mode_t mode = existed && S_ISREG(ls.st_mode) ? ls.st_mode & 0777 : 0666 & ~mask;
	cb_rc rc = write_temp(target, data, len, mode, &tmp, err);
	if (rc == CB_OK)
		rc = cb_check_interrupt(err);
	if (rc == CB_OK) {
		int r = force ? rename(tmp, target) : link_noreplace(tmp, target);
		if (r != 0 && !force && errno == EEXIST)
			rc = cb_error_set(err, CB_ERR_USAGE, "'%s' appeared while clbanks was working; not "
					  "replaced (use --force)", path);
		else if (r != 0)
			rc = cb_error_call(err, CB_ERR_IO, "rename", errno, "cannot write '%s': %s", path,
					   strerror(errno));
	}
	if (rc != CB_OK || !force)
		unlink(tmp); /* after a failure, or the second name of a link() */
	cb_signals_set_tempfile(NULL);
	free(tmp);
	free(target);
	return rc;
}

cb_rc cb_output_commit(const char *path, bool force, const char *data, size_t len, cb_error *err)
{
	if (is_stdout(path)) {
		if ((len && fwrite(data, 1, len, stdout) != len) || fflush(stdout) != 0)
			return cb_error_call(err, CB_ERR_IO, "write", errno,
					     "write error on standard output: %s", strerror(errno));
		return CB_OK;
	}
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
			return write_in_place(path, data, len, err);
		if (!S_ISREG(st.st_mode))
			return cb_output_check(path, force, err);
	}
	return commit_file(path, force, data, len, err);
}

cb_rc cb_stdout_close(cb_error *err)
{
	errno = 0;
	bool bad = fflush(stdout) != 0;
	bad |= ferror(stdout) != 0;
	int saved = errno;
	if (fclose(stdout) != 0 && !bad) {
		bad = true;
		saved = errno;
	}
	if (bad)
		return cb_error_call(err, CB_ERR_IO, "write", saved, "write error on standard output: %s",
				     saved ? strerror(saved) : "an earlier write failed");
	return CB_OK;
}
