// SPDX-License-Identifier: GPL-2.0
/*
 * Console output. The serial port gets CR LF line ends (what terminal programs expect); the
 * screen (kernel/screen.c, drawn by kernel/vga.c or kernel/framebuffer.c) only the human-readable
 * text, with a status line and, at the end, the verdict in large type.
 */
#include <stdarg.h>

#include "kernel/console.h"
#include "kernel/lib/format.h"
#include "kernel/framebuffer.h"
#include "kernel/screen.h"
#include "kernel/serial.h"
#include "kernel/spinlock.h"
#include "kernel/vga.h"

#define VGA_TEXT_ADDRESS 0xb8000

static struct spinlock console_lock = SPINLOCK_INIT;
static bool vga_enabled, screen_enabled;
static char screen_description[48];

void console_init_serial(uint16_t port, uint32_t baud)
{
	serial_init(port, baud);
}

static void use_vga(uint64_t address, uint32_t columns, uint32_t rows)
{
	screen_init(vga_init(address, columns, rows), columns, rows);
	vga_enabled = screen_enabled = true;
	format_snprintf(screen_description, sizeof(screen_description), "vga-text %ux%u", columns,
			rows);
}

const char *console_init_screen(const struct boot_framebuffer *fb, bool uefi)
{
	const struct screen_ops *ops;
	uint32_t columns, rows;

	if (fb->type == BOOT_FRAMEBUFFER_EGA_TEXT) {
		use_vga(fb->address, fb->width, fb->height);
		return NULL;
	}
	if (fb->type == BOOT_FRAMEBUFFER_NONE) {
		/* A BIOS leaves the VGA text mode; UEFI has none, and there nothing shows. */
		if (uefi)
			return "the boot loader gave no framebuffer under UEFI: nothing shows on "
			       "the "
			       "screen, the serial console carries everything";
		use_vga(VGA_TEXT_ADDRESS, 80, 25);
		return NULL;
	}
	const char *problem = framebuffer_init(fb, &ops, &columns, &rows);
	if (problem)
		return problem;
	screen_init(ops, columns, rows);
	screen_enabled = true;
	format_snprintf(screen_description, sizeof(screen_description), "framebuffer %ux%ux%u",
			fb->width, fb->height, fb->bpp);
	return NULL;
}

const char *console_screen(void)
{
	return screen_enabled ? screen_description : NULL;
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

/*
 * Each character to the serial port, then to the screen; but a line's end reaches the screen
 * first (where it may scroll), so that a whole line on the serial port means that the screen
 * shows it too: what a test that photographs the screen once the last line is in relies on.
 */
static void put_char(char c)
{
	if (c == '\n') {
		if (screen_enabled)
			screen_putc(c);
		serial_putc('\r');
		serial_putc(c);
		return;
	}
	serial_putc(c);
	if (screen_enabled)
		screen_putc(c);
}

void console_set_alert(bool alert)
{
	uint64_t flags = console_acquire();
	screen_set_attribute(alert ? SCREEN_ATTRIBUTE(SCREEN_WHITE, SCREEN_RED) : SCREEN_NORMAL);
	console_release(flags);
}

void console_status(const char *text)
{
	uint64_t flags = console_acquire();
	screen_status(text);
	console_release(flags);
}

void console_banner(const char *text, enum screen_colour background)
{
	uint64_t flags = console_acquire();
	screen_banner(text, SCREEN_ATTRIBUTE(SCREEN_WHITE, background));
	console_release(flags);
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
