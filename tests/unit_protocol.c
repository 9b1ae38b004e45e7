/* SPDX-License-Identifier: MIT */
/* The timing protocol on a fake device with a fake clock: calibration, rounds, convergence,
 * invalid samples, interruption, the sub-group probe. No OpenCL. */
#include "config.h"
#include "measure/protocol.h"
#include "core/util.h"
#include "tap.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* A device whose time per step is cost[table] ns, with multiplicative noise; the clock moves
 * by each launch's duration. */
typedef struct {
	double cost[8];
	double noise;
	double clock_s;
	cb_rng rng;
	unsigned launches, verified, invalid_every, stop_after;
	unsigned group;           /* > 0: the probe's n-lane tables cost min(n, group) */
} fake;

static cb_rc fake_launch(void *ctx, const cb_experiment *x, unsigned steps, bool verify,
			 uint64_t *ns, cb_error *err)
{
	(void)err;
	fake *f = ctx;
	f->launches++;
	f->verified += verify;
	double per_step = x->index == CB_PROBE ? (f->group ? (x->nlanes < f->group ? x->nlanes : f->group) : 1)
					       : f->cost[x->table];
	double u = (double)cb_rng_below(&f->rng, 1u << 20) / (1u << 20);
	double t = per_step * steps * (1 + f->noise * (2 * u - 1));
	f->clock_s += t * 1e-9;
	*ns = f->invalid_every && f->launches % f->invalid_every == 0 ? 0 : (uint64_t)t;
	if (f->stop_after && f->launches == f->stop_after)
		cb_stop_signal = SIGINT;
	return CB_OK;
}

static double fake_now(void *ctx)
{
	return ((fake *)ctx)->clock_s;
}

static cb_experiment *experiments(size_t n, unsigned rounds)
{
	static const uint32_t lanes[4] = { 0, 4, 8, 12 };
	cb_experiment *ex = cb_xcalloc(n, sizeof *ex);
	for (size_t i = 0; i < n; i++) {
		ex[i].index = i ? i - 1 : CB_BASELINE;
		ex[i].elem = 2;
		ex[i].table = (unsigned)i;
		ex[i].nlanes = 4;
		ex[i].lanes = lanes;
		ex[i].ratios = cb_xcalloc(rounds, sizeof(double));
		ex[i].samples = cb_xcalloc(rounds, sizeof(uint64_t));
	}
	return ex;
}

static void free_experiments(cb_experiment *ex, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(ex[i].ratios);
		free(ex[i].samples);
	}
	free(ex);
}

static void calibration_and_rounds(void)
{
	fake f = { .cost = { 1, 2, 32, 1 }, .noise = 0 };
	cb_rng_seed(&f.rng, 1);
	cb_launcher l = { fake_launch, fake_now, &f };
	cb_protocol_opts o = { 6, 30, 0.02, 1e6, 1, NULL };
	cb_protocol_state st = { 0 };
	cb_error err;
	cb_experiment *ex = experiments(4, 30);
	tap_ok(cb_calibrate(&l, &o, ex, 4, &st, &err) == CB_OK, "calibration succeeds");
	tap_ok(ex[0].steps >= 999992 && ex[0].steps <= 1000008 && ex[0].steps % 8 == 0,
	       "the baseline's chain fills the 1 ms target (%u steps of 1 ns)", ex[0].steps);
	tap_ok(ex[2].steps >= 31240 && ex[2].steps <= 31256, "a 32x slower table gets 1/32 of the steps "
	       "(%u)", ex[2].steps);
	tap_ok(f.verified >= 4, "the first baseline launch and every experiment's probe are verified "
	       "(%u)", f.verified);
	tap_ok(f.clock_s >= 0.1, "the warm-up lasts 100 ms of device time (%.3f s)", f.clock_s);
	tap_ok(cb_measure_rounds(&l, &o, ex, 4, &st, &err) == CB_OK, "rounds succeed");
	tap_ok(st.rounds == 6 && st.converged, "noiseless data converge after the minimum rounds (%u)",
	       st.rounds);
	tap_ok(fabs(ex[1].ratios[0] - 2) < 1e-3 && fabs(ex[2].ratios[5] - 32) < 1e-2,
	       "ratios to the baseline of the same round (%.4f, %.4f)", ex[1].ratios[0], ex[2].ratios[5]);
	free_experiments(ex, 4);

	fake g = { .cost = { 1, 2, 3 }, .noise = 0.5 };
	cb_rng_seed(&g.rng, 2);
	cb_launcher lg = { fake_launch, fake_now, &g };
	cb_protocol_opts og = { 6, 9, 0.001, 1e5, 1, NULL };
	ex = experiments(3, 9);
	cb_protocol_state sg = { 0 };
	cb_calibrate(&lg, &og, ex, 3, &sg, &err);
	tap_ok(cb_measure_rounds(&lg, &og, ex, 3, &sg, &err) == CB_OK && sg.rounds == 9 && !sg.converged,
	       "noisy data run to --max-rounds and say they did not converge (%u rounds)", sg.rounds);
	free_experiments(ex, 3);
}

