// SPDX-License-Identifier: GPL-2.0
/*
 * counting_joint (tests/experiments/counting.h): core-wide XSU. Thread 0's timer is the only one;
 * its tick makes the joint schedule of both threads (pmu/xsu_core.c), and the threads hand over
 * to it in steps, each raising the other's tick by IPI (pmu/handover.h does the steps; here are
 * the lock, the clock and the IPIs).
 */
#include "kernel/cpu.h"
#include "tests/experiments/counting.h"

/* Now: the wall clock, and each thread's own time (pmu/handover.h). */
static struct handover_time now(const struct measurement *m)
{
	struct handover_time t = { rdtsc(), { 0, 0 } };

	for (unsigned i = 0; i < m->pair->thread_count; i++)
		t.own[i] = tick_own_time_of(m->pair->cpu[i]);
	return t;
}

/* Raise thread's tick; an IPI that stayed pending (the ICR busy) is counted and named (the
 * handover's retries and thread 0's timer cover it: a step not taken is taken at a later tick). */
static void raise(struct measurement *m, int thread)
{
	if (thread != HANDOVER_NONE && !tick_send(m->pair->cpu[thread]))
		__atomic_add_fetch(&m->send_failures, 1, __ATOMIC_RELAXED);
}

/* Both threads' tick: thread 0's timer, or raised by the other thread. */
static void joint_tick(struct trap_frame *frame, void *context)
{
	struct measurement_thread *mt = context;
	struct measurement *m = mt->m;
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	(void)frame;

	int to = handover_tick(&m->handover, mt->thread, !tick_is_raised(), now(m));
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	raise(m, to);
}

static void enter(struct measurement_thread *mt, unsigned mux_ms)
{
	struct measurement *m = mt->m;
	int to = HANDOVER_NONE;

	/* The hook first: thread 0 raises thread 1's tick only once it follows. */
	if (mt->thread == 1)
		tick_follow(joint_tick, mt);
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	counting_mark_exposure(mt);
	if (mt->thread == 1)
		to = handover_enter(&m->handover, now(m));
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	raise(m, to);
	if (mt->thread == 0)
		tick_start(mux_ms, joint_tick, mt);
}

static void join(struct measurement_thread *mt, unsigned mux_ms)
{
	struct measurement *m = mt->m;
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	struct handover_time t = now(m);
	(void)mux_ms;

	m->mux.ops->start(&m->mux, mt->thread, t.own[mt->thread]);
	int to = handover_join(&m->handover, mt->thread, t);
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	raise(m, to);
}

static uint64_t depart(struct measurement_thread *mt)
{
	struct measurement *m = mt->m;
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	struct handover_time t = now(m);

	m->mux.ops->stop(&m->mux, mt->thread, t.own[mt->thread]);
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	return t.wall;
}

/* Thread 1 follows no more; a handover under way ends here. */
static void end_handover(struct measurement_thread *mt)
{
	if (handover_end(&mt->m->handover, rdtsc()))
		mt->m->unanswered = true;
}

static void leave(struct measurement_thread *mt)
{
	counting_stop(mt, end_handover);
}

/* Thread 0's joint ticks it took part in. */
static uint64_t ticks(const struct measurement_thread *mt)
{
	return mt->m->handover.ticks[mt->thread];
}

const struct counting_ops counting_joint = {
	.enter = enter,
	.join = join,
	.depart = depart,
	.exit = leave,
	.ticks = ticks,
	.common_start = true,
};
