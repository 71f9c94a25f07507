// SPDX-License-Identifier: GPL-2.0
/*
 * Reading PSF fonts (psf.h).
 *
 * The formats are those of the Linux kbd package's psf.h: PSF1 has a 4-byte header (magic 36 04,
 * mode, height), 8-pixel-wide glyphs of one byte per row, 256 or 512 of them, then with mode bit
 * 1 a table of UCS-2 code points per glyph, each list ended by FFFF (FFFE starts sequences, which
 * we skip). PSF2 has a 32-byte header (magic 72 b5 4a 86, version, header size, flags, glyph
 * count, bytes per glyph, height, width) and with flags bit 0 a table of UTF-8 strings per glyph,
 * each list ended by FF (FE starts sequences).
 */
#include <string.h>

#include "tools/src/psf2c/psf.h"

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void note_code_point(struct psf *font, uint32_t code_point, uint32_t glyph)
{
	if (code_point >= FONT_FIRST_CHAR && code_point <= FONT_LAST_CHAR &&
	    font->ascii_glyph[code_point - FONT_FIRST_CHAR] < 0)
		font->ascii_glyph[code_point - FONT_FIRST_CHAR] = (int)glyph;
}

/* PSF1: per glyph, UCS-2 little-endian code points up to FFFF; after FFFE, sequences. */
static void read_table_psf1(struct psf *font)
{
	const uint8_t *p = font->table;

	for (uint32_t glyph = 0; glyph < font->glyph_count && p + 2 <= font->end; glyph++) {
		int in_sequence = 0;
		for (; p + 2 <= font->end; p += 2) {
			uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8;
			if (u == 0xffff)
				break;
			if (u == 0xfffe)
				in_sequence = 1;
			else if (!in_sequence)
				note_code_point(font, u, glyph);
		}
		p += 2;
	}
}

/* PSF2: per glyph, UTF-8 characters up to FF; after FE, sequences. Only ASCII matters here. */
static void read_table_psf2(struct psf *font)
{
	const uint8_t *p = font->table;

	for (uint32_t glyph = 0; glyph < font->glyph_count && p < font->end; glyph++) {
		int in_sequence = 0;
		for (; p < font->end && *p != 0xff; p++) {
			if (*p == 0xfe)
				in_sequence = 1;
			else if (!in_sequence && *p < 0x80)
				note_code_point(font, *p, glyph);
		}
		p++;
	}
}

const char *psf_parse(const uint8_t *data, size_t size, struct psf *font)
{
	uint32_t header;

	memset(font, 0, sizeof(*font));
	if (size >= 4 && data[0] == 0x36 && data[1] == 0x04) {
		font->version = 1;
		header = 4;
		font->glyph_count = data[2] & 1 ? 512 : 256;
		font->height = font->glyph_bytes = data[3];
		font->width = 8;
		font->table =
			data[2] & 2 ? data + header + font->glyph_count * font->glyph_bytes : NULL;
	} else if (size >= 32 && get32(data) == 0x864ab572) {
		font->version = 2;
		header = get32(data + 8);
		font->glyph_count = get32(data + 16);
		font->glyph_bytes = get32(data + 20);
		font->height = get32(data + 24);
		font->width = get32(data + 28);
		if (header < 32 || header > size)
			return "PSF2 header size out of range";
		font->table =
			get32(data + 12) & 1
				? data + header + (size_t)font->glyph_count * font->glyph_bytes
				: NULL;
	} else {
		return "not a PSF1 or PSF2 font (was it decompressed?)";
	}
	font->row_bytes = (font->width + 7) / 8;
	if (!font->width || !font->height || font->glyph_bytes > PSF_MAX_GLYPH_BYTES ||
	    font->glyph_bytes != font->row_bytes * font->height)
		return "glyph size out of range";
	if (font->glyph_count < 128 ||
	    (size - header) / font->glyph_bytes < (size_t)font->glyph_count)
		return "the file ends inside the glyphs";
	font->glyphs = data + header;
	font->end = data + size;
	for (unsigned i = 0; i < FONT_GLYPHS; i++)
		font->ascii_glyph[i] = font->table ? -1 : (int)(FONT_FIRST_CHAR + i);
	if (font->table && font->version == 1)
		read_table_psf1(font);
	else if (font->table)
		read_table_psf2(font);
	for (unsigned i = 0; i < FONT_GLYPHS; i++)
		if (font->ascii_glyph[i] < 0)
			return "the Unicode table has no glyph for a printable ASCII character";
	return NULL;
}
