/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spraybench: a 4-byte test-and-set lock, the size of a kernel spinlock_t
 * without lock debugging, and about the cost of its uncontended fast path
 * (one atomic exchange, one release store).  No bottom halves here.
 */
#ifndef _SPRAYBENCH_LINUX_SPINLOCK_H
#define _SPRAYBENCH_LINUX_SPINLOCK_H

typedef struct {
	int locked;
} spinlock_t;

static inline void spin_lock_init(spinlock_t *l)
{
	l->locked = 0;
}

static inline void spin_lock_bh(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		;
}

static inline void spin_unlock_bh(spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif
