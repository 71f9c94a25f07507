// SPDX-License-Identifier: GPL-2.0
/*
 * The APIC timer interrupt. Its count comes from the calibration in kernel/time.c.
 */
#include "kernel/apic_hw.h"
#include "kernel/config.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/percpu.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/vectors.h"

/* Per CPU, by percpu[].index: written only by that CPU's handler and tick_start(). */
static struct tick_stats stats[MAX_CPUS];
/* Per CPU: TSC cycles spent in the tick handlers since boot, never reset, and the entry of the
 * handler under way (0: none), for tick_own_time(). */
static uint64_t in_handlers[MAX_CPUS], handler_entry[MAX_CPUS];

static uint64_t enter_handler(const struct percpu *cpu)
{
	uint64_t entry = rdtsc();

	handler_entry[cpu->index] = entry;
	return entry;
}

/* A handler of cpu ran from entry to exit: its cost, in its statistics and its own time. */
static void handled(struct percpu *cpu, uint64_t entry, uint64_t exit, bool due)
{
	/* The total grows before the entry is gone: a reader elsewhere may take this handler off
	 * twice for a moment, and read a time that went back, which the accounting ignores
	 * (pmu/mux.h), never one that counts the handler as the thread's own time. */
	__atomic_store_n(&in_handlers[cpu->index], in_handlers[cpu->index] + exit - entry,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&handler_entry[cpu->index], 0, __ATOMIC_RELEASE);
	if (due)
		tick_stats_note(&stats[cpu->index], entry, exit);
	else
		tick_stats_note_cost(&stats[cpu->index], entry, exit);
}

uint64_t tick_own_time_of(const struct percpu *cpu)
{
	unsigned i = cpu->index;
	uint64_t handlers = __atomic_load_n(&in_handlers[i], __ATOMIC_ACQUIRE);
	uint64_t entry = __atomic_load_n(&handler_entry[i], __ATOMIC_ACQUIRE);

	return (entry ? entry : rdtsc()) - handlers;
}

uint64_t tick_own_time(void)
{
	return tick_own_time_of(this_cpu());
}

/* Per CPU, by percpu[].index: the hook runs for a raised tick. */
static bool raised[MAX_CPUS];

bool tick_is_raised(void)
{
	return raised[this_cpu()->index];
}

/* Run cpu's hook for a raised tick (an IPI, or one ipi-delay held back). */
static void run_raised(struct percpu *cpu, struct trap_frame *frame)
{
	raised[cpu->index] = true;
	if (cpu->tick_hook)
		cpu->tick_hook(frame, cpu->tick_context);
	raised[cpu->index] = false;
}

/* ---- the selftests' faults of raised ticks (tick_init()) ------------------------------------- */

static unsigned ipi_selftest;
static uint32_t ipis_to_followers; /* by tick_send(), every CPU */
#define IPI_DROPPED 3		   /* ipi-drop: the IPI lost, counted from 1 */
#define IPI_LATE_MIN_US 2000
#define IPI_LATE_SPAN_US 3000

/*
 * ipi-delay: every raised tick arrives 2-5 ms late, and meanwhile both CPUs go on working. A CPU
 * that follows another's ticks (tick_follow()) has its APIC timer free: it holds back the raised
 * ticks it receives and those it sends, and its one-shot timer brings them when they are due.
 * A CPU with a timer of its own sends on time; its sibling holds back what it receives. Held back
 * together, a receipt and a send are both done when the first is due.
 */
static struct late {
	bool follower; /* no timer of its own: its one-shot timer is the selftest's */
	bool armed;
	bool act;		      /* a raised tick received, to act on */
	const struct percpu *send_to; /* a raised tick to send */
} late[MAX_CPUS];

static void arm_late(struct late *l)
{
	static uint32_t lcg = 12345;
	uint32_t r = __atomic_load_n(&lcg, __ATOMIC_RELAXED) * 1103515245u + 12345u;
	uint64_t us = IPI_LATE_MIN_US + (r >> 8) % (IPI_LATE_SPAN_US + 1);
	uint64_t count = time_info()->apic_timer_hz * us / 1000000;

	__atomic_store_n(&lcg, r, __ATOMIC_RELAXED);
	if (l->armed)
		return;
	l->armed = true;
	apic_timer_oneshot(&local_apic, VECTOR_TICK, count ? (uint32_t)count : 1, false);
}

/* A follower's one-shot timer: what ipi-delay held back is due. */
static void late_due(struct percpu *cpu, struct trap_frame *frame)
{
	struct late *l = &late[cpu->index];
	const struct percpu *to = l->send_to;
	bool act = l->act;

	l->armed = l->act = false;
	l->send_to = NULL;
	if (to)
		apic_send_ipi(&local_apic, to->apic_id, APIC_ICR_DELIVERY_FIXED | VECTOR_TICK_IPI);
	if (act)
		run_raised(cpu, frame);
}

