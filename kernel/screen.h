/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The screen as a grid of text cells, whatever draws it: the VGA text buffer (kernel/vga.c) or a
 * linear framebuffer with the bitmap font (kernel/framebuffer.c). The grid keeps what each cell
 * shows, so that scrolling redraws only the cells whose character or colour changes and never
 * reads the screen's memory back (slow on real graphics hardware).
 *
 * Layout: row 0 is the status line (the run's progress, kept in place); the rows below it scroll
 * the console's text; at the end of the run a banner of large type (the verdict) takes the
 * bottom rows, and the text goes on scrolling above it.
 *
 * A cell is a VGA character/attribute pair: character in bits 0-7, foreground colour in bits 8-11,
 * background in bits 12-15, both in the 16-colour VGA palette (SCREEN_* below).
 */
#ifndef KERNEL_SCREEN_H
#define KERNEL_SCREEN_H

#include <stdint.h>

enum screen_colour {
	SCREEN_BLACK = 0,
	SCREEN_BLUE = 1,
	SCREEN_GREEN = 2,
	SCREEN_CYAN = 3,
	SCREEN_RED = 4,
	SCREEN_GREY = 7,
	SCREEN_DARK_GREY = 8,
	SCREEN_BRIGHT_GREEN = 10,
	SCREEN_BRIGHT_RED = 12,
	SCREEN_YELLOW = 14,
	SCREEN_WHITE = 15,
};

#define SCREEN_ATTRIBUTE(foreground, background) ((uint8_t)((background) << 4 | (foreground)))
#define SCREEN_NORMAL SCREEN_ATTRIBUTE(SCREEN_GREY, SCREEN_BLACK)

/* What a backend does for the grid. */
struct screen_ops {
	/* Show cell (character and attribute) at column, row. */
	void (*draw_cell)(uint32_t column, uint32_t row, uint16_t cell);
	/* Text rows a banner of text needs (large type and a margin), at most rows_free. */
	uint32_t (*banner_rows)(const char *text, uint32_t rows_free);
	/* Draw text in large type on a band of the background colour over rows [top, top+rows). */
	void (*draw_banner)(uint32_t top, uint32_t rows, const char *text, uint8_t attribute);
	/* Rows the text moves up when it reaches the bottom: 1, or more where a redraw is dear. */
	uint32_t scroll_step;
};

#define SCREEN_MAX_COLUMNS 320
#define SCREEN_MAX_ROWS 160

/* A grid of columns x rows (clipped to the maxima) drawn by ops; clears the screen. */
void screen_init(const struct screen_ops *ops, uint32_t columns, uint32_t rows);
/* The console's text: printable ASCII, '\n', '\t'; other bytes show as '?', '\r' is ignored. */
void screen_putc(char c);
/* The attribute of what screen_putc writes from now on. */
void screen_set_attribute(uint8_t attribute);
/* Replace the status line's text (cut at the screen's width). */
void screen_status(const char *text);
/* The banner: text in large type at the bottom; a second banner replaces the first. */
void screen_banner(const char *text, uint8_t attribute);
/* Draw every cell and the banner again, after something else drew on the screen (kernel/qr/). */
void screen_redraw(void);

#endif
