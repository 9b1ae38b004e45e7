/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/subprocess.h"
#include "core/child.h"

#include <stdlib.h>
#include <string.h>

cb_rc cb_filter_run(char *const argv[], const char *input, size_t input_len, size_t out_cap,
		    cb_filter_result *res, cb_error *err)
{
	memset(res, 0, sizeof *res);
	cb_child_spec s = { .argv = argv,
			    .input = input ? input : "",
			    .input_len = input_len,
			    .out_limit = out_cap,
			    .share_err = true };
	cb_child_result r;
	cb_rc rc = cb_child_run(&s, &r, err);
	if (rc == CB_OK && r.out_over)
		rc = cb_error_set(err, CB_ERR_RUNTIME,
				  "%s wrote more than %zu bytes; stopped it, nothing written",
				  argv[0], out_cap);
	res->exit_status = r.exit_status;
	res->term_signal = r.term_signal;
	res->out = cb_buf_take(&r.out, &res->out_len);
	cb_child_result_free(&r);
	if (rc != CB_OK)
		cb_filter_result_free(res);
	return rc;
}

void cb_filter_result_free(cb_filter_result *res)
{
	free(res->out);
	res->out = NULL;
	res->out_len = 0;
}
