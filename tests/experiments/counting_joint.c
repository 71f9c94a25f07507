// SPDX-License-Identifier: GPL-2.0
/*
 * counting_joint (tests/experiments/counting.h): core-wide XSU. Thread 0's timer is the only one;
 * its tick makes the joint schedule of both threads (pmu/xsu_core.c), and the threads hand over
 * to it in steps, each raising the other's tick by IPI (pmu/handover.h does the steps; here are
 * the lock, the clock and the IPIs).
 */
#include "kernel/cpu.h"
#include "tests/experiments/counting.h"

static void raise(const struct measurement *m, int thread)
{
	if (thread != HANDOVER_NONE)
		tick_send(m->pair->cpu[thread]);
}

/* Both threads' tick: thread 0's timer, or raised by the other thread. */
static void joint_tick(struct trap_frame *frame, void *context)
{
	struct measurement_thread *mt = context;
	struct measurement *m = mt->m;
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	(void)frame;

	int to = handover_tick(&m->handover, mt->thread, !tick_is_raised(), rdtsc());
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
		to = handover_enter(&m->handover, rdtsc());
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	raise(m, to);
	if (mt->thread == 0)
		tick_start(mux_ms, joint_tick, mt);
}

static void join(struct measurement_thread *mt, unsigned mux_ms)
{
	struct measurement *m = mt->m;
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	(void)mux_ms;

	m->mux.ops->start(&m->mux, mt->thread, rdtsc());
	int to = handover_join(&m->handover, mt->thread, rdtsc());
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	raise(m, to);
}

static uint64_t depart(struct measurement_thread *mt)
{
	struct measurement *m = mt->m;
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	uint64_t now = rdtsc();

	m->mux.ops->stop(&m->mux, mt->thread, now);
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	return now;
}

/* Thread 1 follows no more; a handover under way ends here. */
static void end_handover(struct measurement_thread *mt)
{
	if (handover_end(&mt->m->handover, rdtsc()))
		mt->m->unanswered = true;
}

static void leave(struct measurement_thread *mt, uint64_t departed)
{
	(void)departed;
	counting_stop(mt, end_handover);
}

const struct counting_ops counting_joint = {
	.enter = enter,
	.join = join,
	.depart = depart,
	.exit = leave,
	.common_start = true,
};
