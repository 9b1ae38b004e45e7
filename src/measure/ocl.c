/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/ocl.h"
#include "measure/kernels.h"
#include "measure/progcache.h"
#include "measure/watchdog.h"
#include "core/buf.h"
#include "core/util.h"

#include <CL/cl_ext.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A program of a cl/ file built in a thread of its own while the device measures (see
 * cb_ocl_program_prebuild), for cb_ocl_program_build to take. */
typedef struct {
	cb_ocl *c;
	char *file, *opts; /* opts: the whole option string, the run's extra options too */
	pthread_t thread;
	cb_rc rc; /* CB_OK: PROG was created, and ST is its build's status */
	cl_program prog;
	cl_int st;
	/* The build's notes (the program cache's: a cached binary's, then the store's), told when
	 * it is taken. */
	char note[4][512];
	unsigned nnotes;
} prebuilt;

#define MAX_PREBUILT 8

struct cb_ocl {
	const cb_device_ref *ref;
	const cb_device_info *info;
	cb_ocl_opts o;
	unsigned timeout_s;
	cl_context ctx;
	cl_command_queue q;
	bool event_timer;
	bool one; /* the lane-table kernels are cl/cpu.cl's one kernel */
	cl_program prog[CB_NKERNELS];
	cl_kernel kern[CB_NKERNELS];
	bool launched[CB_NKERNELS]; /* launched since built (a CPU driver compiles at the first) */
	char build_opts[CB_NKERNELS][512];
	cb_build_params bp;
	cl_mem tables, out, check;
	uint32_t *check_host;
	size_t global, local, max_slots;
	unsigned max_nlanes;
	cl_event *events;
	prebuilt *pre[MAX_PREBUILT];
	unsigned npre;
};

static prebuilt *join_prebuilt(cb_ocl *c, unsigned i);
static void free_prebuilt(prebuilt *p);

/* The fill pattern of local memory: 32-bit word w holds w * 0x9E3779B1. */
static uint32_t pattern(uint32_t w)
{
	return w * 0x9E3779B1u;
}

/* cl/chase.cl: the fold of the element at OFFSET of the fill pattern. */
static uint32_t loaded(unsigned elem_bytes, uint32_t offset, bool little_endian)
{
	uint32_t w = offset / 4, word = pattern(w);
	unsigned shift = little_endian ? 8 * (offset % 4) : 8 * (4 - (offset % 4) - elem_bytes);
	switch (elem_bytes) {
	case 1:
		return (word >> shift) & 0xffu;
	case 2:
		return (word >> shift) & 0xffffu;
	case 4:
		return word;
	case 8:
		return word ^ pattern(w + 1);
	default:
		return word ^ pattern(w + 1) ^ pattern(w + 2) ^ pattern(w + 3);
	}
}

/* cl/store.cl: the fold of the value of the last step, STEPS - 1. */
static uint32_t stored(unsigned elem_bytes, uint32_t steps)
{
	uint32_t v = steps - 1;
	switch (elem_bytes) {
	case 1:
		return v & 0xffu;
	case 2:
		return v & 0xffffu;
	case 4:
		return v;
	case 8:
		return v ^ 5u;
	default:
		return v ^ 5u ^ 6u ^ 7u;
	}
}

/* cl/atomic.cl: the pattern of the element at lane L's offset plus STEPS for every work-item
 * of the group that adds to it (the table repeats every NLANES work-items). */
static uint32_t added(const cb_launch_req *req, unsigned l, size_t local, bool little_endian)
{
	uint32_t offset = req->lanes[l], w = offset / 4;
	uint64_t same = 0;
	for (unsigned k = 0; k < req->nlanes; k++)
		same += req->lanes[k] == offset ? (local + req->nlanes - 1 - k) / req->nlanes : 0;
	uint64_t add = same * req->steps;
	if (cb_elems[req->elem].bytes == 4)
		return pattern(w) + (uint32_t)add;
	uint64_t lo = little_endian ? pattern(w) : pattern(w + 1);
	uint64_t hi = little_endian ? pattern(w + 1) : pattern(w);
	uint64_t v = (hi << 32 | lo) + add;
	return (uint32_t)v ^ (uint32_t)(v >> 32);
}

uint32_t cb_expected_result(const cb_launch_req *req, unsigned l, size_t local, bool little_endian)
{
	/* Every kernel adds the number of steps it ran. */
	switch (req->op) {
	case CB_OP_STORE:
		return stored(cb_elems[req->elem].bytes, req->steps) + req->steps;
	case CB_OP_ATOMIC:
		return added(req, l, local, little_endian) + req->steps;
	default:
		return loaded(cb_elems[req->elem].bytes, req->lanes[l], little_endian) + req->steps;
	}
}

static cb_rc cl_fail(cb_error *err, const char *call, cl_int st, const char *what)
{
	return cb_error_call(err, CB_ERR_RUNTIME, call, st, "%s", what);
}

/* Do the build options name files of their own (-I, -include)? */
static bool options_include_files(const char *opts)
{
	for (const char *p = opts; p && *p; p += strcspn(p, " \t")) {
		p += strspn(p, " \t");
		if (strncmp(p, "-I", 2) == 0 || strncmp(p, "-include", 8) == 0)
			return true;
	}
	return false;
}

