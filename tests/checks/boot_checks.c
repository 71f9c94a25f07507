// SPDX-License-Identifier: GPL-2.0
/*
 * The tick check, the sibling check and the PMU check.
 */
#include "tests/checks/boot_checks.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/pair.h"
#include "kernel/pmu_core.h"
#include "kernel/record_stream.h"
#include "kernel/run.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/user.h"
#include "tests/bench/probe.h"
#include "tests/bench/user.h"
#include "tests/bench/workload.h"
#include "pmu/counters.h"
#include "pmu/regs.h"

/* The check lasts 200 ms, or 10 ticks where the period is longer than 20 ms (mux_ms goes up to
 * 1000), so that one tick more or less is never more than 10% of what is expected. */
#define TICK_INTERVAL_MS 200
#define TICK_MIN_TICKS 10
/* The QEMU test holds the count to 10%; the run itself fails only when it is far off on bare
 * metal, or when no tick comes at all. */
#define TICK_FAILURE_PCT 25

struct tick_check {
	uint64_t interval_tsc;
	uint32_t period_ms;
	uint64_t ticks[2];
	uint64_t measured_tsc[2];
	struct tick_stats stats[2];
};

static void tick_thread(unsigned thread, void *arg)
{
	struct tick_check *c = arg;
	struct percpu *cpu = this_cpu();

	uint64_t first = cpu->ticks;
	uint64_t start = rdtsc();
	tick_start(c->period_ms, NULL, NULL);
	/*
	 * Sleep between ticks: each one wakes the CPU (interrupts are on in a pair job). Under a
	 * hypervisor a halted virtual CPU also leaves the host's cores to the timer. But HLT with no
	 * interrupt coming never returns: spin until the first tick, for the whole interval at most
	 * (a timer that counts without interrupting then shows as no tick, and the check says so).
	 */
	while (cpu->ticks == first && rdtsc() - start < c->interval_tsc)
		cpu_relax();
	while (cpu->ticks != first && rdtsc() - start < c->interval_tsc)
		__asm__ volatile("hlt" ::: "memory");
	tick_stop();
	c->measured_tsc[thread] = rdtsc() - start;
	c->ticks[thread] = cpu->ticks - first;
	c->stats[thread] = tick_stats_read(cpu->index);
}

/* The tick's own cost and punctuality per thread, as exp_end reports them for a run. */
static void record_tick_stats(struct record *r, const struct tick_check *c)
{
	static const char *const keys[] = { "tick_tsc_mean", "tick_tsc_max", "ticks_late",
					    "ticks_lost" };

	for (unsigned k = 0; k < 4; k++) {
		record_begin_array(r, keys[k]);
		for (unsigned t = 0; t < the_pair.thread_count; t++) {
			const struct tick_stats *s = &c->stats[t];
			uint64_t v[] = { tick_stats_mean_tsc(s), s->handler_max_tsc, s->late,
					 s->lost };
			record_uint(r, NULL, v[k]);
		}
		record_end_array(r);
	}
}

