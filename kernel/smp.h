/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Starting application processors (INIT-SIPI-SIPI, SDM vol. 3A, 9.4.4), handing them work, and
 * stopping them at the end of a run.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/percpu.h"
#include "kernel/trap_frame.h"

/* Copy the trampoline to page (below 1 MiB) and set the waits for this CPU family. */
void smp_init(uint64_t trampoline_page, bool intel_family6_or_newer_amd);

/*
 * Start the CPU described by cpu (its apic_id and index set): stacks, INIT, STARTUP, and a bounded
 * wait for it to report online. Returns false when it does not answer within timeout_us.
 */
bool smp_start_cpu(struct percpu *cpu, uint64_t timeout_us, uint64_t *elapsed_tsc);

/* Hand fn(arg) to an online CPU other than the caller; false if it is busy or offline. */
bool smp_post(struct percpu *cpu, void (*fn)(void *), void *arg);

/* Wait until cpu has finished what was posted last; false at the deadline. */
bool smp_wait_idle(struct percpu *cpu, uint64_t deadline_tsc);

/* An AP that has nothing more to do: halt with interrupts off (only an NMI or INIT wakes it). */
void smp_park(void *unused);

/* NMI every other online CPU and wait (bounded) until they have halted. */
void smp_stop_others(void);

/* An NMI that smp_stop_others() did not send is offered to claim first (NULL: none); it
 * returns true when the NMI was its own. */
void smp_nmi_claim(bool (*claim)(struct trap_frame *frame));

#endif
