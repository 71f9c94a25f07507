// SPDX-License-Identifier: GPL-2.0
/*
 * Random words and random cycles (tests/workloads/random_data.h).
 */
#include "tests/workloads/random_data.h"

/* Any nonzero start will do; this one is the golden ratio's bits. */
#define RANDOM_DEFAULT_SEED 0x9e3779b97f4a7c15ull

uint64_t random_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

uint64_t random_below(uint64_t *state, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)random_next(state) * bound) >> 64);
}

void random_words_fill(uint64_t *words, uint64_t n, uint64_t seed)
{
	uint64_t state = seed ? seed : RANDOM_DEFAULT_SEED;

	for (uint64_t i = 0; i < n; i++)
		words[i] = random_next(&state);
}

void random_cycle_build(uint64_t *nodes, uint64_t n, uint64_t stride_words, uint64_t seed)
{
	uint64_t state = seed ? seed : RANDOM_DEFAULT_SEED;

	/* The permutation i -> next[i], kept in word 0 of node i, starts as the identity... */
	for (uint64_t i = 0; i < n; i++)
		nodes[i * stride_words] = i;
	/* ...and Sattolo's algorithm swaps each element with one strictly below it, which leaves a
	 * single cycle (Fisher-Yates, which may also pick the element itself, makes any permutation). */
	for (uint64_t i = n; i-- > 1;) {
		uint64_t j = random_below(&state, i);
		uint64_t t = nodes[i * stride_words];
		nodes[i * stride_words] = nodes[j * stride_words];
		nodes[j * stride_words] = t;
	}
	/* Indices become addresses; each word is read once, before it is overwritten. */
	for (uint64_t i = 0; i < n; i++)
		nodes[i * stride_words] =
			(uint64_t)(uintptr_t)&nodes[nodes[i * stride_words] * stride_words];
}
