/* SPDX-License-Identifier: MIT */
/* The text report: the device and the run, then for each operation measured its verdict and
 * model, the stride tables, the advice. Lines are kept within the text width (cb_text_width:
 * 100 columns unless the CLI says otherwise). */
#include "config.h"
#include "views/report.h"
#include "views/report_parts.h"
#include "core/analyze.h"
#include "core/infer_quality.h"
#include "core/advice.h"
#include "core/fleet.h"
#include "core/model.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LABEL 12

static unsigned text_width = CB_TEXT_WIDTH_DEFAULT;

void cb_text_set_width(unsigned columns)
{
	text_width = columns < CB_TEXT_WIDTH_MIN   ? CB_TEXT_WIDTH_MIN
		     : columns > CB_TEXT_WIDTH_MAX ? CB_TEXT_WIDTH_MAX
						   : columns;
}

unsigned cb_text_width(void)
{
	return text_width;
}

void cb_report_put(FILE *out, const char *s, const char *dflt)
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
	cb_report_put(out, d->name, "(unnamed device)");
	if (d->platform) {
		fputs(" (", out);
		cb_report_put(out, d->platform, "?");
		fputc(')', out);
	}
	fputc('\n', out);
	if (d->driver_version) {
		fputs("Driver:     ", out);
		cb_report_put(out, d->driver_version, "?");
		fputs(", ", out);
		cb_report_put(out, d->device_version, "?");
		fputs(", ", out);
		cb_report_put(out, d->opencl_c_version, "?");
		fputc('\n', out);
	}
	if (d->compute_units != CB_UNSET || d->max_clock_mhz != CB_UNSET)
		fprintf(out, "Compute:    %lld compute units at up to %lld MHz\n",
			d->compute_units != CB_UNSET ? d->compute_units : 0,
			d->max_clock_mhz != CB_UNSET ? d->max_clock_mhz : 0);
	if (d->local_mem_bytes != CB_UNSET) {
		fprintf(out, "Local mem:  %lld KiB per work-group, type ",
			d->local_mem_bytes / 1024);
		cb_report_put(out, d->local_mem_type, "?");
		fputc('\n', out);
	}
	fprintf(out, "Sub-group:  %u lanes (", d->subgroup_size);
	cb_report_put(out, d->subgroup_source, "from the document");
	fputs(")\n", out);
	if (run->present) {
		fputs("Run:        ", out);
		cb_report_put(out, run->regime, "?");
		fprintf(out, " regime, %lld rounds, %lld work-items, timer ",
			run->rounds != CB_UNSET ? run->rounds : 0,
			run->global_size != CB_UNSET ? run->global_size : 0);
		cb_report_put(out, run->timer, "?");
		fprintf(out, " (resolution %lld ns), %.1f s\n",
			d->timer_resolution_ns != CB_UNSET ? d->timer_resolution_ns : 0,
			isfinite(run->seconds_total) ? run->seconds_total : 0.0);
		if (run->resident_work_groups_per_cu != CB_UNSET &&
		    run->work_groups_per_cu != CB_UNSET &&
		    run->resident_work_groups_per_cu < run->work_groups_per_cu)
			fprintf(out,
				"Occupancy:  %lld of %lld work-groups at once per compute unit (%lld B "
				"of local memory, %lld B each)\n",
				run->resident_work_groups_per_cu, run->work_groups_per_cu,
				d->local_mem_per_cu_bytes, run->local_mem_alloc_bytes);
	}
}

void cb_report_header(FILE *out, const cb_result *r)
{
	header(out, r);
}

/* The verdict lines; false when there is no bank model to describe further. */
static bool verdict(FILE *out, const cb_result *r, const cb_inference *inf)
{
	bool global = is(r->device.local_mem_type, "global");
	switch (inf->status) {
	case CB_BANKED:
		fprintf(out, "Result:     banked, %u banks x %u bytes (confidence %.3f)\n",
			inf->best.geom.banks, inf->best.geom.width, inf->confidence);
		break;
	case CB_NOT_BANKED:
		fprintf(out, "Result:     not banked (confidence %.3f)\n", inf->confidence);
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
			fprintf(out,
				"Caveat:     local memory is of type global on this device (emulated "
				"in ordinary memory): there are no banks to find\n");
		return false;
	}
	if (global)
		fprintf(out,
			"Caveat:     the driver says local memory is of type global (emulated in "
			"ordinary memory); the banks measured are those of the memory behind it\n");
	return true;
}

