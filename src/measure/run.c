/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/run.h"
#include "measure/run_internal.h"
#include "core/plan.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Throughput regime: work-groups of 256 work-items, 64 per local-memory unit. Many waves keep
 * the ragged last wave small: with 8 per compute unit an H200 held 7 at once and times were
 * bimodal; large work-groups of 1024 left too few warps in flight to saturate the banks. A
 * CPU's cores are kept busy by a few work-groups each; more only lengthen every step. */
#define WG_TARGET 256u
#define WG_PER_CU 64u
#define WG_PER_CPU_CORE 8u
/* The rounds' time budget that caps the launch length (see calibrate.c). */
#define BUDGET_S 6.0
/* ... in an adaptive run on a CPU device (cb_protocol_opts.cpu), where the launch noise is over
 * the limit at every length (PoCL on 2 cores: 2 to 5% from 1 to 4.5 ms), so the budget alone
 * sets the launch length: 1 ms at the adaptive design's 400 planned tables. Interleaved runs at
 * load 2 to 3.6 (results/pocl/launch-length-2core.txt): 1 ms gave loads not banked in 34 of 42
 * (6 s, 1.5 ms: 25 of 30), median confidence 0.31 (0.40), with a median measurement of 2.1 s
 * (2.7 s). --plan keeps 6 s: its hundreds of tables would get launches shorter still. */
#define BUDGET_CPU_S 4.0

static cb_rc run_batch(void *ctx, const cb_launch_item *items, size_t n, double expected_s,
		       uint64_t *ns, double *host_s, long *bad, cb_error *err)
{
	cb_runner *r = ctx;
	enum { NAME = 64 };
	cb_launch_req *reqs = cb_xmalloc(n * sizeof *reqs);
	char *names = cb_xmalloc(n * NAME);
	for (size_t i = 0; i < n; i++) {
		const cb_experiment *x = items[i].x;
		cb_experiment_name(x, names + i * NAME, NAME);
		reqs[i] = (cb_launch_req){ .op = x->op,
					   .elem = x->elem,
					   .table = x->table,
					   .nlanes = x->nlanes,
					   .steps = items[i].steps,
					   .fill_words = x->fill,
					   .lanes = x->lanes,
					   .what = names + i * NAME };
	}
	cb_rc rc = cb_ocl_run_batch(r->ocl, reqs, n, expected_s, ns, host_s, bad, err);
	r->launches += (long long)n;
	for (size_t i = 0; rc == CB_OK && i < n; i++)
		r->device_ns += (double)ns[i];
	free(names);
	free(reqs);
	return rc;
}

static double host_clock(void *ctx)
{
	(void)ctx;
	return cb_now();
}

/* The local allocation, before any kernel is built: --local-mem, or what the device offers a
 * work-group up to the default budget. */
static cb_rc choose_local(cb_runner *r, cb_error *err)
{
	const cb_run_opts *o = r->o;
	r->local_avail = (unsigned long)r->info->local_mem_size;
	/* 0: the driver's value was implausible and is recorded as unknown (a warning said so);
	 * --local-mem names the size then. */
	if (!r->local_avail && !o->local_mem)
		return cb_error_set(
			err, CB_ERR_USAGE,
			"%s: the driver reports no plausible local "
			"memory size (see the warning); give the size a work-group may use "
			"with --local-mem BYTES",
			r->info->name);
	if (!r->local_avail)
		r->local_avail = o->local_mem;
	r->local_alloc = o->local_mem ? o->local_mem
				      : (r->local_avail < CB_DEFAULT_LOCAL_BYTES
						 ? r->local_avail
						 : CB_DEFAULT_LOCAL_BYTES);
	r->local_alloc &= ~15UL;
	if (r->local_alloc > r->local_avail)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--local-mem %lu B exceeds the local memory this "
				    "device offers a work-group (%lu B)",
				    o->local_mem, r->local_avail);
	if (r->local_alloc < 4096)
		return cb_error_set(err, CB_ERR_USAGE,
				    "%s offers %lu B of local memory to a work-group; "
				    "clbanks needs at least 4096 B",
				    r->info->name, r->local_avail);
	return CB_OK;
}

