/* SPDX-License-Identifier: MIT */
#ifndef CB_CLI_CMD_LINT_MEASURE_H
#define CB_CLI_CMD_LINT_MEASURE_H

#include "cli/options.h"
#include "core/error.h"

/* clbanks lint --measure (ARGC, ARGV: the command line, handed to the lint helper). Returns
 * only on failure: on success this process has become the helper, which reports. */
cb_rc cb_cmd_lint_measure(const cb_cli_options *o, int argc, char **argv, cb_error *err);

#endif
