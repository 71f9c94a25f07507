/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The experiments, as data: what each sibling counts, which workload it runs, when it starts, in
 * which XSU mode, and the rule its verdict follows. The table of the thesis's experiments is
 * experiments.c; a run defined on the command line becomes the experiment `custom` (custom.c);
 * the leak survey (survey.c) makes its runs itself. The runner (runner.c) measures, the rules
 * (verdict.c) judge, the suite (suite.c) runs the selection. What they print is docs/records.md.
 */
#ifndef TESTS_EXPERIMENTS_EXPERIMENT_H
#define TESTS_EXPERIMENTS_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "tests/lib/payload_config.h"
#include "pmu/driver.h"
#include "pmu/event.h"
#include "pmu/mux.h"

#define EXP_MAX_RUNS 12
#define EXP_MAX_EVENTS MUX_MAX_EVENTS

/* What a run is for (the `phase` of docs/records.md). */
enum exp_phase {
	PHASE_MEASURE,	/* judged by the verdict of its XSU mode */
	PHASE_BASELINE, /* reference counts of the non-corrupting events, no corrupting event */
	PHASE_ALONE,	/* one thread measures, the sibling's counters unused (thesis ch. 8) */
	PHASE_LIMIT,	/* a measured run whose point is the limit (exp_run.limit) */
	PHASE_COUNT
};

struct exp_thread {
	const char *events;   /* as perf stat -e takes them; "" for a thread that only runs its
			       * workload */
	const char *workload; /* a name of tests/workloads/workloads.c */
	uint32_t offset_ms;   /* start this long after the common start */
	uint8_t counters;     /* nonzero: the GP counters (a bit each) every event of this thread
			       * must use, instead of its static constraint (the leak survey) */
	uint8_t held;	      /* GP counters (a bit each) programmed but never started, their
			       * IA32_PERF_GLOBAL_CTRL bits clear (the leak survey) */
};

struct exp_run {
	uint8_t phase;	/* enum exp_phase */
	uint8_t xsu;	/* enum xsu_mode (pmu/xsu_mode.h) */
	bool own_sched; /* the run uses sched, not sched= from the command line */
	uint8_t sched;	/* enum sched_algorithm (pmu/sched.h), when own_sched */
	bool limit;	/* Linux 4.1-rc7's half-of-the-GP-counters limit (with XSU on) */
	struct exp_thread thread[2];
	const char *label; /* which lists, where an experiment has several: "ch7-three-events" */
};

/* A reference run (baseline, alone) runs whenever the experiment runs, whatever xsu= selects. */
static inline bool exp_run_is_reference(const struct exp_run *run)
{
	return run->phase == PHASE_BASELINE || run->phase == PHASE_ALONE;
}

struct suite;
struct exp_rule;

struct experiment {
	const char *name;	     /* exp= name, e.g. "ch7-three-events" */
	const char *title;	     /* one line, after the thesis */
	const char *section;	     /* the thesis section it reproduces */
	const struct exp_rule *rule; /* how its runs are judged (rule.h) */
	const char *checked;	     /* the events the rule compares, as written in the lists */
	/* rule_hk_vs_greedy: the microarchitectures (uarch names, comma-separated) on which
	 * greedy loses these lists under XSU (tools/schedsim replays them). */
	const char *hk_wins_on;
	/* A note for the exp record: what this experiment does differently on this machine. */
	const char *note;
	bool on_request; /* runs only when exp= names it, not with exp=all (it takes long) */
	bool policies;	 /* its runs differ by scheduling policy: records carry `policy` */
	uint8_t nr_runs;
	struct exp_run runs[EXP_MAX_RUNS];
	/* An experiment that makes its runs itself (the leak survey); NULL: the runs above. */
	void (*measure)(const struct experiment *e, struct suite *suite);
};

/* The thesis's experiments (experiments.c), and those that make their own runs: the leak
 * survey (survey.c). */
extern const struct experiment experiments[];
extern const unsigned experiment_count;
extern const struct experiment survey_experiment;

/* Whether the comma-separated list (an `exp=` selection, a `checked` list) holds name exactly. */
bool exp_list_contains(const char *list, const char *name);
/* What exp= runs (its names checked at boot, tests/payload_check.h): the list given; when none
 * was, "custom" when a run is defined on the command line (ht0=, ht1=), "all" otherwise. */
const char *exp_selection(const struct payload_config *config);
/* Whether the selection (exp_selection()) runs e: named, or "all" and e not on request. */
bool exp_selected(const char *selection, const struct experiment *e);
/* Whether a run of a selected experiment runs when xsu= selects the modes xsu_modes
 * (XSU_MODE_BIT()s): a run of a selected mode, or a reference run. */