/* With cl_intel_required_subgroup_size the kernels are built for one SIMD width: --subgroup
 * when the device offers it, else 16 (the shared-local-memory message width from Gen9 to
 * DG2), else the smallest it offers. */
static cb_rc choose_pin(cb_runner *r, cb_error *err)
{
	const cb_device_info *info = r->info;
	unsigned want = r->o->subgroup_override, pick = 0, smallest = 0;
	if (!info->intel_subgroup_count)
		return CB_OK;
	for (unsigned i = 0; i < info->intel_subgroup_count; i++) {
		unsigned s = (unsigned)info->intel_subgroup_sizes[i];
		if (s == (want ? want : 16))
			pick = s;
		if (!smallest || s < smallest)
			smallest = s;
	}
	if (want && !pick)
		return cb_error_set(err, CB_ERR_USAGE,
				    "--subgroup %u: %s builds kernels for sub-groups "
				    "of %zu%s%s only (CL_DEVICE_SUB_GROUP_SIZES_INTEL)",
				    want, info->name, info->intel_subgroup_sizes[0],
				    info->intel_subgroup_count > 1 ? " and the other listed sizes"
								   : "",
				    "");
	r->pin = pick ? pick : smallest;
	return CB_OK;
}

/* The kernels a run of the options' ops may launch on this device, built before the plan is
 * known, all in one program: the 4-byte loads' (the baseline, the limits and the sub-group
 * probe) and every element size of each op, but 8-byte atomics without the extension. A
 * plan of fewer sizes leaves some unused, cheaper than a second compiler run. */
static void run_kernels(const cb_runner *r, bool kernels[CB_NKERNELS])
{
	unsigned ops = r->o->ops ? r->o->ops : CB_OP_BIT(CB_OP_LOAD);
	for (int k = 0; k < CB_NKERNELS; k++) {
		cb_kernel_id id = cb_kernel_of(k);
		kernels[k] = (ops & CB_OP_BIT(id.op)) &&
			     (cb_op_desc_of(id.op)->elem_mask & 1u << id.elem) &&
			     !(id.op == CB_OP_ATOMIC && id.bytes == 8 &&
			       !r->info->has_int64_atomics);
	}
	kernels[CB_ELEM_INDEX_4B] = true;
}

static cb_rc setup(cb_runner *r, cb_error *err)
{
	const cb_run_opts *o = r->o;
	cb_ocl_opts oo = { o->kernel_dir, o->build_options, o->notify,
			   false,         o->cache_dir,     o->one_kernel };
	cb_rc rc = cb_ocl_open(r->ref, r->info, &oo, &r->ocl, err);
	if (rc == CB_OK)
		rc = choose_local(r, err);
	if (rc == CB_OK)
		rc = choose_pin(r, err);
	if (rc != CB_OK)
		return rc;
	cb_build_params bp = { r->local_alloc, r->pin };
	cb_ocl_set_build_params(r->ocl, &bp);
	cb_ocl_set_timeout(r->ocl, o->timeout_s);
	bool kernels[CB_NKERNELS];
	run_kernels(r, kernels);
	cb_note(o->notify, CB_NOTE_PROGRESS, "compiling kernels");
	if ((rc = cb_ocl_build_set(r->ocl, kernels, err)) != CB_OK ||
	    (rc = cb_ocl_kernel_limits(r->ocl, CB_ELEM_INDEX_4B, &r->lim, err)) != CB_OK)
		return rc;
	if (r->lim.work_group_size == 0)
		r->lim.work_group_size = r->info->max_work_group_size;
	r->per_cu = o->groups_per_cu                       ? o->groups_per_cu
		    : (r->info->type & CL_DEVICE_TYPE_CPU) ? WG_PER_CPU_CORE
							   : WG_PER_CU;
	return CB_OK;
}

