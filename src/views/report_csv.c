/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/report.h"
#include "doc/doc.h"
#include "core/model.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cb_csv_field(FILE *out, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputs(last ? "\r\n" : ",", out);
}

/* printf's %g is locale-dependent in principle; clbanks never calls setlocale, so the C locale
 * applies, and jansson formats JSON numbers the same way. */
static void num_field(FILE *out, double v, bool last)
{
	char buf[64];
	if (isfinite(v))
		snprintf(buf, sizeof buf, "%.6g", v);
	else
		buf[0] = '\0';
	cb_csv_field(out, buf, last);
}

static void params_string(json_t *params, char *buf, size_t n)
{
	buf[0] = '\0';
	const char *k;
	json_t *v;
	size_t len = 0;
	/* Sorted keys: stable output. */
	const char *keys[16];
	size_t nk = 0;
	json_object_foreach(params, k, v)
		if (nk < 16)
			keys[nk++] = k;
	for (size_t i = 1; i < nk; i++)
		for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
			const char *t = keys[j];
			keys[j] = keys[j - 1];
			keys[j - 1] = t;
		}
	for (size_t i = 0; i < nk && len < n; i++) {
		v = json_object_get(params, keys[i]);
		if (json_is_integer(v))
			len += (size_t)snprintf(buf + len, n - len, "%s%s=%" JSON_INTEGER_FORMAT,
						i ? ";" : "", keys[i], json_integer_value(v));
	}
}

void cb_report_csv(FILE *out, json_t *doc, const cb_inference *inf, unsigned subgroup)
{
	json_t *dev = json_object_get(doc, "device");
	const char *dname = json_string_value(json_object_get(dev, "name"));
	const char *regime = json_string_value(json_object_get(json_object_get(doc, "run"), "regime"));
	fputs("format_version,device,regime,id,kind,op,elem_bytes,params,ns_per_access,"
	      "ratio_median,ratio_ci_lo,ratio_ci_hi,rounds,holdout,model_passes,model_ns,status\r\n", out);
	json_t *ms = json_object_get(doc, "measurements"), *m;
	size_t i;
	uint32_t *lanes = cb_xmalloc(subgroup * sizeof *lanes);
	json_array_foreach(ms, i, m) {
		char buf[256];
		unsigned E = (unsigned)json_integer_value(json_object_get(m, "elem_bytes"));
		const char *kind = json_string_value(json_object_get(m, "kind"));
		json_t *st = json_object_get(m, "stats");
		json_t *ci = st ? json_object_get(st, "ratio_ci95") : NULL;
		json_t *t = json_object_get(m, "ns_per_access");
		json_t *la = json_object_get(m, "lanes");
		for (unsigned l = 0; l < subgroup; l++)
			lanes[l] = (uint32_t)json_integer_value(json_array_get(la, l));
		snprintf(buf, sizeof buf, "%d", CB_FORMAT_VERSION);
		cb_csv_field(out, buf, false);
		cb_csv_field(out, dname ? dname : "", false);
		cb_csv_field(out, regime ? regime : "", false);
		json_t *id = json_object_get(m, "id");
		snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_is_integer(id) ? json_integer_value(id)
										: (json_int_t)i);
		cb_csv_field(out, buf, false);
		cb_csv_field(out, kind ? kind : "", false);
		cb_csv_field(out, "load", false);
		snprintf(buf, sizeof buf, "%u", E);
		cb_csv_field(out, buf, false);
		params_string(json_object_get(m, "params"), buf, sizeof buf);
		cb_csv_field(out, buf, false);
		num_field(out, t ? json_number_value(t) : NAN, false);
		num_field(out, st ? json_number_value(json_object_get(st, "ratio_median")) : NAN, false);
		num_field(out, ci ? json_number_value(json_array_get(ci, 0)) : NAN, false);
		num_field(out, ci ? json_number_value(json_array_get(ci, 1)) : NAN, false);
		num_field(out, st ? (double)json_integer_value(json_object_get(st, "rounds")) : NAN, false);
		cb_csv_field(out, kind && strcmp(kind, "random") == 0 ? "1" : "0", false);
		int e = cb_elem_index(E);
		if (inf && inf->status == CB_BANKED && e >= 0 && inf->best.lanes_per_pass[e]) {
			unsigned p = cb_passes(&inf->best.geom, inf->best.lanes_per_pass[e], E, lanes, subgroup);
			num_field(out, p, false);
			num_field(out, inf->best.t0[e] + inf->best.c[e] * p, false);
		} else {
			cb_csv_field(out, "", false);
			cb_csv_field(out, "", false);
		}
		cb_csv_field(out, t ? "ok" : "planned", true);
	}
	free(lanes);
}
