/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The thresholds of the verdicts, as data: every tolerance, limit and margin a rule (rules_*.c,
 * survey_rule.c) or the checks every rule shares (verdict.c) applies, in one table
 * (thresholds.c), each with its value, its unit, whose it is and why. A threshold is the
 * hardware's when it stands for what counting does on any machine (multiplexing's estimate, the
 * erratum's size, a tick's share of a run), a busy host's when it stands for what a host that
 * runs the virtual CPUs unevenly (QEMU's TCG on a shared machine) does to a run. A verdict's text
 * names the threshold it applied (threshold_text()). docs/experiments.md's table of thresholds is
 * this one (tests/style/test_rules.py), and the QEMU driver reads the busy host's from it.
 * Pure code.
 */
#ifndef TESTS_EXPERIMENTS_THRESHOLDS_H
#define TESTS_EXPERIMENTS_THRESHOLDS_H

#include <stddef.h>

enum threshold_id {
	TH_BASELINE,	   /* a count against its baseline: this share of it ... */
	TH_BASELINE_FLOOR, /* ... or this many events, whichever is larger */
	TH_COMPENSATION,   /* rule_loss, XSU off: aligned siblings' rate above the rate alone */
	TH_RATE,	   /* rule_loss: a rate (or the share of the truth kept) against alone */
	TH_STARVED,	   /* rule_starvation, XSU on: below this an event is starved */
	TH_CORE_RUNNING,   /* rule_starvation, XSU core: every event runs at least this */
	TH_CORE_TRUTH,	   /* rule_loss, XSU core: a corrupting count against its truth */
	TH_CORE_PACE,	   /* rule_loss, XSU core: the pace the truth is judged at */
	TH_CORE_LOADS,	   /* rule_loss, XSU core, real counters: triad's loads against its units */
	TH_HANDOVER,	   /* rule_loss, XSU core, real counters: the run spent handing over */
	TH_HK_MARGIN,	   /* rule_hk_vs_greedy: the schedulers' difference by timing alone */
	TH_FAIRNESS,	   /* rule_fairness, XSU core: below the best of Linux's XSU */
	TH_CORE_LOST_TICKS, /* rule_fairness, XSU core: thread 0's ticks lost */
	TH_TICKS,	    /* every rule: ticks a thread needs */
	TH_OVERLAP,	    /* every rule: the siblings counting side by side */
	TH_LOST_TICKS,	    /* every rule: a thread's ticks lost */
	TH_PACE,	    /* every rule: a thread's work, sampled as its counts were */
	TH_SURVEY_COUNT,    /* the leak survey: a corrupting event's count to observe a leak */
	THRESHOLD_COUNT
};

enum threshold_unit {
	UNIT_PERCENT,
	UNIT_PER_MILLE,
	UNIT_HUNDREDTHS, /* of a percent, as a running fraction's `percent` */
	UNIT_EVENTS,
	UNIT_TICKS,
};

enum threshold_source {
	BY_HARDWARE,  /* "the hardware's" */
	BY_BUSY_HOST, /* "a busy host's" */
};

struct threshold {
	const char *name; /* in a verdict's text: "the <name> threshold (25%, a busy host's)" */
	unsigned value;	  /* in its unit */
	enum threshold_unit unit;
	enum threshold_source source;
	const char *rules; /* the rules that apply it, as docs/experiments.md names them */
	const char *why;
};

extern const struct threshold thresholds[THRESHOLD_COUNT];

static inline unsigned threshold_of(enum threshold_id id)
{
	return thresholds[id].value;
}

/* "25%", "2.5%" (per mille or hundredths of a percent), "100 events", "20 ticks", into buf. */
const char *threshold_value_text(enum threshold_id id, char *buf, size_t size);

/* Whose it is, in words: "the hardware's" or "a busy host's". */
const char *threshold_source_text(enum threshold_id id);

/* How a verdict names a threshold: "the pace threshold (25%, a busy host's)", into buf. */
const char *threshold_text(enum threshold_id id, char *buf, size_t size);

/* Room for threshold_text(). */
#define THRESHOLD_TEXT_MAX 64

#endif
