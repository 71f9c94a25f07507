// SPDX-License-Identifier: GPL-2.0
/*
 * The tick check and the sibling check.
 */
#include "kernel/boot_checks.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/pair.h"
#include "kernel/record_stream.h"
#include "kernel/run.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/user.h"
#include "tests/bench/probe.h"
#include "tests/bench/user.h"

#define TICK_INTERVAL_MS 200
/* The QEMU test holds the count to 10%; the run itself fails only when it is far off on bare
 * metal, or when no tick comes at all. */
#define TICK_FAILURE_PCT 25

struct tick_check {
	uint64_t interval_tsc;
	uint32_t period_ms;
	uint64_t ticks[2];
	uint64_t measured_tsc[2];
};

static void tick_thread(unsigned thread, void *arg)
{
	struct tick_check *c = arg;
	struct percpu *cpu = this_cpu();

	uint64_t first = cpu->ticks;
	uint64_t start = rdtsc();
	tick_start(c->period_ms, NULL, NULL);
	while (rdtsc() - start < c->interval_tsc)
		cpu_relax();
	tick_stop();
	c->measured_tsc[thread] = rdtsc() - start;
	c->ticks[thread] = cpu->ticks - first;
}

void check_ticks(uint32_t period_ms)
{
	static struct tick_check c;
	struct pair_job job = { .fn = tick_thread, .arg = &c };
	struct record r;

	c.period_ms = period_ms;
	c.interval_tsc = tsc_from_us(TICK_INTERVAL_MS * 1000ull);
	if (!pair_run(&job, c.interval_tsc * 10)) {
		kprintf("tick check: %s\n", job.error);
		run_fail("the tick check did not complete on both threads");
		return;
	}
	uint64_t expected = TICK_INTERVAL_MS / period_ms;
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
			TICK_INTERVAL_MS, (unsigned long long)expected);
	}
	record_end_array(&r);
	record_begin_array(&r, "apic");
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		record_uint(&r, NULL, the_pair.cpu[t]->apic_id);
	record_end_array(&r);
	record_emit(&r);
	if (no_tick) {
		run_fail("the APIC timer tick never arrived on a thread");
	} else if (far_off && !(cpuid(1, 0).ecx >> 31)) {
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
