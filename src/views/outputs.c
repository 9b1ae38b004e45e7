/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/outputs.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The platforms FROM to TO - 1 (none of which has a listed device), as clinfo shows them. */
static void empty_platforms(FILE *out, const cb_device_list *list, unsigned from, unsigned to)
{
	for (unsigned p = from; p < to && p < list->nplatforms; p++) {
		char *plat = cb_escape_controls(list->platforms[p].name), pd[32];
		snprintf(pd, sizeof pd, "%u:-", p);
		fprintf(out, "%-7s %-5s %-12s %s (%s)\n", "-", pd, "-",
			list->platforms[p].failed ? "devices not listed: clGetDeviceIDs failed"
						  : "no devices",
			plat);
		free(plat);
	}
}

/* What the driver reports of device I (INFO, may be NULL) into E. */
static void entry_facts(cb_device_entry *e, const cb_device_info *info)
{
	if (!info)
		return;
	e->local_mem_bytes = info->local_mem_size;
	e->local_mem_type = info->local_mem_type == CL_LOCAL    ? "local"
			    : info->local_mem_type == CL_GLOBAL ? "global"
								: "none";
	e->compute_units = info->compute_units;
	e->max_clock_mhz = info->max_clock_mhz;
	if (info->intel_subgroup_count) {
		for (unsigned k = 0; k < info->intel_subgroup_count && k < 8; k++)
			e->subgroup_sizes[e->nsubgroup_sizes++] =
				(unsigned)info->intel_subgroup_sizes[k];
		e->subgroup_source = "CL_DEVICE_SUB_GROUP_SIZES_INTEL";
	} else if (info->subgroup_size) {
		e->subgroup_sizes[e->nsubgroup_sizes++] = info->subgroup_size;
		e->subgroup_source = info->subgroup_source;
	}
	e->driver_version = info->driver_version;
	e->device_version = info->device_version;
	e->opencl_c_version = info->opencl_c_version;
	e->platform_version = info->platform_version;
}

static void csv_row(FILE *out, const cb_device_entry *e)
{
	char idx[32], pd[32], mem[32] = "", cu[16] = "", mhz[16] = "", sg[96] = "";
	snprintf(idx, sizeof idx, "%u", e->index);
	snprintf(pd, sizeof pd, "%u:%u", e->platform_index, e->device_index);
	if (e->local_mem_bytes)
		snprintf(mem, sizeof mem, "%llu", e->local_mem_bytes);
	if (e->compute_units)
		snprintf(cu, sizeof cu, "%u", e->compute_units);
	if (e->max_clock_mhz)
		snprintf(mhz, sizeof mhz, "%u", e->max_clock_mhz);
	for (unsigned k = 0, len = 0; k < e->nsubgroup_sizes && len < sizeof sg - 12; k++)
		len += (unsigned)snprintf(sg + len, sizeof sg - len, "%s%u", k ? " " : "",
					  e->subgroup_sizes[k]);
	const char *f[] = { idx,
			    pd,
			    e->type,
			    e->name,
			    e->vendor,
			    e->platform,
			    e->is_default ? "1" : "0",
			    mem,
			    e->local_mem_type ? e->local_mem_type : "",
			    cu,
			    mhz,
			    sg,
			    e->driver_version ? e->driver_version : "",
			    e->device_version ? e->device_version : "",
			    e->opencl_c_version ? e->opencl_c_version : "" };
	size_t nf = sizeof f / sizeof *f;
	for (size_t k = 0; k < nf; k++)
		cb_csv_field(out, f[k], k == nf - 1);
}

/* A driver's string, or "?" when it gave none. */
static char *shown(const char *s)
{
	return cb_escape_controls(s && *s ? s : "?");
}

/* Under a device's line, as clinfo shows a device: local memory, units and clock, sub-group
 * sizes, versions, and the ids --device takes. Indented, so that the first column stays the
 * index (the completions read it). */
static void device_facts(FILE *out, const cb_device_entry *e)
{
	const char *ind = "        ";
	if (e->local_mem_bytes)
		fprintf(out, "%slocal memory:  %llu KiB (%llu bytes), %s\n", ind,
			e->local_mem_bytes / 1024, e->local_mem_bytes,
			strcmp(e->local_mem_type, "local") == 0    ? "dedicated (CL_LOCAL)"
			: strcmp(e->local_mem_type, "global") == 0 ? "in global memory (CL_GLOBAL)"
								   : "none reported");
	else
		fprintf(out, "%slocal memory:  not reported\n", ind);
	fprintf(out, "%scompute units: ", ind);
	fprintf(out, e->compute_units ? "%u" : "not reported", e->compute_units);
	fprintf(out, e->max_clock_mhz ? ", clock %u MHz at most\n" : ", clock not reported\n",
		e->max_clock_mhz);
	fprintf(out, "%ssub-groups:    ", ind);
	for (unsigned k = 0; k < e->nsubgroup_sizes; k++)
		fprintf(out, "%s%u", k ? ", " : "", e->subgroup_sizes[k]);
	if (e->nsubgroup_sizes)
		fprintf(out, " lanes (%s)\n", e->subgroup_source);
	else
		fputs("size not reported by the driver (a run asks a kernel or measures it)\n",
		      out);
	char *dv = shown(e->device_version), *cv = shown(e->opencl_c_version);
	char *drv = shown(e->driver_version);
	fprintf(out, "%sOpenCL:        %s, %s\n", ind, dv, cv);
	fprintf(out, "%sdriver:        %s\n", ind, drv);
	free(dv);
	free(cv);
	free(drv);
	fprintf(out, "%s--device:      %u or %u:%u\n", ind, e->index, e->platform_index,
		e->device_index);
}

