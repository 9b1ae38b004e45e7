/* SPDX-License-Identifier: MIT */
/* Synthetic devices for the inference tests: a plan timed by a known bank model plus noise. */
#ifndef CB_SYNTH_H
#define CB_SYNTH_H

#include "core/model.h"

#include "core/result.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
	const char *name;
	unsigned subgroup;
	cb_geometry geom;
	unsigned lanes_per_pass[CB_NELEM];
	double t0, c;        /* ns: t = t0 + c * passes */
	double noise;        /* multiplicative noise, uniform in [1 - noise, 1 + noise] */
	bool gauss;          /* noise is Gaussian with standard deviation `noise` instead */
	bool no_ci;          /* record no 95% CI (a run records 1.96 x each table's noise) */
	bool amd_b128_sets;  /* 16-byte loads (not stores) in AMD's ds_read_b128 lane sets (CDNA):
				* 8 non-contiguous lanes a pass, outside the model family */
	bool flat;           /* no banks: t = t0 */
	double fake_step;    /* > 0: PoCL-like slowdown when every offset is a multiple of 64 B */
	double pair_saving;  /* > 0: a 16-byte broadcast costs this share less (NVIDIA) */
	int xor_shift;       /* > 0: out of the family, bank = (w ^ (w >> xor_shift)) % banks */
	unsigned port_floor; /* > 0: out of the family, 8- and 16-byte accesses cost at least
				* this many passes (a per-wave port limit) */
	unsigned floor_all;  /* > 0: out of the family, every access costs at least this many
				* passes (a latency-bound device: few conflicts hide under it) */
	unsigned outlier_every; /* > 0: every this-many-th table is 25% slow (a disturbed round) */
	double ci_scale;      /* > 0: the recorded CI is this share of the true one (too narrow) */
	unsigned unconverged; /* > 0: every this-many-th table's CI did not reach the target (a
				* noisy run: the run factor lowers the confidence) */
	uint64_t seed;
	uint64_t plan_seed; /* the plan's seed (0: seed + 7) */
	unsigned ops;       /* CB_OP_BIT bits of the plan (0: loads only) */
	/* Stores' and atomics' models (index by cb_op; banks 0: the loads' model). */
	cb_geometry op_geom[CB_NOPS];
	unsigned op_lanes[CB_NOPS][CB_NELEM];
	/* One element size of an op with a geometry of its own (banks 0: the op's), lanes per pass
	 * op_lanes: outside the family, whose geometry is shared by the sizes of an op. */
	cb_geometry op_size_geom[CB_NOPS][CB_NELEM];
} synth_device;

/* The passes D's device takes for one access of OP (its true cost, in or out of the family;
 * a flat device's are meaningless). */
unsigned synth_passes(const synth_device *d, cb_op op, unsigned elem_bytes, const uint32_t *lanes);
/* A timed result for the default plan (or the quick one), into R. */
void synth_result(const synth_device *d, bool quick, cb_result *r);
/* The same for the adaptive design's pool (every op with the loads' full set of tables). */
void synth_pool(const synth_device *d, cb_result *r);

#endif
