; SPDX-License-Identifier: GPL-2.0
;
; Boot code of the FAT image's MBR (the first 440 bytes; tools/efi_image.py adds the partition
; table). The image boots under UEFI only, but its partition is marked active (some firmware of
; the Sandy Bridge era lists a stick only then), so a legacy BIOS or CSM may run this code: it
; says what to do instead of hanging on an empty sector, then hands the boot back to the BIOS.
;
; Runs in real mode at 0:0x7c00 (IBM PC BIOS boot protocol); text through INT 10h AH=0Eh and,
; for a serial console, straight to COM1 (a bounded wait: without a UART the status reads 0xFF).

bits 16
org 0x7c00

COM1		equ 0x3f8

start:
	cli
	xor ax, ax
	mov ds, ax
	mov ss, ax
	mov sp, 0x7c00
	sti
	cld
	mov si, message
.next:
	lodsb
	test al, al
	jz .done
	mov bl, al
	mov ah, 0x0e			; teletype output, page 0
	xor bh, bh
	int 0x10
	mov dx, COM1 + 5		; line status: transmitter empty?
	mov cx, 0xffff
.wait:
	in al, dx
	test al, 0x20
	loopz .wait
	mov dx, COM1
	mov al, bl
	out dx, al
	jmp .next
.done:
	xor ah, ah			; wait for a key
	int 0x16
	int 0x18			; no bootable OS here: the BIOS tries the next device
.halt:
	hlt
	jmp .halt

message:
	db 13, 10, "pmu-testkernel: this stick boots under UEFI only.", 13, 10
	db "Pick its 'UEFI:' entry in the firmware's boot menu (Secure Boot off),", 13, 10
	db "or write pmu-testkernel.iso to the stick for a legacy BIOS.", 13, 10
	db "Press a key to go on to the next boot device.", 13, 10, 0

	times 440 - ($ - $$) db 0
