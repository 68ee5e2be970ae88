/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * uet: Ultra Ethernet Transport PDS over UDP -- socket API.
 *
 * An AF_UET socket of type SOCK_RDM sends and receives whole messages with
 * reliable unordered delivery (UET RUD): every message sent is delivered
 * exactly once and intact, or reported back to its sender as given up.
 * Messages between two hosts may be delivered in any order.
 *
 * This is user API: numbers and layouts never change meaning.
 */
#ifndef _UAPI_LINUX_UET_H
#define _UAPI_LINUX_UET_H

#include <linux/types.h>
#include <linux/socket.h>
#include <linux/in.h>
#include <linux/in6.h>

/*
 * No address family number has been assigned to UET.  uet borrows 19, the
 * number of Acorn Econet (AF_ECONET), whose implementation left the kernel
 * in Linux 3.5: no kernel uet can run on (6.1 and later) registers it.  If
 * the slot is taken all the same, the module refuses to load and says so.
 * socket(AF_UET, ...) loads the module through the alias net-pf-19.
 */
#define AF_UET		19
#define PF_UET		AF_UET

/* Level of the UET control messages and socket options. */
#define SOL_UET		300

/* Widths of the identifiers carried in every UET SES request. */
#define UET_JOB_MAX		0xffffffU	/* job id: 24 bits */
#define UET_EP_ANY		0		/* bind: pick a free endpoint */
#define UET_EP_MAX		4095		/* PIDonFEP: 12 bits */
#define UET_EP_EPHEMERAL_MIN	1024		/* bind(0) picks from here up */

/* Largest message one sendmsg() may carry. */
#define UET_MSG_MAX		(64U << 20)

/**
 * struct sockaddr_uet - address of a UET endpoint
 * @suet_family: AF_UET
 * @suet_ip_family: AF_INET or AF_INET6: which of @suet_addr4 and
 *	@suet_addr6 is the fabric address.  In bind(), AF_UNSPEC means
 *	any local address of either family.
 * @suet_job: job id, 0..UET_JOB_MAX: the security domain of the endpoint.
 *	A socket sends to and receives from endpoints of its own job only.
 * @suet_ep: endpoint id (the SES PIDonFEP), 1..UET_EP_MAX; UET_EP_ANY in
 *	bind() picks a free one of UET_EP_EPHEMERAL_MIN..UET_EP_MAX.
 * @__suet_pad: reserved, must be zero
 * @suet_scope_id: reserved, must be zero: link-local addresses are refused,
 *	so there is no scope to name
 * @suet_addr4: IPv4 fabric address (network byte order)
 * @suet_addr6: IPv6 fabric address
 *
 * The endpoint (@suet_job, @suet_ep) is unique in a network namespace.
 */
struct sockaddr_uet {
	__kernel_sa_family_t suet_family;
	__u16 suet_ip_family;
	__u32 suet_job;
	__u16 suet_ep;
	__u16 __suet_pad;
	__u32 suet_scope_id;
	union {
		struct in_addr suet_addr4;
		struct in6_addr suet_addr6;
	};
};

/**
 * struct uet_msg_err - a message the transport gave up on
 * @ue_errno: why, a positive errno value:
 *	ETIMEDOUT    a packet was retransmitted the configured maximum
 *	             number of times without being acknowledged;
 *	ECONNREFUSED no socket is bound to the destination endpoint;
 *	EMSGSIZE     the receiver cannot take a message this large;
 *	ENOBUFS      the receiver stayed out of memory for too long;
 *	ECONNRESET   another message on the same connection was given up,
 *	             which takes this one with it;
 *	EHOSTUNREACH the destination has no route any more.
 * @ue_seq: the message's number on its socket: the count of messages this
 *	socket had sent successfully before it, from 0
 * @ue_len: the message's length in bytes
 * @__ue_pad: reserved, zero
 * @ue_dst: the message's destination
 *
 * recvmsg(MSG_ERRQUEUE) returns one such record per message given up, as
 * a control message of level SOL_UET and type UET_CMSG_MSG_ERR, with no
 * data and the destination in msg_name.  A given-up message also sets the
 * socket error (SO_ERROR, POLLERR) to @ue_errno; when the error queue is
 * full the socket error is the only report.
 */
struct uet_msg_err {
	__u32 ue_errno;
	__u32 ue_seq;
	__u32 ue_len;
	__u32 __ue_pad;
	struct sockaddr_uet ue_dst;
};

/* Control message types at level SOL_UET. */
#define UET_CMSG_MSG_ERR	1	/* struct uet_msg_err */

#endif /* _UAPI_LINUX_UET_H */
