// SPDX-License-Identifier: GPL-2.0
/*
 * VGA text mode: two bytes per cell, character and attribute, exactly the grid's cells. The
 * banner draws each glyph of the bitmap font with one character cell per pixel column and two
 * pixel rows (code page 437's half blocks), so that "PASS" in Terminus 16 takes 31 columns and 5
 * rows; a space between words takes only SPACE_COLUMNS, so that "MODEL PASS" fits 80 columns with
 * a margin.
 */
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/font.h"
#include "kernel/vga.h"

#define CP437_FULL_BLOCK 0xdb
#define CP437_LOWER_HALF 0xdc
#define CP437_UPPER_HALF 0xdf
#define BANNER_MARGIN_ROWS 1	/* band rows above and below the letters */
#define BANNER_MARGIN_COLUMNS 2 /* band columns at least left and right of them */
#define SPACE_COLUMNS 3		/* a space between words in the banner */
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

/* The banner's columns of c: a letter its ink columns (*first..*last of the text's) and one. */
static uint32_t pitch_of(char c, uint32_t first, uint32_t last)
{
	return c == ' ' ? SPACE_COLUMNS : last - first + 2;
}

/* The banner's columns for text, and the ink columns of its letters. */
static uint32_t banner_columns(const char *text, uint32_t *first, uint32_t *last)
{
	uint32_t width = 0;

	font_ink_columns(&console_font, text, first, last);
	for (const char *c = text; *c; c++)
		width += pitch_of(*c, *first, *last);
	return width ? width - 1 : 0;
}

static uint32_t vga_banner_rows(const char *text, uint32_t rows_free)
{
	const struct font *font = &console_font;
	uint32_t first, last;

	if (banner_columns(text, &first, &last) + 2 * BANNER_MARGIN_COLUMNS > vga_columns)
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
	uint32_t first, last, left, right, length = (uint32_t)strlen(text);
	uint32_t width = banner_columns(text, &left, &right);

	for (uint32_t i = top * vga_columns;
	     i < (top + rows) * vga_columns && i < vga_columns * vga_rows; i++)
		vga_memory[i] = (uint16_t)(attribute << 8 | ' ');
	font_ink_rows(font, text, &first, &last);
	uint32_t height = (last - first + 2) / 2;
	uint32_t row0 = top + (rows - height) / 2, column = (vga_columns - width) / 2;
	for (uint32_t i = 0; i < length; column += pitch_of(text[i++], left, right)) {
		const uint8_t *glyph = font_glyph(font, text[i]);
		for (uint32_t r = 0; r < height && text[i] != ' '; r++)
			for (uint32_t x = left; x <= right; x++)
				vga_memory[(row0 + r) * vga_columns + column + x - left] =
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
