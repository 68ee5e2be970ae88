/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_KCONFIG_H
#define _SPRAYBENCH_LINUX_KCONFIG_H

/* Nothing is a module here: UET_EXPORT_FOR_KUNIT() expands to nothing. */
#define IS_MODULE(option)	0

#endif
