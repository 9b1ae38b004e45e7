/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/agree.h"
#include "core/analyze.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static cb_agree_fact *add(cb_agreement *a, cb_op op, const char *fact)
{
	if (a->n >= CB_MAX_AGREE)
		return NULL;
	cb_agree_fact *f = &a->facts[a->n++];
	memset(f, 0, sizeof *f);
	f->op = op;
	snprintf(f->fact, sizeof f->fact, "%s", fact);
	return f;
}

/* The documented fact KEY of OP ("banks" is "load.banks"), or NULL. */
static const cb_doc_fact *doc_fact(const cb_result *d, cb_op op, const char *key)
{
	char name[64];
	snprintf(name, sizeof name, "%s.%s", cb_op_name(op), key);
	return cb_doc_fact_find(d, name);
}

/* One compared fact: both values as text, agreeing when equal. */
static void compare(cb_agreement *a, cb_op op, const char *fact, unsigned m, unsigned d,
		    const char *const *names)
{
	cb_agree_fact *f = add(a, op, fact);
	if (!f)
		return;
	if (names) {
		snprintf(f->measured, sizeof f->measured, "%s", names[m != 0]);
		snprintf(f->documented, sizeof f->documented, "%s", names[d != 0]);
	} else {
		snprintf(f->measured, sizeof f->measured, "%u", m);
		snprintf(f->documented, sizeof f->documented, "%u", d);
	}
	f->verdict = m == d ? CB_AGREE : CB_DIFFER;
	a->agree += f->verdict == CB_AGREE;
	a->differ += f->verdict == CB_DIFFER;
}

static void not_compared(cb_agreement *a, cb_op op, const char *fact, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void not_compared(cb_agreement *a, cb_op op, const char *fact, const char *fmt, ...)
{
	cb_agree_fact *f = add(a, op, fact);
	if (!f)
		return;
	f->verdict = CB_NOT_COMPARED;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->note, sizeof f->note, fmt, ap);
	va_end(ap);
}

/* The measured model of OP at element size E: the size's own where it stands in, else the
 * op's when banked; NULL when there is none. */
static const cb_inference *measured_model(const cb_result *r, cb_op op, int e)
{
	const cb_inference *own = e >= 0 ? cb_size_model(r, op, e) : NULL;
	if (own)
		return own;
	const cb_inference *inf = &r->inference[op];
	return r->op_present[op] && inf->status == CB_BANKED ? inf : NULL;
}

static void lanes(cb_agreement *a, const cb_result *m, const cb_result *d, cb_op op)
{
	const cb_recorded_model *dm = &d->recorded[op];
	for (int e = 0; e < CB_NELEM; e++) {
		char fact[40];
		unsigned bytes = cb_elems[e].bytes;
		if (!cb_op_has_elem(op, bytes))
			continue;
		snprintf(fact, sizeof fact, "lanes per pass, %u B", bytes);
		const cb_inference *mm = measured_model(m, op, e);
		bool measured = mm && mm->elem_present[e] && mm->best.lanes_per_pass[e];
		if (!dm->lanes_per_pass[e] && !measured)
			continue;
		if (!dm->lanes_per_pass[e])
			not_compared(a, op, fact, "not documented");
		else if (!measured)
			not_compared(a, op, fact, "not measured");
		else
			compare(a, op, fact, mm->best.lanes_per_pass[e], dm->lanes_per_pass[e],
				NULL);
		if (dm->norder[e] && measured) {
			snprintf(fact, sizeof fact, "lane groups, %u B", bytes);
			not_compared(a, op, fact,
				     "documented not contiguous; the measurement's model "
				     "family finds contiguous groups only");
		}
	}
}

