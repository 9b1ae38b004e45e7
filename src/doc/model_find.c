/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/model_find.h"
#include "core/readfile.h"
#include "core/util.h"
#include "doc/doc.h"

#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = cb_xmalloc(n);
	snprintf(s, n, "%s/%s", a, b);
	return s;
}

/* NAME without its ".json" ending; NULL when it has none (or is only that). */
static char *json_stem(const char *name)
{
	size_t n = strlen(name);
	if (n <= 5 || strcmp(name + n - 5, ".json") != 0 || name[0] == '.')
		return NULL;
	char *s = cb_xstrdup(name);
	s[n - 5] = '\0';
	return s;
}

static bool has_name(const cb_model_list *l, const char *name)
{
	for (size_t k = 0; k < l->n; k++)
		if (strcmp(l->v[k].name, name) == 0)
			return true;
	return false;
}

/* Adds PATH as NAME (SHORT) unless an earlier folder already has NAME. Takes the strings. */
static void add(cb_model_list *l, char *name, char *short_name, char *path)
{
	if (has_name(l, name)) {
		free(name);
		free(short_name);
		free(path);
		return;
	}
	l->v = cb_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = (cb_model_entry){ name, short_name, path, NULL, NULL };
}

/* DIR's *.json files; VENDOR (a subfolder's name) prefixes their names, when not NULL. */
static void scan_files(cb_model_list *l, const char *dir, const char *vendor)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char *stem = json_stem(e->d_name);
		if (!stem)
			continue;
		char *path = join(dir, e->d_name);
		if (!is_file(path)) {
			free(stem);
			free(path);
			continue;
		}
		char *name = stem;
		if (vendor) {
			size_t n = strlen(vendor) + strlen(stem) + 2;
			name = cb_xmalloc(n);
			snprintf(name, n, "%s-%s", vendor, stem);
		}
		add(l, name, vendor ? stem : cb_xstrdup(stem), path);
	}
	closedir(d);
}

/* A folder of models: its own *.json files, and those of its subfolders (one a vendor). */
static void scan_dir(cb_model_list *l, const char *dir)
{
	if (!is_dir(dir))
		return;
	scan_files(l, dir, NULL);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char *sub = join(dir, e->d_name);
		if (is_dir(sub))
			scan_files(l, sub, e->d_name);
		free(sub);
	}
	closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const cb_model_entry *)a)->name, ((const cb_model_entry *)b)->name);
}

cb_rc cb_models_scan(const char *env, const char *default_dir, cb_model_list *out, cb_error *err)
{
	(void)err;
	*out = (cb_model_list){ 0 };
	if (!env || !*env) {
		scan_dir(out, default_dir);
	} else {
		char *copy = cb_xstrdup(env);
		char *p = copy;
		for (;;) {
			char *colon = strchr(p, ':');
			if (colon)
				*colon = '\0';
			scan_dir(out, *p ? p : default_dir);
			if (!colon)
				break;
			p = colon + 1;
		}
		free(copy);
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, by_name);
	return CB_OK;
}

void cb_models_free(cb_model_list *l)
{
	for (size_t k = 0; k < l->n; k++) {
		free(l->v[k].name);
		free(l->v[k].short_name);
		free(l->v[k].path);
		free(l->v[k].provenance);
		free(l->v[k].device);
	}
	free(l->v);
	*l = (cb_model_list){ 0 };
}

bool cb_model_is_name(const char *arg)
{
	size_t n = strlen(arg);
	if (n == 0 || strchr(arg, '/') || strcmp(arg, "-") == 0 ||
	    (n >= 5 && strcmp(arg + n - 5, ".json") == 0))
		return false;
	struct stat st;
	return stat(arg, &st) != 0;
}

