/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/progcache.h"
#include "core/readfile.h"
#include "core/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAGIC "clbanks program cache 2\n"

char *cb_progcache_dir(void)
{
	const char *d = getenv("CLBANKS_CACHE_DIR");
	if (d)
		return *d && strcmp(d, "off") != 0 ? cb_xstrdup(d) : NULL;
	const char *base = getenv("XDG_CACHE_HOME"), *sub = "/clbanks";
	/* The XDG rule: a relative XDG_CACHE_HOME is ignored. */
	if (!base || base[0] != '/') {
		base = getenv("HOME");
		sub = "/.cache/clbanks";
	}
	if (!base || !*base)
		return NULL;
	size_t n = strlen(base) + strlen(sub) + 1;
	char *dir = cb_xmalloc(n);
	snprintf(dir, n, "%s%s", base, sub);
	return dir;
}

/* FNV-1a, 64 bits: an entry's file name (the key is compared whole) and its binary's checksum
 * (a damaged binary is not handed to the driver). */
static uint64_t key_hash(const void *bytes, size_t n)
{
	const unsigned char *p = bytes;
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

char *cb_progcache_path(const char *dir, const char *key, size_t keylen)
{
	size_t n = strlen(dir) + 24;
	char *path = cb_xmalloc(n);
	snprintf(path, n, "%s/%016llx.bin", dir, (unsigned long long)key_hash(key, keylen));
	return path;
}

cb_rc cb_progcache_load(const char *dir, const char *key, size_t keylen, unsigned char **bin,
			size_t *len, cb_error *err)
{
	char *path = cb_progcache_path(dir, key, keylen), *data = NULL;
	size_t size = 0, klen = 0, blen = 0, m = strlen(MAGIC);
	unsigned long long sum = 0;
	*bin = NULL;
	*len = 0;
	/* A binary runs as the user's own code: in a shared folder another user's file, whose key
	 * is no secret, is not taken, nor one behind a link. */
	cb_rc rc = cb_read_file(path, CB_PROGCACHE_MAX_BYTES + keylen + 128,
				CB_READ_REGULAR_ONLY | CB_READ_OWN_FILE, &data, &size, err);
	if (rc != CB_OK && err && err->code == ENOENT)
		rc = cb_error_call(err, CB_ERR_INPUT, "open", ENOENT, "no entry %s", path);
	if (rc == CB_ERR_IO) { /* an entry that cannot be read is a miss like any other */
		rc = CB_ERR_INPUT;
		if (err)
			err->rc = rc;
	}
	const char *nl = rc == CB_OK && size > m ? memchr(data + m, '\n', size - m) : NULL;
	char tail;
	if (rc != CB_OK) {
		/* said by cb_read_file */
	} else if (!nl || memcmp(data, MAGIC, m) != 0 ||
		   sscanf(data + m, "%zu %zu %16llx%c", &klen, &blen, &sum, &tail) != 4 ||
		   tail != '\n' || klen != keylen || blen == 0 || blen > CB_PROGCACHE_MAX_BYTES ||
		   (size_t)(nl + 1 - data) + klen + blen != size) {
		rc = cb_error_set(err, CB_ERR_INPUT,
				  "%s is not a program cache entry of this "
				  "version (or it was cut short)",
				  path);
	} else if (memcmp(nl + 1, key, keylen) != 0) {
		rc = cb_error_set(err, CB_ERR_INPUT, "%s holds another program", path);
	} else if (key_hash(nl + 1 + klen, blen) != sum) {
		rc = cb_error_set(err, CB_ERR_INPUT, "%s: the binary does not match its checksum",
				  path);
	} else {
		*bin = cb_xmalloc(blen);
		memcpy(*bin, nl + 1 + klen, blen);
		*len = blen;
	}
	free(data);
	free(path);
	return rc;
}

/* DIR, and its parent if that is missing too (~/.cache), mode 0700; never more: a missing
 * $HOME or $XDG_CACHE_HOME is not made. */
static int make_dirs(const char *dir)
{
	if (mkdir(dir, 0700) == 0 || errno == EEXIST)
		return 0;
	char *parent = cb_xstrdup(dir), *slash = strrchr(parent, '/');
	int r = -1;
	if (errno == ENOENT && slash && slash != parent) {
		*slash = '\0';
		if (mkdir(parent, 0700) == 0 || errno == EEXIST)
			r = mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
	}
	int e = errno;
	free(parent);
	errno = e;
	return r;
}

/* Removes DIR's temporary files older than an hour: what a store stopped by SIGKILL or a
 * second Ctrl-C between its mkstemp and its rename left. */
static void remove_stale_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	time_t now = time(NULL);
	while (d && (ent = readdir(d)) != NULL) {
		char path[4096];
		struct stat sb;
		if (strncmp(ent->d_name, ".new.", 5) != 0 ||
		    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name) >= (int)sizeof path)
			continue;
		if (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid() &&
		    now - sb.st_mtime > 3600)
			unlink(path);
	}
	if (d)
		closedir(d);
}

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

cb_rc cb_progcache_store(const char *dir, const char *key, size_t keylen, const unsigned char *bin,
			 size_t len, cb_error *err)
{
	if (len == 0 || len > CB_PROGCACHE_MAX_BYTES)
		return cb_error_set(err, CB_ERR_IO, "a program binary of %zu bytes is not kept",
				    len);
	if (make_dirs(dir) != 0)
		return cb_error_call(err, CB_ERR_IO, "mkdir", errno, "cannot create %s", dir);
	remove_stale_temps(dir);
	char *path = cb_progcache_path(dir, key, keylen);
	size_t n = strlen(dir) + 16;
	char *tmp = cb_xmalloc(n), head[64];
	snprintf(tmp, n, "%s/.new.XXXXXX", dir);
	cb_rc rc = CB_OK;
	int fd = mkstemp(tmp);
	if (fd < 0) {
		rc = cb_error_call(err, CB_ERR_IO, "mkstemp", errno, "cannot write into %s", dir);
	} else {
		int hn = snprintf(head, sizeof head, "%zu %zu %016llx\n", keylen, len,
				  (unsigned long long)key_hash(bin, len));
		int bad = write_all(fd, MAGIC, strlen(MAGIC)) || write_all(fd, head, (size_t)hn) ||
			  write_all(fd, key, keylen) || write_all(fd, bin, len);
		int e = errno;
		bad |= close(fd) != 0;
		/* A concurrent run may store the same entry: either file is whole. */
		if (bad || rename(tmp, path) != 0) {
			rc = cb_error_call(err, CB_ERR_IO, bad ? "write" : "rename",
					   bad ? e : errno, "cannot write %s", path);
			unlink(tmp);
		}
	}
	free(tmp);
	free(path);
	return rc;
}
