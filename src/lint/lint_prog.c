/* SPDX-License-Identifier: MIT */
/* The translated program's memory. */
#include "config.h"
#include "lint/lint_prog.h"

#include <stdlib.h>
#include <string.h>

void cb_prog_free(cb_prog *p)
{
	for (uint32_t i = 0; i < p->nfns; i++) {
		cb_fn *f = &p->fns[i];
		free(f->name);
		free(f->consts);
		free(f->ins);
		free(f->blocks);
		free(f->succ);
		free(f->succ_first);
		free(f->extra);
		free(f->loops);
	}
	for (uint32_t i = 0; i < p->nsites; i++) {
		free(p->sites[i].file);
		free(p->sites[i].elem_type);
		free(p->sites[i].callee);
	}
	for (uint32_t i = 0; i < p->nobjects; i++) {
		free(p->objects[i].name);
		free(p->objects[i].elem_type);
	}
	for (uint32_t i = 0; i < p->nargs; i++) {
		free(p->args[i].name);
		for (uint32_t f = 0; f < p->args[i].nfields; f++)
			free(p->args[i].fields[f].name);
		free(p->args[i].fields);
		free(p->args[i].values);
	}
	free(p->fns);
	free(p->sites);
	free(p->objects);
	for (uint32_t i = 0; i < p->nunseen; i++)
		free(p->unseen[i]);
	free(p->unseen);
	free(p->unseen_builtin);
	free(p->args);
	free(p->kernel);
	memset(p, 0, sizeof *p);
}
