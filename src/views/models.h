/* SPDX-License-Identifier: MIT */
/* clbanks --list-models: the reference models that --model takes by name. */
#ifndef CB_VIEWS_MODELS_H
#define CB_VIEWS_MODELS_H

#include "doc/model_find.h"

#include <stdio.h>

/* One line per model (described by cb_models_describe): its name, its short name, where it
 * came from (measured, synthetic, documented), its file and its device, under a header. */
void cb_models_print(FILE *out, const cb_model_list *l);

#endif
