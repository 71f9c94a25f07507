/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run: its verdict and its end. Every run ends with an end record (ARCHITECTURE.md), whether
 * it finished, failed a check, or took an exception; then the machine leaves as `exit=` says.
 */
#ifndef KERNEL_RUN_H
#define KERNEL_RUN_H

#include <stdbool.h>

/* Marks the run failed; the first reason is the one the end record gives. */
void run_fail(const char *reason);
bool run_failed(void);

/* Emits the end record and leaves the machine. Only the first CPU to call it does; any other
 * CPU halts. */
__attribute__((noreturn)) void run_end(void);

/* How the machine leaves (set from the command line). */
void run_set_exit_mode(unsigned mode);

#endif