void check_ticks(uint32_t period_ms)
{
	static struct tick_check c;
	struct pair_job job = { .fn = tick_thread, .arg = &c };
	struct record r;

	uint32_t interval_ms = period_ms * TICK_MIN_TICKS > TICK_INTERVAL_MS
				       ? period_ms * TICK_MIN_TICKS
				       : TICK_INTERVAL_MS;

	c.period_ms = period_ms;
	c.interval_tsc = tsc_from_us(interval_ms * 1000ull);
	if (!pair_run(&job, c.interval_tsc * 10)) {
		kprintf("tick check: %s\n", job.error);
		run_fail("the tick check did not complete on both threads");
		return;
	}
	uint64_t expected = interval_ms / period_ms;
	bool far_off = false, no_tick = false;
	record_begin(&r, "tick");
	record_uint(&r, "period_ms", period_ms);
	record_uint(&r, "interval_ns", tsc_to_ns(c.interval_tsc));
	record_uint(&r, "expected", expected);
	record_begin_array(&r, "ticks");
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		record_uint(&r, NULL, c.ticks[t]);
	record_end_array(&r);
	record_begin_array(&r, "error_pct");
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		int64_t diff = (int64_t)c.ticks[t] - (int64_t)expected;
		int64_t milli_pct = diff * 100000 / (int64_t)expected;
		record_fixed(&r, NULL, milli_pct, 3);
		no_tick = no_tick || c.ticks[t] == 0;
		if (diff * 100 > (int64_t)expected * TICK_FAILURE_PCT ||
		    -diff * 100 > (int64_t)expected * TICK_FAILURE_PCT)
			far_off = true;
		kprintf("tick check: thread %u (APIC %u): %llu ticks of %u ms in %u ms, expected "
			"%llu\n",
			t, the_pair.cpu[t]->apic_id, (unsigned long long)c.ticks[t], period_ms,
			interval_ms, (unsigned long long)expected);
	}
	record_end_array(&r);
	record_begin_array(&r, "apic");
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		record_uint(&r, NULL, the_pair.cpu[t]->apic_id);
	record_end_array(&r);
	record_tick_stats(&r, &c);
	record_emit(&r);
	if (no_tick) {
		run_fail("the APIC timer tick never arrived on a thread");
	} else if (far_off && !the_pmu.info.hypervisor) {
		run_fail("the APIC timer tick is more than 25% off on a thread");
	} else if (far_off) {
		/* A hypervisor drops timer interrupts when its host is busy; the counts' time
		 * accounting uses the TSC and is not affected, so the run goes on. */
		record_warn("time", "tick", "", "", NULL,
			    "ticks were lost: the hypervisor's host is overloaded (timing figures "
			    "stay right: they come from the TSC)");
	}
}

static void probe_thread(unsigned thread, void *arg)
{
	(void)arg;
	struct percpu *cpu = this_cpu();

	probe_slots[thread].seed = 1000 * thread + 7;
	user_call((uint64_t)(uintptr_t)user_start, (uint64_t)(uintptr_t)probe_run, thread,
		  cpu->user_stack_top);
}

void check_siblings(void)
{
	struct pair_job job = { .fn = probe_thread };
	struct record r;
	bool ok = true;

	for (unsigned t = 0; t < 2; t++)
		probe_slots[t] = (struct probe_slot){ 0 };
	if (!pair_run(&job, tsc_hz() * 5)) {
		kprintf("sibling check: %s\n", job.error);
		run_fail("the sibling check did not complete on both threads");
		return;
	}
	uint64_t skew = 0;
	if (the_pair.thread_count == 2)
		skew = job.start_tsc[0] > job.start_tsc[1] ? job.start_tsc[0] - job.start_tsc[1]
							   : job.start_tsc[1] - job.start_tsc[0];
	record_begin(&r, "sibling");
	record_begin_array(&r, "apic");
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		record_uint(&r, NULL, the_pair.cpu[t]->apic_id);
	record_end_array(&r);
	record_begin_array(&r, "results");
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		const struct probe_slot *s = &probe_slots[t];
		uint64_t expected = probe_expected(s->seed);
		bool thread_ok =
			s->cpl == 3 && s->sse == expected && (s->avx == 0 || s->avx == expected);
		ok = ok && thread_ok;
		record_begin_object(&r, NULL);
		record_uint(&r, "thread", t);
		record_uint(&r, "cpl", s->cpl);
		record_uint(&r, "expected", expected);
		record_uint(&r, "sse", s->sse);
		record_uint(&r, "avx", s->avx);
		record_bool(&r, "ok", thread_ok);
		record_end_object(&r);
	}
	record_end_array(&r);
	record_uint(&r, "skew_tsc", skew);
	record_uint(&r, "skew_ns", tsc_to_ns(skew));
	record_emit(&r);
	kprintf("sibling check: %u thread(s) ran ring-3 code %s; start skew %llu TSC cycles (%llu "
		"ns)\n",
		the_pair.thread_count, ok ? "correctly" : "WRONGLY", (unsigned long long)skew,
		(unsigned long long)tsc_to_ns(skew));
	if (!ok)
		run_fail("ring-3 code on a sibling produced a wrong result");
}

