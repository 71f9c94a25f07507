/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time: the TSC calibrated against a fixed-frequency reference, delays, and the local APIC
 * timer's rate (for the multiplexing tick).
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdbool.h>
#include <stdint.h>

struct time_calibration {
	uint64_t tsc_hz;
	const char *reference;	/* "acpi_pm" or "pit": what the TSC was measured against */
	uint64_t apic_timer_hz; /* APIC timer decrements per second, divide by 16 */
	const char *problem;	/* a reference that did not work, or NULL */
	const char *fatal;	/* the TSC or the APIC timer does not count: the run ends */
};

/* Measure the TSC against the ACPI PM timer when pm_timer_port is set (24 or 32 bits), else
 * PIT channel 2; then the APIC timer against the TSC. With interrupts off, on the boot CPU.
 * Returns within a few seconds whatever the machine does; what failed is in time_info(). */
void time_calibrate(uint32_t pm_timer_port, bool pm_timer_32bit);
const struct time_calibration *time_info(void);

uint64_t tsc_hz(void);
uint64_t tsc_from_us(uint64_t us);
uint64_t tsc_to_ns(uint64_t ticks);
void udelay(uint64_t us);

#endif
