; SPDX-License-Identifier: GPL-2.0
;
; The SYSCALL entry (IA32_LSTAR; SDM vol. 3A, 5.8.8; vol. 2B, SYSCALL and SYSRET). SYSCALL has
; loaded the kernel's CS and SS from IA32_STAR, put the ring-3 RIP in RCX and RFLAGS in R11, and
; cleared the IA32_FMASK flags (IF among them, so nothing interrupts the entry); it switched no
; stack. The entry saves the ring-3 RSP in the per-CPU area, switches to the CPU's entry stack
; (the value of TSS.RSP0, which user_enter set), builds the same struct trap_frame an interrupt
; from CPL 3 builds (kernel/isr.asm's order, kernel/trap_frame.h) and calls syscall_from_user(),
; which runs the handler and says whether SYSRET may return; IRETQ returns otherwise.
;
; The per-CPU area is found through the GS base after SWAPGS has made it the kernel's (SYSCALL
; comes from CPL 3 only: a CPL-0 caller has no SYSCALL, kernel/syscall.h), and SWAPGS gives ring
; 3 its own back right before SYSRET or IRETQ. An NMI or #MC arriving before the stack switch runs
; on its own IST stack (kernel/idt.c); an NMI, #MC or #DB between a SWAPGS and the instruction
; that leaves finds the GS base as it is through the paranoid entry (kernel/isr.asm).

%include "kernel/layout.inc"		; USER_DS, USER_CS, PERCPU_*, SYSCALL_FRAME_VECTOR
%include "kernel/trap_frame.inc"	; PUSH_TRAP_REGS, POP_TRAP_REGS

section .text
bits 64

extern syscall_from_user

global syscall_entry
syscall_entry:
	swapgs
	mov [gs:PERCPU_SYSCALL_USER_RSP], rsp
	mov rsp, [gs:PERCPU_ENTRY_RSP]
	; What the CPU pushes for an interrupt from CPL 3: SS, RSP, RFLAGS, CS, RIP.
	push qword USER_DS
	push qword [gs:PERCPU_SYSCALL_USER_RSP]
	push r11
	push qword USER_CS
	push rcx
	push qword 0				; error code
	push qword SYSCALL_FRAME_VECTOR
	PUSH_TRAP_REGS
	mov rdi, rsp				; 22 quadwords below a 16-byte aligned RSP0
	call syscall_from_user
	test al, al				; POP and LEA keep the flags
	POP_TRAP_REGS
	lea rsp, [rsp + 16]			; vector and error code
	jz .iret
	; SYSRET: RIP from RCX, RFLAGS from R11 (which the ring-3 caller gave up), RSP by hand. An
	; NMI between the two last instructions runs on its IST stack, not on the ring-3 one.
	mov rcx, [rsp]
	mov r11, [rsp + 16]
	mov rsp, [rsp + 24]
	swapgs
	o64 sysret
.iret:
	swapgs				; the frame is ring 3's: the entry built it so
	iretq

section .note.GNU-stack noalloc noexec nowrite progbits
