// SPDX-License-Identifier: GPL-2.0
/*
 * Local APIC register logic for xAPIC and x2APIC (SDM vol. 3A, chapter 10; x2APIC: 10.12).
 */
#include <stddef.h>

#include "kernel/apic.h"

/* How long an xAPIC IPI may stay pending: far longer than any delivery takes. */
#define ICR_PENDING_POLLS 100000

struct apic_mode_choice apic_choose_mode(uint64_t apic_base_msr, bool cpu_has_x2apic,
					 enum apic_request request, uint32_t highest_apic_id)
{
	struct apic_mode_choice c = { APIC_MODE_XAPIC, NULL };
	bool firmware_x2apic =
		(apic_base_msr & APIC_BASE_ENABLE) && (apic_base_msr & APIC_BASE_EXTD);

	if (firmware_x2apic) {
		c.mode = APIC_MODE_X2APIC;
		if (request == APIC_REQUEST_XAPIC)
			c.warning =
				"the firmware left the APIC in x2APIC mode; leaving it would mean "
				"disabling the APIC, so x2APIC stays";
		return c;
	}
	bool want_x2apic = request == APIC_REQUEST_X2APIC || highest_apic_id > 254;
	if (!want_x2apic)
		return c;
	if (!cpu_has_x2apic) {
		c.warning =
			highest_apic_id > 254
				? "APIC ids above 254 need x2APIC, which this CPU lacks; the CPUs "
				  "with those ids cannot be started"
				: "apic=x2apic: this CPU has no x2APIC (CPUID.1:ECX[21] is 0); "
				  "using xAPIC";
		return c;
	}
	c.mode = APIC_MODE_X2APIC;
	return c;
}

uint32_t apic_read(const struct apic *a, uint32_t reg)
{
	const struct apic_backend *b = a->backend;

	if (a->mode == APIC_MODE_X2APIC)
		return (uint32_t)b->read_msr(b->ctx, X2APIC_MSR_BASE + (reg >> 4));
	return b->read_mmio(b->ctx, a->mmio_base + reg);
}

void apic_write(const struct apic *a, uint32_t reg, uint32_t value)
{
	const struct apic_backend *b = a->backend;

	if (a->mode == APIC_MODE_X2APIC)
		b->write_msr(b->ctx, X2APIC_MSR_BASE + (reg >> 4), value);
	else
		b->write_mmio(b->ctx, a->mmio_base + reg, value);
}

uint32_t apic_id(const struct apic *a)
{
	uint32_t id = apic_read(a, APIC_ID);

	return a->mode == APIC_MODE_X2APIC ? id : id >> 24;
}

void apic_enable(const struct apic *a, uint8_t spurious_vector)
{
	const struct apic_backend *b = a->backend;
	uint64_t base = b->read_msr(b->ctx, IA32_APIC_BASE);
	uint64_t want = base | APIC_BASE_ENABLE;

	/* Entering x2APIC mode goes through xAPIC-enabled first (SDM vol. 3A, figure 10-27). */
	if (!(base & APIC_BASE_ENABLE))
		b->write_msr(b->ctx, IA32_APIC_BASE, want & ~APIC_BASE_EXTD);
	if (a->mode == APIC_MODE_X2APIC)
		want |= APIC_BASE_EXTD;
	if (want != b->read_msr(b->ctx, IA32_APIC_BASE))
		b->write_msr(b->ctx, IA32_APIC_BASE, want);

	apic_write(a, APIC_TPR, 0);
	apic_write(a, APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(a, APIC_LVT_THERMAL, APIC_LVT_MASKED);
	apic_write(a, APIC_LVT_PERFORMANCE, APIC_LVT_MASKED);
	apic_write(a, APIC_LVT_LINT0, APIC_LVT_MASKED);
	apic_write(a, APIC_LVT_LINT1, APIC_LVT_MASKED);
	apic_write(a, APIC_LVT_ERROR, APIC_LVT_MASKED);
	apic_write(a, APIC_SVR, APIC_SVR_ENABLE | spurious_vector);
}

void apic_eoi(const struct apic *a)
{
	apic_write(a, APIC_EOI, 0);
}

bool apic_send_ipi(const struct apic *a, uint32_t destination, uint32_t icr_low)
{
	const struct apic_backend *b = a->backend;

	if (a->mode == APIC_MODE_X2APIC) {
		/* One 64-bit write; the destination is the whole upper half (SDM vol. 3A, 10.12.9). */
		b->fence(b->ctx);
		b->write_msr(b->ctx, X2APIC_MSR_BASE + (APIC_ICR_LOW >> 4),
			     (uint64_t)destination << 32 | icr_low);
		return true;
	}
	/* Writing the low word sends the IPI, so the destination goes first. */
	apic_write(a, APIC_ICR_HIGH, destination << 24);
	apic_write(a, APIC_ICR_LOW, icr_low);
	for (unsigned i = 0; i < ICR_PENDING_POLLS; i++)
		if (!(apic_read(a, APIC_ICR_LOW) & APIC_ICR_PENDING))
			return true;
	return false;
}

bool apic_send_init(const struct apic *a, uint32_t destination)
{
	return apic_send_ipi(a, destination,
			     APIC_ICR_DELIVERY_INIT | APIC_ICR_LEVEL_ASSERT |
				     APIC_ICR_TRIGGER_LEVEL);
}

bool apic_send_startup(const struct apic *a, uint32_t destination, uint64_t trampoline_page)
{
	/* The vector is the page number of the real-mode start address (SDM vol. 3A, 9.4.4.1). */
	return apic_send_ipi(a, destination,
			     APIC_ICR_DELIVERY_STARTUP |
				     (uint32_t)((trampoline_page >> 12) & 0xff));
}

bool apic_send_nmi(const struct apic *a, uint32_t destination)
{
	return apic_send_ipi(a, destination, APIC_ICR_DELIVERY_NMI | APIC_ICR_LEVEL_ASSERT);
}

void apic_timer_periodic(const struct apic *a, uint8_t vector, uint32_t initial_count)
{
	apic_write(a, APIC_TIMER_DIVIDE, APIC_TIMER_DIVIDE_BY_16);
	apic_write(a, APIC_LVT_TIMER, APIC_LVT_TIMER_PERIODIC | vector);
	apic_write(a, APIC_TIMER_INITIAL, initial_count);
}

void apic_timer_oneshot(const struct apic *a, uint8_t vector, uint32_t initial_count, bool masked)
{
	apic_write(a, APIC_TIMER_DIVIDE, APIC_TIMER_DIVIDE_BY_16);
	apic_write(a, APIC_LVT_TIMER, (masked ? APIC_LVT_MASKED : 0) | vector);
	apic_write(a, APIC_TIMER_INITIAL, initial_count);
}

uint32_t apic_timer_current(const struct apic *a)
{
	return apic_read(a, APIC_TIMER_CURRENT);
}

void apic_timer_stop(const struct apic *a)
{
	apic_write(a, APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(a, APIC_TIMER_INITIAL, 0);
}
