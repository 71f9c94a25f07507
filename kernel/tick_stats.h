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

#include <stdbool.h>
#include <stdint.h>

struct tick_stats {
	uint64_t ticks;		   /* ticks handled: the timer's and those another CPU raised */
	uint64_t timer_ticks;	   /* of them, the timer's: the ones that were due */
	uint64_t handler_tsc;	   /* TSC cycles spent in the handler, summed */
	uint64_t handler_max_tsc;  /* the longest handler */
	uint64_t last_handler_tsc; /* the last one */
	uint64_t late;		   /* ticks serviced more than half a period after they were due */
	uint64_t lost;		   /* periods that passed without a tick */
	/* The schedule: */
	uint64_t period_tsc; /* the tick's period in TSC cycles (doubled each time it was slowed) */
	uint64_t overruns;   /* timer ticks in a row whose handler took a period or longer */
	uint64_t slowed;     /* times the period was doubled (tick_stats_overloaded()) */
	uint64_t due_tsc;    /* when the next tick is due */
	uint64_t slots;	     /* due times the ticks so far were placed on */
};

/* Fresh statistics for a tick started at start_tsc with a period of period_tsc; 0 for a tick that
 * another CPU raises (kernel/tick.h, tick_follow): its cost is counted, no tick is due. */
void tick_stats_start(struct tick_stats *s, uint64_t start_tsc, uint64_t period_tsc);

/* A tick whose handler ran from entry_tsc to exit_tsc. */
void tick_stats_note(struct tick_stats *s, uint64_t entry_tsc, uint64_t exit_tsc);
/* A tick another CPU raised (kernel/tick.h, tick_send): its cost only, it was never due. */
void tick_stats_note_cost(struct tick_stats *s, uint64_t entry_tsc, uint64_t exit_tsc);

/*
 * A handler that takes a whole period or longer leaves the CPU no time between ticks: the
 * workload never runs again and the run never ends (under a hypervisor that emulates the kernel's
 * code slowly, KVM without VMX: docs/model.md, "Under KVM"). After TICK_OVERRUNS such timer ticks
 * in a row this says to slow the tick down: the period doubles (up to TICK_SLOWEST times the one
 * it started with), and true is returned, for the caller to re-arm its timer with period_tsc.
 */
#define TICK_OVERRUNS 3
#define TICK_SLOWEST 64
bool tick_stats_overloaded(struct tick_stats *s, uint64_t first_period_tsc);

/* The mean handler time in TSC cycles (0 without ticks). */
uint64_t tick_stats_mean_tsc(const struct tick_stats *s);

#endif
