/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/plot.h"
#include "core/model.h"
#include "core/select.h"
#include "core/util.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The layout in pixels (PDF: at 96 per inch). */
#define PANEL_W 420
#define PANEL_H 300
#define TITLE_H 44
#define KEY_LINE_H 15

bool cb_plot_format_from_path(const char *path, cb_plot_format *fmt)
{
	/* clang-format off */
	static const struct { const char *ext; cb_plot_format fmt; } table[] = {
		{ ".svg", CB_PLOT_SVG }, { ".png", CB_PLOT_PNG }, { ".pdf", CB_PLOT_PDF },
	};
	/* clang-format on */
	size_t n = path ? strlen(path) : 0;
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (n > 4 && strcasecmp(path + n - 4, table[i].ext) == 0) {
			*fmt = table[i].fmt;
			return true;
		}
	return false;
}

const char *cb_plot_terminal(cb_plot_format fmt)
{
	switch (fmt) {
	case CB_PLOT_PNG:
		return "pngcairo";
	case CB_PLOT_PDF:
		return "pdfcairo";
	default:
		return "svg";
	}
}

/* NAME in the safe alphabet, at most MAX characters. */
static void safe_copy(const char *name, char *buf, size_t n, size_t max)
{
	static const char extra[] = " .,:()+-/=_";
	size_t k = 0;
	if (max > n - 1)
		max = n - 1;
	for (const char *s = name; *s && k < max; s++) {
		unsigned char c = (unsigned char)*s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || (c && strchr(extra, c));
		buf[k++] = ok ? (char)c : '?';
	}
	buf[k] = '\0';
}

void cb_plot_safe_title(const char *name, char *buf, size_t n)
{
	safe_copy(name, buf, n, 60);
}

/* gnuplot without the format's terminal stops with CB_PLOT_NO_TERMINAL before anything else:
 * `set terminal` would only fail and leave the previous terminal drawing. */
static void terminal_check(FILE *f, cb_plot_format fmt)
{
	fprintf(f, "if (strstrt(GPVAL_TERMINALS, ' %s ') == 0) { exit status %d }\n",
		cb_plot_terminal(fmt), CB_PLOT_NO_TERMINAL);
}

/* The terminal for a picture of W x H pixels. */
static void terminal_line(FILE *f, cb_plot_format fmt, int w, int h)
{
	switch (fmt) {
	case CB_PLOT_PNG:
		fprintf(f,
			"set terminal pngcairo size %d,%d noenhanced font 'sans,10' "
			"background '#ffffff'\n",
			w, h);
		break;
	case CB_PLOT_PDF:
		fprintf(f, "set terminal pdfcairo size %.2fin,%.2fin noenhanced font 'sans,10'\n",
			w / 96.0, h / 96.0);
		break;
	default:
		fprintf(f,
			"set terminal svg size %d,%d dynamic noenhanced font 'sans,11' "
			"background '#ffffff'\n",
			w, h);
		break;
	}
}

typedef struct {
	int doc, elem;
	bool model; /* a third column: the model's slowdown */
} block;

/* What the data span, so that the axes show all of it. */
typedef struct {
	unsigned max_stride;
	bool stride0;
	double lo, hi; /* smallest and largest slowdown */
} extent;

static void widen(extent *x, unsigned stride, double v)
{
	if (stride > x->max_stride)
		x->max_stride = stride;
	x->stride0 |= stride == 0;
	if (isfinite(v) && v > 0) {
		x->lo = v < x->lo ? v : x->lo;
		x->hi = v > x->hi ? v : x->hi;
	}
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* The strides of the timed load stride walks of one element size, sorted, each once. */
static size_t measured_strides(const cb_result *r, unsigned elem, unsigned **out)
{
	unsigned *s = cb_xmalloc((r->nms + 1) * sizeof *s);
	size_t n = 0, k = 0;
	for (size_t i = 0; i < r->nms; i++) {
		const cb_measurement *m = &r->ms[i];
		long long v;
		if (m->op == CB_OP_LOAD && m->elem_bytes == elem && cb_kind_is(m, "stride") &&
		    cb_param_get(m, "stride", &v) && v >= 0 && v <= UINT_MAX &&
		    isfinite(m->ns_per_access))
			s[n++] = (unsigned)v;
	}
	qsort(s, n, sizeof *s, cmp_unsigned);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || s[i] != s[k - 1])
			s[k++] = s[i];
	*out = s;
	return k;
}

