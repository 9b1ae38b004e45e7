/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/device.h"
#include "measure/clerr.h"
#include "measure/watchdog.h"
#include "core/util.h"

#include <CL/cl_ext.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static cb_rc no_platform(cl_int status, cb_error *err)
{
	if (status == CL_SUCCESS)
		cb_error_set(err, CB_ERR_NODEV, "no OpenCL platform found (the ICD loader lists none)");
	else
		cb_error_call(err, CB_ERR_NODEV, "clGetPlatformIDs", status, "no OpenCL platform found");
	cb_error_detail(err, "hint: install an OpenCL driver (ICD), e.g. pocl-opencl-icd for the CPU "
			"or your GPU vendor's OpenCL package; check /etc/OpenCL/vendors and "
			"OCL_ICD_VENDORS");
	return CB_ERR_NODEV;
}

/* Adds the devices of platform P; false when the platform could not list them. */
static bool add_platform(cb_device_list *list, cl_platform_id plat, cl_uint p,
			 const cb_notifier *notify)
{
	cl_uint nd = 0;
	cl_int st = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
	if (st == CL_DEVICE_NOT_FOUND || (st == CL_SUCCESS && nd == 0))
		return true; /* a platform without devices is not an error */
	cl_device_id *devs = NULL;
	if (st == CL_SUCCESS) {
		devs = cb_xcalloc(nd, sizeof *devs);
		st = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, nd, devs, NULL);
	}
	char *pname = platform_string(plat, CL_PLATFORM_NAME);
	if (st != CL_SUCCESS) {
		/* One broken ICD must not hide the others. */
		cb_note(notify, CB_NOTE_WARNING, "platform %u (%s): clGetDeviceIDs: %s (%d); skipped",
			p, pname, cb_cl_strerror(st), (int)st);
		free(pname);
		free(devs);
		return false;
	}
	list->items = cb_xrealloc(list->items, (list->count + nd) * sizeof *list->items);
	for (cl_uint d = 0; d < nd; d++) {
		cb_device_ref *r = &list->items[list->count];
		r->platform = plat;
		r->device = devs[d];
		r->pindex = p;
		r->dindex = d;
		r->flat = (unsigned)list->count;
		r->platform_name = cb_xstrdup(pname);
		r->name = device_string(devs[d], CL_DEVICE_NAME);
		r->vendor = device_string(devs[d], CL_DEVICE_VENDOR);
		r->type = 0;
		if (clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof r->type, &r->type, NULL) != CL_SUCCESS)
			r->type = CL_DEVICE_TYPE_DEFAULT;
		list->count++;
	}
	free(pname);
	free(devs);
	return true;
}

static cb_rc enumerate(cb_device_list *list, const cb_notifier *notify, cb_error *err)
{
	cl_uint np = 0;
	memset(list, 0, sizeof *list);
	cl_int st = clGetPlatformIDs(0, NULL, &np);
	/* Loaders report "no platform" as -1001, and some as CL_INVALID_VALUE. */
	if (st == CL_PLATFORM_NOT_FOUND_KHR || (st == CL_SUCCESS && np == 0) ||
	    (st == CL_INVALID_VALUE && np == 0))
		return no_platform(st, err);
	if (st != CL_SUCCESS)
		return cb_error_call(err, CB_ERR_RUNTIME, "clGetPlatformIDs", st,
				     "cannot list the OpenCL platforms");
	cl_platform_id *plats = cb_xcalloc(np, sizeof *plats);
	st = clGetPlatformIDs(np, plats, NULL);
	if (st != CL_SUCCESS) {
		free(plats);
		return cb_error_call(err, CB_ERR_RUNTIME, "clGetPlatformIDs", st,
				     "cannot list the OpenCL platforms");
	}
	list->nplatforms = np;
	unsigned failed = 0;
	bool pocl = false;
	for (cl_uint p = 0; p < np; p++) {
		failed += !add_platform(list, plats[p], p, notify);
		char *name = platform_string(plats[p], CL_PLATFORM_NAME);
		pocl |= strstr(name, "Portable Computing Language") != NULL;
		free(name);
	}
	free(plats);
	if (list->count == 0) {
		cb_error_set(err, CB_ERR_NODEV, "no OpenCL device found on %u platform%s", np,
			     np == 1 ? "" : "s");
		if (pocl || failed)
			cb_error_detail(err, "hint: %s; PoCL needs a writable cache directory (set "
					"POCL_CACHE_DIR, or make $HOME/.cache writable)", failed ?
					"a platform failed to list its devices" :
					"PoCL lists no device when it cannot create its cache");
		return CB_ERR_NODEV;
	}
	return CB_OK;
}

