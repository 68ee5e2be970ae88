/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_EXPORT_H
#define _SPRAYBENCH_LINUX_EXPORT_H

#define EXPORT_SYMBOL_GPL(sym)

#endif