/* The model's time at stride S against its time at stride 1, in the document's own scale:
 * its fitted t = t0 + c * passes of this element size (in the latency regime t0 is most of a
 * step, and passes alone would sit far above the dots); passes(S) / passes(1) where the fit
 * has no usable line. */
static double model_ratio(const cb_inference *inf, int e, unsigned p, unsigned p1)
{
	double t0 = inf->best.t0[e], c = inf->best.c[e];
	double t1 = t0 + c * p1, t = t0 + c * p;
	if (!p || !p1)
		return NAN;
	if (isfinite(t0) && isfinite(c) && c > 0 && t0 >= 0 && t1 > 0)
		return t / t1;
	return (double)p / p1;
}

/* One datablock: a header row with the titles, then stride, measured slowdown and, for a
 * banked document, the model's against stride 1 (model_ratio; stride 1 takes 2 or 4 passes
 * for 8- and 16-byte elements on some devices). False, with nothing written, when this
 * element size has no measured stride pair. */
static bool write_block(FILE *f, const cb_result *r, int nb, block *b, char titles[2][128],
			extent *x)
{
	const cb_inference *inf = &r->inference[CB_OP_LOAD];
	const unsigned S = r->device.subgroup_size, E = cb_elems[b->elem].bytes;
	b->model = inf->status == CB_BANKED && inf->has_best && inf->elem_present[b->elem] &&
		   S > 0 && S <= CB_MAX_LANES;
	unsigned p1 = b->model ? cb_inference_stride_passes(inf, S, E, 1) : 0, *strides;
	b->model = p1 > 0;
	size_t ns = measured_strides(r, E, &strides);
	bool any = false;
	for (size_t k = 0; k < ns; k++) {
		double meas = cb_stride_ratio(r, CB_OP_LOAD, E, strides[k]);
		if (!isfinite(meas) || meas <= 0)
			continue;
		if (!any)
			fprintf(f, "$d%d << EOD\nstride \"%s\"%s%s%s\n", nb, titles[0],
				b->model ? " \"" : "", b->model ? titles[1] : "",
				b->model ? "\"" : "");
		any = true;
		fprintf(f, "%u %.6g", strides[k], meas);
		widen(x, strides[k], meas);
		if (b->model) {
			unsigned p = cb_inference_stride_passes(inf, S, E, strides[k]);
			double pred = model_ratio(inf, b->elem, p, p1);
			widen(x, strides[k], pred);
			fprintf(f, isfinite(pred) ? " %.6g" : " NaN", pred);
		}
		fputc('\n', f);
	}
	if (any)
		fputs("EOD\n", f);
	free(strides);
	return any;
}

/* The key's titles of a document: who (the name and the regime, each cut short) and the
 * verdict; who and "model". */
static void doc_titles(const cb_result *r, const char *label, char titles[2][128])
{
	const char *name = r->device.name, *regime = r->run.regime;
	const cb_inference *inf = &r->inference[CB_OP_LOAD];
	char raw[256], who[64], mode[24], verdict[64];
	cb_plot_safe_title(name ? name : label, who, sizeof who);
	safe_copy(regime ? regime : "", mode, sizeof mode, 20);
	if (inf->status == CB_BANKED)
		snprintf(verdict, sizeof verdict, "banked %u x %u B, confidence %.3f",
			 inf->best.geom.banks, inf->best.geom.width, inf->confidence);
	else
		snprintf(verdict, sizeof verdict, "%s",
			 inf->status == CB_NOT_BANKED ? "not banked" : "inconclusive");
	snprintf(raw, sizeof raw, "%s%s%s%s: %s", who, regime ? " (" : "", mode, regime ? ")" : "",
		 verdict);
	safe_copy(raw, titles[0], sizeof titles[0], sizeof titles[0] - 1);
	snprintf(raw, sizeof raw, "%s%s%s%s: the model, t0 + c x passes, against stride 1", who,
		 regime ? " (" : "", mode, regime ? ")" : "");
	safe_copy(raw, titles[1], sizeof titles[1], sizeof titles[1] - 1);
}

