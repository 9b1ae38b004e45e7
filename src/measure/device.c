/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/device.h"
#include "measure/clerr.h"
#include "measure/watchdog.h"
#include "core/device_fields.h"
#include "core/util.h"

#include <CL/cl_ext.h>
#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The length of the valid UTF-8 sequence at S (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF), 0 when there is none. */
static size_t utf8_seq(const unsigned char *s)
{
	/* clang-format off */
	static const struct { unsigned char lo, hi, lo2, hi2; size_t len; } leads[] = {
		{ 0x00, 0x7f, 0, 0, 1 }, { 0xc2, 0xdf, 0x80, 0xbf, 2 }, { 0xe0, 0xe0, 0xa0, 0xbf, 3 },
		{ 0xe1, 0xec, 0x80, 0xbf, 3 }, { 0xed, 0xed, 0x80, 0x9f, 3 }, { 0xee, 0xef, 0x80, 0xbf, 3 },
		{ 0xf0, 0xf0, 0x90, 0xbf, 4 }, { 0xf1, 0xf3, 0x80, 0xbf, 4 }, { 0xf4, 0xf4, 0x80, 0x8f, 4 },
	};
	/* clang-format on */
	for (size_t k = 0; k < sizeof leads / sizeof *leads; k++) {
		if (s[0] < leads[k].lo || s[0] > leads[k].hi)
			continue;
		if (leads[k].len > 1 && (s[1] < leads[k].lo2 || s[1] > leads[k].hi2))
			return 0;
		for (size_t i = 2; i < leads[k].len; i++)
			if (s[i] < 0x80 || s[i] > 0xbf)
				return 0;
		return leads[k].len;
	}
	return 0;
}

/* Driver strings go into documents, which hold UTF-8 only: a byte that is not part of a
 * valid sequence becomes '?' (the document's writer would drop the whole string). */
static char *valid_utf8(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p;) {
		size_t n = utf8_seq(p);
		if (n == 0)
			*p++ = '?';
		else
			p += n;
	}
	return s;
}

/* A string property of a platform (PLATFORM) or a device, or a copy of "?" when the driver
 * refuses it (drivers differ, never crash). */
static char *info_string(cl_platform_id platform, cl_device_id device, cl_uint what)
{
	size_t n = 0;
	cl_int st = platform ? clGetPlatformInfo(platform, what, 0, NULL, &n)
			     : clGetDeviceInfo(device, what, 0, NULL, &n);
	if (st != CL_SUCCESS || n == 0)
		return cb_xstrdup("?");
	char *s = cb_xcalloc(1, n + 1);
	st = platform ? clGetPlatformInfo(platform, what, n, s, NULL)
		      : clGetDeviceInfo(device, what, n, s, NULL);
	if (st != CL_SUCCESS) {
		free(s);
		return cb_xstrdup("?");
	}
	return s;
}

static char *platform_string(cl_platform_id p, cl_platform_info what)
{
	return valid_utf8(info_string(p, NULL, what));
}

static char *device_string(cl_device_id d, cl_device_info what)
{
	char *s = info_string(NULL, d, what);
	/* Some drivers pad names with spaces. */
	size_t len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return valid_utf8(s);
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
		cb_error_set(err, CB_ERR_NODEV,
			     "no OpenCL platform found (the ICD loader lists none)");
	else
		cb_error_call(err, CB_ERR_NODEV, "clGetPlatformIDs", status,
			      "no OpenCL platform found");
	cb_error_detail(err,
			"hint: install an OpenCL driver (ICD), e.g. pocl-opencl-icd for the CPU "
			"or your GPU vendor's OpenCL package; check /etc/OpenCL/vendors and "
			"OCL_ICD_VENDORS");
	return CB_ERR_NODEV;
}

