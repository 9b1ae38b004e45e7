/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/compare.h"
#include "core/advice.h"
#include "doc/doc.h"
#include "core/infer.h"
#include "core/model.h"
#include "cli/outfile.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One row of the comparison per figure; one column per document. */
typedef struct {
	const char *file;
	json_t *doc;
	cb_inference inf;
	unsigned S;
} entry;

static const char *dstr(json_t *doc, const char *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(doc, obj), key));
	return s ? s : "-";
}

static void cell_geometry(char *b, size_t n, const entry *e)
{
	if (e->inf.status == CB_BANKED)
		snprintf(b, n, "banked, %u x %u B", e->inf.best.geom.banks, e->inf.best.geom.width);
	else if (e->inf.status == CB_NOT_BANKED)
		snprintf(b, n, "not banked");
	else
		snprintf(b, n, "inconclusive");
}

static void cell_lanes(char *b, size_t n, const entry *e)
{
	size_t len = 0;
	b[0] = '\0';
	if (e->inf.status != CB_BANKED) {
		snprintf(b, n, "-");
		return;
	}
	for (int k = 0; k < CB_NELEM && len < n; k++)
		if (e->inf.elem_present[k])
			len += (size_t)snprintf(b + len, n - len, "%s%u:%u", len ? " " : "", cb_elem_sizes[k],
						e->inf.best.lanes_per_pass[k]);
}

static void cell_ratio(char *b, size_t n, const entry *e, unsigned elem, unsigned stride)
{
	double r = cb_measured_stride_ratio(e->doc, elem, stride);
	if (isfinite(r))
		snprintf(b, n, "%.2fx", r);
	else
		snprintf(b, n, "-");
}

enum { ROW_DEVICE, ROW_PLATFORM, ROW_REGIME, ROW_SUBGROUP, ROW_LOCAL, ROW_RESULT, ROW_CONF,
       ROW_LANES, ROW_BCAST, ROW_COST, ROW_CYCLES, ROW_FIT, ROW_VALID, ROW_S2, ROW_S32, ROW_PAD32,
       NROWS };
static const char *const row_names[NROWS] = {
	"device", "platform", "regime", "sub-group", "local memory", "result", "confidence",
	"lanes per pass (E:n)", "broadcast", "cost per pass (ns)", "cost per pass (cycles)",
	"fit RMS error", "validation RMS error", "stride 2, 4 B", "stride 32, 4 B",
	"padding, float[32][32+p]"
};
static const char *const row_keys[NROWS] = {
	"device", "platform", "regime", "subgroup_size", "local_mem", "status", "confidence",
	"lanes_per_pass", "broadcast", "cost_per_pass_ns", "cost_per_pass_cycles", "fit_rms_rel",
	"validation_rms_rel", "stride2_4B", "stride32_4B", "pad_float32"
};

static void cell(char *b, size_t n, const entry *e, int row)
{
	const cb_inference *inf = &e->inf;
	bool banked = inf->status == CB_BANKED;
	json_t *dev = json_object_get(e->doc, "device");
	switch (row) {
	case ROW_DEVICE: snprintf(b, n, "%s", dstr(e->doc, "device", "name")); break;
	case ROW_PLATFORM: snprintf(b, n, "%s", dstr(e->doc, "device", "platform")); break;
	case ROW_REGIME: snprintf(b, n, "%s", dstr(e->doc, "run", "regime")); break;
	case ROW_SUBGROUP: snprintf(b, n, "%u", e->S); break;
	case ROW_LOCAL:
		if (json_object_get(dev, "local_mem_bytes"))
			snprintf(b, n, "%" JSON_INTEGER_FORMAT " KiB %s",
				 json_integer_value(json_object_get(dev, "local_mem_bytes")) / 1024,
				 dstr(e->doc, "device", "local_mem_type"));
		else
			snprintf(b, n, "-");
		break;
	case ROW_RESULT: cell_geometry(b, n, e); break;
	case ROW_CONF: snprintf(b, n, "%.3f", inf->confidence); break;
	case ROW_LANES: cell_lanes(b, n, e); break;
	case ROW_BCAST:
		snprintf(b, n, "%s", !banked || !inf->broadcast_known ? "-" :
			 inf->best.geom.merge ? "yes" : "no");
		break;
	case ROW_COST:
		if (banked && isfinite(inf->cost_per_pass_ns))
			snprintf(b, n, "%.3g", inf->cost_per_pass_ns);
		else
			snprintf(b, n, "-");
		break;
	case ROW_CYCLES:
		if (banked && isfinite(inf->cost_per_pass_cycles))
			snprintf(b, n, "%.2g", inf->cost_per_pass_cycles);
		else
			snprintf(b, n, "-");
		break;
	case ROW_FIT:
		snprintf(b, n, "%.1f%%", 100 * (banked ? inf->best.rms : inf->flat.rms));
		break;
	case ROW_VALID:
		if (inf->val_n)
			snprintf(b, n, "%.1f%%", 100 * inf->val_rms);
		else
			snprintf(b, n, "-");
		break;
	case ROW_S2: cell_ratio(b, n, e, 4, 2); break;
	case ROW_S32: cell_ratio(b, n, e, 4, 32); break;
	case ROW_PAD32: {
		cb_pad_advice adv[9];
		unsigned na = cb_padding_advice(inf, e->doc, e->S, adv);
		snprintf(b, n, "-");
		for (unsigned i = 0; i < na; i++)
			if (adv[i].elem_bytes == 4 && adv[i].tile == 32 && adv[i].found)
				snprintf(b, n, "p = %u", adv[i].pad);
		break;
	}
	}
}

