/* SPDX-License-Identifier: MIT */
/* clbanks [run]: --list, and the measurement of one device: discovery, the run, the analysis,
 * the transpose check, the document and the report. */
#include "config.h"
#include "cli/cmd_run.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/outfile.h"
#include "core/analyze.h"
#include "core/plan.h"
#include "core/util.h"
#include "doc/doc.h"
#include "doc/doc_outputs.h"
#include "measure/transpose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const cb_device_list *list;
	size_t dflt;
	cb_format fmt;
} list_ctx;

/* The platforms FROM to TO - 1 (none of which has a listed device), as clinfo shows them. */
static void empty_platforms(FILE *out, const cb_device_list *list, unsigned from, unsigned to)
{
	for (unsigned p = from; p < to && p < list->nplatforms; p++) {
		char *plat = cb_escape_controls(list->platforms[p].name), pd[32];
		snprintf(pd, sizeof pd, "%u:-", p);
		fprintf(out, "%-7s %-5s %-12s %s (%s)\n", "-", pd, "-", list->platforms[p].failed ?
			"devices not listed: clGetDeviceIDs failed" : "no devices", plat);
		free(plat);
	}
}

static void render_list(FILE *out, const void *p)
{
	const list_ctx *c = p;
	if (c->fmt == CB_FMT_CSV)
		fputs("index,id,type,name,vendor,platform,default\r\n", out);
	else if (c->fmt == CB_FMT_TEXT)
		fprintf(out, "%-7s %-5s %-12s %s\n", "index", "P:D", "type", "device (platform)");
	cb_device_entry *e = cb_xcalloc(c->list->count + 1, sizeof *e);
	for (size_t i = 0; i < c->list->count; i++) {
		const cb_device_ref *r = &c->list->items[i];
		if (c->fmt == CB_FMT_TEXT)
			empty_platforms(out, c->list, i ? c->list->items[i - 1].pindex + 1 : 0,
					r->pindex);
		e[i] = (cb_device_entry){ r->flat, r->pindex, r->dindex, cb_device_type_name(r->type),
					  r->name, r->vendor, r->platform_name, i == c->dflt };
		char idx[32], pd[32];
		snprintf(idx, sizeof idx, "%u%s", r->flat, i == c->dflt ? " *" : "");
		snprintf(pd, sizeof pd, "%u:%u", r->pindex, r->dindex);
		if (c->fmt == CB_FMT_TEXT) {
			char *name = cb_escape_controls(r->name), *plat = cb_escape_controls(r->platform_name);
			fprintf(out, "%-7s %-5s %-12s %s (%s)\n", idx, pd, e[i].type, name, plat);
			free(name);
			free(plat);
		} else if (c->fmt == CB_FMT_CSV) {
			snprintf(idx, sizeof idx, "%u", r->flat);
			const char *f[] = { idx, pd, e[i].type, r->name, r->vendor, r->platform_name,
					    i == c->dflt ? "1" : "0" };
			for (size_t k = 0; k < 7; k++)
				cb_csv_field(out, f[k], k == 6);
		}
	}
	if (c->fmt == CB_FMT_TEXT) {
		empty_platforms(out, c->list, c->list->count ?
				c->list->items[c->list->count - 1].pindex + 1 : 0,
				c->list->nplatforms);
		if (c->list->count)
			fputs("* the default device (used without --device)\n", out);
	}
	if (c->fmt == CB_FMT_JSON) {
		char *s = cb_devices_json(e, c->list->count);
		fputs(s, out);
		free(s);
	}
	free(e);
}

static cb_rc cmd_list(const cb_cli_options *o, cb_error *err)
{
	cb_notifier n = cb_cli_notifier(o);
	cb_device_list list;
	cb_rc rc = cb_output_check(o->output, o->force, err);
	if (rc != CB_OK)
		return rc;
	/* Platforms without a device are shown too; none with a device is still exit 3. */
	rc = cb_devices_enumerate_all(&list, &n, err);
	list_ctx c = { &list, cb_device_default(&list), cb_format_of(o, CB_FMT_TEXT) };
	if ((rc == CB_OK || (rc == CB_ERR_NODEV && list.nplatforms > 0)) && c.fmt == CB_FMT_TEXT) {
		cb_error e2;
		cb_error_clear(&e2);
		cb_rc rc2 = cb_emit(o->output, o->force, render_list, &c, &e2);
		if (rc2 != CB_OK) {
			*err = e2;
			rc = rc2;
		}
	} else if (rc == CB_OK) {
		rc = cb_emit(o->output, o->force, render_list, &c, err);
	}
	cb_devices_free(&list);
	return rc;
}

