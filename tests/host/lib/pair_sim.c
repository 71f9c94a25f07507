// SPDX-License-Identifier: GPL-2.0
/*
 * Two sibling threads on the model PMU in simulated time (see pair_sim.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/uarch.h"
#include "pmu/zero_event.h"
#include "tests/host/lib/fixtures.h"
#include "tests/host/lib/pair_sim.h"

/* triad's events per 1000 elements (tests/ring3/triad.c), what both threads do. */
static const struct model_rate work_rates[] = {
	{ .event = 0xd0, .umask = 0x81, .per_units = 2000 }, /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 1000 }, /* MEM_UOPS_RETIRED.ALL_STORES */
	{ .event = 0xd1, .umask = 0x01, .per_units = 1039 }, /* MEM_LOAD_UOPS_RETIRED.L1_HIT */
	{ .event = 0xd1, .umask = 0x08, .per_units = 109 },  /* MEM_LOAD_UOPS_RETIRED.L1_MISS */
	{ .event = 0xd1, .umask = 0x10, .per_units = 76 },   /* MEM_LOAD_UOPS_RETIRED.L2_MISS */
	{ .event = 0xc4, .umask = 0x00, .per_units = 1000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x20, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xcc, .umask = 0x20, .per_units = 0 },    /* ROB_MISC_EVENTS.LBR_INSERTS */
};

static const struct model_profile work = {
	.name = "triad",
	.ring = MODEL_RING_USER,
	.instructions = 6000,
	.core_cycles = 4000,
	.ref_cycles = 4000,
	.rates = work_rates,
	.nrates = sizeof(work_rates) / sizeof(work_rates[0]),
};

/* Time passes until `to`: every thread that is neither in its handler nor held works. */
static void advance(struct pair_sim *s, uint64_t to)
{
	uint64_t dt = to > s->now ? to - s->now : 0;

	for (unsigned t = 0; t < 2 && !s->done; t++) {
		if ((int)t == s->handling || s->held_until[t] >= to)
			continue;
		uint64_t from = s->held_until[t] > s->now ? s->held_until[t] : s->now;
		uint64_t work_dt = dt - (from - s->now);
		uint64_t n = (s->cfg.rate[t] * work_dt + s->carry[t]) / 1000;
		s->carry[t] = (s->cfg.rate[t] * work_dt + s->carry[t]) % 1000;
		if (n)
			model_ledger_add(&s->ledger[t], &work, n);
	}
	s->now = to > s->now ? to : s->now;
}

/* ---- the backend: the model's registers, each access taking time ------------------------------ */

struct access {
	struct pair_sim *s;
	unsigned thread;
};
static struct access access_of[2];

static void spend(struct access *a)
{
	advance(a->s, a->s->now + a->s->cfg.access_cost);
}

static uint64_t sim_read(void *ctx, uint32_t msr)
{
	struct access *a = ctx;

	spend(a);
	return model_rdmsr(&a->s->model.thread[a->thread], msr);
}

static void sim_write(void *ctx, uint32_t msr, uint64_t value)
{
	struct access *a = ctx;

	spend(a);
	model_wrmsr(&a->s->model.thread[a->thread], msr, value);
}

static bool sim_read_pmc(void *ctx, uint32_t ecx, uint64_t *value)
{
	struct access *a = ctx;

	spend(a);
	return model_rdpmc(&a->s->model.thread[a->thread], ecx, value);
}

static void hook_catchers(void *ctx, unsigned thread, uint8_t gp)
{
	model_set_catchers(ctx, thread, gp);
}

static void hook_tick(void *ctx, unsigned thread)
{
	model_tick(ctx, thread);
}

static void setup(struct pair_sim *s, const struct pair_sim_config *cfg)
{
	const char *uarch = cfg->uarch ? cfg->uarch : "haswell";
	const struct uarch *u = uarch_by_name(uarch);
	struct model_config mc;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->handling = -1;
	s->lcg = 2463534242u;
	model_config_init(&mc, u, true);
	mc.firmware = cfg->firmware;
	model_core_init(&s->model, &mc);
	for (unsigned t = 0; t < 2; t++) {
		const struct thread_counters_hooks hooks = { hook_catchers, hook_tick, &s->model };
		struct msr_backend b = { "sim", sim_read, sim_write, sim_read_pmc, &access_of[t] };

		access_of[t] = (struct access){ s, t };
		model_bind_ledger(&s->model, t, &s->ledger[t]);
		pmu_driver_init(&s->driver[t], &b, &s->model.cfg.geo,
				PMU_DRV_RDPMC | (cfg->no_smi_count ? 0 : PMU_DRV_SMI_COUNT));
		fixture_thread(&s->list[t], uarch, 0, cfg->list[t], SCHED_GREEDY, NULL, t);
		thread_counters_init(&s->tc[t], &s->pair, t, &s->driver[t], &hooks);
	}
	mux_pair_init(&s->pair, cfg->ops, &s->list[0], &s->list[1], uarch_zero_event(u));
	handover_init(&s->h, &s->pair, &s->tc[0], &s->tc[1], true, 10 * cfg->period);
}

/* ---- IPIs --------------------------------------------------------------------------------- */

static void send(struct pair_sim *s, int to)
{
	if (to == HANDOVER_NONE)
		return;
	s->ipis++;
	if (s->ipis == s->cfg.drop_ipi ||
	    (s->cfg.lose_after && s->ipis >= s->cfg.lose_after && to == 1)) {
		s->lost_ipis++;
		return;
	}
	s->lcg = s->lcg * 1103515245u + 12345u;
	uint64_t at = s->now + s->cfg.latency + (s->cfg.jitter ? (s->lcg >> 8) % s->cfg.jitter : 0);
	assert_true(s->queued < PAIR_SIM_QUEUE);
	s->queue[s->queued].at = at;
	s->queue[s->queued].to = to;
	s->queued++;
	if (s->cfg.held && s->held_until[to] < at)
		s->held_until[to] = at;
}

