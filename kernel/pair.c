// SPDX-License-Identifier: GPL-2.0
/*
 * Running on both siblings at once. The boot CPU takes part when it is one of the threads;
 * otherwise it only waits.
 */
#include <stddef.h>

#include "kernel/barrier.h"
#include "kernel/cpu.h"
#include "kernel/pair.h"
#include "kernel/smp.h"
#include "kernel/time.h"

struct pair the_pair;

bool pair_thread_of(const struct percpu *cpu, unsigned *thread)
{
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		if (the_pair.cpu[t] == cpu) {
			*thread = t;
			return true;
		}
	return false;
}

/* Both threads start this long after the last one reaches the barrier: enough for the release to
 * be seen by the other thread before the start time comes. */
#define START_LEAD_US 50

struct thread_context {
	struct pair_job *job;
	struct barrier *barrier;
	unsigned thread;
	uint64_t deadline;
	volatile bool arrived;
};

static void thread_main(void *arg)
{
	struct thread_context *c = arg;
	struct pair_job *job = c->job;
	uint32_t sense = 0;

	/*
	 * Page tables change between jobs (workload memory, ring-3 stacks) on the boot CPU, which
	 * invalidates only its own TLB: drop this CPU's stale entries before the job touches them
	 * (SDM vol. 3A, 4.10.4.3). Outside the timed part.
	 */
	write_cr3(read_cr3());
	c->arrived = barrier_wait(c->barrier, &sense, tsc_from_us(START_LEAD_US), c->deadline);
	if (!c->arrived)
		return;
	uint64_t start = c->barrier->start_tsc + job->offset_tsc[c->thread];
	while (rdtsc() < start)
		cpu_relax();
	/* Interrupts on while the job runs: the tick must reach it (the boot CPU runs with them
	 * off otherwise). */
	uint64_t flags = read_rflags();
	irq_enable();
	job->start_tsc[c->thread] = rdtsc();
	job->fn(c->thread, job->arg);
	job->end_tsc[c->thread] = rdtsc();
	irq_restore(flags);
}

bool pair_run(struct pair_job *job, uint64_t timeout_tsc)
{
	static struct thread_context contexts[2];
	static struct barrier barrier;
	struct percpu *self = this_cpu();
	uint64_t deadline = rdtsc() + timeout_tsc;
	int local = -1;

	job->error = NULL;
	barrier_init(&barrier, the_pair.thread_count);
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		contexts[t] = (struct thread_context){ job, &barrier, t, deadline, false };
		job->start_tsc[t] = job->end_tsc[t] = 0;
		if (the_pair.cpu[t] == self) {
			local = (int)t;
		} else if (!smp_post(the_pair.cpu[t], thread_main, &contexts[t])) {
			job->error = "a sibling thread is offline or still busy";
			return false;
		}
	}
	if (local >= 0)
		thread_main(&contexts[local]);
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		if (the_pair.cpu[t] != self && !smp_wait_idle(the_pair.cpu[t], deadline)) {
			job->error = "a sibling thread did not finish in time";
			return false;
		}
		if (!contexts[t].arrived) {
			job->error = "a sibling thread did not reach the start barrier in time";
			return false;
		}
	}
	return true;
}
