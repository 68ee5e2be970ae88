/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: message buffers and the messages in flight.
 *
 * A message's bytes live in a vector of pages allocated once per message:
 * the sender copies the user's data in at sendmsg() and packets copy out of
 * it; the receiver writes each packet straight in at its offset, in
 * whatever order packets arrive, and recvmsg() copies it out whole.
 */
#ifndef _UET_MSG_H
#define _UET_MSG_H

#include <linux/in6.h>
#include <linux/list.h>
#include <linux/types.h>

struct iov_iter;
struct page;
struct sk_buff;
struct sock;

/**
 * struct uet_buf - the bytes of one message
 * @len: bytes
 * @npages: pages in @pages, DIV_ROUND_UP(@len, PAGE_SIZE)
 * @pages: the pages, in order
 *
 * Written by one context at a time (sendmsg() before the message is
 * queued; the receiving PDC's lock until complete), then read-only.
 */
struct uet_buf {
	u32 len;
	u32 npages;
	struct page *pages[];
};

/**
 * struct uet_tx_msg - a message being sent
 * @node: in uet_pdc_tx.msgs, every message not yet done; under the PDC lock
 * @sq_node: in uet_pdc_tx.sendq while it has bytes not yet packetised;
 *	under the PDC lock
 * @sk: the sending socket, held until the message is done
 * @buf: its bytes
 * @charge: bytes charged to the socket's send budget
 * @sent: bytes packetised so far; under the PDC lock
 * @pkts: packets built so far; under the PDC lock
 * @inflight: packets sent and not yet acknowledged; under the PDC lock
 * @seq: the message's number on its socket, for error reports
 * @job: job id
 * @msg_id: SES message id on its PDC
 * @src_ep: sending endpoint
 * @dst_ep: destination endpoint
 * @err: non-zero once given up (positive errno); under the PDC lock
 */
struct uet_tx_msg {
	struct list_head node;
	struct list_head sq_node;
	struct sock *sk;
	struct uet_buf *buf;
	u32 charge;
	u32 sent;
	u32 pkts;
	u32 inflight;
	u32 seq;
	u32 job;
	u16 msg_id;
	u16 src_ep;
	u16 dst_ep;
	int err;
};

/**
 * struct uet_rx_msg - a message being received, then waiting for recvmsg()
 * @hnode: in the receiving PDC's table of partial messages; under its lock
 * @qnode: in uet_sock.rxq once complete; under uet_sock.rxq_lock
 * @sk: the receiving socket, held
 * @buf: its bytes
 * @charge: bytes charged to @sk's receive buffer
 * @got: payload bytes written so far; under the PDC lock
 * @job: job id
 * @msg_id: SES message id
 * @src_ep: sending endpoint
 * @src: sender's address (IPv4 as v4-mapped IPv6)
 */
struct uet_rx_msg {
	struct hlist_node hnode;
	struct list_head qnode;
	struct sock *sk;
	struct uet_buf *buf;
	u32 charge;
	u32 got;
	u32 job;
	u16 msg_id;
	u16 src_ep;
	struct in6_addr src;
};

struct uet_buf *uet_buf_alloc(u32 len, gfp_t gfp);
void uet_buf_free(struct uet_buf *b);
size_t uet_buf_truesize(u32 len);
int uet_buf_from_iter(struct uet_buf *b, struct iov_iter *from);
int uet_buf_to_iter(const struct uet_buf *b, u32 len, struct iov_iter *to);
void uet_buf_read(const struct uet_buf *b, u32 off, void *to, u32 len);
int uet_buf_write_skb(struct uet_buf *b, u32 off, const struct sk_buff *skb,
		      int skb_off, u32 len);

#endif /* _UET_MSG_H */
