// SPDX-License-Identifier: GPL-2.0
/*
 * A core's two threads under an XSU policy (see pmu/mux_core.h): Linux's per-thread policies,
 * and the joint one of xsu=core with its priority order, leak catchers and invariant.
 */
#include <string.h>

#include "pmu/core_sched.h"
#include "pmu/mux_core.h"

static void clear_schedule(struct mux_schedule *s)
{
	memset(s, 0, sizeof(*s));
	memset(s->counter, SCHED_NO_COUNTER, sizeof(s->counter));
	memset(s->leak_of, SCHED_NO_COUNTER, sizeof(s->leak_of));
}

/* ---- off and on: each thread alone, exactly pmu/mux.h --------------------------------------- */

static void thread_start(struct mux_core *core, unsigned thread, uint64_t now)
{
	mux_start(core->thread[thread & 1], now, &core->schedule[thread & 1]);
}

static void thread_tick(struct mux_core *core, unsigned thread, uint64_t now)
{
	mux_tick(core->thread[thread & 1], now, &core->schedule[thread & 1]);
}

static void thread_stop(struct mux_core *core, unsigned thread, uint64_t now)
{
	mux_stop(core->thread[thread & 1], now);
	clear_schedule(&core->schedule[thread & 1]);
}

const struct mux_policy mux_policy_off = {
	.name = "off",
	.xsu = false,
	.joint = false,
	.start = thread_start,
	.tick = thread_tick,
	.stop = thread_stop,
};

const struct mux_policy mux_policy_on = {
	.name = "on",
	.xsu = true,
	.joint = false,
	.start = thread_start,
	.tick = thread_tick,
	.stop = thread_stop,
};

/* ---- core: one joint schedule ----------------------------------------------------------------- */

static void joint_tick(struct mux_core *core, unsigned thread, uint64_t now)
{
	(void)thread; /* both threads, whoever drives */
	mux_core_tick(core, now);
}

const struct mux_policy mux_policy_core = {
	.name = "core",
	.xsu = true,
	.joint = true,
	.start = mux_core_join,
	.tick = joint_tick,
	.stop = mux_core_leave,
};

