/* SPDX-License-Identifier: MIT */
/*
 * clbanks --device all -o DIR: every device in --list order, one result document per device in
 * DIR (VENDOR-DEVICE.json, see cb_device_file_stem), then the compare table of the documents
 * written. Every name is chosen and checked before the first measurement, so an existing file
 * stops the command before any work (without --force). A failing device is reported and the
 * others still run; the exit status is the first failure's. A stop signal ends the loop at once:
 * the documents already written are complete, the current one is never started on disk.
 */
#include "config.h"
#include "cli/cmd_run.h"
#include "cli/commands.h"
#include "cli/host.h"
#include "cli/models.h"
#include "cli/outfile.h"
#include "core/util.h"
#include "doc/doc.h"
#include "measure/session.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ALL_USAGE "clbanks --device all -o DIR [OPTION]..."

/* DIR must be an existing, writable directory: it is never created, so a mistyped name fails
 * here instead of filling a new directory. */
static cb_rc check_dir(const char *dir, cb_error *err)
{
	struct stat st;
	if (!dir)
		return cb_usage_error(err, ALL_USAGE,
				      "--device all needs -o DIR, the directory for "
				      "the result documents");
	if (strcmp(dir, "-") == 0 || !*dir)
		return cb_usage_error(err, ALL_USAGE,
				      "--device all writes one file per device: -o "
				      "must name a directory, not '%s'",
				      dir);
	if (stat(dir, &st) != 0)
		return cb_error_set(err, CB_ERR_USAGE,
				    "-o '%s': %s (--device all does not create the directory)", dir,
				    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cb_usage_error(err, ALL_USAGE,
				      "-o '%s' is not a directory (--device all "
				      "writes one result document per device into a directory)",
				      dir);
	if (access(dir, W_OK | X_OK) != 0)
		return cb_error_set(err, CB_ERR_USAGE, "directory '%s' is not writable (%s)", dir,
				    strerror(errno));
	return CB_OK;
}

static bool taken(char *const *stems, size_t n, const char *stem)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(stems[i], stem) == 0)
			return true;
	return false;
}

/* DIR/STEM.json for every device: identical devices get -2, -3, ... in --list order; a latency
 * run adds -latency, so it sits beside a throughput run of the same device. */
static char **output_paths(const cb_cli_options *o, const cb_device_list *list)
{
	char **stems = cb_xcalloc(list->count, sizeof *stems);
	char **paths = cb_xcalloc(list->count, sizeof *paths);
	size_t dl = strlen(o->output);
	bool slash = dl && o->output[dl - 1] == '/';
	for (size_t i = 0; i < list->count; i++) {
		char base[80], stem[96];
		cb_device_file_stem(list->items[i].vendor, list->items[i].name, base, 65);
		if (o->regime == 1)
			strcat(base, "-latency");
		snprintf(stem, sizeof stem, "%s", base);
		for (unsigned k = 2; taken(stems, i, stem); k++)
			snprintf(stem, sizeof stem, "%s-%u", base, k);
		stems[i] = cb_xstrdup(stem);
		paths[i] = cb_xmalloc(dl + strlen(stem) + 7);
		sprintf(paths[i], "%s%s%s.json", o->output, slash ? "" : "/", stem);
	}
	for (size_t i = 0; i < list->count; i++)
		free(stems[i]);
	free(stems);
	return paths;
}

