/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The VGA text screen (80x25 at 0xB8000) as a second console, for machines booted through BIOS.
 */
#ifndef KERNEL_VGA_H
#define KERNEL_VGA_H

#include <stdint.h>

void vga_init(uint64_t address, uint32_t columns, uint32_t rows);
void vga_putc(char c);
/* Attribute for what follows: white on red for failures, grey on black otherwise. */
void vga_set_alert(int alert);

#endif