/* Element sizes whose tables the model misses by more than their noise explains. */
static void approximate_lines(FILE *out, const cb_inference *inf)
{
	const cb_fit_quality *q = &inf->quality;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!inf->elem_present[e] || !q->approximate[e])
			continue;
		fprintf(out,
			"Approximate: %u B: the model misses these tables by %.1fx the expected "
			"error",
			cb_elems[e].bytes, q->elem_misfit[e]);
		if (q->approx_kind[e][0]) {
			fputs(" (", out);
			cb_report_put(out, q->approx_kind[e], "?");
			fprintf(out, " tables by %.1fx)", q->approx_kind_misfit[e]);
		}
		fputs("; worst: measurements", out);
		for (unsigned k = 0; k < q->nworst[e]; k++)
			fprintf(out, "%s %zu", k ? "," : "", q->worst[e][k]);
		fputc('\n', out);
	}
}

static void broadcast_line(FILE *out, const cb_inference *inf, cb_op op)
{
	const cb_op_desc *d = cb_op_desc_of(op);
	if (!inf->broadcast_known)
		fprintf(out, "Broadcast:  undetermined (the measurements cannot tell)\n");
	else
		fprintf(out, "Broadcast:  %s: %s\n", inf->best.geom.broadcast ? "yes" : "no",
			inf->best.geom.broadcast ? d->same_word_yes : d->same_word_no);
}

static void model_lines(FILE *out, const cb_inference *inf, unsigned S, cb_op op)
{
	broadcast_line(out, inf, op);
	if (inf->best.geom.pair_packing)
		fprintf(out,
			"Packing:    yes: when lanes pair up on identical offsets (n and n^1, or n "
			"and n^2), a pass serves twice the lanes\n");
	fprintf(out, "Lanes/pass:");
	bool first = true, whole = false;
	for (int e = 0; e < CB_NELEM; e++)
		if (inf->elem_present[e]) {
			fprintf(out, "%s %u B: %u%s", first ? "" : ",", cb_elems[e].bytes,
				inf->best.lanes_per_pass[e],
				inf->lanes_certain[e] ? "" : " (uncertain)");
			whole |= inf->best.lanes_per_pass[e] == S;
			first = false;
		}
	if (whole) /* once, not per size: the line stays within 100 columns */
		fprintf(out, " (%u: the whole sub-group)", S);
	fputc('\n', out);
	approximate_lines(out, inf);
}

/* The cost of one extra pass per sub-group (ns, and cycles where the clock is known); then
 * what it was derived from: the measurements' time per access step and the sub-groups one
 * compute unit serves in a step. */
static void conflict_line(FILE *out, const cb_result *r, const cb_inference *inf)
{
	if (!isfinite(inf->step_pass_ns))
		return;
	if (!isfinite(inf->pass_ns_per_subgroup)) {
		fprintf(out,
			"Conflict:   one extra pass costs %.3g ns per access step (the sub-groups "
			"per compute unit are not recorded: no cost per sub-group)\n",
			inf->step_pass_ns);
		return;
	}
	char cyc[64] = "";
	if (isfinite(inf->pass_cycles)) {
		char n[32];
		snprintf(n, sizeof n, "%.2g", inf->pass_cycles);
		snprintf(cyc, sizeof cyc, ", %s cycle%s at %lld MHz", n,
			 strcmp(n, "1") == 0 ? "" : "s", r->device.max_clock_mhz);
	}
	if (r->run.present && is(r->run.regime, "latency"))
		fprintf(out,
			"Conflict:   one extra pass costs %.3g ns per sub-group%s (one sub-group's "
			"dependent accesses)\n",
			inf->pass_ns_per_subgroup, cyc);
	else
		fprintf(out,
			"Conflict:   one extra pass costs %.3g ns per sub-group%s (%.3g ns per "
			"access step / %.4g sub-groups per compute unit)\n",
			inf->pass_ns_per_subgroup, cyc, inf->step_pass_ns, r->run.subgroups_per_cu);
}

