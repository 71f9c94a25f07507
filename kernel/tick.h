/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The multiplexing tick: the local APIC timer in periodic mode on each CPU that runs a workload,
 * every mux_ms, calling that CPU's tick hook (ARCHITECTURE.md, data flow step 4).
 */
#ifndef KERNEL_TICK_H
#define KERNEL_TICK_H

#include <stdint.h>

#include "kernel/trap.h"

void tick_init(void);

/* Start or stop the calling CPU's tick; hook (may be NULL) runs on every tick with context. */
void tick_start(uint32_t period_ms, void (*hook)(struct trap_frame *, void *), void *context);
void tick_stop(void);

#endif
