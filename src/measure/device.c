/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/device.h"
#include "measure/clerr.h"
#include "core/util.h"

#include <CL/cl_ext.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A string property, or a copy of "?" when the driver refuses it (drivers differ, never crash). */
static char *platform_string(cl_platform_id p, cl_platform_info what)
{
	size_t n = 0;
	if (clGetPlatformInfo(p, what, 0, NULL, &n) != CL_SUCCESS || n == 0)
		return cb_xstrdup("?");
	char *s = cb_xcalloc(1, n + 1);
	if (clGetPlatformInfo(p, what, n, s, NULL) != CL_SUCCESS) {
		free(s);
		return cb_xstrdup("?");
	}
	return s;
}

static char *device_string(cl_device_id d, cl_device_info what)
{
	size_t n = 0;
	if (clGetDeviceInfo(d, what, 0, NULL, &n) != CL_SUCCESS || n == 0)
		return cb_xstrdup("?");
	char *s = cb_xcalloc(1, n + 1);
	if (clGetDeviceInfo(d, what, n, s, NULL) != CL_SUCCESS) {
		free(s);
		return cb_xstrdup("?");
	}
	/* Some drivers pad names with spaces. */
	size_t len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return s;
}

static bool device_uint(cl_device_id d, cl_device_info what, cl_uint *out)
{
	cl_uint v = 0;
	size_t got = 0;
	if (clGetDeviceInfo(d, what, sizeof v, &v, &got) != CL_SUCCESS || got != sizeof v)
		return false;
	*out = v;
	return true;
}

const char *cb_device_type_name(cl_device_type type)
{
	if (type & CL_DEVICE_TYPE_GPU)
		return "GPU";
	if (type & CL_DEVICE_TYPE_CPU)
		return "CPU";
	if (type & CL_DEVICE_TYPE_ACCELERATOR)
		return "accelerator";
	return "other";
}

static void no_platform_message(cl_int status)
{
	if (status == CL_SUCCESS)
		cb_err("no OpenCL platform found (the ICD loader lists none)");
	else
		cb_err("no OpenCL platform found (%s, %d)", cb_cl_strerror(status), (int)status);
	fputs("clbanks: hint: install an OpenCL driver (ICD), e.g. pocl-opencl-icd for the CPU or "
	      "your GPU vendor's OpenCL package; check /etc/OpenCL/vendors and OCL_ICD_VENDORS\n",
	      stderr);
}

int cb_devices_enumerate(cb_device_list *list)
{
	cl_uint np = 0;
	cl_int st;

	memset(list, 0, sizeof *list);
	st = clGetPlatformIDs(0, NULL, &np);
	/* Loaders report "no platform" as -1001, and some as CL_INVALID_VALUE. */
	if (st == CL_PLATFORM_NOT_FOUND_KHR || (st == CL_SUCCESS && np == 0) ||
	    (st == CL_INVALID_VALUE && np == 0)) {
		no_platform_message(st);
		return CB_EXIT_NODEV;
	}
	if (st != CL_SUCCESS) {
		cb_cl_report("clGetPlatformIDs", st);
		return CB_EXIT_RUNTIME;
	}
	cl_platform_id *plats = cb_xcalloc(np, sizeof *plats);
	st = clGetPlatformIDs(np, plats, NULL);
	if (st != CL_SUCCESS) {
		free(plats);
		cb_cl_report("clGetPlatformIDs", st);
		return CB_EXIT_RUNTIME;
	}
	list->nplatforms = np;
	for (cl_uint p = 0; p < np; p++) {
		cl_uint nd = 0;
		st = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
		if (st == CL_DEVICE_NOT_FOUND || nd == 0)
			continue; /* a platform without devices is not an error */
		if (st != CL_SUCCESS) {
			/* One broken ICD must not hide the others. */
			char *pn = platform_string(plats[p], CL_PLATFORM_NAME);
			cb_warn("platform %u (%s): clGetDeviceIDs: %s (%d); skipped", p, pn,
				cb_cl_strerror(st), (int)st);
			free(pn);
			continue;
		}
		cl_device_id *devs = cb_xcalloc(nd, sizeof *devs);
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, devs, NULL) != CL_SUCCESS) {
			free(devs);
			continue;
		}
		char *pname = platform_string(plats[p], CL_PLATFORM_NAME);
		list->items = cb_xrealloc(list->items, (list->count + nd) * sizeof *list->items);
		for (cl_uint d = 0; d < nd; d++) {
			cb_device_ref *r = &list->items[list->count];
			r->platform = plats[p];
			r->device = devs[d];
			r->pindex = p;
			r->dindex = d;
			r->flat = (unsigned)list->count;
			r->platform_name = cb_xstrdup(pname);
			r->name = device_string(devs[d], CL_DEVICE_NAME);
			r->vendor = device_string(devs[d], CL_DEVICE_VENDOR);
			r->type = 0;
			clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof r->type, &r->type, NULL);
			list->count++;
		}
		free(pname);
		free(devs);
	}
	free(plats);
	if (list->count == 0) {
		cb_err("no OpenCL device found on %u platform%s", np, np == 1 ? "" : "s");
		return CB_EXIT_NODEV;
	}
	return CB_EXIT_OK;
}

