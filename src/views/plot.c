/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/plot.h"
#include "core/advice.h"
#include "doc/doc.h"
#include "core/model.h"
#include "cli/outfile.h"
#include "core/util.h"

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
	const char *tmpdir = getenv("TMPDIR");
	char data[4096];
	snprintf(data, sizeof data, "%s/clbanks-plot-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
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

	/* One data block per (document, element size): stride and slowdown against stride 1.
	 * Panels show strides up to 72, where the conflicts of common geometries repeat. */
	FILE *df = fdopen(dfd, "w");
	int blocks = 0;
	int *block_elem = cb_xcalloc((size_t)nfiles * CB_NELEM, sizeof *block_elem);
	int *block_doc = cb_xcalloc((size_t)nfiles * CB_NELEM, sizeof *block_doc);
	char (*titles)[96] = cb_xcalloc((size_t)nfiles * CB_NELEM, sizeof *titles);
	bool elem_used[CB_NELEM] = { false };
	for (int i = 0; i < nfiles; i++) {
		const char *name = json_string_value(json_object_get(json_object_get(docs[i], "device"), "name"));
		const char *regime = json_string_value(json_object_get(json_object_get(docs[i], "run"), "regime"));
		for (int e = 0; e < CB_NELEM; e++) {
			int rows = 0;
			for (unsigned st = 0; st <= 72; st++) {
				double r = cb_measured_stride_ratio(docs[i], cb_elem_sizes[e], st);
				if (isfinite(r)) {
					fprintf(df, "%u %.6g\n", st, r);
					rows++;
				}
			}
			if (!rows)
				continue;
			fprintf(df, "\n\n");
			snprintf(titles[blocks], sizeof titles[blocks], "%.28s%s%s%s", name ? name : files[i],
				 regime ? " (" : "", regime ? regime : "", regime ? ")" : "");
			block_elem[blocks] = e;
			block_doc[blocks] = i;
			elem_used[e] = true;
			blocks++;
		}
	}
	fclose(df);
	if (!blocks) {
		cb_err("no stride measurements to plot in %s", nfiles == 1 ? files[0] : "these documents");
		cb_outfile_abort(&out);
		free(titles);
		free(block_elem);
		free(block_doc);
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
	int panels = 0;
	for (int e = 0; e < CB_NELEM; e++)
		panels += elem_used[e];
	int cols = panels < 3 ? panels : 3, rows = (panels + cols - 1) / cols;
	fprintf(gp, "set terminal svg size %d,%d dynamic enhanced font 'sans,11' background '#ffffff'\n"
		    "set output ", 380 * cols, 330 * rows + 40);
	gp_quoted(gp, out.tmp);
	fprintf(gp, "\nset multiplot layout %d,%d title 'Local memory stride sweep: slowdown against "
		    "stride 1 (log scale)'\n", rows, cols);
	fprintf(gp, "set xlabel 'stride (elements)'\nset logscale y 2\nset grid\n"
		    "set xrange [0:72]\nset xtics 8\nset yrange [0.5:64]\n"
		    "set key top left font ',9' samplen 2 opaque\n");
	int panel = 0;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!elem_used[e])
			continue;
		fprintf(gp, "set title '%u-byte elements'\n%s", cb_elem_sizes[e], panel ? "unset key\n" : "");
		fprintf(gp, "plot ");
		bool first = true;
		for (int b = 0; b < blocks; b++) {
			if (block_elem[b] != e)
				continue;
			fprintf(gp, "%s", first ? "" : ", \\\n     ");
			first = false;
			gp_quoted(gp, data);
			/* One color per document, the same in every panel. */
			fprintf(gp, " index %d using 1:2 with linespoints pt 7 ps 0.35 lw 1.2 lc %d title ", b,
				block_doc[b] + 1);
			gp_quoted(gp, titles[b]);
		}
		fprintf(gp, "\n");
		panel++;
	}
	fprintf(gp, "unset multiplot\n");
	free(block_elem);
	free(block_doc);
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
