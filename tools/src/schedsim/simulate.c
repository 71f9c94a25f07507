// SPDX-License-Identifier: GPL-2.0
/*
 * schedsim's runs: one thread multiplexed for -n iterations (thesis 7.2), or two sibling threads
 * replayed under an XSU policy (thesis 7.1, fig. 7.3). Every iteration is exactly what the kernel
 * does on a multiplexing tick, through the policy's ops (pmu/mux_pair.h): with `off` and `on`
 * each thread's mux_tick in turn, HT0 first (the XSU lock implied: one thread runs at a time);
 * with `core` one joint schedule for both. The invariant is checked after every schedule.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/counters.h"
#include "pmu/event_parse.h"
#include "pmu/mux.h"
#include "pmu/mux_pair.h"
#include "pmu/regs.h"
#include "pmu/xsu.h"
#include "pmu/zero_event.h"
#include "tools/src/schedsim/schedsim.h"

unsigned long long sim_event_code(const struct pmu_event *e)
{
	/* IA32_PERFEVTSELx as libpfm4 builds it: the driver's value with INT (bit 20) and EN
	 * (bit 22) set. The thesis's listing shows exactly this ("code=0x5307f1"). */
	return regs_perfevtsel(e, REGS_EN | REGS_INT);
}

void sim_print_processor(const struct uarch *u, unsigned gp, unsigned fixed)
{
	printf("Processor Name            : %s\n", u->display_name);
	printf("Generic Counters No       : %u\n", gp);
	printf("Fixed-Purpose Counters No : %u\n", fixed);
}

static const char *const thread_name[2] = { "HT0", "HT1" };

static void show_parse_error(const char *option, const char *text,
			     const struct event_parse_error *error)
{
	fprintf(stderr, "schedsim: %s: %s\n  %s\n  %*s", option, error->message, text,
		(int)error->offset, "");
	for (unsigned i = 0; i < (error->length ? error->length : 1); i++)
		fputc('^', stderr);
	fputc('\n', stderr);
}

/* "0x6,0x8,0x9,0xb" -> masks of the first events. */
static bool set_constraints(struct mux_thread *t, const char *option, const char *text)
{
	const char *p = text;
	unsigned i = 0;

	while (*p) {
		char *end;
		unsigned long long mask;

		errno = 0;
		mask = strtoull(p, &end, 0);
		if (end == p || errno || (*end && *end != ',')) {
			fprintf(stderr, "schedsim: %s: bad mask at '%s' in '%s'\n", option, p,
				text);
			return false;
		}
		if (i >= t->nr_events) {
			fprintf(stderr, "schedsim: %s: %u masks for %u events\n", option, i + 1,
				t->nr_events);
			return false;
		}
		mux_set_constraint(t, i++, mask);
		p = *end ? end + 1 : end;
	}
	return true;
}

static bool load_thread(struct mux_thread *t, const struct sim_options *o, unsigned which)
{
	struct pmu_event events[MUX_MAX_EVENTS];
	struct event_parse_error error;
	struct mux_config config = {
		.uarch = o->uarch,
		.gp = o->gp,
		.fixed = o->fixed,
		.algorithm = o->algorithm,
		.past_first_failure = o->past_failure,
		.max_passed = 2 * o->gp,
	};
	const char *option = which ? "--sibling" : "-e";
	unsigned n;

	if (!event_parse_list(o->events[which], o->uarch, events, MUX_MAX_EVENTS, &n, &error)) {
		show_parse_error(option, o->events[which], &error);
		return false;
	}
	mux_init(t, &config, which);
	if (!mux_add_events(t, events, n)) {
		fprintf(stderr, "schedsim: %s: too many events\n", option);
		return false;
	}
	if (o->constraints[which])
		return set_constraints(t, which ? "--sibling-constraints" : "-C",
				       o->constraints[which]);
	return true;
}

