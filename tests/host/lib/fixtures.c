// SPDX-License-Identifier: GPL-2.0
/*
 * Shared fixtures of the scheduler tests (see fixtures.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmu/event_parse.h"
#include "pmu/mux_pair.h"
#include "tests/host/lib/fixtures.h"

void fixture_thread(struct mux_thread *t, const char *uarch, unsigned gp, const char *events,
		    enum sched_algorithm algorithm, struct xsu_states *xsu, unsigned thread)
{
	const struct uarch *u = uarch_by_name(uarch);
	struct pmu_event list[MUX_MAX_EVENTS];
	struct event_parse_error error;
	struct mux_config config;
	unsigned n;

	assert_non_null(u);
	if (!event_parse_list(events, u, list, MUX_MAX_EVENTS, &n, &error))
		print_error("'%s': %s\n", events, error.message);
	assert_true(n > 0);
	config = (struct mux_config){
		.uarch = u,
		.gp = gp ? gp : u->gp_ht_on,
		.fixed = u->fixed,
		.algorithm = algorithm,
	};
	mux_init(t, &config, thread);
	if (xsu)
		mux_set_hooks(t, &xsu_hooks, xsu);
	assert_true(mux_add_events(t, list, (unsigned)n));
}

/* With XSU on, the invariant after every schedule; the sibling is idle. */
static void check_alone(const struct mux_thread *t)
{
	struct xsu_usage idle = { 0, 0 };
	struct xsu_usage mine = xsu_usage_now(t);

	if (t->hooks != &sched_hooks_none)
		assert_true(t->thread ? xsu_invariant(t->shared, idle, mine)
				      : xsu_invariant(t->shared, mine, idle));
}

void fixture_run(struct mux_thread *t, unsigned ticks)
{
	struct mux_schedule s;

	mux_start(t, 0, &s);
	check_alone(t);
	for (unsigned k = 1; k < ticks; k++) {
		mux_tick(t, k, &s);
		check_alone(t);
	}
	mux_stop(t, ticks);
	check_alone(t);
}

unsigned fixture_percent(const struct mux_thread *t, unsigned event)
{
	return mux_read(&t->events[event]).percent;
}
