/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: what differs between the kernels uet is built and tested on,
 * Debian's 6.1 and 6.12. Each helper hides one API change, so the
 * drivers read the same on both; the #if names the release that made
 * the change. Nothing older than 6.1 or newer than 6.12 is promised.
 *
 * Not here, because no #if is needed:
 *  - proto_ops.sendpage went away in 6.5 (MSG_SPLICE_PAGES replaced it);
 *    uet_proto_ops leaves it unset, which 6.1's kernel_sendpage() treats
 *    as sock_no_sendpage().
 *  - udp_tunnel_xmit_skb() and udp_tunnel6_xmit_skb() take the same
 *    arguments in 6.1 and 6.12.
 */
#ifndef _UET_COMPAT_H
#define _UET_COMPAT_H

#include <linux/version.h>
#include <net/genetlink.h>

/**
 * uet_genl_dump_attrs() - the parsed attributes of a dump request
 * @info: the dump's info, from genl_dumpit_info()
 *
 * Return: the attribute table, indexed by attribute type.
 */
static inline struct nlattr **
uet_genl_dump_attrs(const struct genl_dumpit_info *info)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
	return info->attrs;
#else
	/* 6.2 moved the dump's attrs into info->info, a struct genl_info */
	return info->info.attrs;
#endif
}

#endif /* _UET_COMPAT_H */
