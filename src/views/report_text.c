/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/report.h"
#include "core/advice.h"
#include "core/model.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool cb_format_parse(const char *s, cb_format *f)
{
	if (strcmp(s, "text") == 0)
		*f = CB_FMT_TEXT;
	else if (strcmp(s, "json") == 0)
		*f = CB_FMT_JSON;
	else if (strcmp(s, "csv") == 0)
		*f = CB_FMT_CSV;
	else
		return false;
	return true;
}

static const char *jstr(json_t *o, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : dflt;
}

static void header(FILE *out, json_t *doc)
{
	json_t *d = json_object_get(doc, "device"), *run = json_object_get(doc, "run");
	fprintf(out, "Device:     %s", jstr(d, "name", "(unnamed device)"));
	if (json_object_get(d, "platform"))
		fprintf(out, " (%s)", jstr(d, "platform", "?"));
	fputc('\n', out);
	if (json_object_get(d, "driver_version"))
		fprintf(out, "Driver:     %s, %s, %s\n", jstr(d, "driver_version", "?"),
			jstr(d, "device_version", "?"), jstr(d, "opencl_c_version", "?"));
	json_t *cu = json_object_get(d, "compute_units"), *clk = json_object_get(d, "max_clock_mhz");
	if (cu || clk)
		fprintf(out, "Compute:    %" JSON_INTEGER_FORMAT " compute units at up to %"
			JSON_INTEGER_FORMAT " MHz\n", json_integer_value(cu), json_integer_value(clk));
	json_t *lm = json_object_get(d, "local_mem_bytes");
	if (lm)
		fprintf(out, "Local mem:  %" JSON_INTEGER_FORMAT " KiB per work-group, type %s\n",
			json_integer_value(lm) / 1024, jstr(d, "local_mem_type", "?"));
	fprintf(out, "Sub-group:  %" JSON_INTEGER_FORMAT " lanes (%s)\n",
		json_integer_value(json_object_get(d, "subgroup_size")),
		jstr(d, "subgroup_source", "from the document"));
	if (run) {
		fprintf(out, "Run:        %s regime, %" JSON_INTEGER_FORMAT " rounds, %" JSON_INTEGER_FORMAT
			" work-items, timer %s (resolution %" JSON_INTEGER_FORMAT " ns), %.1f s\n",
			jstr(run, "regime", "?"), json_integer_value(json_object_get(run, "rounds")),
			json_integer_value(json_object_get(run, "global_size")), jstr(run, "timer", "?"),
			json_integer_value(json_object_get(d, "timer_resolution_ns")),
			json_number_value(json_object_get(json_object_get(run, "seconds"), "total")));
	}
}

