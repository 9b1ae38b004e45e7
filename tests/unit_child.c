/* SPDX-License-Identifier: MIT */
/* The growable buffer (core/buf.c) and the child-process runner (core/child.c), on real
 * programs run through /bin/sh. */
#include "config.h"
#include "core/buf.h"
#include "core/child.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static void test_buf(void)
{
	cb_buf b = CB_BUF_INIT;
	char *empty = cb_buf_take(&b, NULL);
	tap_ok(empty && !*empty, "an empty buffer gives \"\"");
	free(empty);
	cb_buf_add(&b, "ab", 2);
	cb_buf_printf(&b, "-%d-%s", 42, "x");
	cb_buf_add(&b, "\0z", 2);
	tap_ok(b.len == 9 && memcmp(b.data, "ab-42-x\0z", 9) == 0 && b.data[b.len] == '\0',
	       "bytes, formatted text and a NUL byte, NUL-terminated");
	for (int i = 0; i < 100000; i++)
		cb_buf_printf(&b, "%05d", i);
	size_t len;
	char *s = cb_buf_take(&b, &len);
	tap_ok(len == 9 + 500000 && strncmp(s + 9, "00000", 5) == 0 &&
		       strcmp(s + len - 5, "99999") == 0 && !b.data && !b.len,
	       "500,000 bytes appended; take leaves the buffer empty");
	free(s);
	cb_buf_free(&b);
}

static cb_rc sh(const char *script, const char *input, size_t out_limit, size_t err_limit,
		cb_child_result *r, cb_error *err)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	cb_child_spec s = { argv, input, input ? strlen(input) : 0, out_limit, err_limit, false };
	return cb_child_run(&s, r, err);
}

static void test_child(void)
{
	cb_child_result r;
	cb_error err;
	cb_rc rc = sh("echo out; echo err >&2; exit 3", NULL, 1 << 20, 1 << 20, &r, &err);
	tap_ok(rc == CB_OK && strcmp(r.out.data, "out\n") == 0 &&
		       strcmp(r.err.data, "err\n") == 0 && r.exit_status == 3 && r.term_signal == 0,
	       "output and error captured, exit status 3");
	cb_child_result_free(&r);
	rc = sh("kill -TERM $$", NULL, 1 << 20, 1 << 20, &r, &err);
	tap_ok(rc == CB_OK && r.exit_status == -1 && r.term_signal == 15, "a signal that ends it");
	cb_child_result_free(&r);
	/* 4 MB each way and 1 MB on stderr: a runner that writes all input before reading, or
	 * reads one pipe to its end before the other, deadlocks here. */
	size_t n = 4u << 20;
	char *in = malloc(n + 1);
	memset(in, 'x', n);
	in[n] = '\0';
	rc = sh("head -c 1048576 /dev/zero | tr '\\0' e >&2; cat", in, n, 1 << 20, &r, &err);
	tap_ok(rc == CB_OK && r.exit_status == 0 && r.out.len == n &&
		       memcmp(r.out.data, in, n) == 0 && r.err.len == (1u << 20) && !r.out_over &&
		       !r.err_over,
	       "4 MB through it while it writes 1 MB to stderr: no deadlock");
	cb_child_result_free(&r);
	rc = sh("head -c 100000 /dev/zero; head -c 5000 /dev/zero >&2", NULL, 1000, 100, &r, &err);
	tap_ok(rc == CB_OK && r.out_over && r.out.len == 1000 && r.err.len <= 100,
	       "output beyond its limit stops the program, the first bytes kept");
	cb_child_result_free(&r);
	rc = sh("head -c 3 >/dev/null; exit 0", in, 1 << 20, 1 << 20, &r, &err);
	tap_ok(rc == CB_OK && r.exit_status == 0, "a program that stops reading its input early");
	cb_child_result_free(&r);
	free(in);
	char *missing[] = { "/nonexistent/program", NULL };
	cb_child_spec s = { missing, NULL, 0, 100, 100, false };
	rc = cb_child_run(&s, &r, &err);
	tap_ok(rc == CB_ERR_RUNTIME && err.call && strcmp(err.call, "posix_spawn") == 0 &&
		       strstr(err.text, "/nonexistent/program"),
	       "a missing program: %s", err.text);
	cb_child_result_free(&r);
}

/* A child's exit status read back as the code that made it: every code, through the one
 * table of exit statuses (usage and input share status 2). */
static void test_exit_status_inverse(void)
{
	static const cb_rc codes[] = { CB_OK,        CB_ERR_USAGE,       CB_ERR_INPUT,
				       CB_ERR_NODEV, CB_ERR_RUNTIME,     CB_ERR_IO,
				       CB_ERR_NOMEM, CB_ERR_INTERRUPTED, CB_ERR_QUALITY };
	bool all = true;
	for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
		cb_error err = { .rc = codes[i], .signal = codes[i] == CB_ERR_INTERRUPTED ? 2 : 0 };
		cb_rc back = cb_rc_of_exit_status(cb_exit_status(&err));
		all &= cb_exit_status(&(cb_error){ .rc = back, .signal = err.signal }) ==
		       cb_exit_status(&err);
	}
	tap_ok(all && cb_rc_of_exit_status(130) == CB_ERR_INTERRUPTED &&
		       cb_rc_of_exit_status(2) == CB_ERR_INPUT &&
		       cb_rc_of_exit_status(4) == CB_ERR_RUNTIME,
	       "a child's exit status reads back as a code with the same status, for every code");
}

int main(void)
{
	test_buf();
	test_child();
	test_exit_status_inverse();
	return tap_done();
}
