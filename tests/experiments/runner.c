// SPDX-License-Identifier: GPL-2.0
/*
 * One run of an experiment on both siblings.
 */
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/format.h"
#include "kernel/pair.h"
#include "kernel/pmu_core.h"
#include "kernel/record_stream.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/user.h"
#include "pmu/event_parse.h"
#include "pmu/mux.h"
#include "pmu/xsu.h"
#include "tests/bench/user.h"
#include "pmu/zero_event.h"
#include "tests/experiments/run_counters.h"
#include "tests/experiments/runner.h"

/* The run being set up and measured: exp_run_setup() fills it, exp_run_measure() uses it; and
 * why it could not run (out->error points here). */
static struct run run;
static char error[200];

/*
 * Parse an event list for this machine; false, with the bad part named in error[] unless an
 * earlier error is there, and *unsupported when an event parses but this PMU cannot count it
 * (pmu_event_supported(): AnyThread below version 3, an architectural event CPUID disowns).
 */
static bool parse_events(const char *text, struct pmu_event *events, unsigned *count,
			 bool *unsupported)
{
	struct event_parse_error e;
	const char *why;

	*count = 0;
	if (!text[0])
		return true;
	int n = event_parse_list(text, the_pmu.info.uarch, events, EXP_MAX_EVENTS, &e);
	if (n < 0) {
		if (!error[0])
			format_snprintf(error, sizeof(error),
					"event list \"%s\": %s (at character %u)", text, e.message,
					e.offset);
		return false;
	}
	for (int i = 0; i < n; i++) {
		if (pmu_event_supported(&the_pmu.geometry, &events[i], &why))
			continue;
		if (!error[0])
			format_snprintf(error, sizeof(error), "%s cannot be counted here: %s",
					events[i].name, why);
		*unsupported = true;
		return false;
	}
	*count = (unsigned)n;
	return true;
}

enum sched_algorithm exp_run_sched(const struct exp_run *run, enum sched_algorithm configured)
{
	switch (run->sched) {
	case EXP_SCHED_GREEDY:
		return SCHED_GREEDY;
	case EXP_SCHED_HK:
		return SCHED_HK;
	default:
		return configured;
	}
}

/* Spin until the TSC reaches `when`. */
static void wait_until(uint64_t when)
{
	while (rdtsc() < when)
		cpu_relax();
}

/*
 * Wait until the sibling has set *flag, or until `until` (it hangs: pair_run() reports that).
 * Only on a core with a sibling.
 */
static void wait_for_sibling(const bool *flag, uint64_t until)
{
	if (the_pair.thread_count < 2)
		return;
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE) && rdtsc() < until)
		cpu_relax();
}

