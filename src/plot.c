/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "plot.h"
#include "advice.h"
#include "doc.h"
#include "model.h"
#include "outfile.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* gnuplot from $CLBANKS_GNUPLOT or the PATH; NULL when there is none. */
static char *find_gnuplot(void)
{
	const char *env = getenv("CLBANKS_GNUPLOT");
	if (env && *env)
		return access(env, X_OK) == 0 ? cb_xstrdup(env) : NULL;
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

/* gnuplot string literal: single quotes, doubled inside. */
static void gp_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

int cb_plot_main(char **files, int nfiles, const char *output, bool force)
{
	if (nfiles < 1 || !output || strcmp(output, "-") == 0) {
		cb_err(nfiles < 1 ? "plot needs at least one result document" :
		       "plot needs an output file: -o OUT.svg");
		fputs("Usage: clbanks plot FILE... -o OUT.svg\n", stderr);
		return CB_EXIT_USAGE;
	}
	char *gnuplot = find_gnuplot();
	if (!gnuplot) {
		cb_err("plot needs gnuplot, which is not on the PATH (Debian/Ubuntu: apt-get install "
		       "gnuplot-nox; or set CLBANKS_GNUPLOT); 'clbanks analyze --format csv' gives the "
		       "numbers for any other tool");
		return CB_EXIT_RUNTIME;
	}
	json_t **docs = cb_xcalloc((size_t)nfiles, sizeof *docs);
	int rc = CB_EXIT_OK;
	for (int i = 0; i < nfiles && rc == CB_EXIT_OK; i++)
		if (!(docs[i] = cb_doc_load(files[i], true)))
			rc = CB_EXIT_USAGE;
	cb_outfile out;
	char data[] = "/tmp/clbanks-plot-XXXXXX";
	int dfd = -1;
	if (rc == CB_EXIT_OK && !cb_outfile_open(&out, output, force))
		rc = CB_EXIT_USAGE;
	if (rc == CB_EXIT_OK && (dfd = mkstemp(data)) < 0) {
		cb_err("cannot create a temporary file: %s", strerror(errno));
		cb_outfile_abort(&out);
		rc = CB_EXIT_RUNTIME;
	}
	if (rc != CB_EXIT_OK)
		goto done;

	/* One data block per (document, element size): stride and slowdown against stride 1. */
	FILE *df = fdopen(dfd, "w");
	int blocks = 0;
	char (*titles)[192] = cb_xcalloc((size_t)nfiles * CB_NELEM, sizeof *titles);
	for (int i = 0; i < nfiles; i++) {
		const char *name = json_string_value(json_object_get(json_object_get(docs[i], "device"), "name"));
		const char *regime = json_string_value(json_object_get(json_object_get(docs[i], "run"), "regime"));
		for (int e = 0; e < CB_NELEM; e++) {
			int rows = 0;
			for (unsigned s = 0; s <= 512; s++) {
				double r = cb_measured_stride_ratio(docs[i], cb_elem_sizes[e], s);
				if (isfinite(r)) {
					fprintf(df, "%u %.6g\n", s, r);
					rows++;
				}
			}
			if (!rows)
				continue;
			fprintf(df, "\n\n");
			snprintf(titles[blocks], sizeof titles[blocks], "%s%s%s%s, %u B", name ? name : files[i],
				 regime ? " (" : "", regime ? regime : "", regime ? ")" : "", cb_elem_sizes[e]);
			blocks++;
		}
	}
	fclose(df);
	if (!blocks) {
		cb_err("no stride measurements to plot in %s", nfiles == 1 ? files[0] : "these documents");
		cb_outfile_abort(&out);
		free(titles);
		rc = CB_EXIT_USAGE;
		goto done;
	}
	/* gnuplot writes the SVG to the temporary file of OUT; commit renames it into place. */
	fclose(out.fp);
	out.fp = NULL;
	size_t cl = strlen(gnuplot) + 8;
	char *cmd = cb_xmalloc(cl);
	snprintf(cmd, cl, "'%s'", gnuplot);
	FILE *gp = popen(cmd, "w");
	free(cmd);
	if (!gp) {
		cb_err("cannot run %s: %s", gnuplot, strerror(errno));
		cb_outfile_abort(&out);
		free(titles);
		rc = CB_EXIT_RUNTIME;
		goto done;
	}
	fprintf(gp, "set terminal svg size 960,600 dynamic enhanced font 'sans,12' background '#ffffff'\n"
		    "set output ");
	gp_quoted(gp, out.tmp);
	fprintf(gp, "\nset title 'Local memory stride sweep: slowdown against stride 1'\n"
		    "set xlabel 'stride (elements)'\nset ylabel 'slowdown'\n"
		    "set logscale y 2\nset grid\nset key outside right top\n"
		    "set xrange [0:*]\nset yrange [0.5:*]\n");
	fprintf(gp, "plot ");
	for (int b = 0; b < blocks; b++) {
		fprintf(gp, "%s", b ? ", \\\n     " : "");
		gp_quoted(gp, data);
		fprintf(gp, " index %d using 1:2 with linespoints pointsize 0.5 title ", b);
		gp_quoted(gp, titles[b]);
	}
	fprintf(gp, "\n");
	int status = pclose(gp);
	free(titles);
	if (status != 0) {
		cb_err("gnuplot failed (status %d)", WIFEXITED(status) ? WEXITSTATUS(status) : status);
		unlink(out.tmp);
		cb_outfile_abort(&out);
		rc = CB_EXIT_RUNTIME;
		goto done;
	}
	/* Reopen so that commit can sync and rename the file gnuplot wrote. */
	out.fp = fopen(out.tmp, "a");
	if (!out.fp || !cb_outfile_commit(&out))
		rc = CB_EXIT_RUNTIME;
done:
	if (dfd >= 0)
		unlink(data);
	for (int i = 0; i < nfiles; i++)
		json_decref(docs[i]);
	free(docs);
	free(gnuplot);
	return rc;
}