void cb_devices_free(cb_device_list *list)
{
	for (size_t i = 0; i < list->count; i++) {
		free(list->items[i].platform_name);
		free(list->items[i].name);
		free(list->items[i].vendor);
	}
	free(list->items);
	memset(list, 0, sizeof *list);
}

void cb_devices_print(const cb_device_list *list, FILE *out)
{
	fprintf(out, "%-5s %-5s %-12s %s\n", "index", "P:D", "type", "device (platform)");
	for (size_t i = 0; i < list->count; i++) {
		const cb_device_ref *r = &list->items[i];
		char pd[32];
		snprintf(pd, sizeof pd, "%u:%u", r->pindex, r->dindex);
		fprintf(out, "%-5u %-5s %-12s %s (%s)\n", r->flat, pd, cb_device_type_name(r->type),
			r->name, r->platform_name);
	}
}

json_t *cb_devices_to_json(const cb_device_list *list)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < list->count; i++) {
		const cb_device_ref *r = &list->items[i];
		char pd[32];
		snprintf(pd, sizeof pd, "%u:%u", r->pindex, r->dindex);
		json_array_append_new(arr, json_pack("{s:I, s:s, s:s, s:s, s:s, s:s}",
			"index", (json_int_t)r->flat, "id", pd, "type", cb_device_type_name(r->type),
			"name", r->name, "vendor", r->vendor, "platform", r->platform_name));
	}
	return arr;
}

static void list_candidates(const cb_device_list *list, const bool *mark)
{
	for (size_t i = 0; i < list->count; i++)
		if (!mark || mark[i])
			fprintf(stderr, "  %u (%u:%u) %s (%s)\n", list->items[i].flat,
				list->items[i].pindex, list->items[i].dindex, list->items[i].name,
				list->items[i].platform_name);
}

