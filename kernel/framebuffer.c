// SPDX-License-Identifier: GPL-2.0
/*
 * Drawing text cells and the banner on a linear framebuffer. Only writes: the framebuffer is never
 * read back (on real graphics hardware a read of video memory is very slow); scrolling is the
 * grid's business (kernel/screen.c). The 16 colours are the VGA palette's.
 */
#include <stdbool.h>
#include <string.h>

#include "kernel/font.h"
#include "kernel/framebuffer.h"
#include "kernel/paging.h"

#define LARGE_SCREEN_WIDTH 2560 /* from this width on, text is drawn at twice the font's size */
#define BANNER_MAX_SCALE 16

/* The VGA palette (IBM's 16 colours), 0xRRGGBB. */
static const uint32_t vga_palette[16] = {
	0x000000, 0x0000aa, 0x00aa00, 0x00aaaa, 0xaa0000, 0xaa00aa, 0xaa5500, 0xaaaaaa,
	0x555555, 0x5555ff, 0x55ff55, 0x55ffff, 0xff5555, 0xff55ff, 0xffff55, 0xffffff,
};

static struct {
	uint8_t *base;
	uint32_t pitch, width, height, bytes_per_pixel;
	uint32_t scale;			  /* the font's pixels per screen pixel, for text */
	uint32_t cell_width, cell_height; /* a text cell in screen pixels */
	uint32_t pixel[16];		  /* the palette as this framebuffer's pixel values */
} fb;

/* An 8-bit channel value in a field of size bits at position. */
static uint32_t channel(uint32_t value, uint8_t position, uint8_t size)
{
	if (!size)
		return 0;
	value = size <= 8 ? value >> (8 - size) : value << (size - 8);
	return value << position;
}

static void put_pixels(uint8_t *p, uint32_t count, uint32_t value)
{
	switch (fb.bytes_per_pixel) {
	case 4:
		for (uint32_t i = 0; i < count; i++, p += 4)
			*(uint32_t *)p = value;
		break;
	case 3:
		for (uint32_t i = 0; i < count; i++, p += 3) {
			p[0] = (uint8_t)value;
			p[1] = (uint8_t)(value >> 8);
			p[2] = (uint8_t)(value >> 16);
		}
		break;
	default:
		for (uint32_t i = 0; i < count; i++, p += 2)
			*(uint16_t *)p = (uint16_t)value;
		break;
	}
}

static uint8_t *pixel_address(uint32_t x, uint32_t y)
{
	return fb.base + (uint64_t)y * fb.pitch + (uint64_t)x * fb.bytes_per_pixel;
}

static void fill(uint32_t y0, uint32_t y1, uint32_t value)
{
	for (uint32_t y = y0; y < y1 && y < fb.height; y++)
		put_pixels(pixel_address(0, y), fb.width, value);
}

/* Glyph rows [first, last] at x, y, each font pixel drawn as scale x scale screen pixels. */
static void draw_glyph(uint32_t x, uint32_t y, const uint8_t *glyph, uint32_t first, uint32_t last,
		       uint32_t scale, uint32_t foreground, uint32_t background)
{
	const struct font *font = &console_font;

	for (uint32_t gy = first; gy <= last; gy++)
		for (uint32_t sy = 0; sy < scale; sy++) {
			uint8_t *p = pixel_address(x, y + (gy - first) * scale + sy);
			for (uint32_t gx = 0; gx < font->width; gx++) {
				put_pixels(p, scale,
					   font_pixel(font, glyph, gx, gy) ? foreground
									   : background);
				p += scale * fb.bytes_per_pixel;
			}
		}
}

static void fb_draw_cell(uint32_t column, uint32_t row, uint16_t cell)
{
	draw_glyph(column * fb.cell_width, row * fb.cell_height,
		   font_glyph(&console_font, (char)cell), 0, console_font.height - 1, fb.scale,
		   fb.pixel[cell >> 8 & 15], fb.pixel[cell >> 12 & 15]);
}

/* The banner's letters: an eighth of the screen's height, at most three quarters of its width. */
static uint32_t banner_scale(const char *text)
{
	uint32_t first, last, length = (uint32_t)strlen(text);

	if (!length)
		return 0;
	font_ink_rows(&console_font, text, &first, &last);
	uint32_t scale = fb.height / (8 * (last - first + 1));
	uint32_t by_width = fb.width * 3 / 4 / (length * console_font.width);
	scale = scale < by_width ? scale : by_width;
	scale = scale < BANNER_MAX_SCALE ? scale : BANNER_MAX_SCALE;
	return scale < 2 ? 0 : scale;
}

static uint32_t fb_banner_rows(const char *text, uint32_t rows_free)
{
	uint32_t first, last, scale = banner_scale(text);

	if (!scale)
		return 0;
	font_ink_rows(&console_font, text, &first, &last);
	/* The letters, and a text row of band above and below them. */
	uint32_t rows = ((last - first + 1) * scale + fb.cell_height - 1) / fb.cell_height + 2;
	return rows <= rows_free ? rows : 0;
}

static void fb_draw_banner(uint32_t top, uint32_t rows, const char *text, uint8_t attribute)
{
	uint32_t first, last, scale = banner_scale(text), length = (uint32_t)strlen(text);
	uint32_t foreground = fb.pixel[attribute & 15], background = fb.pixel[attribute >> 4 & 15];

	/* The band reaches the screen's bottom edge, below the last whole text row too. */
	fill(top * fb.cell_height, fb.height, background);
	if (!scale)
		return;
	font_ink_rows(&console_font, text, &first, &last);
	uint32_t y =
		top * fb.cell_height + (rows * fb.cell_height - (last - first + 1) * scale) / 2;
	uint32_t advance = console_font.width * scale;
	uint32_t x = (fb.width - length * advance) / 2;
	for (uint32_t i = 0; i < length; i++)
		draw_glyph(x + i * advance, y, font_glyph(&console_font, text[i]), first, last,
			   scale, foreground, background);
}

