/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a person at the machine reads without a serial cable: the screen's status line names the
 * run in progress and the verdicts so far, and at the end of the suite a table gives every
 * verdict on the console, one row per experiment with a column per XSU mode (result and
 * scheduler). Fed by the suite (suite.c) as it starts runs and emits verdicts (an experiment's
 * verdicts one after the other); the state is the caller's.
 */
#ifndef TESTS_EXPERIMENTS_SUMMARY_H
#define TESTS_EXPERIMENTS_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#define SUMMARY_MAX_VERDICTS 64

struct summary_row {
	const char *exp;   /* the experiment's name */
	const char *sched; /* the verdict's `sched` */
	uint8_t mode;	   /* enum xsu_mode */
	uint8_t result;	   /* enum exp_result_kind */
};

struct summary {
	struct summary_row rows[SUMMARY_MAX_VERDICTS];
	unsigned count;	   /* rows kept */
	unsigned verdicts; /* verdicts seen, also those beyond SUMMARY_MAX_VERDICTS */
	unsigned tally[3]; /* verdicts by enum exp_result_kind */
	unsigned runs;	   /* runs started */
};

/* A run starts (xsu: its XSU mode's name): the status line says which, and the verdicts so far. */
void summary_run_started(struct summary *s, const char *exp, const char *phase, const char *xsu);
/* A verdict, as the suite emits it (mode: enum xsu_mode). */
void summary_verdict(struct summary *s, const char *exp, unsigned mode, const char *sched,
		     uint8_t result);
/* The table, to the console (serial port and screen); a row with a failure is red on the
 * screen. */
void summary_print(const struct summary *s);

#endif
