/* SPDX-License-Identifier: MIT */
/* clbanks-lint: the helper that runs 'clbanks lint' (the only program that links LLVM). */
#include "config.h"
#include "cli/cli.h"
#include "cli/commands.h"

int main(int argc, char **argv)
{
	return cb_main(argc, argv, cb_cmd_lint);
}
