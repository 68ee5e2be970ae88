/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spraybench: the kernel's types for building drivers/uet/spray.c and
 * config.c unchanged in userspace.  Only what those two files use.
 */
#ifndef _SPRAYBENCH_LINUX_TYPES_H
#define _SPRAYBENCH_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef unsigned int gfp_t;

#endif
