/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks: a test-and-test-and-set lock with PAUSE in the wait loop (SDM vol. 3A, 9.10.6.1:
 * "Use the PAUSE Instruction in Spin-Wait Loops"). The holder's CPU index is kept so that the
 * exception path can tell whether it interrupted its own CPU in the middle of printing.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/cpu.h"

#define SPINLOCK_FREE 0xffffffffu

struct spinlock {
	volatile uint32_t owner; /* CPU index of the holder, SPINLOCK_FREE when free */
};

#define SPINLOCK_INIT                                                                              \
	{                                                                                          \
		.owner = SPINLOCK_FREE                                                             \
	}

uint32_t this_cpu_index(void);

static inline bool spin_trylock(struct spinlock *l)
{
	uint32_t expected = SPINLOCK_FREE;

	return __atomic_compare_exchange_n(&l->owner, &expected, this_cpu_index(), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void spin_lock(struct spinlock *l)
{
	while (!spin_trylock(l))
		while (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) != SPINLOCK_FREE)
			cpu_relax();
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->owner, SPINLOCK_FREE, __ATOMIC_RELEASE);
}

static inline bool spin_held_by_me(const struct spinlock *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) == this_cpu_index();
}

/* Interrupts off while held: the lock is also taken from interrupt handlers. */
static inline uint64_t spin_lock_irqsave(struct spinlock *l)
{
	uint64_t flags = read_rflags();

	irq_disable();
	spin_lock(l);
	return flags;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, uint64_t flags)
{
	spin_unlock(l);
	irq_restore(flags);
}

#endif
