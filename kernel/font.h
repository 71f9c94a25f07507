/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The screen's bitmap font: glyphs for the printable ASCII characters, converted at build time
 * from a PSF console font of Debian's console-setup-linux (Terminus, by default
 * Uni2-Terminus16.psf.gz) by tools/src/psf2c into $(BUILD)/gen/kernel/console_font.c. Nothing of
 * the font is committed. A glyph is `height` rows of `bytes_per_row` bytes, the leftmost pixel in the
 * most significant bit of a row's first byte (the PSF layout).
 */
#ifndef KERNEL_FONT_H
#define KERNEL_FONT_H

#include <stdint.h>

#define FONT_FIRST_CHAR 0x20 /* space */
#define FONT_LAST_CHAR 0x7e  /* tilde */
#define FONT_GLYPHS (FONT_LAST_CHAR - FONT_FIRST_CHAR + 1)

struct font {
	const char *name; /* the PSF file it came from */
	uint32_t width, height, bytes_per_row;
	const uint8_t *glyphs; /* FONT_GLYPHS glyphs of height * bytes_per_row bytes each */
};

extern const struct font console_font;

/* The glyph of c; a character outside printable ASCII is drawn as '?'. */
const uint8_t *font_glyph(const struct font *font, char c);

/* Whether pixel x of glyph row y is set. */
static inline int font_pixel(const struct font *font, const uint8_t *glyph, uint32_t x, uint32_t y)
{
	return glyph[y * font->bytes_per_row + x / 8] >> (7 - x % 8) & 1;
}

/*
 * The glyph rows that any character of text sets a pixel in, [*first, *last]: a banner of large
 * type leaves out the empty rows above and below the letters. Both 0 when text is blank.
 */
void font_ink_rows(const struct font *font, const char *text, uint32_t *first, uint32_t *last);
/* The same for the pixel columns any glyph of text inks. */
void font_ink_columns(const struct font *font, const char *text, uint32_t *first, uint32_t *last);

#endif