cb_rc cb_ocl_open(const cb_device_ref *ref, const cb_device_info *info, const cb_ocl_opts *o,
		  cb_ocl **out, cb_error *err)
{
	cb_ocl *c = cb_xcalloc(1, sizeof *c);
	c->ref = ref;
	c->info = info;
	c->o = *o;
	/* The cache's key holds the source with the includes clbanks expands; files the compiler
	 * finds on its own (a kernel folder's nested includes, -I, -include) are not in it, so
	 * such a run keeps no cache. */
	if (c->o.cache_dir && (c->o.kernel_dir || options_include_files(c->o.build_options))) {
		cb_note(o->notify, CB_NOTE_DETAIL,
			"program cache: not used with --kernel-dir or with -I or -include in the "
			"build options");
		c->o.cache_dir = NULL;
	}
	c->one = o->one_kernel > 0 ||
		 (o->one_kernel == 0 && !o->kernel_dir && (info->type & CL_DEVICE_TYPE_CPU) &&
		  info->local_mem_type == CL_GLOBAL);
	*out = c;
	cl_int st;
	cb_watchdog_slow("the creation of a context (clCreateContext)");
	c->ctx = clCreateContext(NULL, 1, &ref->device, NULL, NULL, &st);
	cb_watchdog_arm(0, NULL);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateContext", st, "cannot create an OpenCL context");
	cb_watchdog_call("the creation of a command queue (clCreateCommandQueue)");
	c->q = clCreateCommandQueue(c->ctx, ref->device,
				    o->host_clock ? 0 : CL_QUEUE_PROFILING_ENABLE, &st);
	c->event_timer = st == CL_SUCCESS && !o->host_clock;
	if (st == CL_INVALID_QUEUE_PROPERTIES && !o->host_clock) {
		cb_note(o->notify, CB_NOTE_WARNING,
			"the driver has no profiling queues; timing with the host clock");
		c->q = clCreateCommandQueue(c->ctx, ref->device, 0, &st);
	}
	cb_watchdog_arm(0, NULL);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clCreateCommandQueue", st, "cannot create a command queue");
	return CB_OK;
}

void cb_ocl_set_timeout(cb_ocl *c, unsigned seconds)
{
	c->timeout_s = seconds;
}

static void release_kernels(cb_ocl *c)
{
	for (int k = 0; k < CB_NKERNELS; k++) {
		if (c->kern[k])
			clReleaseKernel(c->kern[k]);
		if (c->prog[k])
			clReleaseProgram(c->prog[k]);
		c->kern[k] = NULL;
		c->prog[k] = NULL;
		c->launched[k] = false;
	}
}

void cb_ocl_close(cb_ocl *c)
{
	if (!c)
		return;
	/* Builds still under way use the context. */
	while (c->npre)
		free_prebuilt(join_prebuilt(c, c->npre - 1));
	/* A release waits for the queue: under the watchdog too. */
	cb_watchdog_call("the release of the OpenCL objects");
	release_kernels(c);
	cl_mem bufs[] = { c->tables, c->out, c->check };
	for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
		if (bufs[i])
			clReleaseMemObject(bufs[i]);
	if (c->q)
		clReleaseCommandQueue(c->q);
	if (c->ctx)
		clReleaseContext(c->ctx);
	/* Lets PoCL drop its compiler state, keeping valgrind and LeakSanitizer quiet. */
	clUnloadPlatformCompiler(c->ref->platform);
	cb_watchdog_arm(0, NULL);
	free(c->check_host);
	free(c->events);
	free(c);
}

/* Kernels built with other parameters are dropped: the next cb_ocl_build_set rebuilds them. */
void cb_ocl_set_build_params(cb_ocl *c, const cb_build_params *bp)
{
	if (c->bp.local_bytes != bp->local_bytes || c->bp.subgroup_pin != bp->subgroup_pin)
		release_kernels(c);
	c->bp = *bp;
}

bool cb_ocl_event_timer(const cb_ocl *c)
{
	return c->event_timer;
}

void cb_ocl_use_host_clock(cb_ocl *c)
{
	c->event_timer = false;
}

bool cb_ocl_one_kernel(const cb_ocl *c)
{
	return c->one;
}

bool cb_ocl_built(const cb_ocl *c, int k)
{
	return c->kern[k] != NULL;
}

const char *cb_ocl_build_options(const cb_ocl *c, int k)
{
	return c->kern[k] ? c->build_opts[k] : NULL;
}

/* Where the kernel files come from, as cb_kernel_source reads them: --kernel-dir, or the
 * copies embedded from cl/. */
static const char *kernel_dir(const cb_ocl *c)
{
	return c->o.kernel_dir ? c->o.kernel_dir : "cl";
}

/* The build log of PROG as the error's detail (as much as it holds: 8 KiB). */
static void build_log(cb_ocl *c, cl_program prog, cb_error *err)
{
	size_t n = 0;
	char *log = NULL;
	if (clGetProgramBuildInfo(prog, c->ref->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) ==
		    CL_SUCCESS &&
	    n > 1) {
		log = cb_xcalloc(1, n + 1);
		if (clGetProgramBuildInfo(prog, c->ref->device, CL_PROGRAM_BUILD_LOG, n, log,
					  NULL) != CL_SUCCESS)
			log[0] = '\0';
	}
	cb_error_detail(err, "build log:\n%s", log && *log ? log : "(empty)");
	free(log);
}

/* The options of the program that holds the kernels: those of every kernel but its element. */
#define CB_STD "-cl-std=CL1.2"
static void program_options(const cb_ocl *c, char *buf, size_t size)
{
	char pin[32] = "";
	if (c->bp.subgroup_pin)
		snprintf(pin, sizeof pin, " -DCB_SUBGROUP=%u", c->bp.subgroup_pin);
	snprintf(buf, size, CB_STD " -DCB_LOCAL_BYTES=%lu%s%s%s", c->bp.local_bytes, pin,
		 c->o.build_options ? " " : "", c->o.build_options ? c->o.build_options : "");
}

/* What kernel K is built with, as the document records it: the program's options with
 * CB_ELEM and CB_ELEM_BYTES (macros before its part of the program: the same kernel as its
 * file built alone with these options). */
static void kernel_options(cb_ocl *c, int k)
{
	const cb_kernel_id id = cb_kernel_of(k);
	char opts[sizeof c->build_opts[k]];
	program_options(c, opts, sizeof opts);
	if (c->one) {
		/* Cut at the size of the record, the options first. */
		char all[sizeof opts + 96];
		snprintf(all, sizeof all,
			 "%s (cl/cpu.cl: cb_cpu with op %d and elem_bytes %u as arguments)", opts,
			 (int)id.op, id.bytes);
		size_t n = strlen(all) < sizeof c->build_opts[k] ? strlen(all)
								 : sizeof c->build_opts[k] - 1;
		memcpy(c->build_opts[k], all, n);
		c->build_opts[k][n] = '\0';
		return;
	}
	int n = snprintf(c->build_opts[k], sizeof c->build_opts[k],
			 CB_STD " -DCB_ELEM=%s -DCB_ELEM_BYTES=%u", cb_elems[id.elem].cl_type,
			 id.bytes);
	if (n > 0 && (size_t)n < sizeof c->build_opts[k])
		snprintf(c->build_opts[k] + n, sizeof c->build_opts[k] - (size_t)n, "%s",
			 opts + strlen(CB_STD));
}

