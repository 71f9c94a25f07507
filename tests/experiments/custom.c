// SPDX-License-Identifier: GPL-2.0
/*
 * The experiment `custom`, built from the command line.
 */
#include <string.h>

#include "kernel/format.h"
#include "kernel/record_stream.h"
#include "pmu/event_parse.h"
#include "pmu/sched.h"
#include "pmu/uarch_constraint.h"
#include "tests/experiments/custom.h"
#include "tests/experiments/rule.h"
#include "tests/workloads/workloads.h"

static const char *const events_key[2] = { "ht0", "ht1" };
static const char *const work_key[2] = { "work0", "work1" };

#define EVENTS_ACCEPTED                                                                            \
	"event names (branches, MEM_UOPS_RETIRED.ALL_LOADS), raw codes (r81d0), "                  \
	"cpu/event=0xd0,umask=0x81/, {groups}, modifiers :u :k :D"

/* The length of the item at text: up to the first comma outside braces. */
static size_t item_length(const char *text)
{
	unsigned depth = 0;
	size_t i = 0;

	for (; text[i] && (text[i] != ',' || depth); i++) {
		if (text[i] == '{')
			depth++;
		else if (text[i] == '}' && depth)
			depth--;
	}
	return i;
}

/* Whether the n events of one item (a group) can ever be on the counters together. */
static bool group_fits(const struct pmu_event *events, unsigned n, const struct uarch *u,
		       const struct pmu_geometry *geo)
{
	uint64_t masks[EXP_MAX_EVENTS];
	int8_t assign[EXP_MAX_EVENTS];

	if (n > geo->gp + geo->fixed)
		return false;
	for (unsigned i = 0; i < n; i++)
		masks[i] = uarch_constraint(u, &events[i], geo->gp, geo->fixed).mask;
	return hk_assign(masks, n, geo->gp, assign) == 0;
}

static void warn_item(unsigned t, const char *item, const char *why)
{
	char message[CONFIG_EVENTS_MAX + 200];

	format_snprintf(message, sizeof(message), "%s=...%s...: %s; counting without it",
			events_key[t], item, why);
	record_warn("cmdline", events_key[t], item, EVENTS_ACCEPTED, NULL, message);
}

/* One item of thread t's list: appended to out when it parses and fits, else a warning. */
static void take_item(unsigned t, const char *item, const struct uarch *u,
		      const struct pmu_geometry *geo, char *out, unsigned *total)
{
	struct pmu_event events[EXP_MAX_EVENTS];
	struct event_parse_error error;
	int n = event_parse_list(item, u, events, EXP_MAX_EVENTS, &error);

	const char *why = NULL;
	for (int i = 0; i < n && !why; i++)
		pmu_event_supported(geo, &events[i], &why);
	if (n < 0) {
		warn_item(t, item, error.message);
	} else if (why) {
		warn_item(t, item, why);
	} else if (!group_fits(events, (unsigned)n, u, geo)) {
		char why[96];
		format_snprintf(why, sizeof(why),
				"%d events that can never be on the %u GP and %u fixed counters "
				"together",
				n, geo->gp, geo->fixed);
		warn_item(t, item, why);
	} else if (*total + (unsigned)n > EXP_MAX_EVENTS) {
		warn_item(t, item, "more events than a thread's list holds");
	} else {
		size_t len = strlen(out);
		format_snprintf(out + len, CONFIG_EVENTS_MAX - len, "%s%s", len ? "," : "", item);
		*total += (unsigned)n;
	}
}

static void clean_list(unsigned t, const char *list, const struct uarch *u,
		       const struct pmu_geometry *geo, char *out)
{
	unsigned total = 0;

	out[0] = 0;
	for (const char *p = list; *p;) {
		size_t len = item_length(p);
		char item[CONFIG_EVENTS_MAX];
		memcpy(item, p, len);
		item[len] = 0;
		if (len)
			take_item(t, item, u, geo, out, &total);
		p += len + (p[len] == ',');
	}
}

static const char *workload_of(unsigned t, const char *name)
{
	const struct workload *w = workload_by_name(name);
	char accepted[128], message[256];

	if (w && !w->internal)
		return w->name;
	workload_names_text(accepted, sizeof(accepted));
	format_snprintf(message, sizeof(message),
			"%s=%s: no such workload (accepted: %s); running triad", work_key[t], name,
			accepted);
	record_warn("cmdline", work_key[t], name, accepted, "triad", message);
	return "triad";
}

bool custom_build(const struct payload_config *config, const struct uarch *u,
		  const struct pmu_geometry *geometry, struct custom_run *out)
{
	struct experiment *e = &out->exp;

	memset(e, 0, sizeof(*e));
	for (unsigned t = 0; t < 2; t++) {
		clean_list(t, config->events[t], u, geometry, out->events[t]);
		out->workload[t] = workload_of(t, config->work[t]);
	}
	if (!out->events[0][0] && !out->events[1][0]) {
		record_warn("cmdline", "ht0", config->events[0], EVENTS_ACCEPTED, NULL,
			    "the run defined on the command line has no event to count on either "
			    "thread (ht0= and ht1=): it does not run");
		return false;
	}
	e->name = "custom";
	e->title = "A run defined on the command line";
	e->section = "-";
	e->rule = &rule_measured;
	e->checked = "";
	for (unsigned mode = 0; mode < XSU_MODE_COUNT && e->nr_runs < EXP_MAX_RUNS; mode++) {
		struct exp_run *run = &e->runs[e->nr_runs++];
		run->phase = PHASE_MEASURE;
		run->xsu = (uint8_t)mode;
		for (unsigned t = 0; t < 2; t++) {
			run->thread[t].events = out->events[t];
			run->thread[t].workload = out->workload[t];
		}
		run->thread[1].offset_ms = config->start1_ms;
	}
	return true;
}