#define PMU_CHECK_UNITS 100000
#define PMU_CHECK_COUNTERS 5

/* What each counter of the check counts, and on which counter (idxmsk index). */
static const struct pmu_event check_events[PMU_CHECK_COUNTERS] = {
	{ .event = 0xc0, .umask = 0x00, .usr = true, .name = "INST_RETIRED.ANY" },
	{ .event = 0xc4, .umask = 0x02, .usr = true, .name = "BR_INST_RETIRED.NEAR_CALL" },
	{ .event = 0xc4, .umask = 0x08, .usr = true, .name = "BR_INST_RETIRED.NEAR_RETURN" },
	{ .event = 0xc4, .umask = 0x00, .usr = true, .name = "BR_INST_RETIRED.ALL_BRANCHES" },
	{ .event = 0xc4, .umask = 0x02, .usr = true, .name = "BR_INST_RETIRED.NEAR_CALL (wraps)" },
};
static const unsigned check_counters[PMU_CHECK_COUNTERS] = { PMU_FIXED_BASE + 0, 0, 1, 2, 3 };

/* Counter i of the check exists on this PMU (one with fewer than 4 GP counters skips some). */
static bool check_counter_exists(unsigned i)
{
	return pmu_geometry_has(&the_pmu.geometry, check_counters[i]);
}

struct pmu_check {
	struct workload_params *params[2];
	enum pmu_drv_status status[2];
	uint64_t counts[2][PMU_CHECK_COUNTERS];
	uint64_t wraps[2];
};

static void pmu_check_thread(unsigned thread, void *arg)
{
	struct pmu_check *c = arg;
	struct pmu_driver *d = pmu_thread_begin(thread);
	struct pmu_assignment a[PMU_CHECK_COUNTERS];
	unsigned n = 0;

	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++) {
		if (!check_counter_exists(i))
			continue;
		a[n] = (struct pmu_assignment){ &check_events[i], check_counters[i], 0 };
		/* Half the units before the wrap: the driver must carry it into the 64-bit count. */
		if (i == 4)
			a[n].preload = regs_preload(PMU_CHECK_UNITS / 2, the_pmu.geometry.gp_width);
		n++;
	}

	spin_lock(&the_pmu.lock);
	c->status[thread] = pmu_driver_program(d, a, n);
	spin_unlock(&the_pmu.lock);
	if (c->status[thread] != PMU_DRV_OK) {
		pmu_thread_end(thread);
		return;
	}
	user_call((uint64_t)(uintptr_t)user_start, (uint64_t)(uintptr_t)callret_run,
		  (uint64_t)(uintptr_t)c->params[thread], this_cpu()->user_stack_top);
	spin_lock(&the_pmu.lock);
	pmu_driver_stop(d);
	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
		c->counts[thread][i] = pmu_driver_take(d, check_counters[i]);
	c->wraps[thread] = d->wraps;
	spin_unlock(&the_pmu.lock);
	pmu_thread_end(thread);
}

/* One value per counter of the check, null for a counter this PMU does not have. */
static void record_check_values(struct record *r, const char *key, const uint64_t *v)
{
	record_begin_array(r, key);
	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
		if (check_counter_exists(i))
			record_uint(r, NULL, v[i]);
		else
			record_null(r, NULL);
	record_end_array(r);
}

/* What the model must count for n units of a profile rate (pmu/model_profile.h). */
static uint64_t model_expected(uint64_t per_units, uint64_t n)
{
	return per_units * n / MODEL_RATE_UNITS;
}