int cb_device_select(const cb_device_list *list, const char *spec, size_t *index)
{
	unsigned long a, b;
	const char *colon;

	if (!spec || !*spec) {
		cb_err("empty device specification");
		return CB_EXIT_USAGE;
	}
	if (cb_parse_ulong(spec, 0, 1000000, &a)) {
		if (a >= list->count) {
			cb_err("device index %lu out of range; %zu device%s available:", a,
			       list->count, list->count == 1 ? " is" : "s are");
			list_candidates(list, NULL);
			return CB_EXIT_NODEV;
		}
		*index = a;
		return CB_EXIT_OK;
	}
	colon = strchr(spec, ':');
	if (colon && isdigit((unsigned char)spec[0])) {
		char pbuf[32];
		size_t plen = (size_t)(colon - spec);
		if (plen >= sizeof pbuf) {
			cb_err("invalid device specification '%s' (expected N, P:D or a name)", spec);
			return CB_EXIT_USAGE;
		}
		memcpy(pbuf, spec, plen);
		pbuf[plen] = '\0';
		if (!cb_parse_ulong(pbuf, 0, 1000000, &a) || !cb_parse_ulong(colon + 1, 0, 1000000, &b)) {
			cb_err("invalid device specification '%s' (expected N, P:D or a name)", spec);
			return CB_EXIT_USAGE;
		}
		for (size_t i = 0; i < list->count; i++)
			if (list->items[i].pindex == a && list->items[i].dindex == b) {
				*index = i;
				return CB_EXIT_OK;
			}
		cb_err("no device %lu:%lu; %zu device%s available:", a, b, list->count,
		       list->count == 1 ? " is" : "s are");
		list_candidates(list, NULL);
		return CB_EXIT_NODEV;
	}
	/* A name: matched against device name, vendor and platform name. */
	bool *mark = cb_xcalloc(list->count, sizeof *mark);
	size_t hits = 0, hit = 0;
	for (size_t i = 0; i < list->count; i++) {
		const cb_device_ref *r = &list->items[i];
		if (cb_strcasestr_bool(r->name, spec) || cb_strcasestr_bool(r->vendor, spec) ||
		    cb_strcasestr_bool(r->platform_name, spec)) {
			mark[i] = true;
			hits++;
			hit = i;
		}
	}
	if (hits == 1) {
		free(mark);
		*index = hit;
		return CB_EXIT_OK;
	}
	if (hits == 0) {
		cb_err("no device matches '%s'; %zu device%s available:", spec, list->count,
		       list->count == 1 ? " is" : "s are");
		list_candidates(list, NULL);
		free(mark);
		return CB_EXIT_NODEV;
	}
	cb_err("device name '%s' is ambiguous; it matches %zu devices:", spec, hits);
	list_candidates(list, mark);
	fputs("clbanks: hint: use the index or P:D shown by --list\n", stderr);
	free(mark);
	return CB_EXIT_USAGE;
}

static bool has_extension(const char *exts, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = exts; (p = strstr(p, name)) != NULL; p += n)
		if ((p == exts || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

int cb_device_info_gather(const cb_device_ref *ref, cb_device_info *info)
{
	cl_device_id d = ref->device;
	cl_bool little = CL_TRUE;

	memset(info, 0, sizeof *info);
	info->platform_name = platform_string(ref->platform, CL_PLATFORM_NAME);
	info->platform_vendor = platform_string(ref->platform, CL_PLATFORM_VENDOR);
	info->platform_version = platform_string(ref->platform, CL_PLATFORM_VERSION);
	info->name = device_string(d, CL_DEVICE_NAME);
	info->vendor = device_string(d, CL_DEVICE_VENDOR);
	info->driver_version = device_string(d, CL_DRIVER_VERSION);
	info->device_version = device_string(d, CL_DEVICE_VERSION);
	info->opencl_c_version = device_string(d, CL_DEVICE_OPENCL_C_VERSION);
	info->extensions = device_string(d, CL_DEVICE_EXTENSIONS);
	clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof info->type, &info->type, NULL);
	device_uint(d, CL_DEVICE_MAX_COMPUTE_UNITS, &info->compute_units);
	device_uint(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, &info->max_clock_mhz);
	clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof info->local_mem_size,
			&info->local_mem_size, NULL);
	clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_TYPE, sizeof info->local_mem_type,
			&info->local_mem_type, NULL);
	clGetDeviceInfo(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof info->timer_resolution_ns,
			&info->timer_resolution_ns, NULL);
	clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof info->max_work_group_size,
			&info->max_work_group_size, NULL);
	clGetDeviceInfo(d, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL);
	info->little_endian = little == CL_TRUE;
	info->has_khr_subgroups = has_extension(info->extensions, "cl_khr_subgroups");

	cl_uint v;
	if (has_extension(info->extensions, "cl_nv_device_attribute_query")) {
		if (device_uint(d, CL_DEVICE_WARP_SIZE_NV, &v) && v >= 1 && v <= 1024) {
			info->subgroup_size = v;
			info->subgroup_source = "CL_DEVICE_WARP_SIZE_NV";
		}
		if (device_uint(d, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, &info->nv_cc_major) &&
		    device_uint(d, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, &info->nv_cc_minor))
			info->has_nv_cc = true;
	}
	if (has_extension(info->extensions, "cl_amd_device_attribute_query")) {
		if (!info->subgroup_size && device_uint(d, CL_DEVICE_WAVEFRONT_WIDTH_AMD, &v) &&
		    v >= 1 && v <= 1024) {
			info->subgroup_size = v;
			info->subgroup_source = "CL_DEVICE_WAVEFRONT_WIDTH_AMD";
		}
		if (device_uint(d, CL_DEVICE_LOCAL_MEM_BANKS_AMD, &v)) {
			info->has_reported_banks = true;
			info->reported_banks = v;
		}
		if (device_uint(d, CL_DEVICE_GFXIP_MAJOR_AMD, &info->amd_gfxip_major) &&
		    device_uint(d, CL_DEVICE_GFXIP_MINOR_AMD, &info->amd_gfxip_minor))
			info->has_amd_gfxip = true;
	}
	if (has_extension(info->extensions, "cl_intel_required_subgroup_size")) {
		size_t got = 0;
		if (clGetDeviceInfo(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof info->intel_subgroup_sizes,
				    info->intel_subgroup_sizes, &got) == CL_SUCCESS)
			info->intel_subgroup_count = (unsigned)(got / sizeof(size_t));
	}
	if (info->timer_resolution_ns == 0) {
		cb_warn("the driver reports a profiling timer resolution of 0 ns; assuming 1 ns");
		info->timer_resolution_ns = 1;
	}
	return CB_EXIT_OK;
}

