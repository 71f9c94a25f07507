/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring-3 side of the QR codes: the heap its C library functions allocate from, and the way
 * out when a library gives up (kernel/qr/user_libc.c). The code that makes the codes
 * (kernel/qr/make.c) is pure and calls the same two functions on the host, where the C library
 * answers malloc() and the host program gives user_give_up().
 */
#ifndef KERNEL_QR_USER_LIBC_H
#define KERNEL_QR_USER_LIBC_H

#include <stddef.h>
#include <stdint.h>

void *malloc(size_t n);
void free(void *p);

/* malloc() from here on takes from heap[0..size), 16-byte aligned, never given back. */
void user_heap_init(uint8_t *heap, size_t size);

/* Leave ring 3 at once with status (enum qr_status), naming what failed. */
__attribute__((noreturn)) void user_give_up(unsigned status, const char *what);

#endif
