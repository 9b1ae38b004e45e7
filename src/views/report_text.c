/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/report.h"
#include "core/infer_quality.h"
#include "core/advice.h"
#include "core/model.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Text from a document, printable: control characters as \xNN. */
static void put(FILE *out, const char *s, const char *dflt)
{
	char *e = cb_escape_controls(s ? s : dflt);
	fputs(e, out);
	free(e);
}

static bool is(const char *s, const char *want)
{
	return s && strcmp(s, want) == 0;
}

static void header(FILE *out, const cb_result *r)
{
	const cb_device_doc *d = &r->device;
	const cb_run_meta *run = &r->run;
	fputs("Device:     ", out);
	put(out, d->name, "(unnamed device)");
	if (d->platform) {
		fputs(" (", out);
		put(out, d->platform, "?");
		fputc(')', out);
	}
	fputc('\n', out);
	if (d->driver_version) {
		fputs("Driver:     ", out);
		put(out, d->driver_version, "?");
		fputs(", ", out);
		put(out, d->device_version, "?");
		fputs(", ", out);
		put(out, d->opencl_c_version, "?");
		fputc('\n', out);
	}
	if (d->compute_units != CB_UNSET || d->max_clock_mhz != CB_UNSET)
		fprintf(out, "Compute:    %lld compute units at up to %lld MHz\n",
			d->compute_units != CB_UNSET ? d->compute_units : 0,
			d->max_clock_mhz != CB_UNSET ? d->max_clock_mhz : 0);
	if (d->local_mem_bytes != CB_UNSET) {
		fprintf(out, "Local mem:  %lld KiB per work-group, type ", d->local_mem_bytes / 1024);
		put(out, d->local_mem_type, "?");
		fputc('\n', out);
	}
	fprintf(out, "Sub-group:  %u lanes (", d->subgroup_size);
	put(out, d->subgroup_source, "from the document");
	fputs(")\n", out);
	if (run->present) {
		fputs("Run:        ", out);
		put(out, run->regime, "?");
		fprintf(out, " regime, %lld rounds, %lld work-items, timer ",
			run->rounds != CB_UNSET ? run->rounds : 0,
			run->global_size != CB_UNSET ? run->global_size : 0);
		put(out, run->timer, "?");
		fprintf(out, " (resolution %lld ns), %.1f s\n",
			d->timer_resolution_ns != CB_UNSET ? d->timer_resolution_ns : 0,
			isfinite(run->seconds_total) ? run->seconds_total : 0.0);
		if (run->resident_work_groups_per_cu != CB_UNSET && run->work_groups_per_cu != CB_UNSET &&
		    run->resident_work_groups_per_cu < run->work_groups_per_cu)
			fprintf(out, "Occupancy:  %lld of %lld work-groups per compute unit at once (%lld B "
				"of local memory each, %lld B per unit)\n",
				run->resident_work_groups_per_cu, run->work_groups_per_cu,
				run->local_mem_alloc_bytes, d->local_mem_per_cu_bytes);
	}
}

/* The verdict lines; false when there is no bank model to describe further. */
static bool verdict(FILE *out, const cb_result *r, const cb_inference *inf)
{
	bool global = is(r->device.local_mem_type, "global");
	fputc('\n', out);
	switch (inf->status) {
	case CB_BANKED:
		fprintf(out, "Result:     banked, %u banks x %u bytes (confidence %.3f)\n",
			inf->best.geom.banks, inf->best.geom.width, inf->confidence);
		break;
	case CB_NOT_BANKED:
		fprintf(out, "Result:     not banked (confidence %.2f)\n", inf->confidence);
		break;
	default:
		fprintf(out, "Result:     inconclusive (no bank geometry is singled out)\n");
		break;
	}
	fprintf(out, "Why:        %s\n", inf->reason);
	for (unsigned i = 0; i < inf->nwarnings; i++)
		fprintf(out, "Warning:    %s\n", inf->warnings[i]);
	if (inf->status != CB_BANKED) {
		if (inf->status == CB_INCONCLUSIVE && inf->has_best)
			fprintf(out, "Best guess: %u x %u B (not reported as a result)\n",
				inf->best.geom.banks, inf->best.geom.width);
		if (global)
			fprintf(out, "Caveat:     local memory is of type global on this device (emulated "
				"in ordinary memory): there are no banks to find\n");
		return false;
	}
	if (global)
		fprintf(out, "Caveat:     the driver says local memory is of type global (emulated in "
			"ordinary memory); the banks measured are those of the memory behind it\n");
	double worse = inf->best.sse > 0 ? inf->runner_up.sse / inf->best.sse : INFINITY;
	if (inf->runner_up.flat)
		fprintf(out, "Runner-up:  flat (no banks), fits %.0fx worse\n", worse);
	else
		fprintf(out, "Runner-up:  %u x %u B, fits %.1fx worse (score +%.0f)\n",
			inf->runner_up.geom.banks, inf->runner_up.geom.width, worse,
			inf->runner_up.score - inf->best.score);
	return true;
}

