/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 16550-compatible UART driven by polling, for the serial console.
 */
#ifndef KERNEL_SERIAL_H
#define KERNEL_SERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Program port for baud 8N1 with FIFOs, no interrupts; false when no UART answers there. */
bool serial_init(uint16_t port, uint32_t baud);
bool serial_present(void);
void serial_putc(char c);
void serial_write(const char *s, size_t n);

#endif
