// SPDX-License-Identifier: GPL-2.0
/*
 * One run of an experiment on both siblings.
 */
#include <stdarg.h>
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/lib/format.h"
#include "kernel/record_stream.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/user.h"
#include "pmu/event_parse.h"
#include "pmu/mux.h"
#include "pmu/xsu.h"
#include "tests/ring3/user.h"
#include "pmu/zero_event.h"
#include "tests/experiments/counting.h"
#include "tests/experiments/runner.h"

/* A core-wide handover still waiting this long for thread 1 at the end was never answered: IPIs
 * can be late (ipi-delay holds them 5 ms), a virtual CPU held back, not for a tenth of a second. */
#define HANDOVER_UNANSWERED_MS 100
/* Under the model the kernel runs under a hypervisor (pmu=auto never picks it on bare metal),
 * whose host may hold a virtual CPU longer: twice 100 ms on a busy two-core host under TCG. */
#define HANDOVER_UNANSWERED_MODEL_MS 1000

/* Why the run cannot be measured, in its result: the first reason found is the one kept. */
static void __attribute__((format(printf, 2, 3)))
say(struct exp_run_result *out, const char *fmt, ...)
{
	va_list ap;

	if (out->error)
		return;
	va_start(ap, fmt);
	format_vsnprintf(out->error_text, sizeof(out->error_text), fmt, ap);
	va_end(ap);
	out->error = out->error_text;
}

/*
 * Parse an event list for this machine; false, with the bad part named in out, and
 * out->unsupported when an event parses but this PMU cannot count it (pmu_event_supported():
 * AnyThread below version 3, an architectural event CPUID disowns).
 */
static bool parse_events(const struct pmu *pmu, const char *text, struct pmu_event *events,
			 unsigned *count, struct exp_run_result *out)
{
	struct event_parse_error e;
	const char *why;

	*count = 0;
	if (!text[0])
		return true;
	unsigned n;
	if (!event_parse_list(text, pmu->info.uarch, events, EXP_MAX_EVENTS, &n, &e)) {
		say(out, "event list \"%s\": %s (at character %u)", text, e.message, e.offset);
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		if (pmu_event_supported(&pmu->geometry, &events[i], &why))
			continue;
		say(out, "%s cannot be counted here: %s", events[i].name, why);
		out->unsupported = true;
		return false;
	}
	*count = n;
	return true;
}

enum sched_algorithm exp_run_sched(const struct exp_run *run, enum sched_algorithm configured)
{
	return run->own_sched ? (enum sched_algorithm)run->sched : configured;
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
static void wait_for_sibling(const struct pair *pair, const bool *flag, uint64_t until)
{
	if (pair->thread_count < 2)
		return;
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE) && rdtsc() < until)
		cpu_relax();
}

/* The thread's counters take part: at the common start, then at its own start (its offset). */
static void start_counting(struct measurement *m, unsigned thread, uint64_t give_up)
{
	struct measurement_thread *mt = &m->thread[thread], *sibling = &m->thread[thread ^ 1];
	const struct exp_thread *spec = &m->spec->thread[thread];

	counting_bind(mt, pmu_thread_begin(thread, &m->params[thread]->ledger));
	mt->tc.never = spec->held;
	if (thread == 0)
		m->smi_known[0] = pmu_smi_count(0, &m->smi[0]);
	m->counting->enter(mt, m->settings->mux_ms);
	/* Core-wide XSU: both threads take part from the common start (the catchers), the events
	 * of a thread started later from its offset (pair_run() applies the others'). */
	if (m->counting->common_start)
		wait_until(rdtsc() + tsc_from_us(spec->offset_ms * 1000ull));
	/*
	 * A thread started later starts inside the other's run, as the thesis's second perf does:
	 * its offset is a minimum, and it also waits for the sibling's counters. Under a hypervisor
	 * (or TCG) a virtual CPU can be held back for longer than the offset, and the later list
	 * would otherwise take the counters first (xsu-hk-vs-greedy, ch8-starvation).
	 */
	if (spec->offset_ms > m->spec->thread[thread ^ 1].offset_ms)
		wait_for_sibling(m->pair, &sibling->counting, give_up);
	m->counting->join(mt, m->settings->mux_ms);
	mt->window_start = rdtsc();
	__atomic_store_n(&mt->counting, true, __ATOMIC_RELEASE);
}