/* Element sizes whose tables the model misses by more than their noise explains. */
static void approximate_lines(FILE *out, const cb_inference *inf)
{
	const cb_fit_quality *q = &inf->quality;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!inf->elem_present[e] || !q->approximate[e])
			continue;
		fprintf(out, "Approximate: %u B loads: the model misses them by %.1fx the expected error",
			cb_elem_sizes[e], q->elem_misfit[e]);
		if (q->approx_kind[e][0]) {
			fputs(" (", out);
			put(out, q->approx_kind[e], "?");
			fprintf(out, " tables by %.1fx)", q->approx_kind_misfit[e]);
		}
		fputs("; worst: measurements", out);
		for (unsigned k = 0; k < q->nworst[e]; k++)
			fprintf(out, "%s %zu", k ? "," : "", q->worst[e][k]);
		fputc('\n', out);
	}
}

static void model_lines(FILE *out, const cb_inference *inf, unsigned S)
{
	if (!inf->broadcast_known)
		fprintf(out, "Broadcast:  undetermined (the measurements cannot tell)\n");
	else if (inf->best.geom.broadcast)
		fprintf(out, "Broadcast:  yes: lanes reading the same word share one access "
			"(broadcast and multicast)\n");
	else
		fprintf(out, "Broadcast:  no: lanes reading the same word are served one by one\n");
	if (inf->best.geom.pair_packing)
		fprintf(out, "Packing:    yes: when lanes pair up on identical offsets (n and n^1, or n "
			"and n^2), a pass serves twice the lanes\n");
	fprintf(out, "Lanes/pass:");
	for (int e = 0; e < CB_NELEM; e++)
		if (inf->elem_present[e])
			fprintf(out, " %u B: %u%s%s", cb_elem_sizes[e], inf->best.lanes_per_pass[e],
				inf->best.lanes_per_pass[e] == S ? " (whole sub-group)" : "",
				inf->lanes_certain[e] ? "" : "?");
	fputc('\n', out);
	approximate_lines(out, inf);
}

static void conflict_line(FILE *out, const cb_result *r, const cb_inference *inf)
{
	if (!isfinite(inf->cost_per_pass_ns))
		return;
	fprintf(out, "Conflict:   one extra pass costs %.3g ns per ", inf->cost_per_pass_ns);
	if (r->run.present && is(r->run.regime, "latency"))
		fprintf(out, "dependent access of one sub-group");
	else if (r->run.present)
		fprintf(out, "step of all %lld work-items",
			r->run.global_size != CB_UNSET ? r->run.global_size : 0);
	else
		fprintf(out, "access step");
	if (isfinite(inf->cost_per_pass_cycles)) {
		char cyc[32];
		snprintf(cyc, sizeof cyc, "%.2g", inf->cost_per_pass_cycles);
		fprintf(out, " (%s cycle%s per sub-group access at the maximum clock)", cyc,
			strcmp(cyc, "1") == 0 ? "" : "s");
	}
	fputc('\n', out);
}

