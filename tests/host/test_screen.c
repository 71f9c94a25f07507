// SPDX-License-Identifier: GPL-2.0
/*
 * The screen console on a framebuffer in host memory (kernel/screen.c, kernel/framebuffer.c,
 * kernel/font.c with the font converted at build time): every cell shows its character's glyph
 * in its colours, scrolling keeps the last lines in order, the banner takes the bottom rows and
 * keeps the last line of text visible, the pixel layouts of 32, 24 and 16 bits per pixel, and
 * the framebuffers the console refuses, each with its reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "kernel/font.h"
#include "kernel/framebuffer.h"
#include "kernel/screen.h"

#define WIDTH 640
#define HEIGHT 480
#define GREY 0xaaaaaa
#define CYAN 0x00aaaa
#define GREEN 0x00aa00
#define WHITE 0xffffff

static uint8_t *memory; /* below 4 GiB, as the kernel's identity map requires */
static struct boot_framebuffer fb;
static uint32_t columns, rows;

static int setup(void **state)
{
	(void)state;
	/* MAP_32BIT: the console refuses framebuffers above 4 GiB, as the kernel must. */
	memory = mmap(NULL, WIDTH * HEIGHT * 4, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	return memory == MAP_FAILED ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	munmap(memory, WIDTH * HEIGHT * 4);
	return 0;
}

/* A framebuffer of bpp bits per pixel, red/green/blue at the given positions and sizes. */
static const char *open_framebuffer(uint8_t bpp, uint8_t red, uint8_t green, uint8_t blue,
				    uint8_t red_size, uint8_t green_size, uint8_t blue_size)
{
	const struct screen_ops *ops;

	memset(memory, 0x5a, WIDTH * HEIGHT * 4); /* what the firmware left on the screen */
	fb = (struct boot_framebuffer){
		.address = (uint64_t)(uintptr_t)memory,
		.pitch = WIDTH * ((bpp + 7) / 8),
		.width = WIDTH,
		.height = HEIGHT,
		.bpp = bpp,
		.type = BOOT_FRAMEBUFFER_RGB,
		.red_position = red,
		.red_size = red_size,
		.green_position = green,
		.green_size = green_size,
		.blue_position = blue,
		.blue_size = blue_size,
	};
	const char *problem = framebuffer_init(&fb, &ops, &columns, &rows);
	if (!problem)
		screen_init(ops, columns, rows);
	return problem;
}

static uint32_t pixel(uint32_t x, uint32_t y)
{
	const uint8_t *p = memory + y * fb.pitch + x * ((fb.bpp + 7) / 8);
	uint32_t value = 0;

	for (unsigned i = 0; i < (fb.bpp + 7u) / 8; i++)
		value |= (uint32_t)p[i] << (8 * i);
	return value;
}

/* The cell at column, row shows c in foreground on background (x8r8g8b8 framebuffer). */
static void assert_cell(uint32_t column, uint32_t row, char c, uint32_t foreground,
			uint32_t background)
{
	const struct font *font = &console_font;
	const uint8_t *glyph = font_glyph(font, c);

	for (uint32_t y = 0; y < font->height; y++)
		for (uint32_t x = 0; x < font->width; x++) {
			uint32_t want = font_pixel(font, glyph, x, y) ? foreground : background;
			uint32_t got = pixel(column * font->width + x, row * font->height + y);
			if (got != want)
				fail_msg("cell %u,%u ('%c'): pixel %u,%u is %06x, expected %06x",
					 column, row, c, x, y, got, want);
		}
}

static void put_string(const char *s)
{
	while (*s)
		screen_putc(*s++);
}

static void test_font_from_the_psf(void **state)
{
	(void)state;
	const struct font *font = &console_font;
	uint32_t first, last, lit = 0;

	assert_int_equal(font->width, 8);
	assert_int_equal(font->height, 16);
	for (uint32_t i = 0; i < font->height * font->bytes_per_row; i++) {
		assert_int_equal(font_glyph(font, ' ')[i], 0);
		lit += __builtin_popcount(font_glyph(font, 'A')[i]);
	}
	assert_true(lit > 10);
	assert_ptr_equal(font_glyph(font, '\x80'), font_glyph(font, '?'));
	assert_ptr_equal(font_glyph(font, '\n'), font_glyph(font, '?'));
	assert_ptr_not_equal(font_glyph(font, 'A'), font_glyph(font, 'B'));
	font_ink_rows(font, "PASS", &first, &last);
	assert_true(first > 0 && last < font->height - 1 && last - first >= 6);
	font_ink_rows(font, "   ", &first, &last);
	assert_int_equal(first, 0);
	assert_int_equal(last, 0);
}

static void test_cells_status_and_text(void **state)
{
	(void)state;
	assert_null(open_framebuffer(32, 16, 8, 0, 8, 8, 8));
	assert_int_equal(columns, WIDTH / 8);
	assert_int_equal(rows, HEIGHT / 16);
	/* The firmware's picture is gone. */
	assert_int_equal(pixel(WIDTH - 1, HEIGHT - 1), 0);
	screen_status("pmu");
	put_string("Hi\tX\n\x01");
	assert_cell(0, 0, 'p', 0x000000, CYAN);
	assert_cell(3, 0, ' ', 0x000000, CYAN);
	assert_cell(0, 1, 'H', GREY, 0);
	assert_cell(1, 1, 'i', GREY, 0);
	assert_cell(8, 1, 'X', GREY, 0); /* the tab went to column 8 */
	assert_cell(0, 2, '?', GREY, 0); /* a control character shows as '?' */
	screen_set_attribute(SCREEN_ATTRIBUTE(SCREEN_WHITE, SCREEN_RED));
	put_string("F");
	assert_cell(1, 2, 'F', WHITE, 0xaa0000);
	screen_set_attribute(SCREEN_NORMAL);
}

/* Lines "line 0" ... "line n-1": after scrolling, the last ones are on screen, in order. */
static void test_scrolling_keeps_the_last_lines(void **state)
{
	(void)state;
	char line[32];
	unsigned n = 100;

	assert_null(open_framebuffer(32, 16, 8, 0, 8, 8, 8));
	for (unsigned i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "line %u\n", i);
		put_string(line);
	}
	/* The cursor is at the start of an empty row; find "line n-1" right above it. */
	uint32_t last_row = 0;
	for (uint32_t r = 1; r < rows; r++) {
		snprintf(line, sizeof(line), "line %u", n - 1);
		int match = 1;
		for (unsigned c = 0; line[c] && match; c++) {
			const uint8_t *glyph = font_glyph(&console_font, line[c]);
			for (uint32_t y = 0; y < 16 && match; y++)
				for (uint32_t x = 0; x < 8 && match; x++)
					match = (pixel(c * 8 + x, r * 16 + y) == GREY) ==
						font_pixel(&console_font, glyph, x, y);
		}
		if (match)
			last_row = r;
	}
	assert_true(last_row >= 1);
	for (uint32_t r = 1; r <= last_row; r++) {
		snprintf(line, sizeof(line), "line %u", n - 1 - (last_row - r));
		for (unsigned c = 0; line[c]; c++)
			assert_cell(c, r, line[c], GREY, 0);
		assert_cell((uint32_t)strlen(line), r, ' ', GREY, 0);
	}
	/* Long lines wrap. */
	for (unsigned i = 0; i < columns + 3; i++)
		screen_putc('w');
	screen_putc('\n');
}

