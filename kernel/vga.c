// SPDX-License-Identifier: GPL-2.0
/*
 * VGA text mode: two bytes per cell, character and attribute, exactly the grid's cells. The
 * banner draws each glyph of the bitmap font with one character cell per pixel column and two
 * pixel rows (code page 437's half blocks), so that "PASS" in Terminus 16 takes 32 columns and
 * 5 rows.
 */
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/font.h"
#include "kernel/vga.h"

#define CP437_FULL_BLOCK 0xdb
#define CP437_LOWER_HALF 0xdc
#define CP437_UPPER_HALF 0xdf
#define BANNER_MARGIN_ROWS 1 /* band rows above and below the letters */
/* The CRT controller of a colour text mode: its Cursor Start register, whose bit 5 turns the
 * blinking hardware cursor off (IBM VGA technical reference, CRTC index 0Ah). */
#define CRTC_INDEX 0x3d4
#define CRTC_DATA 0x3d5
#define CRTC_CURSOR_START 0x0a
#define CURSOR_DISABLE 0x20

static volatile uint16_t *vga_memory;
static uint32_t vga_columns, vga_rows;

static void vga_draw_cell(uint32_t column, uint32_t row, uint16_t cell)
{
	vga_memory[row * vga_columns + column] = cell;
}

static uint32_t vga_banner_rows(const char *text, uint32_t rows_free)
{
	const struct font *font = &console_font;
	uint32_t first, last;

	if (strlen(text) * font->width > vga_columns)
		return 0;
	font_ink_rows(font, text, &first, &last);
	uint32_t rows = (last - first + 2) / 2 + 2 * BANNER_MARGIN_ROWS;
	return rows <= rows_free ? rows : 0;
}

/* The half-block character showing glyph rows y and y + 1 of pixel column x. */
static uint8_t half_blocks(const uint8_t *glyph, uint32_t x, uint32_t y, uint32_t last)
{
	const struct font *font = &console_font;
	int upper = font_pixel(font, glyph, x, y);
	int lower = y + 1 <= last && font_pixel(font, glyph, x, y + 1);

	if (upper && lower)
		return CP437_FULL_BLOCK;
	return upper ? CP437_UPPER_HALF : lower ? CP437_LOWER_HALF : ' ';
}

static void vga_draw_banner(uint32_t top, uint32_t rows, const char *text, uint8_t attribute)
{
	const struct font *font = &console_font;
	uint32_t first, last, length = (uint32_t)strlen(text);

	for (uint32_t i = top * vga_columns;
	     i < (top + rows) * vga_columns && i < vga_columns * vga_rows; i++)
		vga_memory[i] = (uint16_t)(attribute << 8 | ' ');
	font_ink_rows(font, text, &first, &last);
	uint32_t height = (last - first + 2) / 2;
	uint32_t row0 = top + (rows - height) / 2,
		 column0 = (vga_columns - length * font->width) / 2;
	for (uint32_t i = 0; i < length; i++) {
		const uint8_t *glyph = font_glyph(font, text[i]);
		for (uint32_t r = 0; r < height; r++)
			for (uint32_t x = 0; x < font->width; x++)
				vga_memory[(row0 + r) * vga_columns + column0 + i * font->width +
					   x] =
					(uint16_t)(attribute << 8 |
						   half_blocks(glyph, x, first + 2 * r, last));
	}
}

static const struct screen_ops vga_ops = {
	.draw_cell = vga_draw_cell,
	.banner_rows = vga_banner_rows,
	.draw_banner = vga_draw_banner,
	.scroll_step = 1,
};

const struct screen_ops *vga_init(uint64_t address, uint32_t columns, uint32_t rows)
{
	vga_memory = (volatile uint16_t *)(uintptr_t)address;
	vga_columns = columns;
	vga_rows = rows;
	/* The cursor stays where the BIOS left it, in the middle of the text: hide it. */
	outb(CRTC_INDEX, CRTC_CURSOR_START);
	outb(CRTC_DATA, CURSOR_DISABLE);
	return &vga_ops;
}
