/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules of SYSCALL and SYSRET that the kernel's values must follow (SDM vol. 3A, 5.8.8 "Fast
 * System Calls in 64-Bit Mode"; vol. 2B, SYSCALL and SYSRET): the IA32_STAR value that the GDT's
 * selectors allow, the flags SYSCALL clears, and when SYSRET may return to ring 3 instead of
 * IRETQ. kernel/syscall.c writes the MSRs; kernel/syscall_entry.asm asks sysret_allowed().
 *
 * Pure code (host-tested, tests/host/test_syscall_rules.c).
 */
#ifndef KERNEL_SYSCALL_RULES_H
#define KERNEL_SYSCALL_RULES_H

#include <stdbool.h>
#include <stdint.h>

#define MSR_EFER 0xc0000080
#define EFER_SCE (1ull << 0) /* SYSCALL and SYSRET enabled */
#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082 /* the 64-bit entry */
#define MSR_FMASK 0xc0000084 /* RFLAGS bits SYSCALL clears */

#define RFLAGS_TRAP (1ull << 8)
#define RFLAGS_INTERRUPT (1ull << 9)
#define RFLAGS_DIRECTION (1ull << 10)
#define RFLAGS_NESTED_TASK (1ull << 14)
#define RFLAGS_RESUME (1ull << 16)
#define RFLAGS_ALIGNMENT_CHECK (1ull << 18)

/*
 * IA32_FMASK: what SYSCALL clears, as the interrupt gate did. IF: the entry runs on the ring-3
 * stack until it has switched, so no interrupt may arrive before. TF: single-stepping ring-3
 * code must not step the kernel. DF: C code expects it clear. AC: ring 3 may set it, and it
 * would lift SMAP in the kernel. NT: an IRETQ with NT set is a #GP in 64-bit mode (SDM vol. 2A,
 * IRET), and ring 3 can set it with POPF; Linux clears the same five (and IOPL, always 0 here).
 */
#define SYSCALL_FMASK                                                                              \
	(RFLAGS_INTERRUPT | RFLAGS_DIRECTION | RFLAGS_TRAP | RFLAGS_ALIGNMENT_CHECK |              \
	 RFLAGS_NESTED_TASK)

/*
 * IA32_STAR for these selectors, or false with the reason when their order does not suit the
 * instructions. SYSCALL loads CS from STAR[47:32] and SS from STAR[47:32] + 8; SYSRET to 64-bit
 * code loads CS from STAR[63:48] + 16 and SS from STAR[63:48] + 8, both with RPL 3. So the
 * kernel's data selector must follow its code selector, and the user's code selector its data
 * selector. STAR[63:48] is written with RPL 3, as Linux writes it.
 */
bool syscall_star(uint16_t kernel_cs, uint16_t kernel_ds, uint16_t user_cs, uint16_t user_ds,
		  uint64_t *star, const char **reason);

/*
 * Whether SYSRET may take a system call's frame back to ring 3; IRETQ takes it otherwise:
 * - RIP must be a canonical address of the lower half. Intel's SYSRET raises #GP for a
 *   non-canonical RCX after it has left the kernel's stack but while still at CPL 0 (SDM vol. 2B,
 *   SYSRET; CVE-2012-0217), which IRETQ does not; a ring-3 RIP is never in the upper half.
 * - RFLAGS must not have TF or RF: SYSRET would take a TF trap right after it, and it cannot set
 *   RF (SDM vol. 2B, SYSRET); IRETQ restores both. Linux makes the same two checks.
 * - CS and SS must still be the user's: SYSRET can only load those.
 */
bool sysret_allowed(uint64_t rip, uint64_t rflags, uint64_t cs, uint64_t ss, uint16_t user_cs,
		    uint16_t user_ds);

#endif