/* One datablock per (document, element size). */
static int write_blocks(FILE *f, const cb_result *const *rs, const char *const *labels, int ndocs,
			block *blocks, bool *elem_used, extent *x)
{
	int nb = 0;
	for (int i = 0; i < ndocs; i++) {
		char titles[2][128];
		doc_titles(rs[i], labels[i], titles);
		for (int e = 0; e < CB_NELEM; e++) {
			blocks[nb] = (block){ .doc = i, .elem = e };
			if (!write_block(f, rs[i], nb, &blocks[nb], titles, x))
				continue;
			elem_used[e] = true;
			nb++;
		}
	}
	return nb;
}

/* The block of DOC for element size ELEM (-1: its first), or -1. */
static int find_block(const block *blocks, int nb, int doc, int elem)
{
	for (int b = 0; b < nb; b++)
		if (blocks[b].doc == doc && (elem < 0 || blocks[b].elem == elem))
			return b;
	return -1;
}

/* The key lists each document once, in the first panel: its series there, or for a document
 * without data there, its first block drawn as nothing (*KEY_ONLY). */
static int key_block(const block *blocks, int nb, int doc, int first_elem, bool *key_only)
{
	int b = find_block(blocks, nb, doc, first_elem);
	*key_only = b < 0;
	return b >= 0 ? b : find_block(blocks, nb, doc, -1);
}

/* Log2 axes over everything drawn: stride 0 sits at the left edge (x = 0.5, labelled 0), powers
 * of two are the ticks (bank conflicts follow a stride's power-of-two factor), at most 12. */
static void write_axes(FILE *f, const extent *x)
{
	double xmax = (x->max_stride > 1 ? x->max_stride : 1) * 1.25;
	int top = 0, step = 1;
	while (top < 40 && ldexp(1, top + 1) <= xmax)
		top++;
	while (top / step + 1 > 12)
		step++;
	fprintf(f, "set logscale x 2\nset xrange [0.4:%.6g]\nset xtics (%s", xmax,
		x->stride0 ? "'0' 0.5" : "");
	for (int k = 0; k <= top; k += step)
		fprintf(f, "%s'%.0f' %.0f", k || x->stride0 ? ", " : "", ldexp(1, k), ldexp(1, k));
	double lo = fmax(1e-300, fmin(0.5, x->lo / 1.15)), hi = fmax(64, fmin(x->hi, 1e300) * 1.15);
	fprintf(f, ")\nset logscale y 2\nset yrange [%.6g:%.6g]\n", exp2(floor(log2(lo))),
		exp2(ceil(log2(hi))));
}

/* Each document's colour and marks in every panel: a filled mark for the measurement, the
 * same shape open and larger around it for the model (circle, square, triangle, diamond,
 * inverted triangle; gnuplot's point types), so that two documents' models never look alike. */
static const struct {
	int dot, ring;
} marks[] = { { 7, 6 }, { 5, 4 }, { 9, 8 }, { 13, 12 }, { 11, 10 } };
#define NMARKS (int)(sizeof marks / sizeof *marks)

static void write_series(FILE *f, const block *b, int index, bool key_only, bool *first)
{
	const char *x = key_only ? "1" : "($1 > 0 ? $1 : 0.5)";
	int m = b->doc % NMARKS;
	fprintf(f, "%s$d%d using %s:%s with points pt %d ps 0.45 lc %d title columnheader(2)",
		*first ? "" : ", \\\n     ", index, x, key_only ? "(NaN)" : "2", marks[m].dot,
		b->doc + 1);
	if (b->model)
		fprintf(f,
			", \\\n     $d%d using %s:%s with points pt %d ps 1.1 lc %d "
			"title columnheader(3)",
			index, x, key_only ? "(NaN)" : "3", marks[m].ring, b->doc + 1);
	*first = false;
}

