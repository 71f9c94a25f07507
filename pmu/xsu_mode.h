/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The XSU mode of a run: how the two hyperthreads of a core share its counters while a
 * corrupting event of the BJ122/BV98/HSD29 erratum counts (thesis ch. 4-5, ch. 8). One enum and one
 * spelling per mode, from the command line (`xsu=`) to the records and the report
 * (docs/ARCHITECTURE.md, "Glossary"):
 *
 *   off   no exclusion: each thread schedules alone and the erratum shows;
 *   on    Linux's XSU (4.1-rc7): each thread schedules alone against its sibling's XSU states;
 *   core  core-wide XSU: one joint schedule for both threads, leaks caught and given back.
 *
 * The mode selects the ops that schedule a run (struct xsu_ops, pmu/mux_pair.h): the word, the
 * mode and the ops are the only forms the value takes on its way to the schedule.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_XSU_MODE_H
#define PMU_XSU_MODE_H

#include <stdbool.h>
#include <stddef.h>

enum xsu_mode { XSU_MODE_OFF, XSU_MODE_ON, XSU_MODE_CORE, XSU_MODE_COUNT };

/* The spellings, for tables that need them as constants (the command line's choices). */
#define XSU_MODE_NAME_OFF "off"
#define XSU_MODE_NAME_ON "on"
#define XSU_MODE_NAME_CORE "core"

/* A set of modes (what `xsu=` selects): a bit per mode. */
#define XSU_MODE_BIT(m) (1u << (m))
#define XSU_MODES_BOTH (XSU_MODE_BIT(XSU_MODE_OFF) | XSU_MODE_BIT(XSU_MODE_ON))
#define XSU_MODES_ALL (XSU_MODES_BOTH | XSU_MODE_BIT(XSU_MODE_CORE))

/* "off", "on", "core"; "?" for a value out of range. */
const char *xsu_mode_name(unsigned mode);

/* The mode named by the len bytes at word; false when none is. */
bool xsu_mode_by_name(const char *word, size_t len, enum xsu_mode *mode);

#endif
