// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU check (tests/checks/boot_checks.h): counts of a known amount of work through the whole
 * path, driver, backend and ring-3 workload, on both threads.
 */
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/record_stream.h"
#include "kernel/time.h"
#include "kernel/user.h"
#include "pmu/counters.h"
#include "pmu/model.h"
#include "pmu/regs.h"
#include "tests/ring3/user.h"
#include "tests/ring3/workload.h"
#include "tests/lib/check.h"
#include "tests/checks/boot_checks.h"

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

struct pmu_check {
	struct pmu *pmu;
	const struct pair *pair;
	struct workload_params *params[2];
	enum pmu_drv_status status[2];
	uint64_t counts[2][PMU_CHECK_COUNTERS];
	uint64_t wraps[2];
	/* The model's counts: the workload's profiles for the work its ledger records (units, and
	 * the chunks' own work), model_truth(). */
	uint64_t want[2][PMU_CHECK_COUNTERS];
	bool thread_ok[2];
};

/* Counter i of the check exists on this PMU (one with fewer than 4 GP counters skips some). */
static bool counter_exists(const struct pmu_check *c, unsigned i)
{
	return pmu_geometry_has(&c->pmu->geometry, check_counters[i]);
}

static void pmu_check_thread(unsigned thread, void *arg)
{
	struct pmu_check *c = arg;
	struct pmu_driver *d = pmu_thread_begin(thread, &c->params[thread]->ledger);
	struct pmu_assignment a[PMU_CHECK_COUNTERS];
	unsigned n = 0;

	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++) {
		if (!counter_exists(c, i))
			continue;
		a[n] = (struct pmu_assignment){ &check_events[i], check_counters[i], 0 };
		/* Half the units before the wrap: the driver must carry it into the 64-bit count. */
		if (i == 4)
			a[n].preload = regs_preload(PMU_CHECK_UNITS / 2, c->pmu->geometry.gp_width);
		n++;
	}

	spin_lock(&c->pmu->lock);
	c->status[thread] = pmu_driver_program(d, a, n);
	spin_unlock(&c->pmu->lock);
	if (c->status[thread] != PMU_DRV_OK) {
		pmu_thread_end(thread);
		return;
	}
	user_call((uint64_t)(uintptr_t)user_start, (uint64_t)(uintptr_t)callret_run,
		  (uint64_t)(uintptr_t)c->params[thread], this_cpu()->user_stack_top);
	spin_lock(&c->pmu->lock);
	pmu_driver_stop(d);
	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
		c->counts[thread][i] = pmu_driver_take(d, check_counters[i]);
	c->wraps[thread] = d->wraps;
	spin_unlock(&c->pmu->lock);
	pmu_thread_end(thread);
}

/* One value per counter of the check, null for a counter this PMU does not have. */
static void record_values(struct record *r, const struct pmu_check *c, const char *key,
			  const uint64_t *v)
{
	record_begin_array(r, key);
	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
		if (counter_exists(c, i))
			record_uint(r, NULL, v[i]);
		else
			record_null(r, NULL);
	record_end_array(r);
}

/* What the model must count on each counter of thread t: its profiles' truth for its ledger. */
static void expect(struct pmu_check *c, unsigned t)
{
	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
		model_truth(&c->params[t]->ledger, &check_events[i], &c->want[t][i]);
}

/* Each thread's parameters in user memory; false: no memory. */
static bool prepare(struct pmu_check *c, const struct payload_env *env)
{
	c->pmu = env->pmu;
	c->pair = env->pair;
	for (unsigned t = 0; t < c->pair->thread_count; t++) {
		if (!c->params[t])
			c->params[t] = (struct workload_params *)(uintptr_t)user_memory_alloc(
				sizeof(struct workload_params));
		if (!c->params[t])
			return false;
		*c->params[t] = (struct workload_params){
			.chunk_units = 1000,
			.max_units = PMU_CHECK_UNITS,
			.thread = t,
		};
	}
	return true;
}

