/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_STRING_H
#define _SPRAYBENCH_LINUX_STRING_H

#include <string.h>

#endif
