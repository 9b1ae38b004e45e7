/* SPDX-License-Identifier: MIT */
/* Statistics, strict number parsing, the PRNG, CL error names, the expected kernel results,
 * the file names of --device all, the cores a process may use. */
#define _GNU_SOURCE /* sched_setaffinity */
#include "config.h"
#include "measure/clerr.h"
#include "measure/device.h"
#include "measure/ocl.h"
#include "core/hostid.h"
#include "core/stats.h"
#include "core/util.h"
#include "tap.h"

#include <math.h>
#include <string.h>
#ifdef __linux__
#include <sched.h>
#endif

/* The check value of lane 0 of a 4-lane table whose lanes all read OFFSET, in a group of 8. */
static uint32_t expect(cb_op op, unsigned E, uint32_t offset, uint32_t steps, bool le)
{
	uint32_t lanes[4] = { offset, offset, offset, offset };
	cb_launch_req req = {
		.op = op, .elem = cb_elem_index(E), .nlanes = 4, .steps = steps, .lanes = lanes
	};
	return cb_expected_result(&req, 0, 8, le);
}

/* SHA-256 against FIPS 180-4's examples (one block, none, two blocks of padding) and the host
 * id a document records: stable, and apart for another machine id or hostname. */
static void host_ids(void)
{
	/* clang-format off */
	static const struct { const char *in, *hex; } v[] = {
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	/* clang-format on */
	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		uint8_t d[32];
		char hex[65];
		cb_sha256(v[i].in, strlen(v[i].in), d);
		for (int k = 0; k < 32; k++)
			snprintf(hex + 2 * k, 3, "%02x", d[k]);
		tap_ok(strcmp(hex, v[i].hex) == 0, "sha256(\"%s\") = %s", v[i].in, hex);
	}
	char a[CB_HOST_ID_LEN + 1], b[CB_HOST_ID_LEN + 1], c[CB_HOST_ID_LEN + 1];
	cb_host_id("0123456789abcdef0123456789abcdef", "node0417", a);
	cb_host_id("0123456789abcdef0123456789abcdef", "node0417", b);
	tap_ok(strlen(a) == CB_HOST_ID_LEN && strcmp(a, b) == 0 && !strstr(a, "node"),
	       "host id: 12 hex digits, the same for the same machine (%s)", a);
	cb_host_id("0123456789abcdef0123456789abcdef", "node0418", c);
	tap_ok(strcmp(a, c) != 0, "host id: another hostname, another id (%s)", c);
	cb_host_id("fedcba9876543210fedcba9876543210", "node0417", c);
	tap_ok(strcmp(a, c) != 0, "host id: another machine id, another id (%s)", c);
	cb_host_id(NULL, "node0417", c);
	tap_ok(strcmp(a, c) != 0 && strlen(c) == CB_HOST_ID_LEN,
	       "host id without a machine id (%s)", c);
}

/* --device all: file names from what drivers report (vendor, device name). */
static void file_stems(void)
{
	/* clang-format off */
	static const char *const stems[][3] = {
		{ "NVIDIA Corporation", "NVIDIA H200", "nvidia-h200" },
		{ "Advanced Micro Devices, Inc.", "gfx90a:sramecc+:xnack-", "amd-gfx90a-sramecc-xnack" },
		{ "Intel(R) Corporation", "Intel(R) Data Center GPU Max 1550",
		  "intel-data-center-gpu-max-1550" },
		{ "GenuineIntel", "pthread-skylake-avx512-Intel(R) Xeon(R) Processor",
		  "intel-pthread-skylake-avx512-intel-xeon-processor" },
		{ "clbanks tests", "clbanks stub GPU", "clbanks-stub-gpu" },
		{ "ARM", "Mali-G78 r1p1", "arm-mali-g78-r1p1" },
		{ "  ", "\x1b[31m/../..", "31m" },
		{ "", "", "device" },
		{ "NVIDIA", "NVIDIA", "nvidia" },
	};
	/* clang-format on */
	for (size_t i = 0; i < sizeof stems / sizeof *stems; i++) {
		char buf[65];
		cb_device_file_stem(stems[i][0], stems[i][1], buf, sizeof buf);
		tap_ok(strcmp(buf, stems[i][2]) == 0, "device file stem %s (expected %s)", buf,
		       stems[i][2]);
	}
	char small[65];
	cb_device_file_stem("Vendor",
			    "a very long device name that goes on and on - and on, past "
			    "sixty-four characters",
			    small, sizeof small);
	tap_ok(strlen(small) <= 64 && small[strlen(small) - 1] != '-',
	       "a long name is cut to 64 characters, not inside a separator: %s", small);
}

