// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread event lists, multiplexing ticks and time accounting (see pmu/mux.h for the call
 * sequence the kernel follows).
 */
#include <string.h>

#include "pmu/counters.h"
#include "pmu/mux.h"
#include "pmu/uarch_constraint.h"

void mux_init(struct mux_thread *t, const struct mux_config *config, unsigned thread)
{
	memset(t, 0, sizeof(*t));
	t->config = *config;
	t->hooks = &sched_hooks_none;
	t->thread = thread & 1;
}

void mux_set_hooks(struct mux_thread *t, const struct sched_hooks *hooks, void *shared)
{
	t->hooks = hooks;
	t->shared = shared;
}

bool mux_add_group(struct mux_thread *t, const struct pmu_event *events, unsigned n,
		   unsigned *index)
{
	struct sched_group *g;
	unsigned first = t->nr_events;

	if (n == 0 || n > MUX_MAX_EVENTS - t->nr_events || t->nr_groups >= MUX_MAX_GROUPS)
		return false;

	g = &t->groups[t->nr_groups];
	g->first = (uint8_t)first;
	g->count = (uint8_t)n;
	g->pinned = events[0].pinned; /* pinned is a property of the group (its leader) */
	if (!g->pinned)
		t->flexible[t->nr_flexible++] = (uint8_t)t->nr_groups;

	for (unsigned i = 0; i < n; i++) {
		struct mux_event *e = &t->events[first + i];

		memset(e, 0, sizeof(*e));
		e->event = events[i];
		if (t->config.uarch) {
			e->constraint = uarch_constraint(t->config.uarch, &events[i], t->config.gp,
							 t->config.fixed);
		} else {
			e->constraint.mask = PMU_GP_MASK(t->config.gp);
		}
		e->dynamic_mask = e->constraint.mask;
		e->counter = SCHED_NO_COUNTER;
		e->last_counter = SCHED_NO_COUNTER;
		e->group = (uint8_t)t->nr_groups;
		e->state = MUX_EVENT_NEW;
	}
	t->nr_events += n;
	t->nr_groups++;
	if (index)
		*index = first;
	return true;
}

bool mux_add_events(struct mux_thread *t, const struct pmu_event *events, unsigned n)
{
	unsigned groups = 0;

	for (unsigned i = 0; i < n; i++)
		if (i == 0 || events[i].group != events[i - 1].group)
			groups++;
	if (n > MUX_MAX_EVENTS - t->nr_events || groups > MUX_MAX_GROUPS - t->nr_groups)
		return false;
	for (unsigned i = 0; i < n;) {
		unsigned j = i + 1;

		while (j < n && events[j].group == events[i].group)
			j++;
		mux_add_group(t, &events[i], j - i, NULL);
		i = j;
	}
	return true;
}

void mux_set_constraint(struct mux_thread *t, unsigned event, uint64_t mask)
{
	if (event < t->nr_events) {
		t->events[event].constraint.mask = mask;
		t->events[event].dynamic_mask = mask;
	}
}

static uint64_t work_now(const struct mux_thread *t)
{
	return t->work ? t->work(t->work_arg) : 0;
}

void mux_set_work(struct mux_thread *t, uint64_t (*work)(const void *arg), const void *arg)
{
	t->work = work;
	t->work_arg = arg;
	t->last_work = work_now(t);
}

/* Linux update_event_times(): enabled while in the list and not in error, running while on. */
void mux_account(struct mux_thread *t, uint64_t now)
{
	/* A clock read on another CPU may lag this one's last reading a little: time never goes
	 * back, and none is counted twice. */
	if (now <= t->last_time)
		return;
	uint64_t delta = now - t->last_time, work = work_now(t), done = 0;

	/* A ledger that went back was reset: its work counts from there. */
	if (work > t->last_work)
		done = work - t->last_work;
	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		if (e->state != MUX_EVENT_ENABLED)
			continue;
		e->time_enabled += delta;
		e->work_enabled += done;
		if (e->counter != SCHED_NO_COUNTER) {
			e->time_running += delta;
			e->work_running += done;
		}
	}
	t->last_time = now;
	t->last_work = work;
}

