/* SPDX-License-Identifier: MIT */
/* compare: one row per document. The text table keeps to 100 columns (names cut with an
 * ellipsis); the CSV has one numeric value per cell, its unit in the column's name. Both come
 * from one table of columns. */
#include "config.h"
#include "views/compare.h"
#include "core/analyze.h"
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
} entry;

/* A cell: TEXT for the text table and for the CSV's text columns, NUM for numeric ones (NAN:
 * empty). */
typedef struct {
	char text[96];
	double num;
} cell;

typedef void (*cell_fn)(const entry *e, int arg, cell *c);

typedef struct {
	const char *csv;    /* CSV column (unit in the name) */
	const char *head;   /* text column heading, NULL: CSV only */
	int width;          /* text width; negative: left-aligned */
	cell_fn fn;
	int arg;
	bool numeric;       /* CSV: a number */
} column;

static const cb_inference *inf_of(const entry *e, int op)
{
	return e->r->op_present[op] || op == CB_OP_LOAD ? &e->r->inference[op] : NULL;
}

static bool banked(const cb_inference *inf)
{
	return inf && inf->status == CB_BANKED;
}

static void text(cell *c, const char *s)
{
	snprintf(c->text, sizeof c->text, "%s", s ? s : "-");
}

/* How a number is shown in the text table. */
enum { INT, FIXED2, FIXED3, SIG2, SIG4 };

static void number(cell *c, double v, int style)
{
	c->num = v;
	if (!isfinite(v)) {
		text(c, "-");
		return;
	}
	switch (style) {
	case INT: snprintf(c->text, sizeof c->text, "%.0f", v); break;
	case FIXED2: snprintf(c->text, sizeof c->text, "%.2f", v); break;
	case FIXED3: snprintf(c->text, sizeof c->text, "%.3f", v); break;
	case SIG2: snprintf(c->text, sizeof c->text, "%.2g", v); break;
	default: snprintf(c->text, sizeof c->text, "%.4g", v); break;
	}
}

static void c_file(const entry *e, int arg, cell *c) { (void)arg; text(c, e->file); }
static void c_device(const entry *e, int arg, cell *c) { (void)arg; text(c, e->r->device.name); }
static void c_platform(const entry *e, int arg, cell *c) { (void)arg; text(c, e->r->device.platform); }
static void c_regime(const entry *e, int arg, cell *c) { (void)arg; text(c, e->r->run.regime); }

static void c_subgroup(const entry *e, int arg, cell *c)
{
	(void)arg;
	number(c, e->r->device.subgroup_size, INT);
}

/* The first element size of OP whose own model stands in for the op's, or NULL. */
static const cb_inference *banked_size(const entry *e, int op, int *elem)
{
	for (int k = 0; k < CB_NELEM; k++)
		if (cb_size_model(e->r, (cb_op)op, k)) {
			*elem = k;
			return cb_size_model(e->r, (cb_op)op, k);
		}
	return NULL;
}

/* Text: "32 x 4 B", "32 x 4 B*" (no broadcast: lanes on one word serialize), "not banked",
 * "inconclusive"; "4B 32 x 4 B*" when only that element size has a model. */
static void c_result(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op), *own;
	int k = 0;
	if (!inf)
		text(c, "-");
	else if ((own = banked_size(e, op, &k)) != NULL)
		snprintf(c->text, sizeof c->text, "%uB %u x %u B%s", cb_elems[k].bytes,
			 own->best.geom.banks, own->best.geom.width,
			 own->broadcast_known && !own->best.geom.broadcast ? "*" : "");
	else if (banked(inf))
		snprintf(c->text, sizeof c->text, "%u x %u B%s", inf->best.geom.banks,
			 inf->best.geom.width, inf->broadcast_known && !inf->best.geom.broadcast ? "*" : "");
	else
		text(c, inf->status == CB_NOT_BANKED ? "not banked" : "inconclusive");
}

/* CSV: one element size's own model of atomics (ARG: 10 * size index + 0 status, 1 banks,
 * 2 width, 3 broadcast, 4 confidence); empty where there is none. */
static void c_atomic_size(const entry *e, int arg, cell *c)
{
	int k = arg / 10, what = arg % 10;
	const cb_inference *s = e->r->has_by_size[CB_OP_ATOMIC][k] ? &e->r->by_size[CB_OP_ATOMIC][k] : NULL;
	if (what == 0) {
		text(c, s ? cb_status_name(s->status) : NULL);
		return;
	}
	if (what == 4) {
		number(c, s ? s->confidence : NAN, FIXED3);
		return;
	}
	double v = !banked(s) ? NAN : what == 1 ? s->best.geom.banks : what == 2 ?
		   s->best.geom.width : s->broadcast_known ? s->best.geom.broadcast : NAN;
	number(c, v, INT);
}

static void c_status(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	text(c, inf ? cb_status_name(inf->status) : NULL);
}

static void c_banks(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	number(c, banked(inf) ? inf->best.geom.banks : NAN, INT);
}

static void c_width(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	number(c, banked(inf) ? inf->best.geom.width : NAN, INT);
}

