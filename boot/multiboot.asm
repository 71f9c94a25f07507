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

%include "kernel/layout.inc"

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
MB1_BOOTLOADER_MAGIC	equ 0x2badb002		; in EAX from a multiboot1 loader
MB2_BOOTLOADER_MAGIC	equ 0x36d76289		; in EAX from a multiboot2 loader
MB2_TAG_CMDLINE		equ 1
QEMU_EXIT_PORT		equ 0xf4		; isa-debug-exit, as kernel/exit.h
QEMU_EXIT_FAIL		equ 1			; QEMU exits with status (1 << 1) | 1 = 3

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
; A CPU without long mode cannot run the kernel, but its user still gets what a reader understands
; (docs/records.md): the message on COM1 and the screen, a boot record saying why and the end
; record, both made with their CRCs at build time (boot/no_long_mode_records.c). Then QEMU's
; isa-debug-exit when the command line has the word exit=qemu, as the kernel would leave, else a
; halt. 486 instructions only; every loop is bounded.
.no_long_mode:
	call serial_init32
	mov esi, crlf
	call serial_puts32
	mov esi, no_long_mode_message
	call serial_puts32
	call vga_puts32
	mov esi, crlf
	call serial_puts32
	mov eax, [loader_magic]
	mov esi, no_long_mode_boot_unknown
	cmp eax, MB1_BOOTLOADER_MAGIC
	jne .not_multiboot1
	mov esi, no_long_mode_boot_multiboot1
.not_multiboot1:
	cmp eax, MB2_BOOTLOADER_MAGIC
	jne .boot_record
	mov esi, no_long_mode_boot_multiboot2
.boot_record:
	call serial_puts32
	mov esi, no_long_mode_end
	call serial_puts32
	call find_cmdline32
	test esi, esi
	jz .stop
	call has_exit_qemu32
	jne .stop
	mov al, QEMU_EXIT_FAIL
	out QEMU_EXIT_PORT, al
	mov esi, no_debug_exit_message
	call serial_puts32
.stop:
	mov esi, halted_message
	call serial_puts32
.halt32:
	cli
	hlt
	jmp .halt32

; COM1 at 115200 8N1 with FIFOs, as kernel/serial.c sets it, unless no UART answers there (its
; line status register then reads 0xFF).
serial_init32:
	mov dx, COM1 + 5
	in al, dx
	cmp al, 0xff
	je .absent
	mov dx, COM1 + 1		; no interrupts
	xor al, al
	out dx, al
	mov dx, COM1 + 3		; DLAB: the divisor follows
	mov al, 0x80
	out dx, al
	mov dx, COM1			; divisor 1: 115200 baud
	mov al, 1
	out dx, al
	mov dx, COM1 + 1
	xor al, al
	out dx, al
	mov dx, COM1 + 3		; 8N1
	mov al, 0x03
	out dx, al
	mov dx, COM1 + 2		; FIFOs on and cleared
	mov al, 0x07
	out dx, al
	mov dx, COM1 + 4		; DTR, RTS
	mov al, 0x03
	out dx, al
.absent:
	ret

; ESI: a NUL-terminated string to COM1, each byte after a bounded wait for the transmitter.
serial_puts32:
	push ecx
.next:
	mov bl, [esi]
	test bl, bl
	jz .done
	inc esi
	mov dx, COM1 + 5
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
	jmp .next
.done:
	pop ecx
	ret

; The no-long-mode message on the first line of the VGA text screen, white on red.
vga_puts32:
	mov esi, no_long_mode_message
	mov edi, 0xb8000
.next:
	lodsb
	test al, al
	jz .done
	mov ah, 0x4f
	mov [edi], ax
	add edi, 2
	jmp .next
.done:
	ret

; ESI: the loader's command line, or 0 when it gave none. Multiboot1: flags bit 2, the string's
; address at offset 16. Multiboot2: tag type 1, the string in the tag; the walk ends at the end
; tag, a tag smaller than its header, or the structure's total size.
find_cmdline32:
	xor esi, esi
	mov ebx, [loader_info]
	mov eax, [loader_magic]
	cmp eax, MB1_BOOTLOADER_MAGIC
	jne .multiboot2
	test dword [ebx], 1 << 2
	jz .done
	mov esi, [ebx + 16]
	ret
.multiboot2:
	cmp eax, MB2_BOOTLOADER_MAGIC
	jne .done
	mov edi, [ebx]
	add edi, ebx			; the end of the information
	jc .done
	lea ecx, [ebx + 8]		; the first tag
.tag:
	lea eax, [ecx + 8]
	cmp eax, edi
	ja .done
	mov eax, [ecx]			; type
	test eax, eax
	jz .done
	mov edx, [ecx + 4]		; size
	cmp edx, 8
	jb .done
	cmp eax, MB2_TAG_CMDLINE
	je .found
	add edx, 7			; tags are 8-byte aligned
	and edx, ~7
	add ecx, edx
	jc .done
	jmp .tag
.found:
	lea esi, [ecx + 8]
.done:
	ret

; ESI: a NUL-terminated command line. ZF set when one of its words (separated by blanks and
; control characters) is exactly exit=qemu. At most 64 KiB are read.
has_exit_qemu32:
	mov ecx, 65536
.skip_blanks:
	mov al, [esi]
	test al, al
	jz .no
	cmp al, ' '
	ja .word
	inc esi
	dec ecx
	jz .no
	jmp .skip_blanks
.word:
	mov edi, exit_qemu_word
	mov edx, esi
.compare:
	mov al, [edi]
	test al, al
	jz .word_matched
	cmp al, [edx]
	jne .skip_word
	inc edi
	inc edx
	jmp .compare
.word_matched:
	cmp byte [edx], ' '		; the word must end here: NUL or a blank
	jbe .yes
.skip_word:
	mov al, [esi]
	test al, al
	jz .no
	cmp al, ' '
	jbe .skip_blanks
	inc esi
	dec ecx
	jz .no
	jmp .skip_word
.yes:
	xor eax, eax			; ZF set
	ret
.no:
	or eax, 1			; ZF clear
	ret

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
crlf:
	db 13, 10, 0
exit_qemu_word:
	db "exit=qemu", 0
no_debug_exit_message:
	db "exit=qemu: no isa-debug-exit device at port 0xf4; halting instead", 13, 10, 0
halted_message:
	db "halted: the run is over; power off or reset the machine.", 13, 10, 0
%include "no_long_mode_records.inc"

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
