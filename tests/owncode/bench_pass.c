// SPDX-License-Identifier: GPL-2.0
/*
 * A bundle's passes on the pair (tests/owncode/bench.h): each thread programs its counters for
 * the pass, HT1 starts its loop, HT0 runs the measurements and HT1 reads its counters at the
 * start and the end of each of HT0's runs, then HT0 stops HT1.
 */
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/lib/format.h"
#include "kernel/time.h"
#include "pmu/counters.h"
#include "pmu/enumerate.h"
#include "pmu/event_table.h"
#include "pmu/mux_pair.h"
#include "pmu/uarch.h"
#include "pmu/xsu_passes.h"
#include "pmu/zero_event.h"
#include "tests/owncode/aggregate.h"
#include "tests/owncode/bench_state.h"

#define RDPMC_FIXED_ECX (1u << 30)
#define CATCHER(counter) (-1 - (int)(counter))
/* A measurement HT0 ran alone is made again, at most this many times the measurements kept. */
#define BENCH_ALONE_AGAIN 4

/* One thread's counters in a pass: what it programs and what each read is. */
struct pass_thread {
	unsigned n;
	struct pmu_event event[BENCH_MAX_READS];
	struct pmu_assignment a[BENCH_MAX_READS];
	unsigned reads;
	uint32_t ecx[BENCH_MAX_READS];
	int what[BENCH_MAX_READS]; /* the event's index in the bundle, or CATCHER(counter) */
	uint8_t catchers;
};

/* What one run of HT0's program counted, on both threads. */
struct run_counts {
	int64_t count[2][BENCH_MAX_READS]; /* each read's count over the run */
	bool down[2][BENCH_MAX_READS];	   /* its counter read lower at the end than at the start */
	uint64_t copies1, time1;	   /* HT1: its copies between its reads, and their time */
	uint64_t seen1, time0; /* HT1's copies during HT0's run (HT0's reads saw), its time */
	/* HT0's catchers between HT1's reads (HT0 reads them as HT1's answers arrive): what they
	 * caught of HT1's events over HT1's counts' own interval. */
	int64_t caught1[BENCH_MAX_READS];
	bool caught1_down[BENCH_MAX_READS];
};

struct pass_ctx {
	struct bench_state *s;
	unsigned p;
	struct pass_thread th[2];
	bool runs1; /* HT1 runs a loop (sibling code, a workload, or a spin to count) */
	bool started1, done;
	bool refused[2];       /* the driver refused the thread's counters: nothing of it is kept */
	struct pmu_driver *d0; /* HT0's */
	uint64_t marks[2][BENCH_MAX_READS]; /* HT0's catchers at HT1's last two answers */
	struct run_counts now;		    /* the last run's */
	/* The sibling's loop: its fastest pace over one of HT0's runs, and in each measurement kept
	 * its copies during HT0's two runs and their length (TSC ticks): the overlap. */
	uint64_t pace_copies, pace_time;
	unsigned kept;
	uint64_t seen[BUNDLE_MAX_MEASUREMENTS], time[BUNDLE_MAX_MEASUREMENTS];
};

static struct pmu_event event_of(const struct bundle_event *e)
{
	struct pmu_event ev = { 0 };

	if (e->kind == BUNDLE_EVENT_FIXED) {
		static const uint16_t codes[3] = { 0x00c0, 0x003c, 0x0300 };
		ev.event = (uint8_t)codes[e->fixed_index];
		ev.umask = (uint8_t)(codes[e->fixed_index] >> 8);
		ev.os = e->fixed_ctrl & 1;
		ev.usr = e->fixed_ctrl & 2;
		ev.any = e->fixed_ctrl & 4;
		return ev;
	}
	ev.event = (uint8_t)e->evtsel;
	ev.umask = (uint8_t)(e->evtsel >> 8);
	ev.usr = e->evtsel >> 16 & 1;
	ev.os = e->evtsel >> 17 & 1;
	ev.edge = e->evtsel >> 18 & 1;
	ev.any = e->evtsel >> 21 & 1;
	ev.inv = e->evtsel >> 23 & 1;
	ev.cmask = (uint8_t)(e->evtsel >> 24);
	return ev;
}

/* An architectural event (SDM vol. 3B, 18.2.1.2, table 18-1): every Intel CPU with a PMU has its
 * encoding, whatever the kernel's tables. */