/* The ICD loader starts every driver here: the slowest calls, and the first that can hang. */
cb_rc cb_devices_enumerate(cb_device_list *list, const cb_notifier *notify, cb_error *err)
{
	cb_watchdog_slow("listing the OpenCL devices (clGetPlatformIDs, clGetDeviceIDs)");
	cb_rc rc = enumerate(list, notify, err);
	cb_watchdog_arm(0, NULL);
	return rc;
}

size_t cb_device_default(const cb_device_list *list)
{
	static const cl_device_type order[] = { CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR };
	for (size_t k = 0; k < sizeof order / sizeof *order; k++)
		for (size_t i = 0; i < list->count; i++)
			if (list->items[i].type & order[k])
				return i;
	return 0;
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
		return cb_error_set(err, CB_ERR_USAGE, "invalid device specification '%s' (expected N, "
				    "P:D or a name)", spec);
	memcpy(pbuf, spec, plen);
	pbuf[plen] = '\0';
	if (!cb_parse_ulong(pbuf, 0, 1000000, &a) || !cb_parse_ulong(colon + 1, 0, 1000000, &b))
		return cb_error_set(err, CB_ERR_USAGE, "invalid device specification '%s' (expected N, "
				    "P:D or a name)", spec);
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].pindex == a && list->items[i].dindex == b) {
			*index = i;
			return CB_OK;
		}
	return no_such_device(list, err, "no device %lu:%lu", a, b);
}

/* A name: matched against device name, vendor and platform name. */
static cb_rc select_name(const cb_device_list *list, const char *spec, size_t *index,
			 cb_error *err)
{
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
	cb_rc rc = CB_OK;
	if (hits == 1) {
		*index = hit;
	} else if (hits == 0) {
		rc = no_such_device(list, err, "no device matches '%s'", spec);
	} else {
		rc = cb_error_set(err, CB_ERR_USAGE, "device name '%s' is ambiguous; it matches %zu "
				  "devices (use the index or P:D shown by --list):", spec, hits);
		list_candidates(list, mark, err);
	}
	free(mark);
	return rc;
}

cb_rc cb_device_select(const cb_device_list *list, const char *spec, size_t *index, cb_error *err)
{
	unsigned long a;
	if (!spec || !*spec)
		return cb_error_set(err, CB_ERR_USAGE, "empty device specification");
	if (cb_parse_ulong(spec, 0, 1000000, &a)) {
		if (a >= list->count)
			return no_such_device(list, err, "device index %lu out of range", a);
		*index = a;
		return CB_OK;
	}
	const char *colon = strchr(spec, ':');
	if (colon && isdigit((unsigned char)spec[0]))
		return select_pd(list, spec, colon, index, err);
	return select_name(list, spec, index, err);
}

