// SPDX-License-Identifier: GPL-2.0
/*
 * VGA text mode: two bytes per cell, character and attribute; the screen scrolls up when full.
 */
#include <string.h>

#include "kernel/vga.h"

#define ATTRIBUTE_NORMAL 0x07
#define ATTRIBUTE_ALERT 0x4f

static volatile uint16_t *screen;
static uint32_t width, height, row, column;
static uint8_t attribute = ATTRIBUTE_NORMAL;

void vga_init(uint64_t address, uint32_t columns, uint32_t rows)
{
	screen = (volatile uint16_t *)(uintptr_t)address;
	width = columns;
	height = rows;
	row = column = 0;
	for (uint32_t i = 0; i < width * height; i++)
		screen[i] = (uint16_t)(ATTRIBUTE_NORMAL << 8 | ' ');
}

void vga_set_alert(int alert)
{
	attribute = alert ? ATTRIBUTE_ALERT : ATTRIBUTE_NORMAL;
}

static void new_line(void)
{
	column = 0;
	if (++row < height)
		return;
	for (uint32_t i = 0; i < width * (height - 1); i++)
		screen[i] = screen[i + width];
	for (uint32_t i = 0; i < width; i++)
		screen[width * (height - 1) + i] = (uint16_t)(ATTRIBUTE_NORMAL << 8 | ' ');
	row = height - 1;
}

void vga_putc(char c)
{
	if (!screen)
		return;
	if (c == '\n') {
		new_line();
		return;
	}
	if (c == '\r')
		return;
	if (column >= width)
		new_line();
	screen[row * width + column++] = (uint16_t)(attribute << 8 | (uint8_t)c);
}
