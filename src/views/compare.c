/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/compare.h"
#include "views/report.h"
#include "core/advice.h"
#include "core/model.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *file;
	const cb_result *r;
	const cb_inference *inf;
} entry;

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

static void cell_geometry(char *b, size_t n, const entry *e)
{
	if (e->inf->status == CB_BANKED)
		snprintf(b, n, "banked, %u x %u B", e->inf->best.geom.banks, e->inf->best.geom.width);
	else if (e->inf->status == CB_NOT_BANKED)
		snprintf(b, n, "not banked");
	else
		snprintf(b, n, "inconclusive");
}

static void cell_lanes(char *b, size_t n, const entry *e)
{
	size_t len = 0;
	b[0] = '\0';
	if (e->inf->status != CB_BANKED) {
		snprintf(b, n, "-");
		return;
	}
	for (int k = 0; k < CB_NELEM && len < n; k++)
		if (e->inf->elem_present[k])
			len += (size_t)snprintf(b + len, n - len, "%s%u:%u%s", len ? " " : "",
						cb_elem_sizes[k], e->inf->best.lanes_per_pass[k],
						e->inf->lanes_certain[k] ? "" : "?");
}

static void cell_ratio(char *b, size_t n, const entry *e, unsigned elem, unsigned stride)
{
	double r = cb_stride_ratio(e->r, CB_OP_LOAD, elem, stride);
	if (isfinite(r))
		snprintf(b, n, "%.2fx", r);
	else
		snprintf(b, n, "-");
}

enum { ROW_DEVICE, ROW_PLATFORM, ROW_REGIME, ROW_SUBGROUP, ROW_LOCAL, ROW_RESULT, ROW_CONF,
       ROW_LANES, ROW_BCAST, ROW_COST, ROW_CYCLES, ROW_FIT, ROW_MISFIT, ROW_VALID, ROW_S2, ROW_S32,
       ROW_PAD32, NROWS };
static const char *const row_names[NROWS] = {
	"device", "platform", "regime", "sub-group", "local memory", "result", "confidence",
	"lanes per pass (E:n)", "broadcast", "cost per pass (ns)", "cost per pass (cycles)",
	"fit RMS error", "misfit (x expected)", "validation RMS error", "stride 2, 4 B",
	"stride 32, 4 B",
	"padding, float[32][32+p]"
};
static const char *const row_keys[NROWS] = {
	"device", "platform", "regime", "subgroup_size", "local_mem", "status", "confidence",
	"lanes_per_pass", "broadcast", "cost_per_pass_ns", "cost_per_pass_cycles", "fit_rms_rel",
	"fit_misfit", "validation_rms_rel", "stride2_4B", "stride32_4B", "pad_float32"
};

/* A number with PRECISION significant digits (%g), or as a percentage with one decimal. */
static void cell_number(char *b, size_t n, bool show, int precision, double v)
{
	if (!show || !isfinite(v))
		snprintf(b, n, "-");
	else if (precision < 0)
		snprintf(b, n, "%.1f%%", v);
	else
		snprintf(b, n, "%.*g", precision, v);
}

static void cell_padding(char *b, size_t n, const entry *e)
{
	snprintf(b, n, "-");
	for (unsigned i = 0; i < e->r->npad; i++)
		if (e->r->pad[i].elem_bytes == 4 && e->r->pad[i].tile == 32 && e->r->pad[i].found)
			snprintf(b, n, "p = %u", e->r->pad[i].pad);
}

