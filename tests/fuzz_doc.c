/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the document codec and what reads a document: parse and validate, and
 * for valid documents write them back (the text must read again, unchanged; parsed whole, not a
 * piece at a time, they must read the same), predict's model
 * reader, the analysis, both reports, and plot's gnuplot program, which must not carry a byte
 * of the document outside its quoted data. Build and run (see tests/README.md):
 *   ./configure CC=clang --enable-fuzzing && make tests/fuzz_doc
 *   ./tests/fuzz_doc -max_total_time=600 -max_len=131072 tests/fuzz/corpus */
#include "config.h"
#include "core/analyze.h"
#include "core/util.h"
#include "doc/doc.h"
#include "views/plot.h"
#include "views/report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The script with every datablock's contents removed: what gnuplot reads as commands. */
static char *commands_only(const char *script)
{
	char *out = cb_xmalloc(strlen(script) + 1), *o = out;
	bool in_block = false;
	for (const char *p = script; *p;) {
		size_t w = strcspn(p, "\n");
		bool end = in_block && w == 3 && strncmp(p, "EOD", 3) == 0;
		if (!in_block || end) {
			memcpy(o, p, w);
			o += w;
			*o++ = '\n';
		}
		in_block = (in_block && !end) || (w > 6 && strncmp(p + w - 6, "<< EOD", 6) == 0);
		p += w + (p[w] == '\n');
	}
	*o = '\0';
	return out;
}

/* Plot twice, with the document's names and with neutral ones: the commands must agree. */
static void check_plot(cb_result *r)
{
	const cb_result *rs[1] = { r };
	const char *label[1] = { "doc.json" };
	char *a = NULL, *b = NULL;
	if (cb_plot_script(rs, label, 1, CB_PLOT_SVG, &a, NULL) != CB_OK)
		return;
	char *name = r->device.name, *regime = r->run.regime;
	r->device.name = name ? "X" : NULL;
	r->run.regime = regime ? "X" : NULL;
	if (cb_plot_script(rs, label, 1, CB_PLOT_SVG, &b, NULL) != CB_OK)
		abort();
	r->device.name = name;
	r->run.regime = regime;
	char *ca = commands_only(a), *cbm = commands_only(b);
	if (strcmp(ca, cbm) != 0)
		abort(); /* a byte of the document reached gnuplot as a command */
	free(ca);
	free(cbm);
	free(a);
	free(b);
}

/* The reader parses a document a piece at a time; parsed whole it must read the same. */
static void check_whole(const uint8_t *data, size_t size, cb_rc rc, const char *text)
{
	cb_result w;
	cb_error err;
	cb_rc wrc = cb_doc_parse((const char *)data, size, CB_DOC_WHOLE, &w, &err);
	if ((wrc == CB_OK) != (rc == CB_OK))
		abort(); /* one way reads what the other refuses */
	if (wrc != CB_OK)
		return;
	char *wt = cb_doc_write(&w);
	if (strcmp(wt, text) != 0)
		abort();
	free(wt);
	cb_result_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cb_result r;
	cb_error err;
	if (cb_doc_parse((const char *)data, size, 0, &r, &err) != CB_OK) {
		check_whole(data, size, CB_ERR_INPUT, NULL);
		return 0;
	}
	char *text = cb_doc_write(&r);
	check_whole(data, size, CB_OK, text);
	cb_result back;
	if (cb_doc_parse(text, strlen(text), 0, &back, &err) != CB_OK)
		abort(); /* what clbanks writes, it must read */
	char *again = cb_doc_write(&back);
	if (strcmp(text, again) != 0)
		abort();
	free(again);
	free(text);
	cb_result_free(&back);
	uint32_t lanes[64];
	for (unsigned l = 0; l < 64; l++)
		lanes[l] = l * 132;
	const cb_recorded_model *m = &r.recorded[CB_OP_LOAD];
	for (int e = 0; m->banked && e < CB_NELEM; e++)
		if (m->lanes_per_pass[e])
			(void)cb_passes(&m->geom, m->lanes_per_pass[e], cb_elems[e].bytes, lanes,
					64);
	if (cb_analyze(&r, &err) == CB_OK) {
		FILE *sink = fopen("/dev/null", "w");
		if (sink) {
			cb_report_text(sink, &r);
			cb_report_csv(sink, &r);
			fclose(sink);
		}
		check_plot(&r);
	}
	cb_result_free(&r);
	return 0;
}
