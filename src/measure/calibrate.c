/* SPDX-License-Identifier: MIT */
/* Calibration: the timer check, the launch length from measured noise, every experiment's
 * chain (see protocol.h). */
#include "config.h"
#include "measure/protocol.h"
#include "measure/protocol_internal.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_MAX 40
/* The baseline grows until a launch lasts this long on the host clock. */
#define CHECK_HOST_NS 1e6
/* The shortest long chain: its quarter, the short chain, is still 16 steps; fewer leave the
 * difference to the launch's own jitter (a 32-way conflict's 16-step chain read 31.1 where
 * 2 ms launches read 32.4). */
#define MIN_CHAIN 64.0
/* ... unless 64 steps take longer than this many launch lengths (the H200's 8-byte local
 * atomics, a compare-and-swap loop: 10 ms at 64 steps, 38% of a run): then a chain of that
 * length, at least two of the kernel's granules (16 steps, atomics 8). The difference to its
 * short chain (a quarter, at least 8 steps, atomics 4) still lasts hundreds of microseconds,
 * far above the jitter that the rule above is about. 4 launch lengths, not 8: on an H100 the 8-byte atomics' stride
 * ratios stayed within 0.4% (14.13 to 14.17 against 14.12 to 14.15 at stride 32, 4 runs each)
 * and their tables took 0.065 s of a default run instead of 0.10 s. */
#define SLOW_CAP 4.0
#define SLOW_MIN_GRANULES 2.0
/* The host clock's own cost (a launch's start and wait) is a few ms on some stacks. */
#define HOST_FLOOR_NS 5e6
/* Rounds the launch-length budget plans for. */
#define PLANNED_ROUNDS 8.0

typedef struct {
	unsigned steps;
	uint64_t event_ns;
	double host_ns;
} check_point;

typedef struct {
	check_point pt[CHECK_MAX];
	unsigned n;
	unsigned good, bad;      /* longest chain that verified, shortest that did not (0) */
	unsigned launches, zero; /* check launches, and those that read END <= START */
} growth;

/* One launch of B with STEPS, timed both ways; *VERIFIED false when its result was wrong. */
static cb_rc time_once(const cb_launcher *l, cb_experiment *b, unsigned steps, check_point *pt,
		       bool *verified, cb_error *err)
{
	cb_launch_item it = { b, steps };
	double host = 0;
	long bad = -1;
	cb_rc rc = l->run(l->ctx, &it, 1, 1.0, &pt->event_ns, &host, &bad, err);
	pt->steps = steps;
	pt->host_ns = host * 1e9;
	*verified = bad < 0;
	if (rc != CB_OK && bad >= 0)
		rc = CB_OK; /* a chain the device cannot run: the caller shortens it */
	return rc;
}

static void record(growth *g, const check_point *pt)
{
	if (g->n < CHECK_MAX)
		g->pt[g->n++] = *pt;
}

/* time_once, counted in G; a launch whose event reads END <= START is launched again (twice at
 * most): one bad event is a sample, not the timer (before: it stopped the run, "in every
 * launch", or moved it to the host clock). */
static cb_rc time_counted(const cb_launcher *l, cb_experiment *b, unsigned steps, check_point *pt,
			  bool *verified, growth *g, cb_error *err)
{
	cb_rc rc = CB_OK;
	for (int k = 0; k < 3 && rc == CB_OK; k++) {
		rc = time_once(l, b, steps, pt, verified, err);
		g->launches++;
		if (rc != CB_OK || !*verified || pt->event_ns != 0)
			break;
		g->zero++;
	}
	return rc;
}

/* Between the longest chain that verified and the shortest that did not. */
static cb_rc search_cap(const cb_launcher *l, cb_experiment *b, growth *g, cb_error *err)
{
	for (int k = 0; k < 24 && g->bad - g->good > 8; k++) {
		unsigned mid = cb_round_steps((g->good + (double)g->bad) / 2);
		if (mid <= g->good || mid >= g->bad)
			break;
		check_point pt;
		bool ok;
		cb_rc rc = time_counted(l, b, mid, &pt, &ok, g, err);
		if (rc != CB_OK)
			return rc;
		if (ok) {
			g->good = mid;
			record(g, &pt);
		} else {
			g->bad = mid;
		}
	}
	return CB_OK;
}