/* Kernel K's name in a program of several: "cb_chase_4". */
static void part_name(int k, char *buf, size_t size)
{
	const cb_kernel_id id = cb_kernel_of(k);
	snprintf(buf, size, "%s_%u", cb_op_desc_of(id.op)->kernel_name, id.bytes);
}

/* Appends kernel K's file to B as one part of a program of several: its element macros and a
 * name of its own (a macro renames the kernel) before it, and every macro it defines
 * undefined after it, so that the next part, of another element, starts afresh. */
static cb_rc append_part(cb_ocl *c, int k, cb_buf *b, cb_error *err)
{
	const cb_kernel_id id = cb_kernel_of(k);
	const cb_op_desc *op = cb_op_desc_of(id.op);
	char *src = NULL, name[64];
	cb_rc rc = cb_kernel_source(op->kernel_file, c->o.kernel_dir, &src, err);
	if (rc != CB_OK)
		return rc;
	part_name(k, name, sizeof name);
	cb_buf_printf(b, "#define CB_ELEM %s\n#define CB_ELEM_BYTES %u\n#define %s %s\n",
		      cb_elems[id.elem].cl_type, id.bytes, op->kernel_name, name);
	cb_buf_printf(b, "%s\n", src);
	for (const char *line = src; line && *line; line = strchr(line, '\n'), line += !!line) {
		const char *p = line + strspn(line, " \t");
		if (*p++ != '#')
			continue;
		p += strspn(p, " \t");
		if (strncmp(p, "define", 6) || (p[6] != ' ' && p[6] != '\t'))
			continue;
		p += 6 + strspn(p + 6, " \t");
		int len = (int)strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					 "0123456789_");
		if (len > 0)
			cb_buf_printf(b, "#undef %.*s\n", len, p);
	}
	cb_buf_printf(b, "#undef CB_ELEM\n#undef CB_ELEM_BYTES\n#undef %s\n", op->kernel_name);
	free(src);
	return CB_OK;
}

/* The lane-table kernels' program: the watchdog's note and the error of its creation. */
#define KERNELS_SLOW "the build of the kernels (clBuildProgram)"
#define KERNELS_MSG "cannot create the kernel program"

/* The program cache's key of SRC built with OPTS: the platform, device and driver (a driver
 * update makes new binaries) and the whole source. */
static char *cache_key(const cb_ocl *c, const char *src, const char *opts, size_t *len)
{
	const cb_device_info *i = c->info;
	cb_buf b = CB_BUF_INIT;
	cb_buf_printf(&b,
		      "platform: %s\nplatform version: %s\ndevice: %s\ndevice version: %s\n"
		      "driver: %s\noptions: %s\n\n%s",
		      i->platform_name ? i->platform_name : "",
		      i->platform_version ? i->platform_version : "", i->name ? i->name : "",
		      i->device_version ? i->device_version : "",
		      i->driver_version ? i->driver_version : "", opts, src);
	*len = b.len;
	return cb_buf_take(&b, NULL);
}

/* clBuildProgram of PROG with OPTS under the watchdog's build limit (SLOW names it); NULL SLOW:
 * in a background thread, unwatched (the alarm is the process's; the main thread waits for
 * the thread under the watchdog instead). */
static cl_int build_watched(cb_ocl *c, cl_program prog, const char *opts, const char *slow)
{
	if (slow)
		cb_watchdog_slow(slow);
	cl_int st = clBuildProgram(prog, 1, &c->ref->device, opts, NULL, NULL);
	if (slow)
		cb_watchdog_arm(0, NULL);
	return st;
}

/* The program of KEY from the cache, built: NULL when there is none or it does not build (a
 * build from the source follows). */
static cl_program cached_program(cb_ocl *c, const char *key, size_t keylen, const char *opts,
				 const char *slow, const cb_notifier *nt)
{
	unsigned char *bin = NULL;
	size_t len = 0;
	cb_error e = { 0 };
	if (cb_progcache_load(c->o.cache_dir, key, keylen, &bin, &len, &e) != CB_OK) {
		if (e.code != ENOENT)
			cb_note(nt, CB_NOTE_DETAIL, "program cache: %s", e.text);
		return NULL;
	}
	cl_int st, bst = CL_SUCCESS;
	const unsigned char *bins[1] = { bin };
	cl_program prog = clCreateProgramWithBinary(c->ctx, 1, &c->ref->device, &len, bins, &bst,
						    &st);
	free(bin);
	if (st != CL_SUCCESS || bst != CL_SUCCESS) {
		if (st == CL_SUCCESS)
			clReleaseProgram(prog);
		cb_note(nt, CB_NOTE_DETAIL,
			"program cache: the driver refused a cached binary (%d); building the source",
			(int)(st != CL_SUCCESS ? st : bst));
		return NULL;
	}
	st = build_watched(c, prog, opts, slow);
	if (st != CL_SUCCESS) {
		clReleaseProgram(prog);
		cb_note(nt, CB_NOTE_DETAIL,
			"program cache: a cached binary does not build (%d); building the source",
			(int)st);
		return NULL;
	}
	return prog;
}

/* Keeps PROG's binary under KEY; a cache that cannot be written is only a slower next run. */
static void cache_program(cb_ocl *c, cl_program prog, const char *key, size_t keylen,
			  const cb_notifier *nt)
{
	size_t size = 0;
	cl_uint ndev = 0;
	if (clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL) !=
		    CL_SUCCESS ||
	    ndev != 1 ||
	    clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) !=
		    CL_SUCCESS ||
	    size == 0 || size > CB_PROGCACHE_MAX_BYTES)
		return;
	unsigned char *bin = cb_xmalloc(size), *bins[1] = { bin };
	cb_error e = { 0 };
	if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS &&
	    cb_progcache_store(c->o.cache_dir, key, keylen, bin, size, &e) != CB_OK)
		cb_note(nt, CB_NOTE_DETAIL, "program cache: %s", e.text);
	free(bin);
}