/* Work sizes for lanes in units of UNIT: work-groups of up to 256, PER_CU per local-memory
 * unit. */
static cb_rc size_work(cb_runner *r, unsigned unit, cb_error *err)
{
	size_t kwg = r->lim.work_group_size;
	size_t cap = kwg < WG_TARGET ? kwg : WG_TARGET;
	if (cap < unit)
		return cb_error_set(err, CB_ERR_USAGE,
				    "the kernel allows work-groups of %zu work-items "
				    "(CL_KERNEL_WORK_GROUP_SIZE), fewer than one sub-group of %u",
				    kwg, unit);
	r->wg = cap / unit * unit;
	r->global = r->wg * (r->info->slm_units ? r->info->slm_units : 1) * r->per_cu;
	return CB_OK;
}

static cb_launcher launcher(cb_runner *r, size_t max_batch)
{
	cb_launcher l = { run_batch, host_clock, r, max_batch };
	return l;
}

static cb_rc run_probe(cb_runner *r, unsigned pref_multiple, cb_error *err)
{
	cb_rc rc = size_work(r, pref_multiple ? pref_multiple : 1, err);
	uint32_t tables[2 * CB_PROBE_MAXN];
	unsigned ns[CB_PROBE_MAX];
	unsigned count = cb_probe_tables(tables, r->local_alloc, ns);
	if (rc == CB_OK)
		rc = cb_ocl_set_tables(r->ocl, tables, 2 * CB_PROBE_MAXN, 1, err);
	if (rc == CB_OK)
		rc = cb_ocl_set_work(r->ocl, r->global, r->wg, CB_PROBE_MAXN, 64, err);
	cb_launcher l = launcher(r, 1);
	/* The event timer is checked later, by the calibration: only --timer event trusts it. */
	bool host = !cb_ocl_event_timer(r->ocl) || r->o->timer != CB_TIMER_EVENT;
	if (rc == CB_OK)
		rc = cb_probe_subgroup(&l, host, tables, ns, count, &r->probe, err);
	r->probed = true;
	return rc;
}

/* The sub-group size when neither the driver nor --subgroup says: the kernel query, else a
 * measurement, else a fallback that the report names. */
static cb_rc find_subgroup(cb_runner *r, cb_error *err)
{
	cb_device_info *info = r->info;
	unsigned pref = r->lim.preferred_multiple >= 1 && r->lim.preferred_multiple <= CB_MAX_LANES
				? (unsigned)r->lim.preferred_multiple
				: 0;
	unsigned k = r->o->measure_subgroup
			     ? 0
			     : cb_ocl_kernel_subgroup(r->ocl, CB_ELEM_INDEX_4B, WG_TARGET);
	if (k) {
		info->subgroup_size = k;
		info->subgroup_source = "CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE";
		return CB_OK;
	}
	cb_rc rc = run_probe(r, pref, err);
	if (rc != CB_OK)
		return rc;
	if (r->probe.found) {
		info->subgroup_size = r->probe.found;
		info->subgroup_source = "measured (lanes served together for 4-byte loads)";
	} else {
		info->subgroup_size = pref >= 4 ? pref : 32;
		info->subgroup_source =
			pref >= 4 ? "not measurable; CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE"
				  : "not measurable; assumed 32";
		cb_note(r->o->notify, CB_NOTE_WARNING,
			"the sub-group size could not be queried or measured; using %u (%s)",
			info->subgroup_size, info->subgroup_source);
	}
	return CB_OK;
}

/* The sub-group size: pinned (Intel), --subgroup, the driver, or found. A --subgroup that
 * differs from what the driver reports is refused: the kernels do not run that way. */
