// SPDX-License-Identifier: GPL-2.0
/*
 * The tick's statistics (see kernel/tick_stats.h).
 */
#include <string.h>

#include "kernel/tick_stats.h"

void tick_stats_start(struct tick_stats *s, uint64_t start_tsc, uint64_t period_tsc)
{
	memset(s, 0, sizeof(*s));
	s->period_tsc = period_tsc;
	s->due_tsc = start_tsc + period_tsc;
}

/* Place the tick at entry_tsc on the grid of due times (kernel/tick_stats.h). */
static void note_arrival(struct tick_stats *s, uint64_t entry_tsc)
{
	uint64_t p = s->period_tsc, quarter = p / 4;
	uint64_t skipped = 0, slot;

	if (entry_tsc + p / 2 < s->due_tsc) {
		/* Early: the previous tick was a late one, placed on this tick's due time. */
		s->late++;
		s->due_tsc = entry_tsc + p;
		return;
	}
	if (entry_tsc + quarter >= s->due_tsc + p)
		skipped = (entry_tsc + quarter - s->due_tsc) / p;
	s->slots += 1 + skipped;
	slot = s->due_tsc + skipped * p;
	if (entry_tsc > slot && entry_tsc - slot > p / 2)
		s->late++;
	/* A timely tick re-anchors the grid; a late one keeps it (the timer did not move). */
	s->due_tsc = entry_tsc < slot + quarter ? entry_tsc + p : slot + p;
}

void tick_stats_note_cost(struct tick_stats *s, uint64_t entry_tsc, uint64_t exit_tsc)
{
	uint64_t spent = exit_tsc - entry_tsc;

	s->ticks++;
	s->handler_tsc += spent;
	s->last_handler_tsc = spent;
	if (spent > s->handler_max_tsc)
		s->handler_max_tsc = spent;
}

void tick_stats_note(struct tick_stats *s, uint64_t entry_tsc, uint64_t exit_tsc)
{
	tick_stats_note_cost(s, entry_tsc, exit_tsc);
	s->timer_ticks++;
	/* Without a period no tick is due, late or lost. */
	if (!s->period_tsc)
		return;
	note_arrival(s, entry_tsc);
	s->lost = s->slots > s->timer_ticks ? s->slots - s->timer_ticks : 0;
}

bool tick_stats_overloaded(struct tick_stats *s, uint64_t first_period_tsc)
{
	uint64_t spent = s->last_handler_tsc;

	if (!s->period_tsc || spent < s->period_tsc) {
		s->overruns = 0;
		return false;
	}
	if (++s->overruns < TICK_OVERRUNS || s->period_tsc >= first_period_tsc * TICK_SLOWEST)
		return false;
	s->overruns = 0;
	s->period_tsc *= 2;
	s->slowed++;
	return true;
}

uint64_t tick_stats_mean_tsc(const struct tick_stats *s)
{
	return s->ticks ? s->handler_tsc / s->ticks : 0;
}
