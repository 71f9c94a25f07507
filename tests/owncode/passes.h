/* SPDX-License-Identifier: GPL-2.0 */
/*
 * More events than counters: a bundle's code runs once per pass, and each pass counts some of
 * both threads' events (nanoBench runs its code once per group of events that fit). Every pass is
 * an assignment of GP counters to events of HT0 and HT1 that is safe under the bundle's XSU mode
 * against what the sibling counts in the same pass (pmu/xsu.h: BJ122/BV98/HSD29, thesis ch. 4-5):
 *
 *   off   each thread's events on its own counters, nothing shared considered;
 *   on    no GP index where one thread counts a corrupting event (0xD0-0xD3) and the sibling any
 *         event: the corrupting event's index is the thread's alone, as under Linux's XSU;
 *   core  the same, jointly for both threads' lists (the plan is one for both anyway).
 *
 * Under on and core the sibling's counter opposite each corrupting event, which the exclusion
 * leaves unused, counts the leak catcher (the microarchitecture's zero event), and its count is
 * given back to the corrupting event (pmu/mux_pair.h): a pass is short and planned for both
 * threads at once, so the catcher costs the sibling nothing, and the corrupting event's own count
 * is whole (what leaked from it into a stopped counter would otherwise be lost).
 *
 * Events are placed in list order, HT0's before HT1's in each pass, each on the lowest counter
 * its mask allows; an event with TakenAlone (BUNDLE_EVENT_ALONE) is the only one of its thread in
 * its pass. Fixed counters are not planned: they count in every pass. An event no pass can place
 * (its .CTR= names a counter this PMU does not have) keeps pass -1.
 *
 * Pure code: host-tested (tests/host/test_bench_passes.c).
 */
#ifndef TESTS_OWNCODE_PASSES_H
#define TESTS_OWNCODE_PASSES_H

#include <stdbool.h>
#include <stdint.h>

#include "tests/owncode/bundle.h"

#define BENCH_MAX_PASSES (2 * BUNDLE_MAX_EVENTS)

struct bench_pass_event {
	uint8_t mask;	 /* GP counters it may use (already cut to the PMU's) */
	bool corrupting; /* the erratum's: it needs its index alone */
	bool alone;	 /* TakenAlone */
};

struct bench_pass_input {
	unsigned gp;   /* GP counters per thread */
	unsigned xsu;  /* enum bundle_xsu */
	unsigned n[2]; /* GP events of each thread */
	struct bench_pass_event event[2][BUNDLE_MAX_EVENTS];
};

struct bench_pass_plan {
	unsigned passes;
	int16_t pass[2][BUNDLE_MAX_EVENTS];    /* -1: never placed */
	int8_t counter[2][BUNDLE_MAX_EVENTS];  /* GP index in its pass */
	uint8_t catchers[BENCH_MAX_PASSES][2]; /* core: GP counters of each thread with a catcher */
};

void bench_passes_plan(const struct bench_pass_input *in, struct bench_pass_plan *out);

/* Pass p of the plan is safe under in->xsu (as above): no event shares a counter with another
 * of its thread, and under on and core no corrupting event faces a sibling's event, and catchers
 * stand only opposite corrupting events, on counters their thread does not use. */
bool bench_pass_safe(const struct bench_pass_input *in, const struct bench_pass_plan *plan,
		     unsigned p);

#endif
