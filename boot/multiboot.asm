; SPDX-License-Identifier: GPL-2.0
;
; How a boot loader reaches the kernel: the multiboot2 header (GRUB, BIOS and UEFI), a multiboot1
; header (so that `qemu -kernel` boots the same ELF in about 0.1 s), the 32-bit entry that enters
; long mode on the identity map of the first 4 GiB and calls multiboot_main() in C, and that map,
; ready-made as data.
;
; The native UEFI loader (boot/efi) does not come through the 32-bit entry: it enters
; kernel_entry64 already in long mode (see below).
;
; Multiboot Specification 0.6.96 (multiboot1) and 2.0 (multiboot2); Intel SDM vol. 3A, 9.8.5
; "Initializing IA-32e Mode".

%include "boot/layout.inc"

extern __image_start, __image_data_end, __image_end

MB1_MAGIC		equ 0x1badb002
MB1_FLAG_MEMINFO	equ 1 << 1		; ask for mem_lower/upper and the memory map
MB1_FLAG_AOUT_KLUDGE	equ 1 << 16		; load addresses are in the header, not the ELF
; No video-mode flag (bit 2): QEMU's -kernel loader sets no mode for it (it only warns "multiboot
; knows VBE. we don't" and leaves VGA text), and GRUB boots the kernel through multiboot2, whose
; header below asks for the framebuffer.
MB1_FLAGS		equ MB1_FLAG_MEMINFO | MB1_FLAG_AOUT_KLUDGE

MB2_MAGIC		equ 0xe85250d6
MB2_ARCH_I386		equ 0
MB2_TAG_END		equ 0
MB2_TAG_INFO_REQUEST	equ 1
MB2_TAG_FLAGS_OPTIONAL	equ 1

; Information tags we ask for (multiboot2 spec 3.6): command line, loader name, memory map, EFI
; 64-bit system table, ACPI old and new RSDP. The framebuffer (tag 8) comes unasked whenever the
; loader set a video mode: the framebuffer header tag below asks for one (multiboot2 spec 3.1.10),
; so that GRUB sets a linear framebuffer under UEFI and BIOS (boot/grub.cfg picks the mode); an
; EGA text mode, where GRUB leaves one, gives the VGA console (kernel/console.c).
MB2_INFO_CMDLINE	equ 1
MB2_INFO_LOADER_NAME	equ 2
MB2_INFO_MMAP		equ 6
MB2_INFO_EFI64		equ 12
MB2_INFO_ACPI_OLD	equ 14
MB2_INFO_ACPI_NEW	equ 15
MB2_TAG_FRAMEBUFFER	equ 5
; The mode preferred when grub.cfg sets no gfxpayload: 1024x768 at 32 bits per pixel, which VBE
; BIOSes and UEFI GOP both offer and where the kernel's 8x16 font gives 128x48 characters.
MB2_FRAMEBUFFER_WIDTH	equ 1024
MB2_FRAMEBUFFER_HEIGHT	equ 768
MB2_FRAMEBUFFER_DEPTH	equ 32

PTE_PRESENT		equ 1 << 0
PTE_WRITE		equ 1 << 1
PTE_LARGE		equ 1 << 7
LARGE_PAGE		equ 0x200000

COM1			equ 0x3f8

; DS, ES and SS flat data, FS and GS null: after each entry's far jump or return to
; BOOT_KERNEL_CS, so that no segment register holds the previous GDT's selectors.
%macro load_data_segments 0
	mov ax, BOOT_KERNEL_DS
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
%endmacro

section .multiboot progbits alloc noexec nowrite align=8
; The multiboot1 header must sit in the first 8 KiB of the file, the multiboot2 header in the
; first 32 KiB; the linker script puts this section first.
mb1_header:
	dd MB1_MAGIC
	dd MB1_FLAGS
	dd -(MB1_MAGIC + MB1_FLAGS)
	; The a.out kludge: QEMU refuses to load an ELF64 image through multiboot1, but with these
	; addresses it copies the file as a flat image. The linker script makes the file layout match
	; the memory layout from __image_start to __image_data_end.
	dd mb1_header			; header_addr
	dd __image_start		; load_addr
	dd __image_data_end		; load_end_addr
	dd __image_end			; bss_end_addr
	dd multiboot_entry32		; entry_addr

	align 8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	; Information request: optional, so a loader that lacks one of them still boots us.
	align 8
.info_request:
	dw MB2_TAG_INFO_REQUEST, MB2_TAG_FLAGS_OPTIONAL
	dd .info_request_end - .info_request
	dd MB2_INFO_CMDLINE, MB2_INFO_LOADER_NAME, MB2_INFO_MMAP, MB2_INFO_EFI64
	dd MB2_INFO_ACPI_OLD, MB2_INFO_ACPI_NEW
.info_request_end:
	; A linear framebuffer, optional: a loader without graphics still boots the kernel, which
	; then has the serial console (and VGA text where the BIOS left it).
	align 8
	dw MB2_TAG_FRAMEBUFFER, MB2_TAG_FLAGS_OPTIONAL
	dd 20
	dd MB2_FRAMEBUFFER_WIDTH, MB2_FRAMEBUFFER_HEIGHT, MB2_FRAMEBUFFER_DEPTH
	align 8
	dw MB2_TAG_END, 0
	dd 8
mb2_header_end:

