// SPDX-License-Identifier: GPL-2.0
/*
 * Looking up glyphs of the screen's font (kernel/font.h). Pure: the host tests use it on fonts
 * of their own.
 */
#include "kernel/font.h"

const uint8_t *font_glyph(const struct font *font, char c)
{
	unsigned index = (unsigned char)c;

	if (index < FONT_FIRST_CHAR || index > FONT_LAST_CHAR)
		index = '?';
	return font->glyphs + (index - FONT_FIRST_CHAR) * font->height * font->bytes_per_row;
}

void font_ink_columns(const struct font *font, const char *text, uint32_t *first, uint32_t *last)
{
	*first = font->width;
	*last = 0;
	for (; *text; text++) {
		const uint8_t *glyph = font_glyph(font, *text);
		for (uint32_t y = 0; y < font->height; y++)
			for (uint32_t x = 0; x < font->width; x++)
				if (font_pixel(font, glyph, x, y)) {
					*first = x < *first ? x : *first;
					*last = x > *last ? x : *last;
				}
	}
	if (*first > *last)
		*first = *last = 0;
}

void font_ink_rows(const struct font *font, const char *text, uint32_t *first, uint32_t *last)
{
	uint32_t row_bytes = font->bytes_per_row;

	*first = font->height;
	*last = 0;
	for (; *text; text++) {
		const uint8_t *glyph = font_glyph(font, *text);
		for (uint32_t y = 0; y < font->height; y++)
			for (uint32_t b = 0; b < row_bytes; b++)
				if (glyph[y * row_bytes + b]) {
					*first = y < *first ? y : *first;
					*last = y > *last ? y : *last;
				}
	}
	if (*first > *last)
		*first = *last = 0;
}
