/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/doc_agree.h"
#include "core/agree.h"

static const char *const verdicts[] = { "agree", "differ", "not_compared" };

static json_t *fact_json(const cb_agree_fact *f)
{
	json_t *o = json_pack("{s:s, s:s, s:s}", "op", f->device ? "device" : cb_op_name(f->op),
			      "fact", f->fact, "verdict", verdicts[f->verdict]);
	if (f->verdict != CB_NOT_COMPARED) {
		json_object_set_new(o, "measured", json_string(f->measured));
		json_object_set_new(o, "documented", json_string(f->documented));
	} else {
		json_object_set_new(o, "note", json_string(f->note));
	}
	if (f->doc && f->doc->basis)
		json_object_set_new(o, "basis", json_string(f->doc->basis));
	if (f->doc && f->doc->source)
		json_object_set_new(o, "source", json_string(f->doc->source));
	return o;
}

static json_t *pair_json(const cb_result *m, const char *mfile, const cb_result *d,
			 const char *dfile)
{
	cb_agreement a;
	char label[512];
	cb_agreement_of(m, d, &a);
	json_t *facts = json_array();
	for (size_t i = 0; i < a.n; i++)
		json_array_append_new(facts, fact_json(&a.facts[i]));
	return json_pack("{s:s, s:s, s:s, s:b, s:I, s:I, s:o}", "measured", mfile, "documented",
			 dfile, "documented_model", cb_model_label(d, label, sizeof label), "agree",
			 a.differ == 0, "agreeing", (json_int_t)a.agree, "differing",
			 (json_int_t)a.differ, "facts", facts);
}

json_t *cb_agreement_json(const cb_result *const *rs, const char *const *files, int n)
{
	json_t *arr = NULL;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n && !rs[i]->documented; j++) {
			if (!rs[j]->documented)
				continue;
			if (!arr)
				arr = json_array();
			json_array_append_new(arr, pair_json(rs[i], files[i], rs[j], files[j]));
		}
	return arr;
}