/* Conflict-free bandwidth over the device, next to banks x width x clock x compute units. */
static void bandwidth_line(FILE *out, const cb_result *r, const cb_inference *inf, cb_op op)
{
	if (op == CB_OP_ATOMIC)
		return;
	bool first = true;
	for (int e = 0; e < CB_NELEM; e++) {
		double v = inf->elem_present[e] ? cb_conflict_free_gbs(r, op, e) : NAN;
		if (!isfinite(v))
			continue;
		fprintf(out, "%s %u B: %.0f", first ? "Bandwidth:  conflict-free, GB/s:" : ",",
			cb_elems[e].bytes, v);
		first = false;
	}
	if (first)
		return;
	double limit = cb_bandwidth_limit_gbs(r, inf);
	if (isfinite(limit))
		fprintf(out,
			" (limit: banks x width x clock x compute units = %u B x %lld MHz x %.0f "
			"= %.0f GB/s)",
			inf->best.geom.banks * inf->best.geom.width, r->device.max_clock_mhz,
			cb_memory_units(r), limit);
	fputc('\n', out);
}

static void vendor_line(FILE *out, const cb_result *r, const cb_inference *inf)
{
	if (!r->device.has_reported_banks)
		return;
	fprintf(out, "Vendor:     the driver reports %lld banks (", r->device.reported_banks);
	cb_report_put(out, r->device.reported_banks_source, "?");
	fprintf(out, "); measured %u\n", inf->best.geom.banks);
}

static void fit_lines(FILE *out, const cb_inference *inf)
{
	if (!inf->has_best)
		return;
	fprintf(out,
		"Fit:        %zu measurements, %zu candidate models; best RMS error %.1f%% "
		"(flat %.1f%%), explains %.1f%% of the variation\n",
		inf->n_fit, inf->candidates, 100 * inf->best.rms, 100 * inf->flat.rms,
		100 * (inf->r2 > 0 ? inf->r2 : 0));
	const cb_fit_quality *q = &inf->quality;
	if (q->judged && isfinite(q->misfit)) {
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
		fprintf(out,
			"Validation: %zu random tables not used for the fit: RMS error %.1f%%, "
			"worst %.1f%%, %.0f%% within 10%%\n",
			inf->val_n, 100 * inf->val_rms, 100 * inf->val_max,
			100 * inf->val_within10);
	else if (inf->n_holdout)
		fprintf(out, "Validation: none (no model predicts the %zu random tables)\n",
			inf->n_holdout);
	else
		fprintf(out, "Validation: none (the document has no random tables)\n");
}

static void quality_warnings(FILE *out, const cb_result *r)
{
	for (unsigned i = 0; i < r->quality.nwarnings; i++) {
		fputs("Warning:    ", out);
		cb_report_put(out, r->quality.warnings[i], "");
		fputc('\n', out);
	}
}

/* One operation's block; with several, each opens with its name. */
/* Each element size on its own, where no one model describes the sizes together. */
static void by_size_lines(FILE *out, const cb_result *r, cb_op op)
{
	for (int e = 0; e < CB_NELEM; e++) {
		if (!r->has_by_size[op][e])
			continue;
		const cb_inference *s = &r->by_size[op][e];
		char label[16];
		snprintf(label, sizeof label, "%u B alone:", cb_elems[e].bytes);
		if (cb_size_model(r, op, e))
			fprintf(out,
				"%-11s banked, %u banks x %u bytes%s, %u lanes a pass (confidence "
				"%.3f); predict --op %s --elem-bytes %u uses it\n",
				label, s->best.geom.banks, s->best.geom.width,
				s->broadcast_known && !s->best.geom.broadcast ? " without broadcast"
									      : "",
				s->best.lanes_per_pass[e], s->confidence, cb_op_name(op),
				cb_elems[e].bytes);
		else if (s->status == CB_BANKED && s->confidence < CB_BY_SIZE_MIN_CONFIDENCE)
			fprintf(out,
				"%-11s at best %u x %u B, confidence %.3f: too uncertain to use "
				"(%.1f needed)\n",
				label, s->best.geom.banks, s->best.geom.width, s->confidence,
				CB_BY_SIZE_MIN_CONFIDENCE);
		else if (s->status == CB_BANKED)
			fprintf(out,
				"%-11s banked, %u banks x %u bytes (confidence %.3f), no surer than "
				"the model above\n",
				label, s->best.geom.banks, s->best.geom.width, s->confidence);
		else
			fprintf(out, "%-11s %s: %s\n", label,
				s->status == CB_NOT_BANKED ? "not banked" : "inconclusive",
				s->reason);
	}
}

static void op_block(FILE *out, const cb_result *r, cb_op op, bool titled)
{
	const cb_inference *inf = &r->inference[op];
	fputc('\n', out);
	if (titled)
		fprintf(out, "%c%s\n", "LSA"[op], cb_op_desc_of(op) -> plural + 1);
	if (verdict(out, r, inf)) {
		model_lines(out, inf, r->device.subgroup_size, op);
		conflict_line(out, r, inf);
		bandwidth_line(out, r, inf, op);
		if (op == CB_OP_LOAD)
			vendor_line(out, r, inf);
	}
	by_size_lines(out, r, op);
	fit_lines(out, inf);
}

/* The documented models the measurement agrees with on every fact (cb_cli_match_documented),
 * or that none does. */
static void documented_line(FILE *out, const cb_result *r)
{
	if (!r->match.checked)
		return;
	fputs("\nDocumented: ", out);
	if (!r->match.models) {
		fputs("no documented model found to compare with (clbanks --list-models)\n", out);
		return;
	}
	if (!r->match.n) {
		fprintf(out,
			"none of the %zu documented models agrees on every fact compared ('clbanks "
			"compare' of this document and one of them says where they differ)\n",
			r->match.models);
		return;
	}
	cb_report_put(out, r->match.v[0].title, "?");
	fprintf(out, " agrees on all %zu facts compared (model ", r->match.v[0].agree);
	cb_report_put(out, r->match.v[0].name, "?");
	fputs(", from the vendor's documentation, not measured)", out);
	for (size_t i = 1; i < r->match.n; i++) {
		fputs(i == 1 ? "; so do " : i + 1 == r->match.n ? " and " : ", ", out);
		cb_report_put(out, r->match.v[i].name, "?");
	}
	fprintf(out, "%s\n", r->match.n > 1 ? ", which document the same" : "");
}

static void wrap_lines(FILE *out, const char *text, bool labels)
{
	const size_t columns = text_width;
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n"), lead = strspn(line, " ");
		bool labelled = len > LABEL && lead == 0 && memchr(line, ':', LABEL) != NULL;
		size_t cont = !labels ? lead : labelled ? LABEL : lead + 2, col = 0, at = 0;
		while (len - at > columns - col) {
			size_t cut = at + columns - col;
			while (cut > at && line[cut] != ' ')
				cut--;
			if (cut == at)
				break; /* one long word: left as is */
			fprintf(out, "%.*s\n%*s", (int)(cut - at), line + at, (int)cont, "");
			at = cut + 1;
			col = cont;
		}
		fprintf(out, "%.*s\n", (int)(len - at), line + at);
		line += len + (line[len] == '\n');
	}
}

void cb_text_wrap(FILE *out, const char *text)
{
	wrap_lines(out, text, true);
}

void cb_text_fill(FILE *out, const char *text)
{
	wrap_lines(out, text, false);
}

void cb_report_text(FILE *out, const cb_result *r)
{
	char *text = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&text, &n);
	if (!m)
		return;
	header(m, r);
	/* Every operation measured; loads (inconclusive) when there is none. */
	unsigned nops = 0;
	bool shown[CB_NOPS];
	for (int op = 0; op < CB_NOPS; op++)
		nops += shown[op] = r->op_present[op];
	if (!nops)
		shown[CB_OP_LOAD] = true;
	for (int op = 0; op < CB_NOPS; op++)
		if (shown[op])
			op_block(m, r, (cb_op)op, nops > 1);
	quality_warnings(m, r);
	documented_line(m, r);
	for (int op = 0; op < CB_NOPS; op++)
		cb_report_strides(m, r, (cb_op)op);
	cb_report_advice(m, r);
	fclose(m);
	cb_text_wrap(out, text);
	free(text);
}
