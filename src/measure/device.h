/* SPDX-License-Identifier: MIT */
/* Platforms and devices: enumeration without contexts, selection by spec, device facts. */
#ifndef CB_DEVICE_H
#define CB_DEVICE_H

#include "core/error.h"
#include "core/notify.h"
#include "core/result.h"

#include <CL/cl.h>
#include <stdbool.h>
#include <stdint.h>
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

/* One platform, with or without devices. */
typedef struct {
	char *name, *vendor,
		*suffix; /* CL_PLATFORM_NAME, _VENDOR, _ICD_SUFFIX_KHR ("?": refused) */
	unsigned ndevices;
	bool failed; /* clGetDeviceIDs failed: its devices are not listed */
} cb_platform_ref;

typedef struct {
	cb_device_ref *items;
	size_t count;
	cb_platform_ref *platforms;
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
	bool has_int64_atomics;     /* cl_khr_int64_base_atomics: 8-byte atomics are measured */
	cl_uint max_num_sub_groups; /* OpenCL 2.1+: 0 when the device has no sub-groups */
	/* What the vendor reports, where it does (not a measurement). */
	cl_uint local_mem_per_cu; /* CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD; 0 unknown */
	bool has_reported_banks;
	cl_uint reported_banks;
	bool has_nv_cc;
	cl_uint nv_cc_major, nv_cc_minor;
	bool has_amd_gfxip;
	cl_uint amd_gfxip_major, amd_gfxip_minor;
	cl_uint nv_warp, amd_wavefront; /* the vendors' sub-group sizes; 0 unknown */
	cl_uint intel_slices, intel_sub_slices;
	size_t intel_subgroup_sizes[8];
	unsigned intel_subgroup_count;
	/* The units that own local memory: Intel's sub-slices (cl_intel_device_attribute_query),
	 * else the compute units. */
	cl_uint slm_units;
	const char *slm_unit;
	/* "OpenCL X.Y" of the platform and the device, 0.0 when unreadable. */
	unsigned platform_major, platform_minor, device_major, device_minor;
	/* Properties the driver gave (bits by device.c's property table), and those it gave
	 * outside the range a document accepts: those are unknown, and each has a warning. */
	uint64_t known, rejected;
	char **warnings;
	unsigned nwarnings;
} cb_device_info;

/* Enumerates every platform and device. A platform that fails to list its devices is
 * skipped with a warning. CB_ERR_NODEV when there is no platform or no device at all. */
cb_rc cb_devices_enumerate(cb_device_list *list, const cb_notifier *notify, cb_error *err);
/* The same, but a list of platforms none of which has a device is kept (CB_ERR_NODEV, count
 * 0), for --list to show them; the caller frees LIST whatever the status. */
cb_rc cb_devices_enumerate_all(cb_device_list *list, const cb_notifier *notify, cb_error *err);
void cb_devices_free(cb_device_list *list);

/* The device clbanks measures when none is named: the first GPU, else the first
 * accelerator, else the first device. */
size_t cb_device_default(const cb_device_list *list);

/* Selects one device by SPEC (device_select.c), in this order:
 *  - a flat index ("0") or "P:D" from --list;
 *  - "gpu", "cpu" or "accelerator" (any case): the first device of that CL type;
 *  - a case-insensitive substring of device names and vendors: exactly one device, else
 *    ambiguous;
 *  - else a substring of platform names, vendors and ICD suffixes: exactly one platform, and
 *    its default device (first GPU, accelerator, else its first device).
 * A type or platform with several devices takes the first and says so through NOTIFY.
 * CB_ERR_NODEV (nothing matches, a platform without devices) or CB_ERR_USAGE (malformed,
 * ambiguous); the error's detail lists the candidates. */
cb_rc cb_device_select(const cb_device_list *list, const char *spec, const cb_notifier *notify,
		       size_t *index, cb_error *err);

/* Gathers the device facts (never fails: a driver that refuses a query leaves it unknown, and
 * one that answers outside the range a document accepts too, with a warning). */
void cb_device_info_gather(const cb_device_ref *ref, cb_device_info *info,
			   const cb_notifier *notify);
void cb_device_info_free(cb_device_info *info);
/* The document's view of the device (what a result records). */
void cb_device_info_to_doc(const cb_device_info *info, cb_device_doc *doc);
/* Does the device support OpenCL 1.2 (the host API clbanks uses)? */
bool cb_device_supports_12(const cb_device_info *info);

const char *cb_device_type_name(cl_device_type type);

/* A file name stem for a device from its vendor and name ("NVIDIA Corporation", "NVIDIA H200"
 * -> "nvidia-h200"): lower-case letters, digits and single '-', at most N - 1 characters, never
 * empty. The vendor's first word (AMD and Intel for their long and CPUID names) comes first
 * unless the name already starts with it; (R) and (TM) are dropped. */
void cb_device_file_stem(const char *vendor, const char *name, char *buf, size_t n);

#endif
