// SPDX-License-Identifier: GPL-2.0
/*
 * TSC calibration. The ACPI PM timer runs at 3.579545 MHz (ACPI 6.5, 4.8.3.3); the PIT at
 * 1.193182 MHz (Intel 8254 data sheet), counted down on channel 2 whose output shows in bit 5 of
 * port 0x61. Every wait is bounded by a loop count, because before calibration there is no clock
 * to bound it by, and a missing reference must not hang the boot.
 */
#include "kernel/apic_hw.h"
#include "kernel/cpu.h"
#include "kernel/time.h"

#define PM_TIMER_HZ 3579545ull
#define PIT_HZ 1193182ull
#define CALIBRATION_MS 50
#define REFERENCE_POLLS 200000000ull
#define FALLBACK_TSC_HZ 2000000000ull /* only if both references fail: said so in the record */

static struct time_calibration calibration;

static uint64_t pm_read(uint32_t port, uint32_t mask)
{
	return inl((uint16_t)port) & mask;
}

/* TSC ticks per second against the PM timer, 0 when it does not move. */
static uint64_t calibrate_pm_timer(uint32_t port, bool wide)
{
	uint32_t mask = wide ? 0xffffffffu : 0xffffffu;
	uint64_t target = PM_TIMER_HZ * CALIBRATION_MS / 1000;
	uint64_t start = pm_read(port, mask), now = start, polls = 0;

	/* Start on an edge of the timer, so the first partial tick does not count. */
	while ((now = pm_read(port, mask)) == start)
		if (++polls > REFERENCE_POLLS)
			return 0;
	start = now;
	uint64_t tsc_start = rdtsc(), elapsed = 0;
	while (elapsed < target) {
		elapsed = (pm_read(port, mask) - start) & mask;
		if (++polls > REFERENCE_POLLS)
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
	uint64_t tsc_start = rdtsc(), polls = 0;
	while (!(inb(0x61) & 0x20))
		if (++polls > REFERENCE_POLLS)
			return 0;
	uint64_t tsc_end = rdtsc();
	outb(0x61, port61);
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

void time_calibrate(uint32_t pm_timer_port, bool pm_timer_32bit)
{
	uint64_t hz = 0;

	if (pm_timer_port) {
		hz = calibrate_pm_timer(pm_timer_port, pm_timer_32bit);
		if (hz)
			calibration.reference = "acpi_pm";
		else
			calibration.problem = "the ACPI PM timer does not count; using the PIT";
	}
	if (!hz) {
		hz = calibrate_pit();
		if (hz)
			calibration.reference = "pit";
	}
	if (!hz) {
		hz = FALLBACK_TSC_HZ;
		calibration.reference = "none";
		calibration.problem = "neither the ACPI PM timer nor the PIT counts; assuming a "
				      "2 GHz TSC: times are only estimates";
	}
	calibration.tsc_hz = hz;
	calibration.apic_timer_hz = calibrate_apic_timer();
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
