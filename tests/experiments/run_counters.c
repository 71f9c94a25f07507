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
#include "tests/experiments/run_counters.h"

/* How long thread 0's joint tick waits for thread 1's answer before it goes on without it. */
#define JOINT_ANSWER_US 100000

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

/* core, thread 1: raised by thread 0 (tick_send); programs its half of the new schedule. */
static void follower_tick(struct trap_frame *frame, void *context)
{
	struct run_thread *rt = context;
	struct run *run = rt->run;
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	(void)frame;

	if (rt->following) {
		collect(rt);
		end_model_tick(rt);
		program(rt, &run->core.schedule[rt->thread]);
		rt->ticks++;
	}
	__atomic_store_n(&run->joint_answers, run->joint_ticks, __ATOMIC_RELEASE);
	spin_unlock_irqrestore(&the_pmu.lock, flags);
}

/*
 * Wait, with the lock free, until thread 1 has answered tick `ticket` or has stopped following.
 * False when it did not in time (a virtual CPU held back by its host). A plain spin, no PAUSE:
 * QEMU's TCG turns PAUSE into an exit to its main loop (helper_pause), which takes the lock the
 * sibling's virtual CPU needs to take our IPI, and the answer then comes in milliseconds instead
 * of tens of microseconds; on hardware it comes in a microsecond or two, too soon for PAUSE to
 * give the sibling anything.
 */
static bool follower_answered(struct run *run, uint64_t ticket)
{
	const struct run_thread *follower = &run->thread[1];
	uint64_t until = rdtsc() + tsc_from_us(JOINT_ANSWER_US);

	while (__atomic_load_n(&run->joint_answers, __ATOMIC_ACQUIRE) < ticket &&
	       __atomic_load_n(&follower->following, __ATOMIC_ACQUIRE))
		if (rdtsc() > until)
			return false;
	return true;
}

/* core, thread 0: the joint schedule of both threads, one boundary for both. */
static void joint_schedule(struct run_thread *rt)
{
	struct run *run = rt->run;
	struct mux_core *core = &run->core;
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);

	collect(rt);
	end_model_tick(rt);
	core->policy->tick(core, rt->thread, rdtsc());
	check_invariant(rt);
	bool raise = run->thread[1].following;
	uint64_t ticket = ++run->joint_ticks;
	spin_unlock_irqrestore(&the_pmu.lock, flags);

	bool answered = !raise || (tick_send(the_pair.cpu[1]) && follower_answered(run, ticket));
	flags = spin_lock_irqsave(&the_pmu.lock);
	if (answered) {
		program(rt, &core->schedule[rt->thread]);
	} else {
		/* Thread 1 may still hold its old half: the old joint schedule is the safe one. */
		struct mux_schedule old = rt->programmed;
		program(rt, &old);
		run->joint_unanswered++;
	}
	spin_unlock_irqrestore(&the_pmu.lock, flags);
}

static void leader_tick(struct trap_frame *frame, void *context)
{
	struct run_thread *rt = context;
	(void)frame;

	joint_schedule(rt);
	rt->ticks++;
}

void run_counters_start(struct run_thread *rt, unsigned mux_ms)
{
	struct mux_core *core = &rt->run->core;
	bool joint = core->policy->joint;

	if (joint && rt->thread == 1) {
		/* The hook first: thread 0 raises this tick only once we follow. */
		tick_follow(mux_ms, follower_tick, rt);
		uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
		if (the_pmu.model)
			rt->exposure_at_start = model_exposure_ticks(&the_pmu.model_state, 1);
		core->policy->start(core, rt->thread, rdtsc());
		__atomic_store_n(&rt->following, true, __ATOMIC_RELEASE);
		spin_unlock_irqrestore(&the_pmu.lock, flags);
		return;
	}
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	if (the_pmu.model)
		rt->exposure_at_start = model_exposure_ticks(&the_pmu.model_state, rt->thread);
	core->policy->start(core, rt->thread, rdtsc());
	spin_unlock_irqrestore(&the_pmu.lock, flags);
	if (joint) {
		/* Thread 0's first joint schedule now, as every later one will be. */
		joint_schedule(rt);
	} else {
		flags = spin_lock_irqsave(&the_pmu.lock);
		check_invariant(rt);
		program(rt, &core->schedule[rt->thread]);
		spin_unlock_irqrestore(&the_pmu.lock, flags);
	}
	tick_start(mux_ms, joint ? leader_tick : own_tick, rt);
}

uint64_t run_counters_stop(struct run_thread *rt)
{
	tick_stop();
	rt->tick = tick_stats_read(this_cpu()->index);

	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);
	__atomic_store_n(&rt->following, false, __ATOMIC_RELEASE);
	collect(rt);
	end_model_tick(rt);
	uint64_t stopped = rdtsc();
	spin_unlock_irqrestore(&the_pmu.lock, flags);
	return stopped;
}

void run_counters_leave(struct run_thread *rt, uint64_t stopped)
{
	struct mux_core *core = &rt->run->core;
	uint64_t flags = spin_lock_irqsave(&the_pmu.lock);

	core->policy->stop(core, rt->thread, stopped);
	spin_unlock_irqrestore(&the_pmu.lock, flags);
}
