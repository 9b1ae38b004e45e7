/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* renameat2 where the C library has it */
#include "config.h"
#include "cli/outfile.h"
#include "cli/signals.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
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
		rc = cb_error_set(err, CB_ERR_USAGE,
				  "cannot write '%s': directory '%s' does not exist", path, dir);
	else if (access(dir, W_OK | X_OK) != 0)
		rc = cb_error_set(err, CB_ERR_USAGE,
				  "cannot write '%s': directory '%s' is not writable (%s)", path,
				  dir, strerror(errno));
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

/* N when S is a descriptor number (digits only), else -1. */
static int fd_number(const char *s)
{
	long v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (*s - '0')) > INT_MAX)
			return -1;
	}
	return (int)v;
}

/* The descriptor PATH names when its directory is this process's descriptor folder
 * (/proc/self/fd, /proc/PID/fd, /proc/PID/task/TID/fd, /dev/fd), else -1. */
static int fd_of_name(const char *path)
{
	char *dir = dir_of(path), *real = realpath(dir, NULL);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int fd = -1, pid = -1, tid, len = 0;
	if (real && (strcmp(real, "/proc/self/fd") == 0 || strcmp(real, "/dev/fd") == 0))
		fd = fd_number(base);
	else if (real &&
		 ((sscanf(real, "/proc/%d/fd%n", &pid, &len) == 1 && !real[len]) ||
		  (sscanf(real, "/proc/%d/task/%d/fd%n", &pid, &tid, &len) == 2 && !real[len])) &&
		 pid == (int)getpid())
		fd = fd_number(base);
	free(real);
	free(dir);
	return fd;
}

/* The descriptor of this process that PATH names, also through symbolic links (/dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N, a link to one), or -1. Such a path is written as
 * that descriptor: following it to the file behind would replace what the shell wrote there. */
static int own_descriptor(const char *path)
{
	char *p = cb_xstrdup(path);
	int fd = -1;
	for (int hops = 0; hops < 40 && (fd = fd_of_name(p)) < 0; hops++) {
		struct stat ls;
		char target[PATH_MAX];
		ssize_t n;
		if (lstat(p, &ls) != 0 || !S_ISLNK(ls.st_mode) ||
		    (n = readlink(p, target, sizeof target - 1)) <= 0)
			break;
		target[n] = '\0';
		char *dir = dir_of(p), *next;
		if (target[0] == '/') {
			next = cb_xstrdup(target);
		} else {
			next = cb_xmalloc(strlen(dir) + (size_t)n + 2);
			sprintf(next, "%s/%s", dir, target);
		}
		free(dir);
		free(p);
		p = next;
	}
	free(p);
	return fd;
}

/* Is descriptor FD open for writing? */
static cb_rc check_descriptor(const char *path, int fd, cb_error *err)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return cb_error_set(err, CB_ERR_USAGE,
				    "cannot write '%s': descriptor %d is not open", path, fd);
	if ((fl & O_ACCMODE) == O_RDONLY)
		return cb_error_set(err, CB_ERR_USAGE,
				    "cannot write '%s': descriptor %d is not open for writing",
				    path, fd);
	return CB_OK;
}

/* The kernel's protected_symlinks and protected_fifos rules, whatever the system's settings:
 * in a sticky world-writable directory (/tmp), a symbolic link or FIFO that another user owns
 * (neither this user nor the directory's owner) was planted there; it is not followed or
 * opened. */
static cb_rc check_planted(const char *path, cb_error *err)
{
	struct stat ls, ds;
	char *dir = dir_of(path);
	bool planted = lstat(path, &ls) == 0 && (S_ISLNK(ls.st_mode) || S_ISFIFO(ls.st_mode)) &&
		       stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) && (ds.st_mode & S_IWOTH) &&
		       ls.st_uid != geteuid() && ls.st_uid != ds.st_uid;
	cb_rc rc = CB_OK;
	if (planted)
		rc = cb_error_set(err, CB_ERR_USAGE,
				  "output '%s' is a %s of another user (uid %u) in "
				  "the shared directory '%s'; not %s, even with --force",
				  path, S_ISLNK(ls.st_mode) ? "symbolic link" : "FIFO",
				  (unsigned)ls.st_uid, dir,
				  S_ISLNK(ls.st_mode) ? "followed" : "opened");
	free(dir);
	return rc;
}

/* An existing FIFO or character device: written in place with --force only. */
static cb_rc check_special(const char *path, const struct stat *st, bool force, cb_error *err)
{
	if (!force)
		return cb_error_set(err, CB_ERR_USAGE,
				    "output '%s' exists (a %s); use --force to write into it", path,
				    S_ISFIFO(st->st_mode) ? "FIFO" : "character device");
	if (access(path, W_OK) != 0)
		return cb_error_set(err, CB_ERR_USAGE, "cannot write '%s': %s", path,
				    strerror(errno));
	return CB_OK;
}

