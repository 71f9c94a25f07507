/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The leak survey (`exp=leak-survey`): for every event the erratum's event codes (0xD0-0xD3)
 * document on this microarchitecture, and for a control set of events that do not corrupt, HT0
 * counts the event alone on GP counter i while HT1 counts an event that never occurs (the zero
 * event) on its counter i, for i = 0..3, both threads busy with `survey_work=`, XSU off; and once
 * with the zero event on another index. What HT1's counter catches is the leak (thesis ch. 4: the
 * corrupting event's count leaks into the sibling's counter of the same index). Under the model
 * the ratios are the model's; on real hardware this measures the erratum event by event.
 *
 * The leak's other assumption, made measurable: where does it go when the sibling's counter is
 * unused? Each event of 0xD0-0xD3 is measured twice more at index 0 with HT1's counter 0 unused
 * in one of the two ways a kernel leaves a counter unused: its IA32_PERFEVTSELx.EN clear (HT1
 * counts nothing), or EN set with its IA32_PERF_GLOBAL_CTRL bit clear (HT1 selects the zero event
 * there, never started). What HT0 keeps then, against its count plus leak with the zero event,
 * shows whether the leak is lost (the model's answer, and the thesis's for a stopped counter) or
 * stays; what HT1's held counter shows says whether a disabled counter takes it.
 *
 * The rule (survey_judge) is pure and host-tested; the measurement is survey.c.
 */
#ifndef TESTS_EXPERIMENTS_SURVEY_H
#define TESTS_EXPERIMENTS_SURVEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/experiments/experiment.h"
#include "tests/experiments/rule.h"

/* GP counter indices the survey walks: the bottom four, where the erratum's events may count. */
#define SURVEY_INDICES 4

/* What HT1's counter sibling_index does in a measurement (the record's sibling_state). */
enum survey_state {
	SURVEY_ZERO_EVENT, /* counts the zero event: what it reads is the leak */
	SURVEY_EN_CLEAR,   /* IA32_PERFEVTSELx.EN clear: HT1 counts nothing */
	SURVEY_GLOBAL_CLEAR, /* the zero event selected, EN set, its IA32_PERF_GLOBAL_CTRL bit clear */
	SURVEY_STATES
};

/* The states by their record names: "zero_event", "en_clear", "global_clear". */
extern const char *const survey_state_names[SURVEY_STATES];

/* An event the survey measures, and whether it is one of the controls (which do not corrupt). */
struct survey_event {
	uint16_t code; /* 0xUUEE */
	bool control;
};

#define SURVEY_MAX_EVENTS 48

/*
 * The events of a survey on u (survey_events.c): every unit mask of 0xD0-0xD3 Intel documents for
 * u's part (plain selections, no extra MSR), or the thesis's four corrupting events where u has
 * no table of names; then the controls. Returns how many (at most SURVEY_MAX_EVENTS).
 */
struct uarch;
unsigned survey_events(const struct uarch *u, struct survey_event *list);

/* Measurements of an event: on each of the four indices, once with the zero event on another
 * index, and (not a control) once in each unused state. */
#define SURVEY_POINTS_PER_EVENT (SURVEY_INDICES + 1 + SURVEY_STATES - 1)

/* How many measurements a survey of these events makes (its exp record's `measurements`). */
unsigned survey_measurements(const struct survey_event *list, unsigned n);

/* One measurement: HT0's event on counter index, HT1's counter sibling_index in state. */
struct survey_point {
	uint16_t code; /* 0xUUEE */
	bool corrupting;
	bool control; /* one of the non-corrupting controls */
	uint8_t index, sibling_index;
	uint8_t state;	      /* enum survey_state */
	uint64_t count;	      /* HT0's count */
	uint64_t leak;	      /* what HT1's counter counted (zero event; held: what it shows) */
	unsigned overlap_pct; /* how much of the run the two counted side by side (runner.c) */
};

/*
 * The share of the event's occurrences that landed in the sibling's counter, in parts per
 * million: leak / (count + leak). The erratum moves counts, it does not copy them (thesis ch. 8:
 * alone, L1_MISS loses 46% of its count), so this is the model's share exactly.
 */
uint64_t survey_share_ppm(const struct survey_point *p);

/*
 * The verdict: where the CPU has the erratum, every event the table calls corrupting and that
 * counted enough (TH_SURVEY_COUNT) leaks at the same index, and nothing else leaks (no control, no
 * other index); without the erratum, nothing leaks. A measurement the siblings did not count side
 * by side (TH_OVERLAP) shows nothing either way. Too little to observe is a skip. Only the
 * zero-event points are judged: the unused states are what the hardware does, to be seen.
 */
void survey_judge(const struct survey_point *points, unsigned n, const struct exp_machine *m,
		  struct exp_verdict *out);

/* How the experiment survey_experiment (experiment.h) makes its own runs (experiment.measure). */
struct suite;
void survey_measure(const struct experiment *e, struct suite *s);

#endif