static const char *device_spec(const cb_cli_options *o)
{
	return o->device ? o->device : getenv("CLBANKS_DEVICE");
}

bool cb_device_spec_all(const cb_cli_options *o)
{
	const char *spec = device_spec(o);
	return spec && strcmp(spec, "all") == 0;
}

cb_rc cb_pick_device(const cb_cli_options *o, const cb_device_list *list,
		     const cb_notifier *n, size_t *idx, cb_error *err)
{
	const char *spec = device_spec(o);
	if (spec && *spec)
		return cb_device_select(list, spec, n, idx, err);
	*idx = cb_device_default(list);
	return CB_OK;
}

static const char *env_or(const char *value, const char *name)
{
	const char *v = value ? value : getenv(name);
	return v && *v ? v : NULL;
}

cb_rc cb_run_options(const cb_cli_options *o, const cb_result *plan, const cb_notifier *n,
		     cb_run_opts *ro, cb_error *err)
{
	*ro = (cb_run_opts){
		.kernel_dir = env_or(o->kernel_dir, "CLBANKS_KERNEL_DIR"),
		.build_options = env_or(o->build_options, "CLBANKS_BUILD_OPTIONS"),
		.latency = o->regime == 1, .quick = o->quick, .ops = o->ops,
		.min_rounds = (unsigned)o->min_rounds, .max_rounds = (unsigned)o->max_rounds,
		.ci_target = o->ci_target, .max_kernel_ms = o->max_kernel_ms,
		.timeout_s = (unsigned)o->timeout, .subgroup_override = (unsigned)o->subgroup,
		.measure_subgroup = o->measure_subgroup, .local_mem = o->local_mem, .seed = o->seed,
		.plan = plan, .command_line = o->command_line, .notify = n,
		.full_plan = o->plan && !cb_plan_file(o), .check = (cb_check_mode)o->check,
	};
	if (ro->check == CB_CHECK_TRANSPOSE &&
	    (ro->latency || plan || !(ro->ops & CB_OP_BIT(CB_OP_LOAD))))
		return cb_error_set(err, CB_ERR_USAGE, "--check transpose: the check follows a "
				    "measurement of the loads by the default plan in the throughput "
				    "regime (not with --regime latency, --plan FILE or --ops without "
				    "load)");
	/* --quick: a 5% target and 12 rounds at most, unless set. An explicit --ci-target asks
	 * for every interval. */
	if (o->quick && !cb_option_given(o, "max-rounds"))
		ro->max_rounds = 12;
	if (o->quick && !cb_option_given(o, "ci-target"))
		ro->ci_target = 0.05;
	ro->all_narrow = cb_option_given(o, "ci-target");
	if (ro->latency && cb_option_given(o, "ops") && (o->ops & CB_OP_BIT(CB_OP_STORE)))
		cb_note(n, CB_NOTE_WARNING, "--regime latency with stores: a store chain has no "
			"dependency to time, so stores come out inconclusive there; measure them in the "
			"throughput regime (the default)");
	static const cb_timer_mode timers[] = { CB_TIMER_AUTO, CB_TIMER_EVENT, CB_TIMER_HOST };
	const char *t = getenv("CLBANKS_TIMER");
	if (o->timer >= 0)
		ro->timer = timers[o->timer];
	else if (t && *t && strcmp(t, "auto") && strcmp(t, "event") && strcmp(t, "host"))
		return cb_error_set(err, CB_ERR_USAGE, "CLBANKS_TIMER='%s' is not auto, event or host", t);
	else if (t && *t)
		ro->timer = t[0] == 'e' ? CB_TIMER_EVENT : t[0] == 'h' ? CB_TIMER_HOST : CB_TIMER_AUTO;
	const char *g = getenv("CLBANKS_GROUPS_PER_CU");
	if (g && *g && !cb_parse_ulong(g, 1, 4096, &ro->groups_per_cu))
		return cb_error_set(err, CB_ERR_USAGE, "CLBANKS_GROUPS_PER_CU='%s' is not a count from 1 "
				    "to 4096", g);
	return CB_OK;
}

