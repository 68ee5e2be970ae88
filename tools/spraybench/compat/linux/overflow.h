/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_OVERFLOW_H
#define _SPRAYBENCH_LINUX_OVERFLOW_H

#include <stddef.h>

/* No saturation: the counts spray.c passes are at most 65536. */
#define struct_size(p, member, count)	\
	(sizeof(*(p)) + sizeof(*(p)->member) * (size_t)(count))

#endif
