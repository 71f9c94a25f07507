/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Formatted output without a C library: the printf subset the kernel uses.
 *
 * Conversions: d i u x X o c s p %. Flags: - 0 + space # and ' (thousands separated by commas,
 * as perf stat prints counts). Width and precision, also as *. Length: hh h l ll z t j.
 * No floating point: the kernel prints ratios from integers.
 *
 * Pure code (host-tested against the C library's snprintf).
 */
#ifndef KERNEL_LIB_FORMAT_H
#define KERNEL_LIB_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* Called for each output character. */
typedef void (*format_sink)(char c, void *ctx);

/* Formats to a sink; returns the number of characters produced. */
int format_emit(format_sink sink, void *ctx, const char *fmt, va_list ap);

/* Like vsnprintf/snprintf: always NUL-terminates when size > 0, returns the full length. */
int format_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int format_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