static void counter_name(int counter, char *buf, size_t size)
{
	if (counter == SCHED_NO_COUNTER)
		snprintf(buf, size, "cntr-");
	else if (counter >= PMU_FIXED_BASE)
		snprintf(buf, size, "fixed%d", counter - PMU_FIXED_BASE);
	else
		snprintf(buf, size, "cntr%d", counter);
}

static void print_event_list(const struct mux_thread *t, const char *title)
{
	printf("%s:\n", title);
	for (unsigned i = 0; i < t->nr_events; i++) {
		const struct mux_event *e = &t->events[i];

		printf("%u - ---- %s (code=0x%llx, constraint=0x%llx%s%s)\n", i + 1, e->event.name,
		       sim_event_code(&e->event), (unsigned long long)e->constraint.mask,
		       e->constraint.corrupting ? ", corrupting" : "",
		       e->event.pinned ? ", pinned" : "");
	}
}

/* One thread's iteration: the line "scheduled X out of Y events" and one line per event with
 * the share of the time it has run so far. */
static void print_iteration(const struct mux_thread *t, const struct mux_schedule *s,
			    const char *who, bool final, bool show_dynamic)
{
	printf("%sscheduled %u out of %u events\n", who, s->nr_scheduled, t->nr_events);
	for (unsigned i = 0; i < t->nr_events; i++) {
		const struct mux_event *e = &t->events[i];
		uint64_t enabled = e->time_enabled, running = e->time_running;
		unsigned percent;
		char counter[16];

		if (!final && e->state == MUX_EVENT_ENABLED) {
			/* the current iteration, not yet accounted (one tick long) */
			enabled++;
			running += s->counter[i] != SCHED_NO_COUNTER;
		}
		percent = mux_percent(running, enabled);
		counter_name(e->last_counter, counter, sizeof(counter));
		printf("%u %c %u.%02u%% %s %s (constraint=0x%llx", i + 1,
		       s->counter[i] != SCHED_NO_COUNTER ? '+' : '-', percent / 100, percent % 100,
		       counter, e->event.name, (unsigned long long)e->constraint.mask);
		if (show_dynamic)
			printf(", dynamic=0x%llx", (unsigned long long)e->dynamic_mask);
		if (e->state == MUX_EVENT_ERROR)
			printf(", error: pinned group did not fit");
		else if (final && !e->time_running)
			printf(", <not counted>");
		printf(")\n");
	}
}

static char state_letter(enum xsu_state s)
{
	return s == XSU_EXCLUSIVE ? 'X' : s == XSU_SHARED ? 'S' : 'U';
}

static void print_states(const struct xsu_states *core, unsigned gp, unsigned fixed)
{
	printf("XSU states (what constrains each thread's counters");
	for (unsigned i = 0; i < gp; i++)
		printf(" C%u", i);
	for (unsigned j = 0; j < fixed; j++)
		printf(" F%u", j);
	printf("):\n");
	for (unsigned t = 0; t < 2; t++) {
		printf("%s:", thread_name[t]);
		for (unsigned i = 0; i < gp; i++)
			printf(" %c", state_letter(xsu_state_of(core, t, i)));
		for (unsigned j = 0; j < fixed; j++)
			printf(" %c", state_letter(xsu_state_of(core, t, PMU_FIXED_BASE + j)));
		printf("\n");
	}
}

/* What a run counted, beside the threads' own figures. */
struct sim_checks {
	unsigned long schedules;
	unsigned long violations;
	unsigned long first_violation;
	unsigned long exposure; /* schedules with a corrupting event facing a measured event */
};

static void check(const struct mux_pair *core, struct sim_checks *c, unsigned iteration)
{
	c->schedules++;
	if (!xsu_no_corruption(xsu_usage_now(core->thread[0]), xsu_usage_now(core->thread[1])))
		c->exposure++;
	if ((core->ops->mode != XSU_MODE_OFF) && !mux_pair_invariant(core) && !c->violations++)
		c->first_violation = iteration + 1;
}

