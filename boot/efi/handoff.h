/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the loader leaves behind for the kernel: boot_info, in pages of its own below 4 GiB, and
 * the jump into the kernel.
 */
#ifndef BOOT_EFI_HANDOFF_H
#define BOOT_EFI_HANDOFF_H

#include "boot/efi/uefi.h"
#include "kernel/boot_info.h"

/* Zeroed pages below 4 GiB for boot_info; *pages is their number, for handoff_release(). */
EFI_STATUS handoff_prepare(struct boot_info **info, UINTN *pages);
void handoff_release(struct boot_info *info, UINTN pages);

/*
 * After ExitBootServices(), interrupts off: jump to the kernel's 64-bit entry with RDI = info,
 * still on the firmware's page tables, GDT and stack (handoff.c says why that is safe).
 */
__attribute__((noreturn)) void handoff_enter(struct boot_info *info, uint64_t entry);

#endif
