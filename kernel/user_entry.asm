; SPDX-License-Identifier: GPL-2.0
;
; Entering ring 3 with IRETQ and coming back from the exit system call (SDM vol. 3A, 6.14:
; the IRET frame SS, RSP, RFLAGS, CS, RIP). The kernel context to come back to is kept on the
; kernel stack; TSS.RSP0 and the per-CPU entry stack of the SYSCALL entry are pointed just below
; it, so that interrupts and system calls arriving from CPL 3 push their frames below the saved
; context instead of over it.

%include "kernel/layout.inc"		; USER_DS, USER_CS, PERCPU_ENTRY_RSP

RFLAGS_IF	equ 1 << 9
RFLAGS_RESERVED	equ 1 << 1

section .text
bits 64

; uint64_t user_enter(rip, user_rsp, arg0, arg1, uint64_t *tss_rsp0, uint64_t *return_rsp)
global user_enter
user_enter:
	push rbp
	mov rbp, rsp
	push rbx
	push r12
	push r13
	push r14
	push r15
	pushfq
	mov [r9], rsp				; where user_exit resumes
	mov [r8], rsp				; RSP0: below the saved context
	mov [gs:PERCPU_ENTRY_RSP], rsp		; the same for the SYSCALL entry
	push qword USER_DS			; SS
	push rsi				; RSP
	push qword RFLAGS_IF | RFLAGS_RESERVED	; RFLAGS: interrupts on, IOPL 0
	push qword USER_CS			; CS
	push rdi				; RIP
	mov rdi, rdx				; the entry's two arguments
	mov rsi, rcx
	; Nothing of the kernel leaks into ring 3.
	xor eax, eax
	xor ebx, ebx
	xor ecx, ecx
	xor edx, edx
	xor ebp, ebp
	xor r8d, r8d
	xor r9d, r9d
	xor r10d, r10d
	xor r11d, r11d
	xor r12d, r12d
	xor r13d, r13d
	xor r14d, r14d
	xor r15d, r15d
	; Ring 3's GS base (kernel/percpu.h), with no interrupt between SWAPGS and IRETQ: one would
	; find CS the kernel's and the GS base ring 3's. IRETQ sets IF again from the frame.
	cli
	swapgs
	iretq

; void user_exit(uint64_t return_rsp, uint64_t result): called from the exit system call; unwinds
; the system call's kernel frames and returns result from user_enter.
global user_exit
user_exit:
	mov rsp, rdi
	mov rax, rsi
	popfq
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
