// SPDX-License-Identifier: GPL-2.0
/*
 * Console output. The serial port gets CR LF line ends (what terminal programs expect); the VGA
 * screen only the human-readable text.
 */
#include <stdarg.h>

#include "kernel/console.h"
#include "kernel/format.h"
#include "kernel/serial.h"
#include "kernel/spinlock.h"
#include "kernel/vga.h"

static struct spinlock console_lock = SPINLOCK_INIT;
static bool vga_enabled;

void console_init_serial(uint16_t port, uint32_t baud)
{
	serial_init(port, baud);
}

void console_init_vga(uint64_t address, uint32_t columns, uint32_t rows)
{
	vga_init(address, columns, rows);
	vga_enabled = true;
}

bool console_has_serial(void)
{
	return serial_present();
}

bool console_has_vga(void)
{
	return vga_enabled;
}

uint64_t console_acquire(void)
{
	return spin_lock_irqsave(&console_lock);
}

void console_release(uint64_t flags)
{
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_take_over(void)
{
	if (spin_held_by_me(&console_lock))
		spin_unlock(&console_lock);
}

void console_break_lock(void)
{
	if (!spin_held_by_me(&console_lock))
		spin_unlock(&console_lock);
}

static void put_char(char c)
{
	if (c == '\n')
		serial_putc('\r');
	serial_putc(c);
	if (vga_enabled)
		vga_putc(c);
}

void console_write_serial_line_locked(const char *s, size_t n)
{
	serial_write(s, n);
	serial_write("\r\n", 2);
}

static void sink(char c, void *ctx)
{
	(void)ctx;
	put_char(c);
}

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	uint64_t flags = console_acquire();
	format_emit(sink, NULL, fmt, ap);
	console_release(flags);
	va_end(ap);
}