/* Linux rotate_ctx(): the first flexible group goes to the tail (thesis fig. 3.1, T_1). */
static void rotate(struct mux_thread *t)
{
	uint8_t head;

	if (t->nr_flexible < 2)
		return;
	head = t->flexible[0];
	memmove(&t->flexible[0], &t->flexible[1], t->nr_flexible - 1);
	t->flexible[t->nr_flexible - 1] = head;
}

/* Schedule every event out, each giving up its counter in txn. */
static void schedule_out(struct mux_thread *t, struct sched_txn *txn)
{
	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		if (e->counter == SCHED_NO_COUNTER)
			continue;
		t->hooks->put(txn, (unsigned)e->counter);
		e->counter = SCHED_NO_COUNTER;
	}
}

/* New events take part from this schedule on. */
static void enable_new(struct mux_thread *t)
{
	for (unsigned i = 0; i < t->nr_events; i++)
		if (t->events[i].state == MUX_EVENT_NEW)
			t->events[i].state = MUX_EVENT_ENABLED;
}

/*
 * Dynamic constraints (thesis 5.2): the static mask AND what the hooks allow the event, Linux's
 * get_event_constraints() for every event that takes part. An event in the error state takes
 * part no more (nor is it in Linux's list): it keeps the mask of its last schedule.
 */
static void dynamic_constraints(struct mux_thread *t, struct sched_txn *txn, uint64_t *masks,
				int8_t *previous)
{
	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		if (e->state == MUX_EVENT_ENABLED)
			e->dynamic_mask =
				e->constraint.mask & t->hooks->allowed(txn, &e->constraint);
		masks[i] = e->dynamic_mask;
		previous[i] = e->last_counter;
	}
}

/* Pinned groups first, in the order they were added, then the flexible list as rotated. */
static unsigned pass_order(const struct mux_thread *t, struct sched_group *order)
{
	unsigned n = 0;

	for (unsigned g = 0; g < t->nr_groups; g++) {
		const struct sched_group *grp = &t->groups[g];

		if (grp->pinned && t->events[grp->first].state == MUX_EVENT_ENABLED)
			order[n++] = *grp;
	}
	for (unsigned k = 0; k < t->nr_flexible; k++)
		order[n++] = t->groups[t->flexible[k]];
	return n;
}

/* Linux ctx_pinned_sched_in(): a pinned group that did not fit is in error for good. */
static bool fail_pinned(struct mux_thread *t, const struct sched_group *order, unsigned n,
			uint32_t failed)
{
	bool any = false;

	for (unsigned k = 0; k < n; k++) {
		if (!order[k].pinned || !(failed & (1u << k)))
			continue;
		for (unsigned j = 0; j < order[k].count; j++)
			t->events[order[k].first + j].state = MUX_EVENT_ERROR;
		any = true;
	}
	return any;
}

/* The events take the counters of result; each counter is committed in txn. */
static void take_counters(struct mux_thread *t, struct sched_txn *txn,
			  const struct sched_generic_result *result, struct mux_schedule *out)
{
	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		e->counter = result->counter[i];
		out->counter[i] = e->counter;
		if (e->counter == SCHED_NO_COUNTER)
			continue;
		e->last_counter = e->counter;
		t->hooks->commit(txn, (unsigned)e->counter, &e->constraint);
	}
	for (unsigned i = t->nr_events; i < MUX_MAX_EVENTS; i++)
		out->counter[i] = SCHED_NO_COUNTER;
}

