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

#include <linux/skbuff.h>
#include <linux/udp.h>
#include <linux/version.h>
#include <net/dst.h>
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

/**
 * UET_DEFINE_ENCAP_ERR_RCV() - a UDP tunnel socket's encap_err_rcv
 * @name: the function to define, with the kernel's signature
 * @fn: what it calls: void fn(struct sock *sk, struct sk_buff *skb,
 *	unsigned int udp_offset), @udp_offset being where the UDP header
 *	of the packet the ICMP error quotes starts, from skb->data (the
 *	quoted IP header); the ICMP header is at skb_transport_header()
 *
 * The kernel calls it from __udp4_lib_err() and __udp6_lib_err() once
 * encap_err_lookup has claimed the error.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define UET_DEFINE_ENCAP_ERR_RCV(name, fn)				\
static void name(struct sock *sk, struct sk_buff *skb,			\
		 unsigned int udp_offset)				\
{									\
	fn(sk, skb, udp_offset);					\
}
#else
/*
 * 6.2 ("rxrpc: Use the core ICMP/ICMP6 parsers") passes the errno, the
 * quoted destination port, the ICMP info and the quoted UDP payload in
 * place of the UDP header's offset.
 */
#define UET_DEFINE_ENCAP_ERR_RCV(name, fn)				\
static void name(struct sock *sk, struct sk_buff *skb, int err,	\
		 __be16 port, u32 info, u8 *payload)			\
{									\
	fn(sk, skb, payload - sizeof(struct udphdr) - skb->data);	\
}
#endif

/**
 * uet_dst_init() - initialise a route with one reference, no device
 * @dst: the route
 * @ops: its operations
 * @obsolete: its initial obsolete state (DST_OBSOLETE_*)
 * @flags: DST_* flags
 *
 * For the KUnit suites, which build routes of their own.
 */
static inline void uet_dst_init(struct dst_entry *dst, struct dst_ops *ops,
				int obsolete, unsigned short flags)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
	dst_init(dst, ops, NULL, 1, obsolete, flags);
#else
	/* 6.4 dropped the initial reference count: always 1 */
	dst_init(dst, ops, NULL, obsolete, flags);
#endif
}

/**
 * uet_dst_refcnt() - the references held on a route
 * @dst: the route
 *
 * For the KUnit suites, which check that a cache gives back every
 * reference it takes.
 *
 * Return: the reference count.
 */
static inline unsigned int uet_dst_refcnt(struct dst_entry *dst)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
	return atomic_read(&dst->__refcnt);
#else
	/* 6.4 made the count an rcuref_t */
	return rcuref_read(&dst->__rcuref);
#endif
}

#endif /* _UET_COMPAT_H */
