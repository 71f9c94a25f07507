// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduling, programming and reading the counters of a run (run_counters.h). Every step runs
 * under the core's lock (the_pmu.lock): the model's state and the XSU states are shared by the
 * siblings. Nothing here writes the console: a polled UART would take milliseconds out of the
 * measurement.
 */
#include "kernel/cpu.h"
#include "kernel/pair.h"
#include "kernel/pmu_core.h"
#include "kernel/time.h"
#include "pmu/counters.h"
#include "tests/experiments/run_counters.h"

static const struct mux_policy *const policies[XSU_MODE_COUNT] = {
	[XSU_MODE_OFF] = &mux_policy_off,
	[XSU_MODE_ON] = &mux_policy_on,
	[XSU_MODE_CORE] = &mux_policy_core,
};

const struct mux_policy *run_policy(unsigned mode)
{
	return mode < XSU_MODE_COUNT ? policies[mode] : &mux_policy_off;
}

/*
 * Fold what each counter counted since the last take into its event, with the schedule the
 * counters hold: the counts, interference marks, the model's true counts, and what leak catchers
 * caught (given back to the sibling's corrupting event, pmu/mux_core.h).
 */
static void collect(struct run_thread *rt)
{
	const struct mux_schedule *s = &rt->programmed;
	struct model_core *model = the_pmu.model ? &the_pmu.model_state : NULL;

	pmu_driver_stop(rt->driver);
	for (unsigned i = 0; i < rt->mux.nr_events; i++) {
		int counter = s->counter[i];
		if (counter == SCHED_NO_COUNTER)
			continue;
		rt->mux.events[i].count += pmu_driver_take(rt->driver, (unsigned)counter);
		/* Taken before the next program(), which forgets marks not taken. */
		if (pmu_driver_take_interfered(rt->driver, (unsigned)counter))
			rt->interfered[i] = true;
		if (model)
			rt->true_count[i] += model_true_take(model, rt->thread, (unsigned)counter);
	}
	for (unsigned c = 0; c < PMU_MAX_GP; c++) {
		if (!(s->catchers & (1u << c)))
			continue;
		uint64_t caught = pmu_driver_take(rt->driver, c);
		pmu_driver_take_interfered(rt->driver, c);
		if (model)
			model_true_take(model, rt->thread, c);
		mux_core_add_leak(&rt->run->core, rt->thread, s, c, caught);
	}
}

/* Program schedule s: its events and its leak catchers. */
static void program(struct run_thread *rt, const struct mux_schedule *s)
{
	struct pmu_assignment a[MUX_MAX_EVENTS + PMU_MAX_GP];
	unsigned n = 0;

	for (unsigned i = 0; i < rt->mux.nr_events; i++)
		if (s->counter[i] != SCHED_NO_COUNTER)
			a[n++] = (struct pmu_assignment){ &rt->mux.events[i].event,
							  (unsigned)s->counter[i], 0 };
	for (unsigned c = 0; c < PMU_MAX_GP; c++)
		if (s->catchers & (1u << c))
			a[n++] = (struct pmu_assignment){ s->catcher, c, 0 };
	/* The model must know the catchers before they count: they are not exposure. */
	if (the_pmu.model)
		model_set_catchers(&the_pmu.model_state, rt->thread, s->catchers);
	enum pmu_drv_status status = pmu_driver_program(rt->driver, a, n);
	if (status == PMU_DRV_OK)
		rt->programmed = *s;
	else if (rt->program_error == PMU_DRV_OK)
		rt->program_error = status;
}

/* After every schedule, with XSU: no corrupting event facing a measured event of the sibling,
 * the XSU states as the threads hold them, every leak caught (pmu/mux_core.h). */
static void check_invariant(struct run_thread *rt)
{
	const struct mux_core *core = &rt->run->core;

	if (core->policy->xsu && !mux_core_invariant(core))
		rt->violations++;
}

static void end_model_tick(const struct run_thread *rt)
{
	if (the_pmu.model)
		model_tick(&the_pmu.model_state, rt->thread);
}

/* off, on: this thread's own tick reschedules its own list. */
static void own_tick(struct trap_frame *frame, void *context)
{
	struct run_thread *rt = context;
	struct mux_core *core = &rt->run->core;
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	(void)frame;

	collect(rt);
	end_model_tick(rt);
	core->policy->tick(core, rt->thread, rdtsc());
	check_invariant(rt);
	program(rt, &core->schedule[rt->thread]);
	spin_unlock_irqrestore(&the_pmu.lock, flags);
	rt->ticks++;
}

/*
 * core: the handover from the joint schedule S the threads hold to the next one, S', in four steps
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
static struct mux_schedule part_of(const struct run_thread *rt, const struct mux_schedule *s,
				   bool keep_events)
{
	struct mux_schedule part = *s;

	for (unsigned i = 0; i < rt->mux.nr_events; i++)
		if (!keep_events || rt->mux.events[i].constraint.corrupting)
			part.counter[i] = SCHED_NO_COUNTER;
	return part;
}

/* Step 1, thread 0's timer tick; true when thread 1 is to be raised. Lock held. */
static bool joint_begin(struct run_thread *rt)
{
	struct run *run = rt->run;
	struct mux_core *core = &run->core;
	struct mux_schedule catchers = part_of(rt, &rt->programmed, false);

	collect(rt);
	end_model_tick(rt);
	core->policy->tick(core, rt->thread, rdtsc());
	check_invariant(rt);
	if (!run->thread[1].following) {
		/* No sibling yet to catch the leaks: the corrupting events wait for it (it raises
		 * this tick when it comes). Without a sibling at all nothing leaks. */
		struct mux_schedule alone = part_of(rt, &core->schedule[rt->thread], true);
		program(rt, the_pair.thread_count == 2 ? &alone : &core->schedule[rt->thread]);
		return false;
	}
	program(rt, &catchers);
	run->joint_step = JOINT_STOP_SIBLING;
	run->joint_began_at = rdtsc();
	return true;
}

