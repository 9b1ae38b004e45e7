/* SPDX-License-Identifier: MIT */
/* Runs a program as a filter: INPUT to its standard input, its standard output collected in
 * memory, no shell in between (arguments are passed as they are). */
#ifndef CB_SUBPROCESS_H
#define CB_SUBPROCESS_H

#include "core/error.h"

#include <stddef.h>

typedef struct {
	char *out; /* what the program wrote to standard output (NUL-terminated) */
	size_t out_len;
	int exit_status; /* its exit status, or -1 */
	int term_signal; /* the signal that ended it, or 0 */
} cb_filter_result;

/* Runs ARGV[0] with ARGV. Output beyond OUT_CAP bytes is an error. A program that exits early
 * (a broken pipe) or fails is reported in the result, not as an error; errors are failures to
 * start it, to talk to it, or a stop signal (the program is then killed). */
cb_rc cb_filter_run(char *const argv[], const char *input, size_t input_len, size_t out_cap,
		    cb_filter_result *res, cb_error *err);
void cb_filter_result_free(cb_filter_result *res);

#endif
