/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Leaving the machine at the end of a run: halt, reboot, or QEMU's isa-debug-exit device.
 */
#ifndef KERNEL_EXIT_H
#define KERNEL_EXIT_H

#include <stdbool.h>

/* QEMU's exit status is (value << 1) | 1 (hw/misc/debugexit.c): 1 means pass, 3 means fail. */
#define QEMU_EXIT_PORT 0xf4
#define QEMU_EXIT_PASS 0
#define QEMU_EXIT_FAIL 1

__attribute__((noreturn)) void machine_exit(unsigned mode, bool pass);

/* Stop the other CPUs (a hook the SMP code fills in; nothing to do with one CPU). */
void machine_stop_other_cpus(void);
void machine_set_stop_other_cpus(void (*stop)(void));

#endif
