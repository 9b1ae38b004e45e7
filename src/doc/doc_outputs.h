/* SPDX-License-Identifier: MIT */
/* The other JSON outputs of clbanks: compare, the device list, predict. Locale-independent,
 * sorted keys. Each returns text ending with a newline, owned by the caller. */
#ifndef CB_DOC_OUTPUTS_H
#define CB_DOC_OUTPUTS_H

#include "core/result.h"

#include <stddef.h>

/* {"format": "clbanks-compare", "format_version": 2, "devices": [...], "groups": [...],
 * "outliers": [...]}: one entry per document, then the groups of identical devices and the
 * outliers among them (core/fleet.h); RS[i] came from FILES[i]. */
char *cb_compare_json(const cb_result *const *rs, const char *const *files, int n);

/* One device of --list, with what its driver reports (0 or NULL: not reported). */
typedef struct {
	unsigned index, platform_index, device_index;
	const char *type, *name, *vendor, *platform;
	bool is_default;
	unsigned long long local_mem_bytes;
	const char *local_mem_type; /* "local" (dedicated), "global" or "none" */
	unsigned compute_units, max_clock_mhz;
	unsigned subgroup_sizes[8], nsubgroup_sizes;
	const char *subgroup_source; /* the property that gave them */
	const char *driver_version, *device_version, *opencl_c_version, *platform_version;
} cb_device_entry;

char *cb_devices_json(const cb_device_entry *d, size_t n);

/* predict's answer. WHICH_LANES: per pass, the lanes served together (NULL: not shown). */
typedef struct {
	const char *op;
	unsigned elem_bytes, passes, min_passes, lanes_per_pass;
	unsigned conflict_ways; /* passes / min_passes, at least 1 */
	double slowdown;        /* passes / min_passes */
	bool banked;
	bool by_size;                 /* the model is the element size's own (by_elem_bytes) */
	const char *note;             /* why there is no bank model, or NULL */
	const unsigned *pass_of_lane; /* pass index of each lane, or NULL */
	unsigned nlanes;
	/* A documented model: "MI300 (documented, not measured)"; NULL for a measured one. */
	const char *documented;
} cb_predict_answer;

char *cb_predict_json(const cb_predict_answer *a);

#endif
