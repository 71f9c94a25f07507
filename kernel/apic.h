/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The local APIC in either of its two modes (SDM vol. 3A, chapter 10): xAPIC, registers in a 4 KiB
 * MMIO page, and x2APIC, the same registers as MSRs 0x800-0x8FF with 32-bit APIC ids. The logic
 * here is pure: it reaches the hardware through a backend (MSRs and MMIO in the kernel, a recorder
 * in the host tests, since QEMU's TCG has no x2APIC).
 */
#ifndef KERNEL_APIC_H
#define KERNEL_APIC_H

#include <stdbool.h>
#include <stdint.h>

/* Registers, as xAPIC MMIO offsets (SDM vol. 3A, table 10-1). */
#define APIC_ID 0x020
#define APIC_VERSION 0x030
#define APIC_TPR 0x080
#define APIC_EOI 0x0b0
#define APIC_LDR 0x0d0
#define APIC_SVR 0x0f0
#define APIC_ESR 0x280
#define APIC_ICR_LOW 0x300
#define APIC_ICR_HIGH 0x310
#define APIC_LVT_TIMER 0x320
#define APIC_LVT_THERMAL 0x330
#define APIC_LVT_PERFORMANCE 0x340
#define APIC_LVT_LINT0 0x350
#define APIC_LVT_LINT1 0x360
#define APIC_LVT_ERROR 0x370
#define APIC_TIMER_INITIAL 0x380
#define APIC_TIMER_CURRENT 0x390
#define APIC_TIMER_DIVIDE 0x3e0

#define IA32_APIC_BASE 0x1b
#define APIC_BASE_BSP (1ull << 8)
#define APIC_BASE_EXTD (1ull << 10) /* x2APIC mode */
#define APIC_BASE_ENABLE (1ull << 11)
#define APIC_BASE_ADDRESS_MASK 0x000ffffffffff000ull
#define X2APIC_MSR_BASE 0x800

#define APIC_SVR_ENABLE (1u << 8)
#define APIC_LVT_MASKED (1u << 16)
#define APIC_LVT_TIMER_PERIODIC (1u << 17)
#define APIC_LVT_DELIVERY_NMI (4u << 8)

/* ICR low word (SDM vol. 3A, figure 10-12). */
#define APIC_ICR_DELIVERY_FIXED (0u << 8)
#define APIC_ICR_DELIVERY_NMI (4u << 8)
#define APIC_ICR_DELIVERY_INIT (5u << 8)
#define APIC_ICR_DELIVERY_STARTUP (6u << 8)
#define APIC_ICR_PENDING (1u << 12) /* delivery status (xAPIC only) */
#define APIC_ICR_LEVEL_ASSERT (1u << 14)
#define APIC_ICR_TRIGGER_LEVEL (1u << 15)
#define APIC_ICR_ALL_EXCLUDING_SELF (3u << 18)

/* Divide configuration register values (SDM vol. 3A, figure 10-10). */
#define APIC_TIMER_DIVIDE_BY_16 0x3

enum apic_mode { APIC_MODE_XAPIC, APIC_MODE_X2APIC };
enum apic_request { APIC_REQUEST_AUTO, APIC_REQUEST_XAPIC, APIC_REQUEST_X2APIC };

struct apic_backend {
	uint64_t (*read_msr)(void *ctx, uint32_t msr);
	void (*write_msr)(void *ctx, uint32_t msr, uint64_t value);
	uint32_t (*read_mmio)(void *ctx, uint64_t address);
	void (*write_mmio)(void *ctx, uint64_t address, uint32_t value);
	/* Every earlier load and store done before the next WRMSR (MFENCE; LFENCE): a WRMSR to an
	 * x2APIC register is not serializing and may pass them (SDM vol. 3A, 10.12.3). */
	void (*fence)(void *ctx);
	void *ctx;
};

struct apic {
	enum apic_mode mode;
	uint64_t mmio_base; /* xAPIC register page */
	const struct apic_backend *backend;
};

/* What to do with the mode the firmware left (apic_choose_mode). */
struct apic_mode_choice {
	enum apic_mode mode;
	const char *warning; /* why a request was not followed, or NULL */
};

/*
 * Keep the mode the firmware left unless told otherwise: firmware that hands over in x2APIC mode
 * keeps it (going back to xAPIC means disabling the APIC, SDM vol. 3A, 10.12.5); `apic=x2apic`
 * switches when CPUID.1:ECX[21] says the CPU can; an APIC id above 254 needs x2APIC.
 */
struct apic_mode_choice apic_choose_mode(uint64_t apic_base_msr, bool cpu_has_x2apic,
					 enum apic_request request, uint32_t highest_apic_id);

uint32_t apic_read(const struct apic *a, uint32_t reg);
void apic_write(const struct apic *a, uint32_t reg, uint32_t value);

/* This CPU's APIC id: ID[31:24] in xAPIC mode, all 32 bits in x2APIC mode. */
uint32_t apic_id(const struct apic *a);

/* Enable this CPU's APIC in the chosen mode (IA32_APIC_BASE), software-enable it with the
 * spurious vector, accept every priority, mask every local interrupt source. */
void apic_enable(const struct apic *a, uint8_t spurious_vector);

void apic_eoi(const struct apic *a);

/*
 * Send an IPI: x2APIC writes the 64-bit ICR at once, after the backend's fence, so that what the
 * sender stored before (the work an IPI announces) is visible to the CPU it wakes: the WRMSR is
 * not serializing and may pass earlier stores (SDM vol. 3A, 10.12.3; Linux's weak_wrmsr_fence()
 * before its x2APIC ICR writes). xAPIC writes the destination (ICR high) first, then the command
 * (ICR low), then waits, bounded, for the delivery status to clear: an uncached store is not
 * passed by earlier stores. False when an xAPIC IPI stayed pending.
 */
bool apic_send_ipi(const struct apic *a, uint32_t destination, uint32_t icr_low);

/* The INIT, STARTUP and NMI IPIs of AP start-up and of stopping CPUs. */
bool apic_send_init(const struct apic *a, uint32_t destination);
bool apic_send_startup(const struct apic *a, uint32_t destination, uint64_t trampoline_page);
bool apic_send_nmi(const struct apic *a, uint32_t destination);

/* The timer: periodic (tick) or one-shot, divide by 16; stop masks it and clears its count. */
void apic_timer_periodic(const struct apic *a, uint8_t vector, uint32_t initial_count);
void apic_timer_oneshot(const struct apic *a, uint8_t vector, uint32_t initial_count, bool masked);
uint32_t apic_timer_current(const struct apic *a);
void apic_timer_stop(const struct apic *a);

#endif