bool exp_run_selected(const struct exp_run *run, unsigned xsu_modes);
/* Whether a run is one the verdict of XSU mode `mode` judges (reference runs serve every mode). */
bool exp_run_in_mode(const struct exp_run *run, unsigned mode);
/* Whether the experiment has a run that XSU mode `mode` judges: then that mode has a verdict. */
bool exp_has_mode(const struct experiment *e, unsigned mode);
/* A run's scheduling policy: "off", "on-greedy", "on-hk", "on-limit" or "core" (hk: whether the
 * run's scheduler, its own or sched='s, is Hopcroft-Karp). */
const char *exp_run_policy(const struct exp_run *run, bool hk);

/* ---- results -------------------------------------------------------------------------------- */

struct exp_count {
	struct pmu_event event; /* event.name: as the list wrote it */
	struct mux_reading reading;
	int8_t last_counter;
	bool corrupting; /* the microarchitecture's table marks it (uarch_event_corrupting) */
	bool interfered; /* its counter went down without an overflow: written behind our back */
	uint64_t leak;	 /* xsu=core: what the sibling's leak catcher caught and gave back (raw) */
	/* The model measured: the truth, what the thread's workload did of this event over the run
	 * (its ledger's units times its profile's rate, pmu/model.h model_truth()), not scaled: a
	 * scaled count estimates it. */
	bool has_true;
	uint64_t truth;
	bool has_baseline;
	uint64_t baseline; /* for this run's work: a reference rate times this run's units */
	uint64_t tolerance;
};

struct exp_thread_result {
	unsigned nr_events;
	struct exp_count counts[EXP_MAX_EVENTS];
	uint64_t units; /* the workload's units of work */
	/* How unevenly it worked: of its multiplexed counts, the largest gap between its work
	 * sampled as the count was and the work it did (pmu/mux.h's work clock), in hundredths of
	 * a percent of that work; 0 when nothing was multiplexed. */
	uint64_t pace_centi;
	uint64_t ticks;
	/* The tick handler's own cost (TSC cycles) and punctuality (kernel/tick_stats.h). */
	uint64_t tick_tsc_mean, tick_tsc_max, ticks_late, ticks_lost;
	uint64_t tick_tsc_total; /* every call of the handler, raised ticks included */
	uint64_t tick_slowed;	 /* times its tick was slowed down, the handler longer than it */
	/* Its PMU register writes and reads (RDMSR, RDPMC) per tick, in hundredths, from its first
	 * schedule in force to its last tick (pmu/thread_counters.h); 0 without a tick. */
	uint64_t writes_per_tick_centi, reads_per_tick_centi;
	uint64_t exposure; /* the model's exposed ticks on this thread */
	uint64_t invariant_violations;
	/* Registers its driver found written behind the kernel's back (a counter that went down,
	 * a control register read back different: pmu/driver.h), and the first of them. */
	uint64_t interferences;
	struct pmu_drv_interference interference;
};

struct exp_run_result {
	const struct exp_run *run;
	bool done;	      /* it ran to its end */
	const char *error;    /* why it did not */
	char error_text[200]; /* where error points when the runner wrote the words */
	bool unsupported;     /* because this PMU cannot count one of its events */
	uint64_t elapsed_tsc;
	uint64_t skew_tsc;
	unsigned overlap_pct; /* how much of the run the siblings counted side by side (runner.c) */
	uint64_t joint_unanswered; /* xsu=core: handovers still waiting for thread 1 at the end */
	uint64_t joint_retries;	   /* xsu=core: handover IPIs sent again (one per such tick) */
	uint64_t joint_send_failures; /* xsu=core: raised ticks whose IPI stayed pending */
	uint64_t handovers;	      /* xsu=core: joint schedules handed over to both threads */
	unsigned joint_gap_per_mille; /* xsu=core: of the run, one thread stopped for a change */
	bool smi_known;		      /* MSR_SMI_COUNT could be read at the start and the end */
	uint64_t smi_count;	      /* SMIs during the run */
	struct exp_thread_result thread[2];
};

/* Everything measured for one repetition of an experiment, in the order of its runs. */
struct exp_results {
	const struct experiment *exp;
	unsigned rep;
	struct exp_run_result runs[EXP_MAX_RUNS];
};

/* A verdict: pass, fail or skip, with the figures that decided it. */
enum exp_result_kind { RESULT_PASS, RESULT_FAIL, RESULT_SKIP };

struct exp_verdict {
	uint8_t result;	  /* enum exp_result_kind */
	const char *skip; /* skip code: "no_smt", "no_erratum", ... */
	char reason[384]; /* the longest: xsu-fairness core, its threshold and repetitions named */
	uint64_t exposure;
	unsigned checked, corrupted;
};

#endif
