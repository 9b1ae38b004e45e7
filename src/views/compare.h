/* SPDX-License-Identifier: MIT */
/* compare: the geometry and key figures of several result documents side by side. */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include "views/report.h"

#include <stdbool.h>

int cb_compare_main(char **files, int nfiles, cb_format fmt, const char *output, bool force);

#endif
