/* SPDX-License-Identifier: MIT */
/* The run of one device, which clbanks [run] (cmd_run.c) and --device all (cmd_all.c) share.
 * Internal to src/cli/. */
#ifndef CB_CLI_CMD_RUN_H
#define CB_CLI_CMD_RUN_H

#include "cli/options.h"
#include "core/notify.h"
#include "core/result.h"
#include "measure/device.h"
#include "measure/run.h"

/* The run options of the command line and the environment; notes go to N. */
cb_rc cb_run_options(const cb_cli_options *o, const cb_result *plan, const cb_notifier *n,
		     cb_run_opts *ro, cb_error *err);
/* The devices to measure on (cb_devices_enumerate), and the stop signals clbanks' again: the
 * drivers just loaded may have put their own handlers in front (cb_signals_reclaim). */
cb_rc cb_measure_devices(cb_device_list *list, const cb_notifier *n, cb_error *err);
/* The device: --device, else $CLBANKS_DEVICE, else the default. */
cb_rc cb_pick_device(const cb_cli_options *o, const cb_device_list *list, const cb_notifier *n,
		     size_t *idx, cb_error *err);
/* Does the device specification (--device, else $CLBANKS_DEVICE) say "all"? */
bool cb_device_spec_all(const cb_cli_options *o);

#endif