/* The leak catchers a thread counts, with the sibling's events they catch for. */
static void print_catchers(const struct mux_pair *core, unsigned t, const struct xsu_schedule *s)
{
	const struct mux_thread *sibling = core->thread[t ^ 1];

	if (!s->catchers)
		return;
	printf("%s leak catchers (%s):", thread_name[t], s->catcher->name);
	for (unsigned i = 0; i < PMU_MAX_GP; i++)
		if (s->catchers & (1u << i))
			printf(" cntr%u<-%s", i, sibling->events[s->leak_of[i]].event.name);
	printf("\n");
}

static void print_header(const struct sim_options *o, const struct mux_pair *core, bool replay)
{
	sim_print_processor(o->uarch, o->gp, o->fixed);
	printf("Scheduling Algorithm      : %s%s\n",
	       core->ops->ticking == XSU_TICK_JOINT ? "core-wide (both threads, max-min fair)"
						    : sched_algorithm_title(o->algorithm),
	       o->past_failure ? ", past the first failure up to 2N events" : "");
	if (replay) {
		printf("XSU                       : %s", xsu_mode_name(core->ops->mode));
		if (o->uarch->erratum)
			printf(" (erratum %s)", o->uarch->erratum);
		if (core->ops->ticking == XSU_TICK_JOINT)
			printf(", leak catcher %s\n", core->catcher ? core->catcher->name : "none");
		else
			printf(", starvation limit %s\n", o->limit ? "on" : "off");
		printf("%s starts at iteration    : %u\n", thread_name[1], o->offset + 1);
		print_event_list(core->thread[0], "HT0 Event List");
		print_event_list(core->thread[1], "HT1 Event List");
	} else {
		if ((core->ops->mode != XSU_MODE_OFF) && o->limit)
			printf("XSU                       : on (idle sibling), starvation limit "
			       "on\n");
		print_event_list(core->thread[0], "Event List");
	}
}

/* One iteration k: threads start, then the ticks (one joint, or each thread's). */
static void iterate(const struct sim_options *o, struct mux_pair *core, unsigned threads,
		    unsigned k, struct sim_checks *c)
{
	const struct xsu_ops *p = core->ops;
	bool joint = p->ticking == XSU_TICK_JOINT;

	for (unsigned t = 0; t < threads; t++) {
		unsigned start = t ? o->offset : 0;

		if (k < start)
			continue;
		if (k == start)
			p->start(core, t, k);
		else if (!joint)
			p->tick(core, t, k);
		if (!joint && threads == 2)
			check(core, c, k);
	}
	if (joint) {
		/* The joint schedule, and a handover of no time to it. */
		p->tick(core, 0, k);
		mux_pair_commit_all(core, k);
		if (threads == 2)
			check(core, c, k);
	}
}

static void print_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

/* --json: the run as one object (docs/schedsim.md). */
static void print_json(const struct sim_options *o, const struct mux_pair *core, unsigned threads,
		       const struct xsu_schedule *last, const struct sim_checks *c)
{
	printf("{\"uarch\": \"%s\", \"xsu\": \"%s\", \"iterations\": %u, \"offset\": %u, "
	       "\"threads\": [",
	       o->uarch->name, xsu_mode_name(core->ops->mode), o->iterations, o->offset);
	for (unsigned t = 0; t < threads; t++) {
		const struct mux_thread *th = core->thread[t];

		printf("%s{\"thread\": %u, \"started\": %s, \"events\": [", t ? ", " : "", t,
		       t && o->offset >= o->iterations ? "false" : "true");
		for (unsigned i = 0; i < th->nr_events; i++) {
			const struct mux_event *e = &th->events[i];
			double running = e->time_enabled
						 ? (double)e->time_running / (double)e->time_enabled
						 : 0.0;

			printf("%s{\"event\": ", i ? ", " : "");
			print_json_string(e->event.name);
			printf(", \"running\": %.4f, \"corrupting\": %s, \"pinned\": %s, "
			       "\"error\": %s, \"last_counter\": %d}",
			       running, e->constraint.corrupting ? "true" : "false",
			       e->event.pinned ? "true" : "false",
			       e->state == MUX_EVENT_ERROR ? "true" : "false", e->last_counter);
		}
		printf("], \"catchers\": [");
		for (unsigned i = 0, first = 1; i < PMU_MAX_GP; i++) {
			if (!(last[t].catchers & (1u << i)))
				continue;
			printf("%s%u", first ? "" : ", ", i);
			first = 0;
		}
		printf("]}");
	}
	printf("], \"schedules\": %lu, \"invariant_violations\": %lu, \"exposure\": %lu}\n",
	       c->schedules, c->violations, c->exposure);
}

