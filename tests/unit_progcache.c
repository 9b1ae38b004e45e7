/* SPDX-License-Identifier: MIT */
/* The program cache's files (measure/progcache.c): where the cache lives, an entry kept and
 * found again, and every entry that is not this key's whole binary is a miss, never a wrong
 * program. No OpenCL. */
#include "config.h"
#include "measure/progcache.h"
#include "core/util.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char tmp[64];

static void set(const char *name, const char *value)
{
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

static int dir_is(const char *want)
{
	char *got = cb_progcache_dir();
	int ok = (!want && !got) || (want && got && strcmp(got, want) == 0);
	if (!ok)
		tap_diag("cache dir '%s', expected '%s'", got ? got : "(none)",
			 want ? want : "(none)");
	free(got);
	return ok;
}

static void test_dir(void)
{
	set("CLBANKS_CACHE_DIR", "/x/cache");
	tap_ok(dir_is("/x/cache"), "CLBANKS_CACHE_DIR names the folder");
	set("CLBANKS_CACHE_DIR", "");
	tap_ok(dir_is(NULL), "an empty CLBANKS_CACHE_DIR turns the cache off");
	set("CLBANKS_CACHE_DIR", "off");
	tap_ok(dir_is(NULL), "CLBANKS_CACHE_DIR=off turns the cache off");
	set("CLBANKS_CACHE_DIR", NULL);
	set("XDG_CACHE_HOME", "/xdg");
	set("HOME", "/home/u");
	tap_ok(dir_is("/xdg/clbanks"), "else $XDG_CACHE_HOME/clbanks");
	set("XDG_CACHE_HOME", "relative");
	tap_ok(dir_is("/home/u/.cache/clbanks"), "a relative XDG_CACHE_HOME is ignored");
	set("XDG_CACHE_HOME", NULL);
	tap_ok(dir_is("/home/u/.cache/clbanks"), "else $HOME/.cache/clbanks");
	set("HOME", NULL);
	tap_ok(dir_is(NULL), "no HOME and no XDG_CACHE_HOME: no cache");
}

static void write_raw(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

/* Loads KEY and says whether it is a miss whose message holds WHAT. */
static int miss(const char *dir, const char *key, const char *what)
{
	unsigned char *bin = NULL;
	size_t len = 0;
	cb_error e = { 0 };
	cb_rc rc = cb_progcache_load(dir, key, strlen(key), &bin, &len, &e);
	int ok = rc == CB_ERR_INPUT && !bin && len == 0 && strstr(e.text, what);
	if (!ok)
		tap_diag("rc %d, len %zu, message '%s'", (int)rc, len, e.text);
	free(bin);
	return ok;
}

static void test_entries(void)
{
	char dir[128], path2[160];
	snprintf(dir, sizeof dir, "%s/a/b", tmp);
	const char *key = "platform: P\ndevice: D\n\n__kernel void k(void) {}";
	const unsigned char bin[] = { 0, 1, 2, 0xff, '\n', 0 };
	unsigned char *got = NULL;
	size_t len = 0;
	cb_error e = { 0 };

	cb_rc rc = cb_progcache_load(dir, key, strlen(key), &got, &len, &e);
	tap_ok(rc == CB_ERR_INPUT && e.code == ENOENT, "a key never kept: no entry (ENOENT)");
	rc = cb_progcache_store(dir, key, strlen(key), bin, sizeof bin, &e);
	tap_ok(rc == CB_OK, "an entry is kept, its folders created");
	struct stat sb;
	tap_ok(stat(dir, &sb) == 0 && (sb.st_mode & 0777) == 0700,
	       "a folder the cache creates is private (0700)");
	rc = cb_progcache_load(dir, key, strlen(key), &got, &len, &e);
	tap_ok(rc == CB_OK && len == sizeof bin && memcmp(got, bin, len) == 0,
	       "and found again, byte for byte (NUL and newline bytes too)");
	free(got);

	char *path = cb_progcache_path(dir, key, strlen(key));
	char *other = cb_xstrdup(key);
	other[strlen(other) - 2] = ';'; /* same length, another source */
	tap_ok(miss(dir, other, "no entry"), "another source is another entry");
	/* Another key's entry under this key's name (as a hash collision would leave it). */
	snprintf(path2, sizeof path2, "%s", path);
	cb_progcache_store(dir, other, strlen(other), bin, sizeof bin, &e);
	char *opath = cb_progcache_path(dir, other, strlen(other));
	tap_ok(rename(opath, path2) == 0 && miss(dir, key, "holds another program"),
	       "an entry of another key is a miss, never its program");

	/* Damaged entries: the text HEAD, then (KEYED) the sizes of this key and of a BLEN-byte
	 * binary, and the key, but no binary. */
	static const struct {
		const char *what, *head;
		int keyed;
		size_t blen;
		const char *message;
	} bad[] = {
		{ "an empty file", "", 0, 0, "not a program cache entry" },
		{ "another format", "clbanks program cache 2\n3 1\nabcX", 0, 0,
		  "not a program cache" },
		{ "a header without sizes", "clbanks program cache 1\nxyz\n", 0, 0,
		  "not a program cache" },
		{ "an entry cut short", "clbanks program cache 1\n", 1, 6, "cut short" },
		{ "an empty binary", "clbanks program cache 1\n", 1, 0, "not a program cache" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char data[256];
		int n = bad[i].keyed ? snprintf(data, sizeof data, "%s%zu %zu 0123456789abcdef\n%s",
						bad[i].head, strlen(key), bad[i].blen, key)
				     : snprintf(data, sizeof data, "%s", bad[i].head);
		write_raw(path, data, (size_t)n);
		tap_ok(miss(dir, key, bad[i].message), "%s is a miss", bad[i].what);
	}
	/* Whole, but another user's (as root the test can make it so). */
	cb_progcache_store(dir, key, strlen(key), bin, sizeof bin, &e);
	if (geteuid() == 0 && chown(path, 65534, 65534) == 0)
		tap_ok(miss(dir, key, "belongs to another user"),
		       "another user's entry is not used");
	else
		tap_ok(1, "another user's entry is not used # SKIP not root");
	unlink(path);
	/* Whole, then one byte of the binary changed: its checksum no longer matches. */
	cb_progcache_store(dir, key, strlen(key), bin, sizeof bin, &e);
	FILE *g = fopen(path, "r+b");
	fseek(g, -2, SEEK_END);
	fputc('\n' ^ 1, g);
	fclose(g);
	tap_ok(miss(dir, key, "does not match its checksum"), "a damaged binary is a miss");
	/* A link in the entry's place, even to a whole entry of this key, is not followed. */
	char whole[160];
	snprintf(whole, sizeof whole, "%s/whole", tmp);
	cb_progcache_store(dir, key, strlen(key), bin, sizeof bin, &e);
	tap_ok(rename(path, whole) == 0 && symlink(whole, path) == 0 &&
		       miss(dir, key, "symbolic link"),
	       "a symbolic link in an entry's place is a miss");
	unlink(path);
	/* Whole again, then one byte more: the sizes must add up exactly. */
	cb_progcache_store(dir, key, strlen(key), bin, sizeof bin, &e);
	FILE *f = fopen(path, "ab");
	fputc('x', f);
	fclose(f);
	tap_ok(miss(dir, key, "not a program cache"), "an entry with bytes after it is a miss");

	char file[160];
	snprintf(file, sizeof file, "%s/plain", tmp);
	write_raw(file, "x", 1);
	snprintf(dir, sizeof dir, "%s/plain/sub", tmp);
	rc = cb_progcache_store(dir, key, strlen(key), bin, sizeof bin, &e);
	tap_ok(rc == CB_ERR_IO && strstr(e.text, "cannot create"),
	       "a folder that cannot be made: an error, nothing kept (%s)", e.text);
	rc = cb_progcache_store(tmp, key, strlen(key), bin, 0, &e);
	tap_ok(rc == CB_ERR_IO, "an empty binary is not kept");
	snprintf(dir, sizeof dir, "%s/x/y/z", tmp);
	rc = cb_progcache_store(dir, key, strlen(key), bin, sizeof bin, &e);
	snprintf(file, sizeof file, "%s/x", tmp);
	tap_ok(rc == CB_ERR_IO && access(file, F_OK) != 0,
	       "the folder and its parent are made, never more (a missing HOME stays missing)");
	/* Temporary files a stopped store left: an hour old, they go at the next store. */
	char old[160], fresh[160];
	snprintf(dir, sizeof dir, "%s/a/b", tmp);
	snprintf(old, sizeof old, "%s/.new.old123", dir);
	snprintf(fresh, sizeof fresh, "%s/.new.fresh1", dir);
	write_raw(old, "x", 1);
	write_raw(fresh, "x", 1);
	struct timespec two_hours[2] = { { time(NULL) - 7200, 0 }, { time(NULL) - 7200, 0 } };
	utimensat(AT_FDCWD, old, two_hours, 0);
	cb_progcache_store(dir, key, strlen(key), bin, sizeof bin, &e);
	tap_ok(access(old, F_OK) != 0 && access(fresh, F_OK) == 0,
	       "a store removes temporary files over an hour old, and only those");
	free(path);
	free(opath);
	free(other);
}

int main(void)
{
	snprintf(tmp, sizeof tmp, "/tmp/cb-progcache.XXXXXX");
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 99;
	}
	test_dir();
	test_entries();
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", tmp);
	return tap_done();
}
