/* SPDX-License-Identifier: MIT */
/* One child-process runner: ARGV run with no shell in between (posix_spawn), INPUT fed to its
 * standard input while its standard output and error are read into buffers, all three pumped
 * by one poll loop so that no pipe can fill up and block both processes; then its status.
 * Library code: it returns a cb_rc and fills a cb_error, never prints. */
#ifndef CB_CHILD_H
#define CB_CHILD_H

#include "core/buf.h"
#include "core/error.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	char *const *argv; /* argv[0]: a path, or a name looked up on the PATH */
	const char *input; /* to standard input; NULL: /dev/null */
	size_t input_len;
	size_t out_limit; /* bytes of standard output kept; more stops the program (out_over) */
	size_t err_limit; /* bytes of standard error kept; more is dropped (err_over) */
	bool share_err;   /* standard error is the caller's (not read; err stays empty) */
} cb_child_spec;

typedef struct {
	cb_buf out, err; /* what it wrote (err: at most err_limit bytes) */
	bool out_over;   /* it wrote more than out_limit: killed, out holds the first bytes */
	bool err_over;
	int exit_status; /* its exit status, or -1 when a signal ended it */
	int term_signal; /* the signal that ended it, or 0 */
} cb_child_result;

/* Runs S->argv to its end. CB_OK whatever the program's status (R says it); errors: it could
 * not be started (CB_ERR_RUNTIME, call "posix_spawn" and the errno), talking to it failed, or
 * a stop signal came (CB_ERR_INTERRUPTED; the program is then killed). In every case the
 * program has been waited for and R's buffers are the caller's to free. */
cb_rc cb_child_run(const cb_child_spec *s, cb_child_result *r, cb_error *err);
void cb_child_result_free(cb_child_result *r);

#endif
