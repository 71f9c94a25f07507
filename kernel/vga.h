/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The VGA text screen (80x25 at 0xB8000 when a BIOS left it) as a backend of the screen's text
 * grid (kernel/screen.h): cells are written as they are; the banner's large type is made of
 * half-block characters (code page 437) drawn after the bitmap font's glyphs.
 */
#ifndef KERNEL_VGA_H
#define KERNEL_VGA_H

#include <stdint.h>

#include "kernel/screen.h"

/* The backend for a text buffer of columns x rows at address. */
const struct screen_ops *vga_init(uint64_t address, uint32_t columns, uint32_t rows);

#endif
