/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/outputs.h"
#include "core/util.h"

#include <stdlib.h>

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

void cb_device_list_print(FILE *out, const cb_device_list *list, size_t dflt, cb_format fmt)
{
	if (fmt == CB_FMT_CSV)
		fputs("index,id,type,name,vendor,platform,default\r\n", out);
	else if (fmt == CB_FMT_TEXT)
		fprintf(out, "%-7s %-5s %-12s %s\n", "index", "P:D", "type", "device (platform)");
	cb_device_entry *e = cb_xcalloc(list->count + 1, sizeof *e);
	for (size_t i = 0; i < list->count; i++) {
		const cb_device_ref *r = &list->items[i];
		if (fmt == CB_FMT_TEXT)
			empty_platforms(out, list, i ? list->items[i - 1].pindex + 1 : 0,
					r->pindex);
		e[i] = (cb_device_entry){ r->flat, r->pindex, r->dindex, cb_device_type_name(r->type),
					  r->name, r->vendor, r->platform_name, i == dflt };
		char idx[32], pd[32];
		snprintf(idx, sizeof idx, "%u%s", r->flat, i == dflt ? " *" : "");
		snprintf(pd, sizeof pd, "%u:%u", r->pindex, r->dindex);
		if (fmt == CB_FMT_TEXT) {
			char *name = cb_escape_controls(r->name), *plat = cb_escape_controls(r->platform_name);
			fprintf(out, "%-7s %-5s %-12s %s (%s)\n", idx, pd, e[i].type, name, plat);
			free(name);
			free(plat);
		} else if (fmt == CB_FMT_CSV) {
			snprintf(idx, sizeof idx, "%u", r->flat);
			const char *f[] = { idx, pd, e[i].type, r->name, r->vendor, r->platform_name,
					    i == dflt ? "1" : "0" };
			for (size_t k = 0; k < 7; k++)
				cb_csv_field(out, f[k], k == 6);
		}
	}
	if (fmt == CB_FMT_TEXT) {
		empty_platforms(out, list, list->count ?
				list->items[list->count - 1].pindex + 1 : 0,
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
		fprintf(out, "fewer than a conflict-free access of distinct elements (%u for %u-byte "
			"%s): lanes share words\n", a->min_passes, a->elem_bytes, ops);
	else if (a->passes == a->min_passes)
		fprintf(out, "conflict-free (%u is the minimum for %u-byte %s)\n", a->min_passes,
			a->elem_bytes, ops);
	else
		fprintf(out, "%u-way conflict (conflict-free minimum %u for %u-byte %s), about %.3gx "
			"the time of a conflict-free access\n", a->conflict_ways, a->min_passes,
			a->elem_bytes, ops, a->slowdown);
}

void cb_predict_print(FILE *out, const cb_predict_answer *a, cb_format fmt, bool verbose)
{
	if (fmt == CB_FMT_JSON) {
		cb_put_owned(out, cb_predict_json(a));
		return;
	}
	if (fmt == CB_FMT_CSV) {
		fprintf(out, "op,elem_bytes,passes,min_passes,conflict_ways,slowdown,lanes_per_pass\r\n"
			"%s,%u,%u,%u,%u,%.6g,%u\r\n", a->op, a->elem_bytes, a->passes, a->min_passes,
			a->conflict_ways, a->slowdown, a->lanes_per_pass);
		return;
	}
	render_text(out, a);
	if (a->documented)
		fprintf(out, "  model: %s\n", a->documented);
	if (a->by_size)
		fprintf(out, "  (the %u-byte %ss' own model: no one model describes every element size "
			"of %ss)\n", a->elem_bytes, a->op, a->op);
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
					     "split", "pool", "swizzle", "random" };
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
	fprintf(f, "Plan: %zu experiments for sub-groups of %u lanes, seed %lu, local memory up to "
		"%lu B%s\n", plan->nms, po->subgroup, (unsigned long)po->seed,
		po->local_mem_budget, po->quick ? ", quick" : "");
	for (int op = 0; op < CB_NOPS; op++)
		plan_op(f, plan, (cb_op)op);
	fputs("\nRandom tables are kept out of the fit and validate the inferred model; a run also "
	      "times\nthe transpose check (cl/transpose.cl) when it measures loads.\n", f);
}