/* ---- the ticks ----------------------------------------------------------------------------- */

/* Per CPU: the period the tick was started with, in TSC cycles and in APIC timer counts. */
static uint64_t first_period_tsc[MAX_CPUS];
static uint32_t timer_count[MAX_CPUS];

/* A handler longer than the tick, several times: the tick slows down (kernel/tick_stats.h). */
static void slow_down_if_overloaded(struct percpu *cpu)
{
	unsigned i = cpu->index;

	if (!tick_stats_overloaded(&stats[i], first_period_tsc[i]))
		return;
	timer_count[i] = timer_count[i] > 0x7fffffffu ? 0xffffffffu : timer_count[i] * 2;
	apic_timer_periodic(&local_apic, VECTOR_TICK, timer_count[i]);
}

static void tick_interrupt(struct trap_frame *frame)
{
	struct percpu *cpu = this_cpu();
	uint64_t entry = enter_handler(cpu);

	if (late[cpu->index].armed) {
		late_due(cpu, frame);
		apic_eoi(&local_apic);
		handled(cpu, entry, rdtsc(), false);
		return;
	}
	cpu->ticks++;
	if (cpu->tick_hook)
		cpu->tick_hook(frame, cpu->tick_context);
	apic_eoi(&local_apic);
	handled(cpu, entry, rdtsc(), true);
	slow_down_if_overloaded(cpu);
}

/* A tick another CPU raised: the same hook, but no timer tick (it was never due). */
static void raised_tick_interrupt(struct trap_frame *frame)
{
	struct percpu *cpu = this_cpu();
	uint64_t entry = enter_handler(cpu);
	struct late *l = &late[cpu->index];

	if (ipi_selftest == SELFTEST_IPI_DELAY && l->follower) {
		l->act = true;
		arm_late(l);
	} else {
		run_raised(cpu, frame);
	}
	apic_eoi(&local_apic);
	handled(cpu, entry, rdtsc(), false);
}

void tick_init(unsigned selftest)
{
	if (selftest == SELFTEST_IPI_DELAY || selftest == SELFTEST_IPI_DROP) {
		ipi_selftest = selftest;
		kprintf("selftest=%s: %s\n", config_selftest_name(selftest),
			selftest == SELFTEST_IPI_DELAY
				? "every raised tick arrives 2-5 ms late"
				: "the third raised tick's IPI to a CPU without a timer is lost");
	}
	trap_register(VECTOR_TICK, tick_interrupt, 0);
	trap_register(VECTOR_TICK_IPI, raised_tick_interrupt, 0);
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
	first_period_tsc[cpu->index] = tsc_from_us(period_ms * 1000ull);
	timer_count[cpu->index] = (uint32_t)count;
	tick_stats_start(&stats[cpu->index], rdtsc(), first_period_tsc[cpu->index]);
	apic_timer_periodic(&local_apic, VECTOR_TICK, (uint32_t)count);
}

void tick_follow(void (*hook)(struct trap_frame *, void *), void *context)
{
	struct percpu *cpu = this_cpu();

	late[cpu->index] = (struct late){ .follower = true };
	cpu->tick_hook = hook;
	cpu->tick_context = context;
	tick_stats_start(&stats[cpu->index], rdtsc(), 0); /* no timer: nothing is due */
}

bool tick_send(const struct percpu *cpu)
{
	struct late *l = &late[this_cpu()->index];

	/* ipi-drop: one sent to a CPU that has no timer of its own, which nothing else wakes. */
	if (ipi_selftest == SELFTEST_IPI_DROP && late[cpu->index].follower &&
	    __atomic_add_fetch(&ipis_to_followers, 1, __ATOMIC_RELAXED) == IPI_DROPPED)
		return true;
	if (ipi_selftest == SELFTEST_IPI_DELAY && l->follower) {
		l->send_to = cpu;
		arm_late(l);
		return true;
	}
	return apic_send_ipi(&local_apic, cpu->apic_id, APIC_ICR_DELIVERY_FIXED | VECTOR_TICK_IPI);
}

void tick_stop(void)
{
	struct percpu *cpu = this_cpu();

	apic_timer_stop(&local_apic);
	late[cpu->index] = (struct late){ 0 };
	cpu->tick_hook = 0;
	cpu->tick_context = 0;
}

struct tick_stats tick_stats_read(unsigned cpu)
{
	struct tick_stats none = { 0 };

	return cpu < MAX_CPUS ? stats[cpu] : none;
}
