/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/export.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define E4 2 /* index of 4-byte elements: the simulators' word */

static const cb_model_choice *load4(const cb_export_model *m)
{
	const cb_export_size *s = &m->ops[CB_OP_LOAD].size[E4];
	bool banked = s->choice.source == CB_CHOICE_JOINT || s->choice.source == CB_CHOICE_BY_SIZE;
	return s->measured && banked ? &s->choice : NULL;
}

cb_rc cb_export_check(const cb_export_model *m, const char *source, cb_error *err)
{
	const cb_export_op *l = &m->ops[CB_OP_LOAD];
	if (!l->present)
		return cb_error_set(
			err, CB_ERR_USAGE,
			"%s: has no inference object (write an analyzed "
			"copy with 'clbanks analyze %s --format json -o ANALYZED.json' and "
			"export that)",
			source, source);
	if (!load4(m))
		return cb_error_set(err, CB_ERR_USAGE,
				    "%s: the loads are %s: no bank model to "
				    "export for a simulator (--format json gives the verdict)",
				    source, l->status);
	return CB_OK;
}

/* "# LABEL VALUE", with control characters of the document's strings escaped. */
static void comment(FILE *out, const char *label, const char *value)
{
	char *e = cb_escape_controls(value ? value : "");
	fprintf(out, "# %s%s\n", label, e);
	free(e);
}

static void header(FILE *out, const cb_export_model *m, const char *source,
		   const cb_model_choice *c)
{
	comment(out, "clbanks export of ", source);
	comment(out, "device: ", m->device);
	if (m->documented[0])
		comment(out, "model: ", m->documented);
	fprintf(out, "# loads: %u banks x %u B, %s broadcast, ", c->geom.banks, c->geom.width,
		c->geom.broadcast ? "with" : "without");
	if (isfinite(c->confidence))
		fprintf(out, "confidence %.3f\n", c->confidence);
	else
		fprintf(out, "%s\n", m->documented[0] ? "from the documentation" : "confidence -");
}

/* What every element size other than 4 bytes, pair packing and the other ops would need. */
static void not_expressed(FILE *out, const cb_export_model *m, const char *target)
{
	const cb_export_op *l = &m->ops[CB_OP_LOAD];
	fprintf(out, "# not expressed by %s: lanes per pass by element size (", target);
	for (int e = 0, n = 0; e < CB_NELEM; e++) {
		const cb_export_size *s = &l->size[e];
		if (s->measured && s->choice.lanes_per_pass)
			fprintf(out, "%s%u B: %u", n++ ? ", " : "", cb_elems[e].bytes,
				s->choice.lanes_per_pass);
	}
	fputs(")", out);
	for (int e = 0; e < CB_NELEM; e++)
		if (l->size[e].measured && l->size[e].choice.norder)
			fprintf(out,
				"; %u B: lanes in groups that are not contiguous (--format json "
				"lists them)",
				cb_elems[e].bytes);
	if (load4(m)->geom.pair_packing)
		fputs("; pair packing (lanes n and n^1 on one offset count once)", out);
	fputc('\n', out);
	for (int op = CB_OP_STORE; op < CB_NOPS; op++)
		if (m->ops[op].present)
			fprintf(out, "# %s: %s (one shared-memory model for every op here)\n",
				cb_ops[op].plural, m->ops[op].status);
}

static void gpgpusim(FILE *out, const cb_export_model *m, const cb_model_choice *c)
{
	if (c->geom.width != 4)
		fprintf(out,
			"# GPGPU-Sim's banks are 4 bytes wide (WORD_SIZE); this device's are %u: "
			"the bank count below is the measured one\n",
			c->geom.width);
	if (!c->geom.broadcast)
		fputs("# GPGPU-Sim always merges lanes on one word; this device does not "
		      "(broadcast: no)\n",
		      out);
	unsigned parts = c->lanes_per_pass
				 ? (m->subgroup + c->lanes_per_pass - 1) / c->lanes_per_pass
				 : 1;
	fprintf(out, "-gpgpu_shmem_num_banks %u\n", c->geom.banks);
	fprintf(out, "-gpgpu_shmem_limited_broadcast %d\n", c->geom.broadcast ? 0 : 1);
	fprintf(out, "-gpgpu_shmem_warp_parts %u\n", parts);
}

static void gem5(FILE *out, const cb_export_model *m, const cb_model_choice *c)
{
	double cyc = m->ops[CB_OP_LOAD].pass_cycles;
	long penalty = isfinite(cyc) ? lround(cyc) : 1;
	if (penalty < 1)
		penalty = 1;
	fputs("# gem5's LdsState takes a bank count and a conflict penalty; its banks are 4 bytes "
	      "wide\n",
	      out);
	if (c->geom.width != 4)
		fprintf(out, "# this device's banks are %u bytes wide\n", c->geom.width);
	if (isfinite(cyc))
		fprintf(out, "# one extra pass measured at %.3g cycles at the maximum clock\n",
			cyc);
	else
		fputs("# the cost of one pass was not measured: the penalty is gem5's default\n",
		      out);
	fprintf(out, "--numLdsBanks=%u --ldsBankConflictPenalty=%ld\n", c->geom.banks, penalty);
}

void cb_export_print(FILE *out, const cb_export_model *m, const char *source,
		     cb_export_target target)
{
	const cb_model_choice *c = load4(m);
	if (!c)
		return;
	header(out, m, source, c);
	not_expressed(out, m, target == CB_EXPORT_GEM5 ? "gem5" : "GPGPU-Sim");
	if (target == CB_EXPORT_GEM5)
		gem5(out, m, c);
	else
		gpgpusim(out, m, c);
}
