// SPDX-License-Identifier: GPL-2.0
/*
 * The C library functions that Debian's libz.a and libqrcodegen.a call, for their ring-3
 * run (kernel/qr/job.h): the memory functions (the string functions are the kernel's own,
 * kernel/libc/strings.c, built for ring 3 too), an allocator over the job's heap, and the two
 * ways glibc ends a program that went wrong (__stack_chk_fail, __assert_fail), which here end the
 * ring-3 call with a status instead.
 *
 * The copies use REP MOVSB/STOSB (SDM vol. 1, 7.3.9.3: fast string operations), short and quick;
 * GCC must not turn the loops into calls to the functions themselves (the Makefile fragment
 * builds this file with -fno-builtin -fno-tree-loop-distribute-patterns).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/qr/job.h"
#include "kernel/qr/user_libc.h"

static struct {
	uint8_t *base;
	size_t size, used;
} heap;

void user_heap_init(uint8_t *base, size_t size)
{
	heap.base = base;
	heap.size = size;
	heap.used = 0;
}

void *__memset_chk(void *dst, int c, size_t n, size_t dst_len);
__attribute__((noreturn)) void __stack_chk_fail(void);
__attribute__((noreturn)) void __assert_fail(const char *assertion, const char *file, unsigned line,
					     const char *function);

void *malloc(size_t n)
{
	size_t start = (heap.used + 15) & ~(size_t)15;

	if (start > heap.size || n > heap.size - start)
		return NULL;
	heap.used = start + n;
	return heap.base + start;
}

/* Nothing is given back: one job allocates a few megabytes once. */
void free(void *p)
{
	(void)p;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	/* Backwards, for a destination above an overlapping source (the direction flag, SDM vol. 1,
	 * 3.4.3.3, is clear again before returning as the ABI wants it). */
	d += n - 1;
	s += n - 1;
	__asm__ volatile("std\n\trep movsb\n\tcld" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
	return dst;
}

/* glibc's checked memset (_FORTIFY_SOURCE): a destination too small is a bug of the caller. */
void *__memset_chk(void *dst, int c, size_t n, size_t dst_len)
{
	if (n > dst_len)
		user_give_up(QR_ASSERT, "__memset_chk: buffer overflow");
	return memset(dst, c, n);
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *p = a, *q = b;

	for (size_t i = 0; i < n; i++)
		if (p[i] != q[i])
			return p[i] < q[i] ? -1 : 1;
	return 0;
}

void __stack_chk_fail(void)
{
	user_give_up(QR_STACK_SMASH, "the stack protector found its canary overwritten");
}

void __assert_fail(const char *assertion, const char *file, unsigned line, const char *function)
{
	(void)file;
	(void)line;
	(void)function;
	user_give_up(QR_ASSERT, assertion);
}
