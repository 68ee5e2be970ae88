/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_BITS_H
#define _SPRAYBENCH_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))

#endif
