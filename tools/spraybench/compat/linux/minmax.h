/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_MINMAX_H
#define _SPRAYBENCH_LINUX_MINMAX_H

#define min_t(type, x, y)	((type)(x) < (type)(y) ? (type)(x) : (type)(y))
#define max_t(type, x, y)	((type)(x) > (type)(y) ? (type)(x) : (type)(y))
#define clamp_t(type, v, lo, hi)	min_t(type, max_t(type, v, lo), hi)
#define swap(a, b)						\
	do {							\
		__typeof__(a) __tmp = (a);			\
		(a) = (b);					\
		(b) = __tmp;					\
	} while (0)

#endif