/* SRC (freed here) as a program, built with OPTS under the watchdog's build limit (SLOW says
 * what is built, for its message; NULL: unwatched, see build_watched): CB_OK with *PROG and the
 * build's status in *ST, or the error of clCreateProgramWithSource (MSG) with *PROG NULL. With
 * a program cache, a binary built before stands for the build, and a new build is kept; the
 * cache's notes go to NT. */
static cb_rc build_source(cb_ocl *c, char *src, const char *opts, const char *slow, const char *msg,
			  const cb_notifier *nt, cl_program *prog, cl_int *st, cb_error *err)
{
	size_t keylen = 0;
	char *key = c->o.cache_dir ? cache_key(c, src, opts, &keylen) : NULL;
	*prog = key ? cached_program(c, key, keylen, opts, slow, nt) : NULL;
	if (*prog) {
		*st = CL_SUCCESS;
		free(key);
		free(src);
		return CB_OK;
	}
	const char *srcs[1] = { src };
	*prog = clCreateProgramWithSource(c->ctx, 1, srcs, NULL, st);
	free(src);
	if (*st != CL_SUCCESS) {
		*prog = NULL;
		free(key);
		return cl_fail(err, "clCreateProgramWithSource", *st, msg);
	}
	*st = build_watched(c, *prog, opts, slow);
	if (*st == CL_SUCCESS && key)
		cache_program(c, *prog, key, keylen, nt);
	free(key);
	return CB_OK;
}

/* One program of the kernels of WANT, built, and their kernels created. */
static cb_rc build_program(cb_ocl *c, const bool want[CB_NKERNELS], cb_error *err)
{
	cb_buf b = CB_BUF_INIT;
	cb_rc rc = CB_OK;
	for (int k = 0; k < CB_NKERNELS && rc == CB_OK; k++)
		if (want[k])
			rc = append_part(c, k, &b, err);
	if (rc != CB_OK) {
		cb_buf_free(&b);
		return rc;
	}
	cl_int st;
	cl_program prog;
	char opts[512];
	program_options(c, opts, sizeof opts);
	if ((rc = build_source(c, cb_buf_take(&b, NULL), opts, KERNELS_SLOW, KERNELS_MSG,
			       c->o.notify, &prog, &st, err)) != CB_OK)
		return rc;
	int first = 0, nwant = 0;
	for (int k = CB_NKERNELS - 1; k >= 0; k--)
		if (want[k]) {
			first = k;
			nwant++;
		}
	if (st != CL_SUCCESS && nwant == 1) {
		kernel_options(c, first);
		cb_error_call(err, CB_ERR_RUNTIME, "clBuildProgram", st,
			      "the %u-byte %s kernel does not build (options: %s)",
			      cb_kernel_of(first).bytes, cb_op_name(cb_kernel_of(first).op),
			      c->build_opts[first]);
	} else if (st != CL_SUCCESS) {
		cb_error_call(err, CB_ERR_RUNTIME, "clBuildProgram", st,
			      "the kernels do not build (options: %s)", opts);
	}
	if (st != CL_SUCCESS) {
		build_log(c, prog, err);
		clReleaseProgram(prog);
		return CB_ERR_RUNTIME;
	}
	for (int k = 0; k < CB_NKERNELS && rc == CB_OK; k++) {
		if (!want[k])
			continue;
		char name[64];
		part_name(k, name, sizeof name);
		c->kern[k] = clCreateKernel(prog, name, &st);
		if (st != CL_SUCCESS) {
			c->kern[k] = NULL;
			rc = cb_error_call(err, CB_ERR_RUNTIME, "clCreateKernel", st,
					   "cannot create the kernel %s", name);
			break;
		}
		clRetainProgram(prog);
		c->prog[k] = prog;
		kernel_options(c, k);
	}
	clReleaseProgram(prog);
	return rc;
}

/* cl/cpu.cl built, and its one kernel standing for every kernel of WANT. */
static cb_rc build_one(cb_ocl *c, const bool want[CB_NKERNELS], cb_error *err)
{
	char *src = NULL, opts[512];
	cb_rc rc = cb_kernel_source("cpu.cl", c->o.kernel_dir, &src, err);
	if (rc != CB_OK)
		return rc;
	cl_int st;
	cl_program prog;
	program_options(c, opts, sizeof opts);
	if ((rc = build_source(c, src, opts, KERNELS_SLOW, KERNELS_MSG, c->o.notify, &prog, &st,
			       err)) != CB_OK)
		return rc;
	if (st != CL_SUCCESS) {
		cb_error_call(err, CB_ERR_RUNTIME, "clBuildProgram", st,
			      "the kernel of %s/cpu.cl does not build (options: %s)", kernel_dir(c),
			      opts);
		build_log(c, prog, err);
		clReleaseProgram(prog);
		return CB_ERR_RUNTIME;
	}
	cl_kernel kern = clCreateKernel(prog, "cb_cpu", &st);
	if (st != CL_SUCCESS)
		rc = cb_error_call(err, CB_ERR_RUNTIME, "clCreateKernel", st,
				   "cannot create the kernel cb_cpu");
	for (int k = 0; k < CB_NKERNELS && rc == CB_OK; k++) {
		if (!want[k])
			continue;
		clRetainKernel(kern);
		clRetainProgram(prog);
		c->kern[k] = kern;
		c->prog[k] = prog;
		kernel_options(c, k);
	}
	if (rc == CB_OK)
		clReleaseKernel(kern);
	clReleaseProgram(prog);
	return rc;
}

cb_rc cb_ocl_build_set(cb_ocl *c, const bool needed[CB_NKERNELS], cb_error *err)
{
	bool want[CB_NKERNELS] = { false };
	int nwant = 0;
	for (int k = 0; k < CB_NKERNELS; k++)
		if (needed[k] && !c->kern[k]) {
			want[k] = true;
			nwant++;
		}
	if (nwant == 0)
		return CB_OK;
	if (c->one)
		return build_one(c, want, err);
	cb_rc rc = build_program(c, want, err);
	if (rc != CB_ERR_RUNTIME || nwant == 1)
		return rc;
	/* Each alone: the one that does not build is named, with its own log (and a driver that
	 * builds them only one at a time still runs). */
	cb_error_clear(err);
	for (int k = 0; k < CB_NKERNELS; k++) {
		bool one[CB_NKERNELS] = { false };
		one[k] = want[k] && !c->kern[k];
		if (one[k] && (rc = build_program(c, one, err)) != CB_OK)
			return rc;
	}
	return CB_OK;
}

