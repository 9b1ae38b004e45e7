/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/plot.h"
#include "core/model.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cb_plot_format_from_path(const char *path, cb_plot_format *fmt)
{
	static const struct { const char *ext; cb_plot_format fmt; } table[] = {
		{ ".svg", CB_PLOT_SVG }, { ".png", CB_PLOT_PNG }, { ".pdf", CB_PLOT_PDF },
	};
	size_t n = path ? strlen(path) : 0;
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (n > 4 && strcmp(path + n - 4, table[i].ext) == 0) {
			*fmt = table[i].fmt;
			return true;
		}
	return false;
}

void cb_plot_safe_title(const char *name, char *buf, size_t n)
{
	static const char extra[] = " .,:()+-/=_";
	size_t k = 0, max = n - 1 < 60 ? n - 1 : 60;
	for (const char *s = name; *s && k < max; s++) {
		unsigned char c = (unsigned char)*s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  (c && strchr(extra, c));
		buf[k++] = ok ? (char)c : '?';
	}
	buf[k] = '\0';
}

/* The terminal for a picture of W x H pixels (PDF: at 96 pixels per inch). */
static void terminal_line(FILE *f, cb_plot_format fmt, int w, int h)
{
	switch (fmt) {
	case CB_PLOT_PNG:
		fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'sans,10' "
			"background '#ffffff'\n", w, h);
		break;
	case CB_PLOT_PDF:
		fprintf(f, "set terminal pdfcairo size %.2fin,%.2fin noenhanced font 'sans,10'\n",
			w / 96.0, h / 96.0);
		break;
	default:
		fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'sans,11' "
			"background '#ffffff'\n", w, h);
		break;
	}
}

typedef struct {
	int doc, elem;
} block;

/* One datablock per (document, element size): a header row with the title, then stride and
 * slowdown against stride 1. */
static int write_blocks(FILE *f, const cb_result *const *rs, const char *const *labels, int ndocs,
			block *blocks, bool *elem_used)
{
	int nb = 0;
	for (int i = 0; i < ndocs; i++) {
		const char *name = rs[i]->device.name, *regime = rs[i]->run.regime;
		char raw[160], title[64];
		snprintf(raw, sizeof raw, "%s%s%s%s", name ? name : labels[i], regime ? " (" : "",
			 regime ? regime : "", regime ? ")" : "");
		cb_plot_safe_title(raw, title, sizeof title);
		for (int e = 0; e < CB_NELEM; e++) {
			bool header = false;
			for (unsigned st = 0; st <= 72; st++) {
				double r = cb_stride_ratio(rs[i], CB_OP_LOAD, cb_elem_sizes[e], st);
				if (!isfinite(r))
					continue;
				if (!header)
					fprintf(f, "$d%d << EOD\nstride \"%s\"\n", nb, title);
				header = true;
				fprintf(f, "%u %.6g\n", st, r);
			}
			if (!header)
				continue;
			fputs("EOD\n", f);
			blocks[nb].doc = i;
			blocks[nb].elem = e;
			elem_used[e] = true;
			nb++;
		}
	}
	return nb;
}

static void write_panels(FILE *f, const block *blocks, int nb, const bool *elem_used)
{
	int panel = 0;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!elem_used[e])
			continue;
		fprintf(f, "set title '%u-byte elements'\n%s", cb_elem_sizes[e], panel ? "unset key\n" : "");
		fputs("plot ", f);
		bool first = true;
		for (int b = 0; b < nb; b++) {
			if (blocks[b].elem != e)
				continue;
			/* One colour per document, the same in every panel. */
			fprintf(f, "%s$d%d using 1:2 with linespoints pt 7 ps 0.35 lw 1.2 lc %d "
				"title columnheader(2)", first ? "" : ", \\\n     ", b, blocks[b].doc + 1);
			first = false;
		}
		fputc('\n', f);
		panel++;
	}
}

cb_rc cb_plot_script(const cb_result *const *rs, const char *const *labels, int ndocs,
		     cb_plot_format fmt, char **script, cb_error *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return cb_error_set(err, CB_ERR_NOMEM, "out of memory");
	block *blocks = cb_xcalloc((size_t)ndocs * CB_NELEM, sizeof *blocks);
	bool elem_used[CB_NELEM] = { false };
	int nb = write_blocks(f, rs, labels, ndocs, blocks, elem_used);
	int panels = 0;
	for (int e = 0; e < CB_NELEM; e++)
		panels += elem_used[e];
	int cols = panels < 3 ? panels : 3, rows = cols ? (panels + cols - 1) / cols : 1;
	terminal_line(f, fmt, 380 * cols, 330 * rows + 40);
	fprintf(f, "set output\nset multiplot layout %d,%d title 'Local memory stride sweep: "
		"slowdown against stride 1 (log scale)'\n", rows, cols);
	fputs("set xlabel 'stride (elements)'\nset logscale y 2\nset grid\nset xrange [0:72]\n"
	      "set xtics 8\nset yrange [0.5:64]\nset key top left font ',9' samplen 2 opaque\n", f);
	write_panels(f, blocks, nb, elem_used);
	fputs("unset multiplot\n", f);
	free(blocks);
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		free(text);
		return cb_error_set(err, CB_ERR_NOMEM, "out of memory");
	}
	if (nb == 0) {
		free(text);
		return cb_error_set(err, CB_ERR_INPUT, "no stride measurements to plot in %s",
				    ndocs == 1 ? labels[0] : "these documents");
	}
	*script = text;
	return CB_OK;
}

static bool ends_with(const char *s, size_t len, const char *tail)
{
	size_t t = strlen(tail);
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	return len >= t && memcmp(s + len - t, tail, t) == 0;
}

static bool contains_near_end(const char *s, size_t len, const char *what, size_t window)
{
	size_t w = strlen(what), from = len > window ? len - window : 0;
	for (size_t i = from; i + w <= len; i++)
		if (memcmp(s + i, what, w) == 0)
			return true;
	return false;
}

bool cb_plot_output_complete(const char *out, size_t len, cb_plot_format fmt)
{
	switch (fmt) {
	case CB_PLOT_PNG:
		return len > 20 && memcmp(out, "\x89PNG\r\n\x1a\n", 8) == 0 &&
		       contains_near_end(out, len, "IEND", 12);
	case CB_PLOT_PDF:
		return len > 20 && memcmp(out, "%PDF-", 5) == 0 && contains_near_end(out, len, "%%EOF", 32);
	default:
		return len > 0 && ends_with(out, len, "</svg>");
	}
}
