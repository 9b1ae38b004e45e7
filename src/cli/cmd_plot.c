/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/commands.h"
#include "cli/outfile.h"
#include "cli/subprocess.h"
#include "core/util.h"
#include "views/plot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Pictures larger than this are not a plot of clbanks' data. */
#define PLOT_MAX_BYTES (64UL * 1024 * 1024)

/* gnuplot from $CLBANKS_GNUPLOT, which must name an executable file (CB_ERR_USAGE, saying
 * what it is instead), or else from the PATH (*GNUPLOT NULL when there is none). */
static cb_rc gnuplot_from_env(char **gnuplot, cb_error *err)
{
	const char *env = getenv("CLBANKS_GNUPLOT");
	struct stat st;
	*gnuplot = NULL;
	if (!env || !*env)
		return CB_OK;
	if (stat(env, &st) != 0)
		return cb_error_set(err, CB_ERR_USAGE,
				    "CLBANKS_GNUPLOT='%s': %s; it must name the "
				    "gnuplot program to run (e.g. /usr/bin/gnuplot)",
				    env, strerror(errno));
	if (!S_ISREG(st.st_mode) || access(env, X_OK) != 0)
		return cb_error_set(err, CB_ERR_USAGE,
				    "CLBANKS_GNUPLOT='%s' is %s; it must name the "
				    "gnuplot program to run (e.g. /usr/bin/gnuplot)",
				    env,
				    S_ISDIR(st.st_mode)   ? "a directory"
				    : S_ISREG(st.st_mode) ? "not executable"
							  : "not a regular file");
	*gnuplot = cb_xstrdup(env);
	return CB_OK;
}

static char *find_gnuplot(void)
{
	const char *path = getenv("PATH");
	if (!path)
		return NULL;
	char *copy = cb_xstrdup(path), *save = NULL;
	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		size_t n = strlen(dir) + 10;
		char *cand = cb_xmalloc(n);
		snprintf(cand, n, "%s/gnuplot", dir);
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
			free(copy);
			return cand;
		}
		free(cand);
	}
	free(copy);
	return NULL;
}

static cb_rc check_request(const cb_cli_options *o, cb_plot_format *fmt, cb_error *err)
{
	if (o->nargs < 1 || !o->output) {
		cb_error_set(
			err, CB_ERR_USAGE,
			o->nargs < 1
				? "plot needs at least one result document"
				: "plot needs an output file: -o OUT.svg (or .png, .pdf; '-': SVG on "
				  "standard output)");
		cb_error_detail(err, "Usage: clbanks plot FILE... -o OUT.svg");
		return CB_ERR_USAGE;
	}
	/* Standard output gets SVG: text, which a terminal or a pipe can take. */
	if (strcmp(o->output, "-") == 0)
		*fmt = CB_PLOT_SVG;
	else if (!cb_plot_format_from_path(o->output, fmt))
		return cb_error_set(err, CB_ERR_USAGE,
				    "cannot tell the picture format from '%s': name "
				    "the output .svg, .png or .pdf",
				    o->output);
	return cb_output_check(o->output, o->force, err);
}

/* Runs gnuplot on SCRIPT; the picture in RES after checks that it is complete. */
static cb_rc run_gnuplot(const char *gnuplot, const char *script, cb_plot_format fmt,
			 cb_filter_result *res, cb_error *err)
{
	char *argv[] = { (char *)gnuplot, NULL };
	cb_rc rc = cb_filter_run(argv, script, strlen(script), PLOT_MAX_BYTES, res, err);
	if (rc != CB_OK)
		return rc;
	if (res->term_signal)
		rc = cb_error_set(err, CB_ERR_RUNTIME,
				  "%s was killed by signal %d; no plot written", gnuplot,
				  res->term_signal);
	else if (res->exit_status == CB_PLOT_NO_TERMINAL)
		rc = cb_error_set(
			err, CB_ERR_RUNTIME,
			"%s has no '%s' terminal, which %s output needs; no plot written (%s)",
			gnuplot, cb_plot_terminal(fmt),
			fmt == CB_PLOT_PDF   ? "PDF"
			: fmt == CB_PLOT_PNG ? "PNG"
					     : "SVG",
			fmt == CB_PLOT_SVG
				? "gnuplot 5 has it unless built without it"
				: "use a gnuplot built with cairo, such as Debian's gnuplot-nox, or "
				  "name the output .svg");
	else if (res->exit_status == 126 || res->exit_status == 127)
		rc = cb_error_set(err, CB_ERR_RUNTIME,
				  "%s could not be run (exit status %d); no plot written", gnuplot,
				  res->exit_status);
	else if (res->exit_status != 0)
		rc = cb_error_set(err, CB_ERR_RUNTIME,
				  "%s failed (exit status %d); no plot written", gnuplot,
				  res->exit_status);
	else if (!cb_plot_output_complete(res->out, res->out_len, fmt))
		rc = cb_error_set(err, CB_ERR_RUNTIME,
				  "%s wrote %s picture (%zu bytes); no plot written", gnuplot,
				  res->out_len ? "an incomplete" : "no", res->out_len);
	if (rc != CB_OK)
		cb_filter_result_free(res);
	return rc;
}

cb_rc cb_cmd_plot(const cb_cli_options *o, cb_error *err)
{
	cb_plot_format fmt;
	cb_rc rc = check_request(o, &fmt, err);
	if (rc != CB_OK)
		return rc;
	char *gnuplot = NULL;
	if ((rc = gnuplot_from_env(&gnuplot, err)) != CB_OK)
		return rc;
	if (!gnuplot)
		gnuplot = find_gnuplot();
	if (!gnuplot)
		return cb_error_set(
			err, CB_ERR_RUNTIME,
			"plot needs gnuplot, which is not on the PATH "
			"(Debian/Ubuntu: apt-get install gnuplot-nox; or set CLBANKS_GNUPLOT); "
			"'clbanks analyze --format csv' gives the numbers for any other tool");
	cb_result *rs = cb_xcalloc((size_t)o->nargs, sizeof *rs);
	const cb_result **ptrs = cb_xcalloc((size_t)o->nargs, sizeof *ptrs);
	for (int i = 0; i < o->nargs; i++) {
		cb_result_init(&rs[i]);
		ptrs[i] = &rs[i];
	}
	for (int i = 0; i < o->nargs && rc == CB_OK; i++)
		rc = cb_load_analyzed(o->args[i], &rs[i], err);
	char *script = NULL;
	if (rc == CB_OK)
		rc = cb_plot_script(ptrs, (const char *const *)o->args, o->nargs, fmt, &script,
				    err);
	cb_filter_result res = { 0 };
	if (rc == CB_OK)
		rc = run_gnuplot(gnuplot, script, fmt, &res, err);
	if (rc == CB_OK)
		rc = cb_check_interrupt(err);
	if (rc == CB_OK)
		rc = cb_output_commit(o->output, o->force, res.out, res.out_len, err);
	cb_filter_result_free(&res);
	free(script);
	for (int i = 0; i < o->nargs; i++)
		cb_result_free(&rs[i]);
	free(rs);
	free(ptrs);
	free(gnuplot);
	return rc;
}
