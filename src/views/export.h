/* SPDX-License-Identifier: MIT */
/* clbanks export as simulator options: GPGPU-Sim / Accel-Sim (gpgpusim.config lines) and
 * gem5's GPU model (apu_se.py options), each value taken from the document's loads, with
 * comments naming what the target cannot express. */
#ifndef CB_VIEWS_EXPORT_H
#define CB_VIEWS_EXPORT_H

#include "core/error.h"
#include "core/export.h"

#include <stdio.h>

typedef enum { CB_EXPORT_GPGPUSIM, CB_EXPORT_GEM5 } cb_export_target;

/* CB_ERR_USAGE (ERR says why) when the loads have no banked model to export; else writes. */
cb_rc cb_export_check(const cb_export_model *m, const char *source, cb_error *err);
void cb_export_print(FILE *out, const cb_export_model *m, const char *source,
		     cb_export_target target);

#endif