static cb_rc choose_subgroup(cb_runner *r, cb_error *err)
{
	const cb_run_opts *o = r->o;
	cb_device_info *info = r->info;
	r->driver_subgroup = info->subgroup_size;
	cb_rc rc = CB_OK;
	if (r->pin) {
		info->subgroup_size = r->pin;
		info->subgroup_source =
			"intel_reqd_sub_group_size (cl_intel_required_subgroup_size)";
	} else if (o->subgroup_override && info->subgroup_size &&
		   o->subgroup_override != info->subgroup_size) {
		return cb_error_set(err, CB_ERR_RUNTIME,
				    "--subgroup %u: %s runs sub-groups of %u "
				    "work-items (%s); lane tables of %u would split or merge them",
				    o->subgroup_override, info->name, info->subgroup_size,
				    info->subgroup_source, o->subgroup_override);
	} else if (o->subgroup_override) {
		info->subgroup_size = o->subgroup_override;
		info->subgroup_source = "--subgroup";
	} else if (o->measure_subgroup || !info->subgroup_size) {
		info->subgroup_size = 0;
		rc = find_subgroup(r, err);
	}
	if (rc != CB_OK)
		return rc;
	if (info->subgroup_size < 4 || info->subgroup_size > CB_MAX_LANES)
		return cb_error_set(err, CB_ERR_USAGE, "sub-group size %u (%s) is outside 4..%d",
				    info->subgroup_size, info->subgroup_source, CB_MAX_LANES);
	r->S = info->subgroup_size;
	rc = size_work(r, r->S, err);
	if (rc == CB_OK && o->latency) {
		r->wg = r->S;
		r->global = r->S;
	}
	return rc;
}

/* The measurements of PLAN, untimed, into RES. */
static cb_rc copy_plan(cb_runner *r, const cb_result *plan, cb_result *res, cb_error *err)
{
	if (plan->device.subgroup_size != r->S) {
		/* The hint names the command that writes such a plan: lint's for its tables. */
		bool lint = false;
		for (size_t i = 0; i < plan->nms && !lint; i++)
			lint = cb_kind_is(&plan->ms[i], "lint") ||
			       cb_kind_is(&plan->ms[i], "lint_reference");
		char hint[200];
		unsigned S = r->S;
		if (lint)
			snprintf(hint, sizeof hint,
				 "write it again with the lint command that "
				 "wrote it and --subgroup %u ('clbanks lint KERNEL.cl ... --format "
				 "plan --subgroup %u -o PLAN.json')",
				 S, S);
		else
			snprintf(hint, sizeof hint,
				 "make one with 'clbanks plan --subgroup %u -o "
				 "plan-%u.json', then run 'clbanks --plan plan-%u.json'",
				 S, S, S);
		return cb_error_set(err, CB_ERR_USAGE,
				    "the plan is for sub-groups of %u lanes, "
				    "but %s has %u (%s); %s",
				    plan->device.subgroup_size, r->info->name, S,
				    r->info->subgroup_source, hint);
	}
	cb_result_init(res);
	res->has_generator = plan->has_generator;
	res->generator_name = plan->generator_name ? cb_xstrdup(plan->generator_name) : NULL;
	res->generator_version = plan->generator_version ? cb_xstrdup(plan->generator_version)
							 : NULL;
	res->plan = plan->plan;
	res->plan.extra = plan->plan.extra ? cb_xstrdup(plan->plan.extra) : NULL;
	res->plan.ops = plan->plan.ops ? cb_xstrdup(plan->plan.ops) : NULL;
	res->ms = cb_xcalloc(plan->nms ? plan->nms : 1, sizeof *res->ms);
	unsigned ops = r->o->ops ? r->o->ops : CB_OP_BIT(CB_OP_LOAD);
	for (size_t i = 0; i < plan->nms; i++) {
		if (!(ops & CB_OP_BIT(plan->ms[i].op)))
			continue; /* --ops: only those ops of the plan */
		cb_measurement *m = &res->ms[res->nms++];
		cb_measurement_copy(m, &plan->ms[i], r->S);
		/* Times, if the plan had any, are measured anew. */
		cb_measurement t = *m;
		cb_measurement_init(m);
		m->id = t.id, m->kind = t.kind, m->op = t.op, m->elem_bytes = t.elem_bytes;
		m->params = t.params, m->nparams = t.nparams, m->params_extra = t.params_extra;
		m->has_params = t.has_params, m->lanes = t.lanes, m->extra = t.extra;
		free(t.samples_ns);
		free(t.samples_short_ns);
	}
	if (plan->nms && !res->nms) {
		char names[64];
		cb_ops_format(ops, names, sizeof names);
		return cb_error_set(err, CB_ERR_USAGE, "the plan has no measurement of --ops %s",
				    names);
	}
	return CB_OK;
}

