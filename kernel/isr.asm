; SPDX-License-Identifier: GPL-2.0
;
; One entry stub per IDT vector. Each pushes a uniform frame (vector, error code: zero when the
; CPU pushes none; SDM vol. 3A, 6.13 and table 6-1) and joins isr_common, which saves the general
; registers and calls trap_dispatch(struct trap_frame *) (kernel/trap.h).
;
; The CPU aligns RSP to 16 bytes before pushing its 5-quadword frame (SDM vol. 3A, 6.14.2); with
; error code, vector and 15 registers the frame is 176 bytes, so the C call sees an aligned stack.

%include "kernel/trap_frame.inc"

section .text
bits 64

extern trap_dispatch

; Vectors for which the CPU pushes an error code: #DF, #TS, #NP, #SS, #GP, #PF, #AC, #CP, #VC, #SX.
%macro ISR 1
isr_stub_%1:
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30
	push qword %1
%else
	push qword 0
	push qword %1
%endif
	jmp isr_common
%endmacro

%assign vector 0
%rep 256
ISR vector
%assign vector vector + 1
%endrep

isr_common:
	PUSH_TRAP_REGS
	mov rdi, rsp
	cld
	call trap_dispatch
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
