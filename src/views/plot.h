/* SPDX-License-Identifier: MIT */
/* plot: stride curves of one or more result documents as SVG, through gnuplot found at run time. */
#ifndef CB_PLOT_H
#define CB_PLOT_H

#include <stdbool.h>

int cb_plot_main(char **files, int nfiles, const char *output, bool force);

#endif
