/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "views/models.h"

#include <string.h>

void cb_models_print(FILE *out, const cb_model_list *l)
{
	int wn = (int)strlen("MODEL"), ws = (int)strlen("SHORT");
	for (size_t k = 0; k < l->n; k++) {
		int n = (int)strlen(l->v[k].name), s = (int)strlen(l->v[k].short_name);
		wn = n > wn ? n : wn;
		ws = s > ws ? s : ws;
	}
	fprintf(out, "%-*s  %-*s  %-10s  %s  %s\n", wn, "MODEL", ws, "SHORT", "PROVENANCE", "FILE",
		"DEVICE");
	for (size_t k = 0; k < l->n; k++) {
		const cb_model_entry *e = &l->v[k];
		fprintf(out, "%-*s  %-*s  %-10s  %s  %s\n", wn, e->name, ws, e->short_name,
			e->provenance ? e->provenance : "-", e->path,
			e->device && *e->device ? e->device : "-");
	}
}