cb_rc cb_output_check(const char *path, bool force, cb_error *err)
{
	if (path && !*path)
		return cb_error_set(err, CB_ERR_USAGE, "the output file name is empty");
	if (is_stdout(path))
		return CB_OK;
	int fd = own_descriptor(path);
	if (fd >= 0)
		return check_descriptor(path, fd, err);
	cb_rc rc = check_planted(path, err);
	if (rc != CB_OK)
		return rc;
	struct stat ls, st;
	if (lstat(path, &ls) != 0) {
		if (errno != ENOENT)
			return cb_error_set(err, CB_ERR_USAGE, "cannot write '%s': %s", path,
					    strerror(errno));
		return check_dir(path, err);
	}
	if (stat(path, &st) != 0) {
		/* A dangling symbolic link: replacing it is replacing a file. */
		if (!force)
			return cb_error_set(err, CB_ERR_USAGE,
					    "output file '%s' exists (a dangling symbolic "
					    "link); use --force to replace it",
					    path);
		return check_dir(path, err);
	}
	if (S_ISDIR(st.st_mode))
		return cb_error_set(err, CB_ERR_USAGE, "output path '%s' is a directory", path);
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
		return check_special(path, &st, force, err);
	if (!S_ISREG(st.st_mode))
		return cb_error_set(err, CB_ERR_USAGE,
				    "output path '%s' is not a regular file, FIFO or "
				    "character device; not written",
				    path);
	if (!force)
		return cb_error_set(err, CB_ERR_USAGE,
				    "output file '%s' exists; use --force to replace it", path);
	/* A symbolic link's target is what gets replaced: its directory must be writable. */
	char *target = resolve(path);
	rc = check_dir(target, err);
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
			return cb_error_call(err, CB_ERR_IO, "write", errno,
					     "cannot write '%s': %s", name,
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
		int e = errno;
		cb_signals_set_tempfile(NULL);
		free(*tmp);
		*tmp = NULL; /* no file of ours to remove */
		return cb_error_call(err, CB_ERR_IO, "mkstemp", e, "cannot write '%s': %s", target,
				     strerror(e));
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

/* Signals that end a process by default and that clbanks does not handle (the stop signals
 * remove the temporary file themselves): held back while a temporary file has a name, so that
 * none can leave it behind; one that came acts once the file is published or removed. */
static void hold_signals(sigset_t *old)
{
	static const int held[] = {
		SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGPIPE,
#ifdef SIGIO
		SIGIO,
#endif
#ifdef SIGPWR
		SIGPWR,
#endif
	};
	sigset_t s;
	sigemptyset(&s);
	for (size_t i = 0; i < sizeof held / sizeof *held; i++)
		sigaddset(&s, held[i]);
	sigprocmask(SIG_BLOCK, &s, old);
}

static cb_rc appeared(const char *path, cb_error *err)
{
	/* cb_output_check() found no file when the command started. */
	return cb_error_set(err, CB_ERR_USAGE,
			    "'%s' appeared while clbanks was working; not replaced (use --force)",
			    path);
}

static cb_rc commit_file(const char *path, bool force, const char *data, size_t len, cb_error *err)
{
	char *target = resolve(path), *tmp = NULL;
	struct stat ls;
	bool existed = lstat(target, &ls) == 0;
	if (existed && !force) {
		free(target);
		return appeared(path, err);
	}
	/* mkstemp makes 0600: a new result is an ordinary file, a replaced one keeps its mode. */
	mode_t mask = umask(0);
	umask(mask);
	mode_t mode = existed && S_ISREG(ls.st_mode) ? ls.st_mode & 0777 : 0666 & ~mask;
	sigset_t old;
	hold_signals(&old);
	cb_rc rc = write_temp(target, data, len, mode, &tmp, err);
	if (rc == CB_OK)
		rc = cb_check_interrupt(err);
	if (rc == CB_OK) {
		int r = force ? rename(tmp, target) : link_noreplace(tmp, target);
		if (r != 0 && !force && errno == EEXIST)
			rc = appeared(path, err);
		else if (r != 0)
			rc = cb_error_call(err, CB_ERR_IO, "rename", errno, "cannot write '%s': %s",
					   path, strerror(errno));
	}
	if (tmp && (rc != CB_OK || !force))
		unlink(tmp); /* after a failure, or the second name of a link() */
	cb_signals_set_tempfile(NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(tmp);
	free(target);
	return rc;
}

/* One of this process's descriptors, as the shell set it up: written where it stands. */
static cb_rc write_descriptor(const char *path, int fd, const char *data, size_t len, cb_error *err)
{
	cb_rc rc = check_descriptor(path, fd, err);
	if (rc != CB_OK)
		return rc;
	/* What clbanks itself wrote there comes first. */
	if (fflush(fd == STDERR_FILENO ? stderr : stdout) != 0 && fd == STDOUT_FILENO)
		return cb_error_call(err, CB_ERR_IO, "write", errno, "cannot write '%s': %s", path,
				     strerror(errno));
	return write_all(fd, data, len, path, err);
}

static cb_rc commit(const char *path, bool force, const char *data, size_t len, cb_error *err)
{
	if (is_stdout(path)) {
		if ((len && fwrite(data, 1, len, stdout) != len) || fflush(stdout) != 0)
			return cb_error_call(err, CB_ERR_IO, "write", errno,
					     "write error on standard output: %s", strerror(errno));
		return CB_OK;
	}
	int fd = own_descriptor(path);
	if (fd >= 0)
		return write_descriptor(path, fd, data, len, err);
	cb_rc rc = check_planted(path, err);
	if (rc != CB_OK)
		return rc;
	struct stat st;
	if (stat(path, &st) == 0) {
		if ((S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) && !force)
			return appeared(path, err);
		if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
			return write_in_place(path, data, len, err);
		if (!S_ISREG(st.st_mode))
			return cb_output_check(path, force, err);
	}
	return commit_file(path, force, data, len, err);
}

cb_rc cb_output_commit(const char *path, bool force, const char *data, size_t len, cb_error *err)
{
	return commit(path, force, data, len, err);
}

/* A new file NAME (never an existing one) with DATA, synced; false when it could not be made. */
static bool keep_in(const char *name, const char *data, size_t len)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		return false;
	cb_error ignored;
	bool ok = write_all(fd, data, len, name, &ignored) == CB_OK && fsync(fd) == 0;
	ok &= close(fd) == 0;
	if (!ok)
		unlink(name);
	return ok;
}

/* Where a result that could not be written is kept: PATH.clbanks-PID beside a regular file,
 * else $TMPDIR (or /tmp)/clbanks-PID-NAME. Returns the name (owned by the caller) or NULL. */
static char *keep_result(const char *path, const char *data, size_t len)
{
	sigset_t old;
	hold_signals(&old);
	char *name = NULL;
	struct stat st;
	const char *base = is_stdout(path)      ? "result"
			   : strrchr(path, '/') ? strrchr(path, '/') + 1
						: path;
	if (!is_stdout(path) && (stat(path, &st) != 0 || S_ISREG(st.st_mode))) {
		char *target = resolve(path);
		name = cb_xmalloc(strlen(target) + 32);
		sprintf(name, "%s.clbanks-%ld", target, (long)getpid());
		free(target);
		if (!keep_in(name, data, len)) {
			free(name);
			name = NULL;
		}
	}
	if (!name) {
		const char *tmpdir = getenv("TMPDIR");
		if (!tmpdir || tmpdir[0] != '/')
			tmpdir = "/tmp";
		name = cb_xmalloc(strlen(tmpdir) + strlen(base) + 40);
		sprintf(name, "%s/clbanks-%ld-%s", tmpdir, (long)getpid(), base);
		if (!keep_in(name, data, len)) {
			free(name);
			name = NULL;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return name;
}

cb_rc cb_output_commit_kept(const char *path, bool force, const char *data, size_t len,
			    cb_error *err)
{
	cb_rc rc = commit(path, force, data, len, err);
	if (rc == CB_OK || rc == CB_ERR_INTERRUPTED || cb_stop_signal || !len)
		return rc;
	char *kept = keep_result(path, data, len);
	char note[PATH_MAX + 64];
	if (kept)
		snprintf(note, sizeof note, "; the result is kept in '%s'", kept);
	else
		snprintf(note, sizeof note,
			 "; the result could not be kept elsewhere either (beside "
			 "it or in $TMPDIR)");
	size_t t = strlen(err->text);
	if (t + strlen(note) < sizeof err->text) {
		memcpy(err->text + t, note, strlen(note) + 1);
	} else {
		t = strlen(err->detail);
		snprintf(err->detail + t, sizeof err->detail - t, "%s%s", t ? "\n" : "", note + 2);
	}
	free(kept);
	return rc;
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
		return cb_error_call(err, CB_ERR_IO, "write", saved,
				     "write error on standard output: %s",
				     saved ? strerror(saved) : "an earlier write failed");
	return CB_OK;
}
