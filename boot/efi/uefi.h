/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of the native UEFI loader is built on, and nothing of the parts themselves:
 * GNU-EFI's headers in the firmware's calling convention, how the loader's messages begin, and
 * the 4 GiB below which it puts what the kernel reads. The parts' own interfaces are in
 * boot/efi/loader.h (which includes this) and boot/efi/handoff.h (which includes only this), so
 * that the loader's steps depend on the hand-off and never the other way.
 */
#ifndef BOOT_EFI_UEFI_H
#define BOOT_EFI_UEFI_H

#include <efi.h>
#include <efilib.h>

#ifndef HAVE_USE_MS_ABI
#error "build with -DGNU_EFI_USE_MS_ABI: the loader calls the firmware directly"
#endif

#define LOADER_SAY L"pmu-testkernel UEFI loader: "

/* The kernel's identity map covers 0-4 GiB: its image and boot_info must lie below. */
#define LOADER_LIMIT_4G 0x100000000ull

#endif