static void test_banner_at_the_bottom(void **state)
{
	(void)state;
	assert_null(open_framebuffer(32, 16, 8, 0, 8, 8, 8));
	for (unsigned i = 0; i < rows + 5; i++)
		put_string("text\n");
	put_string("last line");
	screen_banner("PASS", SCREEN_ATTRIBUTE(SCREEN_WHITE, SCREEN_GREEN));
	/* The band reaches both edges and the bottom; it has white letters in the middle. */
	uint32_t top = HEIGHT;
	while (top > 0 && pixel(0, top - 1) == GREEN && pixel(WIDTH - 1, top - 1) == GREEN)
		top--;
	assert_true(top < HEIGHT - 32 && top > HEIGHT / 2);
	assert_int_equal(top % 16, 0);
	unsigned white = 0;
	for (uint32_t y = top; y < HEIGHT; y++)
		for (uint32_t x = 0; x < WIDTH; x++)
			white += pixel(x, y) == WHITE;
	assert_true(white > 1000);
	/* The line the cursor was on is just above the band, the status line untouched. */
	assert_cell(0, top / 16 - 1, 'l', GREY, 0);
	assert_cell(0, top / 16 - 2, 't', GREY, 0);
	/* Text after the banner scrolls above it, never into it. */
	for (unsigned i = 0; i < rows; i++)
		put_string("\nafter");
	unsigned white_after = 0;
	for (uint32_t y = top; y < HEIGHT; y++) {
		assert_int_equal(pixel(0, y), GREEN);
		for (uint32_t x = 0; x < WIDTH; x++)
			white_after += pixel(x, y) == WHITE;
	}
	assert_int_equal(white_after, white);
	uint32_t found = 0;
	for (uint32_t r = 1; r < top / 16 && !found; r++)
		if (pixel(0 * 8 + 2, r * 16 + 5) == GREY) /* 'a' of "after" */
			found = r;
	assert_true(found > 0);
	assert_cell(0, found, 'a', GREY, 0);
	assert_cell(4, found, 'r', GREY, 0);
}

