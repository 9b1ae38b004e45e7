/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/report_parts.h"
#include "core/advice.h"
#include "core/model.h"
#include "core/select.h"
#include "core/swizzle.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void stride_row(FILE *out, const cb_result *r, const cb_inference *inf, cb_op op,
		       unsigned stride)
{
	const unsigned S = r->device.subgroup_size;
	bool banked = inf->status == CB_BANKED;
	fprintf(out, "%8u", stride);
	for (int e = 0; e < CB_NELEM; e++) {
		if (!inf->elem_present[e])
			continue;
		unsigned E = cb_elems[e].bytes;
		double ratio = cb_stride_ratio(r, op, E, stride);
		if (isfinite(ratio))
			fprintf(out, " %8.2f", ratio);
		else
			fprintf(out, " %8s", "-");
		if (banked)
			fprintf(out, " %3u", cb_inference_stride_passes(inf, S, E, stride));
	}
	fputc('\n', out);
}

void cb_report_strides(FILE *out, const cb_result *r, cb_op op)
{
	static const unsigned strides[] = { 0, 1, 2, 3, 4, 8, 16, 17, 32, 33, 64, 128 };
	const cb_inference *inf = &r->inference[op];
	bool any = false, banked = inf->status == CB_BANKED;
	for (int e = 0; e < CB_NELEM && !any; e++)
		any = isfinite(cb_stride_ratio(r, op, cb_elems[e].bytes, 2));
	if (!any)
		return;
	fprintf(out,
		"\nStrides (%s): lane i accesses element i * stride; x: measured time against "
		"stride 1 of the same element size%s; -: not measured\n",
		cb_op_desc_of(op)->plural, banked ? "; p: the model's passes" : "");
	fprintf(out, "%8s", "stride");
	for (int e = 0; e < CB_NELEM; e++)
		if (inf->elem_present[e]) {
			char head[16];
			snprintf(head, sizeof head, "%u B x", cb_elems[e].bytes);
			fprintf(out, " %8s%s", head, banked ? "   p" : "");
		}
	fputc('\n', out);
	for (size_t k = 0; k < sizeof strides / sizeof *strides; k++) {
		bool row = false;
		for (int e = 0; e < CB_NELEM; e++)
			row |= isfinite(cb_stride_ratio(r, op, cb_elems[e].bytes, strides[k]));
		if (row)
			stride_row(out, r, inf, op, strides[k]);
	}
}

/* "measured 32.4x -> 1.00x", or "not measured". */
static void measured(char *buf, size_t n, double before, double after)
{
	if (isfinite(before) && isfinite(after))
		snprintf(buf, n, "measured %.2fx -> %.2fx", before, after);
	else if (isfinite(before))
		snprintf(buf, n, "measured %.2fx, the fix not measured", before);
	else
		snprintf(buf, n, "not measured");
}

static void padding_entry(FILE *out, const cb_pad_advice *a)
{
	char decl[64], meas[96];
	const char *T = cb_elem_c_type(a->elem_bytes);
	snprintf(decl, sizeof decl, "%s tile[%u][%u]", T, a->rows, a->tile);
	if (!a->found) {
		fprintf(out,
			"  %-24s %3u passes; no padding up to one bank period reaches the "
			"minimum, %u\n",
			decl, a->passes_unpadded, a->passes_ideal);
		return;
	}
	if (a->pad == 0) {
		measured(meas, sizeof meas, a->measured_unpadded, NAN);
		fprintf(out, "  %-24s %3u passes, the minimum: conflict-free as is (%s)\n", decl,
			a->passes_unpadded, meas);
		return;
	}
	snprintf(decl, sizeof decl, "%s tile[%u][%u+%u]", T, a->rows, a->tile, a->pad);
	measured(meas, sizeof meas, a->measured_unpadded, a->measured_padded);
	fprintf(out, "  %-24s %3u -> %u passes (the minimum), +%u B (%s)\n", decl,
		a->passes_unpadded, a->passes_padded, a->rows * a->pad * a->elem_bytes, meas);
}