/* The baseline with chains of 64, 256, 1024, ... steps, each verified, until a launch lasts
 * CHECK_HOST_NS and four times the shortest launch: its time is then mostly the chain's, not
 * the launch's own cost (which reaches 1 ms on a loaded CPU or under the sanitizers). A chain
 * that does not verify ends the growth and the longest that does is searched for. */
static cb_rc grow_baseline(const cb_launcher *l, cb_experiment *b, growth *g, cb_error *err)
{
	memset(g, 0, sizeof *g);
	unsigned steps = 64;
	double least_host_ns = INFINITY;
	for (int k = 0; k < 20 && !cb_stop_signal; k++) {
		check_point pt;
		bool ok;
		cb_rc rc = time_counted(l, b, steps, &pt, &ok, g, err);
		if (rc != CB_OK)
			return rc;
		if (!ok && !g->good) {
			/* Not even the shortest chain: the kernel itself is wrong. */
			cb_error_prefix(err, "the device cannot run a verified chain: ");
			err->rc = CB_ERR_RUNTIME;
			return CB_ERR_RUNTIME;
		}
		if (!ok) {
			g->bad = steps;
			break;
		}
		record(g, &pt);
		g->good = steps;
		least_host_ns = fmin(least_host_ns, pt.host_ns);
		if ((pt.host_ns >= CHECK_HOST_NS && pt.host_ns >= 4 * least_host_ns) ||
		    steps >= CB_STEPS_MAX)
			break;
		steps = cb_round_steps(steps * 4.0);
	}
	if (cb_stop_signal)
		return cb_check_interrupt(err);
	return g->bad ? search_cap(l, b, g, err) : CB_OK;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* What is wrong with the event timer, or NULL. Also measures its granularity. */
static const char *event_problem(const cb_protocol_opts *o, const growth *g, char *buf, size_t n,
				 cb_protocol_state *st)
{
	const check_point *longest = &g->pt[0], *shortest = &g->pt[0];
	uint64_t step = 0;
	bool constant = true;
	for (unsigned i = 0; i < g->n; i++) {
		const check_point *p = &g->pt[i];
		if (p->event_ns == 0 && g->zero >= g->launches)
			return "END - START is 0 (END <= START) in every launch";
		if (p->event_ns == 0) {
			snprintf(buf, n,
				 "END <= START in %u of %u calibration launches, also when "
				 "launched again",
				 g->zero, g->launches);
			return buf;
		}
		step = gcd(step, p->event_ns);
		constant &= p->event_ns == g->pt[0].event_ns;
		if (p->steps > longest->steps)
			longest = p;
		if (p->steps < shortest->steps)
			shortest = p;
	}
	/* A greatest common divisor of one or two durations says nothing of the timer's tick. */
	st->granularity_ns = g->n >= 3 ? step : 0;
	st->event_host_ratio = longest->host_ns > 0 ? (double)longest->event_ns / longest->host_ns
						    : 0;
	if (constant && g->n > 1) {
		snprintf(buf, n, "every launch reads %llu ns, whatever it does",
			 (unsigned long long)g->pt[0].event_ns);
		return buf;
	}
	/* Sixteen times the work must take clearly longer. */
	if (longest->steps >= 16 * shortest->steps && longest->event_ns < 2 * shortest->event_ns) {
		snprintf(buf, n,
			 "its times do not grow with the work (%u steps read %llu ns, %u steps "
			 "%llu ns)",
			 shortest->steps, (unsigned long long)shortest->event_ns, longest->steps,
			 (unsigned long long)longest->event_ns);
		return buf;
	}
	if (longest->host_ns >= 0.5e6 &&
	    (st->event_host_ratio > 1.5 || st->event_host_ratio < 0.25)) {
		snprintf(buf, n,
			 "a launch of %.3g ms on the host clock reads %.3g ms on the device",
			 longest->host_ns / 1e6, (double)longest->event_ns / 1e6);
		return buf;
	}
	uint64_t declared = o->declared_resolution_ns ? o->declared_resolution_ns : 1;
	if (g->n >= 3 && step > 2 * declared && step * 100 > longest->event_ns) {
		snprintf(buf, n, "it ticks in steps of %llu ns, coarser than the declared %llu ns",
			 (unsigned long long)step, (unsigned long long)declared);
		return buf;
	}
	return NULL;
}

static cb_rc decide_timer(const cb_protocol_opts *o, const growth *g, cb_protocol_state *st,
			  cb_error *err)
{
	char buf[160];
	const char *problem = o->event_timer ? event_problem(o, g, buf, sizeof buf, st)
					     : "the driver has no profiling queue";
	char *why = st->timer_reason;
	size_t n = sizeof st->timer_reason;
	if (o->timer == CB_TIMER_HOST || !o->event_timer) {
		st->timer = CB_TIMER_HOST;
		snprintf(why, n, "%s", o->event_timer ? "--timer host" : problem);
	} else if (o->timer == CB_TIMER_EVENT) {
		st->timer = CB_TIMER_EVENT;
		snprintf(why, n, "--timer event%s%s", problem ? "; the check found: " : "",
			 problem ? problem : "");
	} else if (problem) {
		st->timer = CB_TIMER_HOST;
		snprintf(why, n, "the event timer is not used: %s", problem);
	} else {
		st->timer = CB_TIMER_EVENT;
		snprintf(why, n,
			 "the event timer agrees with the host clock (%.2f of a %.3g ms launch)",
			 st->event_host_ratio, g->n ? g->pt[g->n - 1].host_ns / 1e6 : 0.0);
	}
	if (problem && st->timer == CB_TIMER_HOST && o->event_timer)
		cb_note(o->notify, CB_NOTE_WARNING,
			"%s; timing launches one by one with the host clock", st->timer_reason);
	else if (problem && st->timer == CB_TIMER_EVENT && problem[0] == 'E')
		return cb_error_set(err, CB_ERR_RUNTIME,
				    "the device timer gives no time (%s); it "
				    "cannot be trusted (--timer host or auto)",
				    problem);
	else if (problem && st->timer == CB_TIMER_EVENT)
		cb_note(o->notify, CB_NOTE_WARNING, "%s", st->timer_reason);
	return CB_OK;
}

/* Time per step of the baseline from the longest check launch, with the chosen timer. */
static double per_step_of(const growth *g, const cb_protocol_state *st)
{
	const check_point *p = &g->pt[0];
	for (unsigned i = 0; i < g->n; i++)
		if (g->pt[i].steps > p->steps)
			p = &g->pt[i];
	double t = st->timer == CB_TIMER_HOST ? p->host_ns : (double)p->event_ns;
	return t > 0 ? t / p->steps : 1;
}

/* Relative noise of K differential times of B with (L, S): 1.4826 MAD over the median. Twelve
 * pairs, and a median-based spread, so that one slow launch (a clock still ramping, another
 * process) does not move the launch length: 0.2.0's (max - min) / 4 of eight pairs taken
 * before the warm-up chose 0.5 ms launches on the H200 in 4 runs of 10 where 0.1 ms was enough.
 * On a CPU (CPU) 36 pairs and the interquartile range over 1.349: PoCL's 64-step launches fall
 * in two modes 8% apart, about half in each; twelve pairs' MAD read 0.2% to 28% at one length
 * (p10 and p90 of 20 draws) and met the 1.41% limit in 0 to 60% of the draws at every length
 * from 0.3 to 4.5 ms, so the length was a lottery. The quartiles see a mode that holds a
 * quarter of the pairs (the MAD only one that holds half): over 36 pairs they met the limit in
 * 3 of 135 draws at those lengths (the MAD in 10; twelve pairs' MAD in 83 of 450). */
static cb_rc differential_noise(const cb_launcher *l, cb_protocol_state *st, cb_experiment *b,
				unsigned L, unsigned S, bool cpu, double *noise, double *per_step,
				cb_error *err)
{
	enum { KMAX = 36 };
	const int K = cpu ? KMAX : 12;
	cb_launch_item items[2 * KMAX];
	uint64_t ns[2 * KMAX];
	for (int k = 0; k < K; k++) {
		items[2 * k] = (cb_launch_item){ b, L };
		items[2 * k + 1] = (cb_launch_item){ b, S };
	}
	long bad;
	cb_rc rc = cb_run_items(l, st->timer, items, 2 * K, 1e-9 * 2 * K * st->launch_ns, ns, &bad,
				NULL, err);
	if (rc != CB_OK)
		return rc;
	double d[KMAX];
	size_t nd = 0;
	cb_summary s;
	for (int k = 0; k < K; k++) {
		double v = cb_differential(ns[2 * k], ns[2 * k + 1], L, S);
		if (v > 0)
			d[nd++] = v;
	}
	cb_summarize(d, nd, &s);
	*per_step = nd ? s.median : 0;
	double spread = cpu ? cb_iqr(d, nd) / 1.349 : 1.4826 * s.mad;
	*noise = nd * 4 >= 3 * (size_t)K && s.median > 0 ? spread / s.median : INFINITY;
	return CB_OK;
}

/* The differential noise at which the launch length stops growing: target x sqrt(N) / 3.47,
 * the noise whose median over N rounds has a normal-theory 95% half-width (1.96 x 1.2533 x
 * noise / sqrt N) of the target, with N the rounds a run surely takes (at least 6, which a
 * converged interval needs) and the ratio's own noise (over a baseline that is a median of
 * three) taken as sqrt 2 x that. 1.41% at 6 rounds and 2%, where 0.2.0 asked for half the
 * target. clbanks' order-statistic interval is wider at 6 rounds, so such a run may take a few
 * more rounds: on the H200 (6 runs, 0.1 ms launches at 0.7 to 1.1% noise) every measurement
 * converged within 9 rounds, and launches twice as long were no more accurate. */
static double noise_limit(const cb_protocol_opts *o)
{
	double n = o->min_rounds > 6 ? o->min_rounds : 6;
	if (o->max_rounds && n > o->max_rounds)
		n = o->max_rounds;
	return o->ci_target * sqrt(n) / (1.96 * 1.2533 * sqrt(2.0));
}

/* The shortest launch length of the ladder whose differential noise meets the target. On a CPU
 * a rung whose chain is the one before's (the shortest chain, MIN_CHAIN, stands for the first
 * rungs there) is not measured again: another draw of the same noise is no new information. */
static cb_rc choose_length(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *b,
			   size_t nex, double per_step, unsigned cap, cb_protocol_state *st,
			   cb_error *err)
{
	static const double ladder[] = { 25e3, 50e3, 100e3, 200e3, 500e3, 1e6,   2e6, 5e6,
					 10e6, 20e6, 50e6,  100e6, 200e6, 500e6, 1e9 };
	/* The declared tick, where it is coarser than the measured one, holds the floor: NVIDIA
	 * declares 1,000 ns and ticks in 32, and 25 us launches on an H100 (the measured tick's
	 * floor) met the noise limit but read strides 4 to 16 up to 4% high, where 100 us launches
	 * read them within 0.5% of Nsight Compute's passes. */
	double tick = (double)(st->granularity_ns > o->declared_resolution_ns
				       ? st->granularity_ns
				       : o->declared_resolution_ns);
	double floor = st->timer == CB_TIMER_HOST ? HOST_FLOOR_NS : fmax(25e3, 100 * tick);
	double ceil = fmin(o->max_launch_ns,
			   o->budget_s * 1e9 / ((double)nex * 1.25 * PLANNED_ROUNDS));
	/* --max-kernel-ms is a hard limit; the floor and the budget are not. */
	floor = fmin(floor, o->max_launch_ns);
	if (ceil < floor)
		ceil = floor;
	st->launch_ceil_ns = ceil;
	double ps = per_step;
	unsigned last = 0;
	for (size_t i = 0; i < sizeof ladder / sizeof *ladder; i++) {
		double T = fmax(floor, fmin(ladder[i], ceil));
		if (i && ladder[i - 1] >= T)
			continue;
		unsigned L = cb_round_steps(fmax(T / ps, MIN_CHAIN));
		if (cap && L > cap)
			L = cb_round_steps(cap - 7.0) > cap ? cap : cb_round_steps(cap - 7.0);
		if (o->cpu && L == last)
			continue;
		last = L;
		unsigned S = cb_round_steps(L / 4.0);
		st->launch_ns = L * ps;
		double noise, measured;
		cb_rc rc = differential_noise(l, st, b, L, S, o->cpu, &noise, &measured, err);
		if (rc != CB_OK)
			return rc;
		b->steps = L;
		b->steps_short = S;
		st->noise = noise;
		if (measured > 0)
			ps = measured;
		st->launch_ns = L * ps;
		if (noise <= noise_limit(o) || T >= ceil || (cap && L >= cap))
			break;
	}
	return CB_OK;
}

/* The kernels run chains in multiples of 8 steps; cl/atomic.cl (and cl/cpu.cl's atomics) also of
 * 4, so that the slowest atomics' shortest pair is 8 and 4 steps, not 16 and 8: the H100's
 * 8-byte atomics cost 90 to 160 us a step over the whole grid, and their tables at 16 and 8
 * steps took 0.12 s of a 0.6 s default run. */
static unsigned chain_granule(const cb_experiment *x)
{
	return x->op == CB_OP_ATOMIC ? 4 : 8;
}

/* X's chains for a time per step of PS ns. */
static void set_chain(cb_experiment *x, double ps, unsigned cap, const cb_protocol_state *st)
{
	unsigned g = chain_granule(x);
	double steps = fmax(st->launch_ns / ps, MIN_CHAIN);
	if (MIN_CHAIN * ps > SLOW_CAP * st->launch_ns)
		steps = fmax(SLOW_CAP * st->launch_ns / ps, SLOW_MIN_GRANULES * g);
	x->steps = cb_round_chain(cap && steps > cap ? cap : steps, g);
	x->steps_short = cb_round_chain(x->steps / 4.0, g);
	if (x->steps <= x->steps_short)
		x->steps = x->steps_short + g;
}

void cb_size_chains_predicted(cb_experiment *ex, size_t nex, const double *ratio,
			      const cb_protocol_state *st)
{
	double base_ps = st->launch_ns / ex[0].steps;
	for (size_t i = 1; i < nex; i++)
		set_chain(&ex[i], base_ps * ratio[i], st->chain_cap, st);
}

/* Two verified probe chains per experiment, one batch: each experiment's time per step, and
 * from it its chain for the launch length. */
static cb_rc size_chains(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex,
			 size_t nex, unsigned cap, cb_protocol_state *st, cb_error *err)
{
	unsigned p1 = cb_round_steps(ex[0].steps / 16.0), p2 = cb_round_steps(ex[0].steps / 4.0);
	if (p2 <= p1)
		p2 = p1 + 8;
	cb_launch_item *items = cb_xmalloc(2 * nex * sizeof *items);
	uint64_t *ns = cb_xcalloc(2 * nex, sizeof *ns);
	for (size_t i = 0; i < nex; i++) {
		items[2 * i] = (cb_launch_item){ &ex[i], p1 };
		items[2 * i + 1] = (cb_launch_item){ &ex[i], p2 };
	}
	long bad;
	double base_ps = st->launch_ns / ex[0].steps;
	cb_rc rc = cb_run_items(l, st->timer, items + 2, 2 * (nex - 1),
				1e-9 * base_ps * (p1 + p2) * (double)nex, ns + 2, &bad, NULL, err);
	for (size_t i = 1; rc == CB_OK && i < nex; i++) {
		double ps = cb_differential(ns[2 * i + 1], ns[2 * i], p2, p1);
		if (!(ps > 0))
			ps = ns[2 * i + 1] ? (double)ns[2 * i + 1] / p2 : base_ps;
		set_chain(&ex[i], ps, cap, st);
		cb_note(o->notify, CB_NOTE_PROGRESS, "calibrating %zu/%zu", i, nex - 1);
	}
	free(items);
	free(ns);
	return rc;
}

/* Every experiment at its chain, verified; a chain that gives a wrong result is halved. Also
 * the warm-up. */
static cb_rc verify_chains(const cb_launcher *l, cb_experiment *ex, size_t nex,
			   cb_protocol_state *st, cb_error *err)
{
	cb_launch_item *items = cb_xmalloc(nex * sizeof *items);
	uint64_t *ns = cb_xcalloc(nex, sizeof *ns);
	size_t from = 0;
	cb_rc rc = CB_OK;
	for (int tries = 0; from < nex && tries < 64; tries++) {
		for (size_t i = from; i < nex; i++)
			items[i] = (cb_launch_item){ &ex[i], ex[i].steps };
		long bad;
		rc = cb_run_items(l, st->timer, items + from, nex - from,
				  1e-9 * st->launch_ns * (double)(nex - from), ns, &bad, NULL, err);
		if (rc == CB_OK || bad < 0)
			break;
		cb_experiment *x = &ex[from + (size_t)bad];
		char what[96];
		cb_experiment_name(x, what, sizeof what);
		if (x->steps < 128)
			return cb_error_set(err, CB_ERR_RUNTIME,
					    "%s gives a wrong result even with a chain "
					    "of %u steps; the device cannot run it",
					    what, x->steps);
		x->steps = cb_round_steps(x->steps / 2.0);
		x->steps_short = cb_round_steps(x->steps / 4.0);
		st->shortened++;
		from += (size_t)bad;
		rc = CB_OK;
	}
	free(items);
	free(ns);
	return rc;
}

/* 50 ms of the baseline, so that clocks and caches are in their working state (the chains'
 * check before it has already kept the device busy). */
static cb_rc warm_up(const cb_launcher *l, cb_experiment *b, cb_protocol_state *st, cb_error *err)
{
	size_t n = (size_t)ceil(0.05e9 / fmax(st->launch_ns, 1e3));
	if (n > l->max_batch)
		n = l->max_batch;
	if (st->timer == CB_TIMER_HOST && n > 20)
		n = 20;
	cb_launch_item *items = cb_xmalloc((n ? n : 1) * sizeof *items);
	uint64_t *ns = cb_xcalloc(n ? n : 1, sizeof *ns);
	for (size_t i = 0; i < n; i++)
		items[i] = (cb_launch_item){ b, b->steps };
	long bad;
	cb_rc rc = cb_run_items(l, st->timer, items, n, 0.2, ns, &bad, NULL, err);
	free(items);
	free(ns);
	return rc;
}

/* Before the launch length is chosen: the baseline in batches until the clock is steady (see
 * CB_WARM_BEFORE_LENGTH_MS; an H200 starts at 345 MHz). *PER_STEP becomes the last batch's: the
 * timer check's launches may have run at the idle clock, and the length's chains come from it. */
static cb_rc warm_before_length(const cb_launcher *l, cb_experiment *b, double *per_step,
				unsigned cap, cb_protocol_state *st, cb_error *err)
{
	/* With the host clock one batch of 4x longer launches: 8 ms, as before the batches. */
	double batch_ns = CB_WARM_BATCH_MS * 1e6 * (st->timer == CB_TIMER_HOST ? 4 : 1);
	unsigned steps = cb_round_steps(fmax(batch_ns / CB_WARM_BATCH / fmax(*per_step, 1e-3), 64));
	if (cap && steps > cap)
		steps = cap;
	cb_launch_item items[CB_WARM_BATCH];
	uint64_t ns[CB_WARM_BATCH];
	for (size_t i = 0; i < CB_WARM_BATCH; i++)
		items[i] = (cb_launch_item){ b, steps };
	double prev = 0, limit = CB_WARM_BEFORE_LENGTH_MS * 1e6;
	st->warm_ns = 0;
	st->warm_launches = 0;
	for (;;) {
		long bad;
		cb_rc rc = cb_run_items(l, st->timer, items, CB_WARM_BATCH, 0.1, ns, &bad, NULL,
					err);
		if (rc != CB_OK)
			return rc;
		double t[CB_WARM_BATCH];
		for (size_t i = 0; i < CB_WARM_BATCH; i++)
			st->warm_ns += t[i] = (double)ns[i];
		double med = cb_median(t, CB_WARM_BATCH);
		st->warm_launches += CB_WARM_BATCH;
		if (med > 0)
			*per_step = med / steps;
		/* The host clock times launches one by one, and a CPU has no idle clock to leave. */
		if (st->timer == CB_TIMER_HOST || st->warm_ns >= limit ||
		    (prev > 0 && fabs(med - prev) <= CB_WARM_AGREE * prev))
			return CB_OK;
		prev = med;
	}
}

cb_rc cb_calibrate_timing(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *b,
			  size_t nex, cb_protocol_state *st, cb_error *err)
{
	growth g;
	cb_rc rc = grow_baseline(l, b, &g, err);
	if (rc != CB_OK)
		return rc;
	st->chain_cap = g.bad ? g.good : 0;
	if ((rc = decide_timer(o, &g, st, err)) != CB_OK)
		return rc;
	double per_step = per_step_of(&g, st);
	if ((rc = warm_before_length(l, b, &per_step, st->chain_cap, st, err)) != CB_OK ||
	    (rc = choose_length(l, o, b, nex, per_step, st->chain_cap, st, err)) != CB_OK)
		return rc;
	return cb_stop_signal ? cb_check_interrupt(err) : CB_OK;
}

cb_rc cb_calibrate_chains(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex,
			  size_t nex, cb_protocol_state *st, cb_error *err)
{
	cb_rc rc;
	if ((rc = size_chains(l, o, ex, nex, st->chain_cap, st, err)) != CB_OK ||
	    (rc = verify_chains(l, ex, nex, st, err)) != CB_OK || cb_stop_signal)
		return rc != CB_OK ? rc : cb_check_interrupt(err);
	return CB_OK;
}

cb_rc cb_calibrate(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex, size_t nex,
		   cb_protocol_state *st, cb_error *err)
{
	cb_rc rc;
	if ((rc = cb_calibrate_timing(l, o, &ex[0], nex, st, err)) != CB_OK ||
	    (rc = cb_calibrate_chains(l, o, ex, nex, st, err)) != CB_OK)
		return rc;
	return warm_up(l, &ex[0], st, err);
}

/* The baseline's relative noise over rounds [FROM, TO): 1.4826 MAD of its differentials over
 * their median (INFINITY with fewer than 6). */
static double rounds_noise(const cb_experiment *b, unsigned from, unsigned to)
{
	size_t n = 0, cap = (size_t)(to - from) * CB_BASELINE_REPS;
	double *d = cb_xmalloc((cap ? cap : 1) * sizeof *d);
	for (size_t k = (size_t)from * CB_BASELINE_REPS; k < (size_t)to * CB_BASELINE_REPS; k++) {
		double v = cb_differential(b->samples[k], b->samples_short[k], b->steps,
					   b->steps_short);
		if (v > 0)
			d[n++] = v;
	}
	cb_summary s;
	cb_summarize(d, n, &s);
	free(d);
	return n >= 6 && s.median > 0 ? 1.4826 * s.mad / s.median : INFINITY;
}

/* Never on a CPU: its time per step grows with the chain (PoCL on 2 cores: 4.5 to 5.6 us at 64
 * steps, 7.5 us from 384 on), so a doubled chain reads as the baseline drifting (+60% in runs
 * lengthened twice) and the loads come out inconclusive: 7 of 16 default runs did, all 7 of
 * them lengthened twice; the 9 others, not banked. */
bool cb_revisit_length(const cb_protocol_opts *o, cb_experiment *b, unsigned from, unsigned to,
		       cb_protocol_state *st)
{
	if (o->cpu)
		return false;
	double seen = rounds_noise(b, from, to);
	if (!isfinite(seen) || seen <= 2 * noise_limit(o) || st->launch_ns * 2 > st->launch_ceil_ns)
		return false;
	unsigned L = cb_round_steps(b->steps * 2.0);
	if (st->chain_cap && L > st->chain_cap)
		return false;
	b->steps = L;
	b->steps_short = cb_round_steps(L / 4.0);
	st->launch_ns *= 2;
	st->noise = seen;
	st->lengthened++;
	return true;
}