static void free_paths(char **paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

/* Notes of one device's run, each led by "device I of N: ". */
typedef struct {
	const cb_notifier *inner;
	const char *tag;
} tagged;

static void tag_note(void *ctx, cb_note_kind kind, const char *text)
{
	const tagged *t = ctx;
	cb_note(t->inner, kind, "%s: %s", t->tag, text);
}

/* Measures one device and writes its document; *WROTE says whether the file exists now (also
 * when --strict then fails). */
static cb_rc run_one(const cb_cli_options *o, const cb_run_opts *base, const cb_device_ref *ref,
		     const char *path, const char *tag, bool *wrote, cb_error *err)
{
	tagged t = { base->notify, tag };
	cb_notifier n = { tag_note, &t };
	cb_run_opts ro = *base;
	ro.notify = &n;
	cb_result r;
	cb_result_init(&r);
	int host = 0;
	cb_rc rc = cb_host_mode(o, &host, err); /* checked before any device, cb_cmd_run_all */
	if (rc == CB_OK)
		rc = cb_session_run(&ro, ref, &r, err);
	if (rc == CB_OK) {
		cb_host_record(host, &r.run);
		cb_cli_match_documented(&r);
	}
	if (rc == CB_OK)
		rc = cb_emit_kept(path, o->force, cb_renderer(CB_FMT_JSON), &r, err);
	*wrote = rc == CB_OK;
	if (rc == CB_OK) {
		cb_note(&n, CB_NOTE_INFO, "wrote %s", path);
		rc = cb_strict_check(o, &r, err);
	}
	cb_result_free(&r);
	return rc;
}

/* The tally of the loop: the documents written and the first failure. */
typedef struct {
	const char **written;
	int nwritten;
	size_t nfailed;
	cb_error first;
	char failed[512]; /* "device 2 (name), device 3 (name)" */
} tally;

static void failed_device(tally *t, size_t i, const cb_device_ref *ref, cb_error *e)
{
	char prefix[300];
	snprintf(prefix, sizeof prefix, "device %zu (%s, %u:%u) failed: ", i + 1, ref->name,
		 ref->pindex, ref->dindex);
	cb_error_prefix(e, prefix);
	cb_print_error(e);
	if (t->nfailed++ == 0)
		t->first = *e;
	size_t len = strlen(t->failed);
	snprintf(t->failed + len, sizeof t->failed - len, "%sdevice %zu (%s)", len ? ", " : "",
		 i + 1, ref->name);
}

/* The stop, recorded in ERR (E when the run saw it), with what is already on disk. */
static cb_rc stopped(const tally *t, size_t i, size_t count, cb_error *e, cb_error *err)
{
	if (e->rc != CB_ERR_INTERRUPTED)
		cb_check_interrupt(e);
	*err = *e;
	char prefix[64];
	snprintf(prefix, sizeof prefix, "device %zu of %zu: ", i + 1, count);
	cb_error_prefix(err, prefix);
	size_t len = 0;
	for (int k = 0; k < t->nwritten && len < sizeof err->detail; k++)
		len += (size_t)snprintf(err->detail + len, sizeof err->detail - len, "%s%s",
					k ? ", " : "written before the stop, complete: ",
					t->written[k]);
	return CB_ERR_INTERRUPTED;
}

static cb_rc run_devices(const cb_cli_options *o, const cb_run_opts *ro, const cb_device_list *list,
			 char *const *paths, cb_error *err)
{
	tally t = { cb_xcalloc(list->count, sizeof *t.written), 0, 0, { 0 }, "" };
	cb_rc rc = CB_OK;
	for (size_t i = 0; i < list->count && rc == CB_OK; i++) {
		char tag[64];
		snprintf(tag, sizeof tag, "device %zu of %zu", i + 1, list->count);
		cb_error e;
		cb_error_clear(&e);
		bool wrote = false;
		cb_rc r = cb_check_interrupt(&e);
		if (r == CB_OK)
			r = run_one(o, ro, &list->items[i], paths[i], tag, &wrote, &e);
		if (wrote)
			t.written[t.nwritten++] = paths[i];
		if (r != CB_OK && (r == CB_ERR_INTERRUPTED || cb_stop_signal))
			rc = stopped(&t, i, list->count, &e, err);
		else if (r != CB_OK)
			failed_device(&t, i, &list->items[i], &e);
	}
	/* As a single run prints its report (-q silences standard error only). */
	if (rc == CB_OK && t.nwritten)
		rc = cb_compare_files(t.written, t.nwritten, cb_format_of(o, CB_FMT_TEXT), "-",
				      false, err);
	if (rc == CB_OK && t.nfailed) {
		cb_error_set(err, t.first.rc, "%zu of %zu devices failed: %s", t.nfailed,
			     list->count, t.failed);
		rc = t.first.rc;
	}
	free(t.written);
	return rc;
}

cb_rc cb_cmd_run_all(const cb_cli_options *o, cb_error *err)
{
	cb_result plan;
	cb_result_init(&plan);
	cb_notifier n = cb_cli_notifier(o);
	cb_run_opts ro;
	cb_device_list list = { 0 };
	char **paths = NULL;
	cb_rc rc = check_dir(o->output, err);
	if (rc == CB_OK && cb_plan_file(o))
		rc = cb_load_plan(o->plan, &plan, err);
	if (rc == CB_OK)
		rc = cb_run_options(o, cb_plan_file(o) ? &plan : NULL, &n, &ro, err);
	int host;
	if (rc == CB_OK)
		rc = cb_host_mode(o, &host, err);
	if (rc == CB_OK)
		rc = cb_measure_devices(&list, &n, err);
	if (rc == CB_OK)
		paths = output_paths(o, &list);
	/* Every name is free (or --force) before the first device is measured. */
	for (size_t i = 0; rc == CB_OK && i < list.count; i++)
		rc = cb_output_check(paths[i], o->force, err);
	if (rc == CB_OK)
		rc = run_devices(o, &ro, &list, paths, err);
	free_paths(paths, list.count);
	cb_devices_free(&list);
	cb_result_free(&plan);
	return rc;
}
