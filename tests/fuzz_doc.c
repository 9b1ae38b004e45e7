/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the document reader: parse, validate, and for valid documents run the
 * inference, the reports and predict's model reader. Build and run (see tests/README.md):
 *   ./configure CC=clang --enable-fuzzing && make tests/fuzz_doc
 *   ./tests/fuzz_doc -max_total_time=600 -max_len=65536 tests/fuzz/corpus */
#include "config.h"
#include "core/advice.h"
#include "doc/doc.h"
#include "core/infer.h"
#include "views/report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	char err[512];
	json_t *doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc)
		return 0;
	/* Plans (untimed) and results both go through the validator. */
	if (cb_doc_validate(doc, false, err, sizeof err)) {
		cb_geometry g;
		unsigned lpp[CB_NELEM];
		if (cb_model_from_json(json_object_get(doc, "inference"), &g, lpp, err, sizeof err)) {
			uint32_t lanes[64] = { 0 };
			for (unsigned l = 0; l < 64; l++)
				lanes[l] = l * 132;
			for (int e = 0; e < CB_NELEM; e++)
				if (lpp[e])
					(void)cb_passes(&g, lpp[e], cb_elem_sizes[e], lanes, 64);
		}
	}
	if (cb_doc_validate(doc, true, err, sizeof err)) {
		cb_dataset ds;
		cb_inference inf;
		cb_doc_dataset(doc, &ds);
		cb_infer(&ds, &inf);
		FILE *sink = fopen("/dev/null", "w");
		if (sink) {
			cb_report_text(sink, doc, &inf, ds.subgroup);
			cb_report_csv(sink, doc, &inf, ds.subgroup);
			fclose(sink);
		}
		json_object_set_new(doc, "inference", cb_inference_to_json(&inf, ds.subgroup));
		char *s = cb_doc_dumps(doc);
		free(s);
		cb_dataset_free(&ds);
	}
	json_decref(doc);
	return 0;
}
