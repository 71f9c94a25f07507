/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every libFuzzer harness in tests/fuzz/ shares: taking the fuzzer's bytes apart, and
 * failing loudly when a parser breaks one of its promises (libFuzzer reports the abort as a
 * crash, with the input that caused it).
 */
#ifndef TESTS_FUZZ_INPUT_H
#define TESTS_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_input {
	const uint8_t *data;
	size_t size;
};

/* The next byte, 0 once the input is used up. */
uint8_t fuzz_byte(struct fuzz_input *in);

/* The next n bytes (fewer when the input ends first); *got says how many. */
const uint8_t *fuzz_bytes(struct fuzz_input *in, size_t n, size_t *got);

/*
 * The rest of the input as a NUL-terminated string in a buffer of exactly its size, so that
 * AddressSanitizer catches a read past its end. An embedded NUL ends the string early, as it
 * would in the kernel. Free it with free().
 */
char *fuzz_string(struct fuzz_input *in);

/* A copy of n bytes in a buffer of exactly that size (NULL for 0). Free it with free(). */
uint8_t *fuzz_exact_copy(const uint8_t *bytes, size_t n);

/* Aborts with the broken promise when cond is false. */
#define FUZZ_CHECK(cond)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fuzz_fail(#cond, __FILE__, __LINE__);                                      \
	} while (0)

_Noreturn void fuzz_fail(const char *what, const char *file, int line);

/* Whether a fixed-size text field holds its NUL. */
#define FUZZ_TERMINATED(field) (memchr((field), 0, sizeof(field)) != NULL)

#endif