static void geometry(FILE *out, json_t *doc, const cb_inference *inf, unsigned S)
{
	json_t *d = json_object_get(doc, "device"), *run = json_object_get(doc, "run");
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
	if (inf->status != CB_BANKED) {
		if (inf->status == CB_INCONCLUSIVE && inf->has_best)
			fprintf(out, "Best guess: %u x %u B (not reported as a result)\n",
				inf->best.geom.banks, inf->best.geom.width);
		if (strcmp(jstr(d, "local_mem_type", ""), "global") == 0)
			fprintf(out, "Caveat:     local memory is of type global on this device (emulated "
				"in ordinary memory): there are no banks to find\n");
		return;
	}
	if (strcmp(jstr(d, "local_mem_type", ""), "global") == 0)
		fprintf(out, "Caveat:     the driver says local memory is of type global (emulated in "
			"ordinary memory); the banks measured are those of the memory behind it\n");
	if (inf->runner_up.flat)
		fprintf(out, "Runner-up:  flat (no banks), fits %.0fx worse\n",
			inf->best.sse > 0 ? inf->runner_up.sse / inf->best.sse : INFINITY);
	else
		fprintf(out, "Runner-up:  %u x %u B, fits %.1fx worse (score +%.0f)\n",
			inf->runner_up.geom.banks, inf->runner_up.geom.width,
			inf->best.sse > 0 ? inf->runner_up.sse / inf->best.sse : INFINITY,
			inf->runner_up.score - inf->best.score);
	if (!inf->broadcast_known)
		fprintf(out, "Broadcast:  undetermined (the measurements cannot tell)\n");
	else if (inf->best.geom.merge)
		fprintf(out, "Broadcast:  yes: lanes reading the same word share one access "
			"(broadcast and multicast)\n");
	else
		fprintf(out, "Broadcast:  no: lanes reading the same word are served one by one\n");
	if (inf->best.geom.pack)
		fprintf(out, "Packing:    yes: when lanes pair up on identical offsets (n and n^1, or n "
			"and n^2), a pass serves twice the lanes\n");
	fprintf(out, "Lanes/pass:");
	for (int e = 0; e < CB_NELEM; e++)
		if (inf->elem_present[e])
			fprintf(out, " %u B: %u%s%s", cb_elem_sizes[e], inf->best.lanes_per_pass[e],
				inf->best.lanes_per_pass[e] == S ? " (whole sub-group)" : "",
				inf->lanes_certain[e] ? "" : "?");
	fputc('\n', out);
	if (isfinite(inf->cost_per_pass_ns)) {
		bool lat = run && strcmp(jstr(run, "regime", ""), "latency") == 0;
		fprintf(out, "Conflict:   one extra pass costs %.3g ns per ", inf->cost_per_pass_ns);
		if (lat)
			fprintf(out, "dependent access of one sub-group");
		else if (run)
			fprintf(out, "step of all %" JSON_INTEGER_FORMAT " work-items",
				json_integer_value(json_object_get(run, "global_size")));
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
	json_t *clk = json_object_get(d, "max_clock_mhz");
	json_t *spc = run ? json_object_get(run, "subgroups_per_cu") : NULL;
	if (json_is_integer(clk) && json_integer_value(clk) > 0 && json_is_number(spc) && run &&
	    strcmp(jstr(run, "regime", ""), "throughput") == 0) {
		fprintf(out, "Bandwidth:  conflict-free, per compute unit per clock:");
		for (int e = 0; e < CB_NELEM; e++) {
			if (!inf->elem_present[e])
				continue;
			/* Stride 1 as measured; the model's time for one pass when it was not. */
			json_t *m = cb_stride_measurement(doc, cb_elem_sizes[e], 1);
			double t = m ? json_number_value(json_object_get(m, "ns_per_access")) : NAN;
			if (!isfinite(t) || t <= 0)
				t = inf->best.t0[e] + inf->best.c[e];
			double bytes = json_number_value(spc) * S * cb_elem_sizes[e];
			double per_clk = bytes / (t * (double)json_integer_value(clk) * 1e-3);
			fprintf(out, " %u B: %.0f", cb_elem_sizes[e], per_clk);
		}
		fprintf(out, " B (banks x width: %u B)\n", inf->best.geom.banks * inf->best.geom.width);
	}
	json_t *rb = json_object_get(d, "reported_banks");
	if (rb)
		fprintf(out, "Vendor:     the driver reports %" JSON_INTEGER_FORMAT " banks (%s); measured %u\n",
			json_integer_value(json_object_get(rb, "value")), jstr(rb, "source", "?"),
			inf->best.geom.banks);
}

static void fit_lines(FILE *out, const cb_inference *inf)
{
	if (!inf->has_best)
		return;
	fprintf(out, "Fit:        %zu measurements, %zu candidate models; best RMS error %.1f%% "
		"(flat %.1f%%), explains %.1f%% of the variation\n", inf->n_fit, inf->candidates,
		100 * inf->best.rms, 100 * inf->flat.rms, 100 * (inf->r2 > 0 ? inf->r2 : 0));
	if (inf->val_n)
		fprintf(out, "Validation: %zu random tables not used for the fit: RMS error %.1f%%, "
			"worst %.1f%%, %.0f%% within 10%%\n", inf->val_n, 100 * inf->val_rms,
			100 * inf->val_max, 100 * inf->val_within10);
	else
		fprintf(out, "Validation: none (the document has no random tables)\n");
}

static void quality(FILE *out, json_t *doc)
{
	json_t *w = json_object_get(json_object_get(doc, "quality"), "warnings"), *v;
	size_t i;
	json_array_foreach(w, i, v)
		fprintf(out, "Warning:    %s\n", json_string_value(v));
}

static void stride_table(FILE *out, json_t *doc, const cb_inference *inf, unsigned S)
{
	static const unsigned strides[] = { 0, 1, 2, 3, 4, 8, 16, 17, 32, 33, 64, 128 };
	bool any = false;
	for (int e = 0; e < CB_NELEM && !any; e++)
		any = isfinite(cb_measured_stride_ratio(doc, cb_elem_sizes[e], 2));
	if (!any)
		return;
	bool model = inf->status == CB_BANKED;
	fprintf(out, "\nStrides: slowdown against stride 1 of the same element size, measured%s\n",
		model ? " (model passes)" : "");
	fprintf(out, "%8s", "stride");
	for (int e = 0; e < CB_NELEM; e++)
		if (inf->elem_present[e])
			fprintf(out, "  %12u B", cb_elem_sizes[e]);
	fputc('\n', out);
	uint32_t *lanes = cb_xmalloc(S * sizeof *lanes);
	for (size_t k = 0; k < sizeof strides / sizeof *strides; k++) {
		bool row = false;
		for (int e = 0; e < CB_NELEM; e++)
			row |= isfinite(cb_measured_stride_ratio(doc, cb_elem_sizes[e], strides[k]));
		if (!row)
			continue;
		fprintf(out, "%8u", strides[k]);
		for (int e = 0; e < CB_NELEM; e++) {
			if (!inf->elem_present[e])
				continue;
			double r = cb_measured_stride_ratio(doc, cb_elem_sizes[e], strides[k]);
			char cell[32];
			if (!isfinite(r))
				snprintf(cell, sizeof cell, "-");
			else if (model) {
				for (unsigned l = 0; l < S; l++)
					lanes[l] = l * strides[k] * cb_elem_sizes[e];
				unsigned p = cb_passes(&inf->best.geom, inf->best.lanes_per_pass[e],
						       cb_elem_sizes[e], lanes, S);
				snprintf(cell, sizeof cell, "%.2f (%u)", r, p);
			} else
				snprintf(cell, sizeof cell, "%.2f", r);
			fprintf(out, "  %14s", cell);
		}
		fputc('\n', out);
	}
	free(lanes);
}

static void padding(FILE *out, json_t *doc, const cb_inference *inf, unsigned S)
{
	cb_pad_advice adv[9];
	unsigned n = cb_padding_advice(inf, doc, S, adv);
	if (!n)
		return;
	fprintf(out, "\nPadding: a column walk (lane i reads tile[i][c]) through rows of W elements\n");
	for (unsigned i = 0; i < n; i++) {
		const cb_pad_advice *a = &adv[i];
		char decl[64], meas[96];
		snprintf(decl, sizeof decl, "%s tile[%u][%u]", cb_elem_c_type(a->elem_bytes), a->tile, a->tile);
		if (!a->found) {
			fprintf(out, "  %-26s %3u passes; no padding up to one bank period reaches %u\n",
				decl, a->passes_unpadded, a->passes_ideal);
			continue;
		}
		if (a->pad == 0) {
			snprintf(meas, sizeof meas, isfinite(a->measured_unpadded) ? "measured %.2fx" : "not measured",
				 a->measured_unpadded);
			fprintf(out, "  %-26s %3u passes: conflict-free as is (%s)\n", decl,
				a->passes_unpadded, meas);
			continue;
		}
		snprintf(decl, sizeof decl, "%s tile[%u][%u+%u]", cb_elem_c_type(a->elem_bytes), a->tile,
			 a->tile, a->pad);
		if (isfinite(a->measured_unpadded) && isfinite(a->measured_padded))
			snprintf(meas, sizeof meas, "measured %.2fx -> %.2fx", a->measured_unpadded,
				 a->measured_padded);
		else
			snprintf(meas, sizeof meas, "not measured");
		fprintf(out, "  %-26s %3u -> %u passes (%s)\n", decl, a->passes_unpadded,
			a->passes_padded, meas);
	}
}

void cb_report_text(FILE *out, json_t *doc, const cb_inference *inf, unsigned subgroup)
{
	header(out, doc);
	geometry(out, doc, inf, subgroup);
	fit_lines(out, inf);
	quality(out, doc);
	stride_table(out, doc, inf, subgroup);
	padding(out, doc, inf, subgroup);
}
