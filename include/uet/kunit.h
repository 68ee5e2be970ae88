/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: symbols that the KUnit suites (a module of their own, as in mptcp)
 * call are exported only when those suites are built as a module.
 */
#ifndef _UET_KUNIT_H
#define _UET_KUNIT_H

#include <linux/export.h>
#include <linux/kconfig.h>

#if IS_MODULE(CONFIG_UET_KUNIT_TEST)
#define EXPORT_SYMBOL_IF_UET_KUNIT(sym)	EXPORT_SYMBOL_GPL(sym)
#else
#define EXPORT_SYMBOL_IF_UET_KUNIT(sym)
#endif

#endif /* _UET_KUNIT_H */