cb_rc cb_ocl_kernel_limits(cb_ocl *c, int k, cb_kernel_limits *lim, cb_error *err)
{
	cl_device_id d = c->ref->device;
	memset(lim, 0, sizeof *lim);
	cl_int st = clGetKernelWorkGroupInfo(c->kern[k], d, CL_KERNEL_WORK_GROUP_SIZE,
					     sizeof lim->work_group_size, &lim->work_group_size,
					     NULL);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clGetKernelWorkGroupInfo", st,
			       "cannot query CL_KERNEL_WORK_GROUP_SIZE");
	cl_ulong local = 0;
	st = clGetKernelWorkGroupInfo(c->kern[k], d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local,
				      NULL);
	if (st != CL_SUCCESS)
		return cl_fail(err, "clGetKernelWorkGroupInfo", st,
			       "cannot query CL_KERNEL_LOCAL_MEM_SIZE");
	lim->local_mem_static = local;
	/* Optional: a driver that does not know it leaves the multiple unknown (0). */
	if (clGetKernelWorkGroupInfo(c->kern[k], d, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
				     sizeof lim->preferred_multiple, &lim->preferred_multiple,
				     NULL) != CL_SUCCESS)
		lim->preferred_multiple = 0;
	return CB_OK;
}

/* OpenCL 2.1's query; declared here because clbanks compiles against the 1.2 API. */
extern CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel, cl_device_id,
							       cl_kernel_sub_group_info, size_t,
							       const void *, size_t, void *,
							       size_t *);

unsigned cb_ocl_kernel_subgroup(cb_ocl *c, int k, size_t local)
{
	if (!c->kern[k])
		return 0;
	size_t sg = 0;
	cl_int st = CL_INVALID_OPERATION;
	const cb_device_info *info = c->info;
	if (info->has_khr_subgroups) {
		clGetKernelSubGroupInfoKHR_fn fn = (clGetKernelSubGroupInfoKHR_fn)
			clGetExtensionFunctionAddressForPlatform(c->ref->platform,
								 "clGetKernelSubGroupInfoKHR");
		if (fn)
			st = fn(c->kern[k], c->ref->device,
				CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, sizeof local, &local,
				sizeof sg, &sg, NULL);
	} else if (info->device_major * 10 + info->device_minor >= 21 &&
		   info->platform_major * 10 + info->platform_minor >= 21 &&
		   info->max_num_sub_groups) {
		/* Only for a device with sub-groups: a driver without them may leave this entry of
		 * its dispatch table empty. */
		st = clGetKernelSubGroupInfo(c->kern[k], c->ref->device,
					     CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR,
					     sizeof local, &local, sizeof sg, &sg, NULL);
	}
	return st == CL_SUCCESS && sg >= 1 && sg <= CB_MAX_LANES ? (unsigned)sg : 0;
}

cb_rc cb_ocl_set_tables(cb_ocl *c, const uint32_t *tables, size_t ntables, unsigned nlanes,
			cb_error *err)
{
	if (c->tables)
		clReleaseMemObject(c->tables);
	cl_int st;
	c->tables = clCreateBuffer(c->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				   ntables * nlanes * sizeof *tables, (void *)tables, &st);
	if (st != CL_SUCCESS) {
		c->tables = NULL;
		return cl_fail(err, "clCreateBuffer", st,
			       "cannot allocate the lane tables on the device");
	}
	return CB_OK;
}

static cb_rc new_buffer(cb_ocl *c, cl_mem *m, size_t bytes, const char *what, cb_error *err)
{
	cl_int st;
	if (*m)
		clReleaseMemObject(*m);
	*m = clCreateBuffer(c->ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &st);
	if (st != CL_SUCCESS) {
		*m = NULL;
		return cb_error_call(err, CB_ERR_RUNTIME, "clCreateBuffer", st,
				     "cannot allocate %s (%zu bytes) on the device", what, bytes);
	}
	return CB_OK;
}

cb_rc cb_ocl_set_work(cb_ocl *c, size_t global, size_t local, unsigned max_nlanes, size_t max_slots,
		      cb_error *err)
{
	cb_rc rc = CB_OK;
	if (!c->out || global != c->global)
		rc = new_buffer(c, &c->out, global * sizeof(uint32_t), "the result buffer", err);
	if (rc == CB_OK && (!c->check || max_nlanes > c->max_nlanes || max_slots > c->max_slots)) {
		if (max_nlanes < c->max_nlanes)
			max_nlanes = c->max_nlanes;
		if (max_slots < c->max_slots)
			max_slots = c->max_slots;
		rc = new_buffer(c, &c->check, 2 * max_nlanes * max_slots * sizeof(uint32_t),
				"the check buffer", err);
		free(c->check_host);
		c->check_host = cb_xmalloc(2 * max_nlanes * max_slots * sizeof(uint32_t));
		free(c->events);
		c->events = cb_xcalloc(max_slots, sizeof *c->events);
		c->max_nlanes = max_nlanes;
		c->max_slots = max_slots;
	}
	c->global = global;
	c->local = local;
	return rc;
}

/* Every work-group runs the same code on the same table: the first and the last work-group
 * stand for all of them (reading back millions of results per launch would cost more than the
 * measurement). */
static cb_rc verify(cb_ocl *c, const cb_launch_req *req, size_t slot, cb_error *err)
{
	unsigned n = req->nlanes < c->local ? req->nlanes : (unsigned)c->local;
	for (unsigned g = 0; g < 2; g++) {
		const uint32_t *got = c->check_host + (slot * 2 + g) * req->nlanes;
		for (unsigned l = 0; l < n; l++) {
			uint32_t want = cb_expected_result(req, l, c->local,
							   c->info->little_endian);
			if (got[l] != want)
				return cb_error_set(
					err, CB_ERR_RUNTIME,
					"verification failed for %s: "
					"work-item %zu returned 0x%08x, expected 0x%08x (the "
					"kernel was skipped, cut short or miscompiled; no times "
					"are kept)",
					req->what, g ? c->global - c->local + l : l, got[l], want);
		}
	}
	return CB_OK;
}

