/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bundle's passes (tools/pmu-bench, docs/own-code.md): more events than counters, so the code
 * runs once per pass and each pass counts some of both threads' events, as nanoBench runs its code
 * once per group of events that fit. Every pass is placed by the XSU mode's ops
 * (ops->plan_passes, pmu/mux_pair.h), with the same exclusion and catchers as the mode gives a
 * schedule of an experiment (xsu_plan_passes(ops, in, out)):
 *
 *   off   xsu_passes_alone() through sched_hooks_none: each thread's events on its own counters,
 *         nothing shared considered (the erratum shows);
 *   on    xsu_passes_alone() through xsu_hooks, Linux's XSU: thread 0's events, then thread 1's
 *         against the states thread 0's committed (pmu/xsu.h), so no GP index holds a corrupting
 *         event (0xD0-0xD3) of one thread and any event of the other; no catchers: what a
 *         corrupting event leaks into the sibling's unused counter is lost, as under Linux;
 *   core  xsu_passes_joint(), core-wide XSU: one joint placement of both threads' events by the
 *         joint scheduler (pmu/core_sched.h), and the sibling's counter opposite each corrupting
 *         event counts the leak catcher (the microarchitecture's zero event), whose count the
 *         bundle gives back to that event, so its count is whole (thesis ch. 8).
 *
 * A pass runs the code once for its events: there is no time to share, so the joint placement is
 * asked for the most events a pass can count (every event worth the same) rather than for
 * fairness over ticks, and the passes follow one another until every event has had one.
 *
 * Within those rules: xsu_passes_alone() places events in list order, thread 0's before thread
 * 1's in each pass, each on the lowest counter its mask and the hooks allow; xsu_passes_joint()
 * places the most events, earlier ones of the list order (thread 0's, then thread 1's) first. An
 * event with `alone` (nanoBench's TakenAlone) is the only one of its thread in its pass. Fixed
 * counters are not planned: they count in every pass. An event no pass can place (its mask names
 * a counter this PMU does not have) keeps pass -1.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests
 * (tests/host/test_bench_passes.c). A joint pass uses about 6 KiB of stack (gcc -fstack-usage,
 * kernel flags: 1.9 KiB its own, 4.2 KiB core_sched()), as a joint tick does.
 */
#ifndef PMU_XSU_PASSES_H
#define PMU_XSU_PASSES_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"
#include "pmu/sched.h"
#include "pmu/uarch.h"

#define XSU_PASS_MAX_EVENTS 2000 /* per thread: nanoBench's configs hold up to 2,000 */
#define XSU_PASS_MAX_PASSES (2 * XSU_PASS_MAX_EVENTS)

struct xsu_pass_event {
	/* mask: the GP counters it may use (idxmsk); corrupting: the erratum's word of it */
	struct constraint constraint;
	bool alone; /* TakenAlone: nothing else of its thread in its pass */
};

struct xsu_pass_input {
	unsigned gp;			 /* GP counters per thread, at most PMU_MAX_GP */
	const struct pmu_event *catcher; /* the leak catcher (uarch_zero_event()); NULL: none */
	unsigned n[2];			 /* GP events of each thread */
	struct xsu_pass_event event[2][XSU_PASS_MAX_EVENTS];
};

struct xsu_pass_plan {
	unsigned passes;
	int16_t pass[2][XSU_PASS_MAX_EVENTS];	/* -1: never placed */
	int8_t counter[2][XSU_PASS_MAX_EVENTS]; /* GP index in its pass */
	/* GP counters of each thread that count the catcher in each pass (core only) */
	uint8_t catchers[XSU_PASS_MAX_PASSES][2];
	const struct pmu_event *catcher; /* what they count: the input's */
};

/*
 * The modes' entries (struct xsu_ops.plan_passes, called by xsu_plan_passes(), pmu/mux_pair.h,
 * with the mode's hooks): each thread alone through hooks (off, on), or both jointly with
 * catchers (core: hooks unused).
 */
void xsu_passes_alone(const struct sched_hooks *hooks, const struct xsu_pass_input *in,
		      struct xsu_pass_plan *out);
void xsu_passes_joint(const struct sched_hooks *hooks, const struct xsu_pass_input *in,
		      struct xsu_pass_plan *out);

#endif