static json_t *entry_json(const entry *e)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", json_string(e->file));
	json_object_set_new(o, "device", json_string(dstr(e->doc, "device", "name")));
	json_object_set_new(o, "platform", json_string(dstr(e->doc, "device", "platform")));
	json_object_set_new(o, "regime", json_string(dstr(e->doc, "run", "regime")));
	json_object_set_new(o, "inference", cb_inference_to_json(&e->inf, e->S));
	double r2 = cb_measured_stride_ratio(e->doc, 4, 2), r32 = cb_measured_stride_ratio(e->doc, 4, 32);
	json_object_set_new(o, "stride2_4B", isfinite(r2) ? json_real(r2) : json_null());
	json_object_set_new(o, "stride32_4B", isfinite(r32) ? json_real(r32) : json_null());
	return o;
}

int cb_compare_main(char **files, int nfiles, cb_format fmt, const char *output, bool force)
{
	if (nfiles < 1) {
		cb_err("compare needs at least one result document");
		fputs("Usage: clbanks compare FILE... [--format text|json|csv] [-o OUT]\n", stderr);
		return CB_EXIT_USAGE;
	}
	entry *es = cb_xcalloc((size_t)nfiles, sizeof *es);
	int rc = CB_EXIT_OK;
	for (int i = 0; i < nfiles; i++) {
		es[i].file = files[i];
		es[i].doc = cb_doc_load(files[i], true);
		if (!es[i].doc) {
			rc = CB_EXIT_USAGE;
			goto done;
		}
		cb_dataset ds;
		cb_doc_dataset(es[i].doc, &ds);
		es[i].S = ds.subgroup;
		cb_infer(&ds, &es[i].inf);
		cb_dataset_free(&ds);
	}
	cb_outfile out;
	if (!cb_outfile_open(&out, output, force)) {
		rc = CB_EXIT_USAGE;
		goto done;
	}
	char buf[128];
	if (fmt == CB_FMT_JSON) {
		json_t *a = json_array();
		for (int i = 0; i < nfiles; i++)
			json_array_append_new(a, entry_json(&es[i]));
		json_t *root = json_pack("{s:s, s:i, s:o}", "format", "clbanks-compare", "format_version",
					 1, "devices", a);
		char *s = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(6));
		fprintf(out.fp, "%s\n", s);
		free(s);
		json_decref(root);
	} else if (fmt == CB_FMT_CSV) {
		cb_csv_field(out.fp, "format_version", false);
		cb_csv_field(out.fp, "file", false);
		for (int r = 0; r < NROWS; r++)
			cb_csv_field(out.fp, row_keys[r], r == NROWS - 1);
		for (int i = 0; i < nfiles; i++) {
			cb_csv_field(out.fp, "1", false);
			cb_csv_field(out.fp, es[i].file, false);
			for (int r = 0; r < NROWS; r++) {
				cell(buf, sizeof buf, &es[i], r);
				cb_csv_field(out.fp, buf, r == NROWS - 1);
			}
		}
	} else {
		int w = 24;
		for (int i = 0; i < nfiles; i++)
			for (int r = 0; r < NROWS; r++) {
				cell(buf, sizeof buf, &es[i], r);
				if ((int)strlen(buf) + 2 > w)
					w = (int)strlen(buf) + 2;
			}
		if (w > 40)
			w = 40;
		for (int r = 0; r < NROWS; r++) {
			fprintf(out.fp, "%-26s", row_names[r]);
			for (int i = 0; i < nfiles; i++) {
				cell(buf, sizeof buf, &es[i], r);
				if (i == nfiles - 1)
					fprintf(out.fp, "%.*s", w - 2, buf);
				else
					fprintf(out.fp, "%-*.*s", w, w - 2, buf);
			}
			fputc('\n', out.fp);
		}
	}
	if (ferror(out.fp)) {
		cb_outfile_abort(&out);
		rc = CB_EXIT_RUNTIME;
	} else if (!cb_outfile_commit(&out)) {
		rc = CB_EXIT_RUNTIME;
	}
done:
	for (int i = 0; i < nfiles; i++)
		json_decref(es[i].doc);
	free(es);
	return rc;
}
