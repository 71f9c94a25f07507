/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make bench: the parts of schedbench.
 */
#ifndef SCHEDBENCH_H
#define SCHEDBENCH_H

#include <stdbool.h>

/* A core's scheduling per tick, core-wide XSU beside Linux's (core_tick.c). True when the
 * issue 16 target is met. */
bool bench_core_tick(void);

#endif