/* One pass, Linux's x86_schedule_events() between the hooks' start and stop. */
static void schedule(struct mux_thread *t, struct mux_schedule *out)
{
	struct sched_txn txn;
	struct sched_group order[MUX_MAX_GROUPS];
	struct sched_generic_result result;
	uint64_t masks[MUX_MAX_EVENTS];
	int8_t previous[MUX_MAX_EVENTS];
	unsigned nr_order;

	enable_new(t);
	t->hooks->start(&txn, t->shared, t->thread);
	schedule_out(t, &txn);
	dynamic_constraints(t, &txn, masks, previous);
	nr_order = pass_order(t, order);
	struct sched_generic_params params = {
		.algorithm = t->config.algorithm,
		.gpmax = t->hooks->gpmax(&txn, t->config.gp),
		.max_events = t->config.gp + t->config.fixed,
		.past_first_failure = t->config.past_first_failure,
		.max_passed = t->config.max_passed,
	};
	sched_generic(&params, masks, previous, t->nr_events, order, nr_order, &result);
	out->pinned_failed = fail_pinned(t, order, nr_order, result.failed);
	take_counters(t, &txn, &result, out);
	t->hooks->stop(&txn);

	t->multiplexing = result.flexible_failed;
	out->nr_scheduled = result.nr_scheduled;
	out->multiplexing = result.flexible_failed;
}

void mux_start(struct mux_thread *t, uint64_t now, struct mux_schedule *out)
{
	t->running = true;
	t->last_time = now;
	t->last_work = work_now(t);
	t->multiplexing = false;
	schedule(t, out);
}

void mux_tick(struct mux_thread *t, uint64_t now, struct mux_schedule *out)
{
	mux_account(t, now);
	if (t->multiplexing)
		rotate(t);
	schedule(t, out);
}

void mux_stop(struct mux_thread *t, uint64_t now)
{
	struct sched_txn txn;

	mux_account(t, now);
	t->hooks->start(&txn, t->shared, t->thread);
	schedule_out(t, &txn);
	t->hooks->stop(&txn);
	t->running = false;
	t->multiplexing = false;
}

/* 64 x 64 -> 128-bit product from 32-bit halves (no __int128, no libgcc). */
static void mul_128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
	uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
	uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	*lo = (mid << 32) | (ll & 0xffffffffu);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

uint64_t mux_mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t hi, lo, rem, quotient = 0;

	if (c == 0)
		return UINT64_MAX;
	mul_128(a, b, &hi, &lo);
	if (hi >= c)
		return UINT64_MAX; /* the quotient needs more than 64 bits */
	/* Restoring division of hi:lo by c, one bit at a time; rem < c throughout. */
	rem = hi;
	for (int bit = 63; bit >= 0; bit--) {
		bool carry = (rem >> 63) != 0;

		rem = (rem << 1) | ((lo >> bit) & 1);
		quotient <<= 1;
		if (carry || rem >= c) {
			rem -= c;
			quotient |= 1;
		}
	}
	return quotient;
}

bool mux_scale(uint64_t raw, uint64_t enabled, uint64_t running, uint64_t *scaled)
{
	if (running == 0)
		return false;
	*scaled = running >= enabled ? raw : mux_mul_div(raw, enabled, running);
	return true;
}

unsigned mux_percent(uint64_t part, uint64_t whole)
{
	uint64_t twice;

	if (whole == 0)
		return 0;
	twice = mux_mul_div(part, 20000, whole);
	return (unsigned)((twice + 1) / 2);
}

struct mux_reading mux_read(const struct mux_event *e)
{
	struct mux_reading r;

	r.raw = e->count;
	r.time_enabled = e->time_enabled;
	r.time_running = e->time_running;
	r.scaled = 0;
	r.counted = mux_scale(r.raw, e->time_enabled, e->time_running, &r.scaled);
	r.percent = mux_percent(e->time_running, e->time_enabled);
	r.work_enabled = e->work_enabled;
	r.work_scaled = 0;
	mux_scale(e->work_running, e->time_enabled, e->time_running, &r.work_scaled);
	return r;
}

uint64_t mux_work_gap(const struct mux_reading *r, uint64_t per)
{
	if (!r->counted || !r->work_enabled)
		return 0;
	uint64_t gap = r->work_scaled > r->work_enabled ? r->work_scaled - r->work_enabled
							: r->work_enabled - r->work_scaled;
	return mux_mul_div(gap, per, r->work_enabled);
}