/* The earliest IPI in flight (index), or -1. */
static int next_ipi(const struct pair_sim *s)
{
	int k = -1;

	for (unsigned i = 0; i < s->queued; i++)
		if (k < 0 || s->queue[i].at < s->queue[k].at)
			k = (int)i;
	return k;
}

/* ---- the run ------------------------------------------------------------------------------ */

uint64_t pair_sim_own_time(const struct pair_sim *s, unsigned t)
{
	return s->now - s->in_handlers[t];
}

static struct handover_time now_of(const struct pair_sim *s)
{
	struct handover_time now = { s->now, { pair_sim_own_time(s, 0), pair_sim_own_time(s, 1) } };

	return now;
}

static void handler(struct pair_sim *s, unsigned t, bool timer)
{
	struct handover_time now = now_of(s);
	int to = HANDOVER_NONE;

	s->handling = (int)t;
	if (s->cfg.ops->ticking == XSU_TICK_JOINT) {
		to = handover_tick(&s->h, t, timer, now);
	} else {
		thread_counters_own_tick(&s->tc[t], now.own[t]);
		s->own_ticks[t]++;
	}
	s->in_handlers[t] += s->now - now.wall;
	s->handling = -1;
	send(s, to);
}

static void start(struct pair_sim *s)
{
	for (unsigned t = 0; t < 2; t++) {
		s->handling = (int)t;
		if (s->cfg.ops->ticking != XSU_TICK_JOINT) {
			thread_counters_own_start(&s->tc[t], pair_sim_own_time(s, t));
		} else {
			if (t == 1)
				send(s, handover_enter(&s->h, now_of(s)));
			s->pair.ops->start(&s->pair, t, pair_sim_own_time(s, t));
			send(s, handover_join(&s->h, t, now_of(s)));
		}
		s->handling = -1;
	}
}

static void finish(struct pair_sim *s)
{
	for (unsigned t = 0; t < 2; t++)
		thread_counters_ended(&s->tc[t]);
	for (unsigned t = 0; t < 2; t++) {
		s->handling = (int)t;
		if (s->cfg.ops->ticking == XSU_TICK_JOINT) {
			s->pair.ops->stop(&s->pair, t, pair_sim_own_time(s, t));
		} else {
			thread_counters_read(&s->tc[t], ~0ull);
			s->pair.ops->stop(&s->pair, t, pair_sim_own_time(s, t));
		}
		s->handling = -1;
	}
	if (s->cfg.ops->ticking != XSU_TICK_JOINT)
		return;
	s->unanswered = handover_end(&s->h, s->now);
	for (unsigned t = 0; t < 2; t++)
		thread_counters_read(&s->tc[t], ~0ull);
}

void pair_sim_run(struct pair_sim *s, const struct pair_sim_config *cfg)
{
	uint64_t end = cfg->period * cfg->ticks;
	uint64_t timer[2] = { cfg->period,
			      cfg->ops->ticking == XSU_TICK_JOINT ? UINT64_MAX : cfg->period / 2 };

	setup(s, cfg);
	start(s);
	for (;;) {
		int k = next_ipi(s);
		unsigned t = timer[0] <= timer[1] ? 0 : 1;
		bool ipi = k >= 0 && s->queue[k].at <= timer[t];
		uint64_t at = ipi ? s->queue[k].at : timer[t];

		if (at > end)
			break;
		/* A held CPU takes no interrupt before its hold ends. */
		if (!ipi) {
			if (s->held_until[t] > at) {
				timer[t] = s->held_until[t];
				continue;
			}
			advance(s, at);
			timer[t] += cfg->period;
			handler(s, t, true);
			continue;
		}
		int to = s->queue[k].to;
		s->queue[k] = s->queue[--s->queued];
		advance(s, at);
		handler(s, (unsigned)to, false);
	}
	advance(s, end);
	s->done = true;
	finish(s);
}

uint64_t pair_sim_writes(const struct pair_sim *s, unsigned t)
{
	return thread_counters_writes(&s->tc[t]);
}

uint64_t pair_sim_reads(const struct pair_sim *s, unsigned t)
{
	return thread_counters_reads(&s->tc[t]);
}

uint64_t pair_sim_error_ppm(const struct pair_sim *s, unsigned t, unsigned i)
{
	const struct mux_event *e = &s->list[t].events[i];
	struct mux_reading r = mux_pair_read(&s->pair, t, i);
	uint64_t truth;

	assert_true(model_truth(&s->ledger[t], &e->event, &truth));
	if (!truth)
		return r.scaled ? 1000000 : 0;
	uint64_t off = r.scaled > truth ? r.scaled - truth : truth - r.scaled;
	return mux_mul_div(off, 1000000, truth);
}

uint64_t pair_sim_worst_ppm(const struct pair_sim *s, bool corrupting_only, unsigned *thread,
			    unsigned *event)
{
	uint64_t worst = 0;

	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = 0; i < s->list[t].nr_events; i++) {
			if (corrupting_only && !s->list[t].events[i].constraint.corrupting)
				continue;
			uint64_t e = pair_sim_error_ppm(s, t, i);
			if (e < worst)
				continue;
			worst = e;
			if (thread)
				*thread = t;
			if (event)
				*event = i;
		}
	return worst;
}

uint64_t pair_sim_ticks(const struct pair_sim *s, unsigned t)
{
	return s->cfg.ops->ticking == XSU_TICK_JOINT ? s->h.ticks[t] : s->own_ticks[t];
}
