/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/progcache.h"
#include "core/readfile.h"
#include "core/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "clbanks program cache 1\n"

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

/* FNV-1a, 64 bits: a file name, not an identity (the key is compared whole). */
static uint64_t key_hash(const char *key, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)key[i];
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
	size_t size = 0, klen = 0, blen = 0;
	*bin = NULL;
	*len = 0;
	struct stat sb;
	if (stat(path, &sb) != 0 && errno == ENOENT) {
		cb_error_call(err, CB_ERR_INPUT, "stat", ENOENT, "no entry %s", path);
		free(path);
		return CB_ERR_INPUT;
	}
	/* A binary runs as the user's own code: another user's file in a shared folder is not
	 * taken (its key is no secret). */
	if (sb.st_uid != geteuid()) {
		cb_error_set(err, CB_ERR_INPUT, "%s belongs to another user; not used", path);
		free(path);
		return CB_ERR_INPUT;
	}
	cb_rc rc = cb_read_file(path, CB_PROGCACHE_MAX_BYTES + keylen + 64, CB_READ_REGULAR_ONLY,
				&data, &size, err);
	if (rc == CB_ERR_IO && err)
		err->rc = CB_ERR_INPUT;
	rc = rc == CB_ERR_IO ? CB_ERR_INPUT : rc;
	if (rc != CB_OK) {
		free(path);
		return rc;
	}
	size_t m = strlen(MAGIC);
	const char *nl = size > m ? memchr(data + m, '\n', size - m) : NULL;
	char tail;
	if (!nl || memcmp(data, MAGIC, m) != 0 ||
	    sscanf(data + m, "%zu %zu%c", &klen, &blen, &tail) != 3 || tail != '\n' ||
	    klen != keylen || blen == 0 || blen > CB_PROGCACHE_MAX_BYTES ||
	    (size_t)(nl + 1 - data) + klen + blen != size) {
		rc = cb_error_set(err, CB_ERR_INPUT,
				  "%s is not a program cache entry of this "
				  "version (or it was cut short)",
				  path);
	} else if (memcmp(nl + 1, key, keylen) != 0) {
		rc = cb_error_set(err, CB_ERR_INPUT, "%s holds another program", path);
	} else {
		*bin = cb_xmalloc(blen);
		memcpy(*bin, nl + 1 + klen, blen);
		*len = blen;
	}
	free(data);
	free(path);
	return rc;
}

/* DIR and its parents, as mkdir -p with mode 0700 for what it creates. */
static int make_dirs(const char *dir)
{
	char *p = cb_xstrdup(dir);
	int r = 0;
	for (char *s = p + 1; r == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			r = -1;
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return r;
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
	char *path = cb_progcache_path(dir, key, keylen);
	size_t n = strlen(dir) + 16;
	char *tmp = cb_xmalloc(n), head[64];
	snprintf(tmp, n, "%s/.new.XXXXXX", dir);
	cb_rc rc = CB_OK;
	int fd = mkstemp(tmp);
	if (fd < 0) {
		rc = cb_error_call(err, CB_ERR_IO, "mkstemp", errno, "cannot write into %s", dir);
	} else {
		int hn = snprintf(head, sizeof head, "%zu %zu\n", keylen, len);
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
