/* SPDX-License-Identifier: MIT */
/* Writes a synthetic fleet for the compare tests, as a Slurm run leaves it:
 *   synth_fleet DIR N SLOW
 * DIR/nodeNNNN/DEVICE.json for N nodes (DIR must exist): every tenth node an AMD-like GPU,
 * the others an NVIDIA-like one, all from one plan (as runs with the default seed), each device
 * with its own noise and a chip-to-chip
 * spread of 0.1%; node SLOW (1-based; 0: none) runs every access 25% slower, as a GPU held at
 * 80% of its clock does. The documents hold the quick plan's stride, two-address, pool and
 * random tables of loads only: small, so that 1,000 of them are read and analyzed in seconds. */
#include "config.h"
#include "doc/doc.h"
#include "core/util.h"
#include "synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Keeps the measurements of the kinds the fleet's documents hold. */
static void keep_kinds(cb_result *r)
{
	static const char *const kinds[] = { "stride", "two_address", "pool", "random" };
	size_t kept = 0;
	for (size_t i = 0; i < r->nms; i++) {
		bool keep = false;
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
			keep |= r->ms[i].kind && strcmp(r->ms[i].kind, kinds[k]) == 0;
		if (keep)
			r->ms[kept++] = r->ms[i];
		else
			cb_measurement_free(&r->ms[i]);
	}
	r->nms = kept;
}

static void set_device(cb_result *r, bool amd)
{
	free(r->device.name);
	free(r->device.driver_version);
	free(r->run.regime);
	r->device.name = cb_xstrdup(amd ? "Synthetic MI300-like" : "Synthetic H200-like");
	r->device.driver_version = cb_xstrdup(amd ? "6.2.1" : "580.159.04");
	r->device.max_clock_mhz = amd ? 2100 : 1980;
	r->device.compute_units = amd ? 304 : 132;
	r->run.present = true;
	r->run.regime = cb_xstrdup("throughput");
	r->run.subgroups_per_cu = 3;
}

static int write_node(const char *dir, unsigned node, bool amd, bool slow)
{
	/* A chip-to-chip spread of 0.1% in the time of a pass and of a step. */
	double chip = 1 + 0.001 * ((double)((node * 7919u) % 21u) - 10) / 10;
	double f = chip * (slow ? 1.25 : 1);
	synth_device d = { .name = "fleet",
			   .subgroup = amd ? 64 : 32,
			   .geom = { 32, 4, true, false },
			   .lanes_per_pass = { 32, 32, 32, 16, 8 },
			   .t0 = (amd ? 2 : 0.5) * f,
			   .c = (amd ? 1.5 : 1) * f,
			   .noise = 0.002,
			   .seed = 100 + node,
			   .plan_seed = 1 };
	cb_result r;
	synth_result(&d, true, &r);
	keep_kinds(&r);
	set_device(&r, amd);
	char path[4096];
	/* As --host name records it on a Slurm node. */
	snprintf(path, sizeof path, "node%04u", node);
	r.run.host_name = cb_xstrdup(path);
	snprintf(path, sizeof path, "%s/node%04u", dir, node);
	if (mkdir(path, 0777) != 0 && errno != EEXIST)
		return perror(path), 1;
	snprintf(path, sizeof path, "%s/node%04u/%s.json", dir, node,
		 amd ? "synthetic-mi300-like" : "synthetic-h200-like");
	FILE *out = fopen(path, "w");
	char *s = cb_doc_write(&r);
	int rc = !out || fputs(s, out) < 0 || fclose(out) != 0;
	if (rc)
		perror(path);
	free(s);
	cb_result_free(&r);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fputs("usage: synth_fleet DIR N SLOW\n", stderr);
		return 2;
	}
	unsigned n = (unsigned)atoi(argv[2]), slow = (unsigned)atoi(argv[3]);
	for (unsigned node = 1; node <= n; node++)
		if (write_node(argv[1], node, node % 10 == 0, node == slow))
			return 1;
	return 0;
}
