// SPDX-License-Identifier: GPL-2.0
/*
 * What the leak survey measures (tests/experiments/survey.h): its events and how many
 * measurements they make. Pure: host-tested, and counted for the docs (tests/style/doc_facts.c).
 */
#include "pmu/event_table.h"
#include "tests/experiments/survey.h"

/*
 * The controls: events every busy workload produces in numbers and that the erratum does not
 * concern (branches, instructions and cycles on a GP counter, taken branches).
 */
static const uint16_t survey_controls[] = { 0x00c4, 0x00c0, 0x003c, 0x20c4 };

/* The thesis's four corrupting events, for a microarchitecture without a table of names. */
static const uint16_t survey_fallback[] = { 0x81d0, 0x08d1, 0x10d1, 0x01d1 };

static bool listed(const struct survey_event *list, unsigned n, uint16_t code)
{
	for (unsigned i = 0; i < n; i++)
		if (list[i].code == code)
			return true;
	return false;
}

static void add(struct survey_event *list, unsigned *n, uint16_t code, bool control)
{
	if (*n < SURVEY_MAX_EVENTS && !listed(list, *n, code))
		list[(*n)++] = (struct survey_event){ code, control };
}

unsigned survey_events(const struct uarch *u, struct survey_event *list)
{
	struct event_iter it;
	struct event_info info;
	unsigned n = 0;

	for (event_iter_start(&it, u); event_iter_next(&it, &info);)
		if (info.event >= 0xd0 && info.event <= 0xd3 && info.msr == INTEL_MSR_NONE &&
		    !info.cmask && !info.inv && !info.edge && !info.any)
			add(list, &n, (uint16_t)(info.umask << 8 | info.event), false);
	for (unsigned i = 0; !n && i < sizeof(survey_fallback) / sizeof(survey_fallback[0]); i++)
		add(list, &n, survey_fallback[i], false);
	for (unsigned i = 0; i < sizeof(survey_controls) / sizeof(survey_controls[0]); i++)
		add(list, &n, survey_controls[i], true);
	return n;
}

unsigned survey_measurements(const struct survey_event *list, unsigned n)
{
	unsigned measurements = 0;

	for (unsigned i = 0; i < n; i++)
		measurements += list[i].control ? SURVEY_INDICES + 1 : SURVEY_POINTS_PER_EVENT;
	return measurements;
}
