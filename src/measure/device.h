/* SPDX-License-Identifier: MIT */
/* Platforms and devices: enumeration without contexts, selection by spec, device facts. */
#ifndef CB_DEVICE_H
#define CB_DEVICE_H

#include <CL/cl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* One device as --list shows it. */
typedef struct {
	cl_platform_id platform;
	cl_device_id device;
	unsigned pindex, dindex, flat;
	char *platform_name;
	char *name;
	char *vendor;
	cl_device_type type;
} cb_device_ref;

typedef struct {
	cb_device_ref *items;
	size_t count;
	unsigned nplatforms;
} cb_device_list;

/* Facts gathered once per run. Strings are owned. */
typedef struct {
	char *platform_name, *platform_vendor, *platform_version;
	char *name, *vendor, *driver_version, *device_version, *opencl_c_version, *extensions;
	cl_device_type type;
	cl_uint compute_units, max_clock_mhz;
	cl_ulong local_mem_size;
	cl_device_local_mem_type local_mem_type;
	size_t timer_resolution_ns;
	size_t max_work_group_size;
	bool little_endian;
	/* Sub-group size and where it came from; 0 until known. */
	unsigned subgroup_size;
	const char *subgroup_source;
	bool has_khr_subgroups;
	/* What the vendor reports, where it does (not a measurement). */
	bool has_reported_banks;
	cl_uint reported_banks;
	bool has_nv_cc;
	cl_uint nv_cc_major, nv_cc_minor;
	bool has_amd_gfxip;
	cl_uint amd_gfxip_major, amd_gfxip_minor;
	size_t intel_subgroup_sizes[8];
	unsigned intel_subgroup_count;
} cb_device_info;

/* Enumerates every platform and device. Returns CB_EXIT_OK, CB_EXIT_NODEV (with a message
 * and a hint when there is no platform at all) or CB_EXIT_RUNTIME. */
int cb_devices_enumerate(cb_device_list *list);
void cb_devices_free(cb_device_list *list);

/* Prints the --list table (text) or JSON. */
void cb_devices_print(const cb_device_list *list, FILE *out);
json_t *cb_devices_to_json(const cb_device_list *list);

/* Selects one device by SPEC: a flat index, "P:D" or a case-insensitive name substring.
 * Returns CB_EXIT_OK and the index into list->items, or an exit status after a message. */
int cb_device_select(const cb_device_list *list, const char *spec, size_t *index);

/* Gathers the device facts. Returns CB_EXIT_OK or CB_EXIT_RUNTIME. */
int cb_device_info_gather(const cb_device_ref *ref, cb_device_info *info);
void cb_device_info_free(cb_device_info *info);
json_t *cb_device_info_to_json(const cb_device_info *info);

const char *cb_device_type_name(cl_device_type type);

#endif
