/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The erratum experiments of the thesis (chapters 4, 7 and 8), as data: what each sibling
 * counts, which workload it runs, when it starts, and the rule its verdict follows. The runner
 * (runner.c) measures, the rules (verdict.c) judge, the suite (suite.c) runs the selection.
 * The record schema of what they print is docs/records.md.
 */
#ifndef TESTS_EXPERIMENTS_EXPERIMENT_H
#define TESTS_EXPERIMENTS_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/event.h"
#include "pmu/mux.h"

#define EXP_MAX_RUNS 4
#define EXP_MAX_EVENTS 16

enum exp_workload {
	WORKLOAD_TRIAD, /* c[i] = a[i] + k * b[i], the thesis's workload */
	WORKLOAD_IDLE,	/* PAUSE: the sibling does nothing measurable */
};

/* What a run is for (the `phase` of docs/records.md). */
enum exp_phase {
	PHASE_MEASURE,	/* judged by the verdict of its XSU mode */
	PHASE_BASELINE, /* reference counts of the non-corrupting events, no corrupting event */
	PHASE_ALONE,	/* one thread measures, the sibling's counters unused (thesis ch. 8) */
	PHASE_LIMIT,	/* a measured run whose point is the limit (exp_run.limit) */
};

/* Which scheduler a run uses. */
enum exp_sched {
	EXP_SCHED_CONFIG, /* sched= from the command line */
	EXP_SCHED_GREEDY,
	EXP_SCHED_HK,
};

/* How an experiment's verdict is decided (verdict.c). */
enum exp_rule {
	/* The checked non-corrupting events against the baseline run, per unit of work: XSU off
	 * shows them corrupted where the CPU has the erratum, XSU on keeps them within tolerance. */
	RULE_BASELINE,
	/* The checked events must count zero (LBR inserts, the LBR being off): XSU off shows them
	 * non-zero where the CPU has the erratum, XSU on keeps them at exactly zero. */
	RULE_ZERO,
	/* Identical lists started together: zero even with XSU off (thesis 7.1). */
	RULE_ALIGNED,
	/* Corrupting events lose counts into an unused sibling counter (measured alone), compensate
	 * when both siblings count them on the same counters (XSU off), and lose them again with
	 * XSU on (thesis ch. 8): XSU neither causes nor prevents the loss. The first checked event
	 * decides; every checked event gets the rate alone as its baseline. */
	RULE_LOSS,
	/* Four corrupting events on one thread leave the sibling's event (the first checked one)
	 * <not counted> with XSU on (thesis ch. 8); the half-of-the-counters limit gives it
	 * counters again. */
	RULE_STARVATION,
	/* Under XSU, Hopcroft-Karp lets more run than greedy where the microarchitecture's
	 * constraints make greedy lose the lists (experiment.hk_wins_on), and never less. */
	RULE_HK_VS_GREEDY,
};

struct exp_thread {
	const char *events; /* as perf stat -e takes them; "" for a thread that only runs its
			     * workload */
	uint8_t workload;   /* enum exp_workload */
	uint16_t offset_ms; /* start this long after the common start */
};

struct exp_run {
	uint8_t phase; /* enum exp_phase */
	bool xsu;      /* the XSU protocol on for this run */
	uint8_t sched; /* enum exp_sched */
	struct exp_thread thread[2];
	bool limit; /* Linux 4.1-rc7's half-of-the-GP-counters limit (with XSU on) */
};

/* A reference run (baseline, alone) runs whenever the experiment runs, whatever xsu= selects. */
static inline bool exp_run_is_reference(const struct exp_run *run)
{
	return run->phase == PHASE_BASELINE || run->phase == PHASE_ALONE;
}

struct experiment {
	const char *name;    /* exp= name, e.g. "ch7-three-events" */
	const char *title;   /* one line, after the thesis */
	const char *section; /* the thesis section it reproduces */
	const char *rule_text;
	uint8_t rule;	     /* enum exp_rule */
	const char *checked; /* the events the rule compares, as written in the lists */
	/* RULE_HK_VS_GREEDY: the microarchitectures (uarch names, comma-separated) on which
	 * greedy loses these lists under XSU (tools/schedsim replays them). */
	const char *hk_wins_on;
	uint8_t nr_runs;
	struct exp_run runs[EXP_MAX_RUNS];
};

extern const struct experiment experiments[];
extern const unsigned experiment_count;
/* Their names, NULL-terminated (built from the table): what `exp=` accepts besides all, none. */
const char *const *experiment_names(void);

/* Whether the comma-separated list (an `exp=` selection, a `checked` list) holds name exactly. */
bool exp_list_contains(const char *list, const char *name);
/* Whether a run is one the verdict of XSU mode xsu_on judges (reference runs serve every mode). */
bool exp_run_in_mode(const struct exp_run *run, bool xsu_on);
/* Whether the experiment has a run that XSU mode xsu_on judges: then that mode has a verdict. */
bool exp_has_mode(const struct experiment *e, bool xsu_on);

/* ---- results -------------------------------------------------------------------------------- */

struct exp_count {
	struct pmu_event event; /* event.name: as the list wrote it */
	struct mux_reading reading;
	int8_t last_counter;
	bool corrupting; /* the microarchitecture's table marks it (uarch_event_corrupting) */
	bool has_baseline;
	uint64_t baseline; /* for this run's work: a reference rate times this run's units */
	uint64_t tolerance;
};

struct exp_thread_result {
	unsigned nr_events;
	struct exp_count counts[EXP_MAX_EVENTS];
	uint64_t units; /* the workload's units of work */
	uint64_t ticks;
	uint64_t exposure; /* the model's exposed ticks on this thread */
	uint64_t invariant_violations;
};

struct exp_run_result {
	const struct exp_run *run;
	bool done;	   /* it ran to its end */
	const char *error; /* why it did not */
	uint64_t elapsed_tsc;
	uint64_t skew_tsc;
	struct exp_thread_result thread[2];
};

/* Everything measured for one experiment, in the order of its runs. */
struct exp_results {
	const struct experiment *exp;
	struct exp_run_result runs[EXP_MAX_RUNS];
};

/* A verdict: pass, fail or skip, with the figures that decided it. */
enum exp_result_kind { RESULT_PASS, RESULT_FAIL, RESULT_SKIP };

struct exp_verdict {
	uint8_t result;	  /* enum exp_result_kind */
	const char *skip; /* skip code: "no_smt", "no_erratum", ... */
	char reason[256];
	uint64_t exposure;
	unsigned checked, corrupted;
};

#endif
