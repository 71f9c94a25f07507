// SPDX-License-Identifier: GPL-2.0
/*
 * A bundle's passes under an XSU mode (see pmu/xsu_passes.h): each thread alone through the
 * mode's hooks, or both at once by the joint scheduler with catchers.
 */
#include <string.h>

#include "pmu/core_sched.h"
#include "pmu/sched.h"
#include "pmu/xsu.h"
#include "pmu/xsu_passes.h"

/* The GP events of thread t the input holds (at most XSU_PASS_MAX_EVENTS). */
static unsigned events_of(const struct xsu_pass_input *in, unsigned t)
{
	return in->n[t] < XSU_PASS_MAX_EVENTS ? in->n[t] : XSU_PASS_MAX_EVENTS;
}

/* Pass p of the plan; returns how many events it placed. */
typedef unsigned plan_pass_fn(const struct sched_hooks *hooks, const struct xsu_pass_input *in,
			      struct xsu_pass_plan *out, unsigned p);

/* Passes until every event has one, or until a pass places nothing: what is left fits none (its
 * counters do not exist). */
static void plan(const struct sched_hooks *hooks, const struct xsu_pass_input *in,
		 struct xsu_pass_plan *out, plan_pass_fn *pass)
{
	unsigned left = events_of(in, 0) + events_of(in, 1);

	memset(out, 0, sizeof(*out));
	memset(out->pass, 0xff, sizeof(out->pass));
	memset(out->counter, SCHED_NO_COUNTER, sizeof(out->counter));
	out->catcher = in->catcher;
	while (left && out->passes < XSU_PASS_MAX_PASSES) {
		unsigned placed = pass(hooks, in, out, out->passes);

		if (!placed)
			break;
		out->passes++;
		left -= placed;
	}
}

static void place(struct xsu_pass_plan *out, unsigned t, unsigned i, unsigned p, unsigned counter)
{
	out->pass[t][i] = (int16_t)p;
	out->counter[t][i] = (int8_t)counter;
}

/*
 * Thread t's part of pass p: its events not yet placed, in list order, each on the lowest counter
 * its mask and the mode's hooks allow (Linux's transaction, over the states its sibling's part
 * committed).
 */
static unsigned thread_pass(const struct sched_hooks *hooks, struct xsu_states *states,
			    const struct xsu_pass_input *in, struct xsu_pass_plan *out, unsigned t,
			    unsigned p)
{
	struct sched_txn txn;
	uint64_t used = 0;
	unsigned placed = 0;
	bool alone = false;

	hooks->start(&txn, states, t);
	for (unsigned i = 0; i < events_of(in, t) && !alone; i++) {
		const struct xsu_pass_event *e = &in->event[t][i];

		if (out->pass[t][i] >= 0 || (e->alone && placed))
			continue;
		uint64_t free = e->constraint.mask & PMU_GP_MASK(in->gp) & ~used &
				hooks->allowed(&txn, &e->constraint);
		if (!free)
			continue;
		unsigned c = sched_first_bit(free);
		hooks->commit(&txn, c, &e->constraint);
		used |= 1ull << c;
		place(out, t, i, p, c);
		placed++;
		alone = e->alone;
	}
	hooks->stop(&txn);
	return placed;
}

static unsigned alone_pass(const struct sched_hooks *hooks, const struct xsu_pass_input *in,
			   struct xsu_pass_plan *out, unsigned p)
{
	struct xsu_states states;
	unsigned placed;

	xsu_init(&states);
	placed = thread_pass(hooks, &states, in, out, 0, p);
	placed += thread_pass(hooks, &states, in, out, 1, p);
	return placed;
}

void xsu_passes_alone(const struct sched_hooks *hooks, const struct xsu_pass_input *in,
		      struct xsu_pass_plan *out)
{
	plan(hooks, in, out, alone_pass);
}

/*
 * Thread t's candidates for the next pass, in list order: its events not yet placed that a
 * counter of this PMU can take, as many as the joint scheduler takes; an event taken alone only
 * when it comes first, and then alone. which[k] is the k-th candidate's index in the input.
 */
static unsigned candidates(const struct xsu_pass_input *in, const struct xsu_pass_plan *out,
			   unsigned t, uint16_t *which)
{
	unsigned n = 0;

	for (unsigned i = 0; i < events_of(in, t) && n < SCHED_MAX_EVENTS; i++) {
		const struct xsu_pass_event *e = &in->event[t][i];

		if (out->pass[t][i] >= 0 || !(e->constraint.mask & PMU_GP_MASK(in->gp)) ||
		    (e->alone && n))
			continue;
		which[n++] = (uint16_t)i;
		if (e->alone)
			break;
	}
	return n;
}

/* Both threads' candidates as the joint scheduler's groups of one event each, worth alike, in
 * list order, thread 0's first. */
static void joint_input(const struct xsu_pass_input *in, const struct xsu_pass_plan *out,
			uint16_t which[2][SCHED_MAX_EVENTS], struct core_sched_input *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->gp = in->gp;
	cs->exhaustive = true;
	for (unsigned t = 0; t < 2; t++) {
		struct core_sched_thread *ct = &cs->thread[t];

		ct->nr_events = candidates(in, out, t, which[t]);
		for (unsigned k = 0; k < ct->nr_events; k++) {
			const struct constraint *c = &in->event[t][which[t][k]].constraint;

			ct->mask[k] = c->mask & PMU_GP_MASK(in->gp);
			ct->corrupting |= (uint32_t)c->corrupting << k;
			cs->order[cs->nr_groups++] =
				(struct core_sched_group){ (uint8_t)t, (uint8_t)k, 1, 1 };
		}
	}
}

static unsigned joint_pass(const struct sched_hooks *hooks, const struct xsu_pass_input *in,
			   struct xsu_pass_plan *out, unsigned p)
{
	uint16_t which[2][SCHED_MAX_EVENTS];
	struct core_sched_input cs;
	struct core_sched_result res;
	unsigned placed = 0;

	(void)hooks;
	joint_input(in, out, which, &cs);
	core_sched(&cs, &res);
	for (unsigned t = 0; t < 2; t++) {
		struct xsu_usage use = { 0, 0 };

		for (unsigned k = 0; k < cs.thread[t].nr_events; k++) {
			int c = res.counter[t][k];

			if (c == SCHED_NO_COUNTER)
				continue;
			place(out, t, which[t][k], p, (unsigned)c);
			placed++;
			use.enabled |= 1ull << c;
			if (cs.thread[t].corrupting & (1u << k))
				use.corrupting |= 1ull << c;
		}
		out->catchers[p][t ^ 1] = in->catcher ? xsu_catchers(use) : 0;
	}
	return placed;
}

void xsu_passes_joint(const struct sched_hooks *hooks, const struct xsu_pass_input *in,
		      struct xsu_pass_plan *out)
{
	plan(hooks, in, out, joint_pass);
}
