// SPDX-License-Identifier: GPL-2.0
/*
 * The screen's text grid (kernel/screen.h): the cursor, scrolling, the status line and the
 * banner, over a backend that draws cells. Callers hold the console lock.
 */
#include "kernel/screen.h"

#define STATUS_ROW 0
#define TEXT_TOP 1
#define STATUS_ATTRIBUTE SCREEN_ATTRIBUTE(SCREEN_BLACK, SCREEN_CYAN)
#define TAB_WIDTH 8

static struct {
	const struct screen_ops *ops;
	uint32_t columns, rows;
	uint32_t
		text_bottom; /* the first row below the scrolling text: rows, or the banner's top */
	uint32_t row, column; /* the cursor, row in [TEXT_TOP, text_bottom) */
	uint8_t attribute;
	const char *banner; /* the banner's text (NULL: none) and attribute, for a redraw */
	uint8_t banner_attribute;
	uint16_t cells[SCREEN_MAX_COLUMNS * SCREEN_MAX_ROWS]; /* what the screen shows */
} screen;

static uint16_t make_cell(char c, uint8_t attribute)
{
	return (uint16_t)(attribute << 8 | (uint8_t)c);
}

static uint16_t *cell_at(uint32_t column, uint32_t row)
{
	return &screen.cells[row * screen.columns + column];
}

/* Draw a cell only when it changes: what makes a scroll cheap. */
static void set_cell(uint32_t column, uint32_t row, uint16_t cell)
{
	uint16_t *shown = cell_at(column, row);

	if (*shown == cell)
		return;
	*shown = cell;
	screen.ops->draw_cell(column, row, cell);
}

void screen_init(const struct screen_ops *ops, uint32_t columns, uint32_t rows)
{
	screen.ops = ops;
	screen.columns = columns < SCREEN_MAX_COLUMNS ? columns : SCREEN_MAX_COLUMNS;
	screen.rows = rows < SCREEN_MAX_ROWS ? rows : SCREEN_MAX_ROWS;
	screen.text_bottom = screen.rows;
	screen.row = TEXT_TOP;
	screen.column = 0;
	screen.attribute = SCREEN_NORMAL;
	for (uint32_t i = 0; i < screen.columns * screen.rows; i++) {
		screen.cells[i] = make_cell(' ', SCREEN_NORMAL);
		ops->draw_cell(i % screen.columns, i / screen.columns, screen.cells[i]);
	}
}

void screen_set_attribute(uint8_t attribute)
{
	screen.attribute = attribute;
}

/* Move the text up by n rows, the cursor with it. */
static void scroll(uint32_t n)
{
	uint32_t bottom = screen.text_bottom;
	uint16_t blank = make_cell(' ', SCREEN_NORMAL);

	if (n > bottom - TEXT_TOP)
		n = bottom - TEXT_TOP;
	/* Top down: row r + n is read before anything overwrites it. */
	for (uint32_t r = TEXT_TOP; r < bottom; r++)
		for (uint32_t c = 0; c < screen.columns; c++)
			set_cell(c, r, r + n < bottom ? *cell_at(c, r + n) : blank);
	screen.row = screen.row >= TEXT_TOP + n ? screen.row - n : TEXT_TOP;
}

static void new_line(void)
{
	screen.column = 0;
	if (++screen.row < screen.text_bottom)
		return;
	scroll(screen.ops->scroll_step ? screen.ops->scroll_step : 1);
}

static void put_visible(char c)
{
	if (screen.column >= screen.columns)
		new_line();
	set_cell(screen.column++, screen.row, make_cell(c, screen.attribute));
}

void screen_putc(char c)
{
	if (!screen.ops || c == '\r')
		return;
	if (c == '\n') {
		new_line();
	} else if (c == '\t') {
		do
			put_visible(' ');
		while (screen.column % TAB_WIDTH && screen.column < screen.columns);
	} else {
		put_visible(c >= ' ' && c <= '~' ? c : '?');
	}
}

void screen_status(const char *text)
{
	if (!screen.ops)
		return;
	for (uint32_t c = 0; c < screen.columns; c++) {
		char ch = ' ';
		if (*text)
			ch = *text++;
		set_cell(c, STATUS_ROW,
			 make_cell(ch >= ' ' && ch <= '~' ? ch : '?', STATUS_ATTRIBUTE));
	}
}

void screen_banner(const char *text, uint8_t attribute)
{
	if (!screen.ops)
		return;
	/* At least two rows of text stay above the banner. */
	uint32_t rows_free = screen.rows > TEXT_TOP + 2 ? screen.rows - TEXT_TOP - 2 : 0;
	uint32_t rows = rows_free ? screen.ops->banner_rows(text, rows_free) : 0;
	if (!rows || rows > rows_free)
		return;
	uint32_t top = screen.rows - rows;
	if (top < screen.text_bottom) {
		/* The text moves up until the cursor's line is just above the banner. */
		if (screen.row >= top)
			scroll(screen.row - top + 1);
		screen.text_bottom = top;
	}
	/* The banner's rows leave the grid: a cell that never matches redraws them if text ever
	 * comes back there. */
	for (uint32_t r = screen.text_bottom; r < screen.rows; r++)
		for (uint32_t c = 0; c < screen.columns; c++)
			*cell_at(c, r) = 0xffff;
	screen.ops->draw_banner(screen.text_bottom, screen.rows - screen.text_bottom, text,
				attribute);
	screen.banner = text;
	screen.banner_attribute = attribute;
}

void screen_redraw(void)
{
	if (!screen.ops)
		return;
	for (uint32_t r = 0; r < screen.text_bottom; r++)
		for (uint32_t c = 0; c < screen.columns; c++)
			screen.ops->draw_cell(c, r, *cell_at(c, r));
	if (screen.banner)
		screen.ops->draw_banner(screen.text_bottom, screen.rows - screen.text_bottom,
					screen.banner, screen.banner_attribute);
}
