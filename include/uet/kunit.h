/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: what the KUnit suites reach that production does not.
 *
 * Symbols that the suites (a module of their own, as in mptcp) call are
 * exported only when those suites are built as a module.  Functions only
 * the suites call besides their own file are VISIBLE_IF_KUNIT
 * (<kunit/visibility.h>): static in a kernel without KUnit.
 *
 * UET_KUNIT_HOOKS says whether their declarations, and the hooks only the
 * suites set (struct uet_net.test_xmit), exist: in a kernel with KUnit,
 * and in the suites themselves, which make lint also compiles against
 * kernels without it (drivers/uet/Kbuild defines UET_KUNIT_SUITE for
 * them; such objects are never linked).
 */
#ifndef _UET_KUNIT_H
#define _UET_KUNIT_H

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/kconfig.h>

#if IS_MODULE(CONFIG_UET_KUNIT_TEST)
#define EXPORT_SYMBOL_IF_UET_KUNIT(sym)	EXPORT_SYMBOL_GPL(sym)
#else
#define EXPORT_SYMBOL_IF_UET_KUNIT(sym)
#endif

#if IS_ENABLED(CONFIG_KUNIT) || defined(UET_KUNIT_SUITE)
#define UET_KUNIT_HOOKS	1
#else
#define UET_KUNIT_HOOKS	0
#endif

#endif /* _UET_KUNIT_H */