_Static_assert(CB_OP_LOAD == 0 && CB_OP_STORE == 1 && CB_OP_ATOMIC == 2,
	       "cl/cpu.cl numbers the ops as cb_op does");

static cb_rc set_args(cb_ocl *c, const cb_launch_req *req, cl_uint slot, cb_error *err)
{
	cl_kernel k = c->kern[cb_kernel_index(req->op, req->elem)];
	cl_uint mask = 0, table = req->table, nlanes = req->nlanes, steps = req->steps;
	cl_uint fill = req->fill_words, op = (cl_uint)req->op, bytes = cb_elems[req->elem].bytes;
	/* clang-format off */
	struct { size_t size; const void *value; } args[] = {
		{ sizeof(cl_mem), &c->tables }, { sizeof(cl_uint), &table }, { sizeof(cl_uint), &nlanes },
		{ sizeof(cl_uint), &steps }, { sizeof(cl_uint), &mask }, { sizeof(cl_uint), &fill },
		{ sizeof(cl_mem), &c->out }, { sizeof(cl_mem), &c->check }, { sizeof(cl_uint), &slot },
		/* cl/cpu.cl's one kernel: which op and element size */
		{ sizeof(cl_uint), &op }, { sizeof(cl_uint), &bytes },
	};
	/* clang-format on */
	cl_uint nargs = sizeof args / sizeof *args - (c->one ? 0 : 2);
	for (cl_uint i = 0; i < nargs; i++) {
		cl_int st = clSetKernelArg(k, i, args[i].size, args[i].value);
		if (st != CL_SUCCESS)
			return cb_error_call(err, CB_ERR_RUNTIME, "clSetKernelArg", st,
					     "cannot set argument %u of the %u-byte %s kernel", i,
					     cb_elems[req->elem].bytes, cb_op_name(req->op));
	}
	return CB_OK;
}

/* From the first event's start to the last one's end (one launch: FIRST == LAST). */
static cb_rc span_time(cl_event first, cl_event last, uint64_t *ns, cb_error *err)
{
	cl_ulong t0 = 0, t1 = 0;
	cl_int st = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof t0, &t0,
					    NULL);
	if (st == CL_SUCCESS)
		st = clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
	if (st != CL_SUCCESS)
		return cb_error_call(err, CB_ERR_RUNTIME, "clGetEventProfilingInfo", st,
				     "cannot read a launch's timestamps");
	*ns = t1 > t0 ? t1 - t0 : 0; /* subtract as integers, before any conversion */
	return CB_OK;
}

static cb_rc enqueue_all(cb_ocl *c, const cb_launch_req *reqs, size_t n, size_t *queued,
			 cb_error *err)
{
	for (*queued = 0; *queued < n; (*queued)++) {
		const cb_launch_req *req = &reqs[*queued];
		cb_rc rc = set_args(c, req, (cl_uint)*queued, err);
		if (rc != CB_OK)
			return rc;
		/* A driver that says CL_SUCCESS and writes no event would leave the slot holding
		 * the previous batch's event, released since. */
		c->events[*queued] = NULL;
		cl_int st = clEnqueueNDRangeKernel(c->q,
						   c->kern[cb_kernel_index(req->op, req->elem)], 1,
						   NULL, &c->global, &c->local, 0, NULL,
						   &c->events[*queued]);
		if (st != CL_SUCCESS)
			return cb_error_call(err, CB_ERR_RUNTIME, "clEnqueueNDRangeKernel", st,
					     "launch of %s failed", req->what);
		if (!c->events[*queued])
			return cb_error_call(
				err, CB_ERR_RUNTIME, "clEnqueueNDRangeKernel", st,
				"the driver returned CL_SUCCESS without an event for the "
				"launch of %s",
				req->what);
	}
	cl_int st = clFlush(c->q);
	if (st != CL_SUCCESS)
		return cb_error_call(err, CB_ERR_RUNTIME, "clFlush", st,
				     "cannot submit the launches");
	return CB_OK;
}

/* Waits for the batch, then reads its times and its check slots. */
static cb_rc collect(cb_ocl *c, const cb_launch_req *reqs, size_t n, uint64_t *ns, cb_error *err)
{
	cl_int st = clWaitForEvents((cl_uint)n, c->events);
	if (st != CL_SUCCESS)
		return cb_error_call(err, CB_ERR_RUNTIME, "clWaitForEvents", st,
				     "%s%s failed while running", n > 1 ? "a batch with " : "",
				     reqs[n - 1].what);
	for (size_t i = 0; i < n; i++) {
		ns[i] = 0;
		cb_rc rc = c->event_timer ? span_time(c->events[i], c->events[i], &ns[i], err)
					  : CB_OK;
		if (rc != CB_OK)
			return rc;
	}
	size_t bytes = 2 * n * reqs[0].nlanes * sizeof(uint32_t);
	st = clEnqueueReadBuffer(c->q, c->check, CL_TRUE, 0, bytes, c->check_host, 0, NULL, NULL);
	if (st != CL_SUCCESS)
		return cb_error_call(err, CB_ERR_RUNTIME, "clEnqueueReadBuffer", st,
				     "cannot read the kernels' results");
	return CB_OK;
}

