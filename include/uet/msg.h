/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: message buffers and the messages in flight.
 *
 * A message's bytes live in a vector of pages: the sender allocates them
 * all at sendmsg() and copies the user's data in, and its packets carry
 * the pages themselves as fragments (no copy).  The receiver allocates a
 * page only when the first packet with bytes in it arrives, writes each
 * packet straight in at its offset, in whatever order packets arrive, and
 * records which bytes were written, in granules of UET_RX_GRAIN bytes: a
 * packet must cover whole granules (but for the message's end) that no
 * earlier packet wrote, so a message is complete exactly when every byte
 * was written once, and no page reaches recvmsg() with a byte no packet
 * wrote.  A received message of at most UET_RBUF_INLINE_MAX bytes takes
 * no page: its page vector and bytes follow the message itself in one
 * allocation, which spares the allocation, zeroing and freeing of a page
 * per small message (a page is 4 KiB to clear for a 64-byte ping); a
 * message sent shorter than a page likewise holds its buffer, its bytes
 * in a piece of a page the socket's messages share.  A longer message keeps
 * its packets themselves where it can, as TCP keeps its segments: each
 * kept packet stays, by reference, in a tree ordered by offset until
 * recvmsg() copies from it, which spares a page, its clearing and one of
 * two copies.  Packets are kept within a budget of memory that the first
 * packet sets and the socket reserves (uet_rbuf_keep_budget()); the
 * others are copied into pages as above, and recvmsg() takes each range
 * from wherever it is.
 */
#ifndef _UET_MSG_H
#define _UET_MSG_H

#include <linux/in6.h>
#include <linux/list.h>
#include <linux/types.h>

#include <linux/bitops.h>
#include <linux/mm_types.h>
#include <linux/rbtree.h>
#include <linux/spinlock_types.h>

struct iov_iter;
struct page;
struct page_frag;
struct sk_buff;
struct sock;

/**
 * struct uet_buf - the bytes of a message being sent
 * @len: bytes
 * @npages: pages in @pages, DIV_ROUND_UP(@len, PAGE_SIZE)
 * @pgoff: where byte 0 is in @pages[0]: 0, or for a message shorter than
 *	a page, its place in a page fragment shared with other messages
 *	(possibly a compound page, so beyond PAGE_SIZE)
 * @embedded: allocated with its message (uet_buf_init_shared()), which
 *	frees the memory
 * @pages: the pages, in order
 *
 * Written by sendmsg() before the message is queued, then read-only.
 */
struct uet_buf {
	u32 len;
	u32 npages;
	u32 pgoff;
	u32 embedded;
	struct page *pages[];
};

/*
 * Pages a socket keeps of its sent messages for its next ones (4 MiB):
 * a page that no packet holds any more is written again rather than
 * freed and another allocated, which init_on_alloc would clear.
 */
#define UET_PAGE_RING_PAGES	1024

/**
 * struct uet_page_ring - pages of a socket's sent messages, for its next
 * @lock: protects the ring; a leaf lock, taken with BH off (messages are
 *	freed in softirq)
 * @head: the slot of the oldest page
 * @n: pages held, a reference each
 * @pages: the ring, oldest first from @head
 *
 * A page goes back to a message only when the ring's reference is its
 * last one: no packet, here or at a peer, still holds it.
 */
struct uet_page_ring {
	spinlock_t lock;	/* protects the ring */
	u32 head;
	u32 n;
	struct page *pages[UET_PAGE_RING_PAGES];
};

/* Bytes of a received message tracked as one: packets start on a granule. */
#define UET_RX_GRAIN		64
#define UET_RX_PAGE_GRAINS	(PAGE_SIZE / UET_RX_GRAIN)

/**
 * struct uet_rpage - one page of a message being received
 * @page: the page; NULL until a packet with bytes in it arrives
 * @got: granules of the page written, bit i for bytes
 *	[i * UET_RX_GRAIN, (i + 1) * UET_RX_GRAIN)
 */
struct uet_rpage {
	struct page *page;
	unsigned long got[BITS_TO_LONGS(UET_RX_PAGE_GRAINS)];
};

/* A received message this short is held in its struct uet_rbuf. */
#define UET_RBUF_INLINE_MAX	1024
/*
 * How much more than the pages of its copy a kept packet may take
 * (truesize): a packet in a NIC's or a peer's page fragments carries
 * headers and slack, and one far larger than its payload is copied
 * instead, so that a few bytes cannot pin a large buffer.
 */
#define UET_RBUF_KEEP_SLACK	PAGE_SIZE
/*
 * A message of several packets keeps them within this many times the
 * pages a copy of it takes (on a veth pair at MTU 1500 a packet's
 * truesize is about 1.6 times its payload).
 */
#define UET_RBUF_KEEP_RATIO	2

/**
 * struct uet_rbuf_cb - where a kept packet's bytes go, in its skb->cb
 * @off: offset in the message
 * @len: bytes
 * @skb_off: where they start in the packet
 * @seg: 0 for a plain packet; for a superpacket kept whole, the payload
 *	bytes of each of its segments: byte x of the range is at
 *	@skb_off + (x / @seg) * @stride + x % @seg
 * @stride: bytes from one segment's payload to the next (header included)
 */
struct uet_rbuf_cb {
	u32 off;
	u32 len;
	u32 skb_off;
	u16 seg;
	u16 stride;
};

/**
 * struct uet_rbuf - the bytes of a message being received
 * @len: bytes of the message
 * @got: bytes written or kept so far
 * @npages: pages allocated so far (each charged to the receiver); for a
 *	message of at most UET_RBUF_INLINE_MAX bytes, 1 once its first
 *	bytes landed, its inline bytes charged as the page they stand for
 * @kept_size: the truesize of the packets in @kept; they count as the
 *	pages it rounds up to against rx-mem
 * @keep_max: the most @kept_size may reach, set by the first packet
 *	(uet_rbuf_keep_budget()); 0: nothing is kept
 * @keep_over: what the socket reserved against SO_RCVBUF for @keep_max
 *	beyond the message's pages
 * @embedded: allocated with its message (uet_rbuf_init()), which frees
 *	the memory
 * @kept: the kept packets by offset (skb->rbnode), each a reference held,
 *	its struct uet_rbuf_cb in its cb; @pg holds the other bytes
 * @kept_last: the packet of @kept with the highest offset
 * @pg: DIV_ROUND_UP(@len, PAGE_SIZE) pages, in order, each with the
 *	granules written or kept; a page stays NULL until a packet is copied
 *	into it; for a message of at most UET_RBUF_INLINE_MAX bytes one
 *	entry whose page stays NULL, the message's bytes following it
 *
 * Written under the receiving PDC's lock until complete, then read-only.
 */
struct uet_rbuf {
	u32 len;
	u32 got;
	u32 npages;
	u32 kept_size;
	u32 keep_max;
	u32 keep_over;
	u32 embedded;
	struct rb_root kept;
	struct sk_buff *kept_last;
	struct uet_rpage pg[];
};

/**
 * struct uet_tx_msg - a message being sent
 * @node: in uet_pdc_tx.msgs, every message not yet done; under the PDC lock
 * @sq_node: in uet_pdc_tx.sendq while it has bytes not yet packetised;
 *	under the PDC lock
 * @sk: the sending socket, held until the message is done
 * @buf: its bytes; right after the message for one shorter than a page
 *	(uet_buf_embed_size())
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
 * @sk: the receiving socket, held; NULL once the message is discarded
 *	(a tombstone: the rest of it is refused)
 * @buf: its bytes, right after the message for one held inline that
 *	came whole in its first packet (uet_rbuf_embed_size()); NULL once
 *	discarded
 * @charge: bytes charged to @sk's receive buffer, @buf's pages included;
 *	under the PDC lock until complete
 * @last: jiffies when a packet last added bytes; under the PDC lock
 * @psn_max: the highest PSN of the message seen; under the PDC lock
 * @psn_last: the last PSN a packet of the message can carry, from the
 *	packet at @psn_max: packets are cut in order, each but the last at
 *	least UET_RX_GRAIN bytes (uet_rx_psn_last()); under the PDC lock
 * @job: job id
 * @msg_id: SES message id
 * @src_ep: sending endpoint
 * @rc: why a discarded message is refused (UET_RC_*); under the PDC lock
 * @src: sender's address (IPv4 as v4-mapped IPv6)
 */
struct uet_rx_msg {
	struct hlist_node hnode;
	struct list_head qnode;
	struct sock *sk;
	struct uet_rbuf *buf;
	u32 charge;
	unsigned long last;
	u32 psn_max;
	u32 psn_last;
	u32 job;
	u16 msg_id;
	u16 src_ep;
	u8 rc;
	struct in6_addr src;
};

struct uet_page_ring *uet_page_ring_alloc(gfp_t gfp);
void uet_page_ring_free(struct uet_page_ring *r);
u32 uet_page_ring_drain(struct uet_page_ring *r);
u32 uet_page_ring_take(struct uet_page_ring *r, struct page **pages, u32 n);
void uet_page_ring_put(struct uet_page_ring *r, struct page **pages, u32 n,
		       u32 max);
struct uet_buf *uet_buf_alloc(u32 len, struct page_frag *pfrag,
			      struct uet_page_ring *r, u32 *reused, gfp_t gfp);
int uet_buf_init_shared(struct uet_buf *b, u32 len, struct page_frag *pfrag,
			gfp_t gfp);
size_t uet_buf_embed_size(u32 len);
void uet_buf_free(struct uet_buf *b, struct uet_page_ring *r, u32 max);
size_t uet_buf_truesize(u32 len);
int uet_buf_from_iter(struct uet_buf *b, struct iov_iter *from);
u32 uet_buf_frags(u32 off, u32 len);
int uet_buf_skb_frags(const struct uet_buf *b, u32 off, u32 len,
		      struct sk_buff *skb);

struct uet_rbuf *uet_rbuf_alloc(u32 len, gfp_t gfp);
void uet_rbuf_free(struct uet_rbuf *b);
size_t uet_rbuf_size(u32 len);
size_t uet_rbuf_embed_size(u32 len);
void uet_rbuf_init(struct uet_rbuf *b, u32 len);
int uet_rbuf_check(const struct uet_rbuf *b, u32 off, u32 len);
u32 uet_rbuf_missing(const struct uet_rbuf *b, u32 off, u32 len);
u32 uet_rbuf_populate(struct uet_rbuf *b, u32 off, u32 len, gfp_t gfp);
int uet_rbuf_write_skb(struct uet_rbuf *b, u32 off, const struct sk_buff *skb,
		       int skb_off, u32 len);
int uet_rbuf_to_iter(const struct uet_rbuf *b, u32 len, struct iov_iter *to);
u32 uet_rbuf_keep_budget(const struct uet_rbuf *b, u32 off, u32 len,
			 u32 truesize, u32 *over);
bool uet_rbuf_may_keep(const struct uet_rbuf *b, u32 len, u32 truesize);
u32 uet_rbuf_keep_pages(const struct uet_rbuf *b, u32 truesize);
void uet_rbuf_keep_skb(struct uet_rbuf *b, struct sk_buff *skb, u16 seg,
		       u16 stride, u32 skb_off,
		       u32 off, u32 len);

#endif /* _UET_MSG_H */