static void write_panels(FILE *f, const block *blocks, int nb, int ndocs, const bool *elem_used)
{
	int panel = 0;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!elem_used[e])
			continue;
		fprintf(f, "set title '%u-byte elements'\n%splot ", cb_elems[e].bytes,
			panel ? "unset key\n" : "");
		bool first = true;
		for (int d = 0; d < ndocs; d++) {
			bool key_only = false;
			int b = panel ? find_block(blocks, nb, d, e)
				      : key_block(blocks, nb, d, e, &key_only);
			if (b >= 0)
				write_series(f, &blocks[b], b, key_only, &first);
		}
		fputc('\n', f);
		panel++;
	}
}

/* The terminal, the grid of panels and the key in a strip below them; the title speaks of
 * the model only when one is drawn (MODELS). */
static void write_layout(FILE *f, cb_plot_format fmt, int panels, int key_entries, bool models)
{
	int cols = panels < 3 ? panels : 3, rows = (panels + cols - 1) / cols;
	int key_h = 20 + KEY_LINE_H * key_entries;
	int w = PANEL_W * cols, h = TITLE_H + PANEL_H * rows + key_h;
	terminal_line(f, fmt, w, h);
	/* Screen fractions: y tics at the left, titles at the top, x labels and the key below. */
	fprintf(f,
		"set output\nset multiplot layout %d,%d title 'Local memory stride sweep: "
		"time per access against stride 1 (log2 axes)%s' "
		"margins %.4f,%.4f,%.4f,%.4f spacing %.4f,%.4f\n",
		rows, cols,
		models ? ": filled marks measured, open marks the model of each document"
		       : ": measured",
		70.0 / w, 1 - 20.0 / w, (key_h + 50.0) / h, 1 - (TITLE_H + 20.0) / h, 90.0 / w,
		95.0 / h);
	fprintf(f, "set key at screen 0.5,%.4f center top Left reverse font ',9' samplen 1\n",
		(key_h - 10.0) / h);
	fputs("set xlabel 'stride (elements, log2)'\nset ylabel 'slowdown (x stride 1)'\n"
	      "set grid\n",
	      f);
}

cb_rc cb_plot_script(const cb_result *const *rs, const char *const *labels, int ndocs,
		     cb_plot_format fmt, char **script, cb_error *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return cb_error_set(err, CB_ERR_NOMEM, "out of memory");
	terminal_check(f, fmt);
	block *blocks = cb_xcalloc((size_t)ndocs * CB_NELEM + 1, sizeof *blocks);
	bool elem_used[CB_NELEM] = { false };
	extent x = { .lo = INFINITY, .hi = 0 };
	int nb = write_blocks(f, rs, labels, ndocs, blocks, elem_used, &x);
	int panels = 0, first_elem = -1, entries = 0;
	bool models = false;
	for (int b = 0; b < nb; b++)
		models |= blocks[b].model;
	for (int e = CB_NELEM - 1; e >= 0; e--)
		if (elem_used[e]) {
			panels++;
			first_elem = e;
		}
	for (int d = 0; d < ndocs && nb; d++) {
		bool key_only;
		int b = key_block(blocks, nb, d, first_elem, &key_only);
		entries += b < 0 ? 0 : 1 + blocks[b].model;
	}
	if (nb) {
		write_layout(f, fmt, panels, entries, models);
		write_axes(f, &x);
		write_panels(f, blocks, nb, ndocs, elem_used);
		fputs("unset multiplot\n", f);
	}
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
		return len > 20 && memcmp(out, "%PDF-", 5) == 0 &&
		       contains_near_end(out, len, "%%EOF", 32);
	default:
		return len > 5 && (memcmp(out, "<?xml", 5) == 0 || memcmp(out, "<svg", 4) == 0) &&
		       ends_with(out, len, "</svg>");
	}
}
