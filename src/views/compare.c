/* SPDX-License-Identifier: MIT */
/* compare: one row per document. The text table keeps to 100 columns (names cut with an
 * ellipsis); the CSV has one numeric value per cell, its unit in the column's name. Both come
 * from one table of columns. */
#include "config.h"
#include "views/compare.h"
#include "core/analyze.h"
#include "views/report.h"
#include "core/advice.h"
#include "core/fleet.h"
#include "core/stats.h"
#include "core/model.h"
#include "core/util.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *file;
	const cb_result *r;
	/* Text rows: the group of identical devices the row stands for (NULL: R alone). */
	const cb_fleet_group *g;
	const cb_result *const *rs;
	const char *const *files;
	size_t row; /* text: the row's number, from 1 */
} entry;

/* A cell: TEXT for the text table and for the CSV's text columns, NUM for numeric ones (NAN:
 * empty). */
typedef struct {
	char text[1024]; /* a longer file name is cut at 1023 bytes */
	double num;
} cell;

typedef void (*cell_fn)(const entry *e, int arg, cell *c);

/* How a text column takes its width: as wide as its cells, or cut to what the line leaves
 * (with "..." at the end, or at the front for file names, whose end tells them apart). */
enum { FIXED, CUT_END, CUT_FRONT };

typedef struct {
	const char *csv;  /* CSV column (unit in the name) */
	const char *head; /* text column heading, NULL: CSV only */
	int align;        /* text: negative left-aligned, positive right-aligned */
	cell_fn fn;
	int arg;
	bool numeric; /* CSV: a number */
	int flex;     /* text: FIXED, CUT_END or CUT_FRONT */
	bool fleet;   /* text: only when some row stands for several devices */
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
	case INT:
		snprintf(c->text, sizeof c->text, "%.0f", v);
		break;
	case FIXED2:
		snprintf(c->text, sizeof c->text, "%.2f", v);
		break;
	case FIXED3:
		snprintf(c->text, sizeof c->text, "%.3f", v);
		break;
	case SIG2:
		snprintf(c->text, sizeof c->text, "%.2g", v);
		break;
	default:
		snprintf(c->text, sizeof c->text, "%.4g", v);
		break;
	}
}

static void c_file(const entry *e, int arg, cell *c)
{
	(void)arg;
	text(c, e->file);
}

/* The host a document records: its name when it has one, else its id; NULL when none. */
static const char *host_of(const cb_result *r)
{
	return r->run.host_name ? r->run.host_name : r->run.host_id;
}

/* CSV: the document's host. */
static void c_host(const entry *e, int arg, cell *c)
{
	(void)arg;
	text(c, host_of(e->r));
}

/* Text, rows in full: "host ID", "3 hosts" (a group's members on several), "host not
 * recorded" (documents before format 4, or --host none). */
static void group_hosts(const entry *e, char *buf, size_t size)
{
	size_t n = e->g ? e->g->n : 1, distinct = 0, recorded = 0;
	const char *first = NULL;
	for (size_t i = 0; i < n; i++) {
		const cb_result *r = e->g ? e->rs[e->g->members[i]] : e->r;
		const char *h = host_of(r);
		if (!h)
			continue;
		recorded++;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++) {
			const char *o = host_of(e->rs[e->g->members[j]]);
			seen = o && strcmp(o, h) == 0;
		}
		distinct += !seen;
		first = first ? first : h;
	}
	if (!recorded)
		snprintf(buf, size, "host not recorded");
	else if (distinct == 1)
		snprintf(buf, size, "host %s%s", first,
			 recorded < n ? " (not recorded by some)" : "");
	else
		snprintf(buf, size, "%zu hosts%s", distinct,
			 recorded < n ? " (not recorded by some)" : "");
}
/* Text, a table split to fit: the row's number in every part (and in "Rows in full"). */
static void c_row(const entry *e, int arg, cell *c)
{
	(void)arg;
	number(c, (double)e->row, INT);
}
static void c_device(const entry *e, int arg, cell *c)
{
	(void)arg;
	text(c, e->r->device.name);
}
static void c_platform(const entry *e, int arg, cell *c)
{
	(void)arg;
	text(c, e->r->device.platform);
}
/* A documented model has no run: "documented" (not measured) stands where its regime would. */
static void c_regime(const entry *e, int arg, cell *c)
{
	(void)arg;
	text(c, e->r->documented ? "documented" : e->r->run.regime);
}

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
			 inf->best.geom.width,
			 inf->broadcast_known && !inf->best.geom.broadcast ? "*" : "");
	else
		text(c, inf->status == CB_NOT_BANKED ? "not banked" : "inconclusive");
}