cb_rc cb_ocl_run_batch(cb_ocl *c, const cb_launch_req *reqs, size_t n, double expected_s,
		       uint64_t *ns, double *host_s, long *bad, cb_error *err)
{
	*bad = -1;
	if (n == 0 || n > c->max_slots || reqs[0].nlanes > c->max_nlanes)
		return cb_error_set(err, CB_ERR_RUNTIME,
				    "internal: a batch of %zu launches (at most %zu)", n,
				    c->max_slots);
	for (size_t i = 1; i < n; i++)
		if (reqs[i].nlanes != reqs[0].nlanes)
			return cb_error_set(err, CB_ERR_RUNTIME,
					    "internal: launches of one batch must "
					    "have tables of one size");
	size_t queued = 0;
	double h0 = cb_now();
	/* A CPU driver compiles a kernel at its first launch (PoCL). The first launch of cl/cpu.cl's
	 * one kernel compiles every op and element size at once, so it has a build's limit, ten
	 * times --timeout (under valgrind that compilation takes more than the default 20 s). */
	bool compiles = false;
	for (size_t i = 0; i < n; i++)
		compiles |= !c->launched[cb_kernel_index(reqs[i].op, reqs[i].elem)];
	compiles &= c->one && (c->info->type & CL_DEVICE_TYPE_CPU) != 0;
	unsigned base = compiles ? 10 * c->timeout_s : c->timeout_s;
	unsigned limit = c->timeout_s ? base + (unsigned)ceil(10 * expected_s) : 0;
	cb_watchdog_arm(limit, n > 1 ? "a batch of launches" : reqs[0].what);
	cb_rc rc = enqueue_all(c, reqs, n, &queued, err);
	if (rc == CB_OK)
		rc = collect(c, reqs, n, ns, err);
	else if (queued)
		clFinish(c->q); /* before the events go */
	cb_watchdog_arm(0, NULL);
	*host_s = cb_now() - h0;
	for (size_t i = 0; rc == CB_OK && i < n; i++)
		for (int k = 0; k < CB_NKERNELS; k++)
			c->launched[k] |= c->kern[k] ==
					  c->kern[cb_kernel_index(reqs[i].op, reqs[i].elem)];
	for (size_t i = 0; i < queued; i++)
		clReleaseEvent(c->events[i]);
	if (rc == CB_OK && !c->event_timer && n == 1)
		ns[0] = (uint64_t)(*host_s * 1e9);
	for (size_t i = 0; rc == CB_OK && i < n; i++)
		if ((rc = verify(c, &reqs[i], i, err)) != CB_OK)
			*bad = (long)i;
	return rc;
}

/* Programs beyond the lane-table kernels. */

struct cb_ocl_program {
	cl_program prog;
	unsigned nkernels;
	cl_kernel *kern;
};

struct cb_ocl_buffer {
	cl_mem mem;
	size_t bytes;
};

void cb_ocl_program_free(cb_ocl_program *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nkernels; i++)
		if (p->kern[i])
			clReleaseKernel(p->kern[i]);
	if (p->prog)
		clReleaseProgram(p->prog);
	free(p->kern);
	free(p);
}

/* FILE's build log, cut at 64 KiB, as the error's detail. */
static cb_rc program_build_failed(cb_ocl *c, cl_program prog, const char *file, const char *opts,
				  cl_int st, cb_error *err)
{
	cb_error_call(err, CB_ERR_RUNTIME, "clBuildProgram", st,
		      "%s/%s does not build (options: %s)", kernel_dir(c), file, opts);
	build_log(c, prog, err);
	return CB_ERR_RUNTIME;
}

#define PROGRAM_SLOW "the build of a kernel (clBuildProgram)"

/* OPTIONS, then the run's extra options. */
static void file_options(const cb_ocl *c, const char *options, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", options, c->o.build_options ? " " : "",
		 c->o.build_options ? c->o.build_options : "");
}

/* Keeps a background build's note (the program cache's) for when its program is taken. */
static void keep_note(void *ctx, cb_note_kind kind, const char *text)
{
	(void)kind;
	prebuilt *p = ctx;
	if (p->nnotes < sizeof p->note / sizeof *p->note)
		snprintf(p->note[p->nnotes++], sizeof *p->note, "%s", text);
}

static void *prebuild_main(void *arg)
{
	prebuilt *p = arg;
	cb_notifier keep = { keep_note, p };
	cb_error *e = cb_xcalloc(1, sizeof *e);
	char *src = NULL;
	p->rc = cb_kernel_source(p->file, p->c->o.kernel_dir, &src, e);
	if (p->rc == CB_OK)
		p->rc = build_source(p->c, src, p->opts, NULL, "", &keep, &p->prog, &p->st, e);
	free(e);
	return NULL;
}

void cb_ocl_program_prebuild(cb_ocl *c, const char *file, const char *options)
{
	if ((c->info->type & CL_DEVICE_TYPE_CPU) || c->npre == MAX_PREBUILT)
		return;
	char opts[1024];
	file_options(c, options, opts, sizeof opts);
	prebuilt *p = cb_xcalloc(1, sizeof *p);
	p->c = c;
	p->file = cb_xstrdup(file);
	p->opts = cb_xstrdup(opts);
	if (cb_thread_start(&p->thread, prebuild_main, p) == 0) {
		c->pre[c->npre++] = p;
		return;
	}
	free(p->file);
	free(p->opts);
	free(p);
}

/* Waits for background build I under the watchdog's build limit and removes it from the list. */
static prebuilt *join_prebuilt(cb_ocl *c, unsigned i)
{
	prebuilt *p = c->pre[i];
	cb_watchdog_slow(PROGRAM_SLOW);
	pthread_join(p->thread, NULL);
	cb_watchdog_arm(0, NULL);
	c->pre[i] = c->pre[--c->npre];
	return p;
}

static void free_prebuilt(prebuilt *p)
{
	if (p->rc == CB_OK && p->prog)
		clReleaseProgram(p->prog);
	free(p->file);
	free(p->opts);
	free(p);
}

/* The program of FILE with OPTS built in the background, or NULL: none was started, or it did
 * not build (the caller builds it again, and reports what fails). */
static cl_program take_prebuilt(cb_ocl *c, const char *file, const char *opts)
{
	for (unsigned i = 0; i < c->npre; i++) {
		if (strcmp(c->pre[i]->file, file) || strcmp(c->pre[i]->opts, opts))
			continue;
		prebuilt *p = join_prebuilt(c, i);
		cl_program prog = NULL;
		for (unsigned k = 0; k < p->nnotes; k++)
			cb_note(c->o.notify, CB_NOTE_DETAIL, "%s", p->note[k]);
		if (p->rc == CB_OK && p->st == CL_SUCCESS) {
			cb_note(c->o.notify, CB_NOTE_DETAIL,
				"%s: built during the measurement (%s)", file, opts);
			prog = p->prog;
			p->prog = NULL;
		}
		free_prebuilt(p);
		return prog;
	}
	return NULL;
}