static void c_broadcast(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	number(c, banked(inf) && inf->broadcast_known ? inf->best.geom.broadcast : NAN, INT);
}

static void c_confidence(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	number(c, inf ? inf->confidence : NAN, FIXED3);
}

/* Text: "32/32/32/16/8" over the sizes measured ('?' when uncertain); CSV: one size (ARG is
 * the size index + 1, or 0 for the text form). */
static void c_lanes(const entry *e, int arg, cell *c)
{
	const cb_inference *inf = inf_of(e, CB_OP_LOAD);
	if (arg) {
		int k = arg - 1;
		number(c, banked(inf) && inf->elem_present[k] ? inf->best.lanes_per_pass[k] : NAN,
		       INT);
		return;
	}
	if (!banked(inf)) {
		text(c, "-");
		return;
	}
	size_t len = 0;
	c->text[0] = '\0';
	for (int k = 0; k < CB_NELEM && len < sizeof c->text; k++)
		if (inf->elem_present[k])
			len += (size_t)snprintf(c->text + len, sizeof c->text - len, "%s%u%s",
						len ? "/" : "", inf->best.lanes_per_pass[k],
						inf->lanes_certain[k] ? "" : "?");
}

static void c_cycles(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	number(c, banked(inf) ? inf->cost_per_pass_cycles : NAN, SIG2);
}

static void c_cost_ns(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	number(c, banked(inf) ? inf->cost_per_pass_ns : NAN, SIG4);
}

static void c_fit(const entry *e, int which, cell *c)
{
	const cb_inference *inf = inf_of(e, CB_OP_LOAD);
	double v = which == 0 ? (banked(inf) ? inf->best.rms : inf->flat.rms) :
		   which == 1 ? (banked(inf) && inf->quality.judged ? inf->quality.misfit : NAN) :
		   (inf->val_n ? inf->val_rms : NAN);
	number(c, v, SIG4);
}

static void c_stride(const entry *e, int stride, cell *c)
{
	number(c, cb_stride_ratio(e->r, CB_OP_LOAD, 4, (unsigned)stride), FIXED2);
}

static void c_pad(const entry *e, int arg, cell *c)
{
	(void)arg;
	number(c, NAN, INT);
	for (unsigned i = 0; i < e->r->npad; i++)
		if (e->r->pad[i].elem_bytes == 4 && e->r->pad[i].tile == 32 && e->r->pad[i].found)
			number(c, e->r->pad[i].pad, INT);
}

/* The transpose check's speed-up of padding (ARG 0) or the swizzle (1), float 32 x 32. */
static void c_transpose(const entry *e, int which, cell *c)
{
	cb_transpose_summary s[CB_MAX_TRANSPOSE];
	unsigned n = cb_transpose_summaries(e->r, s);
	number(c, NAN, FIXED2);
	for (unsigned i = 0; i < n; i++)
		if (s[i].elem_bytes == 4 && s[i].tile == 32)
			number(c, which ? s[i].speedup_swizzled : s[i].speedup_padded, FIXED2);
}

#define LOAD CB_OP_LOAD
#define STORE CB_OP_STORE
#define ATOMIC CB_OP_ATOMIC
static const column columns[] = {
	{ "file", NULL, 0, c_file, 0, false },
	{ "device", "device", -20, c_device, 0, false },
	{ "platform", NULL, 0, c_platform, 0, false },
	{ "regime", "regime", -10, c_regime, 0, false },
	{ "subgroup_size", "sg", 3, c_subgroup, 0, true },
	{ "status", NULL, 0, c_status, LOAD, false },
	{ NULL, "loads", -12, c_result, LOAD, false },
	{ "banks", NULL, 0, c_banks, LOAD, true },
	{ "bank_width_bytes", NULL, 0, c_width, LOAD, true },
	{ "broadcast", NULL, 0, c_broadcast, LOAD, true },
	{ "confidence", "conf", 5, c_confidence, LOAD, true },
	{ NULL, "lanes/pass", -14, c_lanes, 0, false },
	{ "lanes_per_pass_1B", NULL, 0, c_lanes, 1, true },
	{ "lanes_per_pass_2B", NULL, 0, c_lanes, 2, true },
	{ "lanes_per_pass_4B", NULL, 0, c_lanes, 3, true },
	{ "lanes_per_pass_8B", NULL, 0, c_lanes, 4, true },
	{ "lanes_per_pass_16B", NULL, 0, c_lanes, 5, true },
	{ "cost_per_pass_cycles", "cyc", 4, c_cycles, LOAD, true },
	{ "cost_per_pass_ns", NULL, 0, c_cost_ns, LOAD, true },
	{ "fit_rms_rel", NULL, 0, c_fit, 0, true },
	{ "fit_misfit", NULL, 0, c_fit, 1, true },
	{ "validation_rms_rel", NULL, 0, c_fit, 2, true },
	{ "stride2_4B_ratio", NULL, 0, c_stride, 2, true },
	{ "stride32_4B_ratio", NULL, 0, c_stride, 32, true },
	{ "pad_float32_elems", NULL, 0, c_pad, 0, true },
	{ "store_status", NULL, 0, c_status, STORE, false },
	{ NULL, "stores", -12, c_result, STORE, false },
	{ "store_banks", NULL, 0, c_banks, STORE, true },
	{ "store_bank_width_bytes", NULL, 0, c_width, STORE, true },
	{ "store_confidence", NULL, 0, c_confidence, STORE, true },
	{ "atomic_status", NULL, 0, c_status, ATOMIC, false },
	{ NULL, "atomics", -12, c_result, ATOMIC, false },
	{ "atomic_banks", NULL, 0, c_banks, ATOMIC, true },
	{ "atomic_bank_width_bytes", NULL, 0, c_width, ATOMIC, true },
	{ "atomic_broadcast", NULL, 0, c_broadcast, ATOMIC, true },
	{ "atomic_confidence", NULL, 0, c_confidence, ATOMIC, true },
	{ "atomic_4B_status", NULL, 0, c_atomic_size, 20, false },
	{ "atomic_4B_banks", NULL, 0, c_atomic_size, 21, true },
	{ "atomic_4B_bank_width_bytes", NULL, 0, c_atomic_size, 22, true },
	{ "atomic_4B_broadcast", NULL, 0, c_atomic_size, 23, true },
	{ "atomic_4B_confidence", NULL, 0, c_atomic_size, 24, true },
	{ "atomic_8B_status", NULL, 0, c_atomic_size, 30, false },
	{ "atomic_8B_banks", NULL, 0, c_atomic_size, 31, true },
	{ "atomic_8B_bank_width_bytes", NULL, 0, c_atomic_size, 32, true },
	{ "atomic_8B_broadcast", NULL, 0, c_atomic_size, 33, true },
	{ "atomic_8B_confidence", NULL, 0, c_atomic_size, 34, true },
	{ "transpose_speedup_padded", NULL, 0, c_transpose, 0, true },
	{ "transpose_speedup_swizzled", NULL, 0, c_transpose, 1, true },
};
#define NCOLUMNS (sizeof columns / sizeof *columns)

