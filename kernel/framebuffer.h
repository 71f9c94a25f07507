/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A linear framebuffer (multiboot2 framebuffer tag, or the native loader's GOP mode) as a backend
 * of the screen's text grid (kernel/screen.h): text in the bitmap font (kernel/font.h), doubled
 * on screens 2560 pixels wide or more, and the banner in large type. 15/16, 24 and 32 bits per
 * pixel, any RGB layout; indexed colour is not supported.
 */
#ifndef KERNEL_FRAMEBUFFER_H
#define KERNEL_FRAMEBUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/boot_info.h"
#include "kernel/screen.h"

/* Screens smaller than this in text cells are not used. */
#define FRAMEBUFFER_MIN_COLUMNS 40
#define FRAMEBUFFER_MIN_ROWS 12

/*
 * Take fb for the screen, clearing it: the backend and the grid's size in *ops, *columns and
 * *rows. NULL on success, otherwise why fb cannot be used (one sentence for a warn record).
 */
const char *framebuffer_init(const struct boot_framebuffer *fb, const struct screen_ops **ops,
			     uint32_t *columns, uint32_t *rows);

/*
 * Drawing beside the text grid, for the end of the run's pages of QR codes (kernel/qr/): the
 * framebuffer in use (false when there is none) with its text cell's size; a rectangle of one
 * colour; a line of text at a pixel position, its font pixels scale x scale screen pixels.
 */
bool framebuffer_size(uint32_t *width, uint32_t *height, uint32_t *cell_width,
		      uint32_t *cell_height);
void framebuffer_fill_rect(uint32_t x, uint32_t y, uint32_t width, uint32_t height,
			   enum screen_colour colour);
void framebuffer_text(uint32_t x, uint32_t y, const char *text, uint32_t scale, uint8_t attribute);

#endif