cb_rc cb_ocl_program_build(cb_ocl *c, const char *file, const char *options,
			   const char *const *names, unsigned nkernels, cb_ocl_program **out,
			   cb_error *err)
{
	char *src = NULL, opts[1024];
	*out = NULL;
	file_options(c, options, opts, sizeof opts);
	cl_program ready = take_prebuilt(c, file, opts);
	cb_rc rc = ready ? CB_OK : cb_kernel_source(file, c->o.kernel_dir, &src, err);
	if (rc != CB_OK)
		return rc;
	cb_ocl_program *p = cb_xcalloc(1, sizeof *p);
	p->kern = cb_xcalloc(nkernels, sizeof *p->kern);
	p->nkernels = nkernels;
	*out = p;
	cl_int st = CL_SUCCESS;
	p->prog = ready;
	if (!ready && (rc = build_source(c, src, opts, PROGRAM_SLOW, "cannot create the program",
					 c->o.notify, &p->prog, &st, err)) != CB_OK)
		return rc;
	if (st != CL_SUCCESS)
		return program_build_failed(c, p->prog, file, opts, st, err);
	for (unsigned i = 0; i < nkernels; i++) {
		p->kern[i] = clCreateKernel(p->prog, names[i], &st);
		if (st != CL_SUCCESS)
			return cb_error_call(err, CB_ERR_RUNTIME, "clCreateKernel", st,
					     "cannot create the kernel %s", names[i]);
	}
	return CB_OK;
}

cb_rc cb_ocl_buffer_new(cb_ocl *c, size_t bytes, cb_ocl_buffer **out, cb_error *err)
{
	cl_int st;
	cl_mem m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, bytes, NULL, &st);
	*out = NULL;
	if (st != CL_SUCCESS)
		return cb_error_call(err, CB_ERR_RUNTIME, "clCreateBuffer", st,
				     "cannot allocate %zu bytes on the device", bytes);
	*out = cb_xcalloc(1, sizeof **out);
	(*out)->mem = m;
	(*out)->bytes = bytes;
	return CB_OK;
}

void cb_ocl_buffer_free(cb_ocl_buffer *b)
{
	if (b && b->mem)
		clReleaseMemObject(b->mem);
	free(b);
}

cb_rc cb_ocl_buffer_write(cb_ocl *c, cb_ocl_buffer *b, size_t offset, const void *src, size_t bytes,
			  cb_error *err)
{
	cb_watchdog_arm(c->timeout_s, "an upload to the device (clEnqueueWriteBuffer)");
	cl_int st = clEnqueueWriteBuffer(c->q, b->mem, CL_TRUE, offset, bytes, src, 0, NULL, NULL);
	cb_watchdog_arm(0, NULL);
	return st == CL_SUCCESS
		       ? CB_OK
		       : cl_fail(err, "clEnqueueWriteBuffer", st, "cannot upload to the device");
}

cb_rc cb_ocl_buffer_read(cb_ocl *c, cb_ocl_buffer *b, size_t offset, void *dst, size_t bytes,
			 cb_error *err)
{
	cb_watchdog_arm(c->timeout_s, "a read from the device (clEnqueueReadBuffer)");
	cl_int st = clEnqueueReadBuffer(c->q, b->mem, CL_TRUE, offset, bytes, dst, 0, NULL, NULL);
	cb_watchdog_arm(0, NULL);
	return st == CL_SUCCESS
		       ? CB_OK
		       : cl_fail(err, "clEnqueueReadBuffer", st, "cannot read the result back");
}

cb_rc cb_ocl_program_args(cb_ocl_program *p, unsigned kernel, const cb_ocl_arg *args,
			  unsigned nargs, cb_error *err)
{
	for (unsigned i = 0; i < nargs; i++) {
		cl_int st = args[i].buf ? clSetKernelArg(p->kern[kernel], i, sizeof(cl_mem),
							 &args[i].buf->mem)
					: clSetKernelArg(p->kern[kernel], i, args[i].size,
							 args[i].value);
		if (st != CL_SUCCESS)
			return cb_error_call(err, CB_ERR_RUNTIME, "clSetKernelArg", st,
					     "cannot set argument %u of a kernel", i);
	}
	return CB_OK;
}

cb_rc cb_ocl_time_launches(cb_ocl *c, cb_ocl_program *p, unsigned kernel, const cb_ndrange *nd,
			   unsigned count, const char *what, double *ns_per_launch, cb_error *err)
{
	cl_event first = NULL, last = NULL;
	cl_int st = CL_SUCCESS;
	cb_rc rc = CB_OK;
	double h0 = cb_now();
	cb_watchdog_arm(c->timeout_s, what);
	for (unsigned i = 0; st == CL_SUCCESS && i < count; i++) {
		cl_event *ev = i == 0 ? &first : i + 1 == count ? &last : NULL;
		st = clEnqueueNDRangeKernel(c->q, p->kern[kernel], nd->dims, NULL, nd->global,
					    nd->local, 0, NULL, ev);
	}
	if (st != CL_SUCCESS)
		rc = cl_fail(err, "clEnqueueNDRangeKernel", st, "a launch failed");
	st = clFinish(c->q); /* also after a failed enqueue: before the events go */
	cb_watchdog_arm(0, NULL);
	double host_ns = (cb_now() - h0) * 1e9;
	if (rc == CB_OK && st != CL_SUCCESS)
		rc = cl_fail(err, "clFinish", st, "the launches failed");
	uint64_t span = 0;
	if (rc == CB_OK && c->event_timer && (!first || (count > 1 && !last)))
		rc = cb_error_call(err, CB_ERR_RUNTIME, "clEnqueueNDRangeKernel", CL_SUCCESS,
				   "the "
				   "driver returned CL_SUCCESS without an event for a launch of %s",
				   what);
	if (rc == CB_OK && c->event_timer)
		rc = span_time(first, last ? last : first, &span, err);
	if (first)
		clReleaseEvent(first);
	if (last)
		clReleaseEvent(last);
	if (rc == CB_OK)
		*ns_per_launch = (c->event_timer ? (double)span : host_ns) / count;
	return rc;
}
