/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The chosen core's hyperthreads and one call that runs a function on each of them with a
 * synchronised start (or a given offset) and collects when each began and ended.
 */
#ifndef KERNEL_PAIR_H
#define KERNEL_PAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/percpu.h"

struct pair {
	unsigned thread_count; /* 2 with a sibling, 1 on a core without SMT */
	struct percpu *cpu[2]; /* thread 0 and thread 1 of the chosen core */
};

extern struct pair the_pair;

/* Whether cpu is one of the chosen core's threads, and which (0 or 1) into *thread. */
bool pair_thread_of(const struct percpu *cpu, unsigned *thread);

struct pair_job {
	void (*fn)(unsigned thread,
		   void *arg); /* at CPL 0, interrupts on; it may call user_call() */
	void *arg;
	uint64_t offset_tsc[2]; /* when each thread starts, after the common start */
	/* Filled in: */
	uint64_t start_tsc[2];
	uint64_t end_tsc[2];
	const char *error; /* why pair_run() returned false */
};

/*
 * Run job->fn on every thread of the_pair: both meet at a barrier, then each starts at the common
 * start plus its offset. Returns false (with job->error) when a thread does not arrive or does not
 * finish before timeout_tsc has passed.
 */
bool pair_run(struct pair_job *job, uint64_t timeout_tsc);

#endif
