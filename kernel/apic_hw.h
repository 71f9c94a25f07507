/* SPDX-License-Identifier: GPL-2.0 */
/*
 * This machine's local APICs: one mode for every CPU, chosen once on the boot CPU.
 */
#ifndef KERNEL_APIC_HW_H
#define KERNEL_APIC_HW_H

#include "kernel/apic.h"

extern struct apic local_apic;

/* Decide the mode (firmware's, `apic=`, ids above 254) and enable the boot CPU's APIC. Returns a
 * warning for a request that could not be followed, or NULL. */
const char *apic_setup_boot_cpu(enum apic_request request, uint32_t highest_apic_id);

/* Enable the calling AP's APIC in the mode the boot CPU chose. */
void apic_setup_this_cpu(void);

const char *apic_mode_name(void);

#endif
