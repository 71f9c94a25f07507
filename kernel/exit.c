// SPDX-License-Identifier: GPL-2.0
/*
 * The ways out. Each falls through to the next when it does not work: a missing isa-debug-exit
 * device or a reset that does not happen still ends in a halt with a message, never a hang
 * without one.
 */
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"

static void (*stop_other_cpus)(void);

void machine_set_stop_other_cpus(void (*stop)(void))
{
	stop_other_cpus = stop;
}

void machine_stop_other_cpus(void)
{
	if (stop_other_cpus)
		stop_other_cpus();
}

static void reset(void)
{
	/* The PCI reset control register (0xCF9): full reset. */
	outb(0xcf9, 0x02);
	outb(0xcf9, 0x06);
	for (volatile int i = 0; i < 1000000; i++)
		;
	/* The keyboard controller's pulse-reset command, once its input buffer is empty. */
	for (int i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
		cpu_relax();
	outb(0x64, 0xfe);
	for (volatile int i = 0; i < 1000000; i++)
		;
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
