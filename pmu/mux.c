// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread event lists, multiplexing ticks and time accounting (see pmu/mux.h for the call
 * sequence the kernel follows).
 */
#include <string.h>

#include "pmu/counters.h"
#include "pmu/mux.h"
#include "pmu/uarch_constraint.h"

void mux_init(struct mux_thread *t, const struct mux_config *config, struct xsu_core *xsu,
	      unsigned thread)
{
	memset(t, 0, sizeof(*t));
	t->config = *config;
	t->xsu = xsu;
	t->thread = thread & 1;
}

static bool xsu_active(const struct mux_thread *t)
{
	return t->xsu && t->xsu->enabled;
}

int mux_add_group(struct mux_thread *t, const struct pmu_event *events, unsigned n)
{
	struct sched_group *g;
	unsigned first = t->nr_events;

	if (n == 0 || n > MUX_MAX_EVENTS - t->nr_events || t->nr_groups >= MUX_MAX_GROUPS)
		return -1;

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
	return (int)first;
}

int mux_add_events(struct mux_thread *t, const struct pmu_event *events, unsigned n)
{
	unsigned groups = 0;

	for (unsigned i = 0; i < n; i++)
		if (i == 0 || events[i].group != events[i - 1].group)
			groups++;
	if (n > MUX_MAX_EVENTS - t->nr_events || groups > MUX_MAX_GROUPS - t->nr_groups)
		return -1;
	for (unsigned i = 0; i < n;) {
		unsigned j = i + 1;

		while (j < n && events[j].group == events[i].group)
			j++;
		mux_add_group(t, &events[i], j - i);
		i = j;
	}
	return (int)n;
}

void mux_set_constraint(struct mux_thread *t, unsigned event, uint64_t mask)
{
	if (event < t->nr_events) {
		t->events[event].constraint.mask = mask;
		t->events[event].dynamic_mask = mask;
	}
}

struct xsu_usage mux_usage(const struct mux_thread *t)
{
	struct xsu_usage use = { 0, 0 };

	for (unsigned i = 0; i < t->nr_events; i++) {
		const struct mux_event *e = &t->events[i];

		if (e->counter == SCHED_NO_COUNTER)
			continue;
		use.enabled |= 1ull << e->counter;
		if (e->constraint.corrupting)
			use.corrupting |= 1ull << e->counter;
	}
	return use;
}

/* Linux update_event_times(): enabled while in the list and not in error, running while on. */
void mux_account(struct mux_thread *t, uint64_t now)
{
	uint64_t delta = now > t->last_time ? now - t->last_time : 0;

	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		if (e->state != MUX_EVENT_ENABLED)
			continue;
		e->time_enabled += delta;
		if (e->counter != SCHED_NO_COUNTER)
			e->time_running += delta;
	}
	t->last_time = now;
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

/* Schedule every event out; under XSU their pairs are released in txn. */
static void schedule_out(struct mux_thread *t, struct xsu_transaction *txn)
{
	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		if (e->counter == SCHED_NO_COUNTER)
			continue;
		if (txn)
			xsu_release(txn, (unsigned)e->counter);
		e->counter = SCHED_NO_COUNTER;
	}
}

