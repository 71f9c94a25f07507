/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end of the boot: its verdict and the end record (docs/records.md). Every boot ends with an
 * end record, whether the payload finished, a check failed, or an exception struck; then the
 * machine leaves as `exit=` says. This is the kernel's one way to report a failure
 * (docs/ARCHITECTURE.md, "Errors"): boot_fail() for one that lets the boot go on, boot_end()
 * after it for one that does not.
 */
#ifndef KERNEL_END_H
#define KERNEL_END_H

#include <stdbool.h>

/* Marks the boot failed; the first reason is the one the end record gives. */
void boot_fail(const char *reason);
bool boot_failed(void);

/* boot_fail(reason), then boot_end(): the fatal path (an exception nobody handles, a machine the
 * kernel cannot run on). */
__attribute__((noreturn)) void boot_abort(const char *reason);

/* Emits the end record and leaves the machine. Only the first CPU to call it does; any other
 * CPU halts. */
__attribute__((noreturn)) void boot_end(void);

/* How the machine leaves (enum exit_mode, set from the command line). */
void boot_set_exit_mode(unsigned mode);

/*
 * What the verdict is about when nothing real was measured (kernel/pmu.c): said with it on the
 * console, the status line and the QR pages ("PASS (model PMU: nothing measured)"), and the
 * banner's large type reads pass_banner or fail_banner instead of PASS or FAIL ("MODEL PASS";
 * "NO PMU", which 80 columns of VGA text still hold) on a blue band, not a pass's green (a
 * failure's stays red), so that no one at the machine takes it for a measurement.
 */
void boot_set_caveat(const char *caveat, const char *pass_banner, const char *fail_banner);

#endif