void cb_device_list_print(FILE *out, const cb_device_list *list, const cb_device_info *infos,
			  size_t dflt, cb_format fmt)
{
	if (fmt == CB_FMT_CSV)
		fputs("index,id,type,name,vendor,platform,default,local_mem_bytes,local_mem_type,"
		      "compute_units,max_clock_mhz,subgroup_sizes,driver_version,device_version,"
		      "opencl_c_version\r\n",
		      out);
	else if (fmt == CB_FMT_TEXT)
		fprintf(out, "%-7s %-5s %-12s %s\n", "index", "P:D", "type", "device (platform)");
	cb_device_entry *e = cb_xcalloc(list->count + 1, sizeof *e);
	for (size_t i = 0; i < list->count; i++) {
		const cb_device_ref *r = &list->items[i];
		if (fmt == CB_FMT_TEXT)
			empty_platforms(out, list, i ? list->items[i - 1].pindex + 1 : 0,
					r->pindex);
		e[i] = (cb_device_entry){ .index = r->flat,
					  .platform_index = r->pindex,
					  .device_index = r->dindex,
					  .type = cb_device_type_name(r->type),
					  .name = r->name,
					  .vendor = r->vendor,
					  .platform = r->platform_name,
					  .is_default = i == dflt };
		entry_facts(&e[i], infos ? &infos[i] : NULL);
		char idx[32], pd[32];
		snprintf(idx, sizeof idx, "%u%s", r->flat, i == dflt ? " *" : "");
		snprintf(pd, sizeof pd, "%u:%u", r->pindex, r->dindex);
		if (fmt == CB_FMT_TEXT) {
			char *name = cb_escape_controls(r->name),
			     *plat = cb_escape_controls(r->platform_name);
			fprintf(out, "%-7s %-5s %-12s %s (%s)\n", idx, pd, e[i].type, name, plat);
			free(name);
			free(plat);
			if (infos)
				device_facts(out, &e[i]);
		} else if (fmt == CB_FMT_CSV) {
			csv_row(out, &e[i]);
		}
	}
	if (fmt == CB_FMT_TEXT) {
		empty_platforms(out, list,
				list->count ? list->items[list->count - 1].pindex + 1 : 0,
				list->nplatforms);
		if (list->count)
			fputs("* the default device (used without --device)\n", out);
	}
	if (fmt == CB_FMT_JSON) {
		cb_put_owned(out, cb_devices_json(e, list->count));
	}
	free(e);
}

/* The answer in words: "32 passes: 32-way conflict (conflict-free minimum 1 for 4-byte loads),
 * about 32x the time of a conflict-free access". */
static void render_text(FILE *out, const cb_predict_answer *a)
{
	cb_op op = CB_OP_LOAD;
	cb_op_parse(a->op, &op);
	const char *ops = cb_op_desc_of(op)->plural;
	if (!a->banked) {
		fprintf(out, "1 pass: %s\n", a->note);
		return;
	}
	fprintf(out, "%u pass%s: ", a->passes, a->passes == 1 ? "" : "es");
	if (a->passes < a->min_passes)
		fprintf(out,
			"fewer than a conflict-free access of distinct elements (%u for %u-byte "
			"%s): lanes share words\n",
			a->min_passes, a->elem_bytes, ops);
	else if (a->passes == a->min_passes)
		fprintf(out, "conflict-free (%u is the minimum for %u-byte %s)\n", a->min_passes,
			a->elem_bytes, ops);
	else
		fprintf(out,
			"%u-way conflict (conflict-free minimum %u for %u-byte %s), about %.3gx "
			"the time of a conflict-free access\n",
			a->conflict_ways, a->min_passes, a->elem_bytes, ops, a->slowdown);
}

void cb_predict_print(FILE *out, const cb_predict_answer *a, cb_format fmt, bool verbose)
{
	if (fmt == CB_FMT_JSON) {
		cb_put_owned(out, cb_predict_json(a));
		return;
	}
	if (fmt == CB_FMT_CSV) {
		fprintf(out,
			"op,elem_bytes,passes,min_passes,conflict_ways,slowdown,lanes_per_pass\r\n"
			"%s,%u,%u,%u,%u,%.6g,%u\r\n",
			a->op, a->elem_bytes, a->passes, a->min_passes, a->conflict_ways,
			a->slowdown, a->lanes_per_pass);
		return;
	}
	render_text(out, a);
	if (a->documented)
		fprintf(out, "  model: %s\n", a->documented);
	if (a->by_size)
		fprintf(out,
			"  (the %u-byte %ss' own model: no one model describes every element size "
			"of %ss)\n",
			a->elem_bytes, a->op, a->op);
	for (unsigned pass = 0; verbose && a->pass_of_lane && pass < a->passes; pass++) {
		fprintf(out, "  pass %u: lanes", pass + 1);
		for (unsigned l = 0; l < a->nlanes; l++)
			if (a->pass_of_lane[l] == pass)
				fprintf(out, " %u", l);
		fputc('\n', out);
	}
}

