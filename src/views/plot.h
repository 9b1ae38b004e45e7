/* SPDX-License-Identifier: MIT */
/* plot: the stride curves of one or more result documents as a gnuplot program. Nothing from a
 * document reaches gnuplot except numbers and titles, and titles only as quoted data (a
 * datablock header read with `title columnheader`), restricted to a safe alphabet. The program
 * writes the picture to standard output; no file name appears in it.
 *
 * The picture: one panel per element size, slowdown against stride 1 over every measured
 * stride, both axes log2 (stride 0 at the left edge, labelled 0). Measurements are filled dots;
 * for a banked document the model's slowdown, passes(stride) / passes(1), is a ring at each
 * measured stride, so a dot inside its ring is a stride the model explains. The key, below the
 * panels, names each document with its verdict. */
#ifndef CB_PLOT_H
#define CB_PLOT_H

#include "core/error.h"
#include "core/result.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum { CB_PLOT_SVG, CB_PLOT_PNG, CB_PLOT_PDF } cb_plot_format;

/* The exit status of the program when gnuplot lacks the terminal of the format (gnuplot itself
 * exits 0 or 1). */
#define CB_PLOT_NO_TERMINAL 3

/* The format an output name asks for (.svg, .png, .pdf, in any case); false for any other. */
bool cb_plot_format_from_path(const char *path, cb_plot_format *fmt);

/* gnuplot's terminal for FMT ("svg", "pngcairo", "pdfcairo"). */
const char *cb_plot_terminal(cb_plot_format fmt);

/* The title shown for NAME: letters, digits, space and . , : ( ) + - / = _ only (anything else
 * becomes '?'), at most 60 characters. */
void cb_plot_safe_title(const char *name, char *buf, size_t n);

/* The gnuplot program for N results (analyzed: the verdict and the model come from their load
 * inference); LABELS[i] names result i when it has no device name. *SCRIPT is owned by the
 * caller. CB_ERR_INPUT when no result has stride measurements. */
cb_rc cb_plot_script(const cb_result *const *rs, const char *const *labels, int n,
		     cb_plot_format fmt, char **script, cb_error *err);

/* Is OUT (LEN bytes) a complete picture of FMT (an SVG that ends with </svg>, a PNG with its
 * IEND chunk, a PDF with %%EOF)? */
bool cb_plot_output_complete(const char *out, size_t len, cb_plot_format fmt);

#endif