/* Conflict-free throughput per compute unit and clock, next to what banks x width allow. */
static void bandwidth_line(FILE *out, const cb_result *r, const cb_inference *inf, cb_op op)
{
	long long clk = r->device.max_clock_mhz;
	double spc = r->run.subgroups_per_cu;
	if (clk == CB_UNSET || clk <= 0 || !isfinite(spc) || !is(r->run.regime, "throughput"))
		return;
	fprintf(out, "Bandwidth:  conflict-free, per compute unit per clock:");
	for (int e = 0; e < CB_NELEM; e++) {
		if (!inf->elem_present[e])
			continue;
		/* Stride 1 as measured; the model's time for one pass when it was not. */
		const cb_measurement *m = cb_find_stride(r, op, cb_elem_sizes[e], 1);
		double t = m ? m->ns_per_access : NAN;
		if (!isfinite(t) || t <= 0)
			t = inf->best.t0[e] + inf->best.c[e];
		double bytes = spc * r->device.subgroup_size * cb_elem_sizes[e];
		fprintf(out, " %u B: %.0f", cb_elem_sizes[e], bytes / (t * (double)clk * 1e-3));
	}
	fprintf(out, " B (banks x width: %u B)\n", inf->best.geom.banks * inf->best.geom.width);
}

static void vendor_line(FILE *out, const cb_result *r, const cb_inference *inf)
{
	if (!r->device.has_reported_banks)
		return;
	fprintf(out, "Vendor:     the driver reports %lld banks (", r->device.reported_banks);
	put(out, r->device.reported_banks_source, "?");
	fprintf(out, "); measured %u\n", inf->best.geom.banks);
}

static void fit_lines(FILE *out, const cb_inference *inf)
{
	if (!inf->has_best)
		return;
	fprintf(out, "Fit:        %zu measurements, %zu candidate models; best RMS error %.1f%% "
		"(flat %.1f%%), explains %.1f%% of the variation\n", inf->n_fit, inf->candidates,
		100 * inf->best.rms, 100 * inf->flat.rms, 100 * (inf->r2 > 0 ? inf->r2 : 0));
	const cb_fit_quality *q = &inf->quality;
	if (q->judged) {
		fprintf(out, "Fit check:  %smisses by %.2fx the expected error (",
			inf->status == CB_BANKED ? "" : "the best bank model ", q->misfit);
		if (q->noise_known)
			fprintf(out, "noise %.2f%%, ", 100 * q->noise);
		else
			fputs("noise not recorded, ", out);
		fprintf(out, "model allowance %.0f%%)", 100 * CB_MODEL_ALLOWANCE);
		if (inf->val_n && isfinite(q->val_misfit))
			fprintf(out, "; held-out tables %.2fx", q->val_misfit);
		if (inf->status == CB_BANKED)
			fprintf(out, "; %s", q->misfit <= CB_FIT_GOOD ? "fits" : "approximate");
		fputc('\n', out);
	}
	if (inf->val_n)
		fprintf(out, "Validation: %zu random tables not used for the fit: RMS error %.1f%%, "
			"worst %.1f%%, %.0f%% within 10%%\n", inf->val_n, 100 * inf->val_rms,
			100 * inf->val_max, 100 * inf->val_within10);
	else
		fprintf(out, "Validation: none (the document has no random tables)\n");
}

static void warnings(FILE *out, const cb_result *r)
{
	for (unsigned i = 0; i < r->quality.nwarnings; i++) {
		fputs("Warning:    ", out);
		put(out, r->quality.warnings[i], "");
		fputc('\n', out);
	}
}

static void stride_row(FILE *out, const cb_result *r, const cb_inference *inf, cb_op op,
		       unsigned stride, uint32_t *lanes)
{
	const unsigned S = r->device.subgroup_size;
	fprintf(out, "%8u", stride);
	for (int e = 0; e < CB_NELEM; e++) {
		if (!inf->elem_present[e])
			continue;
		double ratio = cb_stride_ratio(r, op, cb_elem_sizes[e], stride);
		char cell[32];
		if (!isfinite(ratio)) {
			snprintf(cell, sizeof cell, "-");
		} else if (inf->status == CB_BANKED) {
			cb_stride_lanes(lanes, S, cb_elem_sizes[e], stride);
			unsigned p = cb_passes(&inf->best.geom, inf->best.lanes_per_pass[e],
					       cb_elem_sizes[e], lanes, S);
			snprintf(cell, sizeof cell, "%.2f (%u)", ratio, p);
		} else {
			snprintf(cell, sizeof cell, "%.2f", ratio);
		}
		fprintf(out, "  %14s", cell);
	}
	fputc('\n', out);
}