void cb_device_info_free(cb_device_info *info)
{
	free(info->platform_name);
	free(info->platform_vendor);
	free(info->platform_version);
	free(info->name);
	free(info->vendor);
	free(info->driver_version);
	free(info->device_version);
	free(info->opencl_c_version);
	free(info->extensions);
	memset(info, 0, sizeof *info);
}

json_t *cb_device_info_to_json(const cb_device_info *info)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
		"platform", info->platform_name, "platform_vendor", info->platform_vendor,
		"platform_version", info->platform_version, "name", info->name,
		"vendor", info->vendor, "driver_version", info->driver_version,
		"device_version", info->device_version, "opencl_c_version", info->opencl_c_version,
		"type", cb_device_type_name(info->type));
	json_object_set_new(o, "compute_units", json_integer(info->compute_units));
	json_object_set_new(o, "max_clock_mhz", json_integer(info->max_clock_mhz));
	json_object_set_new(o, "local_mem_bytes", json_integer((json_int_t)info->local_mem_size));
	json_object_set_new(o, "local_mem_type",
		json_string(info->local_mem_type == CL_LOCAL ? "local" :
			    info->local_mem_type == CL_GLOBAL ? "global" : "none"));
	json_object_set_new(o, "timer_resolution_ns", json_integer((json_int_t)info->timer_resolution_ns));
	json_object_set_new(o, "max_work_group_size", json_integer((json_int_t)info->max_work_group_size));
	if (info->subgroup_size) {
		json_object_set_new(o, "subgroup_size", json_integer(info->subgroup_size));
		json_object_set_new(o, "subgroup_source", json_string(info->subgroup_source));
	}
	if (info->has_reported_banks)
		json_object_set_new(o, "reported_banks", json_pack("{s:I, s:s}",
			"value", (json_int_t)info->reported_banks, "source", "CL_DEVICE_LOCAL_MEM_BANKS_AMD"));
	if (info->has_nv_cc)
		json_object_set_new(o, "compute_capability",
			json_sprintf("%u.%u", info->nv_cc_major, info->nv_cc_minor));
	if (info->has_amd_gfxip)
		json_object_set_new(o, "gfxip", json_sprintf("%u.%u", info->amd_gfxip_major,
							     info->amd_gfxip_minor));
	if (info->intel_subgroup_count) {
		json_t *a = json_array();
		for (unsigned i = 0; i < info->intel_subgroup_count; i++)
			json_array_append_new(a, json_integer((json_int_t)info->intel_subgroup_sizes[i]));
		json_object_set_new(o, "intel_subgroup_sizes", a);
	}
	return o;
}
