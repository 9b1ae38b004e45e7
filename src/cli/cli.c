/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/cli.h"
#include "cli/cmd_run.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/cmd_lint_measure.h"
#include "cli/lint_exec.h"
#include "cli/models.h"
#include "cli/options.h"
#include "cli/outfile.h"
#include "cli/signals.h"
#include "measure/watchdog.h"

#include "core/util.h"
#include "views/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The command ARGV[1] names; run when ARGV[1] is an option or missing. */
static cb_rc command_word(int argc, char **argv, cb_command_word *w, cb_error *err)
{
	*w = (cb_command_word){ CB_CMD_RUN, cb_commands[CB_CMD_RUN].name, false };
	if (argc < 2 || argv[1][0] == '-')
		return CB_OK;
	int k = cb_command_find(argv[1]);
	if (k >= 0) {
		*w = (cb_command_word){ (enum cb_command)k, cb_commands[k].name, true };
		return CB_OK;
	}
	char names[128] = "";
	for (k = 0; k < CB_NCMD; k++) {
		size_t len = strlen(names);
		snprintf(names + len, sizeof names - len, "%s%s", k ? ", " : "",
			 cb_commands[k].name);
	}
	return cb_usage_error(err, NULL, "unknown command '%s' (commands: %s)", argv[1], names);
}

static void render_help(FILE *out, const void *p)
{
	const cb_cli_options *o = p;
	if (o->help)
		cb_options_help(out, o->command_given ? (int)o->cmd : -1);
	else
		fprintf(out, "clbanks %s\n", PACKAGE_VERSION);
}

static cb_rc dispatch(const cb_cli_options *o, int argc, char **argv, cb_command_fn lint,
		      cb_error *err)
{
	unsigned flags = cb_commands[o->cmd].flags;
	if (lint && !(flags & CB_CMD_IN_HELPER))
		return cb_error_set(err, CB_ERR_USAGE, "clbanks-lint runs only 'clbanks lint'");
	if ((flags & CB_CMD_NO_OPERANDS) && o->nargs > 0)
		return cb_error_set(err, CB_ERR_USAGE, "unexpected argument '%s'", o->args[0]);
	if (flags & CB_CMD_IN_HELPER)
		return lint         ? lint(o, err)
		       : o->measure ? cb_cmd_lint_measure(o, argc, argv, err)
				    : cb_lint_exec(argc, argv, err);
	return cb_commands[o->cmd].fn(o, err);
}

/* The width of text output: COLUMNS when it is a number, else the terminal's when standard
 * output is one, else the default (100). */
static unsigned text_width(void)
{
	const char *c = getenv("COLUMNS");
	unsigned long v;
	if (c && *c && cb_parse_ulong(c, 1, 100000, &v))
		return (unsigned)v;
#ifdef TIOCGWINSZ
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
#endif
	return CB_TEXT_WIDTH_DEFAULT;
}

int cb_main(int argc, char **argv, cb_command_fn lint)
{
	cb_text_set_width(text_width());
	cb_cli_options o = { 0 };
	cb_command_word w;
	cb_cli_model_paths model_paths = { 0 };
	cb_error err;
	cb_error_clear(&err);
	cb_rc rc = command_word(argc, argv, &w, &err);
	if (rc == CB_OK)
		rc = cb_options_parse(argc, argv, &w, &o, &err);
	/* The helper of lint (LINT given) says its warning; clbanks, handing lint to it, does not. */
	if (rc == CB_OK && !o.help && !o.version)
		cb_format_from_output(&o, !o.quiet && (lint || !(cb_commands[o.cmd].flags &
								 CB_CMD_IN_HELPER)));
	cb_signals_install();
	cb_watchdog_set_limit(rc == CB_OK ? (unsigned)o.timeout : 0); /* every driver call */
	if (rc == CB_OK && (o.help || o.version))
		rc = cb_emit(NULL, false, render_help, &o,
			     &err); /* a write error keeps its errno */
	else if (rc == CB_OK && o.list_models)
		rc = cb_cmd_list_models(&o, &err);
	else if (rc == CB_OK && (rc = cb_cli_models_resolve(&o, &model_paths, &err)) == CB_OK)
		rc = dispatch(&o, argc, argv, lint, &err);
	if (rc != CB_OK && cb_stop_signal && err.rc != CB_ERR_INTERRUPTED)
		cb_check_interrupt(&err); /* a failure caused by the stop (EINTR) is the stop */
	if (rc != CB_OK)
		cb_print_error(&err);
	cb_error out;
	if (cb_stdout_close(&out) != CB_OK && rc == CB_OK) {
		cb_print_error(&out);
		err = out;
		rc = out.rc;
	}
	cb_options_free(&o);
	cb_cli_models_free(&model_paths);
	return rc == CB_OK ? 0 : cb_exit_status(&err);
}
