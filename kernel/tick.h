/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The multiplexing tick: the local APIC timer in periodic mode on each CPU that runs a workload,
 * every mux_ms, calling that CPU's tick hook (docs/ARCHITECTURE.md, "The data flow"). The tick
 * measures its own cost and punctuality (kernel/tick_stats.h).
 */
#ifndef KERNEL_TICK_H
#define KERNEL_TICK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/percpu.h"
#include "kernel/tick_stats.h"
#include "kernel/trap.h"

/*
 * Install the handlers. selftest (enum selftest, kernel/config.h) ipi-delay and ipi-drop make the
 * raised ticks' IPIs behave as a hypervisor or firmware can make them: with ipi-delay every
 * raised tick arrives 2-5 ms late while both CPUs go on working, with ipi-drop the third IPI sent
 * to a CPU that follows another's ticks is lost (tick_send() says it was sent). Core-wide XSU's
 * handover must survive both (pmu/handover.h).
 */
void tick_init(unsigned selftest);

/*
 * Start or stop the calling CPU's tick; hook (may be NULL) runs on every tick with context.
 * tick_start() also starts the CPU's statistics afresh: they cover one run.
 */
void tick_start(uint32_t period_ms, void (*hook)(struct trap_frame *, void *), void *context);
void tick_stop(void);

/*
 * A tick that another CPU gives: the calling CPU runs hook on every tick_send() to it, with no
 * timer of its own (core-wide XSU: one timer, thread 0's, drives both siblings, so that both
 * reschedule at the same boundary). Its statistics count the handler's cost but no late or lost
 * tick: none is due. tick_stop() ends it too.
 */
void tick_follow(void (*hook)(struct trap_frame *, void *), void *context);

/* Raise cpu's tick (a fixed IPI with the tick's vector); false when the IPI stayed pending. */
bool tick_send(const struct percpu *cpu);

/* In a tick hook: whether this tick was raised by another CPU rather than the CPU's timer. */
bool tick_is_raised(void);

/*
 * The calling CPU's own time: the TSC less every cycle its tick handlers took since boot, in
 * which no user-level event can count. A thread's events' times are kept on it (pmu/handover.h),
 * so that a long handler is no time its events were enabled and its workload idle. It stands
 * still inside a handler, at the handler's entry, and never goes back.
 */
uint64_t tick_own_time(void);
/* The same for any CPU, read from another one. */
uint64_t tick_own_time_of(const struct percpu *cpu);

/*
 * The statistics of the CPU whose kernel index is cpu (percpu[].index) since its last
 * tick_start(): read them on that CPU, or after it stopped its tick. Nothing in the handler
 * writes to the console, so the figures are the tick's own cost.
 */
struct tick_stats tick_stats_read(unsigned cpu);

#endif
