/* SPDX-License-Identifier: MIT */
/* clbanks export --format json: the bank model of a document for simulators and compilers
 * (format "clbanks-bank-model", version 1), keys sorted, locale independent. */
#ifndef CB_DOC_EXPORT_H
#define CB_DOC_EXPORT_H

#include "core/export.h"

/* A NUL-terminated document ending in a newline (free it); NULL when out of memory. SOURCE
 * names the document the model comes from. */
char *cb_export_json(const cb_export_model *m, const char *source);

#endif