/* The measurements to run, in RES: the given plan's, the one made for the device, or the
 * default one. */
static cb_rc load_plan(cb_runner *r, cb_result *res, cb_error *err)
{
	const cb_run_opts *o = r->o;
	if (!o->plan && !o->make_plan) {
		cb_plan_opts po = { .subgroup = r->S,
				    .seed = o->seed,
				    .local_mem_budget = r->local_alloc,
				    .quick = o->quick && !r->adaptive,
				    .ops = o->ops,
				    .pool = r->adaptive };
		return cb_plan_make(&po, res, err);
	}
	cb_result made;
	const cb_result *plan = o->plan;
	if (o->make_plan) {
		/* A plan made for this device's sub-group size and allocation (lint --measure). */
		cb_rc rc = o->make_plan(o->make_plan_ctx, r->S, r->local_alloc, &made, err);
		if (rc != CB_OK)
			return rc;
		plan = &made;
	}
	cb_rc rc = copy_plan(r, plan, res, err);
	if (plan == &made)
		cb_result_free(&made);
	return rc;
}

/* Experiments: the baseline (4-byte elements at stride 1), then every measurement. Checks that
 * every table fits the allocation. */
/* Without cl_khr_int64_base_atomics the 8-byte atomic measurements are left out. */
static void drop_unsupported(cb_runner *r, cb_result *res)
{
	size_t kept = 0, dropped = 0;
	for (size_t i = 0; i < res->nms; i++) {
		cb_measurement *m = &res->ms[i];
		if (m->op == CB_OP_ATOMIC && m->elem_bytes == 8 && !r->info->has_int64_atomics) {
			cb_measurement_free(m);
			dropped++;
		} else {
			res->ms[kept++] = *m;
		}
	}
	res->nms = kept;
	if (dropped)
		cb_note(r->o->notify, CB_NOTE_WARNING,
			"%s has no cl_khr_int64_base_atomics: the %zu "
			"8-byte atomic measurements are left out",
			r->info->name, dropped);
}

