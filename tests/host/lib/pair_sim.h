/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two sibling threads on the model PMU in simulated time, for the host tests of what the kernel
 * does on real hardware. Each thread's workload works at its own rate and records it in its
 * ledger (pmu/model_ledger.h), also while the other thread's handler runs: every register access
 * takes time, in which the sibling goes on working. Thread 0's timer ticks every period (with
 * XSU off and on each thread has its own, thread 1's half a period later); an IPI arrives after
 * a latency, is lost, or holds its receiver (the ipi-delay selftest's late handler); the model's
 * firmware may write counters. The counting steps are the kernel's own pure ones
 * (pmu/thread_counters.h, pmu/handover.h), so what the simulation shows is what the kernel does.
 */
#ifndef TESTS_HOST_LIB_PAIR_SIM_H
#define TESTS_HOST_LIB_PAIR_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/driver.h"
#include "pmu/handover.h"
#include "pmu/model.h"
#include "pmu/mux.h"
#include "pmu/mux_pair.h"
#include "pmu/thread_counters.h"

struct pair_sim_config {
	const char *uarch;   /* by name; NULL: haswell */
	const char *list[2]; /* each thread's events */
	const struct xsu_ops *ops;
	uint64_t period;      /* of the timer, in time units */
	uint64_t latency;     /* of an IPI */
	uint64_t jitter;      /* an IPI takes up to this much longer, pseudo-randomly */
	bool held;	      /* the receiver does no work while its IPI is on the way */
	uint64_t access_cost; /* of one register access */
	uint64_t rate[2];     /* units of work per 1000 time units, per thread */
	unsigned ticks;	      /* timer periods the run lasts */
	unsigned drop_ipi;    /* this IPI (counted from 1) is lost; 0: none */
	unsigned lose_after;  /* from this IPI on, every IPI to thread 1 is lost; 0: none */
	enum model_firmware firmware;
	bool no_smi_count; /* the driver does not read MSR_SMI_COUNT (the kernel does where it reads) */
};

#define PAIR_SIM_QUEUE 8

struct pair_sim {
	struct pair_sim_config cfg;
	struct model_pair model;
	struct model_ledger ledger[2];
	struct pmu_driver driver[2];
	struct mux_thread list[2];
	struct mux_pair pair;
	struct thread_counters tc[2];
	struct handover h;
	uint64_t now;
	int handling;		/* the thread whose handler runs: it does no work; -1: none */
	uint64_t held_until[2]; /* a held receiver does no work until then */
	uint64_t carry[2];
	uint64_t in_handlers
		[2]; /* time each thread spent in its handlers: its own time is the rest */
	uint32_t lcg;
	unsigned ipis, lost_ipis;
	struct {
		uint64_t at;
		int to;
	} queue[PAIR_SIM_QUEUE];
	unsigned queued;
	uint64_t own_ticks[2]; /* xsu off and on: each thread's timer ticks */
	bool unanswered;       /* handover_end() found a handover waiting */
	bool done;	       /* the workloads have ended: nothing works any more */
};

/* Thread t's register writes and reads from its first schedule in force on (the kernel's own
 * figures, pmu/thread_counters.h). */
uint64_t pair_sim_writes(const struct pair_sim *s, unsigned t);
uint64_t pair_sim_reads(const struct pair_sim *s, unsigned t);

/* Thread t's own time now (the kernel's tick_own_time()): the time less its handlers'. */
uint64_t pair_sim_own_time(const struct pair_sim *s, unsigned t);

/* Run cfg to its end: every count final, the pair stopped. */
void pair_sim_run(struct pair_sim *s, const struct pair_sim_config *cfg);

/* Event i of thread t: |scaled - truth| in parts per million of the truth. */
uint64_t pair_sim_error_ppm(const struct pair_sim *s, unsigned t, unsigned i);

/* The largest error over every event (corrupting events only, when asked); which one, if wanted. */
uint64_t pair_sim_worst_ppm(const struct pair_sim *s, bool corrupting_only, unsigned *thread,
			    unsigned *event);

/* Ticks thread t acted on: its own timer's (off, on) or its handover steps (core). */
uint64_t pair_sim_ticks(const struct pair_sim *s, unsigned t);

#endif