static void run_thread_main(unsigned thread, void *arg)
{
	struct run *run = arg;
	struct run_thread *rt = &run->thread[thread], *sibling = &run->thread[thread ^ 1];
	const struct exp_thread *spec = &run->spec->thread[thread];
	struct workload_params *p = run->params[thread];
	uint64_t give_up = rdtsc() + run->duration_tsc + tsc_hz() * 10;

	rt->driver = pmu_thread_begin(thread);
	run_counters_enter(rt, run->settings->mux_ms);
	/* Core-wide XSU: both threads take part from the common start (the catchers), the events
	 * of a thread started later from its offset (pair_run() applies the others'). */
	if (run->pair.ops->joint)
		wait_until(rdtsc() + tsc_from_us(spec->offset_ms * 1000ull));
	/*
	 * A thread started later starts inside the other's run, as the thesis's second perf does:
	 * its offset is a minimum, and it also waits for the sibling's counters. Under a hypervisor
	 * (or TCG) a virtual CPU can be held back for longer than the offset, and the later list
	 * would otherwise take the counters first (xsu-hk-vs-greedy, ch8-starvation).
	 */
	if (spec->offset_ms > run->spec->thread[thread ^ 1].offset_ms)
		wait_for_sibling(&sibling->counting, give_up);
	run_counters_join(rt, run->settings->mux_ms);
	rt->window_start = rdtsc();
	__atomic_store_n(&rt->counting, true, __ATOMIC_RELEASE);

	/* Both threads end at one time: the first to count plus the duration (less its offset), so
	 * that a thread started later measures inside the other's run. */
	uint64_t now = rdtsc();
	uint64_t offset = tsc_from_us(spec->offset_ms * 1000ull);
	uint64_t mine = now + (run->duration_tsc > offset ? run->duration_tsc - offset : 0);
	uint64_t none = 0;
	__atomic_compare_exchange_n(&run->deadline_tsc, &none, mine, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	p->deadline_tsc = __atomic_load_n(&run->deadline_tsc, __ATOMIC_ACQUIRE);
	p->max_units = p->elements && run->settings->triad_reps
			       ? run->settings->triad_reps * p->elements
			       : 0;
	p->account = the_pmu.model;
	p->thread = thread;
	p->units_done = 0;
	if (thread == 0)
		run->start_tsc = now;
	user_call((uint64_t)(uintptr_t)user_start,
		  (uint64_t)(uintptr_t)run->workload[thread]->entry, (uint64_t)(uintptr_t)p,
		  this_cpu()->user_stack_top);
	uint64_t departed = run_counters_depart(rt);
	rt->window_end = departed;
	__atomic_store_n(&rt->stopped, true, __ATOMIC_RELEASE);

	/*
	 * The XSU claims stay until the sibling has stopped too: the first to stop would otherwise
	 * hand the sibling the counters it kept from it, for as long as the sibling's CPU takes to
	 * see the deadline (a held-back virtual CPU: milliseconds). Under core-wide XSU its counters
	 * go on catching the sibling's leaks until then.
	 */
	wait_for_sibling(&sibling->stopped, give_up);
	run_counters_exit(rt, departed);
	pmu_thread_end(thread);
}

static void fill_results(struct run *run, struct exp_run_result *out)
{
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		struct run_thread *rt = &run->thread[t];
		struct exp_thread_result *tr = &out->thread[t];
		const struct workload_params *p = run->params[t];

		tr->nr_events = rt->mux.nr_events;
		for (unsigned i = 0; i < rt->mux.nr_events; i++) {
			const struct mux_event *e = &rt->mux.events[i];
			struct exp_count *c = &tr->counts[i];
			c->event = e->event;
			c->reading = mux_read(e);
			c->last_counter = e->last_counter;
			c->corrupting = e->constraint.corrupting; /* the uarch table's word */
			c->interfered = rt->interfered[i];
			c->leak = e->leak;
			c->has_true = the_pmu.model &&
				      mux_scale(rt->true_count[i], c->reading.time_enabled,
						c->reading.time_running, &c->true_scaled);
			c->has_baseline = false;
		}
		tr->units = p->units_done;
		tr->ticks = rt->ticks;
		tr->tick_tsc_mean = tick_stats_mean_tsc(&rt->tick);
		tr->tick_tsc_max = rt->tick.handler_max_tsc;
		tr->ticks_late = rt->tick.late;
		tr->ticks_lost = rt->tick.lost;
		tr->invariant_violations = rt->violations;
		tr->exposure = the_pmu.model ? model_exposure_ticks(&the_pmu.model_state, t) -
						       rt->exposure_at_start
					     : 0;
	}
}

/* The thread's workload, prepared in user memory; false with error[] when it cannot be. */
static bool prepare_workload(struct run *run, unsigned t, const struct exp_settings *s)
{
	const char *name = run->spec->thread[t].workload;
	const struct workload *w = workload_by_name(name);

	run->workload[t] = w;
	run->params[t] = w ? workload_prepare(s->memory, w, t, &s->workloads) : NULL;
	if (run->params[t])
		return true;
	if (!error[0])
		format_snprintf(error, sizeof(error), "thread %u: %s \"%s\"", t,
				w ? "no memory for the workload" : "no workload", name);
	return false;
}

bool exp_run_setup(const struct exp_run *spec, const struct exp_settings *s,
		   struct exp_run_result *out)
{
	memset(out, 0, sizeof(*out));
	memset(&run, 0, sizeof(run));
	error[0] = 0;
	out->run = spec;
	run.spec = spec;
	run.settings = s;
	run.duration_tsc = tsc_from_us(s->dur_ms * 1000ull);