/* Threads are sized by the cores the process may use (taskset, a cpuset), not the machine's. */
static void usable_cores(void)
{
	long all = cb_usable_cores();
	tap_ok(all >= 1, "at least one usable core (%ld)", all);
#ifdef __linux__
	cpu_set_t was, one;
	if (sched_getaffinity(0, sizeof was, &was) != 0 || CPU_COUNT(&was) < 2) {
		tap_skip("one core only: cannot narrow the affinity");
		return;
	}
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &was)) {
			CPU_SET(c, &one);
			break;
		}
	bool set = sched_setaffinity(0, sizeof one, &one) == 0;
	long narrowed = cb_usable_cores();
	sched_setaffinity(0, sizeof was, &was);
	tap_ok(set && narrowed == 1, "pinned to one of %d cores, the process may use 1 (%ld)",
	       CPU_COUNT(&was), narrowed);
#else
	tap_skip("no sched_setaffinity");
#endif
}

int main(void)
{
	double a[] = { 5, 1, 4, 2, 3 };
	tap_ok(cb_median(a, 5) == 3, "median of an odd count");
	tap_ok(cb_median(a, 4) == 3, "median of an even count averages the middle pair");
	tap_ok(isnan(cb_median(a, 0)), "median of nothing is NaN");

	cb_summary s;
	double b[30];
	for (int i = 0; i < 30; i++)
		b[i] = 100 + i;
	b[29] = 1e6;
	cb_summarize(b, 30, &s);
	tap_ok(s.median == 114.5, "summary median (%g)", s.median);
	tap_ok(s.mad == 7.5, "summary MAD (%g)", s.mad);
	tap_ok(s.outliers == 1, "one outlier flagged, kept in the data (%zu)", s.outliers);
	size_t lo = 0, hi = 0;
	bool have = cb_median_ci_ranks(30, &lo, &hi);
	tap_ok(have && lo == 10 && hi == 21,
	       "exact binomial 95%% CI ranks for n = 30: 10..21 (%zu..%zu)", lo, hi);
	tap_ok(cb_median_ci_ranks(6, &lo, &hi) && lo == 1 && hi == 6, "n = 6: extremes");
	tap_ok(!cb_median_ci_ranks(5, &lo, &hi), "n = 5: no 95%% CI");
	tap_ok(s.ci_lo == 109 && s.ci_hi == 120, "CI values from order statistics (%g..%g)",
	       s.ci_lo, s.ci_hi);
	double q[] = { 8, 1, 7, 2, 6, 3, 5, 4 };
	tap_ok(cb_iqr(q, 8) == 3.5, "IQR of 1..8: quartiles 2.75 and 6.25 (%g)", cb_iqr(q, 8));
	tap_ok(isnan(cb_iqr(q, 3)), "IQR of fewer than 4 values is NaN");
	/* A second mode 8% up that holds a third of the values (PoCL's launches): the MAD is 0,
	 * the quartiles span both modes. */
	double modes[12] = { 100, 100, 108, 100, 100, 108, 100, 100, 108, 100, 100, 108 };
	cb_summarize(modes, 12, &s);
	tap_ok(s.mad == 0 && cb_iqr(modes, 12) == 8,
	       "a mode of a third of the values: MAD %g, IQR %g", s.mad, cb_iqr(modes, 12));

	unsigned long v;
	tap_ok(cb_parse_ulong("42", 0, 100, &v) && v == 42, "parse 42");
	tap_ok(!cb_parse_ulong("4x", 0, 100, &v), "trailing junk rejected");
	tap_ok(!cb_parse_ulong("", 0, 100, &v), "empty rejected");
	tap_ok(!cb_parse_ulong("-1", 0, 100, &v), "negative rejected");
	tap_ok(!cb_parse_ulong(" 1", 0, 100, &v), "leading space rejected");
	tap_ok(!cb_parse_ulong("101", 0, 100, &v), "out of range rejected");
	tap_ok(!cb_parse_ulong("99999999999999999999999", 0, ~0UL, &v), "overflow rejected");
	double d;
	tap_ok(cb_parse_double("2.5", 0, 10, &d) && d == 2.5, "parse 2.5");
	tap_ok(!cb_parse_double("nan", 0, 10, &d), "NaN rejected");
	tap_ok(!cb_parse_double("1e999", 0, 1e300, &d), "infinite rejected");
	/* issue 39.23: decimal only, as the integer options (before: 0x10 and +5 were 16 and 5) */
	tap_ok(!cb_parse_double("0x10", 0, 100, &d), "hexadecimal rejected");
	tap_ok(!cb_parse_double("+5", 0, 100, &d), "a plus sign rejected");
	tap_ok(!cb_parse_double(" 5", 0, 100, &d), "leading space rejected");
	tap_ok(cb_parse_double("-2.5e-1", -1, 1, &d) && d == -0.25, "parse -2.5e-1");

	cb_rng r1, r2;
	cb_rng_seed(&r1, 7);
	cb_rng_seed(&r2, 7);
	bool same = true;
	for (int i = 0; i < 100; i++)
		same &= cb_rng_next(&r1) == cb_rng_next(&r2);
	tap_ok(same, "PRNG is deterministic for a seed");
	unsigned hist[4] = { 0 };
	for (int i = 0; i < 4000; i++)
		hist[cb_rng_below(&r1, 4)]++;
	tap_ok(hist[0] > 900 && hist[1] > 900 && hist[2] > 900 && hist[3] > 900,
	       "cb_rng_below covers its range evenly");

	tap_ok(strcmp(cb_cl_strerror(-11), "CL_BUILD_PROGRAM_FAILURE") == 0, "CL error -11 name");
	tap_ok(strcmp(cb_cl_strerror(-1001), "CL_PLATFORM_NOT_FOUND_KHR") == 0,
	       "CL error -1001 name");
	tap_ok(strcmp(cb_cl_strerror(-54), "CL_INVALID_WORK_GROUP_SIZE") == 0, "CL error -54 name");
	tap_ok(strcmp(cb_cl_strerror(-12345), "UNKNOWN_ERROR") == 0, "unknown code");

	/* The fill pattern: word w holds w * 0x9E3779B1; the load kernel returns the last load +
	 * steps, the store kernel the last step's value + steps, the atomic kernel the pattern
	 * plus STEPS per work-item on the element + steps. */
	uint32_t w1 = 0x9E3779B1u;
	tap_ok(expect(CB_OP_LOAD, 4, 4, 0, true) == w1, "4-byte element at offset 4");
	tap_ok(expect(CB_OP_LOAD, 4, 4, 24, true) == w1 + 24, "plus the step count");
	tap_ok(expect(CB_OP_LOAD, 1, 5, 0, true) == ((w1 >> 8) & 0xff),
	       "byte 1 of word 1, little endian");
	tap_ok(expect(CB_OP_LOAD, 1, 5, 0, false) == ((w1 >> 16) & 0xff),
	       "byte 1 of word 1, big endian");
	tap_ok(expect(CB_OP_LOAD, 2, 6, 0, true) == (w1 >> 16), "upper half of word 1");
	tap_ok(expect(CB_OP_LOAD, 8, 0, 0, true) == (0u ^ w1), "8-byte element folds two words");
	tap_ok(expect(CB_OP_LOAD, 16, 16, 0, true) == ((4 * w1) ^ (5 * w1) ^ (6 * w1) ^ (7 * w1)),
	       "16-byte element folds four words");
	tap_ok(expect(CB_OP_STORE, 4, 4, 64, true) == 63 + 64,
	       "store: the last step's value + steps");
	tap_ok(expect(CB_OP_STORE, 1, 4, 300, true) == (299 & 0xff) + 300,
	       "store: a byte keeps 8 bits");
	tap_ok(expect(CB_OP_STORE, 16, 0, 8, true) == (7u ^ 5u ^ 6u ^ 7u) + 8,
	       "store: a 16-byte element folds its four words");
	/* 4 lanes on offset 4 in a group of 8 work-items: 2 * 4 of them add to word 1. */
	tap_ok(expect(CB_OP_ATOMIC, 4, 4, 16, true) == w1 + 8 * 16 + 16,
	       "atomic: each work-item on the element adds STEPS");
	tap_ok(expect(CB_OP_ATOMIC, 8, 0, 16, true) == ((uint32_t)(8 * 16) ^ w1) + 16,
	       "atomic: a 64-bit element folds its halves");

	file_stems();
	host_ids();
	usable_cores();
	return tap_done();
}
