/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The payload's command-line keys: what the experiments, their workloads and the checks take
 * from the command line (docs/command-line.md). The kernel parses them with its own keys
 * (kernel/cmdline.h) through payload_keys() (kernel/payload.h), before the boot record, and the
 * payload reads them from here. The table is data, in payload_config.c; a new key is one line
 * there and its field here, with its row in docs/command-line.md and its line in
 * boot/efi/cmdline.txt (tests/style/test_doc_facts.py says what is missing).
 *
 * Pure code (host-tested with the parser).
 */
#ifndef TESTS_LIB_PAYLOAD_CONFIG_H
#define TESTS_LIB_PAYLOAD_CONFIG_H

#include <stdint.h>

#include "kernel/cmdline.h"
#include "pmu/sched.h"
#include "pmu/xsu_mode.h"

#define CONFIG_EXP_MAX 256
#define CONFIG_EVENTS_MAX 256 /* an event list, ht0= / ht1= */
#define CONFIG_NAME_MAX 24    /* a workload name */

struct payload_config {
	/* Comma list of experiment names as given ("all", "none" or names; the suite checks the
	 * names), or "" when exp= was not given. */
	char exp[CONFIG_EXP_MAX];
	uint8_t xsu;	     /* the set of XSU modes to run: XSU_MODE_BIT()s */
	uint8_t sched;	     /* enum sched_algorithm */
	uint32_t mux_ms;     /* multiplexing tick, milliseconds */
	uint32_t dur_ms;     /* how long each run of an experiment measures */
	uint32_t repeat;     /* each run this many times, as perf stat -r */
	uint32_t triad_kib;  /* size of each of triad's three arrays */
	uint32_t triad_reps; /* passes over the arrays per run; 0: as many as dur_ms allows */
	uint32_t chase_kib;  /* the chase workload's working set */
	/* A run defined at boot (the experiment `custom`): each thread's event list as perf stat -e
	 * takes it ("" for none) and its workload; thread 1 starts start1_ms later. */
	char events[2][CONFIG_EVENTS_MAX];
	char work[2][CONFIG_NAME_MAX];
	uint32_t start1_ms;
	char survey_work[CONFIG_NAME_MAX]; /* the workload both threads run in the leak survey */
	uint32_t
		bench_ms; /* how long a part of a bundle of your own code may run (tests/owncode) */
	/* 1: under the model a bundle's code is traced for its counts; 0: it runs untraced, as on
	 * a real machine, and only what needs no trace is counted */
	uint8_t bench_trace;
};

/* The payload's keys over *settings (defaults: the full suite in every XSU mode each experiment
 * has, greedy, 500 ms a run, a 1 ms tick). */
void payload_config_table(struct payload_config *settings, struct cmdline_table *table);

#endif