	struct mux_config config = {
		.uarch = the_pmu.info.uarch,
		.gp = the_pmu.geometry.gp,
		.fixed = the_pmu.geometry.fixed,
		.algorithm = exp_run_sched(spec, s->sched),
	};
	/* Both lists, even after one failed: the exp record shows what each thread would count. */
	for (unsigned t = 0; t < 2; t++) {
		struct run_thread *rt = &run.thread[t];
		struct exp_thread_result *tr = &out->thread[t];
		struct pmu_event events[EXP_MAX_EVENTS];
		unsigned n;
		const struct exp_thread *th = &spec->thread[t];
		rt->run = &run;
		rt->thread = t;
		mux_init(&rt->mux, &config, t);
		for (unsigned i = 0; i < MUX_MAX_EVENTS; i++)
			rt->programmed.counter[i] = SCHED_NO_COUNTER;
		if (!prepare_workload(&run, t, s))
			continue;
		if (!parse_events(th->events, events, &n, &out->unsupported))
			continue;
		tr->nr_events = n;
		for (unsigned i = 0; i < n; i++)
			tr->counts[i].event = events[i];
		if (mux_add_events(&rt->mux, events, n) < 0 && !error[0])
			format_snprintf(error, sizeof(error), "thread %u: too many events", t);
		for (unsigned i = 0; th->counters && i < rt->mux.nr_events; i++)
			mux_set_constraint(&rt->mux, i, th->counters);
	}
	mux_pair_init(&run.pair, xsu_ops_of(spec->xsu, spec->limit), &run.thread[0].mux,
		      &run.thread[1].mux, uarch_zero_event(the_pmu.info.uarch));
	if (error[0])
		out->error = error;
	return !error[0];
}

/*
 * How much of the run the siblings counted side by side, in percent: the overlap of their
 * counting windows over the longer window less the difference of their start offsets (a thread
 * started later is meant to count for that much less). 100 on bare metal; under a hypervisor a
 * virtual CPU can start or notice the deadline late, and then one thread's corrupting events
 * leak into counters the other has not started or has already stopped. A thread without events
 * counts nothing: 100.
 */
static unsigned window_overlap_pct(const struct run *run)
{
	const struct run_thread *a = &run->thread[0], *b = &run->thread[1];
	uint64_t start = a->window_start > b->window_start ? a->window_start : b->window_start;
	uint64_t end = a->window_end < b->window_end ? a->window_end : b->window_end;
	uint64_t la = a->window_end - a->window_start, lb = b->window_end - b->window_start;
	uint64_t longer = la > lb ? la : lb;
	uint32_t oa = run->spec->thread[0].offset_ms, ob = run->spec->thread[1].offset_ms;
	uint64_t apart = tsc_from_us((oa > ob ? oa - ob : ob - oa) * 1000ull);
	uint64_t meant = longer > apart ? longer - apart : 0;

	if (!a->mux.nr_events || !b->mux.nr_events || !meant)
		return 100;
	uint64_t overlap = end > start ? end - start : 0;
	return overlap >= meant ? 100 : (unsigned)(overlap * 100 / meant);
}

void exp_run_measure(struct exp_run_result *out)
{
	const struct exp_run *spec = run.spec;
	struct pair_job job = { .fn = run_thread_main, .arg = &run };

	/* Under core-wide XSU both start together, and run_thread_main() applies the offsets. */
	for (unsigned t = 0; t < 2; t++)
		job.offset_tsc[t] =
			run.pair.ops->joint ? 0 : tsc_from_us(spec->thread[t].offset_ms * 1000ull);
	/* Generous: the longer thread's offset and duration, and time to start and stop. */
	uint64_t longest =
		job.offset_tsc[0] > job.offset_tsc[1] ? job.offset_tsc[0] : job.offset_tsc[1];
	if (!pair_run(&job, longest + run.duration_tsc * 4 + tsc_hz() * 10)) {
		out->error = job.error;
		return;
	}
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		if (run.thread[t].program_error != PMU_DRV_OK) {
			format_snprintf(error, sizeof(error),
					"thread %u: the driver refused an "
					"assignment: %s",
					t, pmu_drv_status_name(run.thread[t].program_error));
			out->error = error;
			return;
		}
	}
	fill_results(&run, out);
	uint64_t first = job.start_tsc[0], last = job.end_tsc[0];
	for (unsigned t = 1; t < the_pair.thread_count; t++) {
		first = job.start_tsc[t] < first ? job.start_tsc[t] : first;
		last = job.end_tsc[t] > last ? job.end_tsc[t] : last;
	}
	out->elapsed_tsc = last - first;
	out->joint_unanswered = run.joint_unanswered;
	out->joint_gap_per_mille =
		out->elapsed_tsc ? (unsigned)mux_mul_div(run.joint_gap_tsc, 1000, out->elapsed_tsc)
				 : 0;
	if (the_pair.thread_count == 2)
		out->overlap_pct = window_overlap_pct(&run);
	if (the_pair.thread_count == 2) {
		uint64_t a = job.start_tsc[0] + job.offset_tsc[1],
			 b = job.start_tsc[1] + job.offset_tsc[0];
		out->skew_tsc = a > b ? a - b : b - a;
	}
	out->done = true;
}
