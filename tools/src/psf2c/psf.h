/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a PSF console font (tools/src/psf2c): version 1 or 2, uncompressed, with the glyph of
 * each printable ASCII character found through the font's Unicode table when it has one.
 */
#ifndef TOOLS_PSF2C_PSF_H
#define TOOLS_PSF2C_PSF_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/font.h"

#define PSF_MAX_GLYPH_BYTES 512 /* 32x128 pixels; Terminus goes up to 16x32 */

struct psf {
	uint32_t glyph_count, glyph_bytes, height, width, row_bytes;
	const uint8_t *glyphs;
	const uint8_t *table, *end; /* the Unicode table, or NULL */
	int version;
	int ascii_glyph[FONT_GLYPHS]; /* glyph index of each printable ASCII character */
};

/* Parse size bytes of data into *font (which points into data). NULL, or what is wrong. */
const char *psf_parse(const uint8_t *data, size_t size, struct psf *font);

#endif