/* A stop after the measurement says so, as a stop inside it says how far it got. */
static cb_rc stopped_in(cb_rc rc, const char *stage, cb_error *err)
{
	if (rc == CB_ERR_INTERRUPTED && cb_stop_signal)
		cb_error_interrupted(err, " after the measurement, in %s; nothing written", stage);
	return rc;
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
	/* A plan of one's own (--plan) runs only its experiments. */
	if (rc != CB_OK || ro->latency || ro->plan || !(ro->ops & CB_OP_BIT(CB_OP_LOAD)) ||
	    !r->op_present[CB_OP_LOAD])
		return rc;
	const char *skip = ro->check == CB_CHECK_NONE ? "--check none" :
			   ro->check == CB_CHECK_AUTO ? cb_transpose_skip_reason(r) : NULL;
	if (skip) {
		r->run.check_skipped = cb_xstrdup(skip);
		cb_note(ro->notify, CB_NOTE_DETAIL, "transpose check skipped: %s (--check transpose "
			"runs it)", skip);
		return rc;
	}
	cb_transpose_opts to = { .event_timer = r->run.timer && strcmp(r->run.timer, "event") == 0,
				 .quick = ro->quick, .timeout_s = ro->timeout_s,
				 .kernel_dir = ro->kernel_dir, .build_options = ro->build_options,
				 .notify = ro->notify, .ocl = ocl,
				 .tick_ns = r->run.timer_granularity_ns > 0 ?
					    (double)r->run.timer_granularity_ns : 0 };
	/* run.seconds.total and run.launches count the check too: it is part of the run. */
	t0 = cb_now();
	rc = stopped_in(cb_check_transpose(ref, info, &to, r, err), "the transpose check", err);
	r->run.seconds_check = cb_now() - t0;
	if (isfinite(r->run.seconds_total))
		r->run.seconds_total += r->run.seconds_check;
	return rc;
}

cb_rc cb_run_device(const cb_cli_options *o, const cb_run_opts *base, const cb_device_ref *ref,
		    cb_result *r, cb_error *err)
{
	cb_run_opts ro = *base;
	cb_pass_cache *cache = NULL;
	cb_ocl *ocl = NULL;
	ro.keep_cache = &cache;
	ro.keep_ocl = &ocl;
	cb_device_info info;
	cb_device_info_gather(ref, &info, ro.notify);
	cb_note(ro.notify, CB_NOTE_INFO, "measuring %s (%s), %s regime", info.name, info.platform_name,
		o->regime == 1 ? "latency" : "throughput");
	cb_rc rc = cb_measure(ref, &info, &ro, r, err);
	if (rc == CB_OK)
		rc = analyze_and_check(ref, &info, &ro, cache, ocl, r, err);
	cb_ocl_close(ocl);
	cb_device_info_free(&info);
	cb_pass_cache_free(cache);
	return rc;
}

/* Device discovery, the measurement, the analysis and the transpose check, into R. */
static cb_rc measure(const cb_cli_options *o, const cb_result *plan, cb_result *r, cb_error *err)
{
	cb_notifier n = cb_cli_notifier(o);
	cb_device_list list;
	size_t idx = 0;
	cb_run_opts ro;
	cb_rc rc = cb_run_options(o, plan, &n, &ro, err);
	if (rc != CB_OK || (rc = cb_devices_enumerate(&list, &n, err)) != CB_OK)
		return rc;
	if ((rc = cb_pick_device(o, &list, &n, &idx, err)) == CB_OK)
		rc = cb_run_device(o, &ro, &list.items[idx], r, err);
	cb_devices_free(&list);
	return rc;
}

/* The document to -o (JSON, or CSV when the name says so), and the report to standard output
 * ("-o -": the document there instead). */
static cb_rc write_run(const cb_cli_options *o, const cb_result *r, cb_error *err)
{
	bool doc_to_stdout = o->output && strcmp(o->output, "-") == 0;
	cb_rc rc = CB_OK;
	if (o->output && !doc_to_stdout) {
		cb_format f = cb_format_for_path(o->output, CB_FMT_JSON) == CB_FMT_CSV ? CB_FMT_CSV :
			      CB_FMT_JSON;
		rc = cb_emit(o->output, o->force, cb_renderer(f), r, err);
	}
	if (rc == CB_OK && doc_to_stdout)
		rc = cb_emit("-", false, cb_renderer(cb_format_of(o, CB_FMT_JSON)), r, err);
	else if (rc == CB_OK)
		rc = cb_emit("-", false, cb_renderer(cb_format_of(o, CB_FMT_TEXT)), r, err);
	return rc;
}

cb_rc cb_cmd_run(const cb_cli_options *o, cb_error *err)
{
	if (o->list)
		return cmd_list(o, err);
	cb_result plan, r;
	cb_result_init(&plan);
	cb_result_init(&r);
	cb_rc rc = cb_output_check(o->output, o->force, err);
	if (rc == CB_OK && cb_plan_file(o))
		rc = cb_doc_read(o->plan, 0, &plan, err);
	if (rc == CB_OK)
		rc = measure(o, cb_plan_file(o) ? &plan : NULL, &r, err);
	if (rc == CB_OK)
		rc = write_run(o, &r, err);
	if (rc == CB_OK)
		rc = cb_strict_check(o, &r, err);
	cb_result_free(&plan);
	cb_result_free(&r);
	return rc;
}
