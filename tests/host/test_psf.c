// SPDX-License-Identifier: GPL-2.0
/*
 * The PSF reader of tools/src/psf2c, which turns the Terminus console font into the kernel's
 * screen font: PSF1 and PSF2 fonts made here byte by byte, glyphs found through the Unicode table
 * (sequences and non-ASCII characters skipped), and the fonts it refuses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/lib/test_util.h"
#include "tools/src/psf2c/psf.h"

static uint8_t data[64 * 1024];

/* PSF1, 256 glyphs of 16 rows; glyph g's first row is g. The table maps c to glyph 255 - c, and
 * lists 'A' also inside a sequence of glyph 1, which must not count. */
static size_t make_psf1(int with_table)
{
	size_t n = 0;

	data[n++] = 0x36;
	data[n++] = 0x04;
	data[n++] = with_table ? 0x02 : 0x00;
	data[n++] = 16;
	for (unsigned g = 0; g < 256; g++) {
		memset(data + n, 0, 16);
		data[n] = (uint8_t)g;
		n += 16;
	}
	for (unsigned g = 0; with_table && g < 256; g++) {
		unsigned c = 255 - g;
		if (g == 1) { /* a sequence: FFFE, then 'A' and a combining mark */
			put_le(data + n, 0xfffe, 2);
			put_le(data + n + 2, 'A', 2);
			put_le(data + n + 4, 0x0301, 2);
			n += 6;
		}
		put_le(data + n, c, 2);
		put_le(data + n + 2, 0xffff, 2);
		n += 4;
	}
	return n;
}

/* PSF2, 128 glyphs of 4 rows and 10 pixels (2 bytes a row); glyph g's first byte is g. Glyph g
 * is listed for c = 127 - g after a two-byte UTF-8 character, and glyph 0 also lists 'B' in a
 * sequence after FE. */
static size_t make_psf2(void)
{
	size_t n = 32;

	put_le(data, 0x864ab572, 4);
	put_le(data + 4, 0, 4);
	put_le(data + 8, 32, 4);
	put_le(data + 12, 1, 4); /* has a Unicode table */
	put_le(data + 16, 128, 4);
	put_le(data + 20, 8, 4);
	put_le(data + 24, 4, 4);
	put_le(data + 28, 10, 4);
	for (unsigned g = 0; g < 128; g++) {
		memset(data + n, 0, 8);
		data[n] = (uint8_t)g;
		n += 8;
	}
	for (unsigned g = 0; g < 128; g++) {
		data[n++] = 0xc3; /* U+00E9 */
		data[n++] = 0xa9;
		data[n++] = (uint8_t)(127 - g);
		if (g == 0) {
			data[n++] = 0xfe;
			data[n++] = 'B';
		}
		data[n++] = 0xff;
	}
	return n;
}

static void test_psf1_with_unicode_table(void **state)
{
	(void)state;
	struct psf font;
	size_t size = make_psf1(1);

	assert_null(psf_parse(data, size, &font));
	assert_int_equal(font.version, 1);
	assert_int_equal(font.width, 8);
	assert_int_equal(font.height, 16);
	for (unsigned c = FONT_FIRST_CHAR; c <= FONT_LAST_CHAR; c++)
		assert_int_equal(font.ascii_glyph[c - FONT_FIRST_CHAR], 255 - c);
	assert_int_equal(font.glyphs[(255 - 'A') * 16], 255 - 'A');
}

static void test_psf1_without_table_is_in_code_order(void **state)
{
	(void)state;
	struct psf font;

	assert_null(psf_parse(data, make_psf1(0), &font));
	assert_int_equal(font.ascii_glyph['A' - FONT_FIRST_CHAR], 'A');
}

static void test_psf2_with_unicode_table(void **state)
{
	(void)state;
	struct psf font;

	assert_null(psf_parse(data, make_psf2(), &font));
	assert_int_equal(font.version, 2);
	assert_int_equal(font.width, 10);
	assert_int_equal(font.height, 4);
	assert_int_equal(font.row_bytes, 2);
	for (unsigned c = FONT_FIRST_CHAR; c <= FONT_LAST_CHAR; c++)
		assert_int_equal(font.ascii_glyph[c - FONT_FIRST_CHAR], 127 - c);
}

static void test_refused_fonts(void **state)
{
	(void)state;
	struct psf font;
	size_t size = make_psf1(1);

	assert_non_null(strstr(psf_parse(data, 3, &font), "not a PSF"));
	assert_non_null(strstr(psf_parse(data, 4 + 100 * 16, &font), "ends inside the glyphs"));
	/* The table cut after glyph 222: glyph 223, the only one for ' ', is not listed. */
	assert_non_null(strstr(psf_parse(data, size - 33 * 4, &font), "no glyph"));
	size = make_psf2();
	put_le(data + 20, 9, 4); /* bytes per glyph that do not match 2 x 4 */
	assert_non_null(strstr(psf_parse(data, size, &font), "glyph size"));
	data[0] = 0;
	assert_non_null(strstr(psf_parse(data, size, &font), "not a PSF"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_psf1_with_unicode_table),
		cmocka_unit_test(test_psf1_without_table_is_in_code_order),
		cmocka_unit_test(test_psf2_with_unicode_table),
		cmocka_unit_test(test_refused_fonts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