/* The thread's workload at CPL 3 until the run's deadline, from now. */
static void run_workload(struct measurement *m, unsigned thread, uint64_t now)
{
	struct workload_params *p = m->params[thread];
	/* Both threads end at one time: the first to count plus the duration (less its offset), so
	 * that a thread started later measures inside the other's run. */
	uint64_t offset = tsc_from_us(m->spec->thread[thread].offset_ms * 1000ull);
	uint64_t mine = now + (m->duration_tsc > offset ? m->duration_tsc - offset : 0);
	uint64_t none = 0;

	__atomic_compare_exchange_n(&m->deadline_tsc, &none, mine, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	p->deadline_tsc = __atomic_load_n(&m->deadline_tsc, __ATOMIC_ACQUIRE);
	p->max_units =
		p->elements && m->settings->triad_reps ? m->settings->triad_reps * p->elements : 0;
	p->chunk_units = m->pmu->model ? WORKLOAD_CHUNK_UNITS_MODEL : WORKLOAD_CHUNK_UNITS;
	p->gp_width = m->pmu->geometry.gp_width;
	p->fixed_width = m->pmu->geometry.fixed_width;
	p->thread = thread;
	p->units_done = 0;
	if (thread == 0)
		m->start_tsc = now;
	user_call((uint64_t)(uintptr_t)user_start, (uint64_t)(uintptr_t)m->workload[thread]->entry,
		  (uint64_t)(uintptr_t)p, this_cpu()->user_stack_top);
}

static void measure_thread(unsigned thread, void *arg)
{
	struct measurement *m = arg;
	struct measurement_thread *mt = &m->thread[thread], *sibling = &m->thread[thread ^ 1];
	uint64_t give_up = rdtsc() + m->duration_tsc + tsc_hz() * 10;

	start_counting(m, thread, give_up);
	run_workload(m, thread, rdtsc());
	mt->window_end = m->counting->depart(mt);
	__atomic_store_n(&mt->stopped, true, __ATOMIC_RELEASE);

	/*
	 * The XSU claims stay until the sibling has stopped too: the first to stop would otherwise
	 * hand the sibling the counters it kept from it, for as long as the sibling's CPU takes to
	 * see the deadline (a held-back virtual CPU: milliseconds). Under core-wide XSU its counters
	 * go on catching the sibling's leaks until then.
	 */
	wait_for_sibling(m->pair, &sibling->stopped, give_up);
	m->counting->exit(mt);
	if (thread == 0)
		m->smi_known[1] = pmu_smi_count(0, &m->smi[1]);
	pmu_thread_end(thread);
}

/* The work clock of a thread's accounting (pmu/mux.h): its workload's ledger, in all. */
static uint64_t ledger_work(const void *ledger)
{
	return model_ledger_units(ledger);
}

/* exp_thread_result.pace_centi: the largest work gap of its counts (pmu/mux.h). */
static uint64_t pace_centi(const struct exp_thread_result *tr)
{
	uint64_t worst = 0;

	for (unsigned i = 0; i < tr->nr_events; i++) {
		uint64_t gap = mux_work_gap(&tr->counts[i].reading, 10000);
		if (gap > worst)
			worst = gap;
	}
	return worst;
}

static void fill_results(struct measurement *m, struct exp_run_result *out)
{
	for (unsigned t = 0; t < m->pair->thread_count; t++) {
		struct measurement_thread *mt = &m->thread[t];
		struct exp_thread_result *tr = &out->thread[t];
		const struct workload_params *p = m->params[t];

		tr->nr_events = mt->mux.nr_events;
		for (unsigned i = 0; i < mt->mux.nr_events; i++) {
			const struct mux_event *e = &mt->mux.events[i];
			struct exp_count *c = &tr->counts[i];
			c->event = e->event;
			c->reading = mux_pair_read(&m->mux, t, i);
			c->last_counter = e->last_counter;
			c->corrupting = e->constraint.corrupting; /* the uarch table's word */
			c->interfered = e->interfered;
			c->leak = m->mux.leak[t][i];
			c->has_true =
				m->pmu->model && model_truth(&p->ledger, &e->event, &c->truth);
			c->has_baseline = false;
		}
		tr->units = p->units_done;
		tr->pace_centi = pace_centi(tr);
		tr->ticks = m->counting->ticks(mt);
		tr->tick_tsc_total = mt->tick.handler_tsc;
		tr->tick_slowed = mt->tick.slowed;
		tr->writes_per_tick_centi =
			tr->ticks ? mux_mul_div(thread_counters_writes(&mt->tc), 100, tr->ticks)
				  : 0;
		tr->reads_per_tick_centi =
			tr->ticks ? mux_mul_div(thread_counters_reads(&mt->tc), 100, tr->ticks) : 0;
		tr->tick_tsc_mean = tick_stats_mean_tsc(&mt->tick);
		tr->tick_tsc_max = mt->tick.handler_max_tsc;
		tr->ticks_late = mt->tick.late;
		tr->ticks_lost = mt->tick.lost;
		tr->invariant_violations = mt->tc.violations;
		tr->interferences = mt->tc.driver->interferences;
		tr->interference = mt->tc.driver->interference;
		tr->exposure = m->pmu->model ? model_exposure_ticks(&m->pmu->model_state, t) -
						       mt->exposure_at_start
					     : 0;
	}
}

/* The thread's workload, prepared in user memory; false, with the reason in out, when it cannot
 * be. */
static bool prepare_workload(struct measurement *m, unsigned t, const struct exp_settings *s,
			     struct exp_run_result *out)
{
	const char *name = m->spec->thread[t].workload;
	const struct workload *w = workload_by_name(name);

	m->workload[t] = w;
	m->params[t] = w ? workload_prepare(s->memory, w, t, &s->workloads) : NULL;
	if (m->params[t])
		return true;
	say(out, "thread %u: %s \"%s\"", t, w ? "no memory for the workload" : "no workload", name);
	return false;
}

/* Thread t's list for the scheduler, and into out as parsed, even when the other's failed: the
 * exp record shows what each thread would count. */
static void setup_thread(struct measurement *m, unsigned t, const struct mux_config *config,
			 struct exp_run_result *out)
{
	struct measurement_thread *mt = &m->thread[t];
	struct exp_thread_result *tr = &out->thread[t];
	const struct exp_thread *th = &m->spec->thread[t];
	struct pmu_event events[EXP_MAX_EVENTS];
	unsigned n;

	mt->m = m;
	mt->thread = t;
	mux_init(&mt->mux, config, t);
	if (!prepare_workload(m, t, m->settings, out))
		return;
	mux_set_work(&mt->mux, ledger_work, &m->params[t]->ledger);
	if (!parse_events(m->pmu, th->events, events, &n, out))
		return;
	tr->nr_events = n;
	for (unsigned i = 0; i < n; i++)
		tr->counts[i].event = events[i];
	if (!mux_add_events(&mt->mux, events, n))
		say(out, "thread %u: too many events", t);
	for (unsigned i = 0; th->counters && i < mt->mux.nr_events; i++)
		mux_set_constraint(&mt->mux, i, th->counters);
}

struct measurement *exp_run_setup(const struct exp_run *spec, const struct exp_settings *s,
				  struct measurement *room, struct exp_run_result *out)
{
	struct measurement *m = room;

	memset(out, 0, sizeof(*out));
	memset(m, 0, sizeof(*m));
	out->run = spec;
	m->spec = spec;
	m->settings = s;
	m->pmu = s->pmu;
	m->pair = s->pair;
	m->duration_tsc = tsc_from_us(s->dur_ms * 1000ull);

	struct mux_config config = {
		.uarch = m->pmu->info.uarch,
		.gp = m->pmu->geometry.gp,
		.fixed = m->pmu->geometry.fixed,
		.algorithm = exp_run_sched(spec, s->sched),
	};
	for (unsigned t = 0; t < 2; t++)
		setup_thread(m, t, &config, out);
	mux_pair_init(&m->mux, xsu_ops_of(spec->xsu, spec->limit), &m->thread[0].mux,
		      &m->thread[1].mux, uarch_zero_event(m->pmu->info.uarch));
	m->counting = counting_of(m->mux.ops);
	handover_init(&m->handover, &m->mux, &m->thread[0].tc, &m->thread[1].tc,
		      m->pair->thread_count == 2,
		      tsc_from_us((m->pmu->model ? HANDOVER_UNANSWERED_MODEL_MS
						 : HANDOVER_UNANSWERED_MS) *
				  1000ull));
	return out->error ? NULL : m;
}

/*
 * How much of the run the siblings counted side by side, in percent: the overlap of their
 * counting windows over the longer window less the difference of their start offsets (a thread
 * started later is meant to count for that much less). 100 on bare metal; under a hypervisor a
 * virtual CPU can start or notice the deadline late, and then one thread's corrupting events
 * leak into counters the other has not started or has already stopped. A thread without events
 * counts nothing: 100.
 */
static unsigned window_overlap_pct(const struct measurement *m)
{
	const struct measurement_thread *a = &m->thread[0], *b = &m->thread[1];
	uint64_t start = a->window_start > b->window_start ? a->window_start : b->window_start;
	uint64_t end = a->window_end < b->window_end ? a->window_end : b->window_end;
	uint64_t la = a->window_end - a->window_start, lb = b->window_end - b->window_start;
	uint64_t longer = la > lb ? la : lb;
	uint32_t oa = m->spec->thread[0].offset_ms, ob = m->spec->thread[1].offset_ms;
	uint64_t apart = tsc_from_us((oa > ob ? oa - ob : ob - oa) * 1000ull);
	uint64_t meant = longer > apart ? longer - apart : 0;

	if (!a->mux.nr_events || !b->mux.nr_events || !meant)
		return 100;
	uint64_t overlap = end > start ? end - start : 0;
	return overlap >= meant ? 100 : (unsigned)(overlap * 100 / meant);
}

/* Why a run that ended cannot be read, in out; false when nothing went wrong. */
static bool went_wrong(const struct measurement *m, struct exp_run_result *out)
{
	for (unsigned t = 0; t < m->pair->thread_count; t++)
		if (m->thread[t].tc.error != PMU_DRV_OK)
			say(out, "thread %u: the driver refused an assignment: %s", t,
			    pmu_drv_status_name(m->thread[t].tc.error));
	if (m->unanswered)
		say(out,
		    "thread 1 never answered a core-wide handover: its IPI and %llu sent again at "
		    "thread 0's ticks went unanswered",
		    (unsigned long long)m->handover.waited);
	return out->error != NULL;
}

/* The run's own figures: its time, the siblings' skew and overlap, the handovers, the SMIs. */
static void run_figures(const struct measurement *m, const struct pair_job *job,
			struct exp_run_result *out)
{
	uint64_t first = job->start_tsc[0], last = job->end_tsc[0];

	for (unsigned t = 1; t < m->pair->thread_count; t++) {
		first = job->start_tsc[t] < first ? job->start_tsc[t] : first;
		last = job->end_tsc[t] > last ? job->end_tsc[t] : last;
	}
	out->elapsed_tsc = last - first;
	out->joint_unanswered = m->handover.unanswered;
	out->joint_send_failures = __atomic_load_n(&m->send_failures, __ATOMIC_RELAXED);
	out->joint_retries = m->handover.retries;
	out->handovers = m->handover.handovers;
	out->smi_known = m->smi_known[0] && m->smi_known[1];
	out->smi_count = out->smi_known ? m->smi[1] - m->smi[0] : 0;
	out->joint_gap_per_mille =
		out->elapsed_tsc ? (unsigned)mux_mul_div(m->handover.gap, 1000, out->elapsed_tsc)
				 : 0;
	if (m->pair->thread_count == 2) {
		uint64_t a = job->start_tsc[0] + job->offset_tsc[1],
			 b = job->start_tsc[1] + job->offset_tsc[0];
		out->overlap_pct = window_overlap_pct(m);
		out->skew_tsc = a > b ? a - b : b - a;
	}
}

void exp_run_measure(struct measurement *m, struct exp_run_result *out)
{
	const struct exp_run *spec = m->spec;
	struct pair_job job = { .fn = measure_thread, .arg = m };

	/* Under core-wide XSU both start together, and run_thread_main() applies the offsets. */
	for (unsigned t = 0; t < 2; t++)
		job.offset_tsc[t] = m->counting->common_start
					    ? 0
					    : tsc_from_us(spec->thread[t].offset_ms * 1000ull);
	/* Generous: the longer thread's offset and duration, and time to start and stop. */
	uint64_t longest =
		job.offset_tsc[0] > job.offset_tsc[1] ? job.offset_tsc[0] : job.offset_tsc[1];
	if (!pair_run(&job, longest + m->duration_tsc * 4 + tsc_hz() * 10)) {
		out->error = job.error;
		return;
	}
	if (went_wrong(m, out))
		return;
	fill_results(m, out);
	run_figures(m, &job, out);
	out->done = true;
}
