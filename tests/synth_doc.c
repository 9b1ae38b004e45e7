/* SPDX-License-Identifier: MIT */
/* Writes the timed document of a synthetic device to stdout, for the shell tests:
 *   synth_doc nvidia|amd|cdna|banks64|intel|flat|pocl|ops
 *   synth_doc sub N
 * (ops: NVIDIA-like loads and stores, atomics that serialize on one word; sub N: 32 banks of
 * 4 B and sub-groups of N lanes, 1 to 256, for the sweep over sizes.) */
#include "config.h"
#include "doc/doc.h"
#include "core/plan.h"
#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	synth_device d;
	memset(&d, 0, sizeof d);
	d.noise = 0.03;
	d.seed = 3;
	const char *name = argc > 1 ? argv[1] : "";
	if (strcmp(name, "nvidia") == 0) {
		d = (synth_device){ .name = "Synthetic NVIDIA-like",
				    .subgroup = 32,
				    .geom = { 32, 4, true, false },
				    .lanes_per_pass = { 32, 32, 32, 16, 8 },
				    .t0 = 0.5,
				    .c = 1,
				    .noise = 0.03,
				    .seed = 3 };
	} else if (strcmp(name, "amd") == 0) {
		d = (synth_device){ .name = "Synthetic AMD-like",
				    .subgroup = 64,
				    .geom = { 32, 4, true, false },
				    .lanes_per_pass = { 32, 32, 32, 16, 8 },
				    .t0 = 2,
				    .c = 1.5,
				    .noise = 0.03,
				    .seed = 4 };
	} else if (strcmp(name, "cdna") == 0) {
		d = (synth_device){ .name = "Synthetic CDNA-like",
				    .subgroup = 64,
				    .geom = { 64, 4, true, false },
				    .lanes_per_pass = { 64, 64, 64, 32, 16 },
				    .t0 = 2,
				    .c = 1.5,
				    .noise = 0.03,
				    .seed = 9 };
	} else if (strcmp(name, "banks64") == 0) {
		d = (synth_device){ .name = "Synthetic 64-bank",
				    .subgroup = 32,
				    .geom = { 64, 4, true, false },
				    .lanes_per_pass = { 32, 32, 32, 32, 16 },
				    .t0 = 0.5,
				    .c = 1,
				    .noise = 0.02,
				    .seed = 8 };
	} else if (strcmp(name, "intel") == 0) {
		d = (synth_device){ .name = "Synthetic Intel-like",
				    .subgroup = 16,
				    .geom = { 16, 4, true, false },
				    .lanes_per_pass = { 16, 16, 16, 16, 16 },
				    .t0 = 1,
				    .c = 2,
				    .noise = 0.03,
				    .seed = 5 };
	} else if (strcmp(name, "flat") == 0 || strcmp(name, "pocl") == 0) {
		d = (synth_device){ .name = "Synthetic CPU",
				    .subgroup = 8,
				    .flat = true,
				    .t0 = 3,
				    .noise = 0.02,
				    .fake_step = strcmp(name, "pocl") == 0 ? 0.2 : 0,
				    .seed = 6 };
	} else if (strcmp(name, "ops") == 0) {
		d = (synth_device){ .name = "Synthetic NVIDIA-like, three ops",
				    .subgroup = 32,
				    .geom = { 32, 4, true, false },
				    .lanes_per_pass = { 32, 32, 32, 16, 8 },
				    .t0 = 0.5,
				    .c = 1,
				    .noise = 0.03,
				    .seed = 7,
				    .ops = CB_OPS_ALL };
		d.op_geom[CB_OP_ATOMIC] = (cb_geometry){ 32, 4, false, false };
		unsigned at[CB_NELEM] = { 32, 32, 32, 16, 8 };
		memcpy(d.op_lanes[CB_OP_ATOMIC], at, sizeof at);
	} else if (strcmp(name, "sub") == 0 && argc > 2 && atoi(argv[2]) >= 1 &&
		   atoi(argv[2]) <= 256) {
		unsigned n = (unsigned)atoi(argv[2]);
		d = (synth_device){ .name = "Synthetic sub-group sweep",
				    .subgroup = n,
				    .geom = { 32, 4, true, false },
				    .t0 = 0.5,
				    .c = 1,
				    .noise = 0.02,
				    .seed = 11 + n };
		unsigned per_pass[CB_NELEM] = { 32, 32, 32, 16, 8 };
		for (unsigned e = 0; e < CB_NELEM; e++)
			d.lanes_per_pass[e] = per_pass[e] < n ? per_pass[e] : n;
	} else {
		fputs("usage: synth_doc nvidia|amd|cdna|banks64|intel|flat|pocl|ops|sub N\n",
		      stderr);
		return 2;
	}
	cb_result r;
	synth_result(&d, true, &r);
	char *s = cb_doc_write(&r);
	fputs(s, stdout);
	free(s);
	cb_result_free(&r);
	return fflush(stdout) == 0 ? 0 : 1;
}
