/* SPDX-License-Identifier: MIT */
/* The commands and their table (commands.c; git's cmd_struct is the model): run (cmd_run.c),
 * --device all (cmd_all.c), and those that work on documents (no device): plan, analyze,
 * predict, compare, plot, lint, export. The table is the one place that says which formats
 * each command writes: --help, the usage errors, the man page's list (tests/formats.sh holds
 * them to it) and the dispatch read it. What the run of one device and of every device share
 * is in cmd_run.h. Internal to src/cli/. */
#ifndef CB_COMMANDS_H
#define CB_COMMANDS_H

#include "cli/common.h"
#include "cli/options.h"

enum {
	CB_CMD_NO_OPERANDS = 1, /* an operand is a usage error */
	CB_CMD_IN_HELPER = 2 /* runs in clbanks-lint, the program that links LLVM (lint_exec.c) */
};

typedef struct {
	const char *name;
	cb_command_fn fn; /* NULL for CB_CMD_IN_HELPER: the helper passes its own */
	unsigned flags;
	unsigned formats;  /* CB_FORMAT_BIT of each --format it writes; none: --format is not its */
	int dflt;          /* the format it writes without --format or an -o name asking for one */
	const char *usage; /* --help's usage line(s) */
} cb_command_info;

/* The command table, by enum cb_command. */
extern const cb_command_info cb_commands[CB_NCMD];

/* The command named WORD, or -1 (WORD NULL or no command's name). */
int cb_command_find(const char *word);

/* "text, json or csv": the formats of the bits FORMATS, into BUF of N bytes. */
void cb_format_names(unsigned formats, char *buf, size_t n);
/* "text|json|csv", for a usage line. */
void cb_format_choices(unsigned formats, char *buf, size_t n);
/* CB_OK when command CMD writes FORMAT (or FORMAT is -1, none asked for); else CB_ERR_USAGE,
 * the message naming exactly the formats CMD writes. */
cb_rc cb_format_check(enum cb_command cmd, int format, cb_error *err);
/* One rule for every command that writes a file: without --format, an -o name ending in .json,
 * .csv, .txt or .sarif asks for that format when the command writes it (the run's -o is its
 * document: JSON, or CSV by name); O->format is set to it. With WARN, a warning when the
 * format written is not the kind of file the name says (--format csv -o x.json, export -o
 * x.csv). Plot's names are its own (.svg, .png, .pdf). */
void cb_format_from_output(cb_cli_options *o, bool warn);

/* clbanks [run]: --list, or the measurement of the selected device. */
cb_rc cb_cmd_run(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_plan(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_analyze(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_predict(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_compare(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_plot(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_lint(const cb_cli_options *o, cb_error *err);
cb_rc cb_cmd_export(const cb_cli_options *o, cb_error *err);

/* Reads and analyzes the documents FILES[0..N-1] and writes their compare table in FMT to
 * OUT ("-": standard output), as 'clbanks compare FILES' does. */
cb_rc cb_compare_files(const char *const *files, int n, cb_format fmt, const char *out, bool force,
		       cb_error *err);

/* clbanks --device all -o DIR: every device in turn (cmd_all.c). */
cb_rc cb_cmd_run_all(const cb_cli_options *o, cb_error *err);

#endif
