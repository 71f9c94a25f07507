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

void tick_init(void);

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

/*
 * The statistics of the CPU whose kernel index is cpu (percpu[].index) since its last
 * tick_start(): read them on that CPU, or after it stopped its tick. Nothing in the handler
 * writes to the console, so the figures are the tick's own cost.
 */
struct tick_stats tick_stats_read(unsigned cpu);

#endif
