// SPDX-License-Identifier: GPL-2.0
/*
 * The RDPMC boot check (tests/checks/rdpmc_check.h).
 */
#include <string.h>

#include "kernel/console.h"
#include "kernel/record_stream.h"
#include "kernel/time.h"
#include "kernel/user.h"
#include "kernel/user_rdpmc.h"
#include "pmu/counters.h"
#include "pmu/model.h"
#include "pmu/regs.h"
#include "tests/ring3/rdpmc_check.h"
#include "tests/ring3/user.h"
#include "tests/lib/check.h"
#include "tests/checks/rdpmc_check.h"

static const struct pmu_event near_call = {
	.event = 0xc4, .umask = 0x02, .usr = true, .name = "BR_INST_RETIRED.NEAR_CALL"
};
static const struct pmu_event instructions = {
	.event = 0xc0, .umask = 0x00, .usr = true, .name = "INST_RETIRED.ANY"
};
#define CALLS_COUNTER 0
#define INSTRUCTIONS_COUNTER (PMU_FIXED_BASE + 0)

struct rdpmc_check {
	struct pmu *pmu;
	const struct pair *pair;
	bool readable[2]; /* RDPMC works on the thread's CPU (the driver probed it) */
	enum pmu_drv_status status[2];
	uint64_t emulated[2]; /* reads the kernel answered during the check */
};

static void rdpmc_thread(unsigned thread, void *arg)
{
	struct rdpmc_check *c = arg;
	struct pmu_driver *d = pmu_thread_begin(thread, &rdpmc_check_slots[thread].work.ledger);
	const struct pmu_assignment a[2] = { { &near_call, CALLS_COUNTER, 0 },
					     { &instructions, INSTRUCTIONS_COUNTER, 0 } };
	uint64_t before = user_rdpmc_emulated(thread);

	c->readable[thread] = d->flags & PMU_DRV_RDPMC;
	spin_lock(&c->pmu->lock);
	c->status[thread] = pmu_driver_program(d, a, 2);
	spin_unlock(&c->pmu->lock);
	if (c->readable[thread] && c->status[thread] == PMU_DRV_OK)
		user_call((uint64_t)(uintptr_t)user_start, (uint64_t)(uintptr_t)rdpmc_check_run,
			  thread, this_cpu()->user_stack_top);
	spin_lock(&c->pmu->lock);
	pmu_driver_stop(d);
	spin_unlock(&c->pmu->lock);
	pmu_thread_end(thread);
	c->emulated[thread] = user_rdpmc_emulated(thread) - before;
}

/* What the region must read: exactly the profiles' counts under the model (the calls; the
 * instructions of the units and of the chunks' own work that the ledger records); on real
 * counters the calls within 1% of the units (callret's own call adds one, as do a few around
 * it), and at least one instruction per call. */
static bool region_right(const struct rdpmc_check *c, const struct rdpmc_check_slot *s)
{
	uint64_t units = s->work.max_units;

	if (c->pmu->model) {
		uint64_t want = 0;
		model_truth(&s->work.ledger, &instructions, &want);
		return s->region_counted == units && s->region_instructions == want;
	}
	return s->region_counted >= units && s->region_counted <= units + units / 100 + 16 &&
	       s->region_instructions >= s->region_counted;
}

/* Per-thread figures, and whether the thread's reads and region were right. */
static bool emit_thread(struct record *r, const struct rdpmc_check *c, unsigned t)
{
	const struct rdpmc_check_slot *s = &rdpmc_check_slots[t];
	bool measured = c->readable[t] && c->status[t] == PMU_DRV_OK;
	/* Under the model every read faults and is answered: the timed ones and the region's 4. */
	uint64_t emulations = c->pmu->model ? s->reads + 4 : 0;
	bool ok = c->status[t] == PMU_DRV_OK &&
		  (!measured || (region_right(c, s) && c->emulated[t] == emulations));

	record_begin_object(r, NULL);
	record_uint(r, "thread", t);
	record_uint(r, "apic", c->pair->cpu[t]->apic_id);
	record_string(r, "status", pmu_drv_status_name(c->status[t]));
	record_uint(r, "reads", measured ? s->reads : 0);
	if (measured) {
		record_fixed(r, "cycles", (int64_t)(s->sum * 10 / s->reads), 1);
		record_uint(r, "median", s->cost[s->reads / 2]);
		record_uint(r, "min", s->min);
		record_uint(r, "max", s->max);
		record_uint(r, "empty_tsc", s->empty_tsc);
		record_uint(r, "region_calls", s->region_counted);
		record_uint(r, "region_instructions", s->region_instructions);
	}
	record_uint(r, "emulated_reads", c->emulated[t]);
	record_bool(r, "ok", ok);
	record_end_object(r);
	if (measured)
		kprintf("RDPMC check: thread %u: one read costs %llu TSC cycles on average, median "
			"%u "
			"(min %llu, max %llu; %s); a region of %llu calls read %llu calls, %llu "
			"instructions: %s\n",
			t, (unsigned long long)(s->sum / s->reads), s->cost[s->reads / 2],
			(unsigned long long)s->min, (unsigned long long)s->max,
			c->emulated[t] ? "emulated" : "native",
			(unsigned long long)s->work.max_units,
			(unsigned long long)s->region_counted,
			(unsigned long long)s->region_instructions, ok ? "right" : "WRONG");
	return ok;
}

