; SPDX-License-Identifier: GPL-2.0
;
; The last code the UEFI loader runs, copied into the hand-off block below 4 GiB (handoff.c) and
; run from there: the loader's own image may sit anywhere the firmware put it, above 4 GiB too,
; where the new identity map of 0-4 GiB would not reach. So this code is position independent
; and touches nothing but its arguments.
;
;   handoff_stub(rdi = &boot_info, rsi = PML4, rdx = &gdt_pointer, rcx = kernel entry,
;                r8 = stack top)                                    (System V AMD64 ABI)
;
; Called after ExitBootServices() with interrupts off. The firmware's page tables map the block
; (UEFI 2.10, 2.3.4.1: memory is identity mapped in boot services), so the switch of CR3 happens
; in code that both maps cover. The kernel contract (kernel_entry64 in boot/multiboot.asm): long
; mode, interrupts off, RDI = physical address of boot_info.

LOADER_CS	equ 0x08
LOADER_DS	equ 0x10

section .text
bits 64
global handoff_stub:function hidden
global handoff_stub_end:function hidden
handoff_stub:
	cli
	mov rsp, r8
	lgdt [rdx]
	mov cr3, rsi			; also flushes the firmware's non-global TLB entries
	; A far return is the only position-independent way to load CS in 64-bit mode.
	lea rax, [rel .reload_cs]
	push LOADER_CS
	push rax
	o64 retf
.reload_cs:
	mov eax, LOADER_DS
	mov ds, eax
	mov es, eax
	mov ss, eax
	xor eax, eax
	mov fs, eax
	mov gs, eax
	xor ebp, ebp
	jmp rcx
handoff_stub_end:

section .note.GNU-stack noalloc noexec nowrite progbits
