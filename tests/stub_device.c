/* SPDX-License-Identifier: MIT */
/* The stub driver's device: the geometry, faults and limits the environment asks for
 * (stub_icd.c lists the variables), what each kernel returns, and its time on the virtual
 * clock under the bank model. */
#include "stub_icd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

stub_device dev;

static unsigned env_uint(const char *name, unsigned dflt)
{
	const char *s = getenv(name);
	return s && *s ? (unsigned)strtoul(s, NULL, 10) : dflt;
}

static size_t env_size(const char *name, size_t dflt)
{
	const char *s = getenv(name);
	return s && *s ? (size_t)strtoull(s, NULL, 10) : dflt;
}

void stub_hang(const char *call)
{
	fprintf(stderr, "stub: hanging in %s\n", call);
	for (;;)
		pause();
}

static void parse_lanes(const char *l, unsigned *lanes)
{
	for (int e = 0; l && *l && e < CB_NELEM; e++) {
		lanes[e] = (unsigned)strtoul(l, (char **)&l, 10);
		if (*l == ',')
			l++;
	}
}

/* Stores and atomics: the loads' model unless told otherwise; atomics serialize by default. */
static void setup_ops(void)
{
	static const char *const geo[3] = { NULL, "CBSTUB_STORE", "CBSTUB_ATOMIC" };
	static const char *const lan[3] = { NULL, "CBSTUB_STORE_LANES", "CBSTUB_ATOMIC_LANES" };
	for (int op = 0; op < 3; op++) {
		dev.op_geom[op] = dev.geom;
		memcpy(dev.op_lanes[op], dev.lanes, sizeof dev.lanes);
		if (op == OP_ATOMIC)
			dev.op_geom[op].broadcast = false;
		const char *g = geo[op] ? getenv(geo[op]) : NULL;
		unsigned b, w, bc;
		if (g && sscanf(g, "%u,%u,%u", &b, &w, &bc) == 3)
			dev.op_geom[op] = (cb_geometry){ b, w, bc != 0, false };
		if (lan[op])
			parse_lanes(getenv(lan[op]), dev.op_lanes[op]);
	}
}

/* CBSTUB_COUNT=FILE: the launches, the virtual clock's nanoseconds and the builds (of a
 * source, of a binary) of the whole process, written at its exit, for tests that compare
 * what two runs cost the device. */
static void write_count(void)
{
	const char *path = getenv("CBSTUB_COUNT");
	FILE *f = path && *path ? fopen(path, "w") : NULL;
	if (!f)
		return;
	fprintf(f, "launches %u\ndevice_ns %llu\nsource_builds %u\nbinary_builds %u\n",
		dev.launches, (unsigned long long)(dev.clock - 1000000000ULL), dev.source_builds,
		dev.binary_builds);
	fclose(f);
}