/* The error for ARG: no model, or several, of that name; the names there are. */
static cb_rc not_found(const cb_model_list *l, const char *arg, size_t matches, const char *env,
		       const char *default_dir, cb_error *err)
{
	char list[4096] = "";
	size_t len = 0;
	for (size_t k = 0; k < l->n && len + 1 < sizeof list; k++) {
		if (matches > 1 && strcmp(l->v[k].short_name, arg) != 0)
			continue;
		len += (size_t)snprintf(list + len, sizeof list - len, "%s  %s (%s)",
					len ? "\n" : "", l->v[k].name, l->v[k].path);
	}
	if (len >= sizeof list)
		len = sizeof list - 1;
	if (matches > 1) {
		cb_error_set(err, CB_ERR_INPUT, "model name '%s' is ambiguous", arg);
		cb_error_detail(err, "it is the short name of:\n%s", list);
	} else {
		cb_error_set(err, CB_ERR_INPUT, "no file or model named '%s'", arg);
		if (len)
			cb_error_detail(err, "the models (clbanks --list-models):\n%s", list);
		else
			cb_error_detail(err, "no models in %s%s", env && *env ? env : default_dir,
					env && *env ? " ($CLBANKS_MODEL_PATH)" : "");
	}
	return CB_ERR_INPUT;
}

cb_rc cb_model_find(const char *arg, const char *env, const char *default_dir, char **path,
		    cb_error *err)
{
	*path = NULL;
	if (!cb_model_is_name(arg))
		return CB_OK;
	cb_model_list l;
	cb_rc rc = cb_models_scan(env, default_dir, &l, err);
	if (rc != CB_OK)
		return rc;
	size_t matches = 0, hit = 0;
	for (size_t k = 0; k < l.n && !*path; k++)
		if (strcmp(l.v[k].name, arg) == 0)
			*path = cb_xstrdup(l.v[k].path);
	for (size_t k = 0; k < l.n && !*path; k++)
		if (strcmp(l.v[k].short_name, arg) == 0) {
			matches++;
			hit = k;
		}
	if (!*path && matches == 1)
		*path = cb_xstrdup(l.v[hit].path);
	if (!*path)
		rc = not_found(&l, arg, matches, env, default_dir, err);
	cb_models_free(&l);
	return rc;
}

/* Does the document's first measurement carry samples (a run's), or none (a plan's or a
 * synthetic document's)? */
static bool measured(json_t *doc)
{
	json_t *gen = json_object_get(json_object_get(doc, "generator"), "name");
	json_t *m = json_array_get(json_object_get(doc, "measurements"), 0);
	json_t *s = json_object_get(m, "samples_ns");
	return json_is_string(gen) && strcmp(json_string_value(gen), "clbanks") == 0 &&
	       json_array_size(s) > 0;
}

cb_rc cb_model_describe(const char *path, char **provenance, char **device, cb_error *err)
{
	*provenance = *device = NULL;
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	if (!json_is_object(doc)) {
		json_decref(doc);
		return cb_error_set(err, CB_ERR_INPUT, "%s: not a result document (%s)", path,
				    je.text);
	}
	json_t *p = json_object_get(doc, "provenance");
	json_t *name = json_object_get(json_object_get(doc, "device"), "name");
	*provenance = cb_xstrdup(json_is_string(p) ? json_string_value(p)
				 : measured(doc)   ? "measured"
						   : "synthetic");
	*device = cb_xstrdup(json_is_string(name) ? json_string_value(name) : "");
	json_decref(doc);
	return CB_OK;
}

bool cb_model_documented(const char *path)
{
	char *text = NULL, *provenance = NULL, *device = NULL;
	size_t len = 0;
	cb_error err;
	if (cb_read_file(path, CB_DOC_MAX_BYTES, CB_READ_REGULAR_ONLY | CB_READ_TEXT, &text, &len,
			 &err) != CB_OK)
		return false;
	bool maybe = strstr(text, "\"documented\"") != NULL;
	free(text);
	if (!maybe || cb_model_describe(path, &provenance, &device, &err) != CB_OK)
		return false;
	bool documented = strcmp(provenance, "documented") == 0;
	free(provenance);
	free(device);
	return documented;
}

void cb_models_describe(cb_model_list *l)
{
	for (size_t k = 0; k < l->n; k++) {
		cb_error err;
		if (cb_model_describe(l->v[k].path, &l->v[k].provenance, &l->v[k].device, &err) !=
		    CB_OK) {
			l->v[k].provenance = cb_xstrdup("unreadable");
			l->v[k].device = cb_xstrdup("");
		}
	}
}
