// SPDX-License-Identifier: GPL-2.0
/*
 * The payload's keys checked against the machine (tests/payload_check.h).
 */
#include <string.h>

#include "kernel/lib/format.h"
#include "pmu/event_parse.h"
#include "pmu/sched.h"
#include "pmu/uarch_constraint.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/rule.h"
#include "tests/payload_check.h"

/* Warnings as they are made, into an array of room max. */
struct warnings {
	struct cmdline_warning *at;
	unsigned max, count;
};

static struct cmdline_warning *next_warning(struct warnings *w)
{
	static struct cmdline_warning spare;
	struct cmdline_warning *one = w->count < w->max ? &w->at[w->count] : &spare;

	w->count++;
	memset(one, 0, sizeof(*one));
	return one;
}

static void warn(struct warnings *w, const char *key, const char *value, const char *accepted,
		 const char *used, const char *message)
{
	struct cmdline_warning *one = next_warning(w);

	format_snprintf(one->key, sizeof(one->key), "%s", key);
	format_snprintf(one->value, sizeof(one->value), "%s", value);
	format_snprintf(one->accepted, sizeof(one->accepted), "%s", accepted);
	format_snprintf(one->used, sizeof(one->used), "%s", used ? used : "");
	format_snprintf(one->message, sizeof(one->message), "%s", message);
}

size_t payload_list_part(const char *text)
{
	unsigned depth = 0;
	size_t i = 0;

	while (text[i] && (text[i] != ',' || depth)) {
		if (!strncmp(text + i, "cpu/", 4)) {
			/* perf's term list: its commas are the event's own */
			const char *close = strchr(text + i + 4, '/');
			i = close ? (size_t)(close - text) + 1 : strlen(text);
			continue;
		}
		if (text[i] == '{')
			depth++;
		else if (text[i] == '}' && depth)
			depth--;
		i++;
	}
	return i;
}

/* Whether the n events of one part (a group) can ever be on the counters together. */
static bool group_fits(const struct pmu_event *events, unsigned n, const struct payload_machine *m)
{
	uint64_t masks[EXP_MAX_EVENTS];
	int8_t assign[EXP_MAX_EVENTS];
	const struct pmu_geometry *g = m->geometry;

	if (n > g->gp + g->fixed)
		return false;
	for (unsigned i = 0; i < n; i++)
		masks[i] = uarch_constraint(m->uarch, &events[i], g->gp, g->fixed).mask;
	return hk_assign(masks, n, g->gp, assign) == 0;
}

/* Why part (its n events, parsed) cannot be counted, into why; NULL: it can. */
static const char *refusal(const struct pmu_event *events, unsigned n, unsigned total,
			   const struct payload_machine *m, char *why, size_t size)
{
	const char *unsupported = NULL;

	for (unsigned i = 0; i < n && !unsupported; i++)
		pmu_event_supported(m->geometry, &events[i], &unsupported);
	if (unsupported)
		return unsupported;
	if (!group_fits(events, n, m)) {
		format_snprintf(why, size,
				"%u events that can never be on the %u GP and %u fixed counters "
				"together",
				n, m->geometry->gp, m->geometry->fixed);
		return why;
	}
	if (total + n > EXP_MAX_EVENTS)
		return "more events than a thread's list holds";
	return NULL;
}

static void warn_part(struct warnings *w, const char *key, const char *part, const char *why,
		      const char *after)
{
	char message[CMDLINE_ACCEPTED_MAX + 128];

	format_snprintf(message, sizeof(message), "%s=...%s...: %s; %s", key, part, why, after);
	warn(w, key, part, PAYLOAD_EVENTS_ACCEPTED, NULL, message);
}

/* One part of a list: appended to out when it is taken, else named in a warning. */
static void take_part(struct warnings *w, const char *key, const char *part,
		      const struct payload_machine *m, char *out, unsigned *total)
{
	struct pmu_event events[EXP_MAX_EVENTS];
	struct event_parse_error error;
	char why_buf[96];
	unsigned n;
	const char *why = event_parse_list(part, m->uarch, events, EXP_MAX_EVENTS, &n, &error)
				  ? refusal(events, n, *total, m, why_buf, sizeof(why_buf))
				  : error.message;

	if (why) {
		warn_part(w, key, part, why, "counting without it");
		return;
	}
	for (unsigned i = 0; i < n; i++)
		if (events[i].precise) {
			warn_part(w, key, part, "precise sampling (:p) does not apply to counting",
				  "counted as perf stat counts it, without it");
			break;
		}
	size_t len = strlen(out);
	format_snprintf(out + len, CONFIG_EVENTS_MAX - len, "%s%s", len ? "," : "", part);
	*total += n;
}

/* Thread t's list, part by part: what is taken stays, the rest is warned about. */
static void check_list(struct warnings *w, struct payload_config *config, unsigned t,
		       const struct payload_machine *m)
{
	static const char *const keys[2] = { "ht0", "ht1" };
	char taken[CONFIG_EVENTS_MAX], part[CONFIG_EVENTS_MAX];
	unsigned total = 0;

	taken[0] = 0;
	for (const char *p = config->events[t]; *p;) {
		size_t len = payload_list_part(p);
		memcpy(part, p, len);
		part[len] = 0;
		if (len)
			take_part(w, keys[t], part, m, taken, &total);
		else
			warn_part(w, keys[t], "", "an empty part (two commas, or one at an end)",
				  "ignored");
		p += len + (p[len] == ',');
	}
	memcpy(config->events[t], taken, sizeof(taken));
}