static void print_result(const struct sim_options *o, const struct mux_pair *core, unsigned threads,
			 const struct xsu_schedule *last, const struct xsu_states *states,
			 const struct sim_checks *c)
{
	bool replay = threads == 2, xsu = core->ops->mode != XSU_MODE_OFF;

	printf("Iteration %u\n", o->iterations);
	if (replay && xsu)
		print_states(states, o->gp, o->fixed);
	for (unsigned t = 0; t < threads; t++) {
		const char *who = replay ? (t ? "HT1: " : "HT0: ") : "";

		if (t && o->offset >= o->iterations) {
			printf("%snever started (--offset %u >= -n %u)\n", who, o->offset,
			       o->iterations);
			continue;
		}
		print_iteration(core->thread[t], &last[t].events, who, true, replay && xsu);
		if (replay)
			print_catchers(core, t, &last[t]);
	}
	if (replay && xsu) {
		if (c->violations)
			printf("XSU invariant: VIOLATED in %lu of %lu schedules (first at "
			       "iteration %lu)\n",
			       c->violations, c->schedules, c->first_violation);
		else
			printf("XSU invariant: held after all %lu schedules\n", c->schedules);
	} else if (replay) {
		printf("Corruption exposure: %lu of the schedules left a corrupting event on a GP "
		       "counter whose sibling counter was counting\n",
		       c->exposure);
	}
}

int simulate(const struct sim_options *o)
{
	static struct mux_thread thread[2];
	struct xsu_schedule last[2];
	struct mux_pair core;
	struct xsu_states states;
	struct sim_checks c = { 0, 0, 0, 0 };
	bool replay = o->events[1] != NULL;
	unsigned threads = replay ? 2 : 1;

	for (unsigned t = 0; t < threads; t++)
		if (!load_thread(&thread[t], o, t))
			return 2;
	if (!replay) {
		/* With one thread the sibling is idle: XSU constrains nothing, only its limit can
		 * act. */
		struct mux_config idle = { .uarch = o->uarch, .gp = o->gp, .fixed = o->fixed };

		mux_init(&thread[1], &idle, 1);
	}
	mux_pair_init(&core, o->ops, &thread[0], &thread[1], uarch_zero_event(o->uarch));
	if (!o->json)
		print_header(o, &core, replay);

	for (unsigned k = 0; k < o->iterations; k++) {
		iterate(o, &core, threads, k, &c);
		if (o->verbose && !o->json && k + 1 < o->iterations) {
			printf("Iteration %u\n", k + 1);
			for (unsigned t = 0; t < threads; t++)
				if (thread[t].running)
					print_iteration(&thread[t], &core.schedule[t].events,
							replay ? (t ? "HT1: " : "HT0: ") : "",
							false,
							replay && (o->ops->mode != XSU_MODE_OFF));
		}
	}

	/* The final accounting; the last schedule and states are kept for the printout. */
	states = core.xsu;
	for (unsigned t = 0; t < threads; t++) {
		last[t] = core.schedule[t];
		if (thread[t].running)
			o->ops->stop(&core, t, o->iterations);
	}
	if (o->json)
		print_json(o, &core, threads, last, &c);
	else
		print_result(o, &core, threads, last, &states, &c);
	return c.violations ? 1 : 0;
}