static bool has_extension(const char *exts, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = exts; (p = strstr(p, name)) != NULL; p += n)
		if ((p == exts || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* A fixed-size property; a driver that refuses it leaves *OUT zeroed (unknown). */
static void device_value(cl_device_id d, cl_device_info what, void *out, size_t size)
{
	size_t got = 0;
	if (clGetDeviceInfo(d, what, size, out, &got) != CL_SUCCESS || got != size)
		memset(out, 0, size);
}

/* "OpenCL 1.2 ..." -> 1, 2; 0, 0 when the string does not say. */
static void parse_version(const char *s, unsigned *major, unsigned *minor)
{
	*major = *minor = 0;
	if (sscanf(s, "OpenCL %u.%u", major, minor) != 2)
		*major = *minor = 0;
}

static void gather_vendor(cl_device_id d, cb_device_info *info)
{
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
		if (device_uint(d, CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD, &v) && v >= 1024)
			info->local_mem_per_cu = v;
		if (device_uint(d, CL_DEVICE_LOCAL_MEM_BANKS_AMD, &v)) {
			info->has_reported_banks = true;
			info->reported_banks = v;
		}
		if (device_uint(d, CL_DEVICE_GFXIP_MAJOR_AMD, &info->amd_gfxip_major) &&
		    device_uint(d, CL_DEVICE_GFXIP_MINOR_AMD, &info->amd_gfxip_minor))
			info->has_amd_gfxip = true;
	}
	cl_uint slices, subslices;
	if (has_extension(info->extensions, "cl_intel_device_attribute_query") &&
	    device_uint(d, CL_DEVICE_NUM_SLICES_INTEL, &slices) &&
	    device_uint(d, CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL, &subslices) &&
	    slices * subslices > 0) {
		/* Intel counts EUs as compute units; shared local memory belongs to a sub-slice. */
		info->slm_units = slices * subslices;
		info->slm_unit = "sub-slice";
	}
	if (has_extension(info->extensions, "cl_intel_required_subgroup_size")) {
		size_t got = 0;
		if (clGetDeviceInfo(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof info->intel_subgroup_sizes,
				    info->intel_subgroup_sizes, &got) == CL_SUCCESS)
			info->intel_subgroup_count = (unsigned)(got / sizeof(size_t));
	}
}

void cb_device_info_gather(const cb_device_ref *ref, cb_device_info *info,
			   const cb_notifier *notify)
{
	cl_device_id d = ref->device;
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
	parse_version(info->platform_version, &info->platform_major, &info->platform_minor);
	parse_version(info->device_version, &info->device_major, &info->device_minor);
	device_value(d, CL_DEVICE_TYPE, &info->type, sizeof info->type);
	device_value(d, CL_DEVICE_MAX_COMPUTE_UNITS, &info->compute_units, sizeof info->compute_units);
	device_value(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, &info->max_clock_mhz, sizeof info->max_clock_mhz);
	device_value(d, CL_DEVICE_LOCAL_MEM_SIZE, &info->local_mem_size, sizeof info->local_mem_size);
	device_value(d, CL_DEVICE_LOCAL_MEM_TYPE, &info->local_mem_type, sizeof info->local_mem_type);
	device_value(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION, &info->timer_resolution_ns,
		     sizeof info->timer_resolution_ns);
	device_value(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, &info->max_work_group_size,
		     sizeof info->max_work_group_size);
	cl_bool little = CL_TRUE;
	device_value(d, CL_DEVICE_ENDIAN_LITTLE, &little, sizeof little);
	info->little_endian = little == CL_TRUE;
	info->has_khr_subgroups = has_extension(info->extensions, "cl_khr_subgroups");
	info->has_int64_atomics = has_extension(info->extensions, "cl_khr_int64_base_atomics");
	if (info->device_major * 10 + info->device_minor >= 21)
		device_value(d, 0x105C /* CL_DEVICE_MAX_NUM_SUB_GROUPS */, &info->max_num_sub_groups,
			     sizeof info->max_num_sub_groups);
	info->slm_units = info->compute_units;
	info->slm_unit = "compute unit";
	gather_vendor(d, info);
	if (info->slm_unit[0] == 'c' && (info->type & CL_DEVICE_TYPE_GPU) &&
	    cb_strcasestr_bool(info->vendor, "intel"))
		info->slm_unit = "EU (Intel's compute unit; its sub-slice is not known)";
	if (info->timer_resolution_ns == 0) {
		cb_note(notify, CB_NOTE_WARNING,
			"the driver reports a profiling timer resolution of 0 ns; assuming 1 ns");
		info->timer_resolution_ns = 1;
	}
}

bool cb_device_supports_12(const cb_device_info *info)
{
	unsigned pv = info->platform_major * 10 + info->platform_minor;
	unsigned dv = info->device_major * 10 + info->device_minor;
	/* An unreadable version string is given the benefit of the doubt. */
	return (pv == 0 || pv >= 12) && (dv == 0 || dv >= 12);
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

static char *dup_or_null(const char *s)
{
	return s ? cb_xstrdup(s) : NULL;
}

static char *dotted(unsigned a, unsigned b)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%u.%u", a, b);
	return cb_xstrdup(buf);
}

void cb_device_info_to_doc(const cb_device_info *info, cb_device_doc *doc)
{
	doc->platform = dup_or_null(info->platform_name);
	doc->platform_vendor = dup_or_null(info->platform_vendor);
	doc->platform_version = dup_or_null(info->platform_version);
	doc->name = dup_or_null(info->name);
	doc->vendor = dup_or_null(info->vendor);
	doc->driver_version = dup_or_null(info->driver_version);
	doc->device_version = dup_or_null(info->device_version);
	doc->opencl_c_version = dup_or_null(info->opencl_c_version);
	doc->type = cb_xstrdup(cb_device_type_name(info->type));
	doc->compute_units = info->compute_units;
	doc->max_clock_mhz = info->max_clock_mhz;
	doc->local_mem_bytes = (long long)info->local_mem_size;
	doc->local_mem_type = cb_xstrdup(info->local_mem_type == CL_LOCAL ? "local" :
					 info->local_mem_type == CL_GLOBAL ? "global" : "none");
	doc->timer_resolution_ns = (long long)info->timer_resolution_ns;
	doc->max_work_group_size = (long long)info->max_work_group_size;
	doc->subgroup_size = info->subgroup_size;
	doc->subgroup_source = dup_or_null(info->subgroup_source);
	if (info->has_reported_banks) {
		doc->has_reported_banks = true;
		doc->reported_banks = info->reported_banks;
		doc->reported_banks_source = cb_xstrdup("CL_DEVICE_LOCAL_MEM_BANKS_AMD");
	}
	if (info->has_nv_cc)
		doc->compute_capability = dotted(info->nv_cc_major, info->nv_cc_minor);
	if (info->has_amd_gfxip)
		doc->gfxip = dotted(info->amd_gfxip_major, info->amd_gfxip_minor);
	doc->slm_units = info->slm_units ? (long long)info->slm_units : CB_UNSET;
	doc->local_mem_per_cu_bytes = info->local_mem_per_cu ? (long long)info->local_mem_per_cu :
		CB_UNSET;
	doc->slm_unit = cb_xstrdup(info->slm_unit ? info->slm_unit : "compute unit");
	for (unsigned i = 0; i < info->intel_subgroup_count && i < 8; i++)
		doc->intel_subgroup_sizes[doc->n_intel_subgroup_sizes++] =
			(unsigned)info->intel_subgroup_sizes[i];
}

/* S as lower-case letters and digits, any other run as one '-' (none at either end); the marks
 * (R), (TM) and (C) are dropped. Locale-free: driver names are ASCII, the rest is a separator. */
static void slugify(const char *s, char *out, size_t n)
{
	static const char *const marks[] = { "(r)", "(tm)", "(c)" };
	size_t len = 0;
	bool dash = false;
	for (const char *p = s; *p && len + 2 < n; p++) {
		size_t skip = 0;
		for (size_t k = 0; k < sizeof marks / sizeof *marks && !skip; k++)
			if (strncasecmp(p, marks[k], strlen(marks[k])) == 0)
				skip = strlen(marks[k]);
		char c = *p;
		bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
		if (skip || !alnum) {
			p += skip ? skip - 1 : 0;
			dash = true;
			continue;
		}
		if (dash && len)
			out[len++] = '-';
		out[len++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
		dash = false;
	}
	out[len] = '\0';
}

/* The vendor's short name: its first word, except where that word is not the name people use. */
static void vendor_word(const char *vendor, char *out, size_t n)
{
	static const struct { const char *match, *word; } known[] = {
		{ "advanced micro devices", "amd" }, { "authenticamd", "amd" },
		{ "genuineintel", "intel" },
	};
	for (size_t k = 0; k < sizeof known / sizeof *known; k++)
		if (cb_strcasestr_bool(vendor, known[k].match)) {
			snprintf(out, n, "%s", known[k].word);
			return;
		}
	slugify(vendor, out, n);
	out[strcspn(out, "-")] = '\0';
}

void cb_device_file_stem(const char *vendor, const char *name, char *buf, size_t n)
{
	char v[24], d[128];
	vendor_word(vendor ? vendor : "", v, sizeof v);
	slugify(name ? name : "", d, sizeof d);
	size_t vl = strlen(v);
	const char *rest = d;
	/* "NVIDIA H200" from NVIDIA: the vendor once, not twice. */
	if (vl && strncmp(d, v, vl) == 0 && (d[vl] == '-' || d[vl] == '\0'))
		rest = d + vl + (d[vl] == '-');
	snprintf(buf, n, "%s%s%s", v, vl && *rest ? "-" : "", rest);
	size_t len = strlen(buf);
	while (len && buf[len - 1] == '-') /* cut inside a separator */
		buf[--len] = '\0';
	if (!len)
		snprintf(buf, n, "device");
}