static void stride_table(FILE *out, const cb_result *r, const cb_inference *inf, cb_op op)
{
	static const unsigned strides[] = { 0, 1, 2, 3, 4, 8, 16, 17, 32, 33, 64, 128 };
	bool any = false;
	for (int e = 0; e < CB_NELEM && !any; e++)
		any = isfinite(cb_stride_ratio(r, op, cb_elem_sizes[e], 2));
	if (!any)
		return;
	fprintf(out, "\nStrides: slowdown against stride 1 of the same element size, measured%s\n",
		inf->status == CB_BANKED ? " (model passes)" : "");
	fprintf(out, "%8s", "stride");
	for (int e = 0; e < CB_NELEM; e++)
		if (inf->elem_present[e])
			fprintf(out, "  %12u B", cb_elem_sizes[e]);
	fputc('\n', out);
	uint32_t *lanes = cb_xmalloc(r->device.subgroup_size * sizeof *lanes);
	for (size_t k = 0; k < sizeof strides / sizeof *strides; k++) {
		bool row = false;
		for (int e = 0; e < CB_NELEM; e++)
			row |= isfinite(cb_stride_ratio(r, op, cb_elem_sizes[e], strides[k]));
		if (row)
			stride_row(out, r, inf, op, strides[k], lanes);
	}
	free(lanes);
}

static void padding_entry(FILE *out, const cb_pad_advice *a)
{
	char decl[64], meas[96];
	snprintf(decl, sizeof decl, "%s tile[%u][%u]", cb_elem_c_type(a->elem_bytes), a->tile, a->tile);
	if (!a->found) {
		fprintf(out, "  %-26s %3u passes; no padding up to one bank period reaches %u\n", decl,
			a->passes_unpadded, a->passes_ideal);
		return;
	}
	if (a->pad == 0) {
		if (isfinite(a->measured_unpadded))
			snprintf(meas, sizeof meas, "measured %.2fx", a->measured_unpadded);
		else
			snprintf(meas, sizeof meas, "not measured");
		fprintf(out, "  %-26s %3u passes: conflict-free as is (%s)\n", decl, a->passes_unpadded,
			meas);
		return;
	}
	snprintf(decl, sizeof decl, "%s tile[%u][%u+%u]", cb_elem_c_type(a->elem_bytes), a->tile,
		 a->tile, a->pad);
	if (isfinite(a->measured_unpadded) && isfinite(a->measured_padded))
		snprintf(meas, sizeof meas, "measured %.2fx -> %.2fx", a->measured_unpadded,
			 a->measured_padded);
	else
		snprintf(meas, sizeof meas, "not measured");
	fprintf(out, "  %-26s %3u -> %u passes (%s)\n", decl, a->passes_unpadded, a->passes_padded, meas);
}

static void padding(FILE *out, const cb_result *r)
{
	if (!r->npad)
		return;
	fprintf(out, "\nPadding: a column walk (lane i reads tile[i][c]) through rows of W elements\n");
	for (unsigned i = 0; i < r->npad; i++)
		padding_entry(out, &r->pad[i]);
}

void cb_report_text(FILE *out, const cb_result *r)
{
	const cb_inference *inf = &r->inference[CB_OP_LOAD];
	header(out, r);
	if (verdict(out, r, inf)) {
		model_lines(out, inf, r->device.subgroup_size);
		conflict_line(out, r, inf);
		bandwidth_line(out, r, inf, CB_OP_LOAD);
		vendor_line(out, r, inf);
	}
	fit_lines(out, inf);
	warnings(out, r);
	stride_table(out, r, inf, CB_OP_LOAD);
	padding(out, r);
}
