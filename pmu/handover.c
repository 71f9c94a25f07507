// SPDX-License-Identifier: GPL-2.0
/*
 * Core-wide XSU's handover (see pmu/handover.h).
 */
#include <string.h>

#include "pmu/handover.h"
#include "pmu/regs.h"

void handover_init(struct handover *h, struct mux_pair *pair, struct thread_counters *tc0,
		   struct thread_counters *tc1, bool sibling, uint64_t unanswered_after)
{
	memset(h, 0, sizeof(*h));
	h->pair = pair;
	h->tc[0] = tc0;
	h->tc[1] = tc1;
	h->sibling = sibling;
	h->unanswered_after = unanswered_after;
}

/* s without its events (catchers only), or without its corrupting events. */
static struct xsu_schedule part_of(const struct thread_counters *tc, const struct xsu_schedule *s,
				   bool keep_events)
{
	const struct mux_thread *t = tc->pair->thread[tc->thread];
	struct xsu_schedule part = *s;

	for (unsigned i = 0; i < t->nr_events; i++)
		if (!keep_events || t->events[i].constraint.corrupting)
			part.events.counter[i] = SCHED_NO_COUNTER;
	return part;
}

/* Whether s places a corrupting event of thread tc or a catcher: then something can leak. */
static bool can_leak(const struct thread_counters *tc, const struct xsu_schedule *s)
{
	const struct mux_thread *t = tc->pair->thread[tc->thread];

	if (s->catchers)
		return true;
	for (unsigned i = 0; i < t->nr_events; i++)
		if (s->events.counter[i] != SCHED_NO_COUNTER && t->events[i].constraint.corrupting)
			return true;
	return false;
}

/* Thread t's counters hold `in_force` from now on: they are programmed so, and its events' times
 * accounted so (mux_pair_commit). */
static void commit(struct handover *h, unsigned t, const struct xsu_schedule *in_force,
		   struct handover_time now)
{
	mux_pair_commit(h->pair, t, in_force, now.own[t]);
}

/* Both threads hold their halves of the joint schedule: their figures count from the first. */
static void settled(struct handover *h)
{
	thread_counters_settled(h->tc[0]);
	if (h->following)
		thread_counters_settled(h->tc[1]);
}

/* Thread 0 without a sibling that follows: its own half alone, corrupting events held back
 * while a sibling may yet come to catch their leaks. */
static enum handover_raise alone(struct handover *h, struct handover_time now)
{
	struct thread_counters *tc = h->tc[0];
	struct xsu_schedule next = part_of(tc, &h->pair->schedule[0], true);
	const struct xsu_schedule *s = h->sibling ? &next : &h->pair->schedule[0];

	thread_counters_switch(tc, s, 0);
	commit(h, 0, s, now);
	if (!h->sibling)
		settled(h);
	return HANDOVER_NONE;
}

/* Nothing can leak: thread 0 switches now, thread 1 when raised, if its half changed. */
static enum handover_raise direct(struct handover *h, bool sibling_changes,
				  struct handover_time now)
{
	thread_counters_switch(h->tc[0], &h->pair->schedule[0], 0);
	commit(h, 0, &h->pair->schedule[0], now);
	if (!sibling_changes) {
		settled(h);
		return 1; /* thread 1 reads */
	}
	h->direct = true;
	h->step = HANDOVER_STEP4;
	h->began_at = now.wall;
	h->waited = 0;
	h->handovers++;
	return HANDOVER_RAISE_THREAD1;
}

/* Step 1, thread 0: the joint schedule, and the way to it. */
static enum handover_raise begin(struct handover *h, struct handover_time now)
{
	struct thread_counters *tc = h->tc[0];
	struct mux_pair *pair = h->pair;

	h->ticks[0]++;
	h->ticks[1] += h->following;
	h->hurry = false;
	h->read_due = h->following;
	thread_counters_verify(tc);
	/* Thread 1's times too, on its clock: its fractions move also while its half stays. */
	mux_pair_account(pair, 1, now.own[1]);
	pair->ops->tick(pair, 0, now.own[0]);
	thread_counters_check(tc);
	thread_counters_tick(tc);
	if (!h->following)
		return alone(h, now);
	bool change0 = thread_counters_changes(tc, &pair->schedule[0]) != 0;
	bool change1 = thread_counters_changes(h->tc[1], &pair->schedule[1]) != 0;
	if (!change0 && !change1) {
		/* The same joint schedule: read, write nothing; thread 1 reads too. */
		thread_counters_read(tc, 0);
		h->unchanged++;
		settled(h);
		return 1;
	}
	if (!can_leak(tc, &tc->programmed) && !can_leak(tc, &pair->schedule[0]) &&
	    !can_leak(h->tc[1], &h->tc[1]->programmed) && !can_leak(h->tc[1], &pair->schedule[1]))
		return direct(h, change1, now);
	/* Its events stop; its catchers of S go on catching the sibling's leaks. */
	struct xsu_schedule catchers = part_of(tc, &tc->programmed, false);
	thread_counters_read(tc, thread_counters_events(tc, &tc->programmed, false));
	commit(h, 0, &catchers, now);
	h->direct = false;
	h->step = HANDOVER_STEP2;
	h->began_at = now.wall;
	h->waited = 0;
	h->handovers++;
	return HANDOVER_RAISE_THREAD1;
}

