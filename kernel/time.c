// SPDX-License-Identifier: GPL-2.0
/*
 * TSC calibration. The ACPI PM timer runs at 3.579545 MHz (ACPI 6.5, 4.8.3.3); the PIT at
 * 1.193182 MHz (Intel 8254 data sheet), counted down on channel 2 whose output shows in bit 5 of
 * port 0x61. Every wait is bounded, because a reference that does not count (a machine without a
 * PIT, a PM timer port that reads a constant) must not hang the boot: by TSC ticks, as the TSC
 * counts at hundreds of MHz or more on every CPU with long mode even before its rate is known, and
 * by a count of reads in case the TSC stands still as well.
 */
#include "kernel/apic_hw.h"
#include "kernel/cpu.h"
#include "kernel/time.h"

#define PM_TIMER_HZ 3579545ull
#define PIT_HZ 1193182ull
#define CALIBRATION_MS 50
/* A wait for a reference gives up after 2^31 TSC ticks: 2.1 s at 1 GHz, 0.4 s at 5 GHz, and far
 * more than the 50 ms it needs at any TSC rate below 40 GHz. */
#define REFERENCE_LIMIT_TSC (1ull << 31)
/* Only when the TSC stands still too: port reads take about a microsecond on real hardware. */
#define REFERENCE_POLLS 20000000ull
#define MIN_TSC_HZ 100000000ull
#define FALLBACK_TSC_HZ 2000000000ull /* only if both references fail: said so in the record */

static struct time_calibration calibration;

static uint64_t pm_read(uint32_t port, uint32_t mask)
{
	return inl((uint16_t)port) & mask;
}

/* A wait for a reference that may never come: false once either bound is reached. */
struct reference_wait {
	uint64_t tsc_start;
	uint64_t polls;
};

static bool still_waiting(struct reference_wait *w)
{
	return ++w->polls <= REFERENCE_POLLS && rdtsc() - w->tsc_start < REFERENCE_LIMIT_TSC;
}

/* TSC ticks per second against the PM timer, 0 when it does not move. */
static uint64_t calibrate_pm_timer(uint32_t port, bool wide)
{
	uint32_t mask = wide ? 0xffffffffu : 0xffffffu;
	uint64_t target = PM_TIMER_HZ * CALIBRATION_MS / 1000;
	uint64_t start = pm_read(port, mask), now = start;
	struct reference_wait wait = { rdtsc(), 0 };

	/* Start on an edge of the timer, so the first partial tick does not count. */
	while ((now = pm_read(port, mask)) == start)
		if (!still_waiting(&wait))
			return 0;
	start = now;
	uint64_t tsc_start = rdtsc(), elapsed = 0;
	while (elapsed < target) {
		elapsed = (pm_read(port, mask) - start) & mask;
		if (!still_waiting(&wait))
			return 0;
	}
	uint64_t tsc_end = rdtsc();
	return (tsc_end - tsc_start) * PM_TIMER_HZ / elapsed;
}

/* TSC ticks per second against PIT channel 2 in mode 0 (interrupt on terminal count). */
static uint64_t calibrate_pit(void)
{
	uint64_t count = PIT_HZ * CALIBRATION_MS / 1000;
	uint8_t port61 = inb(0x61);

	outb(0x61, (uint8_t)((port61 & ~0x02) & ~0x01)); /* gate low, speaker off */
	outb(0x43, 0xb0);				 /* channel 2, low then high byte, mode 0 */
	outb(0x42, count & 0xff);
	outb(0x42, (uint8_t)(count >> 8));
	outb(0x61, (uint8_t)((port61 & ~0x02) | 0x01)); /* gate high: counting starts */
	/* In mode 0 the output is low from the control word until the count runs out (8254 data
	 * sheet): high now means no PIT answers there (port 0x61 of a machine without one). */
	if (inb(0x61) & 0x20) {
		outb(0x61, port61);
		return 0;
	}
	uint64_t tsc_start = rdtsc();
	struct reference_wait wait = { tsc_start, 0 };
	bool expired = false;
	while (!(inb(0x61) & 0x20) && !expired)
		expired = !still_waiting(&wait);
	uint64_t tsc_end = rdtsc();
	outb(0x61, port61);
	if (expired)
		return 0;
	return (tsc_end - tsc_start) * 1000 / CALIBRATION_MS;
}

/* APIC timer decrements per second (divide by 16), against the calibrated TSC. */
static uint64_t calibrate_apic_timer(void)
{
	uint64_t window = calibration.tsc_hz / 100; /* 10 ms */

	apic_timer_oneshot(&local_apic, 0xfe, 0xffffffffu, true);
	uint64_t start = rdtsc();
	uint32_t first = apic_timer_current(&local_apic);
	while (rdtsc() - start < window)
		cpu_relax();
	uint32_t last = apic_timer_current(&local_apic);
	uint64_t elapsed = rdtsc() - start;
	apic_timer_stop(&local_apic);
	return (uint64_t)(first - last) * calibration.tsc_hz / elapsed;
}

/* A reference that gives a TSC below 100 MHz did not count at its rate (no CPU with long mode is
 * that slow): taken as not counting. */
static uint64_t plausible(uint64_t hz)
{
	return hz >= MIN_TSC_HZ ? hz : 0;
}

void time_calibrate(uint32_t pm_timer_port, bool pm_timer_32bit)
{
	uint64_t hz = 0;

	if (pm_timer_port) {
		hz = plausible(calibrate_pm_timer(pm_timer_port, pm_timer_32bit));
		if (hz)
			calibration.reference = "acpi_pm";
		else
			calibration.problem = "the ACPI PM timer does not count; using the PIT";
	}
	if (!hz) {
		hz = plausible(calibrate_pit());
		if (hz)
			calibration.reference = "pit";
	}
	if (!hz) {
		uint64_t start = rdtsc();
		for (volatile int i = 0; i < 1000000 && rdtsc() == start; i++)
			;
		if (rdtsc() == start) {
			/* Every delay and timeout of the kernel counts TSC ticks. */
			calibration.reference = "none";
			calibration.fatal =
				"the TSC does not count: the kernel cannot time anything";
			return;
		}
		hz = FALLBACK_TSC_HZ;
		calibration.reference = "none";
		calibration.problem = "neither the ACPI PM timer nor the PIT counts; assuming a "
				      "2 GHz TSC: times are only estimates";
	}
	calibration.tsc_hz = hz;
	calibration.apic_timer_hz = calibrate_apic_timer();
	/* No tick means no multiplexing and no tick check: a CPU halted to wait for one would
	 * never wake. */
	if (!calibration.apic_timer_hz)
		calibration.fatal = "the local APIC timer does not count: there is no multiplexing "
				    "tick";
}

const struct time_calibration *time_info(void)
{
	return &calibration;
}

uint64_t tsc_hz(void)
{
	return calibration.tsc_hz;
}

uint64_t tsc_from_us(uint64_t us)
{
	return us * calibration.tsc_hz / 1000000;
}

uint64_t tsc_to_ns(uint64_t ticks)
{
	return (uint64_t)((unsigned __int128)ticks * 1000000000u / calibration.tsc_hz);
}

void udelay(uint64_t us)
{
	uint64_t start = rdtsc(), wait = tsc_from_us(us);

	while (rdtsc() - start < wait)
		cpu_relax();
}