static bool listed(const char *const *names, const char *name)
{
	for (; *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

/* names joined with '|', after prefix, into buf. */
static const char *names_text(const char *prefix, const char *const *names, char *buf, size_t size)
{
	size_t len = (size_t)format_snprintf(buf, size, "%s", prefix);

	for (; *names && len < size; names++)
		len += (size_t)format_snprintf(buf + len, size - len, "%s%s", len ? "|" : "",
					       *names);
	return buf;
}

/* A workload key: a name of the library, or triad with a warning. */
static void check_workload(struct warnings *w, const char *key, char *name,
			   const struct payload_machine *m)
{
	char accepted[CMDLINE_ACCEPTED_MAX], message[CMDLINE_ACCEPTED_MAX + 128];

	if (listed(m->workloads, name))
		return;
	names_text("", m->workloads, accepted, sizeof(accepted));
	format_snprintf(message, sizeof(message),
			"%s=%s: no such workload (accepted: %s); running triad", key, name,
			accepted);
	warn(w, key, name, accepted, "triad", message);
	memcpy(name, "triad", 6);
}

/* One name of exp=: known, or a reason in message. */
static bool exp_name_known(const char *name, size_t len, const struct payload_machine *m)
{
	static const char *const own[] = { "all", "none", "custom", NULL };
	char word[CONFIG_EXP_MAX];

	memcpy(word, name, len);
	word[len] = 0;
	return listed(own, word) || listed(m->experiments, word);
}

/* exp=: names the payload knows, none alone; otherwise a warning and all. */
static void check_selection(struct warnings *w, struct payload_config *config,
			    const struct payload_machine *m)
{
	char accepted[CMDLINE_ACCEPTED_MAX], message[CMDLINE_ACCEPTED_MAX + 128];
	char why[CONFIG_EXP_MAX + 64] = "";
	bool none = false, other = false;

	for (const char *p = config->exp; *p && !why[0];) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool is_none = len == 4 && !strncmp(p, "none", 4);

		if (!exp_name_known(p, len, m))
			format_snprintf(why, sizeof(why), "unknown experiment '%.*s'", (int)len, p);
		none = none || is_none;
		other = other || !is_none;
		p = end ? end + 1 : p + len;
	}
	if (!why[0] && none && other)
		format_snprintf(why, sizeof(why), "'none' contradicts the other names");
	if (!why[0])
		return;
	names_text("all|none|custom", m->experiments, accepted, sizeof(accepted));
	format_snprintf(message, sizeof(message),
			"exp=%s: %s (accepted: %s, comma-separated); running all", config->exp, why,
			accepted);
	warn(w, "exp", config->exp, accepted, "all", message);
	memcpy(config->exp, "all", 4);
}

/* A run defined on the command line that asks for nothing it can count. */
static void check_custom(struct warnings *w, const struct payload_config *config, bool given)
{
	if (!given || config->events[0][0] || config->events[1][0])
		return;
	warn(w, "ht0", config->events[0], PAYLOAD_EVENTS_ACCEPTED, NULL,
	     "the run defined on the command line has no event to count on either thread (ht0= "
	     "and ht1=): it does not run");
}

/* A tick too long for the runs: their verdicts will have too little to judge. */
static void check_tick(struct warnings *w, const struct payload_config *config)
{
	char value[16], accepted[96], message[CMDLINE_ACCEPTED_MAX];

	if ((uint64_t)config->mux_ms * threshold_of(TH_TICKS) <= config->dur_ms)
		return;
	format_snprintf(value, sizeof(value), "%u", config->mux_ms);
	format_snprintf(accepted, sizeof(accepted),
			"at most dur_ms / %u (%u) for runs a verdict can judge",
			threshold_of(TH_TICKS), config->dur_ms / threshold_of(TH_TICKS));
	format_snprintf(message, sizeof(message),
			"mux_ms=%u with dur_ms=%u: a run ticks %u times, fewer than the %u its "
			"verdicts need: the runs are measured and their verdicts skipped "
			"(too_little_data)",
			config->mux_ms, config->dur_ms, config->dur_ms / config->mux_ms,
			threshold_of(TH_TICKS));
	warn(w, "mux_ms", value, accepted, value, message);
}

unsigned payload_check(struct payload_config *config, const struct payload_machine *m,
		       struct cmdline_warning *warnings, unsigned max)
{
	struct warnings w = { warnings, max, 0 };
	bool custom = config->events[0][0] || config->events[1][0] ||
		      exp_list_contains(config->exp, "custom");

	check_selection(&w, config, m);
	for (unsigned t = 0; t < 2; t++) {
		check_list(&w, config, t, m);
		check_workload(&w, t ? "work1" : "work0", config->work[t], m);
	}
	check_workload(&w, "survey_work", config->survey_work, m);
	check_custom(&w, config, custom);
	check_tick(&w, config);
	return w.count;
}
