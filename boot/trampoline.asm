; SPDX-License-Identifier: GPL-2.0
;
; The AP start-up trampoline. kernel/smp.c copies trampoline_start..trampoline_end to a free 4 KiB
; page below 1 MiB and sends STARTUP IPIs whose vector is that page's number: the AP begins here
; in real mode with CS = page >> 4, IP = 0 (SDM vol. 3A, 9.4.4.1 "Typical BSP Initialization
; Sequence" and 9.4.4.2 "Typical AP Initialization Sequence"). The code does not know its page in
; advance: it computes its linear base from CS and patches its GDT pointer and far jumps.
;
; Before each STARTUP IPI, the boot CPU fills the parameter block at the end (CR3, stack, entry,
; argument). The AP goes protected, then long mode on the kernel's page tables, and calls
; entry(argument) on its own stack.

%include "kernel/layout.inc"

TRAMPOLINE_CS32		equ 0x18	; 32-bit code, only here (the other two as in the boot GDT)

; CR0 as loaded, not as INIT left it: INIT keeps CD and NW as they were (Intel SDM vol. 3A,
; table 9-1), so a firmware that parked its APs with caching off would leave ours uncached.
; CD = NW = 0 is the normal cache mode (SDM vol. 3A, 11.5.1, table 11-5). MP and NE as
; fpu_enable() sets them on every CPU; EM, TS, WP and AM clear.
AP_CR0			equ CR0_PE | CR0_MP | CR0_ET | CR0_NE

section .rodata
align 4096

%define OFFSET(label) (label - trampoline_start)

bits 16
global trampoline_start
trampoline_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	movzx ebx, ax
	shl ebx, 4				; ebx = linear address of this page

	lea eax, [ebx + OFFSET(trampoline_gdt)]
	mov [OFFSET(trampoline_gdt_pointer) + 2], eax
	lea eax, [ebx + OFFSET(protected_mode)]
	mov [OFFSET(far_to_protected)], eax
	lea eax, [ebx + OFFSET(long_mode)]
	mov [OFFSET(far_to_long)], eax

	o32 lgdt [OFFSET(trampoline_gdt_pointer)]
	mov eax, AP_CR0
	mov cr0, eax
	o32 jmp far [OFFSET(far_to_protected)]

bits 32
protected_mode:
	mov ax, BOOT_KERNEL_DS
	mov ds, ax
	mov es, ax
	mov ss, ax

	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, [ebx + OFFSET(trampoline_cr3)]
	mov cr3, eax
	mov ecx, MSR_EFER
	rdmsr
	or eax, EFER_LME
	wrmsr
	mov eax, AP_CR0 | CR0_PG
	mov cr0, eax
	jmp far [ebx + OFFSET(far_to_long)]

bits 64
long_mode:
	mov ax, BOOT_KERNEL_DS
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov rsp, [rbx + OFFSET(trampoline_stack)]
	mov rdi, [rbx + OFFSET(trampoline_argument)]
	mov rax, [rbx + OFFSET(trampoline_entry)]
	xor ebp, ebp
	call rax
.halt:
	cli
	hlt
	jmp .halt

	align 8
; Flat segments, the 64-bit code and the data at the kernel's selectors; kernel/gdt.c replaces
; this GDT on arrival.
trampoline_gdt:
	dq 0
	dq BOOT_GDT_CODE64			; BOOT_KERNEL_CS
	dq BOOT_GDT_DATA			; BOOT_KERNEL_DS
	dq 0x00cf9a000000ffff			; TRAMPOLINE_CS32: as the data, executable
trampoline_gdt_end:
trampoline_gdt_pointer:
	dw trampoline_gdt_end - trampoline_gdt - 1
	dd 0					; patched: linear address of trampoline_gdt

far_to_protected:
	dd 0					; patched
	dw TRAMPOLINE_CS32
far_to_long:
	dd 0					; patched
	dw BOOT_KERNEL_CS

	align 8
; The parameter block, filled by the boot CPU before each STARTUP IPI.
global trampoline_cr3, trampoline_stack, trampoline_entry, trampoline_argument
trampoline_cr3:		dq 0
trampoline_stack:	dq 0
trampoline_entry:	dq 0
trampoline_argument:	dq 0
global trampoline_end
trampoline_end:

section .note.GNU-stack noalloc noexec nowrite progbits