static void test_pixel_layouts(void **state)
{
	(void)state;
	/* r5g6b5 */
	assert_null(open_framebuffer(16, 11, 5, 0, 5, 6, 5));
	screen_banner("OK", SCREEN_ATTRIBUTE(SCREEN_WHITE, SCREEN_GREEN));
	assert_int_equal(pixel(0, HEIGHT - 1), (0xaa >> 2) << 5);
	/* 24 bits, blue highest (bytes R, G, B) */
	assert_null(open_framebuffer(24, 0, 8, 16, 8, 8, 8));
	screen_banner("OK", SCREEN_ATTRIBUTE(SCREEN_WHITE, SCREEN_RED));
	assert_int_equal(pixel(0, HEIGHT - 1), 0x0000aa);
	/* A multiboot2 tag without a colour layout: x8r8g8b8 */
	assert_null(open_framebuffer(32, 0, 0, 0, 0, 0, 0));
	screen_banner("OK", SCREEN_ATTRIBUTE(SCREEN_WHITE, SCREEN_RED));
	assert_int_equal(pixel(0, HEIGHT - 1), 0xaa0000);
}

static void test_refused_framebuffers(void **state)
{
	(void)state;
	const struct screen_ops *ops;
	uint32_t c, r;
	struct boot_framebuffer good = {
		.address = 0x80000000,
		.pitch = 4096,
		.width = 1024,
		.height = 768,
		.bpp = 32,
		.type = BOOT_FRAMEBUFFER_RGB,
	};
	struct boot_framebuffer f;

	f = good;
	f.type = BOOT_FRAMEBUFFER_INDEXED;
	assert_non_null(strstr(framebuffer_init(&f, &ops, &c, &r), "indexed-colour"));
	f = good;
	f.bpp = 8;
	assert_non_null(strstr(framebuffer_init(&f, &ops, &c, &r), "pixel depth"));
	f = good;
	f.address = 0x4000000000ull;
	assert_non_null(strstr(framebuffer_init(&f, &ops, &c, &r), "above 4 GiB"));
	f = good;
	f.address = 0xfff00000; /* starts below 4 GiB, ends above */
	assert_non_null(strstr(framebuffer_init(&f, &ops, &c, &r), "above 4 GiB"));
	f = good;
	f.pitch = 1024;
	assert_non_null(strstr(framebuffer_init(&f, &ops, &c, &r), "inconsistent"));
	f = good;
	f.width = 200;
	f.pitch = 800;
	assert_non_null(strstr(framebuffer_init(&f, &ops, &c, &r), "too small"));
	f = good;
	f.type = BOOT_FRAMEBUFFER_NONE;
	assert_non_null(framebuffer_init(&f, &ops, &c, &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_font_from_the_psf),
		cmocka_unit_test(test_cells_status_and_text),
		cmocka_unit_test(test_scrolling_keeps_the_last_lines),
		cmocka_unit_test(test_banner_at_the_bottom),
		cmocka_unit_test(test_pixel_layouts),
		cmocka_unit_test(test_refused_framebuffers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
