/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: AF_UET sockets, as the transport sees them.
 */
#ifndef _UET_SOCK_H
#define _UET_SOCK_H

#include <linux/atomic.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <net/sock.h>
#include <linux/uet.h>
#include <uet/msg.h>
#include <uet/net.h>

/*
 * A socket with no message in flight this long gives its page ring's
 * pages back: they serve a stream of messages, not an idle socket.
 */
#define UET_RING_IDLE		HZ

/**
 * struct uet_sock - an AF_UET socket
 * @sk: the socket (first: uet_sk() casts)
 * @ep_node: in uet_net.ep_hash once bound; under uet_net.ep_lock, RCU
 *	readers
 * @laddr: bound local address (IPv4 as v4-mapped IPv6), :: for any;
 *	under lock_sock(), read by receivers after @bound
 * @peer: default destination after connect(); under lock_sock()
 * @job: bound job id; set before @bound
 * @ep: bound endpoint id; set before @bound
 * @ip_family: AF_INET, AF_INET6, or AF_UNSPEC for any; set before @bound
 * @bound: @laddr, @job, @ep are set; under lock_sock()
 * @connected: @peer is set; under lock_sock()
 * @tx_seq: number of the next message sent; under lock_sock()
 * @route_daddr: the destination whose route sk_dst_cache holds, for an
 *	unbound @laddr; under lock_sock()
 * @route_saddr: the source address that route chose; under lock_sock()
 * @route_cookie: that route's uet_route_cookie(); under lock_sock()
 * @route_genid: the namespace's address generation when it was looked up
 *	(uet_sock_saddr()); under lock_sock()
 * @route_dport: the UDP port it was looked up for; under lock_sock()
 * @wmem: bytes of messages sent and not yet done
 * @rx_reserved: bytes the messages being received or waiting for
 *	recvmsg() take once whole, reserved against SO_RCVBUF when each
 *	starts (sk_rmem_alloc counts what they take now)
 * @rxq_lock: protects @rxq, and sk_forward_alloc (uet_sock_rx_keep())
 * @rxq: complete messages waiting for recvmsg(), oldest first
 * @pages: pages of sent messages for the next ones, allocated by the
 *	first message of a page or more; set under the socket lock, then
 *	read anywhere a message holds the socket; NULL until then or short
 *	of memory.  sk_timer gives its pages back once no message has been
 *	in flight for UET_RING_IDLE.
 */
struct uet_sock {
	struct sock sk;
	struct hlist_node ep_node;
	struct in6_addr laddr;
	struct sockaddr_uet peer;
	u32 job;
	u16 ep;
	u16 ip_family;
	bool bound;
	bool connected;
	u32 tx_seq;
	u32 route_cookie;
	u32 route_genid;
	u16 route_dport;
	struct in6_addr route_daddr;
	struct in6_addr route_saddr;
	atomic_t wmem;
	atomic_t rx_reserved;
	spinlock_t rxq_lock;	/* protects rxq */
	struct list_head rxq;
	struct uet_page_ring *pages;
};

/**
 * uet_sk() - the AF_UET socket of a struct sock
 * @sk: the socket
 *
 * Return: its struct uet_sock.
 */
static inline struct uet_sock *uet_sk(const struct sock *sk)
{
	return container_of(sk, struct uet_sock, sk);
}

int uet_af_init(void);
void uet_af_exit(void);
void uet_sock_net_init(struct uet_net *un);
struct sock *uet_ep_get(struct uet_net *un, u32 job, u16 ep,
			const struct in6_addr *daddr);
int uet_sock_rx_reserve(struct sock *sk, u32 len);
void uet_sock_rx_unreserve(struct sock *sk, u32 len);
int uet_sock_rx_keep(struct sock *sk, struct sk_buff *skb, u32 max, u32 over);
void uet_rx_msg_release(struct uet_rx_msg *m);
void uet_sock_deliver(struct uet_rx_msg *m);
void uet_rx_msg_free(struct uet_rx_msg *m);
void uet_tx_msg_free(struct uet_tx_msg *m);
void uet_sock_tx_error(struct uet_tx_msg *m, const struct in6_addr *dst,
		       int err);
void uet_addr_to_sockaddr(const struct in6_addr *a, u32 job, u16 ep,
			  struct sockaddr_uet *sa);

#endif /* _UET_SOCK_H */
