// SPDX-License-Identifier: GPL-2.0
/*
 * The passes of a bundle (tests/owncode/passes.h).
 */
#include <string.h>

#include "tests/owncode/passes.h"

/* One pass in the making: the counters each thread uses, and those kept from it. */
struct pass_state {
	uint8_t used[2];
	uint8_t corrupting[2]; /* counters of a thread that count a corrupting event */
	bool alone[2];	       /* a thread holds its TakenAlone event: nothing else of it */
	unsigned placed[2];
};

static bool place(const struct bench_pass_input *in, struct pass_state *s, unsigned t,
		  const struct bench_pass_event *e, int8_t *counter)
{
	uint8_t all = (uint8_t)((1u << in->gp) - 1);
	uint8_t free = e->mask & all & (uint8_t)~s->used[t];

	if (s->alone[t] || (e->alone && s->placed[t]))
		return false;
	if (in->xsu != BUNDLE_XSU_OFF) {
		/* The sibling's corrupting events' counters are theirs alone, and a corrupting
		 * event needs the sibling's counter of its index unused. */
		free &= (uint8_t)~s->corrupting[t ^ 1];
		if (e->corrupting)
			free &= (uint8_t)~s->used[t ^ 1];
	}
	if (!free)
		return false;
	unsigned c = 0;
	while (!(free & (1u << c)))
		c++;
	s->used[t] |= (uint8_t)(1u << c);
	if (e->corrupting)
		s->corrupting[t] |= (uint8_t)(1u << c);
	s->alone[t] = e->alone;
	s->placed[t]++;
	*counter = (int8_t)c;
	return true;
}

/* One pass: returns how many events it placed. */
static unsigned plan_pass(const struct bench_pass_input *in, struct bench_pass_plan *out,
			  unsigned p)
{
	struct pass_state s;
	unsigned placed = 0;

	memset(&s, 0, sizeof(s));
	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = 0; i < in->n[t]; i++) {
			if (out->pass[t][i] >= 0 ||
			    !place(in, &s, t, &in->event[t][i], &out->counter[t][i]))
				continue;
			out->pass[t][i] = (int16_t)p;
			placed++;
		}
	if (in->xsu != BUNDLE_XSU_OFF)
		for (unsigned t = 0; t < 2; t++)
			out->catchers[p][t ^ 1] = s.corrupting[t];
	return placed;
}

void bench_passes_plan(const struct bench_pass_input *in, struct bench_pass_plan *out)
{
	unsigned left = in->n[0] + in->n[1];

	memset(out, 0, sizeof(*out));
	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = 0; i < BUNDLE_MAX_EVENTS; i++) {
			out->pass[t][i] = -1;
			out->counter[t][i] = -1;
		}
	while (left && out->passes < BENCH_MAX_PASSES) {
		unsigned placed = plan_pass(in, out, out->passes);
		if (!placed)
			break; /* what is left fits no pass: its counters do not exist */
		out->passes++;
		left -= placed;
	}
}

bool bench_pass_safe(const struct bench_pass_input *in, const struct bench_pass_plan *plan,
		     unsigned p)
{
	uint8_t used[2] = { 0, 0 }, corrupting[2] = { 0, 0 };

	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = 0; i < in->n[t]; i++) {
			if (plan->pass[t][i] != (int16_t)p)
				continue;
			uint8_t bit = (uint8_t)(1u << plan->counter[t][i]);
			if ((used[t] & bit) || !(in->event[t][i].mask & bit))
				return false;
			used[t] |= bit;
			if (in->event[t][i].corrupting)
				corrupting[t] |= bit;
		}
	for (unsigned t = 0; t < 2; t++) {
		if (in->xsu != BUNDLE_XSU_OFF && (corrupting[t] & used[t ^ 1]))
			return false;
		uint8_t catchers = plan->catchers[p][t];
		if (catchers & (used[t] | (uint8_t)~corrupting[t ^ 1]))
			return false;
		if (in->xsu != BUNDLE_XSU_OFF && catchers != corrupting[t ^ 1])
			return false;
	}
	return true;
}
