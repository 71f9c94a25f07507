/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Random data for the workloads' set-ups: random words (branchy's branch directions) and a random
 * cyclic chain of nodes (chase's loads). Deterministic for a seed, so that a run can be repeated
 * exactly and a failing host test names its case.
 *
 * Pure code: compiled unchanged into the kernel and into the host tests.
 */
#ifndef TESTS_WORKLOADS_RANDOM_DATA_H
#define TESTS_WORKLOADS_RANDOM_DATA_H

#include <stdint.h>

/* xorshift64* (Vigna, 2016): the next number of the sequence in *state, which must not be 0. */
uint64_t random_next(uint64_t *state);

/* A number in [0, bound), bound > 0, by Lemire's multiply-high reduction (no division). */
uint64_t random_below(uint64_t *state, uint64_t bound);

/* n random words from seed (0 is replaced by a fixed nonzero seed). */
void random_words_fill(uint64_t *words, uint64_t n, uint64_t seed);

/*
 * Link n nodes, stride_words 64-bit words apart from nodes[0], into one cycle through all of them
 * in random order: word 0 of each node receives the address of the next node. The order is a
 * random cyclic permutation made by Sattolo's algorithm (each of the (n - 1)! cycles equally
 * likely), so following the addresses from any node visits every node once before coming back.
 */
void random_cycle_build(uint64_t *nodes, uint64_t n, uint64_t stride_words, uint64_t seed);

#endif
