/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The console: human-readable text to the serial port and the screen, records to the serial port
 * only (kernel/record_stream.c). One lock keeps lines whole when several CPUs print.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void console_init_serial(uint16_t port, uint32_t baud);
void console_init_vga(uint64_t address, uint32_t columns, uint32_t rows);
bool console_has_serial(void);
bool console_has_vga(void);

void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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
