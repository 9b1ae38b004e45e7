/* SPDX-License-Identifier: MIT */
/* A measurement session: the run, the analysis of what it measured and the transpose check of
 * the advice on the same device, for any front end (clbanks [run], --device all). */
#include "config.h"
#include "measure/session.h"
#include "core/analyze.h"
#include "core/plan.h"
#include "core/util.h"
#include "measure/ocl.h"
#include "measure/transpose.h"

#include <math.h>
#include <string.h>

/* A stop after the measurement says so, as a stop inside it says how far it got. */
static cb_rc stopped_in(cb_rc rc, const char *stage, cb_error *err)
{
	if (rc == CB_ERR_INTERRUPTED && cb_stop_signal)
		cb_error_interrupted(err, " after the measurement, in %s; nothing written", stage);
	return rc;
}

/* Whether a run of RO has a transpose check, run or skipped (--check none, or the analysis
 * skips it): a plan of one's own (--plan) runs only its experiments. */
static bool check_planned(const cb_run_opts *ro)
{
	return !ro->latency && !ro->plan && (ro->ops & CB_OP_BIT(CB_OP_LOAD));
}

/* The run's timer and launch length are chosen (the event timer): the check's programs compile
 * while the device measures. */
static void start_check_builds(void *ctx, cb_ocl *ocl, unsigned subgroup)
{
	const cb_run_opts *ro = ctx;
	cb_transpose_prebuild(ocl, subgroup, ro->quick);
}

/* The analysis of a measured R (reusing the run's pass cache), then the transpose check of its
 * advice on the same device (throughput regime, when loads were measured). */
static cb_rc analyze_and_check(const cb_device_ref *ref, const cb_device_info *info,
			       const cb_run_opts *ro, cb_pass_cache *cache, cb_ocl *ocl,
			       cb_result *r, cb_error *err)
{
	double t0 = cb_now();
	cb_rc rc = stopped_in(cb_analyze_cached(r, cache, err), "the analysis", err);
	r->run.seconds_analysis = cb_now() - t0;
	if (rc != CB_OK || !check_planned(ro) || !r->op_present[CB_OP_LOAD])
		return rc;
	const char *skip = ro->check == CB_CHECK_NONE   ? "--check none"
			   : ro->check == CB_CHECK_AUTO ? cb_transpose_skip_reason(r)
							: NULL;
	if (skip) {
		r->run.check_skipped = cb_xstrdup(skip);
		cb_note(ro->notify, CB_NOTE_DETAIL,
			"transpose check skipped: %s (--check transpose runs it)", skip);
		return rc;
	}
	cb_transpose_opts to = { .event_timer = r->run.timer && strcmp(r->run.timer, "event") == 0,
				 .quick = ro->quick,
				 .timeout_s = ro->timeout_s,
				 .kernel_dir = ro->kernel_dir,
				 .build_options = ro->build_options,
				 .cache_dir = ro->cache_dir,
				 .notify = ro->notify,
				 .ocl = ocl,
				 .tick_ns = r->run.timer_granularity_ns > 0
						    ? (double)r->run.timer_granularity_ns
						    : 0 };
	/* run.seconds.total and run.launches count the check too: it is part of the run. */
	t0 = cb_now();
	rc = stopped_in(cb_check_transpose(ref, info, &to, r, err), "the transpose check", err);
	r->run.seconds_check = cb_now() - t0;
	if (isfinite(r->run.seconds_total))
		r->run.seconds_total += r->run.seconds_check;
	return rc;
}

cb_rc cb_session_run(const cb_run_opts *base, const cb_device_ref *ref, cb_result *r, cb_error *err)
{
	cb_run_opts ro = *base;
	cb_pass_cache *cache = NULL;
	cb_ocl *ocl = NULL;
	ro.keep_cache = &cache;
	ro.keep_ocl = &ocl;
	if (check_planned(&ro) && ro.check != CB_CHECK_NONE) {
		ro.on_ready = start_check_builds;
		ro.on_ready_ctx = &ro;
	}
	cb_device_info info;
	cb_device_info_gather(ref, &info, ro.notify);
	cb_note(ro.notify, CB_NOTE_INFO, "measuring %s (%s), %s regime", info.name,
		info.platform_name, ro.latency ? "latency" : "throughput");
	cb_rc rc = cb_measure(ref, &info, &ro, r, err);
	if (rc == CB_OK)
		rc = analyze_and_check(ref, &info, &ro, cache, ocl, r, err);
	cb_ocl_close(ocl);
	cb_device_info_free(&info);
	cb_pass_cache_free(cache);
	return rc;
}