void stub_setup(void)
{
	if (dev.ready)
		return;
	dev.ready = true;
	if (getenv("CBSTUB_COUNT"))
		atexit(write_count);
	dev.geom.banks = env_uint("CBSTUB_BANKS", 32);
	dev.geom.width = env_uint("CBSTUB_WIDTH", 4);
	dev.geom.broadcast = true;
	dev.geom.pair_packing = false;
	unsigned dflt[CB_NELEM] = { 32, 32, 32, 16, 8 };
	memcpy(dev.lanes, dflt, sizeof dflt);
	parse_lanes(getenv("CBSTUB_LANES"), dev.lanes);
	dev.subgroup = env_uint("CBSTUB_SUBGROUP", 32);
	dev.report_subgroup = env_uint("CBSTUB_REPORT_SUBGROUP", 1) != 0;
	dev.flat = env_uint("CBSTUB_FLAT", 0) != 0;
	const char *lt = getenv("CBSTUB_LOCAL_TYPE");
	dev.global_local = lt && strcmp(lt, "global") == 0;
	dev.amd = env_uint("CBSTUB_AMD", 0) != 0;
	dev.intel = env_uint("CBSTUB_INTEL", 0) != 0;
	dev.kernel_subgroup = env_uint("CBSTUB_KERNEL_SUBGROUP", 0);
	dev.loop_cap = env_uint("CBSTUB_LOOP_CAP", 0);
	const char *n = getenv("CBSTUB_NOISE");
	dev.noise = n && *n ? atof(n) : 0.01;
	const char *t0 = getenv("CBSTUB_T0");
	dev.t0 = t0 && *t0 ? atof(t0) : 2.0;
	dev.timer_res = env_uint("CBSTUB_TIMER_RES", 1000);
	dev.max_wg = env_size("CBSTUB_WG", 1024);
	dev.kernel_wg = env_size("CBSTUB_KERNEL_WG", 1024);
	dev.units = (cl_uint)env_size("CBSTUB_UNITS", 4);
	dev.clock_mhz = (cl_uint)env_size("CBSTUB_CLOCK", 1000);
	dev.name = getenv("CBSTUB_NAME");
	if (!dev.name)
		dev.name = "clbanks stub GPU";
	dev.ndevices = env_uint("CBSTUB_DEVICES", 1);
	if (dev.ndevices > MAX_DEVICES)
		dev.ndevices = 1;
	const char *fd = getenv("CBSTUB_FAULT_DEVICE");
	dev.fault_device = fd && *fd ? atoi(fd) : -1;
	const char *f = getenv("CBSTUB_FAULT");
	if (f) {
		snprintf(dev.fault, sizeof dev.fault, "%s", f);
		char *c = strchr(dev.fault, ':');
		if (c) {
			*c++ = '\0';
			dev.fault_n = atoi(c);
			char *c2 = strchr(c, ':');
			dev.fault_code = c2 ? atoi(c2 + 1) : CL_OUT_OF_RESOURCES;
		}
	}
	dev.clock = 1000000000ULL;
	dev.rng = 12345;
	dev.int64_atomics = env_uint("CBSTUB_NO_INT64_ATOMICS", 0) == 0;
	setup_ops();
}

bool stub_fault_is(const char *what)
{
	return strcmp(dev.fault, what) == 0 &&
	       (dev.fault_device < 0 || (unsigned)dev.fault_device == dev.current);
}

static double uniform(void)
{
	dev.rng = dev.rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(dev.rng >> 11) / 9007199254740992.0;
}

/* What cl/chase.cl returns for one lane: the last loaded value plus the step count. */
static uint32_t loaded(unsigned elem, uint32_t offset, uint32_t steps)
{
	uint32_t w = offset / 4, word = w * 0x9E3779B1u, v;
	unsigned shift = 8 * (offset % 4);
	switch (elem) {
	case 1:
		v = (word >> shift) & 0xffu;
		break;
	case 2:
		v = (word >> shift) & 0xffffu;
		break;
	case 4:
		v = word;
		break;
	case 8:
		v = word ^ ((w + 1) * 0x9E3779B1u);
		break;
	default:
		v = word ^ ((w + 1) * 0x9E3779B1u) ^ ((w + 2) * 0x9E3779B1u) ^
		    ((w + 3) * 0x9E3779B1u);
	}
	return v + steps;
}

/* What cl/store.cl and cl/atomic.cl return for work-item LID: the value of the last step, or
 * the pattern plus STEPS for each work-item of the group on the same element; plus STEPS. */
uint32_t stub_expected(const struct _cl_kernel *k, const uint32_t *table, size_t lid, size_t wg)
{
	uint32_t offset = table[lid % k->nlanes], v = k->steps - 1, w = offset / 4;
	if (k->op == OP_STORE) {
		uint32_t f = k->elem == 1   ? v & 0xffu
			     : k->elem == 2 ? v & 0xffffu
			     : k->elem == 4 ? v
			     : k->elem == 8 ? v ^ 5u
					    : v ^ 5u ^ 6u ^ 7u;
		return f + k->steps;
	}
	if (k->op != OP_ATOMIC)
		return loaded(k->elem, offset, k->steps);
	uint64_t same = 0;
	for (unsigned l = 0; l < k->nlanes; l++)
		same += table[l] == offset ? (wg + k->nlanes - 1 - l) / k->nlanes : 0;
	uint64_t add = same * k->steps;
	if (k->elem == 4)
		return w * 0x9E3779B1u + (uint32_t)add + k->steps;
	uint64_t x = ((uint64_t)((w + 1) * 0x9E3779B1u) << 32 | (w * 0x9E3779B1u)) + add;
	return ((uint32_t)x ^ (uint32_t)(x >> 32)) + k->steps;
}