/* The k-th smallest (from 0) of the sorted costs of the threads that measured. */
static uint32_t kth_cost(const struct rdpmc_check *c, const bool *measured, uint64_t k)
{
	uint64_t at[2] = { 0, 0 };

	for (;;) {
		int next = -1;
		for (unsigned t = 0; t < c->pair->thread_count; t++) {
			const struct rdpmc_check_slot *s = &rdpmc_check_slots[t];
			if (measured[t] && at[t] < s->reads &&
			    (next < 0 || s->cost[at[t]] < rdpmc_check_slots[next].cost[at[next]]))
				next = (int)t;
		}
		if (next < 0 || k == 0)
			return next < 0 ? 0 : rdpmc_check_slots[next].cost[at[next]];
		at[next]++;
		k--;
	}
}

/* The figures over every thread that measured: reads, mean, median, min, max. */
static void emit_totals(struct record *r, const struct rdpmc_check *c)
{
	uint64_t reads = 0, sum = 0, min = UINT64_MAX, max = 0;
	bool measured[2] = { false, false };

	for (unsigned t = 0; t < c->pair->thread_count; t++) {
		const struct rdpmc_check_slot *s = &rdpmc_check_slots[t];
		measured[t] = c->readable[t] && c->status[t] == PMU_DRV_OK;
		if (!measured[t])
			continue;
		reads += s->reads;
		sum += s->sum;
		min = s->min < min ? s->min : min;
		max = s->max > max ? s->max : max;
	}
	record_uint(r, "reads", reads);
	if (reads) {
		record_fixed(r, "cycles", (int64_t)(sum * 10 / reads), 1);
		record_uint(r, "median", kth_cost(c, measured, reads / 2));
		record_uint(r, "min", min);
		record_uint(r, "max", max);
		record_null(r, "reason");
	} else {
		record_null(r, "cycles");
		record_null(r, "median");
		record_null(r, "min");
		record_null(r, "max");
		record_string(r, "reason",
			      "RDPMC faults on this CPU even at CPL 0 (a hypervisor "
			      "refuses it): counters cannot be read from ring 3");
	}
}

void check_rdpmc(const struct payload_env *env)
{
	static struct rdpmc_check c;
	struct pair_job job = { .fn = rdpmc_thread, .arg = &c };
	struct record r;
	bool ok = true;

	c.pmu = env->pmu;
	c.pair = env->pair;
	for (unsigned t = 0; t < 2; t++) {
		struct rdpmc_check_slot *s = &rdpmc_check_slots[t];
		/* Field by field: a compound literal of the slot (its costs are 8 KiB) could be built
		 * on the kernel stack first. */
		memset(s, 0, sizeof(*s));
		s->work.chunk_units = 1000;
		s->work.max_units = RDPMC_CHECK_UNITS;
		s->work.gp_width = c.pmu->geometry.gp_width;
		s->work.fixed_width = c.pmu->geometry.fixed_width;
		s->work.thread = t;
		s->counter = regs_rdpmc_ecx(CALLS_COUNTER);
		s->instructions = regs_rdpmc_ecx(INSTRUCTIONS_COUNTER);
		s->reads = RDPMC_CHECK_READS;
	}
	bool done = pair_run(&job, tsc_hz() * 30);
	if (!done)
		kprintf("RDPMC check: %s\n", job.error);
	if (!report(NULL, done, "the RDPMC check did not complete on both threads"))
		return;
	record_begin(&r, "rdpmc");
	record_string(&r, "backend", c.pmu->model ? "model" : "hw");
	record_bool(&r, "emulated", c.emulated[0] + c.emulated[1] > 0);
	record_string(&r, "event", near_call.name);
	record_uint(&r, "units", RDPMC_CHECK_UNITS);
	emit_totals(&r, &c);
	record_begin_array(&r, "threads");
	for (unsigned t = 0; t < c.pair->thread_count; t++)
		ok = emit_thread(&r, &c, t) && ok;
	record_end_array(&r);
	record_bool(&r, "ok", ok);
	report(&r, ok, "RDPMC from ring 3 read a wrong count");
}
