; SPDX-License-Identifier: GPL-2.0
;
; One entry stub per IDT vector. Each pushes a uniform frame (vector, error code: zero when the
; CPU pushes none; SDM vol. 3A, 6.13 and table 6-1) and joins isr_common or isr_paranoid, which
; save the general registers, make the GS base the kernel's and call
; trap_dispatch(struct trap_frame *) (kernel/trap.h).
;
; The GS base (kernel/percpu.h): the kernel's per-CPU data while the kernel runs, ring 3's while
; ring 3 does; SWAPGS exchanges them (SDM vol. 2B, SWAPGS) on every entry from CPL 3 and every
; return to it, as Linux's arch/x86/entry/entry_64.S does: isr_common, taken from CPL 3, decides
; by the CS the CPU saved. Where the CPU was at CPL 0 that is not enough: between the SYSCALL
; entry's first instruction and its SWAPGS (a #DB of a single-step trap after SYSCALL) and between
; an exit's SWAPGS and its IRETQ or SYSRET (an NMI, #MC or #DB, which a clear IF does not hold
; off) the GS base is ring 3's; and code of a bundle run at CPL 0 (tests/owncode) may have loaded
; GS itself. So every entry from CPL 0, and NMI, #DB, #MC and #DF from anywhere, take the paranoid
; entry, which does not guess: as Linux's paranoid_entry does where it can write the GS base (with
; FSGSBASE), it keeps the GS base it found, writes this CPU's per-CPU area into IA32_GS_BASE and
; writes the kept value back before IRETQ. It finds the area without GS: this CPU's GDT lies in
; its struct percpu (PERCPU_TABLES), and SGDT gives its address.
;
; The CPU aligns RSP to 16 bytes before pushing its 5-quadword frame (SDM vol. 3A, 6.14.2); with
; error code, vector and 15 registers the frame is 176 bytes, so the C call sees an aligned stack.

%include "kernel/layout.inc"		; MSR_GS_BASE, PERCPU_TABLES
%include "kernel/trap_frame.inc"	; PUSH_TRAP_REGS, POP_TRAP_REGS

section .text
bits 64

extern trap_dispatch

; Where the CPU's CS is in the frame: above vector, error code and RIP.
FRAME_CS		equ 24

; Vectors for which the CPU pushes an error code: #DF, #TS, #NP, #SS, #GP, #PF, #AC, #CP, #VC, #SX.
; The paranoid ones: #DB, NMI, #DF, #MC.
%macro ISR 1
isr_stub_%1:
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30
	push qword %1
%else
	push qword 0
	push qword %1
%endif
%if %1 == 1 || %1 == 2 || %1 == 8 || %1 == 18
	jmp isr_paranoid
%else
	jmp isr_common
%endif
%endmacro

%assign vector 0
%rep 256
ISR vector
%assign vector vector + 1
%endrep

isr_common:
	test qword [rsp + FRAME_CS], 3
	jz isr_paranoid			; from CPL 0
	swapgs
	PUSH_TRAP_REGS
	mov rdi, rsp
	cld
	call trap_dispatch
	POP_TRAP_REGS
	add rsp, 16			; vector and error code
	swapgs				; back to CPL 3, where the frame came from
	iretq

isr_paranoid:
	PUSH_TRAP_REGS
	cld
	mov ecx, MSR_GS_BASE
	rdmsr
	mov r12d, eax			; R12, R13 (kept across the call): the GS base found
	mov r13d, edx
	sub rsp, 16
	sgdt [rsp]			; limit (2 bytes), base (8)
	mov rax, [rsp + 2]
	add rsp, 16
	sub rax, PERCPU_TABLES		; this CPU's struct percpu
	mov rdx, rax
	shr rdx, 32
	wrmsr
	mov rdi, rsp
	call trap_dispatch
	mov ecx, MSR_GS_BASE
	mov eax, r12d
	mov edx, r13d
	wrmsr
	POP_TRAP_REGS
	add rsp, 16			; vector and error code
	iretq

section .rodata
global isr_stub_table
	align 8
isr_stub_table:
%assign vector 0
%rep 256
	dq isr_stub_ %+ vector
%assign vector vector + 1
%endrep

section .note.GNU-stack noalloc noexec nowrite progbits
