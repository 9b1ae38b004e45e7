/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/agree.h"
#include "core/agree.h"
#include "core/util.h"
#include "views/report.h"

#include <stdlib.h>

static const char *const verdicts[] = { "agree", "differ", "not compared" };

static void fact_line(FILE *out, const cb_agree_fact *f)
{
	fprintf(out, "    %-12s %-6s %-30s", verdicts[f->verdict],
		f->device ? "" : cb_op_name(f->op), f->fact);
	if (f->verdict == CB_NOT_COMPARED) {
		char *note = cb_escape_controls(f->note);
		fprintf(out, " %s\n", note);
		free(note);
		return;
	}
	fprintf(out, " measured %s, documented %s", f->measured, f->documented);
	if (f->doc && f->doc->basis)
		fprintf(out, " (%s)", f->doc->basis);
	fputc('\n', out);
}

static void pair(FILE *out, const cb_result *m, const char *mfile, const cb_result *d,
		 const char *dfile)
{
	cb_agreement a;
	char label[512];
	cb_agreement_of(m, d, &a);
	char *mf = cb_escape_controls(mfile), *df = cb_escape_controls(dfile);
	char *mn = cb_escape_controls(m->device.name ? m->device.name : "-");
	char *dn = cb_escape_controls(cb_model_label(d, label, sizeof label));
	char text[2400];
	/* The names are filled to the width; the counts get a line of their own, wherever the
	 * names' lengths put the breaks. */
	snprintf(text, sizeof text, "\n%s (%s) against %s, %s:\n", mf, mn, df, dn);
	cb_text_fill(out, text);
	fprintf(out, "  agree on %zu fact%s, differ on %zu, %zu not compared\n", a.agree,
		a.agree == 1 ? "" : "s", a.differ, a.n - a.agree - a.differ);
	free(mf);
	free(df);
	free(mn);
	free(dn);
	for (size_t i = 0; i < a.n; i++)
		fact_line(out, &a.facts[i]);
}

void cb_agreement_text(FILE *out, const cb_result *const *rs, const char *const *files, int n)
{
	bool heading = false;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n && !rs[i]->documented; j++) {
			if (!rs[j]->documented)
				continue;
			if (!heading)
				cb_text_fill(
					out,
					"\nMeasured against documented (the vendor's "
					"documentation, not measured; the basis of each documented "
					"fact in brackets):\n");
			heading = true;
			pair(out, rs[i], files[i], rs[j], files[j]);
		}
	}
}