section .boot.text progbits alloc exec nowrite align=16
bits 32
; Entered from GRUB (multiboot1 or 2) or QEMU (multiboot1) in 32-bit protected mode, paging off,
; interrupts off, EAX = the loader's magic, EBX = physical address of its information structure.
global multiboot_entry32
multiboot_entry32:
	cld
	mov esp, boot_stack_top
	mov [loader_magic], eax		; kept for multiboot_main(magic, info)
	mov [loader_info], ebx

	; Long mode needs CPUID leaf 0x80000001 EDX bit 29. A CPU without it gets a clear message on
	; COM1 and the VGA text screen instead of a reset.
	pushfd
	pop eax
	mov ecx, eax
	xor eax, 1 << 21		; CPUID exists when EFLAGS.ID can be toggled
	push eax
	popfd
	pushfd
	pop eax
	push ecx
	popfd
	cmp eax, ecx
	je .no_long_mode
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29
	jz .no_long_mode

	mov eax, boot_pml4
	mov cr3, eax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov ecx, MSR_EFER
	rdmsr
	or eax, EFER_LME
	wrmsr
	mov eax, cr0
	or eax, CR0_PG | CR0_PE
	mov cr0, eax

	lgdt [boot_gdt_pointer]
	jmp BOOT_KERNEL_CS:.long_mode

bits 64
.long_mode:
	load_data_segments
	mov rsp, boot_stack_top
	mov edi, [loader_magic]
	mov esi, [loader_info]
	xor ebp, ebp			; end of the frame-pointer chain for backtraces
	extern multiboot_main
	call multiboot_main
.halt:
	cli
	hlt
	jmp .halt

bits 32
.no_long_mode:
	mov esi, no_long_mode_message
	mov edi, 0xb8000
.next_char:
	lodsb
	test al, al
	jz .stop
	mov ah, 0x4f			; white on red
	mov [edi], ax
	add edi, 2
	mov bl, al
	mov dx, COM1 + 5		; line status: wait (bounded) for the transmitter
	mov ecx, 100000
.wait:
	in al, dx
	test al, 0x20
	jnz .send
	loop .wait
.send:
	mov dx, COM1
	mov al, bl
	out dx, al
	jmp .next_char
.stop:
	cli
	hlt
	jmp .stop

bits 64
; The native UEFI loader's way in (boot/efi/handoff.c): already in long mode on the firmware's
; page tables, GDT and stack, interrupts off, RDI = physical address of a struct boot_info
; (kernel/boot_info.h) below 4 GiB that the loader built. Switch to our own identity map, stack
; and GDT before anything else: write nothing and load no segment register before that, as the
; firmware's tables and GDT sit in memory that is about to be free.
global kernel_entry64
kernel_entry64:
	cli
	cld
	; The firmware's CR4 may have global pages on (their TLB entries survive a CR3 load; clearing
	; PGE flushes them, SDM vol. 3A, 4.10.4.1) and user-page protections the kernel does not
	; expect: it reads and writes the workloads' ring-3 pages itself.
	mov rax, cr4
	and rax, ~(CR4_PGE | CR4_SMEP | CR4_SMAP | CR4_PKE)
	mov cr4, rax
	mov rax, boot_pml4		; the code here and boot_info are mapped the same in both
	mov cr3, rax
	mov rsp, boot_stack_top
	lgdt [boot_gdt_pointer]
	push BOOT_KERNEL_CS
	lea rax, [rel .reload_cs]
	push rax
	retfq
.reload_cs:
	load_data_segments
	xor ebp, ebp
	extern uefi_main
	call uefi_main
.halt64:
	cli
	hlt
	jmp .halt64

section .rodata
no_long_mode_message:
	db "pmu-testkernel: this CPU has no 64-bit long mode; it cannot run here.", 0

	align 16
; A minimal GDT for the switch; kernel/gdt.c installs the real per-CPU one.
boot_gdt:
	dq 0
	dq BOOT_GDT_CODE64		; BOOT_KERNEL_CS
	dq BOOT_GDT_DATA		; BOOT_KERNEL_DS
boot_gdt_end:
boot_gdt_pointer:
	dw boot_gdt_end - boot_gdt - 1
	dq boot_gdt

; The identity map of physical 0-4 GiB with 2 MiB pages (Intel SDM vol. 3A, 4.5): one PML4 entry,
; a PDPT with four entries, four page directories. Constant, so both entries load it as the image
; holds it; the kernel refines it from C (kernel/paging.c: user pages, uncached MMIO, guard pages).
section .data.boot_page_tables progbits alloc noexec write align=4096
global boot_pml4, boot_pdpt, boot_page_directories
boot_pml4:
	dq boot_pdpt + PTE_PRESENT + PTE_WRITE
	times 511 dq 0
boot_pdpt:
%assign i 0
%rep 4
	dq boot_page_directories + i * 4096 + PTE_PRESENT + PTE_WRITE
%assign i i + 1
%endrep
	times 512 - 4 dq 0
boot_page_directories:
%assign i 0
%rep 4 * 512
	dq i * LARGE_PAGE + PTE_PRESENT + PTE_WRITE + PTE_LARGE
%assign i i + 1
%endrep

section .bss
loader_magic:		resd 1
loader_info:		resd 1
	alignb 4096
; Unmapped by kmain: running off the bottom of the boot stack faults into a reported double fault
; instead of silently overwriting whatever lies below.
global boot_stack_guard, boot_stack_top
boot_stack_guard:	resb 4096
boot_stack:		resb BOOT_STACK_SIZE
boot_stack_top:
