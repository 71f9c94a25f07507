/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the multiplexing tick costs and whether it comes when due, per CPU.
 *
 * The tick measures itself: the TSC at the handler's entry and at its exit, two RDTSCs (the
 * rest is a few additions after the exit is read). From them, per CPU since the tick was started:
 * the ticks, the TSC cycles spent in the handler (sum and longest), the ticks that came late and
 * the periods that passed without one.
 *
 * The APIC timer fires every period on its own grid of due times; a tick is serviced when
 * interrupts allow. A tick is late when it is serviced more than half a period after it was due.
 * A tick is lost when its period passes without it: a timer interrupt that fires while the
 * previous one is still pending merges with it (one IRR bit), so a handler delayed by more than a
 * period (a console write from interrupt context, an SMI, a hypervisor that descheduled the CPU)
 * costs a tick. Each tick is placed on the grid: up to three quarters of a period after a due
 * time it is that due time's, later it is the next one's; a tick that then comes more than half a
 * period before its due time shows that the previous one was placed a slot too far (it was late,
 * not a successor of a lost one). lost is the due times passed less the ticks that came. A tick
 * within a quarter period of its due time re-anchors the grid, so that the small difference
 * between the TSC and the APIC timer's calibrated rate does not accumulate.
 *
 * Pure code: compiled unchanged into the kernel and into host tests.
 */
#ifndef KERNEL_TICK_STATS_H
#define KERNEL_TICK_STATS_H

#include <stdint.h>

struct tick_stats {
	uint64_t ticks;		  /* ticks handled */
	uint64_t handler_tsc;	  /* TSC cycles spent in the handler, summed */
	uint64_t handler_max_tsc; /* the longest handler */
	uint64_t late;		  /* ticks serviced more than half a period after they were due */
	uint64_t lost;		  /* periods that passed without a tick */
	/* The schedule: */
	uint64_t period_tsc; /* the tick's period in TSC cycles */
	uint64_t due_tsc;    /* when the next tick is due */
	uint64_t slots;	     /* due times the ticks so far were placed on */
};

/* Fresh statistics for a tick started at start_tsc with a period of period_tsc (not 0). */
void tick_stats_start(struct tick_stats *s, uint64_t start_tsc, uint64_t period_tsc);

/* A tick whose handler ran from entry_tsc to exit_tsc. */
void tick_stats_note(struct tick_stats *s, uint64_t entry_tsc, uint64_t exit_tsc);

/* The mean handler time in TSC cycles (0 without ticks). */
uint64_t tick_stats_mean_tsc(const struct tick_stats *s);

#endif
