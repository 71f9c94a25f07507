/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel says of the boot modules a loader did not pass on (kernel/boot_info.h's
 * module_problems[]): the words of their warn records (source "boot", key "module", the module's
 * name as value; docs/records.md).
 *
 * Pure code (host-tested, tests/host/test_boot_modules.c).
 */
#ifndef KERNEL_BOOT_MODULES_H
#define KERNEL_BOOT_MODULES_H

#include <stddef.h>

#include "kernel/boot_info.h"

/*
 * The warn record of one module not passed on: returns its `accepted` text and writes its
 * message, one sentence naming the module and why, into message (size bytes).
 */
const char *boot_module_problem_text(const struct boot_module_problem *p, char *message,
				     size_t size);

/* The `accepted` text of the warn about modules dropped beyond those named one by one. */
#define BOOT_MODULES_ACCEPTED "at most 16 modules, each a readable file of at most 128 MiB"

/* The firmware's name of an EFI_STATUS code without its error bit ("EFI_DEVICE_ERROR"), or NULL. */
const char *boot_efi_status_name(uint32_t code);

#endif