static void invalid_and_interrupted(void)
{
	cb_error err;
	fake f = { .cost = { 1, 1, 1 }, .invalid_every = 10 };
	cb_rng_seed(&f.rng, 3);
	cb_launcher l = { fake_launch, fake_now, &f };
	cb_protocol_opts o = { 6, 12, 0.02, 1e5, 1, NULL };
	cb_protocol_state st = { 0 };
	cb_experiment *ex = experiments(3, 12);
	cb_calibrate(&l, &o, ex, 3, &st, &err);
	cb_rc rc = cb_measure_rounds(&l, &o, ex, 3, &st, &err);
	tap_ok(rc == CB_ERR_RUNTIME && strstr(err.text, "timer samples were invalid"),
	       "one invalid sample in ten is a broken timer: %s", err.text);
	tap_ok(st.invalid_samples > 0 && st.invalid_samples < st.total_samples,
	       "invalid samples are counted, not dropped (%zu of %zu)", st.invalid_samples,
	       st.total_samples);
	free_experiments(ex, 3);

	fake g = { .cost = { 1, 1, 1 }, .stop_after = 40 };
	cb_rng_seed(&g.rng, 4);
	cb_launcher lg = { fake_launch, fake_now, &g };
	cb_protocol_state sg = { 0 };
	ex = experiments(3, 12);
	cb_calibrate(&lg, &o, ex, 3, &sg, &err);
	rc = cb_measure_rounds(&lg, &o, ex, 3, &sg, &err);
	tap_ok(rc == CB_ERR_INTERRUPTED && err.signal == SIGINT && strstr(err.text, "interrupted by SIGINT"),
	       "a stop between launches ends the rounds: %s", err.text);
	cb_stop_signal = 0;
	free_experiments(ex, 3);

	fake h = { .cost = { 0, 0 } };
	cb_launcher lh = { fake_launch, fake_now, &h };
	ex = experiments(2, 6);
	cb_protocol_state sh = { 0 };
	rc = cb_calibrate(&lh, &o, ex, 2, &sh, &err);
	tap_ok(rc == CB_ERR_RUNTIME && strstr(err.text, "gives no time for the baseline"),
	       "a timer that never moves cannot calibrate: %s", err.text);
	free_experiments(ex, 2);
}

static void probe(void)
{
	uint32_t tables[2 * CB_PROBE_MAXN];
	unsigned ns[CB_PROBE_MAX];
	unsigned count = cb_probe_tables(tables, 32768, ns);
	tap_ok(count == 7 && ns[6] == 64 && tables[64 + 3] == 3 * CB_PROBE_STRIDE,
	       "probe tables: n = 1..64 lanes one bank row apart in 32 KiB (%u)", count);
	cb_error err;
	cb_subgroup_probe p;
	fake f = { .group = 32 };
	cb_launcher l = { fake_launch, fake_now, &f };
	tap_ok(cb_probe_subgroup(&l, tables, ns, count, &p, &err) == CB_OK && p.found == 32,
	       "a device serving 32 lanes together: the curve levels off at 32 (%u)", p.found);
	fake flat = { .group = 0 };
	cb_launcher lf = { fake_launch, fake_now, &flat };
	tap_ok(cb_probe_subgroup(&lf, tables, ns, count, &p, &err) == CB_OK && p.found == 0,
	       "a flat device: no sub-group size is claimed");
	count = cb_probe_tables(tables, 4096, ns);
	tap_ok(count == 4, "the probe stays within the local memory it has (%u tables in 4 KiB)", count);
}

int main(void)
{
	calibration_and_rounds();
	invalid_and_interrupted();
	probe();
	tap_ok(cb_round_steps(0) == CB_STEPS_MIN && cb_round_steps(1e12) == CB_STEPS_MAX &&
	       cb_round_steps(13) == 16, "chain lengths are clamped and multiples of 8");
	uint32_t lanes[4] = { 0, 100, 17, 3 };
	tap_ok(cb_fill_words(lanes, 4, 4) == 28, "the fill covers the farthest element (%u words)",
	       cb_fill_words(lanes, 4, 4));
	return tap_done();
}
