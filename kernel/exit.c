// SPDX-License-Identifier: GPL-2.0
/*
 * The ways out. Each falls through to the next when it does not work: a missing isa-debug-exit
 * device or a reset that does not happen still ends in a halt with a message, never a hang
 * without one.
 */
#include "kernel/acpi.h"
#include "kernel/config.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"

/* The identity map covers the first 4 GiB (kernel/paging.c): a reset register in memory space
 * beyond it is not used. */
#define IDENTITY_MAPPED_LIMIT 0x100000000ull

static struct {
	bool acpi_register;
	uint8_t space;
	uint64_t address;
	uint8_t value;
	bool keyboard_controller;
} reset_method = { .keyboard_controller = true };

void machine_use_acpi_reset(const struct acpi_info *acpi)
{
	reset_method.acpi_register =
		acpi->reset_supported && (acpi->reset_space == ACPI_SPACE_IO ||
					  (acpi->reset_space == ACPI_SPACE_MEMORY &&
					   acpi->reset_address < IDENTITY_MAPPED_LIMIT));
	reset_method.space = acpi->reset_space;
	reset_method.address = acpi->reset_address;
	reset_method.value = acpi->reset_value;
	/* IAPC_BOOT_ARCH bit 1, "8042": an ACPI 1.0 FADT has no such field and implies one. */
	reset_method.keyboard_controller =
		!acpi->fadt_found || !acpi->boot_arch_valid || (acpi->boot_arch_flags & 2);
}

static void settle(void)
{
	for (volatile int i = 0; i < 1000000; i++)
		;
}

static void reset(void)
{
	/* The FADT's reset register (ACPI 6.5, 4.8.4.6), where the firmware names one. */
	if (reset_method.acpi_register) {
		if (reset_method.space == ACPI_SPACE_IO)
			outb((uint16_t)reset_method.address, reset_method.value);
		else
			*(volatile uint8_t *)(uintptr_t)reset_method.address = reset_method.value;
		settle();
	}
	/* The PCI reset control register (0xCF9): full reset. */
	outb(0xcf9, 0x02);
	outb(0xcf9, 0x06);
	settle();
	/* The keyboard controller's pulse-reset command, once its input buffer is empty. */
	if (reset_method.keyboard_controller) {
		for (int i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
			cpu_relax();
		outb(0x64, 0xfe);
		settle();
	}
	/* Last resort: an empty IDT turns the next exception into a triple fault, which resets. */
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) empty = { 0, 0 };
	__asm__ volatile("lidt %0; int3" ::"m"(empty));
}

void machine_exit(unsigned mode, bool pass)
{
	switch (mode) {
	case EXIT_MODE_QEMU:
		outb(QEMU_EXIT_PORT, pass ? QEMU_EXIT_PASS : QEMU_EXIT_FAIL);
		kprintf("exit=qemu: no isa-debug-exit device at port 0x%x; halting instead\n",
			QEMU_EXIT_PORT);
		break;
	case EXIT_MODE_REBOOT:
		kprintf("rebooting\n");
		reset();
		kprintf("reset did not happen; halting instead\n");
		break;
	default:
		break;
	}
	kprintf("halted: the run is over; power off or reset the machine.\n");
	cpu_halt_forever();
}