static const struct screen_ops fb_ops = {
	.draw_cell = fb_draw_cell,
	.banner_rows = fb_banner_rows,
	.draw_banner = fb_draw_banner,
	/* A scroll redraws every changed cell: a quarter of the text at a time costs a fourth of
	 * the redraws that a line at a time would. Set in framebuffer_init. */
	.scroll_step = 0,
};

/* Why fb cannot be used, or NULL. */
static const char *check(const struct boot_framebuffer *f)
{
	if (f->type == BOOT_FRAMEBUFFER_INDEXED)
		return "the boot loader set an indexed-colour graphics mode, which the screen "
		       "console does not support: the serial console carries everything";
	if (f->type != BOOT_FRAMEBUFFER_RGB)
		return "no framebuffer";
	if (f->bpp != 15 && f->bpp != 16 && f->bpp != 24 && f->bpp != 32)
		return "the framebuffer's pixel depth is not 15, 16, 24 or 32 bits, which the "
		       "screen console does not support: the serial console carries everything";
	if (!f->address || !f->width || !f->height || f->pitch < f->width * ((f->bpp + 7) / 8))
		return "the framebuffer's address, size or line length is inconsistent: the screen "
		       "stays unused";
	uint64_t size = (uint64_t)f->pitch * f->height;
	if (f->address >= IDENTITY_MAP_END || size > IDENTITY_MAP_END - f->address)
		return "the framebuffer lies above 4 GiB, outside the kernel's identity map: the "
		       "screen stays unused and the serial console carries everything";
	if (f->width / console_font.width < FRAMEBUFFER_MIN_COLUMNS ||
	    f->height / console_font.height < FRAMEBUFFER_MIN_ROWS)
		return "the framebuffer is too small for a text console: the screen stays unused";
	return NULL;
}

const char *framebuffer_init(const struct boot_framebuffer *f, const struct screen_ops **ops,
			     uint32_t *columns, uint32_t *rows)
{
	static struct screen_ops ops_in_use;
	const char *problem = check(f);

	if (problem)
		return problem;
	fb.base = (uint8_t *)(uintptr_t)f->address;
	fb.pitch = f->pitch;
	fb.width = f->width;
	fb.height = f->height;
	fb.bytes_per_pixel = (f->bpp + 7u) / 8;
	/* A multiboot2 tag may give no colour layout: the common x8r8g8b8 or r5g6b5 then. */
	uint8_t red_position = f->red_position, red_size = f->red_size;
	uint8_t green_position = f->green_position, green_size = f->green_size;
	uint8_t blue_position = f->blue_position, blue_size = f->blue_size;
	if (!red_size && !green_size && !blue_size) {
		bool wide = f->bpp >= 24, sixteen = f->bpp == 16;
		red_position = wide ? 16 : sixteen ? 11 : 10;
		green_position = wide ? 8 : 5;
		red_size = blue_size = wide ? 8 : 5;
		green_size = wide ? 8 : sixteen ? 6 : 5;
		blue_position = 0;
	}
	for (unsigned i = 0; i < 16; i++) {
		uint32_t rgb = vga_palette[i];
		fb.pixel[i] = channel(rgb >> 16 & 0xff, red_position, red_size) |
			      channel(rgb >> 8 & 0xff, green_position, green_size) |
			      channel(rgb & 0xff, blue_position, blue_size);
	}
	fb.scale = fb.width >= LARGE_SCREEN_WIDTH ? 2 : 1;
	fb.cell_width = console_font.width * fb.scale;
	fb.cell_height = console_font.height * fb.scale;
	fill(0, fb.height, fb.pixel[0]);
	*columns = fb.width / fb.cell_width;
	*rows = fb.height / fb.cell_height;
	ops_in_use = fb_ops;
	ops_in_use.scroll_step = *rows / 4 ? *rows / 4 : 1;
	*ops = &ops_in_use;
	return NULL;
}

bool framebuffer_size(uint32_t *width, uint32_t *height, uint32_t *cell_width,
		      uint32_t *cell_height)
{
	if (!fb.base)
		return false;
	*width = fb.width;
	*height = fb.height;
	*cell_width = fb.cell_width;
	*cell_height = fb.cell_height;
	return true;
}

void framebuffer_fill_rect(uint32_t x, uint32_t y, uint32_t width, uint32_t height,
			   enum screen_colour colour)
{
	if (!fb.base || x >= fb.width || y >= fb.height)
		return;
	width = width < fb.width - x ? width : fb.width - x;
	height = height < fb.height - y ? height : fb.height - y;
	for (uint32_t row = y; row < y + height; row++)
		put_pixels(pixel_address(x, row), width, fb.pixel[colour & 15]);
}

void framebuffer_text(uint32_t x, uint32_t y, const char *text, uint32_t scale, uint8_t attribute)
{
	uint32_t advance = console_font.width * scale;

	if (!fb.base || !scale || y + console_font.height * scale > fb.height)
		return;
	for (; *text && x + advance <= fb.width; text++, x += advance)
		draw_glyph(x, y, font_glyph(&console_font, *text), 0, console_font.height - 1,
			   scale, fb.pixel[attribute & 15], fb.pixel[attribute >> 4 & 15]);
}
