/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring-3 side of a bundle of your own code: bench_call(program) calls the generated function
 * at program (tests/owncode/codegen.h) and returns 0.
 */
#ifndef TESTS_RING3_BENCH_H
#define TESTS_RING3_BENCH_H

#include <stdint.h>

uint64_t bench_call(uint64_t program);

#endif
