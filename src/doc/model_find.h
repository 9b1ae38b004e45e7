/* SPDX-License-Identifier: MIT */
/* Reference models by name: the analyzed result documents installed under
 * $(pkgdatadir)/models (one folder per vendor: models/nvidia/h200.json is "nvidia-h200", or
 * "h200" where no other vendor has an h200), or in the folders of $CLBANKS_MODEL_PATH. */
#ifndef CB_MODEL_FIND_H
#define CB_MODEL_FIND_H

#include "core/error.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	char *name;       /* "nvidia-h200" (a file directly in a folder: its name without .json) */
	char *short_name; /* "h200" (the same as name for a file directly in a folder) */
	char *path;
	char *provenance, *device; /* cb_models_describe's; NULL before */
} cb_model_entry;

typedef struct {
	cb_model_entry *v; /* sorted by name; a name found in an earlier folder hides a later one */
	size_t n;
} cb_model_list;

/* The folders searched, ':'-separated: ENV ($CLBANKS_MODEL_PATH) when set and not empty,
 * where an empty entry stands for DEFAULT_DIR; else DEFAULT_DIR. Folders that do not exist
 * are skipped. Fills *OUT (cb_models_free). Errors: CB_ERR_NOMEM never (cb_x* abort). */
cb_rc cb_models_scan(const char *env, const char *default_dir, cb_model_list *out, cb_error *err);
void cb_models_free(cb_model_list *l);

/* Is ARG meant as a model name rather than a path: no '/', no ".json" ending, and no file of
 * that name exists? */
bool cb_model_is_name(const char *arg);

/* Resolves ARG for --model or a document operand. A path that exists always wins, and so
 * does anything that looks like a path (cb_model_is_name false): *PATH = NULL, use ARG as it
 * is. Else ARG is a model's name or short name: *PATH = its file (caller frees).
 * CB_ERR_INPUT (exit 2) when no model or several have that name, the message listing the
 * names there are. */
cb_rc cb_model_find(const char *arg, const char *env, const char *default_dir, char **path,
		    cb_error *err);

/* Where the document at PATH came from, for --list-models: its "provenance" member when it
 * has one (a vendor's documentation: "documented"), else "measured" when its measurements
 * carry samples, else "synthetic"; and its device's name (or ""). Caller frees both.
 * CB_ERR_INPUT when the file is not a JSON object. */
cb_rc cb_model_describe(const char *path, char **provenance, char **device, cb_error *err);
/* Is the document at PATH a documented model (provenance "documented")? Only a file that
 * says "documented" somewhere is parsed: most model files are megabytes of measurements. */
bool cb_model_documented(const char *path);
/* cb_model_describe for every entry of L; an unreadable one is "unreadable". */
void cb_models_describe(cb_model_list *l);

#endif
