/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/outfile.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cb_outfile_open(cb_outfile *o, const char *path, bool force)
{
	memset(o, 0, sizeof *o);
	if (!path || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return true;
	}
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			cb_err("output path '%s' is a directory", path);
			return false;
		}
		if (!force) {
			cb_err("output file '%s' exists; use --force to replace it", path);
			return false;
		}
	}
	char *dcopy = cb_xstrdup(path);
	const char *dir = dirname(dcopy);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		cb_err("cannot write '%s': directory '%s' does not exist", path, dir);
		free(dcopy);
		return false;
	}
	free(dcopy);
	size_t n = strlen(path) + 16;
	o->tmp = cb_xmalloc(n);
	snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		cb_err("cannot write '%s': %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return false;
	}
	/* mkstemp makes 0600; results are ordinary files. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		cb_err("cannot write '%s': %s", path, strerror(errno));
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return false;
	}
	o->path = cb_xstrdup(path);
	return true;
}

bool cb_outfile_commit(cb_outfile *o)
{
	if (!o->fp)
		return false;
	if (o->fp == stdout) {
		o->fp = NULL;
		if (fflush(stdout) != 0 || ferror(stdout)) {
			cb_err("write error on standard output: %s", strerror(errno));
			return false;
		}
		return true;
	}
	bool ok = fflush(o->fp) == 0 && !ferror(o->fp) && fsync(fileno(o->fp)) == 0;
	int saved = errno;
	if (fclose(o->fp) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	o->fp = NULL;
	if (ok && rename(o->tmp, o->path) != 0) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		cb_err("cannot write '%s': %s", o->path, strerror(saved));
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return ok;
}

void cb_outfile_abort(cb_outfile *o)
{
	if (o->fp && o->fp != stdout)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}
