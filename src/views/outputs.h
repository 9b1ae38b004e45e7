/* SPDX-License-Identifier: MIT */
/* The small outputs of the commands: the device list of --list, predict's answer and the
 * summary of a plan, in text or CSV; their JSON forms are the document codec's
 * (doc/doc_outputs.h), which these call for FMT json. */
#ifndef CB_VIEWS_OUTPUTS_H
#define CB_VIEWS_OUTPUTS_H

#include "core/plan.h"
#include "core/result.h"
#include "doc/doc_outputs.h"
#include "measure/device.h"
#include "views/report.h"

#include <stdbool.h>
#include <stdio.h>

/* --list: the devices of LIST in FMT (text as clinfo shows them, with the platforms that have
 * none), DFLT marked as the default; INFOS (one per device, or NULL) what each driver reports:
 * local memory, compute units and clock, sub-group sizes, versions. */
void cb_device_list_print(FILE *out, const cb_device_list *list, const cb_device_info *infos,
			  size_t dflt, cb_format fmt);
/* predict's answer A in FMT; VERBOSE: text adds which lanes share each pass. */
void cb_predict_print(FILE *out, const cb_predict_answer *a, cb_format fmt, bool verbose);
/* The text of a --plan FILE run (R, its document at DOC or NULL): the device, then each table
 * measured with its time and its ratio to the baseline, and what reads them next (lint
 * --measured for lint's tables, analyze for a bank model); no bank report, which a plan's few
 * tables do not make. */
void cb_plan_run_print(FILE *out, const cb_result *r, const char *doc);
/* plan --format text: how many experiments of each kind per op and element size. */
void cb_plan_summary_print(FILE *out, const cb_result *plan, const cb_plan_opts *po);

#endif