/* Adds the devices of platform P; false when the platform could not list them. */
static bool add_platform(cb_device_list *list, cl_platform_id plat, cl_uint p,
			 const cb_notifier *notify)
{
	cl_uint nd = 0;
	cb_platform_ref *pr = &list->platforms[p];
	pr->name = platform_string(plat, CL_PLATFORM_NAME);
	pr->vendor = platform_string(plat, CL_PLATFORM_VENDOR);
	pr->suffix = platform_string(plat, CL_PLATFORM_ICD_SUFFIX_KHR);
	cl_int st = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
	if (st == CL_DEVICE_NOT_FOUND || (st == CL_SUCCESS && nd == 0))
		return true; /* a platform without devices is not an error */
	cl_device_id *devs = NULL;
	if (st == CL_SUCCESS) {
		devs = cb_xcalloc(nd, sizeof *devs);
		st = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, nd, devs, NULL);
	}
	const char *pname = pr->name;
	if (st != CL_SUCCESS) {
		/* One broken ICD must not hide the others. */
		cb_note(notify, CB_NOTE_WARNING,
			"platform %u (%s): clGetDeviceIDs: %s (%d); skipped", p, pname,
			cb_cl_strerror(st), (int)st);
		pr->failed = true;
		free(devs);
		return false;
	}
	pr->ndevices = nd;
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
		if (clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof r->type, &r->type, NULL) !=
		    CL_SUCCESS)
			r->type = CL_DEVICE_TYPE_DEFAULT;
		list->count++;
	}
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
	list->platforms = cb_xcalloc(np, sizeof *list->platforms);
	unsigned failed = 0;
	bool pocl = false;
	for (cl_uint p = 0; p < np; p++) {
		failed += !add_platform(list, plats[p], p, notify);
		pocl |= strstr(list->platforms[p].name, "Portable Computing Language") != NULL;
	}
	free(plats);
	if (list->count == 0) {
		cb_error_set(err, CB_ERR_NODEV, "no OpenCL device found on %u platform%s", np,
			     np == 1 ? "" : "s");
		if (pocl || failed)
			cb_error_detail(
				err,
				"hint: %s; PoCL needs a writable cache directory (set "
				"POCL_CACHE_DIR, or make $HOME/.cache writable)",
				failed ? "a platform failed to list its devices"
				       : "PoCL lists no device when it cannot create its cache");
		return CB_ERR_NODEV;
	}
	return CB_OK;
}

/* The ICD loader starts every driver here: the slowest calls, and the first that can hang. */
cb_rc cb_devices_enumerate_all(cb_device_list *list, const cb_notifier *notify, cb_error *err)
{
	cb_watchdog_slow("listing the OpenCL devices (clGetPlatformIDs, clGetDeviceIDs)");
	cb_rc rc = enumerate(list, notify, err);
	cb_watchdog_arm(0, NULL);
	return rc;
}

cb_rc cb_devices_enumerate(cb_device_list *list, const cb_notifier *notify, cb_error *err)
{
	cb_rc rc = cb_devices_enumerate_all(list, notify, err);
	if (rc != CB_OK)
		cb_devices_free(list);
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
	for (unsigned p = 0; p < list->nplatforms; p++) {
		free(list->platforms[p].name);
		free(list->platforms[p].vendor);
		free(list->platforms[p].suffix);
	}
	free(list->platforms);
	free(list->items);
	memset(list, 0, sizeof *list);
}

