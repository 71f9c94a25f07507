// SPDX-License-Identifier: GPL-2.0
/*
 * The APIC timer interrupt. Its count comes from the calibration in kernel/time.c.
 */
#include "kernel/apic_hw.h"
#include "kernel/cpu.h"
#include "kernel/percpu.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/vectors.h"

/* Per CPU, by percpu[].index: written only by that CPU's handler and tick_start(). */
static struct tick_stats stats[MAX_CPUS];

static void tick_interrupt(struct trap_frame *frame)
{
	uint64_t entry = rdtsc();
	struct percpu *cpu = this_cpu();

	cpu->ticks++;
	if (cpu->tick_hook)
		cpu->tick_hook(frame, cpu->tick_context);
	apic_eoi(&local_apic);
	tick_stats_note(&stats[cpu->index], entry, rdtsc());
}

void tick_init(void)
{
	trap_register(VECTOR_TICK, tick_interrupt, 0);
}

void tick_start(uint32_t period_ms, void (*hook)(struct trap_frame *, void *), void *context)
{
	struct percpu *cpu = this_cpu();
	uint64_t count = time_info()->apic_timer_hz * period_ms / 1000;

	if (count == 0)
		count = 1;
	if (count > 0xffffffffull)
		count = 0xffffffffull;
	cpu->tick_hook = hook;
	cpu->tick_context = context;
	tick_stats_start(&stats[cpu->index], rdtsc(), tsc_from_us(period_ms * 1000ull));
	apic_timer_periodic(&local_apic, VECTOR_TICK, (uint32_t)count);
}

void tick_stop(void)
{
	struct percpu *cpu = this_cpu();

	apic_timer_stop(&local_apic);
	cpu->tick_hook = 0;
	cpu->tick_context = 0;
}

struct tick_stats tick_stats_read(unsigned cpu)
{
	struct tick_stats none = { 0 };

	return cpu < MAX_CPUS ? stats[cpu] : none;
}
