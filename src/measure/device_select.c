/* SPDX-License-Identifier: MIT */
/* --device SPEC: which device of the list a specification names (the rules: device.h). */
#include "config.h"
#include "measure/device.h"
#include "core/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The candidate devices, one per line, into the error's detail. */
static void list_candidates(const cb_device_list *list, const bool *mark, cb_error *err)
{
	size_t len = 0;
	for (size_t i = 0; i < list->count && len < sizeof err->detail; i++)
		if (!mark || mark[i])
			len += (size_t)snprintf(err->detail + len, sizeof err->detail - len,
						"%s  %u (%u:%u) %s (%s)", len ? "\n" : "",
						list->items[i].flat, list->items[i].pindex,
						list->items[i].dindex, list->items[i].name,
						list->items[i].platform_name);
}

static cb_rc no_such_device(const cb_device_list *list, cb_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static cb_rc no_such_device(const cb_device_list *list, cb_error *err, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	cb_error_set(err, CB_ERR_NODEV, "%s; %zu device%s available:", what, list->count,
		     list->count == 1 ? " is" : "s are");
	list_candidates(list, NULL, err);
	return CB_ERR_NODEV;
}

static cb_rc select_pd(const cb_device_list *list, const char *spec, const char *colon,
		       size_t *index, cb_error *err)
{
	char pbuf[32];
	unsigned long a, b;
	size_t plen = (size_t)(colon - spec);
	if (plen >= sizeof pbuf)
		return cb_error_set(err, CB_ERR_USAGE,
				    "invalid device specification '%s' (expected N, "
				    "P:D, a type or a name)",
				    spec);
	memcpy(pbuf, spec, plen);
	pbuf[plen] = '\0';
	if (!cb_parse_ulong(pbuf, 0, 1000000, &a) || !cb_parse_ulong(colon + 1, 0, 1000000, &b))
		return cb_error_set(err, CB_ERR_USAGE,
				    "invalid device specification '%s' (expected N, "
				    "P:D, a type or a name)",
				    spec);
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].pindex == a && list->items[i].dindex == b) {
			*index = i;
			return CB_OK;
		}
	if (a < list->nplatforms && list->platforms[a].ndevices == 0)
		return no_such_device(list, err,
				      "no device %lu:%lu: platform %lu (%s) has no devices", a, b,
				      a, list->platforms[a].name);
	return no_such_device(list, err, "no device %lu:%lu", a, b);
}

/* The first of COUNT matching devices (mark[i]), said when it is one of several. */
static void take_first(const cb_device_list *list, const bool *mark, size_t first, size_t count,
		       const char *what, const cb_notifier *notify, size_t *index)
{
	const cb_device_ref *r = &list->items[first];
	*index = first;
	if (count < 2)
		return;
	char others[200];
	size_t len = 0;
	others[0] = '\0';
	for (size_t i = 0; i < list->count && len < sizeof others; i++)
		if (mark[i] && i != first)
			len += (size_t)snprintf(others + len, sizeof others - len, "%s%u:%u",
						len ? ", " : "", list->items[i].pindex,
						list->items[i].dindex);
	cb_note(notify, CB_NOTE_INFO,
		"%zu devices are %s; measuring the first, %u (%u:%u) %s "
		"(the others: %s; name one by index or P:D, or use --device all)",
		count, what, r->flat, r->pindex, r->dindex, r->name, others);
}

/* "gpu", "cpu", "accelerator": the first device of that type. False when SPEC is no type. */
static bool select_type(const cb_device_list *list, const char *spec, const cb_notifier *notify,
			size_t *index, cb_rc *rc, cb_error *err)
{
	/* clang-format off */
	static const struct { const char *word, *label; cl_device_type type; } types[] = {
		{ "gpu", "GPUs", CL_DEVICE_TYPE_GPU }, { "cpu", "CPUs", CL_DEVICE_TYPE_CPU },
		{ "accelerator", "accelerators", CL_DEVICE_TYPE_ACCELERATOR },
	};
	/* clang-format on */
	for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
		if (strcasecmp(spec, types[k].word) != 0)
			continue;
		bool *mark = cb_xcalloc(list->count + 1, sizeof *mark);
		size_t hits = 0, first = 0;
		for (size_t i = list->count; i-- > 0;)
			if (list->items[i].type & types[k].type) {
				mark[i] = true;
				hits++;
				first = i;
			}
		*rc = CB_OK;
		if (hits == 0)
			*rc = no_such_device(list, err, "no device of type %s", types[k].word);
		else
			take_first(list, mark, first, hits, types[k].label, notify, index);
		free(mark);
		return true;
	}
	return false;
}

