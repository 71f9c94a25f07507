// SPDX-License-Identifier: GPL-2.0
/*
 * One thread's events on its counters (see pmu/thread_counters.h).
 */
#include <string.h>

#include "pmu/counters.h"
#include "pmu/regs.h"
#include "pmu/thread_counters.h"

void thread_counters_init(struct thread_counters *tc, struct mux_pair *pair, unsigned thread,
			  struct pmu_driver *driver, const struct thread_counters_hooks *hooks)
{
	memset(tc, 0, sizeof(*tc));
	tc->pair = pair;
	tc->thread = thread & 1;
	tc->driver = driver;
	xsu_schedule_clear(&tc->programmed);
	if (hooks)
		tc->hooks = *hooks;
}

static struct mux_thread *list_of(const struct thread_counters *tc)
{
	return tc->pair->thread[tc->thread];
}

/* The driver's assignment for s: its events on their counters, the catcher on its counters. */
static unsigned assignment_of(const struct thread_counters *tc, const struct xsu_schedule *s,
			      struct pmu_assignment *a)
{
	const struct mux_thread *t = list_of(tc);
	unsigned n = 0;

	for (unsigned i = 0; i < t->nr_events; i++)
		if (s->events.counter[i] != SCHED_NO_COUNTER)
			a[n++] = (struct pmu_assignment){ &t->events[i].event,
							  (unsigned)s->events.counter[i], 0 };
	for (unsigned c = 0; c < PMU_MAX_GP; c++)
		if (s->catchers & (1u << c))
			a[n++] = (struct pmu_assignment){ s->catcher, c, 0 };
	return n;
}

uint64_t thread_counters_changes(const struct thread_counters *tc, const struct xsu_schedule *s)
{
	struct pmu_assignment a[MUX_MAX_EVENTS + PMU_MAX_GP];
	unsigned n = assignment_of(tc, s, a);

	return pmu_driver_changes(tc->driver, a, n);
}

uint64_t thread_counters_events(const struct thread_counters *tc, const struct xsu_schedule *s,
				bool corrupting_only)
{
	const struct mux_thread *t = list_of(tc);
	uint64_t counters = 0;

	for (unsigned i = 0; i < t->nr_events; i++) {
		int c = s->events.counter[i];
		if (c == SCHED_NO_COUNTER ||
		    (corrupting_only && !t->events[i].constraint.corrupting))
			continue;
		counters |= regs_global_bit((unsigned)c);
	}
	return counters;
}

void thread_counters_read(struct thread_counters *tc, uint64_t stop)
{
	const struct xsu_schedule *s = &tc->programmed;
	struct mux_thread *t = list_of(tc);

	pmu_driver_stop_some(tc->driver, stop);
	for (unsigned i = 0; i < t->nr_events; i++) {
		int counter = s->events.counter[i];
		if (counter == SCHED_NO_COUNTER)
			continue;
		t->events[i].count += pmu_driver_take(tc->driver, (unsigned)counter);
		/* Taken before the next program(), which forgets marks not taken. */
		if (pmu_driver_take_interfered(tc->driver, (unsigned)counter))
			t->events[i].interfered = true;
	}
	for (unsigned c = 0; c < PMU_MAX_GP; c++) {
		if (!(s->catchers & (1u << c)))
			continue;
		uint64_t caught = pmu_driver_take(tc->driver, c);
		bool interfered = pmu_driver_take_interfered(tc->driver, c);
		mux_pair_add_leak(tc->pair, tc->thread, s, c, caught, interfered);
	}
}

void thread_counters_program(struct thread_counters *tc, const struct xsu_schedule *s,
			     uint64_t hold)
{
	struct pmu_assignment a[MUX_MAX_EVENTS + PMU_MAX_GP];
	unsigned n = assignment_of(tc, s, a);

	/* The model must know the catchers before they count: they are not exposure. */
	if (tc->hooks.catchers)
		tc->hooks.catchers(tc->hooks.ctx, tc->thread, s->catchers);
	enum pmu_drv_status status = pmu_driver_program_held(tc->driver, a, n, hold | tc->never);
	if (status == PMU_DRV_OK) {
		tc->programmed = *s;
		tc->held = hold & tc->driver->active;
	} else if (tc->error == PMU_DRV_OK) {
		tc->error = status;
	}
}

void thread_counters_switch(struct thread_counters *tc, const struct xsu_schedule *s, uint64_t hold)
{
	thread_counters_read(tc, thread_counters_changes(tc, s));
	thread_counters_program(tc, s, hold);
}

void thread_counters_verify(struct thread_counters *tc)
{
	pmu_driver_verify(tc->driver);
}

void thread_counters_start(struct thread_counters *tc, uint64_t counters)
{
	pmu_driver_start(tc->driver, counters & ~tc->never);
	tc->held &= ~counters;
}

void thread_counters_settled(struct thread_counters *tc)
{
	if (tc->settled)
		return;
	tc->settled = true;
	tc->reads_at_start = tc->driver->reads;
	tc->writes_at_start = tc->driver->writes;
}

void thread_counters_ended(struct thread_counters *tc)
{
	if (tc->ended)
		return;
	tc->ended = true;
	tc->reads_at_end = tc->driver->reads;
	tc->writes_at_end = tc->driver->writes;
	/* A register firmware changed after the last tick's look is seen by the final read too. */
	pmu_driver_verify(tc->driver);
}

uint64_t thread_counters_reads(const struct thread_counters *tc)
{
	uint64_t end = tc->ended ? tc->reads_at_end : tc->driver->reads;

	return tc->settled ? end - tc->reads_at_start : 0;
}

uint64_t thread_counters_writes(const struct thread_counters *tc)
{
	uint64_t end = tc->ended ? tc->writes_at_end : tc->driver->writes;

	return tc->settled ? end - tc->writes_at_start : 0;
}

void thread_counters_tick(const struct thread_counters *tc)
{
	if (tc->hooks.tick)
		tc->hooks.tick(tc->hooks.ctx, tc->thread);
}

void thread_counters_check(struct thread_counters *tc)
{
	if (!mux_pair_invariant(tc->pair))
		tc->violations++;
}

void thread_counters_own_start(struct thread_counters *tc, uint64_t now)
{
	tc->pair->ops->start(tc->pair, tc->thread, now);
	thread_counters_check(tc);
	thread_counters_program(tc, &tc->pair->schedule[tc->thread], 0);
	thread_counters_settled(tc);
}

void thread_counters_own_tick(struct thread_counters *tc, uint64_t now)
{
	tc->pair->ops->tick(tc->pair, tc->thread, now);
	thread_counters_check(tc);
	thread_counters_tick(tc);
	thread_counters_switch(tc, &tc->pair->schedule[tc->thread], 0);
}