const struct mux_policy *mux_policy_by_name(const char *name)
{
	static const struct mux_policy *const all[] = { &mux_policy_off, &mux_policy_on,
							&mux_policy_core };

	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

void mux_core_init(struct mux_core *core, const struct mux_policy *policy, bool starvation_limit,
		   struct mux_thread *thread0, struct mux_thread *thread1,
		   const struct pmu_event *catcher)
{
	memset(core, 0, sizeof(*core));
	core->policy = policy;
	core->thread[0] = thread0;
	core->thread[1] = thread1;
	xsu_init(&core->xsu, policy->xsu, starvation_limit);
	core->catcher = policy->joint ? catcher : NULL;
	for (unsigned t = 0; t < 2; t++) {
		core->thread[t]->xsu = &core->xsu;
		core->thread[t]->thread = t;
		clear_schedule(&core->schedule[t]);
	}
}

/* New events take part from now on (Linux: enabled, so time_enabled runs). */
static void enable_new(struct mux_thread *t)
{
	for (unsigned i = 0; i < t->nr_events; i++)
		if (t->events[i].state == MUX_EVENT_NEW)
			t->events[i].state = MUX_EVENT_ENABLED;
}

void mux_core_join(struct mux_core *core, unsigned thread, uint64_t now)
{
	struct mux_thread *t = core->thread[thread & 1];

	t->running = true;
	t->multiplexing = false;
	t->last_time = now;
	enable_new(t);
}

/*
 * The running fraction time_running / time_enabled as a 0.32 fixed-point number (1.0 is
 * 0xffffffff), comparable across threads: both times are shifted right until time_enabled fits
 * 32 bits, which costs no precision that matters (2^-32 of the fraction). 0 before any time.
 */
static uint32_t running_fraction(const struct mux_event *e)
{
	uint64_t enabled = e->time_enabled, running = e->time_running, q;
	unsigned shift = enabled >> 32 ? 64 - (unsigned)__builtin_clzll(enabled >> 32) : 0;

	enabled >>= shift;
	running >>= shift;
	if (!enabled)
		return 0;
	q = (running << 32) / enabled;
	return q > 0xffffffffu ? 0xffffffffu : (uint32_t)q;
}

/*
 * A group's place in the joint order, as one number (smaller first): pinned groups that were
 * running (they keep running), other pinned groups, then flexible groups; the lowest running
 * fraction first; then the group's position in its list, thread 0 before thread 1.
 */
static uint64_t order_key(const struct mux_thread *t, unsigned thread, unsigned group)
{
	const struct sched_group *g = &t->groups[group];
	const struct mux_event *leader = &t->events[g->first];
	uint64_t rank = !g->pinned ? 2 : leader->counter != SCHED_NO_COUNTER ? 0 : 1;

	return rank << 40 | (uint64_t)running_fraction(leader) << 8 | group << 1 | thread;
}

static void build_input(const struct mux_core *core, struct core_sched_input *in)
{
	uint64_t key[CORE_SCHED_MAX_GROUPS];
	unsigned n = 0;

	in->gp = core->thread[0]->config.gp < core->thread[1]->config.gp
			 ? core->thread[0]->config.gp
			 : core->thread[1]->config.gp;
	in->fixed = core->thread[0]->config.fixed < core->thread[1]->config.fixed
			    ? core->thread[0]->config.fixed
			    : core->thread[1]->config.fixed;
	in->hint[0] = core->exclusive[0];
	in->hint[1] = core->exclusive[1];
	for (unsigned t = 0; t < 2; t++) {
		const struct mux_thread *th = core->thread[t];
		struct core_sched_thread *ct = &in->thread[t];

		ct->nr_events = th->nr_events;
		ct->corrupting = 0;
		for (unsigned i = 0; i < th->nr_events; i++) {
			ct->mask[i] = th->events[i].constraint.mask;
			ct->corrupting |= (uint32_t)th->events[i].constraint.corrupting << i;
		}
		if (!th->running)
			continue;
		for (unsigned g = 0; g < th->nr_groups; g++) {
			const struct sched_group *grp = &th->groups[g];
			uint64_t k = order_key(th, t, g);
			unsigned j = n++;

			if (th->events[grp->first].state != MUX_EVENT_ENABLED) {
				n--;
				continue;
			}
			/* Insertion sort: a few dozen groups at most. */
			for (; j > 0 && key[j - 1] > k; j--) {
				key[j] = key[j - 1];
				in->order[j] = in->order[j - 1];
			}
			key[j] = k;
			in->order[j] =
				(struct core_sched_group){ (uint8_t)t, grp->first, grp->count };
		}
	}
	in->nr_groups = n;
}

/* Thread t's half of the joint result: counters, error states, its schedule. */
static void apply(struct mux_core *core, unsigned t, const struct core_sched_input *in,
		  const struct core_sched_result *res)
{
	struct mux_thread *th = core->thread[t];
	struct mux_schedule *s = &core->schedule[t];
	uint64_t allowed[2] = {
		/* what the split let this thread use, shown as the dynamic constraint */
		(PMU_GP_BITS & ~(uint64_t)res->exclusive[t ^ 1]) | PMU_FIXED_BITS,
		res->exclusive[t],
	};

	clear_schedule(s);
	for (unsigned i = 0; i < th->nr_events; i++) {
		struct mux_event *e = &th->events[i];

		e->counter = th->running ? res->counter[t][i] : SCHED_NO_COUNTER;
		e->dynamic_mask = e->constraint.mask & allowed[e->constraint.corrupting];
		s->counter[i] = e->counter;
		if (e->counter == SCHED_NO_COUNTER)
			continue;
		e->last_counter = e->counter;
		s->nr_scheduled++;
	}
	for (unsigned k = 0; k < in->nr_groups; k++) {
		const struct core_sched_group *g = &in->order[k];
		const struct sched_group *grp;

		if (g->thread != t || (res->accepted & core_sched_rank_bit(k)))
			continue;
		grp = &th->groups[th->events[g->first].group];
		if (!grp->pinned) {
			s->multiplexing = true;
			continue;
		}
		/* Linux ctx_pinned_sched_in(): a pinned group that does not fit is in error for good. */
		for (unsigned j = 0; j < g->count; j++)
			th->events[g->first + j].state = MUX_EVENT_ERROR;
		s->pinned_failed = true;
	}
	th->multiplexing = s->multiplexing;
}

/* Opposite every corrupting event on GP counter i, the sibling's counter i counts the catcher. */
static void place_catchers(struct mux_core *core)
{
	for (unsigned t = 0; t < 2; t++) {
		core->schedule[t].catchers = 0;
		core->schedule[t].catcher = core->catcher;
		memset(core->schedule[t].leak_of, SCHED_NO_COUNTER,
		       sizeof(core->schedule[t].leak_of));
	}
	if (!core->catcher)
		return;
	for (unsigned t = 0; t < 2; t++) {
		const struct mux_thread *th = core->thread[t];
		struct mux_schedule *sibling = &core->schedule[t ^ 1];

		for (unsigned i = 0; i < th->nr_events; i++) {
			const struct mux_event *e = &th->events[i];

			if (e->counter == SCHED_NO_COUNTER || e->counter >= PMU_MAX_GP ||
			    !e->constraint.corrupting)
				continue;
			sibling->catchers |= (uint8_t)(1u << e->counter);
			sibling->leak_of[e->counter] = (int8_t)i;
		}
	}
}

/* Linux's XSU states, made equal to what each thread now holds (xsu_invariant checks them). */
static void mirror_states(struct mux_core *core)
{
	for (unsigned t = 0; t < 2; t++) {
		const struct mux_thread *th = core->thread[t];
		struct xsu_transaction txn;
		bool exclusive = false;

		xsu_start(&core->xsu, t, &txn);
		for (unsigned c = 0; c < XSU_MAX_COUNTERS; c++)
			xsu_release(&txn, c);
		for (unsigned i = 0; i < th->nr_events; i++) {
			const struct mux_event *e = &th->events[i];

			if (e->state == MUX_EVENT_ENABLED)
				exclusive |= e->constraint.corrupting;
			if (e->counter != SCHED_NO_COUNTER)
				xsu_commit(&txn, (unsigned)e->counter, e->constraint.corrupting);
		}
		xsu_stop(&txn);
		xsu_set_has_exclusive(&core->xsu, t, exclusive && th->running);
	}
}

void mux_core_tick(struct mux_core *core, uint64_t now)
{
	struct core_sched_input in;
	struct core_sched_result res;

	for (unsigned t = 0; t < 2; t++) {
		if (!core->thread[t]->running)
			continue;
		mux_account(core->thread[t], now);
		enable_new(core->thread[t]);
	}
	build_input(core, &in);
	core_sched(&in, &res);
	for (unsigned t = 0; t < 2; t++)
		apply(core, t, &in, &res);
	place_catchers(core);
	mirror_states(core);
	core->exclusive[0] = res.exclusive[0];
	core->exclusive[1] = res.exclusive[1];
	core->splits = res.splits;
}

void mux_core_leave(struct mux_core *core, unsigned thread, uint64_t now)
{
	struct mux_thread *t = core->thread[thread & 1];
	struct mux_schedule *s = &core->schedule[thread & 1];

	mux_account(t, now);
	for (unsigned i = 0; i < t->nr_events; i++)
		t->events[i].counter = SCHED_NO_COUNTER;
	t->running = false;
	t->multiplexing = false;
	/* Its own events are out; its catchers stay until the next tick, as the sibling's
	 * corrupting events keep running until then. */
	memset(s->counter, SCHED_NO_COUNTER, sizeof(s->counter));
	s->nr_scheduled = 0;
	s->multiplexing = false;
	mirror_states(core);
}

void mux_core_add_leak(struct mux_core *core, unsigned thread,
		       const struct mux_schedule *programmed, unsigned counter, uint64_t caught)
{
	const struct mux_thread *sibling = core->thread[(thread & 1) ^ 1];
	int e;

	if (counter >= PMU_MAX_GP || !(programmed->catchers & (1u << counter)))
		return;
	e = programmed->leak_of[counter];
	if (e >= 0 && (unsigned)e < sibling->nr_events)
		core->thread[(thread & 1) ^ 1]->events[e].leak += caught;
}

bool mux_core_invariant(const struct mux_core *core)
{
	struct xsu_usage use[2] = { mux_usage(core->thread[0]), mux_usage(core->thread[1]) };

	if (!core->policy->xsu)
		return true; /* off promises nothing */
	if (!xsu_invariant(&core->xsu, use[0], use[1]))
		return false; /* exposure, or states that do not match */
	if (!core->policy->joint)
		return true;
	for (unsigned t = 0; t < 2; t++) {
		uint64_t catchers = core->schedule[t].catchers;

		if (catchers & use[t].enabled)
			return false; /* a catcher on a measured event's counter */
		if (core->catcher && (use[t ^ 1].corrupting & PMU_GP_BITS & ~catchers))
			return false; /* a corrupting event whose leak nothing catches */
	}
	return true;
}