/*
 * Thread t counted right: on the model exactly the profile's counts; on real counters the loop's
 * calls and returns plus the few around it, and the wrapped counter (GP 3) equal to the plain
 * one where it exists.
 */
static bool thread_right(const struct pmu_check *c, unsigned t)
{
	const uint64_t *n = c->counts[t];
	uint64_t calls = n[1], slack = PMU_CHECK_UNITS / 100 + 100;

	if (c->status[t] != PMU_DRV_OK)
		return false;
	if (c->pmu->model) {
		for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
			if (counter_exists(c, i) && n[i] != c->want[t][i])
				return false;
		return true;
	}
	return calls >= PMU_CHECK_UNITS && calls <= PMU_CHECK_UNITS + slack &&
	       (!counter_exists(c, 4) || (n[4] + 16 >= calls && n[4] <= calls + 16));
}

static void record_thread(struct record *r, const struct pmu_check *c, unsigned t)
{
	const uint64_t *n = c->counts[t];

	record_begin_object(r, NULL);
	record_uint(r, "thread", t);
	record_uint(r, "apic", c->pair->cpu[t]->apic_id);
	record_string(r, "status", pmu_drv_status_name(c->status[t]));
	record_values(r, c, "counts", n);
	if (c->pmu->model)
		record_values(r, c, "expected", c->want[t]);
	record_uint(r, "wraps", c->wraps[t]);
	record_bool(r, "ok", c->thread_ok[t]);
	record_end_object(r);
	kprintf("PMU check: thread %u: %llu instructions, %llu calls, %llu returns, %llu "
		"branches, %llu calls across a wrap: %s\n",
		t, (unsigned long long)n[0], (unsigned long long)n[1], (unsigned long long)n[2],
		(unsigned long long)n[3], (unsigned long long)n[4],
		c->thread_ok[t] ? "right" : "WRONG");
}

/* The `pmu_check` record; whether every thread counted right. */
static bool record_check(struct record *r, struct pmu_check *c)
{
	bool ok = true;

	record_begin(r, "pmu_check");
	record_string(r, "backend", c->pmu->model ? "model" : "hw");
	record_string(r, "workload", "callret");
	record_uint(r, "units", PMU_CHECK_UNITS);
	record_begin_array(r, "events");
	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++)
		record_string(r, NULL, check_events[i].name);
	record_end_array(r);
	/* A PMU with fewer counters than the check uses: those parts are skipped, saying so. */
	record_begin_array(r, "skipped");
	for (unsigned i = 0; i < PMU_CHECK_COUNTERS; i++) {
		if (counter_exists(c, i))
			continue;
		record_string(r, NULL, check_events[i].name);
		kprintf("PMU check: %s skipped: this PMU has %u GP and %u fixed counters\n",
			check_events[i].name, c->pmu->geometry.gp, c->pmu->geometry.fixed);
	}
	record_end_array(r);
	record_begin_array(r, "threads");
	for (unsigned t = 0; t < c->pair->thread_count; t++) {
		if (c->pmu->model)
			expect(c, t);
		c->thread_ok[t] = thread_right(c, t);
		ok = ok && c->thread_ok[t];
		record_thread(r, c, t);
	}
	record_end_array(r);
	record_bool(r, "ok", ok);
	return ok;
}

void check_pmu(const struct payload_env *env)
{
	static struct pmu_check c;
	struct pair_job job = { .fn = pmu_check_thread, .arg = &c };
	struct record r;

	if (!report(NULL, prepare(&c, env), "no memory for the PMU check"))
		return;
	bool done = pair_run(&job, tsc_hz() * 30);
	if (!done)
		kprintf("PMU check: %s\n", job.error);
	if (!report(NULL, done, "the PMU check did not complete on both threads"))
		return;
	bool ok = record_check(&r, &c);
	report(&r, ok, "the PMU check counted wrong");
}
