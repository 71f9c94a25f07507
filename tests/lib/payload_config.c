// SPDX-License-Identifier: GPL-2.0
/*
 * The payload's command-line keys (tests/lib/payload_config.h): a table of data and its defaults.
 */
#include <stddef.h>
#include <string.h>

#include "tests/lib/payload_config.h"

/* xsu=: the modes one by one, and the two sets that have names of their own. */
static const struct cmdline_choice xsu_choices[] = {
	{ XSU_MODE_NAME_OFF, XSU_MODE_BIT(XSU_MODE_OFF) },
	{ XSU_MODE_NAME_ON, XSU_MODE_BIT(XSU_MODE_ON) },
	{ XSU_MODE_NAME_CORE, XSU_MODE_BIT(XSU_MODE_CORE) },
	{ "both", XSU_MODES_BOTH },
	{ "all", XSU_MODES_ALL },
	{ NULL, 0 },
};
static const struct cmdline_choice on_off_choices[] = {
	{ "on", 1 },
	{ "off", 0 },
	{ NULL, 0 },
};
static const struct cmdline_choice sched_choices[] = {
	{ SCHED_NAME_GREEDY, SCHED_GREEDY },
	{ SCHED_NAME_HK, SCHED_HK },
	{ NULL, 0 },
};

#define FIELD(f) offsetof(struct payload_config, f)
#define EVENTS "an event list as perf stat -e takes it (no spaces)"

static const struct cmdline_key keys[] = {
	{ "exp", KEY_NAME_LIST, FIELD(exp), NULL, 0, CONFIG_EXP_MAX,
	  "all|none|experiment names (comma-separated)", true },
	{ "xsu", KEY_CHOICE_SET, FIELD(xsu), xsu_choices, 0, 0, NULL, true },
	{ "sched", KEY_CHOICE, FIELD(sched), sched_choices, 0, 0, NULL, true },
	{ "bench_ms", KEY_UINT, FIELD(bench_ms), NULL, 1, 600000, "an integer from 1 to 600000",
	  true },
	{ "bench_trace", KEY_CHOICE, FIELD(bench_trace), on_off_choices, 0, 0, NULL, true },
	{ "mux_ms", KEY_UINT, FIELD(mux_ms), NULL, 1, 1000, "an integer from 1 to 1000", true },
	{ "dur_ms", KEY_UINT, FIELD(dur_ms), NULL, 10, 600000, "an integer from 10 to 600000",
	  true },
	{ "repeat", KEY_UINT, FIELD(repeat), NULL, 1, 100, "an integer from 1 to 100", true },
	{ "ht0", KEY_TEXT, FIELD(events[0]), NULL, 0, CONFIG_EVENTS_MAX, EVENTS, true },
	{ "work0", KEY_NAME, FIELD(work[0]), NULL, 0, CONFIG_NAME_MAX, "a workload name", true },
	{ "ht1", KEY_TEXT, FIELD(events[1]), NULL, 0, CONFIG_EVENTS_MAX, EVENTS, true },
	{ "work1", KEY_NAME, FIELD(work[1]), NULL, 0, CONFIG_NAME_MAX, "a workload name", true },
	{ "start1_ms", KEY_UINT, FIELD(start1_ms), NULL, 0, 60000, "an integer from 0 to 60000",
	  true },
	{ "triad_kib", KEY_UINT, FIELD(triad_kib), NULL, 16, 262144,
	  "an integer from 16 to 262144 (KiB per array)", false },
	{ "triad_reps", KEY_UINT, FIELD(triad_reps), NULL, 0, 1000000,
	  "an integer from 0 (until dur_ms) to 1000000", false },
	{ "chase_kib", KEY_UINT, FIELD(chase_kib), NULL, 4, 262144,
	  "an integer from 4 to 262144 (KiB per thread)", false },
	{ "survey_work", KEY_NAME, FIELD(survey_work), NULL, 0, CONFIG_NAME_MAX, "a workload name",
	  false },
};

static void defaults(void *settings)
{
	struct payload_config *cfg = settings;

	memset(cfg, 0, sizeof(*cfg));
	cfg->xsu = XSU_MODES_ALL; /* each experiment runs the modes it has */
	cfg->sched = SCHED_GREEDY;
	cfg->mux_ms = 1;
	cfg->bench_ms = 2000;
	cfg->bench_trace = 1;
	cfg->dur_ms = 500;
	cfg->repeat = 1;
	cfg->triad_kib = 4096; /* 3 x 4 MiB: larger than L2 and than the L3 of client parts */
	cfg->triad_reps = 0;
	cfg->chase_kib = 16384; /* 16 MiB: larger than the L3 of client parts: every load misses */
	memcpy(cfg->work[0], "triad", 6);
	memcpy(cfg->work[1], "triad", 6);
	memcpy(cfg->survey_work, "triad", 6);
}

void payload_config_table(struct payload_config *settings, struct cmdline_table *table)
{
	*table = (struct cmdline_table){ keys, sizeof(keys) / sizeof(keys[0]), settings, defaults,
					 NULL };
}