/* CSV: one element size's own model of atomics (ARG: 10 * size index + 0 status, 1 banks,
 * 2 width, 3 broadcast, 4 confidence); empty where there is none. */
static void c_atomic_size(const entry *e, int arg, cell *c)
{
	int k = arg / 10, what = arg % 10;
	const cb_inference *s = e->r->has_by_size[CB_OP_ATOMIC][k] ? &e->r->by_size[CB_OP_ATOMIC][k]
								   : NULL;
	if (what == 0) {
		text(c, s ? cb_status_name(s->status) : NULL);
		return;
	}
	if (what == 4) {
		number(c, s ? s->confidence : NAN, FIXED3);
		return;
	}
	double v = !banked(s)           ? NAN
		   : what == 1          ? s->best.geom.banks
		   : what == 2          ? s->best.geom.width
		   : s->broadcast_known ? s->best.geom.broadcast
					: NAN;
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

/* A group's row: the lowest confidence of its members. */
static void c_confidence(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	double v = inf ? inf->confidence : NAN;
	for (size_t i = 1; e->g && inf && i < e->g->n; i++)
		v = fmin(v, e->rs[e->g->members[i]]->inference[op].confidence);
	number(c, v, FIXED3);
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

/* A group's row: the median of its members. */
static void c_cycles(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	if (!banked(inf) || !e->g || e->g->n < 2) {
		number(c, banked(inf) ? inf->pass_cycles : NAN, SIG2);
		return;
	}
	double *v = cb_xcalloc(e->g->n, sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < e->g->n; i++) {
		double x = e->rs[e->g->members[i]]->inference[op].pass_cycles;
		if (isfinite(x))
			v[k++] = x;
	}
	number(c, k ? cb_median(v, k) : NAN, SIG2);
	free(v);
}

/* Text, fleets: how many identical devices the row stands for. */
static void c_count(const entry *e, int arg, cell *c)
{
	(void)arg;
	number(c, e->g ? (double)e->g->n : 1, INT);
}

/* Text, fleets: the median of a group's figure (ARG: CB_FLEET_COST or _THROUGHPUT) and its
 * robust spread, "1.012 +-0.3%". */
static void c_figure(const entry *e, int k, cell *c)
{
	double med = e->g ? e->g->median[k] : cb_fleet_figure(e->r, k);
	double spread = e->g && e->g->n > 1 ? e->g->spread[k] : NAN;
	number(c, med, k == CB_FLEET_COST ? SIG4 : INT);
	if (isfinite(med) && isfinite(spread))
		snprintf(c->text + strlen(c->text), sizeof c->text - strlen(c->text), " +-%.1f%%",
			 100 * spread);
}

/* Text: the row's documents; a group's as one pattern with '*' where their names differ
 * (runs/NODE/nvidia-h200.json: "runs" "/" "*" "/nvidia-h200.json"), or the first and how many
 * more. */
static void c_files(const entry *e, int arg, cell *c)
{
	(void)arg;
	if (!e->g || e->g->n < 2) {
		text(c, e->file);
		return;
	}
	const char *first = e->files[e->g->members[0]];
	size_t pre = strlen(first), suf = pre, shortest = pre;
	for (size_t i = 1; i < e->g->n; i++) {
		const char *f = e->files[e->g->members[i]];
		size_t len = strlen(f), p = 0, q = 0;
		while (p < pre && p < len && f[p] == first[p])
			p++;
		while (q < suf && q < len && f[len - 1 - q] == first[strlen(first) - 1 - q])
			q++;
		pre = p;
		suf = q;
		shortest = len < shortest ? len : shortest;
	}
	if (pre + suf > shortest)
		suf = shortest - pre;
	/* '*' between characters, never inside one (UTF-8 continuation bytes are 10xxxxxx). */
	const char *end = first + strlen(first);
	while (pre > 0 && ((unsigned char)first[pre] & 0xc0) == 0x80)
		pre--;
	while (suf > 0 && ((unsigned char)end[-(ptrdiff_t)suf] & 0xc0) == 0x80)
		suf--;
	if (pre + suf == 0)
		snprintf(c->text, sizeof c->text, "%s (+%zu)", first, e->g->n - 1);
	else
		snprintf(c->text, sizeof c->text, "%.*s*%s", (int)pre, first, end - suf);
}

static void c_cost_ns(const entry *e, int op, cell *c)
{
	const cb_inference *inf = inf_of(e, op);
	number(c, banked(inf) ? inf->pass_ns_per_subgroup : NAN, SIG4);
}

/* CSV: the conflict-free bandwidth of 4-byte loads (ARG 0) and banks x width x clock x units
 * (1), in GB/s. */
static void c_bandwidth(const entry *e, int which, cell *c)
{
	const cb_inference *inf = inf_of(e, CB_OP_LOAD);
	int k = cb_elem_index(4);
	number(c,
	       which                  ? cb_bandwidth_limit_gbs(e->r, inf)
	       : inf->elem_present[k] ? cb_conflict_free_gbs(e->r, CB_OP_LOAD, k)
				      : NAN,
	       INT);
}

static void c_fit(const entry *e, int which, cell *c)
{
	const cb_inference *inf = inf_of(e, CB_OP_LOAD);
	double v = which == 0   ? (banked(inf) ? inf->best.rms : inf->flat.rms)
		   : which == 1 ? (banked(inf) && inf->quality.judged ? inf->quality.misfit : NAN)
				: (inf->val_n ? inf->val_rms : NAN);
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
	{ "file", NULL, 0, c_file, 0, false, FIXED, false },
	{ NULL, "#", 1, c_row, 0, false, FIXED, false },
	{ "device", "device", -20, c_device, 0, false, CUT_END, false },
	{ "platform", NULL, 0, c_platform, 0, false, FIXED, false },
	{ NULL, "n", 1, c_count, 0, false, FIXED, true },
	{ "regime", "regime", -10, c_regime, 0, false, FIXED, false },
	{ "subgroup_size", "sg", 3, c_subgroup, 0, true, FIXED, false },
	{ "status", NULL, 0, c_status, LOAD, false, FIXED, false },
	{ NULL, "loads", -12, c_result, LOAD, false, FIXED, false },
	{ "banks", NULL, 0, c_banks, LOAD, true, FIXED, false },
	{ "bank_width_bytes", NULL, 0, c_width, LOAD, true, FIXED, false },
	{ "broadcast", NULL, 0, c_broadcast, LOAD, true, FIXED, false },
	{ "confidence", "conf", 5, c_confidence, LOAD, true, FIXED, false },
	{ NULL, "lanes/pass", -14, c_lanes, 0, false, FIXED, false },
	{ "lanes_per_pass_1B", NULL, 0, c_lanes, 1, true, FIXED, false },
	{ "lanes_per_pass_2B", NULL, 0, c_lanes, 2, true, FIXED, false },
	{ "lanes_per_pass_4B", NULL, 0, c_lanes, 3, true, FIXED, false },
	{ "lanes_per_pass_8B", NULL, 0, c_lanes, 4, true, FIXED, false },
	{ "lanes_per_pass_16B", NULL, 0, c_lanes, 5, true, FIXED, false },
	{ "pass_cycles", "cyc", 4, c_cycles, LOAD, true, FIXED, false },
	{ NULL, "ns/pass", 1, c_figure, CB_FLEET_COST, false, FIXED, true },
	{ NULL, "GB/s", 1, c_figure, CB_FLEET_THROUGHPUT, false, FIXED, true },
	{ "pass_ns_per_subgroup", NULL, 0, c_cost_ns, LOAD, true, FIXED, false },
	{ "bandwidth_4B_gbs", NULL, 0, c_bandwidth, 0, true, FIXED, false },
	{ "bandwidth_limit_gbs", NULL, 0, c_bandwidth, 1, true, FIXED, false },
	{ "fit_rms_rel", NULL, 0, c_fit, 0, true, FIXED, false },
	{ "fit_misfit", NULL, 0, c_fit, 1, true, FIXED, false },
	{ "validation_rms_rel", NULL, 0, c_fit, 2, true, FIXED, false },
	{ "stride2_4B_ratio", NULL, 0, c_stride, 2, true, FIXED, false },
	{ "stride32_4B_ratio", NULL, 0, c_stride, 32, true, FIXED, false },
	{ "pad_float32_elems", NULL, 0, c_pad, 0, true, FIXED, false },
	{ "store_status", NULL, 0, c_status, STORE, false, FIXED, false },
	{ NULL, "stores", -12, c_result, STORE, false, FIXED, false },
	{ "store_banks", NULL, 0, c_banks, STORE, true, FIXED, false },
	{ "store_bank_width_bytes", NULL, 0, c_width, STORE, true, FIXED, false },
	{ "store_confidence", NULL, 0, c_confidence, STORE, true, FIXED, false },
	{ "atomic_status", NULL, 0, c_status, ATOMIC, false, FIXED, false },
	{ NULL, "atomics", -12, c_result, ATOMIC, false, FIXED, false },
	{ "atomic_banks", NULL, 0, c_banks, ATOMIC, true, FIXED, false },
	{ "atomic_bank_width_bytes", NULL, 0, c_width, ATOMIC, true, FIXED, false },
	{ "atomic_broadcast", NULL, 0, c_broadcast, ATOMIC, true, FIXED, false },
	{ "atomic_confidence", NULL, 0, c_confidence, ATOMIC, true, FIXED, false },
	{ "atomic_4B_status", NULL, 0, c_atomic_size, 20, false, FIXED, false },
	{ "atomic_4B_banks", NULL, 0, c_atomic_size, 21, true, FIXED, false },
	{ "atomic_4B_bank_width_bytes", NULL, 0, c_atomic_size, 22, true, FIXED, false },
	{ "atomic_4B_broadcast", NULL, 0, c_atomic_size, 23, true, FIXED, false },
	{ "atomic_4B_confidence", NULL, 0, c_atomic_size, 24, true, FIXED, false },
	{ "atomic_8B_status", NULL, 0, c_atomic_size, 30, false, FIXED, false },
	{ "atomic_8B_banks", NULL, 0, c_atomic_size, 31, true, FIXED, false },
	{ "atomic_8B_bank_width_bytes", NULL, 0, c_atomic_size, 32, true, FIXED, false },
	{ "atomic_8B_broadcast", NULL, 0, c_atomic_size, 33, true, FIXED, false },
	{ "atomic_8B_confidence", NULL, 0, c_atomic_size, 34, true, FIXED, false },
	{ "transpose_speedup_padded", NULL, 0, c_transpose, 0, true, FIXED, false },
	{ "transpose_speedup_swizzled", NULL, 0, c_transpose, 1, true, FIXED, false },
	{ "host", NULL, 0, c_host, 0, false, FIXED, false },
	{ NULL, "file", -1, c_files, 0, false, CUT_FRONT, false },
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
	size_t lastcsv = 0;
	for (size_t k = 0; k < NCOLUMNS; k++)
		if (columns[k].csv)
			lastcsv = k;
	cb_csv_field(out, "format_version", false);
	for (size_t k = 0; k < NCOLUMNS; k++)
		if (columns[k].csv)
			cb_csv_field(out, columns[k].csv, k == lastcsv);
	for (int i = 0; i < n; i++) {
		entry e = { files[i], rs[i], NULL, rs, files, (size_t)i + 1 };
		cb_csv_field(out, "3", false);
		for (size_t k = 0; k < NCOLUMNS; k++) {
			if (!columns[k].csv)
				continue;
			cell c;
			fill(&e, &columns[k], &c);
			bool last = k == lastcsv;
			if (columns[k].numeric)
				cb_csv_number(out, c.num, last);
			else
				cb_csv_text(out, strcmp(c.text, "-") ? c.text : "", last);
		}
	}
}

/* Stores and atomics columns only when some document has them; the fleet's only when some
 * row stands for several devices. */
static bool shown(const column *col, const cb_result *const *rs, int n, bool fleet)
{
	if (!col->head || (col->fleet && !fleet))
		return false;
	if (col->fn != c_result || col->arg == CB_OP_LOAD)
		return true;
	for (int i = 0; i < n; i++)
		if (rs[i]->op_present[col->arg])
			return true;
	return false;
}

/* One cell in W characters: cut with "..." (at the end or the front) when longer, padded
 * (left- or right-aligned) when shorter; the last one of a line is not padded on the right. */
static void put_cell(FILE *out, const char *s, size_t w, const column *col, bool last)
{
	size_t len = cb_utf8_len(s);
	if (len > w && w > 3) {
		if (col->flex == CUT_FRONT)
			fprintf(out, "...%s", s + strlen(s) - cb_utf8_tail_bytes(s, w - 3));
		else
			fprintf(out, "%.*s...", (int)cb_utf8_bytes(s, w - 3), s);
		len = w;
	} else if (len > w) {
		fprintf(out, "%.*s", (int)cb_utf8_bytes(s, w), s);
		len = w;
	} else if (col->align > 0) {
		fprintf(out, "%*s%s", (int)(w - len), "", s);
		len = w;
	} else {
		fputs(s, out);
	}
	if (!last)
		fprintf(out, "%*s", (int)(w - len + 1), "");
}

/* The columns' widths: each as wide as its cells, then the cuttable ones narrowed, the widest
 * first and none below 12 characters, until the line fits the text width. */
static void fit_widths(const size_t *col, size_t nc, size_t *w)
{
	size_t total = nc ? nc - 1 : 0;
	for (size_t k = 0; k < nc; k++)
		total += w[k];
	while (total > cb_text_width()) {
		size_t best = nc;
		for (size_t k = 0; k < nc; k++)
			if (columns[col[k]].flex != FIXED && w[k] > 12 &&
			    (best == nc || w[k] > w[best]))
				best = k;
		if (best == nc)
			break;
		w[best]--;
		total--;
	}
}

/* The devices more than the noise away from their identical siblings, one line each. */
static void outlier_lines(FILE *out, const cb_fleet *f, const cb_result *const *rs,
			  const char *const *files)
{
	if (!f->noutliers)
		return;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	static const char *const what[] = { "cost per pass", "conflict-free bandwidth" };
	static const char *const unit[] = { "ns per sub-group", "GB/s" };
	fprintf(m,
		"\nOutliers: devices further from their identical siblings' median than the noise "
		"allows:\n");
	for (size_t i = 0; i < f->noutliers;) {
		const cb_fleet_outlier *o = &f->outliers[i];
		char *file = cb_escape_controls(files[o->doc]);
		char *name = cb_escape_controls(rs[o->doc]->device.name ? rs[o->doc]->device.name
									: "-");
		const char *h = host_of(rs[o->doc]);
		char *host = h ? cb_escape_controls(h) : NULL;
		fprintf(m, "  %s (%s%s%s):", file, name, host ? ", host " : "", host ? host : "");
		free(host);
		free(file);
		free(name);
		for (bool first = true; i < f->noutliers && f->outliers[i].doc == o->doc; i++) {
			const cb_fleet_outlier *x = &f->outliers[i];
			/* ns to 4 digits, GB/s whole */
			bool ns = x->metric == CB_FLEET_COST;
			char value[32], median[32];
			snprintf(value, sizeof value, ns ? "%.4g" : "%.0f", x->value);
			snprintf(median, sizeof median, ns ? "%.4g" : "%.0f", x->median);
			fprintf(m,
				"%s %s %s %s, %+.1f%% from the median %s of %zu (allowed +-%.1f%%)",
				first ? "" : ";", what[x->metric], value, unit[x->metric],
				100 * x->deviation, median, f->groups[x->group].n,
				100 * x->allowed);
			first = false;
		}
		fputc('\n', m);
	}
	fclose(m);
	cb_text_fill(out, text);
	free(text);
}

static void legend(FILE *out, bool fleet, bool split)
{
	char text[1600];
	snprintf(
		text, sizeof text,
		"\n%s%s"
		"sg: sub-group size; conf: confidence of the loads' model; lanes/pass: lanes served "
		"together for 1, 2, 4, 8, 16-byte loads (? uncertain); cyc: cycles per extra pass "
		"of one sub-group; "
		"*: no broadcast (lanes on one word are served one by one); 4B 32 x 4 B: only that "
		"element size has a model.%s\nEvery figure: clbanks compare --format csv.\n",
		split ? "#: the row, in each part of the table (split to fit the width) and in the "
			"rows in full. "
		      : "",
		fleet ? "One row per group of identical devices (name, driver, regime, sub-group and "
			"every op's model): n of them, files '*' where their names differ.\n"
		      : "",
		fleet ? " A group's conf is its lowest, cyc its median; ns/pass: the median cost of "
			"an extra pass in ns per sub-group, GB/s: conflict-free bandwidth of 4-byte loads, "
			"each +- its robust spread (1.4826 x MAD / median)."
		      : "");
	cb_text_fill(out, text);
}

/* Rows told apart, their names whole: when a device name is on several rows, or a name or file
 * was cut to fit, each row's device, driver, regime and files in full, one per line. */
static void rows_in_full(FILE *out, const cb_fleet *f, const cb_result *const *rs,
			 const char *const *files, bool cut)
{
	bool repeated = false;
	for (size_t g = 0; g < f->ngroups && !repeated; g++)
		for (size_t h = g + 1; h < f->ngroups && !repeated; h++) {
			const char *a = rs[f->groups[g].members[0]]->device.name;
			const char *b = rs[f->groups[h].members[0]]->device.name;
			repeated = a && b && strcmp(a, b) == 0;
		}
	if (!repeated && !cut)
		return;
	fprintf(out, "\nRows in full (device, driver, regime, host: files):\n");
	for (size_t g = 0; g < f->ngroups; g++) {
		const cb_result *r = rs[f->groups[g].members[0]];
		entry e = { files[f->groups[g].members[0]], r, &f->groups[g], rs, files, g + 1 };
		cell c;
		c_files(&e, 0, &c);
		char *name = cb_escape_controls(r->device.name ? r->device.name : "-");
		char *drv = cb_escape_controls(r->device.driver_version ? r->device.driver_version
									: "-");
		char *regime = cb_escape_controls(r->run.regime ? r->run.regime : "-");
		char *fs = cb_escape_controls(c.text), hosts[300];
		group_hosts(&e, hosts, sizeof hosts);
		char *hs = cb_escape_controls(hosts);
		size_t len = strlen(name) + strlen(drv) + strlen(regime) + strlen(fs) + strlen(hs) +
			     64;
		char *text = cb_xmalloc(len);
		snprintf(text, len, "  %zu. %s, driver %s, %s, %s: %s\n", g + 1, name, drv, regime,
			 hs, fs);
		free(hs);
		cb_text_fill(out, text);
		free(text);
		free(name);
		free(drv);
		free(regime);
		free(fs);
	}
}

/* Row R's cells (row 0: the headings) of the NC columns COL, escaped, into CELLS. */
static void row_cells(const entry *e, const size_t *col, size_t nc, char **cells, size_t *w)
{
	for (size_t k = 0; k < nc; k++) {
		cell c;
		if (e)
			fill(e, &columns[col[k]], &c);
		cells[k] = cb_escape_controls(e ? c.text : columns[col[k]].head);
		size_t len = cb_utf8_len(cells[k]);
		w[k] = len > w[k] ? len : w[k];
	}
}

/* The narrowest column K of COL can be: a cuttable one 12 characters (or its cells'), any
 * other as wide as its cells. */
static size_t least(const size_t *col, const size_t *w, size_t k)
{
	return columns[col[k]].flex != FIXED && w[k] > 12 ? 12 : w[k];
}

/* One part of the table: the columns at positions POS[0..NP-1] of the NC shown (COL, their
 * cells CELLS of NROWS rows, natural widths W), fitted to the width; *CUT when a cell was cut. */
static void put_part(FILE *out, char **cells, size_t nrows, size_t nc, const size_t *col,
		     const size_t *w, const size_t *pos, size_t np, bool *cut)
{
	size_t pc[NCOLUMNS], pw[NCOLUMNS];
	for (size_t i = 0; i < np; i++) {
		pc[i] = col[pos[i]];
		pw[i] = w[pos[i]];
	}
	fit_widths(pc, np, pw);
	for (size_t r = 0; r < nrows; r++) {
		for (size_t i = 0; i < np; i++) {
			const char *s = cells[r * nc + pos[i]];
			*cut |= r > 0 && cb_utf8_len(s) > pw[i];
			put_cell(out, s, pw[i], &columns[pc[i]], i + 1 == np);
		}
		fputc('\n', out);
	}
}

/* The table in one part when its columns fit the width (cuttable ones down to 12 characters);
 * else in parts, each as many columns as fit after the row's number and the device, which
 * every part repeats. *SPLIT when it took several. */
static void put_table(FILE *out, char **cells, size_t nrows, size_t nc, const size_t *col,
		      const size_t *w, bool *cut, bool *split)
{
	size_t width = cb_text_width(), need = nc - 2, pos[NCOLUMNS], np = 0;
	for (size_t k = 1; k < nc; k++) /* position 0 is the row's number */
		need += least(col, w, k);
	*split = need > width;
	if (!*split) {
		for (size_t k = 1; k < nc; k++)
			pos[np++] = k;
		put_part(out, cells, nrows, nc, col, w, pos, np, cut);
		return;
	}
	for (size_t k = 2; k < nc;) {
		np = 0;
		pos[np++] = 0;
		pos[np++] = 1;
		size_t used = least(col, w, 0) + 1 + least(col, w, 1);
		do {
			used += 1 + least(col, w, k);
			pos[np++] = k++;
		} while (k < nc && used + 1 + least(col, w, k) <= width);
		if (pos[2] > 2)
			fputc('\n', out);
		put_part(out, cells, nrows, nc, col, w, pos, np, cut);
	}
}

void cb_compare_text(FILE *out, const cb_result *const *rs, const char *const *files, int n)
{
	cb_fleet f;
	cb_fleet_build(rs, (size_t)n, &f);
	bool fleet = false;
	for (size_t g = 0; g < f.ngroups; g++)
		fleet |= f.groups[g].n > 1;
	size_t col[NCOLUMNS], nc = 0, w[NCOLUMNS] = { 0 };
	for (size_t k = 0; k < NCOLUMNS; k++)
		if (shown(&columns[k], rs, n, fleet))
			col[nc++] = k;
	size_t nrows = f.ngroups + 1;
	char **cells = cb_xcalloc(nrows * nc + 1, sizeof *cells);
	row_cells(NULL, col, nc, cells, w);
	for (size_t g = 0; g < f.ngroups; g++) {
		size_t first = f.groups[g].members[0];
		entry e = { files[first], rs[first], &f.groups[g], rs, files, g + 1 };
		row_cells(&e, col, nc, cells + (g + 1) * nc, w);
	}
	bool cut = false, split = false;
	put_table(out, cells, nrows, nc, col, w, &cut, &split);
	for (size_t i = 0; i < nrows * nc; i++)
		free(cells[i]);
	free(cells);
	rows_in_full(out, &f, rs, files, cut);
	outlier_lines(out, &f, rs, files);
	legend(out, fleet, split);
	cb_fleet_free(&f);
}

/* compare --baseline: who the two documents are (device, driver, regime, file), every quantity
 * of the model of each op with "changed" where it did, and the verdict of the gate. */
static void baseline_who(FILE *out, const char *label, const cb_result *r, const char *file)
{
	char *f = cb_escape_controls(file),
	     *name = cb_escape_controls(r->device.name ? r->device.name : "-");
	char *drv = cb_escape_controls(r->device.driver_version ? r->device.driver_version : "-");
	fprintf(out, "%-9s %s\n          %s, driver %s, %s regime\n", label, f, name, drv,
		r->run.regime ? r->run.regime : "unknown");
	free(f);
	free(name);
	free(drv);
}

void cb_compare_baseline_text(FILE *out, const cb_result *old, const cb_result *new,
			      const char *const files[2], const cb_baseline_diff *d, size_t n,
			      size_t changed)
{
	baseline_who(out, "Baseline:", old, files[0]);
	baseline_who(out, "New:", new, files[1]);
	fprintf(out, "\n%-36s %-13s %-13s %s\n", "quantity", "baseline", "new", "change");
	for (size_t i = 0; i < n; i++) {
		char note[128];
		snprintf(note, sizeof note, "%s%s%s", d[i].changed ? "CHANGED" : "same",
			 d[i].note[0] ? ": " : "", d[i].note);
		fprintf(out, "%-36s %-13s %-13s %s\n", d[i].what, d[i].old_text, d[i].new_text,
			note);
	}
	if (changed)
		fprintf(out, "\nResult: %zu of %zu quantities changed (exit status 5)\n", changed,
			n);
	else
		fprintf(out,
			"\nResult: the same model and cost as the baseline, %zu quantities (exit "
			"status 0)\n",
			n);
}
