// SPDX-License-Identifier: GPL-2.0
/*
 * The local APIC backend of real hardware: RDMSR/WRMSR and uncached MMIO at the address in
 * IA32_APIC_BASE (kernel/paging.c maps the page uncached).
 */
#include "kernel/apic_hw.h"
#include "kernel/cpu.h"
#include "kernel/trap.h"

static uint64_t hw_read_msr(void *ctx, uint32_t msr)
{
	(void)ctx;
	return rdmsr(msr);
}

static void hw_write_msr(void *ctx, uint32_t msr, uint64_t value)
{
	(void)ctx;
	wrmsr(msr, value);
}

static uint32_t hw_read_mmio(void *ctx, uint64_t address)
{
	(void)ctx;
	return *(volatile uint32_t *)(uintptr_t)address;
}

static void hw_write_mmio(void *ctx, uint64_t address, uint32_t value)
{
	(void)ctx;
	*(volatile uint32_t *)(uintptr_t)address = value;
}

/* Linux's weak_wrmsr_fence(): MFENCE orders the stores, LFENCE keeps the WRMSR behind it. */
static void hw_fence(void *ctx)
{
	(void)ctx;
	__asm__ volatile("mfence\n\tlfence" ::: "memory");
}

static const struct apic_backend hw_backend = {
	.read_msr = hw_read_msr,
	.write_msr = hw_write_msr,
	.read_mmio = hw_read_mmio,
	.write_mmio = hw_write_mmio,
	.fence = hw_fence,
	.ctx = 0,
};

struct apic local_apic = { .mode = APIC_MODE_XAPIC,
			   .mmio_base = 0xfee00000,
			   .backend = &hw_backend };

const char *apic_setup_boot_cpu(enum apic_request request, uint32_t highest_apic_id)
{
	uint64_t base = rdmsr(IA32_APIC_BASE);
	bool has_x2apic = (cpuid(1, 0).ecx >> 21) & 1;
	struct apic_mode_choice c = apic_choose_mode(base, has_x2apic, request, highest_apic_id);

	local_apic.mode = c.mode;
	local_apic.mmio_base = base & APIC_BASE_ADDRESS_MASK;
	if (!local_apic.mmio_base)
		local_apic.mmio_base = 0xfee00000;
	apic_enable(&local_apic, VECTOR_SPURIOUS_APIC);
	return c.warning;
}

void apic_setup_this_cpu(void)
{
	apic_enable(&local_apic, VECTOR_SPURIOUS_APIC);
}

const char *apic_mode_name(void)
{
	return local_apic.mode == APIC_MODE_X2APIC ? "x2apic" : "xapic";
}
