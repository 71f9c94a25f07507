// SPDX-License-Identifier: GPL-2.0
/*
 * counting_joint (tests/experiments/counting.h): core-wide XSU. Thread 0's timer is the only one;
 * its tick makes the joint schedule of both threads (pmu/xsu_core.c), and the threads hand over
 * to it in four steps, each raising the other's tick by IPI.
 */
#include "kernel/cpu.h"
#include "tests/experiments/counting.h"

/*
 * The handover from the joint schedule S the threads hold to the next one, S', in four steps
 * that never let a corrupting event count while the sibling counter opposite it is stopped (its
 * leak would be lost) and never let a catcher catch for another event than the one its schedule
 * names. Each step is one thread's tick, the next one raised by IPI (tick_send):
 *
 *   1. thread 0 (its timer): reads its counters, keeps only its catchers of S running, makes S';
 *   2. thread 1: reads its counters, runs S' without its corrupting events;
 *   3. thread 0: reads its catchers, runs its whole half of S';
 *   4. thread 1: reads its counters (its catchers of S' caught thread 0's leaks), runs its whole
 *      half of S'.
 *
 * Between the steps an event that is not running counts nothing, in the model's true count too,
 * so scaled and true counts stay comparable; on hardware a step is an IPI, microseconds.
 */
enum joint_step {
	JOINT_IDLE,	    /* both threads run S */
	JOINT_STOP_SIBLING, /* step 2 raised */
	JOINT_START_LEADER, /* step 3 raised */
	JOINT_START_SIBLING /* step 4 raised */
};

/* s without its events (catchers only), or without its corrupting events. */
static struct mux_schedule part_of(const struct measurement_thread *mt,
				   const struct mux_schedule *s, bool keep_events)
{
	struct mux_schedule part = *s;

	for (unsigned i = 0; i < mt->mux.nr_events; i++)
		if (!keep_events || mt->mux.events[i].constraint.corrupting)
			part.counter[i] = SCHED_NO_COUNTER;
	return part;
}

/* Step 1, thread 0's timer tick; true when thread 1 is to be raised. Lock held. */
static bool joint_begin(struct measurement_thread *mt)
{
	struct measurement *m = mt->m;
	struct mux_pair *pair = &m->mux;
	struct mux_schedule catchers = part_of(mt, &mt->programmed, false);

	counting_collect(mt);
	counting_model_tick(mt);
	pair->ops->tick(pair, mt->thread, rdtsc());
	counting_check(mt);
	if (!m->thread[1].following) {
		/* No sibling yet to catch the leaks: the corrupting events wait for it (it raises
		 * this tick when it comes). Without a sibling at all nothing leaks. */
		struct mux_schedule alone = part_of(mt, &pair->schedule[mt->thread], true);
		counting_program(mt,
				 m->pair->thread_count == 2 ? &alone : &pair->schedule[mt->thread]);
		return false;
	}
	counting_program(mt, &catchers);
	m->joint_step = JOINT_STOP_SIBLING;
	m->joint_began_at = rdtsc();
	return true;
}

static void leader_tick(struct trap_frame *frame, void *context)
{
	struct measurement_thread *mt = context;
	struct measurement *m = mt->m;
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	bool raise = false;
	(void)frame;

	if (m->joint_step == JOINT_IDLE) {
		raise = joint_begin(mt);
		mt->ticks++;
	} else if (m->joint_step == JOINT_START_LEADER) {
		counting_collect(mt);
		counting_program(mt, &m->mux.schedule[mt->thread]);
		m->joint_step = JOINT_START_SIBLING;
		raise = true;
	} else if (!m->join_raised) {
		m->joint_unanswered++; /* a timer tick while thread 1 has not answered */
	}
	/* Thread 1's join is served by the handover that began here or is under way. */
	m->join_raised = false;
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	if (raise)
		tick_send(m->pair->cpu[1]);
}

static void follower_tick(struct trap_frame *frame, void *context)
{
	struct measurement_thread *mt = context;
	struct measurement *m = mt->m;
	const struct mux_schedule *next = &m->mux.schedule[mt->thread];
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	bool raise = false;
	(void)frame;

	if (mt->following && m->joint_step == JOINT_STOP_SIBLING) {
		struct mux_schedule safe = part_of(mt, next, true);
		counting_collect(mt);
		counting_model_tick(mt);
		counting_program(mt, &safe);
		m->joint_step = JOINT_START_LEADER;
		raise = true;
		mt->ticks++;
	} else if (mt->following && m->joint_step == JOINT_START_SIBLING) {
		counting_collect(mt);
		counting_program(mt, next);
		m->joint_step = JOINT_IDLE;
		m->joint_gap_tsc += rdtsc() - m->joint_began_at;
	}
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	if (raise)
		tick_send(m->pair->cpu[0]);
}

/*
 * A thread that joins has its events enabled from now, and thread 1 that enters brings the
 * catchers thread 0's corrupting events wait for; either way a handover to the joint schedule
 * begins at once: thread 0 begins it itself, thread 1 raises thread 0's tick. Waiting for thread
 * 0's next timer tick would leave events enabled and not counting for a tick and more, as long
 * as the host holds thread 0 back. A handover under way serves the change too. Lock held; says
 * which thread to raise (-1: none).
 */
static int joint_hurry(struct measurement_thread *mt)
{
	struct measurement *m = mt->m;

	if (m->joint_step != JOINT_IDLE)
		return -1;
	if (mt->thread == 0)
		return joint_begin(mt) ? 1 : -1;
	m->join_raised = true;
	return 0;
}

static void joint_raise(const struct measurement *m, int thread)
{
	if (thread >= 0)
		tick_send(m->pair->cpu[thread]);
}

static void enter(struct measurement_thread *mt, unsigned mux_ms)
{
	struct measurement *m = mt->m;
	int raise = -1;

	/* The hook first: thread 0 raises thread 1's tick only once it follows. */
	if (mt->thread == 1)
		tick_follow(follower_tick, mt);
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	counting_mark_exposure(mt);
	if (mt->thread == 1) {
		__atomic_store_n(&mt->following, true, __ATOMIC_RELEASE);
		raise = joint_hurry(mt);
	}
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	joint_raise(m, raise);
	if (mt->thread == 0)
		tick_start(mux_ms, leader_tick, mt);
}

static void join(struct measurement_thread *mt, unsigned mux_ms)
{
	struct measurement *m = mt->m;
	uint64_t flags = spin_lock_irqsave(&m->pmu->lock);
	(void)mux_ms;

	m->mux.ops->start(&m->mux, mt->thread, rdtsc());
	int raise = joint_hurry(mt);
	spin_unlock_irqrestore(&m->pmu->lock, flags);
	joint_raise(m, raise);
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
	__atomic_store_n(&mt->following, false, __ATOMIC_RELEASE);
	mt->m->joint_step = JOINT_IDLE;
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
