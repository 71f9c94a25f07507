// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_input.h"

uint8_t fuzz_byte(struct fuzz_input *in)
{
	if (!in->size)
		return 0;
	in->size--;
	return *in->data++;
}

const uint8_t *fuzz_bytes(struct fuzz_input *in, size_t n, size_t *got)
{
	const uint8_t *start = in->data;

	*got = n < in->size ? n : in->size;
	in->data += *got;
	in->size -= *got;
	return start;
}

char *fuzz_string(struct fuzz_input *in)
{
	size_t n = in->size;
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, in->data, n);
	s[n] = 0;
	in->data += n;
	in->size = 0;
	return s;
}

uint8_t *fuzz_exact_copy(const uint8_t *bytes, size_t n)
{
	if (!n)
		return NULL;
	uint8_t *copy = malloc(n);
	if (!copy)
		abort();
	memcpy(copy, bytes, n);
	return copy;
}

_Noreturn void fuzz_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "%s:%d: broken promise: %s\n", file, line, what);
	abort();
}
