// SPDX-License-Identifier: GPL-2.0
/*
 * counting_alone (tests/experiments/counting.h): XSU off and on, Linux's way. Each sibling ticks
 * on its own APIC timer and reschedules its own list through the pair's ops (pmu/mux_pair.h).
 */
#include "kernel/cpu.h"
#include "tests/experiments/counting.h"

/* Its own tick reschedules its own list. */
static void own_tick(struct trap_frame *frame, void *context)
{
	struct measurement_thread *mt = context;
	uint64_t flags = spin_lock_irqsave(&mt->m->pmu->lock);
	(void)frame;

	thread_counters_own_tick(&mt->tc, tick_own_time());
	spin_unlock_irqrestore(&mt->m->pmu->lock, flags);
	mt->ticks++;
}

static void enter(struct measurement_thread *mt, unsigned mux_ms)
{
	(void)mux_ms;
	uint64_t flags = spin_lock_irqsave(&mt->m->pmu->lock);
	counting_mark_exposure(mt);
	spin_unlock_irqrestore(&mt->m->pmu->lock, flags);
}

static void join(struct measurement_thread *mt, unsigned mux_ms)
{
	uint64_t flags = spin_lock_irqsave(&mt->m->pmu->lock);

	thread_counters_own_start(&mt->tc, tick_own_time());
	spin_unlock_irqrestore(&mt->m->pmu->lock, flags);
	tick_start(mux_ms, own_tick, mt);
}

static uint64_t depart(struct measurement_thread *mt)
{
	counting_stop(mt, NULL);
	mt->departed_own = tick_own_time();
	return rdtsc();
}

static void leave(struct measurement_thread *mt)
{
	struct mux_pair *pair = &mt->m->mux;
	uint64_t flags = spin_lock_irqsave(&mt->m->pmu->lock);

	pair->ops->stop(pair, mt->thread, mt->departed_own);
	spin_unlock_irqrestore(&mt->m->pmu->lock, flags);
}

/* Its own timer's ticks. */
static uint64_t ticks(const struct measurement_thread *mt)
{
	return mt->ticks;
}

const struct counting_ops counting_alone = {
	.enter = enter,
	.join = join,
	.depart = depart,
	.exit = leave,
	.ticks = ticks,
	.common_start = false,
};
