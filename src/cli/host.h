/* SPDX-License-Identifier: MIT */
/* The host a run's document records (--host, $CLBANKS_HOST): by default a short id that tells
 * machines apart without giving away their names (core/hostid.h), the hostname only when
 * asked, or nothing. Internal to src/cli/. */
#ifndef CB_CLI_HOST_H
#define CB_CLI_HOST_H

#include "cli/options.h"
#include "core/error.h"
#include "core/result.h"

/* The mode of --host, else of $CLBANKS_HOST (id, name or none), else id, into *MODE (0 id,
 * 1 name, 2 none). CB_ERR_USAGE for another value of the variable. */
cb_rc cb_host_mode(const cb_cli_options *o, int *mode, cb_error *err);
/* Records this machine in RUN as MODE says. */
void cb_host_record(int mode, cb_run_meta *run);

#endif
