/* SPDX-License-Identifier: MIT */
/* The command line, from one table of options (clinfo's property catalogue is the model): each
 * entry gives the option's names, the commands it applies to, its kind and range, where its
 * value goes and its help. getopt's array, the applicability check, range parsing, the error
 * messages and --help all come from that table, so they cannot drift apart. */
#ifndef CB_OPTIONS_H
#define CB_OPTIONS_H

#include "core/error.h"

#include <stdbool.h>
#include <stdio.h>

/* --format's values, in order: id, name, the cb_format (views/report.h) that renders it (the
 * others have a renderer of their own) and, for one that a single command writes, why it is
 * that command's (said to another asked for it). Which command writes which is the command
 * table's (commands.c). */
#define CB_FORMAT_TABLE(X)                               \
	X(TEXT, "text", CB_FMT_TEXT, NULL)               \
	X(JSON, "json", CB_FMT_JSON, NULL)               \
	X(CSV, "csv", CB_FMT_CSV, NULL)                  \
	X(SARIF, "sarif", CB_FMT_SARIF, "code scanning") \
	X(GPGPUSIM, "gpgpusim", CB_FMT_TEXT, NULL)       \
	X(GEM5, "gem5", CB_FMT_TEXT, NULL)               \
	X(PLAN, "plan", CB_FMT_TEXT, "its lane tables")  \
	X(DIFF, "diff", CB_FMT_TEXT, "its fixes as a patch")

#define CB_FORMAT_ID(id, name, fmt, why) CB_OPT_FORMAT_##id,
enum cb_opt_format { CB_FORMAT_TABLE(CB_FORMAT_ID) CB_NFORMATS };
#undef CB_FORMAT_ID
#define CB_FORMAT_BIT(id) (1u << CB_OPT_FORMAT_##id)

enum cb_command {
	CB_CMD_RUN,
	CB_CMD_PLAN,
	CB_CMD_ANALYZE,
	CB_CMD_PREDICT,
	CB_CMD_COMPARE,
	CB_CMD_PLOT,
	CB_CMD_LINT,
	CB_CMD_EXPORT,
	CB_NCMD
};

/* A repeatable option's values, in command-line order. */
typedef struct {
	const char **v;
	size_t n;
} cb_strings;

typedef struct {
	enum cb_command cmd;
	const char *cmd_name; /* its name, for messages */
	bool command_given;   /* the command was named (clbanks analyze ...) */
	bool help, version, list, list_models, force, quiet, verbose, quick, strict,
		measure_subgroup;
	bool measure; /* lint --measure */
	bool fail_on_conflict, allow_unknown, allow_assumed, summary;
	int format; /* enum cb_opt_format, -1: not given */
	int regime; /* 0 throughput, 1 latency */
	int timer;  /* 0 auto, 1 event, 2 host; -1 when not given */
	int check;  /* --check: cb_check_mode (0 auto, 1 transpose, 2 none) */
	int host;   /* --host: 0 id, 1 name, 2 none; -1 when not given */
	const char *device, *output, *kernel_dir, *build_options, *plan, *model, *lanes;
	const char *measured; /* lint --measured FILE */
	const char *baseline; /* compare --baseline OLD */
	unsigned long seed, min_rounds, max_rounds, timeout, subgroup, local_mem, elem_bytes;
	unsigned long stride, active;
	const char *ops_text, *op_text;                  /* --ops LIST, --op OP */
	unsigned ops;                                    /* CB_OP_BIT bits (default: every op) */
	int op;                                          /* cb_op of --op (default load) */
	const char *kernel_name, *local_size, *group_id; /* lint */
	const char *global_size, *cl_std;                /* lint: --global, --cl-std */
	cb_strings defines, kernel_args, includes;       /* lint: -D, --arg, -I */
	const char *lang, *cuda_path, *rocm_path;        /* lint: CUDA and HIP */
	unsigned long shared_bytes;                      /* lint: --shared-bytes */
	cb_strings models; /* lint: every --model (model: the first) */
	double max_kernel_ms, ci_target;
	bool given[64]; /* by option index: was it on the command line? */
	char **args;    /* operands */
	int nargs;
	char *command_line; /* the whole command line, quoted, for provenance */
} cb_cli_options;

/* A command: what the command table (commands.c) dispatches to. */
typedef cb_rc (*cb_command_fn)(const cb_cli_options *o, cb_error *err);

/* The command that ARGV names (cli.c's command table knows the names): GIVEN when ARGV[1] is
 * its word, else run is meant and the options start at ARGV[1]. */
typedef struct {
	enum cb_command cmd;
	const char *name;
	bool given;
} cb_command_word;

/* Parses ARGV's options for the command W. CB_OK to go on; CB_ERR_USAGE with a message
 * otherwise. --help and --version set o->help and o->version. */
cb_rc cb_options_parse(int argc, char **argv, const cb_command_word *w, cb_cli_options *o,
		       cb_error *err);
void cb_options_free(cb_cli_options *o);
/* Was the option with this long name given? */
bool cb_option_given(const cb_cli_options *o, const char *name);
/* Is --plan a file (not 'full', the whole default plan; ./full names a file so named)? */
bool cb_plan_file(const cb_cli_options *o);
/* --help: for every command, or for one (its usage line and options). */
void cb_options_help(FILE *out, int cmd);

#endif