static void swizzle_entry(FILE *out, const cb_swizzle_advice *a)
{
	char expr[64], meas[96];
	if (!a->found || a->passes_unswizzled <= a->passes_ideal)
		return; /* conflict-free as is: the padding line says so */
	cb_swizzle_expr("tile", a->bits, a->shift, expr, sizeof expr);
	measured(meas, sizeof meas, a->measured_unswizzled, a->measured_swizzled);
	fprintf(out, "  %-24s %3u -> %u passes (the minimum), no memory (%s)\n", expr,
		a->passes_unswizzled, a->passes_swizzled, meas);
}

/* "1.52x faster" or "1.15x slower": a ratio under 1 never reads as "faster". A variant timed
 * without the naive tile to compare with shows its own time (NS). */
static const char *speed_text(char *buf, size_t size, double speedup, double ns)
{
	if (!(speedup > 0) && ns > 0)
		snprintf(buf, size, "%.3g us (no speed-up: the naive variant is missing)",
			 ns / 1e3);
	else if (!(speedup > 0))
		snprintf(buf, size, "not timed");
	else if (speedup >= 1)
		snprintf(buf, size, "%.2fx faster", speedup);
	else
		snprintf(buf, size, "%.2fx slower", 1 / speedup);
	return buf;
}

static void transpose_lines(FILE *out, const cb_result *r)
{
	cb_transpose_summary s[CB_MAX_TRANSPOSE];
	unsigned n = cb_transpose_summaries(r, s);
	if (!n && r->run.check_skipped)
		fprintf(out, "\nTranspose check: skipped: %s\n", r->run.check_skipped);
	if (!n)
		return;
	fprintf(out,
		"\nTranspose check: cl/transpose.cl, time per launch (%lld x %lld matrix), "
		"against the naive tile\n",
		s[0].matrix, s[0].matrix);
	for (unsigned i = 0; i < n; i++) {
		const char *T = cb_elem_c_type(s[i].elem_bytes);
		char expr[64] = "?", padded[80], swizzled[80];
		if (s[i].bits != CB_UNSET && s[i].shift != CB_UNSET)
			cb_swizzle_expr("", (unsigned)s[i].bits, (unsigned)s[i].shift, expr,
					sizeof expr);
		char naive[32] = "not timed";
		if (s[i].naive_ns > 0)
			snprintf(naive, sizeof naive, "%.3g us", s[i].naive_ns / 1e3);
		fprintf(out, "  %s tile[%u][%u] %s; padded [%u][%lld]: %s; swizzled %s: %s%s\n", T,
			s[i].tile, s[i].tile, naive, s[i].tile,
			s[i].tile + (s[i].pad != CB_UNSET ? s[i].pad : 0),
			speed_text(padded, sizeof padded, s[i].speedup_padded, s[i].padded_ns),
			expr,
			speed_text(swizzled, sizeof swizzled, s[i].speedup_swizzled,
				   s[i].swizzled_ns),
			s[i].verified ? "" : " (a variant's result was wrong)");
	}
}

void cb_report_advice(FILE *out, const cb_result *r)
{
	if (r->npad) {
		fprintf(out,
			"\nPadding and swizzle: a column walk (lane i reads tile[i][c]) through a "
			"tile of W columns; measured: slowdown against stride 1\n");
		for (unsigned i = 0; i < r->npad; i++) {
			padding_entry(out, &r->pad[i]);
			for (unsigned k = 0; k < r->nswizzle; k++)
				if (r->swizzle[k].elem_bytes == r->pad[i].elem_bytes &&
				    r->swizzle[k].tile == r->pad[i].tile)
					swizzle_entry(out, &r->swizzle[k]);
		}
	}
	transpose_lines(out, r);
}
