/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_RANDOM_H
#define _SPRAYBENCH_LINUX_RANDOM_H

#include <stdlib.h>
#include <sys/random.h>
#include <linux/types.h>

static inline u64 get_random_u64(void)
{
	u64 v;

	if (getrandom(&v, sizeof(v), 0) != sizeof(v))
		abort();
	return v;
}

#endif
