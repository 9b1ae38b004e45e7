/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/fit.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>

double cb_fit_predict(const cb_fit *f, unsigned subgroup, unsigned elem_bytes,
		      const uint32_t *lanes)
{
	int ei = cb_elem_index(elem_bytes);
	if (ei < 0)
		return NAN;
	if (f->flat)
		return f->t0[ei] > 0 ? f->t0[ei] : NAN;
	if (!f->lanes_per_pass[ei])
		return NAN;
	unsigned p = cb_passes(&f->geom, f->lanes_per_pass[ei], elem_bytes, lanes, subgroup);
	return f->t0[ei] + f->c[ei] * p;
}

/* A table prepared for one bank width, and its banks for some bank counts (at most N). */
typedef struct {
	unsigned width;
	bool ok;
	cb_prepared p;
	size_t nbanks;
	unsigned *banks;
	uint16_t **bank_of;
} prepared_width;

/* The banks of PW's table for B banks: computed the first time. */
static const uint16_t *banks_of(prepared_width *pw, unsigned B)
{
	for (size_t k = 0; k < pw->nbanks; k++)
		if (pw->banks[k] == B)
			return pw->bank_of[k];
	uint16_t *of = cb_xmalloc((pw->p.nwords ? pw->p.nwords : 1) * sizeof *of);
	cb_prepared_banks(&pw->p, B, of);
	pw->banks[pw->nbanks] = B;
	pw->bank_of[pw->nbanks++] = of;
	return of;
}

/* The passes cb_passes gives for G and GROUP, the table prepared in one of W[0..*NW) (added
 * when its width is not there yet; room for N). */
static unsigned shared_passes(prepared_width *w, size_t *nw, size_t n, const cb_geometry *g,
			      unsigned group, unsigned elem_bytes, const uint32_t *lanes,
			      unsigned subgroup)
{
	if (g->banks == 0 || g->banks > CB_MAX_BANKS)
		return 0;
	size_t k = 0;
	while (k < *nw && w[k].width != g->width)
		k++;
	if (k == *nw) {
		w[k] = (prepared_width){ .width = g->width };
		w[k].ok = cb_prepare(&w[k].p, g->width, elem_bytes, lanes, subgroup);
		w[k].banks = cb_xmalloc(n * sizeof *w[k].banks);
		w[k].bank_of = cb_xmalloc(n * sizeof *w[k].bank_of);
		(*nw)++;
	}
	if (!w[k].ok)
		return 0;
	const uint16_t *of = banks_of(&w[k], g->banks);
	unsigned eff = cb_effective_group(&w[k].p, g->broadcast && g->pair_packing, group);
	return cb_prepared_passes(&w[k].p, of, g->banks, g->broadcast, eff);
}

void cb_fit_predict_each(const cb_fit *const *fits, size_t n, unsigned subgroup,
			 unsigned elem_bytes, const uint32_t *lanes, double *out)
{
	int ei = cb_elem_index(elem_bytes);
	prepared_width *w = cb_xmalloc((n ? n : 1) * sizeof *w);
	size_t nw = 0;
	for (size_t k = 0; k < n; k++) {
		const cb_fit *f = fits[k];
		if (ei < 0 || f->flat || !f->lanes_per_pass[ei]) {
			out[k] = cb_fit_predict(f, subgroup, elem_bytes, lanes);
			continue;
		}
		unsigned p = shared_passes(w, &nw, n, &f->geom, f->lanes_per_pass[ei], elem_bytes,
					   lanes, subgroup);
		out[k] = f->t0[ei] + f->c[ei] * p;
	}
	for (size_t k = 0; k < nw; k++) {
		for (size_t b = 0; b < w[k].nbanks; b++)
			free(w[k].bank_of[b]);
		free(w[k].banks);
		free(w[k].bank_of);
		cb_prepared_free(&w[k].p);
	}
	free(w);
}
