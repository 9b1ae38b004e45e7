/* SPDX-License-Identifier: MIT */
/* A measurement session as one library call: what clbanks [run] and --device all do with a
 * device once the options are read, and what another front end or a test calls. */
#ifndef CB_SESSION_H
#define CB_SESSION_H

#include "core/error.h"
#include "core/result.h"
#include "measure/device.h"
#include "measure/run.h"

/* Measures the device REF with RO (notes to RO's notifier), analyzes the result into R and,
 * in the throughput regime with loads measured and no plan of one's own, times the transpose
 * check of its advice. A stop (cb_stop_signal) after the measurement says where it came. */
cb_rc cb_session_run(const cb_run_opts *ro, const cb_device_ref *ref, cb_result *r, cb_error *err);

#endif
