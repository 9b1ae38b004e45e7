/* SPDX-License-Identifier: MIT */
/* Command line: options, subcommands (run, plan, analyze, predict, compare, plot), help. */
#ifndef CB_CLI_H
#define CB_CLI_H

/* Runs clbanks with ARGV; returns the process exit status. */
int cb_main(int argc, char **argv);

#endif