static bool platform_matches(const cb_platform_ref *p, const char *spec)
{
	return cb_strcasestr_bool(p->name, spec) || cb_strcasestr_bool(p->vendor, spec) ||
	       (strcmp(p->suffix, "?") != 0 && cb_strcasestr_bool(p->suffix, spec));
}

/* A platform by a substring of its name, vendor or ICD suffix: its default device. */
static cb_rc select_platform(const cb_device_list *list, const char *spec,
			     const cb_notifier *notify, size_t *index, cb_error *err)
{
	unsigned hits = 0, hit = 0;
	size_t len = 0;
	char names[sizeof err->detail];
	names[0] = '\0';
	for (unsigned p = 0; p < list->nplatforms; p++)
		if (platform_matches(&list->platforms[p], spec)) {
			hit = p;
			hits++;
			if (len < sizeof names)
				len += (size_t)snprintf(names + len, sizeof names - len,
							"%s  platform %u: %s (%u device%s)",
							len ? "\n" : "", p, list->platforms[p].name,
							list->platforms[p].ndevices,
							list->platforms[p].ndevices == 1 ? ""
											 : "s");
		}
	if (hits == 0)
		return no_such_device(list, err, "no device or platform matches '%s'", spec);
	if (hits > 1) {
		cb_error_set(err, CB_ERR_USAGE,
			     "'%s' is ambiguous; it matches %u platforms (use the "
			     "index or P:D shown by --list):",
			     spec, hits);
		snprintf(err->detail, sizeof err->detail, "%s", names);
		return CB_ERR_USAGE;
	}
	bool *mark = cb_xcalloc(list->count + 1, sizeof *mark);
	size_t n = 0;
	cb_device_list sub = { 0 };
	sub.items = cb_xcalloc(list->count + 1, sizeof *sub.items);
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].pindex == hit) {
			mark[i] = true;
			sub.items[sub.count++] = list->items[i];
			n++;
		}
	cb_rc rc = CB_OK;
	if (n == 0) {
		rc = no_such_device(list, err, "platform %u (%s) has no devices", hit,
				    list->platforms[hit].name);
	} else {
		size_t first = sub.items[cb_device_default(&sub)].flat;
		char what[300];
		snprintf(what, sizeof what, "on platform %s", list->platforms[hit].name);
		take_first(list, mark, first, n, what, notify, index);
	}
	free(sub.items);
	free(mark);
	return rc;
}

/* A substring of device names and vendors; no match: of platforms. */
static cb_rc select_name(const cb_device_list *list, const char *spec, const cb_notifier *notify,
			 size_t *index, cb_error *err)
{
	bool *mark = cb_xcalloc(list->count + 1, sizeof *mark);
	size_t hits = 0, hit = 0;
	for (size_t i = 0; i < list->count; i++) {
		const cb_device_ref *r = &list->items[i];
		if (cb_strcasestr_bool(r->name, spec) || cb_strcasestr_bool(r->vendor, spec)) {
			mark[i] = true;
			hits++;
			hit = i;
		}
	}
	cb_rc rc = CB_OK;
	if (hits == 1) {
		*index = hit;
	} else if (hits == 0) {
		rc = select_platform(list, spec, notify, index, err);
	} else {
		rc = cb_error_set(err, CB_ERR_USAGE,
				  "device name '%s' is ambiguous; it matches %zu "
				  "devices (use the index or P:D shown by --list):",
				  spec, hits);
		list_candidates(list, mark, err);
	}
	free(mark);
	return rc;
}

cb_rc cb_device_select(const cb_device_list *list, const char *spec, const cb_notifier *notify,
		       size_t *index, cb_error *err)
{
	unsigned long a;
	cb_rc rc;
	if (!spec || !*spec)
		return cb_error_set(err, CB_ERR_USAGE, "empty device specification");
	if (cb_parse_ulong(spec, 0, 1000000, &a)) {
		if (a >= list->count)
			return no_such_device(list, err, "device index %lu out of range", a);
		*index = a;
		return CB_OK;
	}
	/* All digits but too large for an index: an index out of range too, not a name. */
	if (spec[strspn(spec, "0123456789")] == '\0')
		return no_such_device(list, err, "device index %s out of range", spec);
	const char *colon = strchr(spec, ':');
	if (colon && isdigit((unsigned char)spec[0]))
		return select_pd(list, spec, colon, index, err);
	if (select_type(list, spec, notify, index, &rc, err))
		return rc;
	return select_name(list, spec, notify, index, err);
}
