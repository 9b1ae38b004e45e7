/* SPDX-License-Identifier: MIT */
/* Command line: options, subcommands (run, plan, analyze, predict, compare, plot, lint), help. */
#ifndef CB_CLI_H
#define CB_CLI_H

#include "cli/options.h"

/* Runs clbanks with ARGV; returns the process exit status. LINT runs 'clbanks lint' in this
 * process (the clbanks-lint helper, which links LLVM, passes cb_cmd_lint and runs nothing
 * else); NULL hands lint to that helper (src/cli/lint_exec.c says why). */
int cb_main(int argc, char **argv, cb_command_fn lint);

#endif