/* Thread 1's look at its counters, once a joint tick: its registers read back, its counters read
 * (a step of a handover reads them as it switches). */
static void look(struct handover *h)
{
	thread_counters_verify(h->tc[1]);
	h->read_due = false;
}

/* Thread 1 at a joint tick with no handover: it reads, and writes nothing. */
static int read_only(struct handover *h)
{
	look(h);
	thread_counters_tick(h->tc[1]);
	thread_counters_read(h->tc[1], 0);
	return HANDOVER_NONE;
}

/* Step 2, thread 1: S' with the corrupting events that change held until step 4. */
static enum handover_raise step2(struct handover *h, struct handover_time now)
{
	struct thread_counters *tc = h->tc[1];
	const struct xsu_schedule *next = &h->pair->schedule[1];
	struct xsu_schedule running = part_of(tc, next, true);
	/* Its corrupting events that keep their counter go on: the catcher opposite stays. */
	uint64_t held = thread_counters_events(tc, next, true) & thread_counters_changes(tc, next);

	look(h);
	thread_counters_tick(tc);
	thread_counters_switch(tc, next, held);
	for (unsigned i = 0; i < tc->pair->thread[1]->nr_events; i++)
		if (next->events.counter[i] != SCHED_NO_COUNTER &&
		    !(held & regs_global_bit((unsigned)next->events.counter[i])))
			running.events.counter[i] = next->events.counter[i];
	commit(h, 1, &running, now);
	h->step = HANDOVER_STEP3;
	return HANDOVER_RAISE_THREAD0;
}

/* Step 3, thread 0: its whole half of S'. */
static enum handover_raise step3(struct handover *h, struct handover_time now)
{
	thread_counters_switch(h->tc[0], &h->pair->schedule[0], 0);
	commit(h, 0, &h->pair->schedule[0], now);
	h->step = HANDOVER_STEP4;
	return HANDOVER_RAISE_THREAD1;
}

/* Step 4, thread 1: its held corrupting events start (or, nothing corrupting, its switch). */
static enum handover_raise step4(struct handover *h, struct handover_time now)
{
	struct thread_counters *tc = h->tc[1];

	if (h->direct) {
		look(h);
		thread_counters_tick(tc);
		thread_counters_switch(tc, &h->pair->schedule[1], 0);
	} else {
		thread_counters_start(tc, tc->held);
	}
	commit(h, 1, &h->pair->schedule[1], now);
	h->step = HANDOVER_IDLE;
	h->gap += now.wall - h->began_at;
	settled(h);
	return HANDOVER_NONE;
}

static enum handover_raise leader_tick(struct handover *h, bool timer, struct handover_time now)
{
	if (h->step == HANDOVER_STEP3)
		return step3(h, now);
	if (h->step == HANDOVER_IDLE)
		return timer || h->hurry ? begin(h, now) : HANDOVER_NONE;
	if (!timer)
		return HANDOVER_NONE;
	/* Thread 1 has not answered within a period: the IPI was late or lost; send it again. */
	h->retries++;
	h->waited++;
	return HANDOVER_RAISE_THREAD1;
}

static enum handover_raise follower_tick(struct handover *h, struct handover_time now)
{
	if (!h->following)
		return HANDOVER_NONE;
	if (h->step == HANDOVER_STEP2)
		return step2(h, now);
	if (h->step == HANDOVER_STEP4)
		return step4(h, now);
	if (h->read_due)
		return read_only(h);
	return HANDOVER_NONE; /* an IPI sent again that crossed the answer */
}

enum handover_raise handover_tick(struct handover *h, unsigned thread, bool timer,
				  struct handover_time now)
{
	return thread == 0 ? leader_tick(h, timer, now) : follower_tick(h, now);
}

/* A change (a thread joined, thread 1 came) begins a handover at once. */
static enum handover_raise hurry(struct handover *h, unsigned thread, struct handover_time now)
{
	if (h->step != HANDOVER_IDLE)
		return HANDOVER_NONE;
	if (thread == 0)
		return begin(h, now);
	h->hurry = true;
	return HANDOVER_RAISE_THREAD0;
}

enum handover_raise handover_enter(struct handover *h, struct handover_time now)
{
	h->following = true;
	return hurry(h, 1, now);
}

enum handover_raise handover_join(struct handover *h, unsigned thread, struct handover_time now)
{
	return hurry(h, thread, now);
}

bool handover_end(struct handover *h, uint64_t wall)
{
	bool unanswered;

	if (!h->following)
		return false;
	h->following = false;
	if (h->step == HANDOVER_IDLE)
		return false;
	/* Its events were stopped until now. */
	h->gap += wall - h->began_at;
	h->unanswered += h->step != HANDOVER_STEP3;
	unanswered = h->step != HANDOVER_STEP3 && h->waited >= HANDOVER_UNANSWERED &&
		     wall - h->began_at > h->unanswered_after;
	h->step = HANDOVER_IDLE;
	return unanswered;
}