static void schedule(struct mux_thread *t, struct mux_schedule *out)
{
	struct xsu_transaction txn;
	struct xsu_transaction *tx = NULL;
	struct sched_group order[MUX_MAX_GROUPS];
	struct sched_generic_params params;
	struct sched_generic_result result;
	uint64_t masks[MUX_MAX_EVENTS];
	uint64_t xsu_allowed[2] = { ~0ull, ~0ull }; /* [corrupting]: every counter without XSU */
	int8_t previous[MUX_MAX_EVENTS];
	unsigned nr_order = 0;
	bool has_exclusive = false;

	if (xsu_active(t)) {
		tx = &txn;
		xsu_start(t->xsu, t->thread, tx);
	}
	schedule_out(t, tx);

	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		if (e->state == MUX_EVENT_NEW)
			e->state = MUX_EVENT_ENABLED;
		if (e->state == MUX_EVENT_ENABLED)
			has_exclusive |= e->constraint.corrupting;
	}
	if (tx)
		xsu_set_has_exclusive(t->xsu, t->thread, has_exclusive);

	/*
	 * Dynamic constraints against the sibling's current states (thesis 5.2): the static mask AND
	 * the XSU mask, as xsu_dynamic_constraint() makes them. The XSU mask depends only on this
	 * thread and on whether the event corrupts, and the pass changes only the sibling's states,
	 * so the two masks are computed once here rather than once per event.
	 */
	if (tx) {
		xsu_allowed[0] = xsu_mask(t->xsu, t->thread, false);
		xsu_allowed[1] = xsu_mask(t->xsu, t->thread, true);
	}
	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		masks[i] = e->constraint.mask & xsu_allowed[e->constraint.corrupting];
		e->dynamic_mask = masks[i];
		previous[i] = e->last_counter;
	}

	/* Pinned groups first, in the order they were added, then the flexible list as rotated. */
	for (unsigned g = 0; g < t->nr_groups; g++) {
		const struct sched_group *grp = &t->groups[g];

		if (grp->pinned && t->events[grp->first].state == MUX_EVENT_ENABLED)
			order[nr_order++] = *grp;
	}
	for (unsigned k = 0; k < t->nr_flexible; k++)
		order[nr_order++] = t->groups[t->flexible[k]];

	params.algorithm = t->config.algorithm;
	params.gpmax = xsu_gpmax(tx ? t->xsu : NULL, t->config.gp);
	params.max_events = t->config.gp + t->config.fixed;
	params.past_first_failure = t->config.past_first_failure;
	params.max_passed = t->config.max_passed;
	sched_generic(&params, masks, previous, t->nr_events, order, nr_order, &result);

	out->pinned_failed = false;
	for (unsigned k = 0; k < nr_order; k++) {
		if (!order[k].pinned || !(result.failed & (1u << k)))
			continue;
		for (unsigned j = 0; j < order[k].count; j++)
			t->events[order[k].first + j].state = MUX_EVENT_ERROR;
		out->pinned_failed = true;
	}

	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		e->counter = result.counter[i];
		out->counter[i] = e->counter;
		if (e->counter == SCHED_NO_COUNTER)
			continue;
		e->last_counter = e->counter;
		if (tx)
			xsu_commit(tx, (unsigned)e->counter, e->constraint.corrupting);
	}
	for (unsigned i = t->nr_events; i < MUX_MAX_EVENTS; i++)
		out->counter[i] = SCHED_NO_COUNTER;
	if (tx)
		xsu_stop(tx);

	t->multiplexing = result.flexible_failed;
	out->nr_scheduled = result.nr_scheduled;
	out->multiplexing = result.flexible_failed;
	out->catchers = 0; /* Linux's XSU loses the leak (thesis ch. 8) */
	out->catcher = NULL;
}

void mux_start(struct mux_thread *t, uint64_t now, struct mux_schedule *out)
{
	t->running = true;
	t->last_time = now;
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
	struct xsu_transaction txn;

	mux_account(t, now);
	if (xsu_active(t)) {
		xsu_start(t->xsu, t->thread, &txn);
		schedule_out(t, &txn);
		xsu_set_has_exclusive(t->xsu, t->thread, false);
		xsu_stop(&txn);
	} else {
		schedule_out(t, NULL);
	}
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

	r.raw = e->count + e->leak;
	r.time_enabled = e->time_enabled;
	r.time_running = e->time_running;
	r.scaled = 0;
	r.counted = mux_scale(r.raw, e->time_enabled, e->time_running, &r.scaled);
	r.percent = mux_percent(e->time_running, e->time_enabled);
	return r;
}