static void cell(char *b, size_t n, const entry *e, int row)
{
	const cb_inference *inf = e->inf;
	const cb_device_doc *d = &e->r->device;
	bool banked = inf->status == CB_BANKED;
	switch (row) {
	case ROW_DEVICE: snprintf(b, n, "%s", or_dash(d->name)); break;
	case ROW_PLATFORM: snprintf(b, n, "%s", or_dash(d->platform)); break;
	case ROW_REGIME: snprintf(b, n, "%s", or_dash(e->r->run.regime)); break;
	case ROW_SUBGROUP: snprintf(b, n, "%u", d->subgroup_size); break;
	case ROW_LOCAL:
		if (d->local_mem_bytes != CB_UNSET)
			snprintf(b, n, "%lld KiB %s", d->local_mem_bytes / 1024, or_dash(d->local_mem_type));
		else
			snprintf(b, n, "-");
		break;
	case ROW_RESULT: cell_geometry(b, n, e); break;
	case ROW_CONF: snprintf(b, n, "%.3f", inf->confidence); break;
	case ROW_LANES: cell_lanes(b, n, e); break;
	case ROW_BCAST:
		snprintf(b, n, "%s", !banked || !inf->broadcast_known ? "-" :
			 inf->best.geom.broadcast ? "yes" : "no");
		break;
	case ROW_COST: cell_number(b, n, banked, 3, inf->cost_per_pass_ns); break;
	case ROW_CYCLES: cell_number(b, n, banked, 2, inf->cost_per_pass_cycles); break;
	case ROW_FIT: snprintf(b, n, "%.1f%%", 100 * (banked ? inf->best.rms : inf->flat.rms)); break;
	case ROW_MISFIT: cell_number(b, n, banked && inf->quality.judged, 3, inf->quality.misfit); break;
	case ROW_VALID: cell_number(b, n, inf->val_n > 0, -1, 100 * inf->val_rms); break;
	case ROW_S2: cell_ratio(b, n, e, 4, 2); break;
	case ROW_S32: cell_ratio(b, n, e, 4, 32); break;
	case ROW_PAD32: cell_padding(b, n, e); break;
	}
}

static entry *entries(const cb_result *const *rs, const char *const *files, int n)
{
	entry *es = cb_xcalloc((size_t)n, sizeof *es);
	for (int i = 0; i < n; i++) {
		es[i].file = files[i];
		es[i].r = rs[i];
		es[i].inf = &rs[i]->inference[CB_OP_LOAD];
	}
	return es;
}

void cb_compare_csv(FILE *out, const cb_result *const *rs, const char *const *files, int n)
{
	entry *es = entries(rs, files, n);
	char buf[128];
	cb_csv_field(out, "format_version", false);
	cb_csv_field(out, "file", false);
	for (int r = 0; r < NROWS; r++)
		cb_csv_field(out, row_keys[r], r == NROWS - 1);
	for (int i = 0; i < n; i++) {
		cb_csv_field(out, "1", false);
		cb_csv_text(out, es[i].file, false);
		for (int r = 0; r < NROWS; r++) {
			cell(buf, sizeof buf, &es[i], r);
			bool text = r == ROW_DEVICE || r == ROW_PLATFORM || r == ROW_REGIME;
			(text ? cb_csv_text : cb_csv_field)(out, buf, r == NROWS - 1);
		}
	}
	free(es);
}

void cb_compare_text(FILE *out, const cb_result *const *rs, const char *const *files, int n)
{
	entry *es = entries(rs, files, n);
	char buf[128];
	int w = 24;
	for (int i = 0; i < n; i++)
		for (int r = 0; r < NROWS; r++) {
			cell(buf, sizeof buf, &es[i], r);
			if ((int)strlen(buf) + 2 > w)
				w = (int)strlen(buf) + 2;
		}
	if (w > 40)
		w = 40;
	for (int r = 0; r < NROWS; r++) {
		fprintf(out, "%-26s", row_names[r]);
		for (int i = 0; i < n; i++) {
			cell(buf, sizeof buf, &es[i], r);
			char *e = cb_escape_controls(buf);
			if (i == n - 1)
				fprintf(out, "%.*s", w - 2, e);
			else
				fprintf(out, "%-*.*s", w, w - 2, e);
			free(e);
		}
		fputc('\n', out);
	}
	free(es);
}
