; SPDX-License-Identifier: GPL-2.0
;
; The kernel ELF, embedded in BOOTX64.EFI. The loader then works wherever it was loaded from: from
; the FAT image, and chainloaded by GRUB from the ISO, whose ISO 9660 file system UEFI cannot
; read. boot/efi/efi.mk passes the directory of the (debug-stripped, symbol-keeping) copy with -I.

section .rodata.kernel_image progbits alloc noexec nowrite align=16
global kernel_image_start:data hidden
global kernel_image_end:data hidden
kernel_image_start:
	incbin "kernel.elf"
kernel_image_end:

section .note.GNU-stack noalloc noexec nowrite progbits
