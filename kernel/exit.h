/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Leaving the machine at the end of a run: halt, reboot, or QEMU's isa-debug-exit device.
 */
#ifndef KERNEL_EXIT_H
#define KERNEL_EXIT_H

#include <stdbool.h>

struct acpi_info;

/* QEMU's exit status is (value << 1) | 1 (hw/misc/debugexit.c): 1 means pass, 3 means fail. */
#define QEMU_EXIT_PORT 0xf4
#define QEMU_EXIT_PASS 0
#define QEMU_EXIT_FAIL 1

__attribute__((noreturn)) void machine_exit(unsigned mode, bool pass);

/* exit=reboot tries the FADT's reset register first, and the 8042 only where the FADT says there
 * is one; without a call, 0xCF9 and the 8042. */
void machine_use_acpi_reset(const struct acpi_info *acpi);

#endif
