/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_STDDEF_H
#define _SPRAYBENCH_LINUX_STDDEF_H

#include <stddef.h>

/* As the kernel's: a flexible array that can be a member of a union. */
#define DECLARE_FLEX_ARRAY(TYPE, NAME)		\
	struct {				\
		struct { } __empty_ ## NAME;	\
		TYPE NAME[];			\
	}

#endif