static cb_rc make_experiments(cb_runner *r, const cb_result *res, cb_error *err)
{
	const unsigned max_rounds = r->o->max_rounds;
	r->nex = res->nms + 1;
	r->ex = cb_xcalloc(r->nex, sizeof *r->ex);
	/* The adaptive design measures batch after batch against one baseline. */
	r->base_rounds = r->adaptive ? 16 * max_rounds : max_rounds;
	if (r->adaptive) {
		r->base_steps = cb_xcalloc((size_t)r->base_rounds * CB_BASELINE_REPS,
					   sizeof(unsigned));
		r->base_steps_short = cb_xcalloc((size_t)r->base_rounds * CB_BASELINE_REPS,
						 sizeof(unsigned));
	}
	r->baseline_lanes = cb_xmalloc(r->S * sizeof(uint32_t));
	cb_stride_lanes(r->baseline_lanes, r->S, 4, 1);
	for (size_t i = 0; i < r->nex; i++) {
		cb_experiment *x = &r->ex[i];
		const cb_measurement *m = i ? &res->ms[i - 1] : NULL;
		x->index = i ? i - 1 : CB_BASELINE;
		x->op = m ? m->op : CB_OP_LOAD;
		x->elem = m ? cb_elem_index(m->elem_bytes) : CB_ELEM_INDEX_4B;
		x->table = (unsigned)i;
		x->nlanes = r->S;
		x->lanes = m ? m->lanes : r->baseline_lanes;
		x->ratios = cb_xcalloc(max_rounds, sizeof(double));
		size_t slots = i ? max_rounds : (size_t)r->base_rounds * CB_BASELINE_REPS;
		x->samples = cb_xcalloc(slots, sizeof(uint64_t));
		x->samples_short = cb_xcalloc(slots, sizeof(uint64_t));
		unsigned E = cb_elems[x->elem].bytes;
		x->fill = cb_fill_words(x->lanes, r->S, E);
		for (unsigned l = 0; m && l < r->S; l++)
			if ((unsigned long)x->lanes[l] + E > r->local_alloc)
				return cb_error_set(
					err, CB_ERR_USAGE,
					"measurement %zu needs %lu B of local "
					"memory; this run allocates %lu B (device offers %lu B; "
					"see --local-mem)",
					i - 1, (unsigned long)x->lanes[l] + E, r->local_alloc,
					r->local_avail);
	}
	return CB_OK;
}

/* A kernel that runs with another sub-group size than the lane tables assume would split or
 * merge them: refused. */
static cb_rc check_subgroup(cb_runner *r, int k, cb_error *err)
{
	unsigned sg = cb_ocl_kernel_subgroup(r->ocl, k, r->wg);
	if (!sg || sg == r->S || (r->o->latency && sg > r->S))
		return CB_OK;
	return cb_error_set(
		err, CB_ERR_RUNTIME,
		"the %u-byte %s kernel runs with sub-groups of %u "
		"work-items for work-groups of %zu, not %u (%s); its lane tables would be "
		"split or merged",
		cb_kernel_of(k).bytes, cb_op_name(cb_kernel_of(k).op), sg, r->wg, r->S,
		r->info->subgroup_source);
}

/* On a CPU, one short launch of each kernel the plan needs, checked and not timed, before the
 * first timed one: a CPU driver compiles a kernel for its work-group size at its first launch
 * (on PoCL most of a first run), and the progress says so while it happens. GPU drivers
 * compile at clBuildProgram. cl/cpu.cl's one kernel is compiled by its first launch. */
static cb_rc first_launches(cb_runner *r, const bool needed[CB_NKERNELS], cb_error *err)
{
	unsigned n = 0, total = 0;
	bool done[CB_NKERNELS] = { false }, one = cb_ocl_one_kernel(r->ocl);
	if (!(r->info->type & CL_DEVICE_TYPE_CPU))
		return CB_OK;
	for (int k = 0; k < CB_NKERNELS; k++)
		total += needed[k];
	if (one && total)
		total = 1;
	for (size_t i = 0; i < r->nex; i++) {
		int k = cb_kernel_index(r->ex[i].op, r->ex[i].elem);
		if (done[k] || (one && n))
			continue;
		done[k] = true;
		cb_note(r->o->notify, CB_NOTE_PROGRESS, "compiling kernels (%u of %u)", ++n, total);
		cb_launch_item it = { &r->ex[i], 8 };
		uint64_t ns;
		double host_s;
		long bad;
		cb_rc rc = run_batch(r, &it, 1, 0, &ns, &host_s, &bad, err);
		if (rc != CB_OK)
			return rc;
	}
	return CB_OK;
}

/* Every kernel the plan needs, its work-group limit and sub-group size, the tables on the
 * device and the buffers of a round. */