void check_pmu(void)
{
	static struct pmu_check c;
	struct pair_job job = { .fn = pmu_check_thread, .arg = &c };
	struct record r;
	bool ok = true;

	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		if (!c.params[t])
			c.params[t] = (struct workload_params *)(uintptr_t)user_memory_alloc(
				sizeof(struct workload_params));
		if (!c.params[t]) {
			run_fail("no memory for the PMU check");
			return;
		}
		*c.params[t] = (struct workload_params){
			.chunk_units = 1000,
			.max_units = PMU_CHECK_UNITS,
			.account = the_pmu.model,
			.thread = t,
		};
	}
	if (!pair_run(&job, tsc_hz() * 30)) {
		kprintf("PMU check: %s\n", job.error);
		run_fail("the PMU check did not complete on both threads");
		return;
	}

	/* The model's expectations come from the workload's profile. */
	uint64_t want[PMU_CHECK_COUNTERS] = {
		model_expected(callret_profile.instructions, PMU_CHECK_UNITS),
		PMU_CHECK_UNITS,
		PMU_CHECK_UNITS,
		3 * PMU_CHECK_UNITS,
		PMU_CHECK_UNITS,
	};
	record_begin(&r, "pmu_check");
	record_string(&r, "backend", the_pmu.model ? "model" : "hw");
	record_string(&r, "workload", "callret");
	record_uint(&r, "units", PMU_CHECK_UNITS);
	record_begin_array(&r, "events");
	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
		record_string(&r, NULL, check_events[i].name);
	record_end_array(&r);
	/* A PMU with fewer counters than the check uses: those parts are skipped, saying so. */
	record_begin_array(&r, "skipped");
	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
		if (!check_counter_exists(i)) {
			record_string(&r, NULL, check_events[i].name);
			kprintf("PMU check: %s skipped: this PMU has %u GP and %u fixed counters\n",
				check_events[i].name, the_pmu.geometry.gp, the_pmu.geometry.fixed);
		}
	record_end_array(&r);
	record_begin_array(&r, "threads");
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		const uint64_t *n = c.counts[t];
		bool thread_ok = c.status[t] == PMU_DRV_OK;
		if (thread_ok && the_pmu.model) {
			for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
				thread_ok =
					thread_ok && (!check_counter_exists(i) || n[i] == want[i]);
		} else if (thread_ok) {
			/* Real counters: the loop's calls and returns, plus the few around it; the
			 * wrapped counter (GP 3) against the plain one where it exists. */
			uint64_t calls = n[1], slack = PMU_CHECK_UNITS / 100 + 100;
			thread_ok = calls >= PMU_CHECK_UNITS && calls <= PMU_CHECK_UNITS + slack &&
				    (!check_counter_exists(4) ||
				     (n[4] + 16 >= calls && n[4] <= calls + 16));
		}
		ok = ok && thread_ok;
		record_begin_object(&r, NULL);
		record_uint(&r, "thread", t);
		record_uint(&r, "apic", the_pair.cpu[t]->apic_id);
		record_string(&r, "status", pmu_drv_status_name(c.status[t]));
		record_check_values(&r, "counts", n);
		if (the_pmu.model)
			record_check_values(&r, "expected", want);
		record_uint(&r, "wraps", c.wraps[t]);
		record_bool(&r, "ok", thread_ok);
		record_end_object(&r);
		kprintf("PMU check: thread %u: %llu instructions, %llu calls, %llu returns, %llu "
			"branches, %llu calls across a wrap: %s\n",
			t, (unsigned long long)n[0], (unsigned long long)n[1],
			(unsigned long long)n[2], (unsigned long long)n[3],
			(unsigned long long)n[4], thread_ok ? "right" : "WRONG");
	}
	record_end_array(&r);
	record_bool(&r, "ok", ok);
	record_emit(&r);
	if (!ok)
		run_fail("the PMU check counted wrong");
}
