/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/fit.h"

#include <math.h>

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