static void fill(const entry *e, const column *col, cell *c)
{
	c->num = NAN;
	c->text[0] = '\0';
	col->fn(e, col->arg, c);
}

void cb_compare_csv(FILE *out, const cb_result *const *rs, const char *const *files, int n)
{
	cb_csv_field(out, "format_version", false);
	for (size_t k = 0; k < NCOLUMNS; k++)
		if (columns[k].csv)
			cb_csv_field(out, columns[k].csv, k + 1 == NCOLUMNS);
	for (int i = 0; i < n; i++) {
		entry e = { files[i], rs[i] };
		cb_csv_field(out, "2", false);
		for (size_t k = 0; k < NCOLUMNS; k++) {
			if (!columns[k].csv)
				continue;
			cell c;
			fill(&e, &columns[k], &c);
			bool last = k + 1 == NCOLUMNS;
			if (columns[k].numeric)
				cb_csv_number(out, c.num, last);
			else
				cb_csv_text(out, strcmp(c.text, "-") ? c.text : "", last);
		}
	}
}

/* Stores and atomics columns only when some document has them. */
static bool shown(const column *col, const cb_result *const *rs, int n)
{
	if (!col->head)
		return false;
	if (col->fn != c_result || col->arg == CB_OP_LOAD)
		return true;
	for (int i = 0; i < n; i++)
		if (rs[i]->op_present[col->arg])
			return true;
	return false;
}

/* One padded cell: at most |width| characters, cut with "..." when longer. */
static void put_cell(FILE *out, const char *s, int width, bool last)
{
	char *e = cb_escape_controls(s);
	int w = width < 0 ? -width : width, len = (int)strlen(e);
	if (len > w)
		fprintf(out, "%.*s...", w - 3, e);
	else if (last && width < 0)
		fputs(e, out);
	else
		fprintf(out, "%*s", width, e);
	if (!last)
		fputc(' ', out);
	free(e);
}

void cb_compare_text(FILE *out, const cb_result *const *rs, const char *const *files, int n)
{
	size_t last = 0;
	for (size_t k = 0; k < NCOLUMNS; k++)
		if (shown(&columns[k], rs, n))
			last = k;
	for (size_t k = 0; k < NCOLUMNS; k++)
		if (shown(&columns[k], rs, n))
			put_cell(out, columns[k].head, columns[k].width, k == last);
	fputc('\n', out);
	for (int i = 0; i < n; i++) {
		entry e = { files[i], rs[i] };
		for (size_t k = 0; k < NCOLUMNS; k++) {
			if (!shown(&columns[k], rs, n))
				continue;
			cell c;
			fill(&e, &columns[k], &c);
			put_cell(out, c.text, columns[k].width, k == last);
		}
		fputc('\n', out);
	}
	fputs("\nsg: sub-group size; conf: confidence of the loads' model; lanes/pass: lanes served "
	      "together\nfor 1, 2, 4, 8, 16-byte loads (? uncertain); cyc: cycles per extra pass; "
	      "*: no broadcast\n(lanes on one word are served one by one); 4B 32 x 4 B: only that element "
	      "size has a model.\nEvery figure: clbanks compare --format csv.\n", out);
}
