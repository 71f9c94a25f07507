/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The console: human-readable text to the serial port and the screen, records to the serial port
 * only (kernel/record_stream.c). One lock keeps lines whole when several CPUs print. The screen
 * also has a status line (the run's progress) and, at the end, a banner: the verdict in large
 * type (kernel/screen.h).
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/boot_info.h"
#include "kernel/screen.h"

void console_init_serial(uint16_t port, uint32_t baud);
/*
 * The screen: the VGA text buffer when the firmware left a text mode (a BIOS), or the linear
 * framebuffer the loader set up (GRUB's multiboot2 framebuffer, the native loader's GOP mode).
 * NULL, or why nothing shows on the screen (one sentence, for a warn record).
 */
const char *console_init_screen(const struct boot_framebuffer *fb, bool uefi);
bool console_has_serial(void);
bool console_has_vga(void);
/* What the screen is, "framebuffer 1024x768x32" or "vga-text 80x25"; NULL without one. */
const char *console_screen(void);

void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The screen only (no-ops without one): */
/* Text from now on white on red (a failure), or back to normal. */
void console_set_alert(bool alert);
/* The status line at the top: what the run is doing. */
void console_status(const char *text);
/* text in large type on a band of background at the bottom: the run's verdict. */
void console_banner(const char *text, enum screen_colour background);

/* Exclusive use of the console for several writes (records, multi-line reports). */
uint64_t console_acquire(void);
void console_release(uint64_t flags);
/* With the console acquired: a raw line to the serial port only. */
void console_write_serial_line_locked(const char *s, size_t n);

/*
 * For the exception path: if this CPU was interrupted while holding the console lock, take the
 * lock over so that the report still gets out.
 */
void console_take_over(void);

/* After the other CPUs were stopped: free the console even if one of them held it. */
void console_break_lock(void);

#endif
