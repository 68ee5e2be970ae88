/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spraybench: allocation.  The size of the last allocation is kept so that
 * the benchmark can print how many bytes each policy's state takes.
 */
#ifndef _SPRAYBENCH_LINUX_SLAB_H
#define _SPRAYBENCH_LINUX_SLAB_H

#include <stdlib.h>
#include <linux/types.h>

#define GFP_KERNEL	0x1u
#define GFP_ATOMIC	0x2u

extern size_t spraybench_last_alloc;

static inline void *kvzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	spraybench_last_alloc = size;
	return calloc(1, size);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

#endif