/* The text form of a plan: how many experiments of each kind per element size. */
/* One operation's table of experiments: kinds by element size (kinds it has none of left
 * out). */
static void plan_op(FILE *f, const cb_result *r, cb_op op)
{
	static const char *const kinds[] = { "stride", "two_address", "pair_reference", "lane_pair",
					     "split",  "pool",        "swizzle",        "random" };
	size_t total = 0;
	for (size_t i = 0; i < r->nms; i++)
		total += r->ms[i].op == op;
	if (!total)
		return;
	fprintf(f, "\n%-16s", cb_op_name(op));
	for (int e = 0; e < CB_NELEM; e++)
		fprintf(f, "%6u B", cb_elems[e].bytes);
	fputc('\n', f);
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		size_t count[CB_NELEM] = { 0 }, any = 0;
		for (size_t i = 0; i < r->nms; i++)
			if (r->ms[i].op == op && cb_kind_is(&r->ms[i], kinds[k])) {
				count[cb_elem_index(r->ms[i].elem_bytes)]++;
				any++;
			}
		if (!any)
			continue;
		fprintf(f, "  %-14s", kinds[k]);
		for (int e = 0; e < CB_NELEM; e++)
			fprintf(f, "%8zu", count[e]);
		fputc('\n', f);
	}
}

void cb_plan_summary_print(FILE *f, const cb_result *plan, const cb_plan_opts *po)
{
	fprintf(f,
		"Plan: %zu experiments for sub-groups of %u lanes, seed %lu, local memory up to "
		"%lu B%s\n",
		plan->nms, po->subgroup, (unsigned long)po->seed, po->local_mem_budget,
		po->quick ? ", quick" : "");
	for (int op = 0; op < CB_NOPS; op++)
		plan_op(f, plan, (cb_op)op);
	fputs("\nRandom tables are kept out of the fit and validate the inferred model; a run also "
	      "times\nthe transpose check (cl/transpose.cl) when it measures loads.\n",
	      f);
}

static void plan_run_lines(FILE *out, const cb_result *r, const char *doc)
{
	cb_report_header(out, r);
	size_t timed = 0, lint = 0;
	for (size_t i = 0; i < r->nms; i++) {
		timed += isfinite(r->ms[i].ns_per_access);
		lint += cb_kind_is(&r->ms[i], "lint") || cb_kind_is(&r->ms[i], "lint_reference");
	}
	fprintf(out,
		"\nMeasured:   %zu tables of the plan, %zu timed: the time per step of the "
		"whole device, and the ratio to the baseline's in the same rounds (95%% "
		"interval)\n",
		r->nms, timed);
	fprintf(out, "  %5s %-6s %5s  %-16s %10s  %s\n", "id", "op", "size", "kind", "ns/step",
		"x baseline");
	for (size_t i = 0; i < r->nms; i++) {
		const cb_measurement *m = &r->ms[i];
		char id[24] = "-", ns[32] = "not timed", ratio[64] = "";
		if (m->id != CB_UNSET)
			snprintf(id, sizeof id, "%lld", m->id);
		if (isfinite(m->ns_per_access))
			snprintf(ns, sizeof ns, "%.1f", m->ns_per_access);
		if (m->has_stats && isfinite(m->stats.median))
			snprintf(ratio, sizeof ratio, "%.3fx (%.3f-%.3f)%s", m->stats.median,
				 m->stats.ci_lo, m->stats.ci_hi,
				 m->stats.converged ? "" : ", not converged");
		char *kind = cb_escape_controls(m->kind ? m->kind : "-");
		fprintf(out, "  %5s %-6s %3u B  %-16s %10s  %s\n", id, cb_op_name(m->op),
			m->elem_bytes, kind, ns, ratio);
		free(kind);
	}
	bool named = doc && strcmp(doc, "-") != 0;
	char *e = cb_escape_controls(named ? doc : "FILE");
	const char *again = named ? "" : "run it again with -o FILE, then ";
	if (lint)
		fprintf(out,
			"Next:       %sclbanks lint KERNEL.cl ... --measured %s, with the "
			"options of the lint command that wrote the plan: each access priced with "
			"these times\n",
			again, e);
	else
		fprintf(out,
			"Next:       %sclbanks analyze %s: the bank model these tables support\n",
			again, e);
	free(e);
}

void cb_plan_run_print(FILE *out, const cb_result *r, const char *doc)
{
	char *text = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&text, &n);
	if (!m)
		return;
	plan_run_lines(m, r, doc);
	fclose(m);
	cb_text_wrap(out, text);
	free(text);
}