static void leader_tick(struct trap_frame *frame, void *context)
{
	struct run_thread *rt = context;
	struct run *run = rt->run;
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	bool raise = false;
	(void)frame;

	if (run->joint_step == JOINT_IDLE) {
		raise = joint_begin(rt);
		rt->ticks++;
	} else if (run->joint_step == JOINT_START_LEADER) {
		collect(rt);
		program(rt, &run->core.schedule[rt->thread]);
		run->joint_step = JOINT_START_SIBLING;
		raise = true;
	} else if (!run->join_raised) {
		run->joint_unanswered++; /* a timer tick while thread 1 has not answered */
	}
	/* Thread 1's join is served by the handover that began here or is under way. */
	run->join_raised = false;
	spin_unlock_irqrestore(&the_pmu.lock, flags);
	if (raise)
		tick_send(the_pair.cpu[1]);
}

static void follower_tick(struct trap_frame *frame, void *context)
{
	struct run_thread *rt = context;
	struct run *run = rt->run;
	const struct mux_schedule *next = &run->core.schedule[rt->thread];
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	bool raise = false;
	(void)frame;

	if (rt->following && run->joint_step == JOINT_STOP_SIBLING) {
		struct mux_schedule safe = part_of(rt, next, true);
		collect(rt);
		end_model_tick(rt);
		program(rt, &safe);
		run->joint_step = JOINT_START_LEADER;
		raise = true;
		rt->ticks++;
	} else if (rt->following && run->joint_step == JOINT_START_SIBLING) {
		collect(rt);
		program(rt, next);
		run->joint_step = JOINT_IDLE;
		run->joint_gap_tsc += rdtsc() - run->joint_began_at;
	}
	spin_unlock_irqrestore(&the_pmu.lock, flags);
	if (raise)
		tick_send(the_pair.cpu[0]);
}

/*
 * core: a thread that joins has its events enabled from now, and thread 1 that enters brings the
 * catchers thread 0's corrupting events wait for; either way a handover to the joint schedule
 * begins at once: thread 0 begins it itself, thread 1 raises thread 0's tick. Waiting for thread
 * 0's next timer tick would leave events enabled and not counting for a tick and more, as long
 * as the host holds thread 0 back. A handover under way serves the change too. Lock held; says
 * which thread to raise (-1: none).
 */
static int joint_hurry(struct run_thread *rt)
{
	struct run *run = rt->run;

	if (run->joint_step != JOINT_IDLE)
		return -1;
	if (rt->thread == 0)
		return joint_begin(rt) ? 1 : -1;
	run->join_raised = true;
	return 0;
}

static void joint_raise(int thread)
{
	if (thread >= 0)
		tick_send(the_pair.cpu[thread]);
}

void run_counters_enter(struct run_thread *rt, unsigned mux_ms)
{
	bool joint = rt->run->core.policy->joint;
	int raise = -1;

	/* The hook first: thread 0 raises thread 1's tick only once it follows. */
	if (joint && rt->thread == 1)
		tick_follow(follower_tick, rt);
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	if (the_pmu.model)
		rt->exposure_at_start = model_exposure_ticks(&the_pmu.model_state, rt->thread);
	if (joint && rt->thread == 1) {
		__atomic_store_n(&rt->following, true, __ATOMIC_RELEASE);
		raise = joint_hurry(rt);
	}
	spin_unlock_irqrestore(&the_pmu.lock, flags);
	joint_raise(raise);
	if (joint && rt->thread == 0)
		tick_start(mux_ms, leader_tick, rt);
}

static void joint_join(struct run_thread *rt)
{
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);

	rt->run->core.policy->start(&rt->run->core, rt->thread, rdtsc());
	int raise = joint_hurry(rt);
	spin_unlock_irqrestore(&the_pmu.lock, flags);
	joint_raise(raise);
}

void run_counters_join(struct run_thread *rt, unsigned mux_ms)
{
	struct mux_core *core = &rt->run->core;

	if (core->policy->joint) {
		joint_join(rt);
		return;
	}
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	core->policy->start(core, rt->thread, rdtsc());
	check_invariant(rt);
	program(rt, &core->schedule[rt->thread]);
	spin_unlock_irqrestore(&the_pmu.lock, flags);
	tick_start(mux_ms, own_tick, rt);
}

/* Stop the tick, read the counters a last time: they stay stopped. */
static void stop_counting(struct run_thread *rt)
{
	tick_stop();
	rt->tick = tick_stats_read(this_cpu()->index);

	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	__atomic_store_n(&rt->following, false, __ATOMIC_RELEASE);
	/* A handover under way ends here. */
	rt->run->joint_step = JOINT_IDLE;
	collect(rt);
	end_model_tick(rt);
	spin_unlock_irqrestore(&the_pmu.lock, flags);
}

uint64_t run_counters_depart(struct run_thread *rt)
{
	struct mux_core *core = &rt->run->core;

	if (!core->policy->joint) {
		stop_counting(rt);
		return rdtsc();
	}
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	uint64_t now = rdtsc();
	core->policy->stop(core, rt->thread, now);
	spin_unlock_irqrestore(&the_pmu.lock, flags);
	return now;
}

void run_counters_exit(struct run_thread *rt, uint64_t departed)
{
	struct mux_core *core = &rt->run->core;

	if (core->policy->joint) {
		stop_counting(rt);
		return;
	}
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	core->policy->stop(core, rt->thread, departed);
	spin_unlock_irqrestore(&the_pmu.lock, flags);
}