/* cl/transpose.cl, done for real; its time: the column read's passes under the load model. */
/* Element I of cl/transpose.cl's input (CB_HASH). */
static uint64_t transpose_input(uint32_t i, size_t E)
{
	uint32_t h = i * 2654435761u;
	return E == 8 ? (uint64_t)i << 32 | h : h;
}

/* cb_transpose_fill (element i: the input's element i ^ salt) and cb_transpose_verify (the flag
 * set unless the matrix is the input's transpose). */
static cl_int transpose_helper(cl_kernel k, cl_event *ev)
{
	size_t n = k->n, E = k->prog->elem;
	cl_mem m = k->in;
	if (!m || n * n * E > m->size ||
	    (k->variant == STUB_VERIFY && (!k->check || k->check->size < 4)))
		return CL_INVALID_KERNEL_ARGS;
	for (size_t y = 0; y < n; y++)
		for (size_t x = 0; x < n; x++) {
			size_t i = y * n + x;
			uint64_t want = transpose_input((uint32_t)(k->variant == STUB_FILL
									   ? i ^ k->mask
									   : x * n + y),
							E),
				 got = 0;
			uint32_t want4 = (uint32_t)want, got4 = 0; /* 4 bytes: any byte order */
			if (k->variant == STUB_FILL) {
				memcpy(m->data + i * E, E == 4 ? (void *)&want4 : (void *)&want, E);
				continue;
			}
			if (E == 4) {
				memcpy(&got4, m->data + i * E, 4);
				got = got4;
			} else {
				memcpy(&got, m->data + i * E, E);
			}
			if (got != want) {
				uint32_t one = 1;
				memcpy(k->check->data, &one, 4);
				y = n;
				break;
			}
		}
	if (k->variant == STUB_FILL)
		m->gen++;
	if (ev)
		*ev = stub_new_event((double)n * n * 0.02 + 2000);
	return CL_SUCCESS;
}

cl_int stub_transpose(cl_kernel k, cl_event *ev)
{
	if (k->variant >= STUB_FILL)
		return transpose_helper(k, ev);
	const struct _cl_program *p = k->prog;
	size_t n = k->n, E = p->elem, T = p->tile, S = dev.subgroup;
	if (!k->in || !k->out || n * n * E > k->in->size || n * n * E > k->out->size)
		return CL_INVALID_KERNEL_ARGS;
	/* the input or the output was written since */
	k->done &= k->done_gen == k->in->gen && k->done_out_gen == k->out->gen;
	for (size_t by = 0; by < n && !k->done; by += 64) /* in blocks: cache-friendly */
		for (size_t bx = 0; bx < n; bx += 64)
			for (size_t y = by; y < by + 64 && y < n; y++)
				for (size_t x = bx; x < bx + 64 && x < n; x++)
					memcpy(k->out->data + (x * n + y) * E,
					       k->in->data + (y * n + x) * E, E);
	k->done = true; /* the same again until an argument or a matrix changes */
	k->done_gen = k->in->gen;
	k->done_out_gen = k->out->gen;
	if (stub_fault_is("wrong-transpose") && k->variant == 2) {
		k->out->data[E] ^= 1; /* the swizzled tile misplaces one bit */
		k->done = false;
	}
	uint32_t lanes[CB_MAX_LANES];
	for (unsigned l = 0; l < S; l++) {
		unsigned r = l % T, c = k->variant == 2 ? 0u ^ ((r >> p->shift) & p->xmask) : 0;
		lanes[l] = (uint32_t)((r * (T + (k->variant == 1 ? p->pad : 0)) + c) * E);
	}
	int e = cb_elem_index((unsigned)E);
	double passes = dev.flat ? 1 : cb_passes(&dev.geom, dev.lanes[e], (unsigned)E, lanes, S);
	if (ev)
		*ev = stub_new_event((double)n * n * (0.05 + 0.01 * passes) + 2000);
	return CL_SUCCESS;
}

cl_event stub_new_event(double ns)
{
	ns *= 1 + dev.noise * (2 * uniform() - 1);
	cl_event event = calloc(1, sizeof *event);
	event->d = &dispatch;
	event->start = dev.clock;
	event->end = stub_fault_is("zero-time") ? dev.clock : dev.clock + (cl_ulong)ns;
	if (stub_fault_is("counter-time")) {
		event->start = 2;
		event->end = 3;
	}
	dev.clock += (cl_ulong)ns + 1000;
	return event;
}
