/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_COMPILER_H
#define _SPRAYBENCH_LINUX_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#endif