static cb_rc prepare_launches(cb_runner *r, cb_error *err)
{
	cb_rc rc;
	bool needed[CB_NKERNELS] = { false };
	for (size_t i = 0; i < r->nex; i++)
		needed[cb_kernel_index(r->ex[i].op, r->ex[i].elem)] = true;
	cb_note(r->o->notify, CB_NOTE_PROGRESS, "compiling kernels");
	if ((rc = cb_ocl_build_set(r->ocl, needed, err)) != CB_OK)
		return rc;
	for (int k = 0; k < CB_NKERNELS; k++) {
		if (!needed[k])
			continue;
		const char *op = cb_op_name(cb_kernel_of(k).op);
		unsigned E = cb_kernel_of(k).bytes;
		cb_kernel_limits lim;
		if ((rc = cb_ocl_kernel_limits(r->ocl, k, &lim, err)) != CB_OK)
			return rc;
		if (lim.work_group_size && lim.work_group_size < r->wg)
			return cb_error_set(
				err, CB_ERR_USAGE,
				"the %u-byte %s kernel allows work-groups of "
				"at most %zu work-items (CL_KERNEL_WORK_GROUP_SIZE); this run "
				"needs %zu",
				E, op, lim.work_group_size, r->wg);
		if ((rc = check_subgroup(r, k, err)) != CB_OK)
			return rc;
	}
	uint32_t *all = cb_xmalloc(r->nex * r->S * sizeof(uint32_t));
	for (size_t i = 0; i < r->nex; i++)
		memcpy(all + i * r->S, r->ex[i].lanes, r->S * sizeof(uint32_t));
	rc = cb_ocl_set_tables(r->ocl, all, r->nex, r->S, err);
	free(all);
	if (rc == CB_OK)
		rc = cb_ocl_set_work(r->ocl, r->global, r->wg, r->S, 2 * r->nex + 64, err);
	return rc == CB_OK ? first_launches(r, needed, err) : rc;
}

static cb_protocol_opts protocol_opts(cb_runner *r)
{
	const cb_run_opts *o = r->o;
	bool cpu = (r->info->type & CL_DEVICE_TYPE_CPU) || r->info->local_mem_type == CL_GLOBAL;
	cb_protocol_opts po = {
		.min_rounds = o->min_rounds,
		.max_rounds = o->max_rounds,
		.ci_target = o->ci_target,
		.all_narrow = o->all_narrow,
		.max_launch_ns = o->max_kernel_ms * 1e6,
		.budget_s = cpu && r->adaptive ? BUDGET_CPU_S : BUDGET_S,
		.timer = o->timer,
		.event_timer = cb_ocl_event_timer(r->ocl),
		.declared_resolution_ns = r->info->timer_resolution_ns,
		.cpu = cpu,
		.seed = o->seed,
		.notify = o->notify,
		.settled = cb_run_settled,
		.settled_ctx = r,
	};
	return po;
}

static void release(cb_runner *r)
{
	for (size_t i = 0; r->ex && i < r->nex; i++) {
		free(r->ex[i].ratios);
		free(r->ex[i].samples);
		free(r->ex[i].samples_short);
	}
	free(r->ex);
	free(r->baseline_lanes);
	free(r->base_steps);
	free(r->base_steps_short);
	for (int op = 0; op < CB_NOPS; op++)
		cb_pass_cache_free(r->cache[op]);
	cb_ocl_close(r->ocl);
}

/* The allocation the plan needs: every lane's element inside it, in whole KiB (at least 4096 B).
 * A plan of small tables then leaves room for more work-groups per unit (AMD's LDS is shared
 * by the work-groups of a CU). The kernels are rebuilt only when that saves a quarter. */
static void fit_local(cb_runner *r)
{
	unsigned long extent = 0;
	for (size_t i = 1; i < r->nex; i++) {
		unsigned E = cb_elems[r->ex[i].elem].bytes;
		for (unsigned l = 0; l < r->S; l++)
			if (r->ex[i].lanes[l] + (unsigned long)E > extent)
				extent = r->ex[i].lanes[l] + (unsigned long)E;
	}
	unsigned long need = (extent + 1023) / 1024 * 1024;
	if (need < 4096)
		need = 4096;
	if (r->o->local_mem || need * 4 > r->local_alloc * 3)
		return;
	r->local_alloc = need;
	cb_build_params bp = { r->local_alloc, r->pin };
	cb_ocl_set_build_params(r->ocl, &bp);
}

