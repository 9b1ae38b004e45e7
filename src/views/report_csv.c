/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/report.h"
#include "core/model.h"
#include "core/select.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cb_put_owned(FILE *out, char *s)
{
	if (s)
		fputs(s, out);
	free(s);
}

void cb_csv_text(FILE *out, const char *s, bool last)
{
	/* A cell that starts like a formula is run by spreadsheets: make it text. */
	char *end = NULL;
	if (s && s[0] && s[1] && strchr("=+-@", s[0]) && (strtod(s, &end), *end)) {
		size_t n = strlen(s);
		char *t = cb_xmalloc(n + 2);
		t[0] = '\'';
		memcpy(t + 1, s, n + 1);
		cb_csv_field(out, t, last);
		free(t);
		return;
	}
	cb_csv_field(out, s ? s : "", last);
}

void cb_csv_field(FILE *out, const char *s, bool last)
{
	char *e = cb_escape_controls(s);
	if (strpbrk(e, ",\"")) {
		fputc('"', out);
		for (const char *p = e; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	} else {
		fputs(e, out);
	}
	free(e);
	fputs(last ? "\r\n" : ",", out);
}

/* printf's %g is locale-dependent in principle; clbanks never calls setlocale, so the C locale
 * applies, and jansson formats JSON numbers the same way. */
void cb_csv_number(FILE *out, double v, bool last)
{
	char buf[64];
	if (isfinite(v))
		snprintf(buf, sizeof buf, "%.6g", v);
	else
		buf[0] = '\0';
	cb_csv_field(out, buf, last);
}

static int cmp_param(const void *a, const void *b)
{
	return strcmp(((const cb_param *)a)->name, ((const cb_param *)b)->name);
}

/* "key=value;..." with sorted keys: stable output. */
static void params_string(const cb_measurement *m, char *buf, size_t n)
{
	cb_param sorted[16];
	unsigned np = m->nparams < 16 ? m->nparams : 16;
	if (np) /* a measurement without params has none to copy (m->params is NULL) */
		memcpy(sorted, m->params, np * sizeof *sorted);
	qsort(sorted, np, sizeof *sorted, cmp_param);
	size_t len = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < np && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s=%lld", i ? ";" : "",
					sorted[i].name, sorted[i].value);
}

static void row(FILE *out, const cb_result *r, const cb_measurement *m, size_t i)
{
	char buf[256];
	const cb_inference *inf = &r->inference[m->op];
	cb_csv_field(out, "2", false);
	cb_csv_text(out, r->device.name, false);
	cb_csv_text(out, r->run.regime, false);
	snprintf(buf, sizeof buf, "%lld", m->id != CB_UNSET ? m->id : (long long)i);
	cb_csv_field(out, buf, false);
	cb_csv_text(out, m->kind, false);
	cb_csv_field(out, cb_op_name(m->op), false);
	snprintf(buf, sizeof buf, "%u", m->elem_bytes);
	cb_csv_field(out, buf, false);
	params_string(m, buf, sizeof buf);
	cb_csv_text(out, buf, false);
	cb_csv_number(out, m->ns_per_access, false);
	cb_csv_number(out, m->has_stats ? m->stats.median : NAN, false);
	cb_csv_number(out, m->has_stats ? m->stats.ci_lo : NAN, false);
	cb_csv_number(out, m->has_stats ? m->stats.ci_hi : NAN, false);
	cb_csv_number(out, m->has_stats ? (double)m->stats.rounds : NAN, false);
	cb_csv_field(out, cb_kind_is(m, "random") ? "1" : "0", false);
	int e = cb_elem_index(m->elem_bytes);
	if (r->analyzed && inf->status == CB_BANKED && inf->best.lanes_per_pass[e]) {
		cb_access_cost cost;
		cb_inference_price(inf, m->elem_bytes, m->lanes, r->device.subgroup_size, &cost);
		unsigned p = cost.passes;
		cb_csv_number(out, p, false);
		cb_csv_number(out, inf->best.t0[e] + inf->best.c[e] * p, false);
	} else {
		cb_csv_field(out, "", false);
		cb_csv_field(out, "", false);
	}
	cb_csv_field(out,
		     isfinite(m->ns_per_access) ? "ok"
		     : m->has_samples           ? "untimed"
						: "planned",
		     true);
}

void cb_report_csv(FILE *out, const cb_result *r)
{
	fputs("format_version,device,regime,id,kind,op,elem_bytes,params,ns_per_access,"
	      "ratio_median,ratio_ci_lo,ratio_ci_hi,rounds,holdout,model_passes,"
	      "model_ns_per_access,status\r\n",
	      out);
	for (size_t i = 0; i < r->nms; i++)
		row(out, r, &r->ms[i], i);
}