static bool architectural(const struct pmu_event *ev)
{
	static const uint16_t codes[] = { 0x003c, 0x00c0, 0x013c, 0x4f2e, 0x412e, 0x00c4, 0x00c5 };

	for (unsigned i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (ev->event == (uint8_t)codes[i] && ev->umask == (uint8_t)(codes[i] >> 8))
			return true;
	return false;
}

/*
 * Whether this PMU cannot count ev, thread t's event i: then it is refused with the reason
 * (AnyThread on a version-2 PMU, or on one that deprecates it, CPUID.0AH:EDX[15]: the write would
 * raise #GP; an event the CPU's list of Intel's events does not have), takes no counter and never
 * reads as a count. On a CPU the kernel has no list for, the model counts only the architectural
 * events (what another code counts there is not known): the rest counts but is not modelled.
 */
static bool unsupported(struct bench_state *s, unsigned t, uint32_t i, const struct pmu_event *ev)
{
	const char *why;

	if (pmu_event_supported(&s->pmu->geometry, ev, &why))
		return false;
	s->results[t][i].refused = why;
	return true;
}

static bool refused(struct bench_state *s, unsigned t, uint32_t i, const struct pmu_event *ev)
{
	const struct uarch *u = s->pmu->info.uarch;

	if (unsupported(s, t, i, ev))
		return true;
	if (event_table_source(u) && (ev->event == 0xb7 || ev->event == 0xbb)) {
		/* OFFCORE_RESPONSE_0/1: Intel's list has it only with its MSR's value */
		s->results[t][i].refused = "an offcore response event (0xB7, 0xBB) needs "
					   "MSR_OFFCORE_RSP_0 or _1 (0x1A6, 0x1A7), which this "
					   "kernel does not program";
		return true;
	}
	if (event_table_source(u) && !event_table_has(u, ev->event, ev->umask)) {
		s->results[t][i].absent = true;
		return true;
	}
	if (!event_table_source(u) && s->pmu->model && !architectural(ev))
		s->results[t][i].unknown_cpu = true;
	return false;
}

/* HT0 counts fixed counters or RDTSC: with -no_mem they take a pass of their own, the first. */
static bool fixed_pass(const struct bench_state *s)
{
	if (!(s->b.params.flags & BUNDLE_NO_MEM))
		return false;
	for (uint32_t i = 0; i < s->b.event_count[0]; i++) {
		struct bundle_event e;
		bundle_event(&s->b, 0, i, &e);
		if (e.kind == BUNDLE_EVENT_FIXED || e.kind == BUNDLE_EVENT_TSC)
			return true;
	}
	return false;
}

/* The passes of the bundle's GP events, by its XSU mode's ops (pmu/xsu_passes.h). */
void bench_plan(struct bench_state *s)
{
	const struct uarch *u = s->pmu->info.uarch;
	unsigned gp = s->pmu->geometry.gp;
	struct xsu_pass_input *in = &s->plan_input;

	memset(in, 0, sizeof(*in));
	in->gp = gp > PMU_MAX_GP ? PMU_MAX_GP : gp;
	if ((s->b.params.flags & BUNDLE_NO_MEM) && in->gp > BENCH_NO_MEM_READS)
		in->gp = BENCH_NO_MEM_READS; /* R8-R11 hold HT0's counts */
	in->catcher = uarch_zero_event(u);
	for (unsigned t = 0; t < 2; t++)
		for (uint32_t i = 0; i < s->b.event_count[t]; i++) {
			struct bundle_event e;
			bundle_event(&s->b, t, i, &e);
			if (e.kind != BUNDLE_EVENT_GP)
				continue;
			struct pmu_event ev = event_of(&e);
			if (refused(s, t, i, &ev))
				continue;
			struct xsu_pass_event *pe = &in->event[t][in->n[t]];
			pe->constraint.mask = e.counter_mask & PMU_GP_MASK(in->gp);
			pe->constraint.corrupting = uarch_event_corrupting(u, &ev);
			pe->alone = e.flags & BUNDLE_EVENT_ALONE;
			s->gp_event[t][in->n[t]++] = (uint16_t)i;
		}
	xsu_plan_passes(xsu_ops_of(s->b.params.xsu, false), in, &s->plan);
	s->first_gp_pass = fixed_pass(s) ? 1 : 0;
	s->passes = s->first_gp_pass + s->plan.passes;
	if (!s->passes)
		s->passes = 1; /* the fixed counters, or nothing but the code's run */
}

static void add(struct pass_thread *pt, const struct pmu_event *ev, unsigned idx, uint32_t ecx,
		int what)
{
	if (pt->n >= BENCH_MAX_READS)
		return;
	pt->event[pt->n] = *ev;
	pt->a[pt->n] = (struct pmu_assignment){ &pt->event[pt->n], idx, 0 };
	pt->n++;
	pt->ecx[pt->reads] = ecx;
	pt->what[pt->reads++] = what;
}

/* Thread t's counters in pass p: the fixed ones (with -no_mem in the first pass only), the
 * plan's, the catchers; then the TSC of RDTSC, a read that programs nothing. */
static void pass_thread(struct bench_state *s, unsigned p, unsigned t, struct pass_thread *pt)
{
	bool fixed = !s->first_gp_pass || p == 0;
	int tsc = -1;

	memset(pt, 0, sizeof(*pt));
	for (uint32_t i = 0; fixed && i < s->b.event_count[t]; i++) {
		struct bundle_event e;
		bundle_event(&s->b, t, i, &e);
		struct pmu_event ev = event_of(&e);
		if (e.kind == BUNDLE_EVENT_TSC)
			tsc = (int)i;
		if (e.kind == BUNDLE_EVENT_FIXED && e.fixed_index < s->pmu->geometry.fixed &&
		    !unsupported(s, t, i, &ev))
			add(pt, &ev, PMU_FIXED_BASE + e.fixed_index,
			    RDPMC_FIXED_ECX | e.fixed_index, (int)i);
	}
	for (unsigned j = 0; p >= s->first_gp_pass && j < s->plan_input.n[t]; j++) {
		if (s->plan.pass[t][j] != (int16_t)(p - s->first_gp_pass))
			continue;
		struct bundle_event e;
		bundle_event(&s->b, t, s->gp_event[t][j], &e);
		struct pmu_event ev = event_of(&e);
		unsigned c = (unsigned)s->plan.counter[t][j];
		add(pt, &ev, c, c, s->gp_event[t][j]);
	}
	pt->catchers = p >= s->first_gp_pass ? s->plan.catchers[p - s->first_gp_pass][t] : 0;
	for (unsigned c = 0; c < PMU_MAX_GP; c++)
		if (pt->catchers & (1u << c))
			add(pt, s->plan.catcher, c, c, CATCHER(c));
	if (tsc >= 0 && pt->reads < BENCH_MAX_READS) {
		pt->ecx[pt->reads] = BENCH_READ_TSC;
		pt->what[pt->reads++] = tsc;
	}
}

/* Read k of a thread is the TSC, no counter: it comes after every programmed one. */
static bool is_tsc(const struct pass_thread *pt, unsigned k)
{
	return k >= pt->n;
}

/*
 * The driver refused thread t's counters of this pass (it wrote nothing): none of them counts in
 * it, and each of its events not counted before is refused with the driver's reason.
 */
static void refuse_pass(struct pass_ctx *c, unsigned t, const char *why)
{
	c->refused[t] = true;
	for (unsigned k = 0; k < c->th[t].reads; k++) {
		int w = c->th[t].what[k];
		if (w >= 0 && !c->s->results[t][w].counted)
			c->s->results[t][w].refused = why;
	}
}

static struct pmu_driver *begin(struct pass_ctx *c, unsigned t, struct model_ledger *l)
{
	struct bench_state *s = c->s;
	struct pmu_driver *d = pmu_thread_begin(t, l);

	if (s->pmu->model && l == &s->data[t]->ledger) {
		/* The model reads a ledger's slots up to the first free one: HT1's runs count
		 * nothing */
		l->profile[BENCH_SLOT_SHORT] = t ? &s->profiles->none : &s->profiles->run[0];
		l->profile[BENCH_SLOT_LONG] = t ? &s->profiles->none : &s->profiles->run[1];
		l->profile[BENCH_SLOT_REP] = &s->profiles->rep[t];
		l->profile[BENCH_SLOT_CYCLES] = &s->profiles->cycles;
	}
	if (s->pmu->model)
		spin_lock(&s->pmu->lock);
	if (s->pmu->model)
		model_set_catchers(&s->pmu->model_state, t, c->th[t].catchers);
	enum pmu_drv_status status = pmu_driver_program(d, c->th[t].a, c->th[t].n);
	if (s->pmu->model)
		spin_unlock(&s->pmu->lock);
	if (status != PMU_DRV_OK)
		refuse_pass(c, t, pmu_drv_status_name(status));
	return d;
}

static void end(struct pass_ctx *c, unsigned t, struct pmu_driver *d)
{
	if (c->s->pmu->model)
		spin_lock(&c->s->pmu->lock);
	pmu_driver_stop(d);
	if (c->s->pmu->model) {
		model_set_catchers(&c->s->pmu->model_state, t, 0);
		spin_unlock(&c->s->pmu->lock);
	}
	pmu_thread_end(t);
}

static uint64_t width_mask(const struct bench_state *s, uint32_t ecx)
{
	if (ecx == BENCH_READ_TSC)
		return ~0ull;
	unsigned w =
		ecx & RDPMC_FIXED_ECX ? s->pmu->geometry.fixed_width : s->pmu->geometry.gp_width;
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* HT1 has read its counters at epoch e; false (the sibling timed out) when not in time. */
static bool sibling_at(struct pass_ctx *c, uint64_t e)
{
	struct bench_data *d1 = c->s->data[1];
	uint64_t give_up = rdtsc() + c->s->x.limit_tsc;

	__atomic_store_n(&d1->epoch, e, __ATOMIC_RELEASE);
	while (__atomic_load_n(&d1->seen, __ATOMIC_ACQUIRE) != e) {
		if (c->s->x.fault.set || rdtsc() > give_up) {
			bench_exec_note(&c->s->x, 1, "timeout", 0, false);
			__atomic_store_n(&c->s->x.abort[1], true, __ATOMIC_RELEASE);
			return false;
		}
		cpu_relax();
	}
	return true;
}

/*
 * HT0's catchers into marks[which] as HT1 has answered epoch e, which it waits on until they are
 * read (acked): they then caught of HT1's events exactly what HT1 counted from answer to answer.
 * The kernel reads them at CPL 0, under the model under the core's lock.
 */
static void catchers_at(struct pass_ctx *c, unsigned which, uint64_t e)
{
	struct pmu *pmu = c->s->pmu;
	struct msr_backend *be = &c->d0->be;

	for (unsigned k = 0; c->runs1 && be->read_pmc && k < c->th[0].reads; k++) {
		if (c->th[0].what[k] >= 0)
			continue;
		if (pmu->model)
			spin_lock(&pmu->lock);
		if (!be->read_pmc(be->ctx, c->th[0].ecx[k], &c->marks[which][k]))
			c->marks[which][k] = 0;
		if (pmu->model)
			spin_unlock(&pmu->lock);
	}
	if (c->runs1)
		__atomic_store_n(&c->s->data[1]->acked, e, __ATOMIC_RELEASE);
}

/*
 * Thread 0 starts its run once the sibling's loop runs on after its answer (its copies went past
 * `answered`): a host that holds one virtual CPU back (QEMU's TCG on a busy host) would otherwise
 * let thread 0 run alone, and nothing leak into its counters. It waits at most bench_ms; the
 * overlap a result gives says how much ran beside all the same.
 */
static void sibling_running(struct pass_ctx *c, uint64_t answered)
{
	const struct bench_data *d1 = c->s->data[1];
	uint64_t give_up = rdtsc() + c->s->x.limit_tsc;

	while (__atomic_load_n(&d1->copies, __ATOMIC_ACQUIRE) == answered && rdtsc() < give_up &&
	       !c->s->x.fault.set)
		cpu_relax();
}

/* The count of read k of a thread over a run: end less start at the counter's width; false
 * when it went down (a 48-bit counter does not wrap in a bundle: it was written meanwhile). */
static bool count_of(const struct bench_state *s, uint32_t ecx, uint64_t start, uint64_t end,
		     int64_t *count)
{
	uint64_t mask = width_mask(s, ecx);

	*count = (int64_t)((end - start) & mask);
	return (end & mask) >= (start & mask);
}

/* One run of program slot: each thread's counts over it, and the sibling's copies, into c->now. */
static bool run(struct pass_ctx *c, unsigned slot)
{
	struct bench_state *s = c->s;
	const struct bench_data *d0 = s->data[0], *d1 = s->data[1];
	struct run_counts *now = &c->now;
	uint64_t e = d1->epoch;

	if (c->runs1 && !sibling_at(c, e + 1))
		return false;
	catchers_at(c, 0, e + 1);
	if (c->runs1)
		sibling_running(c, d1->copies_at[(e + 1) & 1]);
	if (!bench_exec_run(&s->x, 0, s->entry[slot], &s->layout[slot], s->b.params.ring, true))
		return false;
	for (unsigned k = 0; k < c->th[0].reads; k++)
		now->down[0][k] = !count_of(s, c->th[0].ecx[k], d0->count[0][k], d0->count[1][k],
					    &now->count[0][k]);
	if (!c->runs1)
		return true;
	if (!sibling_at(c, e + 2))
		return false;
	catchers_at(c, 1, e + 2);
	for (unsigned k = 0; k < c->th[0].reads; k++)
		now->caught1_down[k] = !count_of(s, c->th[0].ecx[k], c->marks[0][k], c->marks[1][k],
						 &now->caught1[k]);
	unsigned a = (e + 1) & 1, b = (e + 2) & 1;
	for (unsigned k = 0; k < c->th[1].reads; k++)
		now->down[1][k] = !count_of(s, c->th[1].ecx[k], d1->count[a][k], d1->count[b][k],
					    &now->count[1][k]);
	now->copies1 = d1->copies_at[b] - d1->copies_at[a];
	now->time1 = d1->tsc[b] - d1->tsc[a];
	now->seen1 = d0->sibling_copies[1] - d0->sibling_copies[0];
	now->time0 = d0->tsc[1] - d0->tsc[0];
	if (bench_pace_faster(now->copies1, now->time1, c->pace_copies, c->pace_time)) {
		c->pace_copies = now->copies1;
		c->pace_time = now->time1;
	}
	return true;
}

/* The read of the catcher opposite thread t's counter, into *read; false when there is none. */
static bool catcher_read(const struct pass_ctx *c, unsigned t, unsigned counter, unsigned *read)
{
	const struct pass_thread *o = &c->th[t ^ 1];

	for (unsigned k = 0; k < o->reads; k++)
		if (o->what[k] == CATCHER(counter)) {
			*read = k;
			return true;
		}
	return false;
}

/*
 * Thread t's read k over run r, with what the catcher opposite caught of it (core-wide XSU gives
 * the leak back); false when a counter of them went down.
 */
static bool whole(const struct pass_ctx *c, const struct run_counts *r, unsigned t, unsigned k,
		  int64_t *count)
{
	unsigned o;

	*count = r->count[t][k];
	if (is_tsc(&c->th[t], k) || c->th[t].a[k].idx >= PMU_FIXED_BASE ||
	    !catcher_read(c, t, c->th[t].a[k].idx, &o))
		return !r->down[t][k];
	/* HT1's counts run from its read to its read: HT0's catcher over the same interval. */
	*count += t ? r->caught1[o] : r->count[1][o];
	return !r->down[t][k] && !(t ? r->caught1_down[o] : r->down[1][o]);
}

/*
 * HT0's read k over both runs of a measurement into its result: each run's count (nanoBench's
 * arithmetic aggregates each run set, then takes the difference) and the measurement's value, the
 * long run less the short one per repetition (one below zero is left out, counted in
 * backwards). False when a count went down (the counter was written).
 */
static bool keep_ht0(const struct pass_ctx *c, const struct run_counts *shorter, unsigned k,
		     struct bench_result *r)
{
	int64_t longer_count, shorter_count;
	bool ok = whole(c, &c->now, 0, k, &longer_count) & whole(c, shorter, 0, k, &shorter_count);

	if (!ok)
		return false;
	if (r->kept < BUNDLE_MAX_MEASUREMENTS) {
		r->runs[0][r->kept] = shorter_count;
		r->runs[1][r->kept++] = longer_count;
	}
	int64_t v =
		bench_hundredths(longer_count - shorter_count, bundle_repetitions(&c->s->b.params));
	if (v < 0)
		r->backwards++;
	else if (r->n < BUNDLE_MAX_MEASUREMENTS)
		r->values[r->n++] = v;
	return true;
}

/*
 * HT1's read k: its counts over both of HT0's runs per copy its loop ran meanwhile (nanoBench's
 * aggregate over the measurements' values). False when a count went down.
 */
static bool keep_ht1(const struct pass_ctx *c, const struct run_counts *shorter, unsigned k,
		     struct bench_result *r)
{
	const struct bundle_params *p = &c->s->b.params;
	int64_t longer_count, shorter_count;
	bool ok = whole(c, &c->now, 1, k, &longer_count) & whole(c, shorter, 1, k, &shorter_count);
	uint64_t copies = c->now.copies1 + shorter->copies1;
	int64_t v = bench_hundredths(longer_count + shorter_count,
				     p->flags & BUNDLE_NO_NORMALIZATION ? 1 : copies);

	if (!ok)
		return false;
	if (v < 0)
		r->backwards++;
	else if (r->n < BUNDLE_MAX_MEASUREMENTS)
		r->values[r->n++] = v;
	return true;
}

/* Read k of thread t counts in every pass (a fixed counter, the TSC): only the first keeps it. */
static bool every_pass(const struct pass_thread *pt, unsigned k)
{
	return is_tsc(pt, k) || pt->a[k].idx >= PMU_FIXED_BASE;
}

/* One measurement into the results. */
static void keep(struct pass_ctx *c, const struct run_counts *shorter)
{
	struct bench_state *s = c->s;

	for (unsigned t = 0; t < 2; t++)
		for (unsigned k = 0; k < c->th[t].reads; k++) {
			int w = c->th[t].what[k];
			if (w < 0 || c->refused[t] || (c->p && every_pass(&c->th[t], k)))
				continue;
			struct bench_result *r = &s->results[t][w];
			r->counted = true;
			r->pass = (int16_t)c->p;
			r->counter = is_tsc(&c->th[t], k) ? BENCH_COUNTER_TSC
							  : (int16_t)c->th[t].a[k].idx;
			if (!(t ? keep_ht1 : keep_ht0)(c, shorter, k, r))
				r->written = true;
		}
	if (c->runs1 && c->kept < BUNDLE_MAX_MEASUREMENTS) {
		c->seen[c->kept] = c->now.seen1 + shorter->seen1;
		c->time[c->kept++] = c->now.time0 + shorter->time0;
	}
}

/* The least overlap of the sibling's loop with HT0's runs over the measurements kept. */
static void overlap(struct pass_ctx *c)
{
	int16_t least = -1;

	for (unsigned m = 0; m < c->kept; m++) {
		unsigned pct =
			bench_overlap_pct(c->seen[m], c->time[m], c->pace_copies, c->pace_time);
		if (least < 0 || pct < (unsigned)least)
			least = (int16_t)pct;
	}
	c->s->overlap[c->p] = least;
}

/*
 * Whether the sibling's loop ran no copy beside one of HT0's two runs of a measurement (HT0's
 * reads saw none; -no_mem's reads note none): the host held a virtual CPU back (QEMU's TCG on a
 * busy host), and HT0 ran alone, which a core's two threads never do while both have work. A
 * sibling workload that halts (idle) is meant to leave HT0 alone.
 */
static bool ran_alone(const struct pass_ctx *c, const struct run_counts *shorter)
{
	return c->runs1 && !(c->s->b.params.flags & BUNDLE_NO_MEM) && !c->s->work_halts &&
	       (shorter->seen1 == 0 || c->now.seen1 == 0);
}

static void measure(struct pass_ctx *c)
{
	const struct bundle_params *p = &c->s->b.params;
	/* What the sibling did beside HT0 is what a bundle with a sibling measures. */
	uint32_t again = BENCH_ALONE_AGAIN * p->n_measurements;
	struct run_counts shorter;

	for (uint32_t i = 0; i < p->initial_warm_up_count; i++)
		if (!run(c, BENCH_SLOT_N))
			return;
	for (uint32_t m = 0; m < p->warm_up_count + p->n_measurements;) {
		if (!run(c, BENCH_SLOT_N))
			return;
		shorter = c->now;
		if (!run(c, BENCH_SLOT_2N))
			return;
		if (m >= p->warm_up_count && ran_alone(c, &shorter) && again) {
			again--;
			c->s->alone_again[c->p]++;
			continue;
		}
		if (m++ >= p->warm_up_count)
			keep(c, &shorter);
	}
}

static void thread0(struct pass_ctx *c)
{
	struct bench_state *s = c->s;
	struct pmu_driver *d = begin(c, 0, &s->data[0]->ledger);
	uint64_t give_up = rdtsc() + s->x.limit_tsc;

	c->d0 = d;
	while (c->runs1 && !__atomic_load_n(&c->started1, __ATOMIC_ACQUIRE) && rdtsc() < give_up)
		cpu_relax();
	measure(c);
	/* -no_mem's reads note none of HT1's copies: no overlap to give (null, not 0) */
	if (c->runs1 && !(s->b.params.flags & BUNDLE_NO_MEM))
		overlap(c);
	__atomic_store_n(&s->data[1]->stop, 1, __ATOMIC_RELEASE);
	end(c, 0, d);
	__atomic_store_n(&c->done, true, __ATOMIC_RELEASE);
}

static void thread1(struct pass_ctx *c)
{
	struct bench_state *s = c->s;

	if (!c->runs1) {
		bench_exec_watch(&s->x, &c->done); /* a CPL-0 program's time limit */
		return;
	}
	struct pmu_driver *d = begin(c, 1, s->work ? &s->work->ledger : &s->data[1]->ledger);
	s->data[1]->last_tsc = rdtsc();
	__atomic_store_n(&c->started1, true, __ATOMIC_RELEASE);
	bench_exec_run(&s->x, 1, s->entry[BENCH_SLOT_SIBLING], &s->layout[BENCH_SLOT_SIBLING], 3,
		       false);
	end(c, 1, d);
	/* Its part ended, faulted or never ran: HT0's CPL-0 part may still run. */
	bench_exec_watch(&s->x, &c->done);
}

static void job(unsigned t, void *arg)
{
	if (t == 0)
		thread0(arg);
	else
		thread1(arg);
}

/* HT0's program of run k (0 short, 1 long) and HT1's loop, into their slots. */
static bool program(struct pass_ctx *c, unsigned k, const struct run_shape_pair *shapes)
{
	struct bench_state *s = c->s;
	unsigned t = k == 2;
	struct bench_codegen g;

	bench_base_codegen(s, &g, t ? BENCH_PROGRAM_SIBLING : BENCH_PROGRAM_MEASURE, t);
	if (!t) {
		g.copies = shapes->copies[k];
		g.loop_count = shapes->loops[k];
		g.run_slot = k ? BENCH_SLOT_LONG : BENCH_SLOT_SHORT;
		g.rep_units = s->rep_units[k];
		/* -no_mem's reads touch no memory: the sibling's copies are not noted */
		if (c->runs1 && !(s->b.params.flags & BUNDLE_NO_MEM))
			g.sibling_data = (uint64_t)(uintptr_t)s->data[1];
	}
	g.reads = c->th[t].reads;
	memcpy(g.read_ecx, c->th[t].ecx, sizeof(g.read_ecx));
	g.work_entry = t && s->work ? s->work_entry : 0;
	g.work_arg = (uint64_t)(uintptr_t)s->work;
	return bench_generate(s, &g, BENCH_SLOT_N + k);
}

static bool programs(struct pass_ctx *c)
{
	const struct bundle_params *p = &c->s->b.params;
	struct run_shape_pair shapes;
	bool ok = true;

	bench_run_shapes(p, p->unroll_count, p->loop_count, &shapes);
	for (unsigned k = 0; k < 3; k++)
		ok &= program(c, k, &shapes);
	return ok;
}

void bench_pass(struct bench_state *s, unsigned p)
{
	static struct pass_ctx c;
	struct pair_job j = { .fn = job, .arg = &c };

	memset(&c, 0, sizeof(c));
	c.s = s;
	c.p = p;
	pass_thread(s, p, 0, &c.th[0]);
	pass_thread(s, p, 1, &c.th[1]);
	c.runs1 = s->pair->thread_count > 1 &&
		  (s->b.params.sibling != BUNDLE_SIBLING_NONE || c.th[1].reads);
	s->overlap[p] = -1;
	s->alone_again[p] = 0;
	memset(s->data[1], 0, sizeof(*s->data[1]));
	if (!programs(&c)) {
		bench_exec_note(&s->x, 0, "#GP", 0, false);
		return;
	}
	uint64_t runs = 2ull * (s->b.params.warm_up_count + s->b.params.n_measurements) +
			s->b.params.initial_warm_up_count + 2;
	pair_run(&j, runs * 3 * s->x.limit_tsc);
}