static cb_rc start(cb_runner *r, cb_result *res, cb_error *err)
{
	cb_rc rc;
	if ((rc = setup(r, err)) != CB_OK || (rc = choose_subgroup(r, err)) != CB_OK ||
	    (rc = load_plan(r, res, err)) != CB_OK)
		return rc;
	drop_unsupported(r, res);
	if ((rc = make_experiments(r, res, err)) != CB_OK)
		return rc;
	r->plan = res;
	fit_local(r);
	return prepare_launches(r, err);
}

/* Not with the host clock: a compile on another thread holds the driver's calls (0.025 s on an
 * H100), which that clock would count as the launches' time. */
void cb_run_ready(const cb_runner *r)
{
	if (r->o->on_ready && r->st.timer == CB_TIMER_EVENT)
		r->o->on_ready(r->o->on_ready_ctx, r->ocl, r->info->subgroup_size);
}

cb_rc cb_measure(const cb_device_ref *ref, cb_device_info *info, const cb_run_opts *o,
		 cb_result *res, cb_error *err)
{
	cb_runner rr = { .ref = ref, .info = info, .o = o }, *r = &rr;
	rr.adaptive = !o->plan && !o->make_plan && !o->full_plan;
	double t_start = cb_now(), seconds[4] = { 0 }, t;
	cb_result_init(res);
	if (!cb_device_supports_12(info))
		return cb_error_set(err, CB_ERR_RUNTIME,
				    "%s is an OpenCL %u.%u device (platform %u.%u); "
				    "clbanks needs OpenCL 1.2",
				    info->name, info->device_major, info->device_minor,
				    info->platform_major, info->platform_minor);
	if (info->local_mem_type == CL_GLOBAL)
		cb_note(o->notify, CB_NOTE_WARNING,
			"%s has no dedicated local memory "
			"(CL_DEVICE_LOCAL_MEM_TYPE = CL_GLOBAL): expect 'not banked' or 'inconclusive'",
			info->name);
	cb_rc rc = start(r, res, err);
	if (rc != CB_OK)
		goto out;
	cb_protocol_opts po = protocol_opts(r);
	cb_launcher l = launcher(r, 2 * r->nex + 64);
	seconds[0] = cb_now() - t_start;
	if (r->adaptive) {
		if ((rc = cb_run_adaptive(r, &l, &po, res, seconds, err)) != CB_OK)
			goto out;
		seconds[3] = cb_now() - t_start;
		cb_record_run(r, res, seconds);
		cb_adaptive_finish(r, res);
		goto out;
	}
	t = cb_now();
	if ((rc = cb_calibrate(&l, &po, r->ex, r->nex, &r->st, err)) != CB_OK)
		goto out;
	cb_run_ready(r);
	seconds[1] = cb_now() - t;
	t = cb_now();
	if ((rc = cb_measure_rounds(&l, &po, r->ex, r->nex, &r->st, err)) != CB_OK)
		goto out;
	seconds[2] = cb_now() - t;
	seconds[3] = cb_now() - t_start;
	cb_record_run(r, res, seconds);
	if (o->keep_cache) {
		/* The cache maps measurement i to table i: only when every one was timed. */
		bool all = true;
		for (size_t i = 1; i < r->nex; i++)
			all &= r->ex[i].n > 0;
		*o->keep_cache = all ? r->cache[CB_OP_LOAD] : NULL;
		if (all)
			r->cache[CB_OP_LOAD] = NULL;
	}
out:
	if (o->keep_ocl) {
		*o->keep_ocl = rc == CB_OK ? r->ocl : NULL;
		if (rc == CB_OK)
			r->ocl = NULL;
	}
	release(r);
	if (rc != CB_OK)
		cb_result_free(res);
	return rc;
}