static void op_facts(cb_agreement *a, const cb_result *m, const cb_result *d, cb_op op)
{
	static const char *const yes_no[] = { "no", "yes" };
	const cb_recorded_model *dm = &d->recorded[op];
	const cb_inference *mi = measured_model(m, op, -1);
	if (!d->has_recorded[op] || !dm->banked) {
		const char *why = cb_doc_fact_note(d, op, 0);
		not_compared(a, op, "model", "not documented%s%s", why ? ": " : "", why ? why : "");
		return;
	}
	if (!mi) {
		for (int e = 0; e < CB_NELEM && !mi; e++)
			mi = measured_model(m, op, e);
	}
	if (!mi) {
		not_compared(a, op, "model", "not measured (%s)",
			     m->op_present[op] ? cb_status_name(m->inference[op].status)
					       : "no measurements");
		return;
	}
	compare(a, op, "banks", mi->best.geom.banks, dm->geom.banks, NULL);
	compare(a, op, "bank width, bytes", mi->best.geom.width, dm->geom.width, NULL);
	const char *bc = cb_op_desc_of(op)->same_word;
	if (mi->broadcast_known && dm->broadcast_known)
		compare(a, op, bc, mi->best.geom.broadcast, dm->geom.broadcast, yes_no);
	else
		not_compared(a, op, bc, "%s",
			     mi->broadcast_known ? "not documented" : "not measured");
	compare(a, op, "pair packing", mi->best.geom.pair_packing, dm->geom.pair_packing, yes_no);
	lanes(a, m, d, op);
}

/* The name of the documented fact behind FACT ("lanes per pass, 8 B": "lanes_per_pass.8"),
 * "" for the op as a whole. */
static void fact_key(const char *fact, char *key, size_t size)
{
	/* clang-format off */
	static const struct { const char *fact, *key; } keys[] = {
		{ "banks", "banks" }, { "bank width, bytes", "bank_width_bytes" },
		{ "same-word reads broadcast", "broadcast" },
		{ "same-word stores in one pass", "broadcast" },
		{ "same-word atomics in one pass", "broadcast" },
		{ "pair packing", "pair_packing" }, { "sub-group size", "subgroup_size" },
	};
	/* clang-format on */
	unsigned bytes;
	key[0] = '\0';
	for (size_t j = 0; j < sizeof keys / sizeof *keys; j++)
		if (strcmp(fact, keys[j].fact) == 0)
			snprintf(key, size, "%s", keys[j].key);
	if (sscanf(fact, "lanes per pass, %u B", &bytes) == 1)
		snprintf(key, size, "lanes_per_pass.%u", bytes);
	if (sscanf(fact, "lane groups, %u B", &bytes) == 1)
		snprintf(key, size, "lane_groups.%u", bytes);
}

void cb_agreement_of(const cb_result *measured, const cb_result *documented, cb_agreement *a)
{
	memset(a, 0, sizeof *a);
	compare(a, CB_OP_LOAD, "sub-group size", measured->device.subgroup_size,
		documented->device.subgroup_size, NULL);
	a->facts[0].device = true;
	for (int op = 0; op < CB_NOPS; op++)
		op_facts(a, measured, documented, (cb_op)op);
	for (size_t i = 0; i < a->n; i++) {
		char key[64];
		fact_key(a->facts[i].fact, key, sizeof key);
		if (strcmp(key, "subgroup_size") == 0)
			a->facts[i].doc = cb_doc_fact_find(documented, key);
		else
			a->facts[i].doc = key[0] ? doc_fact(documented, a->facts[i].op, key)
						 : cb_doc_fact_find(documented,
								    cb_op_name(a->facts[i].op));
	}
}

int cb_agreement_match(const cb_result *measured, const cb_result *const *docs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!docs[i]->documented)
			continue;
		cb_agreement a;
		cb_agreement_of(measured, docs[i], &a);
		/* The sub-group size alone is no match: a flat device of 32 lanes has no fact of a
		 * bank model to agree on. */
		size_t of_ops = 0;
		for (size_t k = 0; k < a.n; k++)
			of_ops += !a.facts[k].device && a.facts[k].verdict == CB_AGREE;
		if (a.differ == 0 && of_ops > 0)
			return (int)i;
	}
	return -1;
}