static bool has_extension(const char *exts, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = exts; (p = strstr(p, name)) != NULL; p += n)
		if ((p == exts || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* The device properties clbanks asks for, one row per parameter (in the manner of clinfo's
 * catalogue): how to read it, what it needs, where it goes, and which values make sense. */
typedef enum {
	P_PSTR,  /* platform string */
	P_STR,   /* device string, trailing blanks cut */
	P_UINT,  /* cl_uint */
	P_ULONG, /* cl_ulong, and cl_bitfield (CL_DEVICE_TYPE) */
	P_SIZE,  /* size_t */
	P_BOOL,  /* cl_bool, into a bool */
	P_SIZES, /* size_t[8], the count into intel_subgroup_count */
} prop_type;

enum {
	R_PNAME,
	R_PVENDOR,
	R_PVERSION,
	R_NAME,
	R_VENDOR,
	R_DRIVER,
	R_VERSION,
	R_C_VERSION,
	R_EXTENSIONS,
	R_TYPE,
	R_UNITS,
	R_CLOCK,
	R_LOCAL,
	R_LOCAL_TYPE,
	R_TIMER,
	R_WORK_GROUP,
	R_ENDIAN,
	R_SUB_GROUPS,
	R_WARP_NV,
	R_CC_MAJOR_NV,
	R_CC_MINOR_NV,
	R_WAVEFRONT_AMD,
	R_LOCAL_PER_CU_AMD,
	R_BANKS_AMD,
	R_GFXIP_MAJOR_AMD,
	R_GFXIP_MINOR_AMD,
	R_SLICES_INTEL,
	R_SUB_SLICES_INTEL,
	R_SUBGROUP_SIZES_INTEL,
	NPROPS
};

#define NO_DOC ((size_t)-1)
typedef struct {
	cl_uint param;
	const char *name;
	prop_type type;
	const char *ext;  /* the extension it needs, or NULL */
	unsigned version; /* the device's OpenCL version it needs (21: 2.1), or 0 */
	size_t info;      /* its place in cb_device_info */
	size_t doc;       /* the cb_device_doc member it is written to as it is, or NO_DOC */
	unsigned lo, hi;  /* without a document member: the values that make sense (hi 0: any) */
} dev_prop;

#define INFO(m) offsetof(cb_device_info, m)
#define DOC(m) offsetof(cb_device_doc, m)
/* clang-format off */
#define ROW(id, t, info, doc) { id, #id, t, NULL, 0, INFO(info), doc, 0, 0 }
#define EXT(id, t, ext, info, lo, hi) { id, #id, t, ext, 0, INFO(info), NO_DOC, lo, hi }
/* clang-format on */
/* Each vendor's attribute query extension names its rows once. (Not through EXT: an argument
 * passed on is expanded first, and #id would name the number.) */
#define NV_EXT "cl_nv_device_attribute_query"
#define AMD_EXT "cl_amd_device_attribute_query"
#define INTEL_EXT "cl_intel_device_attribute_query"
/* clang-format off */
#define NV(id, t, info, lo, hi) { id, #id, t, NV_EXT, 0, INFO(info), NO_DOC, lo, hi }
#define AMD(id, t, info, lo, hi) { id, #id, t, AMD_EXT, 0, INFO(info), NO_DOC, lo, hi }
#define INTEL(id, t, info, lo, hi) { id, #id, t, INTEL_EXT, 0, INFO(info), NO_DOC, lo, hi }
/* clang-format on */
/* clang-format off */
static const dev_prop props[NPROPS] = {
	[R_PNAME] = ROW(CL_PLATFORM_NAME, P_PSTR, platform_name, DOC(platform)),
	[R_PVENDOR] = ROW(CL_PLATFORM_VENDOR, P_PSTR, platform_vendor, DOC(platform_vendor)),
	[R_PVERSION] = ROW(CL_PLATFORM_VERSION, P_PSTR, platform_version, DOC(platform_version)),
	[R_NAME] = ROW(CL_DEVICE_NAME, P_STR, name, DOC(name)),
	[R_VENDOR] = ROW(CL_DEVICE_VENDOR, P_STR, vendor, DOC(vendor)),
	[R_DRIVER] = ROW(CL_DRIVER_VERSION, P_STR, driver_version, DOC(driver_version)),
	[R_VERSION] = ROW(CL_DEVICE_VERSION, P_STR, device_version, DOC(device_version)),
	[R_C_VERSION] = ROW(CL_DEVICE_OPENCL_C_VERSION, P_STR, opencl_c_version,
			    DOC(opencl_c_version)),
	[R_EXTENSIONS] = ROW(CL_DEVICE_EXTENSIONS, P_STR, extensions, NO_DOC),
	[R_TYPE] = ROW(CL_DEVICE_TYPE, P_ULONG, type, NO_DOC),
	[R_UNITS] = ROW(CL_DEVICE_MAX_COMPUTE_UNITS, P_UINT, compute_units, DOC(compute_units)),
	[R_CLOCK] = ROW(CL_DEVICE_MAX_CLOCK_FREQUENCY, P_UINT, max_clock_mhz, DOC(max_clock_mhz)),
	[R_LOCAL] = ROW(CL_DEVICE_LOCAL_MEM_SIZE, P_ULONG, local_mem_size, DOC(local_mem_bytes)),
	[R_LOCAL_TYPE] = ROW(CL_DEVICE_LOCAL_MEM_TYPE, P_UINT, local_mem_type, NO_DOC),
	[R_TIMER] = ROW(CL_DEVICE_PROFILING_TIMER_RESOLUTION, P_SIZE, timer_resolution_ns,
			DOC(timer_resolution_ns)),
	[R_WORK_GROUP] = ROW(CL_DEVICE_MAX_WORK_GROUP_SIZE, P_SIZE, max_work_group_size,
			     DOC(max_work_group_size)),
	[R_ENDIAN] = ROW(CL_DEVICE_ENDIAN_LITTLE, P_BOOL, little_endian, NO_DOC),
	[R_SUB_GROUPS] = { 0x105C, "CL_DEVICE_MAX_NUM_SUB_GROUPS", P_UINT, NULL, 21,
			   INFO(max_num_sub_groups), NO_DOC, 0, 0 },
	[R_WARP_NV] = NV(CL_DEVICE_WARP_SIZE_NV, P_UINT, nv_warp, 1, 1024),
	[R_CC_MAJOR_NV] = NV(CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, P_UINT, nv_cc_major, 0, 0),
	[R_CC_MINOR_NV] = NV(CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, P_UINT, nv_cc_minor, 0, 0),
	[R_WAVEFRONT_AMD] = AMD(CL_DEVICE_WAVEFRONT_WIDTH_AMD, P_UINT, amd_wavefront, 1, 1024),
	[R_LOCAL_PER_CU_AMD] = { CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD,
				 "CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD", P_UINT, AMD_EXT, 0,
				 INFO(local_mem_per_cu), DOC(local_mem_per_cu_bytes), 0, 0 },
	[R_BANKS_AMD] = AMD(CL_DEVICE_LOCAL_MEM_BANKS_AMD, P_UINT, reported_banks, 0, 0),
	[R_GFXIP_MAJOR_AMD] = AMD(CL_DEVICE_GFXIP_MAJOR_AMD, P_UINT, amd_gfxip_major, 0, 0),
	[R_GFXIP_MINOR_AMD] = AMD(CL_DEVICE_GFXIP_MINOR_AMD, P_UINT, amd_gfxip_minor, 0, 0),
	[R_SLICES_INTEL] = INTEL(CL_DEVICE_NUM_SLICES_INTEL, P_UINT, intel_slices, 0, 0),
	[R_SUB_SLICES_INTEL] = INTEL(CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL, P_UINT,
				     intel_sub_slices, 0, 0),
	[R_SUBGROUP_SIZES_INTEL] = EXT(CL_DEVICE_SUB_GROUP_SIZES_INTEL, P_SIZES,
				       "cl_intel_required_subgroup_size", intel_subgroup_sizes, 0, 0),
};
/* clang-format on */

/* The range a document accepts for each integer member of its device section. */
#define DOC_NO_STR(m)
#define DOC_RANGE(m, lo, hi) { DOC(m), lo, hi },
/* clang-format off */
static const struct { size_t doc; double lo, hi; } doc_ranges[] = {
	CB_DEVICE_DOC_FIELDS(DOC_NO_STR, DOC_RANGE)
};
/* clang-format on */

static size_t type_size(prop_type t)
{
	static const size_t sizes[] = { [P_UINT] = sizeof(cl_uint),
					[P_ULONG] = sizeof(cl_ulong),
					[P_SIZE] = sizeof(size_t),
					[P_BOOL] = sizeof(bool),
					[P_SIZES] = 8 * sizeof(size_t) };
	return sizes[t];
}

/* The range a document accepts for member DOC; false when it has none (a string). */
static bool doc_range(size_t doc, double *lo, double *hi)
{
	for (size_t i = 0; i < sizeof doc_ranges / sizeof *doc_ranges; i++)
		if (doc_ranges[i].doc == doc) {
			*lo = doc_ranges[i].lo;
			*hi = doc_ranges[i].hi;
			return true;
		}
	return false;
}

/* The range of P's values that make sense: its document member's, else its own. */
static bool prop_range(const dev_prop *p, double *lo, double *hi)
{
	if (p->doc != NO_DOC && doc_range(p->doc, lo, hi))
		return true;
	*lo = p->lo;
	*hi = p->hi;
	return p->hi > 0;
}

static uint64_t prop_value(const cb_device_info *info, const dev_prop *p)
{
	const char *at = (const char *)info + p->info;
	switch (p->type) {
	case P_UINT:
		return *(const cl_uint *)at;
	case P_ULONG:
		return *(const cl_ulong *)at;
	case P_SIZE:
		return *(const size_t *)at;
	case P_BOOL:
		return *(const bool *)at;
	default:
		return 0;
	}
}

/* Reads property R into INFO; false when the driver refuses it (the value stays zero). */
static bool read_prop(const cb_device_ref *ref, cb_device_info *info, const dev_prop *p)
{
	char *at = (char *)info + p->info;
	if (p->type == P_PSTR || p->type == P_STR) {
		*(char **)at = p->type == P_PSTR ? platform_string(ref->platform, p->param)
						 : device_string(ref->device, p->param);
		return strcmp(*(char **)at, "?") != 0;
	}
	size_t got = 0, size = type_size(p->type);
	cl_bool b = CL_FALSE;
	void *out = p->type == P_BOOL ? (void *)&b : (void *)at;
	cl_int st = clGetDeviceInfo(ref->device, p->param, p->type == P_BOOL ? sizeof b : size, out,
				    &got);
	bool ok = st == CL_SUCCESS &&
		  (p->type == P_SIZES ? got % sizeof(size_t) == 0
				      : got == (p->type == P_BOOL ? sizeof b : size));
	if (p->type == P_BOOL)
		*(bool *)at = ok && b == CL_TRUE;
	else if (!ok)
		memset(at, 0, size);
	if (ok && p->type == P_SIZES)
		info->intel_subgroup_count = (unsigned)(got / sizeof(size_t));
	return ok;
}

static void add_warning(cb_device_info *info, const cb_notifier *notify, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_warning(cb_device_info *info, const cb_notifier *notify, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	cb_note(notify, CB_NOTE_WARNING, "%s", buf);
	info->warnings = cb_xrealloc(info->warnings,
				     (info->nwarnings + 1) * sizeof *info->warnings);
	info->warnings[info->nwarnings++] = cb_xstrdup(buf);
}

/* A value outside its range is unknown, with a warning; zero is a driver's "not known". */
static void check_prop(cb_device_info *info, int r, const cb_notifier *notify)
{
	const dev_prop *p = &props[r];
	double lo, hi;
	uint64_t v = prop_value(info, p);
	if (p->type == P_PSTR || p->type == P_STR || p->type == P_SIZES ||
	    !prop_range(p, &lo, &hi) || ((double)v >= lo && (double)v <= hi))
		return;
	memset((char *)info + p->info, 0, type_size(p->type));
	info->known &= ~(UINT64_C(1) << r);
	if (v == 0)
		return;
	info->rejected |= UINT64_C(1) << r;
	add_warning(info, notify,
		    "the driver reports %s = %" PRIu64 ", outside %.0f to %.0f; "
		    "recorded as unknown",
		    p->name, v, lo, hi);
}

/* The rows that need an extension or a version come after the strings that tell. */
static void gather_props(const cb_device_ref *ref, cb_device_info *info, bool conditional,
			 const cb_notifier *notify)
{
	for (int r = 0; r < NPROPS; r++) {
		const dev_prop *p = &props[r];
		if ((p->ext || p->version) != conditional)
			continue;
		if ((p->ext && !has_extension(info->extensions, p->ext)) ||
		    (p->version && info->device_major * 10 + info->device_minor < p->version))
			continue;
		if (read_prop(ref, info, p))
			info->known |= UINT64_C(1) << r;
		check_prop(info, r, notify);
	}
}

static bool known(const cb_device_info *info, int r)
{
	return info->known >> r & 1;
}

/* "OpenCL 1.2 ..." -> 1, 2; 0, 0 when the string does not say. */
static void parse_version(const char *s, unsigned *major, unsigned *minor)
{
	*major = *minor = 0;
	if (sscanf(s, "OpenCL %u.%u", major, minor) != 2)
		*major = *minor = 0;
}

/* What the vendors' values say together: the sub-group size, the units of local memory. */
static void derive_vendor(cb_device_info *info, const cb_notifier *notify)
{
	static const int sizes[] = { R_WARP_NV, R_WAVEFRONT_AMD };
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes && !info->subgroup_size; i++)
		if (known(info, sizes[i])) {
			info->subgroup_size = (unsigned)prop_value(info, &props[sizes[i]]);
			info->subgroup_source = props[sizes[i]].name;
		}
	info->has_nv_cc = known(info, R_CC_MAJOR_NV) && known(info, R_CC_MINOR_NV);
	info->has_amd_gfxip = known(info, R_GFXIP_MAJOR_AMD) && known(info, R_GFXIP_MINOR_AMD);
	info->has_reported_banks = known(info, R_BANKS_AMD);
	info->slm_units = info->compute_units;
	info->slm_unit = "compute unit";
	uint64_t units = (uint64_t)info->intel_slices * info->intel_sub_slices;
	if (known(info, R_SLICES_INTEL) && known(info, R_SUB_SLICES_INTEL) && units > 0) {
		double lo = 0, hi = 0;
		doc_range(DOC(slm_units), &lo, &hi);
		if ((double)units < lo || (double)units > hi) {
			add_warning(info, notify,
				    "the driver reports %" PRIu64 " sub-slices, outside "
				    "%.0f to %.0f; recorded as unknown",
				    units, lo, hi);
		} else {
			/* Intel counts EUs as compute units; shared local memory belongs to a
			 * sub-slice. */
			info->slm_units = (cl_uint)units;
			info->slm_unit = "sub-slice";
		}
	}
}

void cb_device_info_gather(const cb_device_ref *ref, cb_device_info *info,
			   const cb_notifier *notify)
{
	memset(info, 0, sizeof *info);
	cb_watchdog_call("reading the device's properties (clGetPlatformInfo, clGetDeviceInfo)");
	gather_props(ref, info, false, notify);
	parse_version(info->platform_version, &info->platform_major, &info->platform_minor);
	parse_version(info->device_version, &info->device_major, &info->device_minor);
	gather_props(ref, info, true, notify);
	cb_watchdog_arm(0, NULL);
	info->has_khr_subgroups = has_extension(info->extensions, "cl_khr_subgroups");
	info->has_int64_atomics = has_extension(info->extensions, "cl_khr_int64_base_atomics");
	derive_vendor(info, notify);
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
	for (int r = 0; r < NPROPS; r++)
		if (props[r].type == P_PSTR || props[r].type == P_STR)
			free(*(char **)((char *)info + props[r].info));
	for (unsigned i = 0; i < info->nwarnings; i++)
		free(info->warnings[i]);
	free(info->warnings);
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

/* The members the table fills as they are: strings, and numbers the reader accepts (an
 * unknown zero outside the document's range, or a rejected value, is left out). */
static void props_to_doc(const cb_device_info *info, cb_device_doc *doc)
{
	for (int r = 0; r < NPROPS; r++) {
		const dev_prop *p = &props[r];
		char *to = (char *)doc + p->doc;
		double lo, hi;
		if (p->doc == NO_DOC)
			continue;
		if (p->type == P_PSTR || p->type == P_STR) {
			*(char **)to = dup_or_null(*(char *const *)((const char *)info + p->info));
			continue;
		}
		uint64_t v = prop_value(info, p);
		bool fits = prop_range(p, &lo, &hi) && (double)v >= lo && (double)v <= hi;
		*(long long *)to = fits && !(info->rejected >> r & 1) ? (long long)v : CB_UNSET;
	}
}

void cb_device_info_to_doc(const cb_device_info *info, cb_device_doc *doc)
{
	props_to_doc(info, doc);
	doc->type = cb_xstrdup(cb_device_type_name(info->type));
	doc->local_mem_type = cb_xstrdup(info->local_mem_type == CL_LOCAL    ? "local"
					 : info->local_mem_type == CL_GLOBAL ? "global"
									     : "none");
	doc->subgroup_size = info->subgroup_size;
	doc->subgroup_source = dup_or_null(info->subgroup_source);
	if (info->has_reported_banks) {
		doc->has_reported_banks = true;
		doc->reported_banks = info->reported_banks;
		doc->reported_banks_source = cb_xstrdup(props[R_BANKS_AMD].name);
	}
	if (info->has_nv_cc)
		doc->compute_capability = dotted(info->nv_cc_major, info->nv_cc_minor);
	if (info->has_amd_gfxip)
		doc->gfxip = dotted(info->amd_gfxip_major, info->amd_gfxip_minor);
	doc->slm_units = info->slm_units ? (long long)info->slm_units : CB_UNSET;
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
		bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			     (c >= 'A' && c <= 'Z');
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
	/* clang-format off */
	static const struct { const char *match, *word; } known[] = {
		{ "advanced micro devices", "amd" }, { "authenticamd", "amd" },
		{ "genuineintel", "intel" },
	};
	/* clang-format on */
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
