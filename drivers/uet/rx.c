// SPDX-License-Identifier: GPL-2.0
/*
 * uet: receiving.  The namespace's kernel UDP sockets hand every UET
 * packet to uet_encap_rcv() (a non-zero checksum already verified by UDP;
 * a zero one, UET 1.0's, taken or dropped as configured).  Packets
 * are parsed and validated; anything malformed, unknown or out of place is
 * dropped and counted by reason.
 *
 * A data packet is accepted once per PSN (the target's window bitmap
 * suppresses duplicates) and kept as it came in its message, or copied
 * into the message's pages at its offset, whatever the order of arrival,
 * if no packet wrote those bytes before; a message is handed to its
 * socket when every byte was written once.  Memory comes as data lands,
 * charged to the socket, the namespace's rx-mem and the socket's memory
 * cgroup; a partial message without progress for msg-timeout, or whose
 * socket closed, is discarded and the rest of it refused.  The target
 * acknowledges at once when asked (AR), on a duplicate, on an ECN mark,
 * and otherwise every UET_ACK_EVERY packets, with a SACK bitmap when
 * PSNs past a gap have arrived; it NACKs a trimmed packet at once, and a
 * packet it cannot take now (receive buffer full, no memory, PSN beyond
 * the window) so that the sender holds off.  ACKs and NACKs carry back,
 * as their UDP source port, the entropy value of the packet that drew
 * them.
 */
#include <linux/bitfield.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jiffies.h>
#include <linux/percpu_counter.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>
#include <net/udp_tunnel.h>
#include <trace/events/uet.h>
#include <uet/compat.h>
#include <uet/kunit.h>
#include <uet/msg.h>
#include <uet/net.h>
#include <uet/pdc.h>
#include <uet/rccc.h>
#include <uet/route.h>
#include <uet/sock.h>
#include <uet/stats.h>
#include <uet/wire.h>

/* A UDP tunnel socket's encap_type; any non-zero value turns encap on. */
#define UET_ENCAP_TYPE	1

/**
 * struct uet_rx_ctx - what the outer headers of a packet say
 * @saddr: source address (IPv4 as v4-mapped IPv6)
 * @daddr: destination address
 * @ev: UDP source port: the entropy value, echoed in our answer
 * @dscp: DSCP
 * @ce: ECN congestion experienced
 */
struct uet_rx_ctx {
	struct in6_addr saddr;
	struct in6_addr daddr;
	u16 ev;
	u8 dscp;
	bool ce;
};

static void uet_rx_ctx_init(const struct sk_buff *skb, struct uet_rx_ctx *c)
{
	u8 ds;

	if (ip_hdr(skb)->version == 4) {
		const struct iphdr *iph = ip_hdr(skb);

		ipv6_addr_set_v4mapped(iph->saddr, &c->saddr);
		ipv6_addr_set_v4mapped(iph->daddr, &c->daddr);
		ds = ipv4_get_dsfield(iph);
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		c->saddr = ip6h->saddr;
		c->daddr = ip6h->daddr;
		ds = ipv6_get_dsfield(ip6h);
	}
	c->dscp = ds >> 2;
	c->ce = INET_ECN_is_ce(ds);
	c->ev = ntohs(udp_hdr(skb)->source);
}

/**
 * uet_rx_test() - has a PSN of the window been received?
 * @rx: the receiving side
 * @psn: a PSN in [epsn, epsn + UET_PSN_WINDOW)
 *
 * Return: true when received.
 */
VISIBLE_IF_KUNIT bool uet_rx_test(const struct uet_pdc_rx *rx, u32 psn)
{
	u32 i = psn % UET_PSN_WINDOW;

	return rx->bitmap[i / 64] & BIT_ULL(i % 64);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rx_test);

/**
 * uet_rx_mark() - mark a PSN received and move the expected PSN on
 * @rx: the receiving side
 * @psn: a PSN in [epsn, epsn + UET_PSN_WINDOW) not yet received
 *
 * The expected PSN moves past every PSN received without a gap; their
 * bits are cleared for the PSNs a window later.  The first move sets
 * @rx->took.
 */
VISIBLE_IF_KUNIT void uet_rx_mark(struct uet_pdc_rx *rx, u32 psn)
{
	u32 i = psn % UET_PSN_WINDOW;

	/* epsn was not received: it moves only when @psn is it */
	if (unlikely(!rx->took) && psn == rx->epsn)
		WRITE_ONCE(rx->took, true);
	rx->bitmap[i / 64] |= BIT_ULL(i % 64);
	while (uet_rx_test(rx, rx->epsn)) {
		i = rx->epsn % UET_PSN_WINDOW;
		rx->bitmap[i / 64] &= ~BIT_ULL(i % 64);
		rx->epsn++;
	}
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rx_mark);

/**
 * uet_rx_sack_bits() - the SACK bitmap of the receiving side
 * @rx: the receiving side
 *
 * Return: the 64 PSNs from the expected one on: bit i is PSN epsn + i
 * (bit 0 is always clear: epsn has not been received).
 */
VISIBLE_IF_KUNIT u64 uet_rx_sack_bits(const struct uet_pdc_rx *rx)
{
	u32 i = rx->epsn % UET_PSN_WINDOW, w = i / 64, sh = i % 64;
	u64 bits = rx->bitmap[w] >> sh;

	if (sh)
		bits |= rx->bitmap[(w + 1) % (UET_PSN_WINDOW / 64)] << (64 - sh);
	return bits;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rx_sack_bits);

/**
 * uet_ack_write() - write an ACK or ACK_CC header
 * @hdr: where: sizeof(struct uet_pds_ack_cc) bytes for an ACK_CC (@a->cc),
 *	sizeof(struct uet_pds_ack) for an ACK
 * @a: what it says; with UET_ACK_P the probe's opaque value takes the
 *	place of the PSN offset of the trigger
 *
 * A trigger further than a signed 16-bit offset from the cumulative ACK
 * is sent as offset 0.
 */
VISIBLE_IF_KUNIT void uet_ack_write(void *hdr, const struct uet_ack_info *a)
{
	struct uet_pds_ack_cc *acc = hdr;
	s32 off = a->trigger - a->cack;
	u16 apo = 0;

	if (a->flags & UET_ACK_P)
		apo = a->opaque;
	else if (off >= S16_MIN && off <= S16_MAX)
		apo = (u16)off;
	acc->ack.prologue = uet_prologue(a->cc ? UET_PDS_ACK_CC : UET_PDS_ACK,
					 UET_NH_NONE, a->flags);
	acc->ack.ack_psn_off = cpu_to_be16(apo);
	acc->ack.cack_psn = cpu_to_be32(a->cack);
	acc->ack.spdcid = cpu_to_be16(a->spdcid);
	acc->ack.dpdcid = cpu_to_be16(a->dpdcid);
	if (!a->cc)
		return;
	acc->cc_type_flags = FIELD_PREP(UET_ACK_CC_TYPE, a->cc_type);
	acc->mpr = 0;
	acc->sack_psn_off = cpu_to_be16((u16)(a->sack_base - a->cack));
	acc->sack_bitmap = cpu_to_be64(a->bitmap);
	acc->cc_state = cpu_to_be64(a->cc_state);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_ack_write);

/**
 * uet_ack_read() - parse an ACK or ACK_CC header
 * @hdr: the header
 * @len: bytes available at @hdr
 * @a: filled in
 *
 * Return: 0, or -EINVAL when @hdr is not a whole ACK or ACK_CC.
 */
VISIBLE_IF_KUNIT int uet_ack_read(const void *hdr, unsigned int len,
				  struct uet_ack_info *a)
{
	const struct uet_pds_ack_cc *acc = hdr;
	u8 type;

	if (len < sizeof(acc->ack))
		return -EINVAL;
	type = uet_prologue_type(acc->ack.prologue);
	if ((type != UET_PDS_ACK && type != UET_PDS_ACK_CC) ||
	    (type == UET_PDS_ACK_CC && len < sizeof(*acc)))
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	a->flags = uet_prologue_flags(acc->ack.prologue);
	a->cack = be32_to_cpu(acc->ack.cack_psn);
	a->opaque = be16_to_cpu(acc->ack.ack_psn_off);
	a->trigger = a->cack + (s16)a->opaque;
	a->spdcid = be16_to_cpu(acc->ack.spdcid);
	a->dpdcid = be16_to_cpu(acc->ack.dpdcid);
	if (type == UET_PDS_ACK_CC) {
		a->cc = true;
		a->cc_type = FIELD_GET(UET_ACK_CC_TYPE, acc->cc_type_flags);
		a->sack_base = a->cack + (s16)be16_to_cpu(acc->sack_psn_off);
		a->bitmap = be64_to_cpu(acc->sack_bitmap);
		a->cc_state = be64_to_cpu(acc->cc_state);
	}
	return 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_ack_read);

/* Send @a, filled in but for the PSN state, on @ev; false without memory. */
static bool uet_rx_ack_out(struct uet_pdc *pdc, struct uet_ack_info *a,
			   u16 ev, struct sk_buff_head *q)
{
	struct uet_pdc_rx *rx = &pdc->rx;
	struct sk_buff *skb;

	a->bitmap = uet_rx_sack_bits(rx);
	a->cack = rx->epsn - 1;
	a->sack_base = rx->epsn;
	a->spdcid = pdc->lid;
	a->dpdcid = pdc->key.rpdcid;
	a->cc |= !!a->bitmap;
	/*
	 * NSCC's ACK clock: under nscc every ACK is an ACK_CC, and every
	 * ACK_CC (cc_type NSCC, 0 on the wire) reports the bytes received so
	 * far, in 256-byte units rounded up, wrapping at 24 bits.
	 * Service_Time is 0 but in a probe's answer and a held ACK
	 * (uet_rx_held_out()): the ACK leaves in the softirq its trigger
	 * arrived in.
	 */
	if (uet_pdc_nscc(pdc))
		a->cc = true;
	if (a->cc) {
		u64 units = DIV_ROUND_UP_ULL(rx->cc_rcvd,
					     1U << UET_NSCC_RCVD_SHIFT);

		a->cc_type = UET_ACK_CC_NSCC;
		a->cc_state |= FIELD_PREP(UET_NSCC_RCVD_BYTES,
					  units & UET_NSCC_RCVD_MASK);
	}
	skb = uet_ctl_skb(pdc, a->cc ? sizeof(struct uet_pds_ack_cc) :
				       sizeof(struct uet_pds_ack), ev);
	if (!skb) {
		uet_stat_inc(pdc->un, UET_STAT_TX_NOMEM);
		return false;
	}
	uet_ack_write(skb->data, a);
	if (a->bitmap)
		uet_stat_inc(pdc->un, UET_STAT_SACK_TX);
	/* The sender takes nothing but the probe's answer from a P ACK. */
	if (!(a->flags & UET_ACK_P)) {
		rx->since_ack = 0;
		rx->held.due = 0;
	}
	__skb_queue_tail(q, skb);
	uet_stat_inc(pdc->un, UET_STAT_ACK_TX);
	trace_uet_ack_tx(pdc->lid, a->cack, a->trigger, ev, a->bitmap != 0,
			 a->flags & UET_ACK_M);
	return true;
}

/* Acknowledge: @trigger drew the ACK, which carries back its value @ev. */
static void uet_rx_send_ack(struct uet_pdc *pdc, u32 trigger, u8 flags,
			    u16 ev, struct sk_buff_head *q)
{
	struct uet_ack_info a = { .trigger = trigger, .flags = flags };

	uet_rx_ack_out(pdc, &a, ev, q);
}

/*
 * Send the ACK held since @rx->held.due - ack-delay: it names the newest
 * packet, and its Service_Time (an ACK_CC's) says how long that packet
 * waited here, which its sender takes out of the RTT it measures.
 */
static void uet_rx_held_out(struct uet_pdc *pdc, u64 now,
			    struct sk_buff_head *q)
{
	struct uet_rx_held *h = &pdc->rx.held;
	struct uet_ack_info a = { .trigger = h->psn, .cc = true };

	a.cc_state = FIELD_PREP(UET_NSCC_SERVICE_TIME,
				min_t(u64, div_u64(now - h->last_ns,
						   UET_NSCC_SERVICE_NS),
				      FIELD_MAX(UET_NSCC_SERVICE_TIME)));
	/* sent or not (no memory: lost as on the wire), nothing is held */
	h->due = 0;
	if (uet_rx_ack_out(pdc, &a, h->ev, q))
		uet_stat_inc(pdc->un, UET_STAT_ACK_HELD);
}

static enum hrtimer_restart uet_rx_held_timer(struct hrtimer *t)
{
	struct uet_pdc *pdc = container_of(t, struct uet_pdc, rx.held.timer);
	struct uet_rx_held *h = &pdc->rx.held;
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	u64 now = ktime_get_ns();
	struct sk_buff_head q;

	/* uet_rx_pdc_release() cancels this timer before the PDC is freed. */
	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (!pdc->dead && h->due) {
		/* an ACK went since it was armed, and another is held now */
		if (now < h->due) {
			hrtimer_set_expires(t, ns_to_ktime(h->due));
			ret = HRTIMER_RESTART;
		} else {
			uet_rx_held_out(pdc, now, &q);
		}
	}
	spin_unlock_bh(&pdc->lock);
	uet_xmit_queue(pdc->un, &q);
	return ret;
}

/*
 * A packet that asked for no ACK and ends its message (or comes while an
 * ACK is held): hold the ACK for up to ack-delay, so that it covers what
 * comes meanwhile; without ack-delay, acknowledge at once.
 */
static void uet_rx_hold_ack(struct uet_pdc *pdc, u32 psn, u16 ev,
			    struct sk_buff_head *q)
{
	struct uet_rx_held *h = &pdc->rx.held;
	u64 now;

	if (!pdc->ack_delay_ns) {
		uet_rx_send_ack(pdc, psn, 0, ev, q);
		return;
	}
	now = ktime_get_ns();
	h->psn = psn;
	h->ev = ev;
	h->last_ns = now;
	if (h->due)
		return;
	h->due = now + pdc->ack_delay_ns;
	/*
	 * A timer still queued for an earlier hold moves on to this one when
	 * it fires; one not queued (or returning) is started, which is safe
	 * against its callback returning on another CPU.
	 */
	if (!hrtimer_is_queued(&h->timer))
		hrtimer_start(&h->timer, ns_to_ktime(h->due),
			      HRTIMER_MODE_ABS_SOFT);
}

static void uet_rx_send_nack(struct uet_net *un, const struct in6_addr *laddr,
			     const struct in6_addr *raddr, u16 ev,
			     u16 spdcid, u16 dpdcid, u32 psn, u8 code,
			     u32 payload, u8 flags, struct sk_buff_head *q)
{
	struct uet_pds_nack *n;
	struct sk_buff *skb;

	skb = uet_ctl_skb_addr(laddr, raddr, sizeof(*n), ev);
	if (!skb) {
		uet_stat_inc(un, UET_STAT_TX_NOMEM);
		return;
	}
	n = (struct uet_pds_nack *)skb->data;
	n->prologue = uet_prologue(UET_PDS_NACK, UET_NH_NONE, flags);
	n->code = code;
	n->psn = cpu_to_be32(psn);
	n->spdcid = cpu_to_be16(spdcid);
	n->dpdcid = cpu_to_be16(dpdcid);
	n->payload = cpu_to_be32(payload);
	__skb_queue_tail(q, skb);
	uet_stat_inc(un, UET_STAT_NACK_TX);
	trace_uet_nack_tx(spdcid, psn, code, ev);
}

static void uet_rx_pdc_nack(struct uet_pdc *pdc, const struct uet_rx_pkt *pk,
			    const struct uet_rx_ctx *c, u8 code, u32 payload,
			    struct sk_buff_head *q)
{
	u8 flags = (c->ce ? UET_NACK_M : 0) |
		   (pk->flags & UET_REQ_RETX ? UET_NACK_RETX : 0);

	uet_rx_send_nack(pdc->un, &pdc->key.laddr, &pdc->key.raddr, c->ev,
			 pdc->lid, pdc->key.rpdcid, pk->psn, code, payload,
			 flags, q);
}

static struct uet_rx_msg *uet_rx_msg_find(struct uet_pdc *pdc, u16 msg_id)
{
	struct uet_rx_msg *m;

	hash_for_each_possible(pdc->rx.msgs, m, hnode, msg_id)
		if (m->msg_id == msg_id)
			return m;
	return NULL;
}

/*
 * Discard @m, partial: its memory goes back and it stays as a tombstone,
 * so that its other packets are refused with @rc rather than start it
 * again and be acknowledged for a message never delivered.  A PDC that
 * cannot keep one more tombstone closes instead.
 */
static void uet_rx_msg_discard(struct uet_pdc *pdc, struct uet_rx_msg *m,
			       u8 rc)
{
	uet_rx_msg_release(m);
	m->rc = rc;
	if (pdc->rx.ntombs < UET_RX_TOMBS_MAX) {
		pdc->rx.ntombs++;
		return;
	}
	hash_del(&m->hnode);
	kfree(m);
	pdc->dead = true;
}

/* Free @m, partial or a tombstone, and take it out of @pdc. */
static void uet_rx_msg_drop(struct uet_pdc *pdc, struct uet_rx_msg *m)
{
	hash_del(&m->hnode);
	if (!m->sk)
		pdc->rx.ntombs--;
	uet_rx_msg_free(m);
}

/*
 * Does @pk start a new message with the id of @m?  A message's first bytes
 * come with its lowest PSN, so a packet at offset 0 with a PSN past every
 * PSN seen of @m is not @m's: the sender's next use of the id when @m was
 * discarded, or when the length differs.  Of a partial message of the
 * same length it is a second SOM, refused as an overlap (with a window of
 * 256 PSNs and ids used in turn, a sender cannot reuse the id of a
 * message it has not finished).
 */
static bool uet_rx_msg_reused(const struct uet_rx_msg *m,
			      const struct uet_rx_pkt *pk)
{
	/* No packet of a tombstone's message comes past its last PSN. */
	if (!m->sk && (s32)(pk->psn - m->psn_last) > 0)
		return true;
	return !pk->off && (s32)(pk->psn - m->psn_max) > 0 &&
	       (!m->sk || m->buf->len != pk->msg_len);
}

/* The last PSN of @pk's message, from @pk (uet_rx_msg.psn_last). */
static u32 uet_rx_psn_last(const struct uet_rx_pkt *pk)
{
	return pk->psn + DIV_ROUND_UP(pk->msg_len - (pk->off + pk->len),
				      UET_RX_GRAIN);
}

/* Start receiving a message: find its socket, charge it, allocate. */
static struct uet_rx_msg *uet_rx_msg_new(struct uet_pdc *pdc,
					 const struct uet_rx_pkt *pk,
					 const struct uet_rx_ctx *c, u8 *rc)
{
	u32 charge = sizeof(struct uet_rx_msg) + uet_rbuf_size(pk->msg_len);
	struct mem_cgroup *memcg;
	size_t embed = 0;
	struct uet_rx_msg *m;
	struct sock *sk;
	int err;

	if (pk->msg_len > UET_MSG_MAX) {
		*rc = UET_RC_TOO_LONG;
		return ERR_PTR(-EMSGSIZE);
	}
	sk = uet_ep_get(pdc->un, pk->job, pk->dst_ep, &c->daddr);
	if (!sk) {
		*rc = UET_RC_BAD_PID;
		return ERR_PTR(-ECONNREFUSED);
	}
	err = uet_sock_rx_reserve(sk, pk->msg_len);
	if (err) {
		sock_put(sk);
		if (err == -E2BIG)
			*rc = UET_RC_TOO_LONG;
		return ERR_PTR(err);
	}
	atomic_add(charge, &sk->sk_rmem_alloc);
	/* Received on the socket's behalf: charged to its memory cgroup. */
	memcg = set_active_memcg(sk->sk_memcg);
	/*
	 * A message held inline that comes whole in this packet holds its
	 * buffer: one allocation.  Not one that may wait for more packets:
	 * discarded, it would stay a tombstone of its bytes' size.
	 */
	if (!pk->off && pk->len == pk->msg_len)
		embed = uet_rbuf_embed_size(pk->msg_len);
	m = kzalloc(sizeof(*m) + embed,
		    GFP_ATOMIC | __GFP_ACCOUNT | __GFP_NOWARN);
	if (m && embed) {
		m->buf = (struct uet_rbuf *)(m + 1);
		uet_rbuf_init(m->buf, pk->msg_len);
	} else if (m) {
		m->buf = uet_rbuf_alloc(pk->msg_len,
					GFP_ATOMIC | __GFP_ACCOUNT);
	}
	set_active_memcg(memcg);
	if (!m || !m->buf) {
		kfree(m);
		atomic_sub(charge, &sk->sk_rmem_alloc);
		uet_sock_rx_unreserve(sk, pk->msg_len);
		sock_put(sk);
		return ERR_PTR(-ENOMEM);
	}
	m->sk = sk;
	m->charge = charge;
	m->last = jiffies;
	m->psn_max = pk->psn;
	m->psn_last = uet_rx_psn_last(pk);
	m->job = pk->job;
	m->msg_id = pk->msg_id;
	m->src_ep = pk->src_ep;
	m->src = c->saddr;
	INIT_LIST_HEAD(&m->qnode);
	hash_add(pdc->rx.msgs, &m->hnode, m->msg_id);
	return m;
}

/*
 * Would @pages more pages take the namespace's rx-mem past its limit?
 * Exact (a sum under the counter's lock) only near the limit.
 */
static bool uet_rx_mem_full(struct uet_net *un, u32 pages)
{
	return percpu_counter_compare(&un->rx_mem,
				      (s64)uet_cfg(un)->rx_mem - pages) > 0;
}

/*
 * Allocate the pages @pk lands in, charged to the socket (within what its
 * message reserved), the namespace (rx-mem) and the socket's memory
 * cgroup.  Return: 0, -EDQUOT (rx-mem used up) or -ENOMEM.
 */
static int uet_rx_msg_pages(struct uet_pdc *pdc, struct uet_rx_msg *m,
			    const struct uet_rx_pkt *pk)
{
	u32 need = uet_rbuf_missing(m->buf, pk->off, pk->len), got;
	struct uet_net *un = pdc->un;
	struct mem_cgroup *memcg;

	if (!need)
		return 0;
	if (uet_rx_mem_full(un, need))
		return -EDQUOT;
	memcg = set_active_memcg(m->sk->sk_memcg);
	got = uet_rbuf_populate(m->buf, pk->off, pk->len,
				GFP_ATOMIC | __GFP_ACCOUNT);
	set_active_memcg(memcg);
	percpu_counter_add(&un->rx_mem, got);
	atomic_add(got * PAGE_SIZE, &m->sk->sk_rmem_alloc);
	m->charge += got * PAGE_SIZE;
	return got == need ? 0 : -ENOMEM;
}

/*
 * Set @m's budget for keeping its packets from its first one, @skb, and
 * have the socket reserve and charge it (uet_sock_rx_keep()).  Return:
 * true when packets may be kept.
 */
static bool uet_rx_keep_start(struct uet_rx_msg *m, struct sk_buff *skb,
			      const struct uet_rx_pkt *pk)
{
	u32 len = pk->len, truesize = skb->truesize, max, over, seg, more;
	struct uet_rbuf *b = m->buf;

	/*
	 * A superpacket sets the budget its first packet would set alone:
	 * the packets after it may come alone, each with an skb's overhead.
	 */
	if (pk->whole && len < b->len) {
		seg = pk->stride - UET_DATA_HDR_LEN;
		more = len - seg + (DIV_ROUND_UP(len, seg) - 1) * UET_DATA_HDR_LEN;
		len = seg;
		if (truesize > more)
			truesize -= more;
	}
	max = uet_rbuf_keep_budget(b, pk->off, len, truesize, &over);
	if (!max || uet_sock_rx_keep(m->sk, skb, max, over))
		return false;
	b->keep_max = max;
	b->keep_over = over;
	return true;
}

/*
 * Keep @skb as its bytes of @m rather than copy it into a page: charged
 * as its truesize to the socket's sk_rmem_alloc and to rx-mem, within the
 * budget the first packet set, which the socket reserved against
 * SO_RCVBUF and charged to its memory cgroup.  A packet from memory
 * reserves or with user pages in it is copied, as is one that any of
 * these refuses; the copy then meets the same limits and answers for
 * them.
 * Return: true when kept.
 */
static bool uet_rx_msg_keep(struct uet_pdc *pdc, struct uet_rx_msg *m,
			    struct sk_buff *skb, const struct uet_rx_pkt *pk)
{
	struct uet_rbuf *b = m->buf;
	struct uet_net *un = pdc->un;
	u32 pages;

	if (skb_pfmemalloc(skb) || skb_zcopy(skb) ||
	    (pk->stride && !pk->whole))
		return false;
	if (!b->got && !b->npages && !b->keep_max &&
	    !uet_rx_keep_start(m, skb, pk))
		return false;
	if (!uet_rbuf_may_keep(b, pk->len, skb->truesize))
		return false;
	pages = uet_rbuf_keep_pages(b, skb->truesize);
	if (pages && uet_rx_mem_full(un, pages))
		return false;
	/* Nothing of the way it came is needed again. */
	skb_orphan(skb);
	skb_dst_drop(skb);
	nf_reset_ct(skb);
	uet_rbuf_keep_skb(b, skb_get(skb),
			  pk->stride ? pk->stride - UET_DATA_HDR_LEN : 0,
			  pk->stride, pk->at, pk->off, pk->len);
	if (pages)
		percpu_counter_add(&un->rx_mem, pages);
	atomic_add(skb->truesize, &m->sk->sk_rmem_alloc);
	m->charge += skb->truesize;
	uet_stat_inc(un, UET_STAT_RX_PKT_KEPT);
	if (pk->len == b->len)
		uet_stat_inc(un, UET_STAT_RX_MSG_KEPT);
	return true;
}

/*
 * Write @pk into @m: only bytes no packet wrote, on granule boundaries.
 * Return: 0, -EBADMSG (another length), -EINVAL (not on a granule),
 * -EEXIST (overlap), -EAGAIN (a whole superpacket not kept), or the error
 * of uet_rx_msg_pages().
 */
static int uet_rx_msg_write(struct uet_pdc *pdc, struct uet_rx_msg *m,
			    struct sk_buff *skb, const struct uet_rx_pkt *pk)
{
	int err;

	if (m->buf->len != pk->msg_len)
		return -EBADMSG;
	err = uet_rbuf_check(m->buf, pk->off, pk->len);
	if (err)
		return err;
	if (uet_rx_msg_keep(pdc, m, skb, pk))
		goto written;
	if (pk->whole)
		return -EAGAIN;
	err = uet_rx_msg_pages(pdc, m, pk);
	if (err)
		return err;
	err = uet_rbuf_write_skb(m->buf, pk->off, skb, pk->at, pk->len);
	if (err)
		return err;
written:
	m->last = jiffies;
	if ((s32)(pk->psn - m->psn_max) > 0) {
		m->psn_max = pk->psn;
		m->psn_last = uet_rx_psn_last(pk);
	}
	return 0;
}

/*
 * Write a packet into its message; hand the message over when complete.
 * Return: 0; -ENOBUFS, -EDQUOT or -ENOMEM (try again later); -EMSGSIZE,
 * -E2BIG, -ECONNREFUSED or -ESTALE with *@rc set (the message can never be
 * taken); -EBADMSG, -EINVAL, -EEXIST or -EFAULT (the packet is refused);
 * -EAGAIN (a whole superpacket not kept: to be taken packet by packet).
 */
static int uet_rx_deliver(struct uet_pdc *pdc, struct sk_buff *skb,
			  const struct uet_rx_pkt *pk,
			  const struct uet_rx_ctx *c, u8 *rc)
{
	struct uet_rx_msg *m = uet_rx_msg_find(pdc, pk->msg_id);
	int err;

	if (m && uet_rx_msg_reused(m, pk)) {
		if (m->sk)
			uet_stat_inc(pdc->un, UET_STAT_RX_MSG_REUSED);
		uet_rx_msg_drop(pdc, m);
		m = NULL;
	}
	/* The socket closed: what it would have received goes. */
	if (m && m->sk && sock_flag(m->sk, SOCK_DEAD)) {
		uet_rx_msg_discard(pdc, m, UET_RC_BAD_PID);
		*rc = UET_RC_BAD_PID;
		return -ESTALE;
	}
	if (m && !m->sk) {
		*rc = m->rc;
		return -ESTALE;
	}
	if (!m) {
		m = uet_rx_msg_new(pdc, pk, c, rc);
		if (IS_ERR(m))
			return PTR_ERR(m);
	}
	err = uet_rx_msg_write(pdc, m, skb, pk);
	if (err) {
		/* A refused packet leaves no message behind. */
		if (!m->buf->got && !m->buf->npages)
			uet_rx_msg_drop(pdc, m);
		return err;
	}
	if (m->buf->got == m->buf->len) {
		hash_del(&m->hnode);
		uet_sock_deliver(m);
	}
	return 0;
}

/*
 * A message refused for good: NACKed fatal.  The PSN is not taken: the
 * sender fills it with a CTRL NOP once it has heard, and until then resends
 * the packet, which is refused again, so the refusal cannot be lost.
 */
static void uet_rx_refuse(struct uet_pdc *pdc, const struct uet_rx_pkt *pk,
			  const struct uet_rx_ctx *c, enum uet_stat why, u8 rc,
			  struct sk_buff_head *q)
{
	uet_stat_inc(pdc->un, why);
	uet_rx_pdc_nack(pdc, pk, c, UET_NACK_FATAL, rc, q);
}

/*
 * Answer a packet uet_rx_deliver() did not take (@err); for a message
 * refused for good @rc says why.
 */
static void uet_rx_not_taken(struct uet_pdc *pdc, const struct uet_rx_pkt *pk,
			     const struct uet_rx_ctx *c, int err, u8 rc,
			     struct sk_buff_head *q)
{
	switch (err) {
	case -ENOBUFS:
		uet_stat_inc(pdc->un, UET_STAT_DROP_RCVBUF);
		uet_rx_pdc_nack(pdc, pk, c, UET_NACK_NO_RESOURCE, 0, q);
		break;
	case -EDQUOT:
		uet_stat_inc(pdc->un, UET_STAT_DROP_RX_MEM);
		uet_rx_pdc_nack(pdc, pk, c, UET_NACK_NO_RESOURCE, 0, q);
		break;
	case -ENOMEM:
		uet_stat_inc(pdc->un, UET_STAT_DROP_NOMEM);
		uet_rx_pdc_nack(pdc, pk, c, UET_NACK_NO_PKT_BUF, 0, q);
		break;
	case -EMSGSIZE:
		uet_rx_refuse(pdc, pk, c, UET_STAT_DROP_MALFORMED, rc, q);
		break;
	case -E2BIG:
		uet_rx_refuse(pdc, pk, c, UET_STAT_DROP_TOO_BIG, rc, q);
		break;
	case -ECONNREFUSED:
		uet_rx_refuse(pdc, pk, c, UET_STAT_DROP_NO_ENDPOINT, rc, q);
		break;
	case -ESTALE:
		uet_rx_refuse(pdc, pk, c, UET_STAT_DROP_DISCARDED, rc, q);
		break;
	case -EEXIST:
		uet_stat_inc(pdc->un, UET_STAT_DROP_OVERLAP);
		break;
	case -EINVAL:
		uet_stat_inc(pdc->un, UET_STAT_DROP_UNALIGNED);
		break;
	default:
		uet_stat_inc(pdc->un, UET_STAT_DROP_MALFORMED);
		break;
	}
}

/*
 * Check a packet's PSN against the window; answer a duplicate (a PSN of
 * the window before) or a PSN beyond the window.  A PSN further behind
 * was never in flight: dropped unanswered.
 * Return: true when the packet is new.
 */
static bool uet_rx_psn_new(struct uet_pdc *pdc, const struct uet_rx_pkt *pk,
			   const struct uet_rx_ctx *c, u8 aflags,
			   struct sk_buff_head *q)
{
	struct uet_pdc_rx *rx = &pdc->rx;
	u32 d = pk->psn - rx->epsn;

	if ((s32)d < -UET_PSN_WINDOW) {
		uet_stat_inc(pdc->un, UET_STAT_DROP_WINDOW);
		return false;
	}
	pdc->last_active = jiffies;
	if ((s32)d < 0 || (d < UET_PSN_WINDOW && uet_rx_test(rx, pk->psn))) {
		/* The sender missed our answer: answer again. */
		uet_stat_inc(pdc->un, UET_STAT_DROP_DUP);
		uet_rx_send_ack(pdc, pk->psn, aflags, c->ev, q);
		/* Its copy spent credit as new data does: grant on. */
		uet_rccc_data_rx(pdc, pk->len, false);
		return false;
	}
	/*
	 * Whatever becomes of it, a first copy left the network: NSCC's
	 * sender counts it out of flight when an ACK reports it (a NACK for
	 * it is no congestion signal).  A duplicate is not counted: its
	 * packet came out of flight once already, reported or given up for
	 * lost, and counting it again would take a retransmission's bytes
	 * off twice, leaving in-flight below zero for good.
	 */
	rx->cc_rcvd += uet_cc_wire_bytes(pk->len);
	if (d >= UET_PSN_WINDOW) {
		uet_stat_inc(pdc->un, UET_STAT_DROP_WINDOW);
		uet_rx_pdc_nack(pdc, pk, c, UET_NACK_PSN_OOR_WINDOW, 0, q);
		return false;
	}
	if (d)
		uet_stat_reorder(pdc->un, d);
	return true;
}

/*
 * A packet without SYN, in the window, named this PDC by the id only our
 * ACKs told: the peer gets our packets at its address.  Only now does the
 * target's route cache grow from its one entry (uet_pdc_alloc()) to the
 * namespace's size, so that ACKs, which leave on the values of the
 * packets that drew them, stop costing a FIB lookup each under rr, active
 * or reps.  Once per PDC; short of memory, the one entry stays.
 */
static void uet_rx_routes_grow(struct uet_pdc *pdc)
{
	struct uet_route_cache *c = pdc->routes;
	u32 slots;

	pdc->rx.routes_grown = true;
	if (!c)
		return;
	rcu_read_lock();
	slots = uet_route_cache_slots(uet_cfg(pdc->un));
	rcu_read_unlock();
	if (slots <= (u32)c->mask + 1)
		return;
	c = uet_route_cache_resize(c, slots, GFP_ATOMIC | __GFP_NOWARN);
	if (c)
		pdc->routes = c;
}

/* The flags of the ACK that data packet @pk draws. */
static u8 uet_rx_aflags(const struct uet_rx_pkt *pk,
			const struct uet_rx_ctx *c)
{
	return (c->ce ? UET_ACK_M : 0) |
	       (pk->flags & UET_REQ_RETX ? UET_ACK_RETX : 0);
}

/*
 * A data packet arrives, before it is written: traced, its PSN checked
 * (uet_rx_psn_new()), its credit counted.  Return: true when it is new.
 */
static bool uet_rx_data_new(struct uet_pdc *pdc, const struct uet_rx_pkt *pk,
			    const struct uet_rx_ctx *c, u8 aflags,
			    struct sk_buff_head *q)
{
	trace_uet_pkt_rx(pdc->lid, pk->psn, c->ev, UET_PDS_RUD_REQ, pk->len);
	if (!uet_rx_psn_new(pdc, pk, c, aflags, q))
		return false;
	uet_rccc_data_rx(pdc, pk->len, pk->flags & UET_REQ_RETX);
	if (unlikely(!pdc->rx.routes_grown) && !(pk->flags & UET_REQ_SYN))
		uet_rx_routes_grow(pdc);
	return true;
}

/* A data packet written: its PSN marked, counted, answered. */
static void uet_rx_data_taken(struct uet_pdc *pdc, const struct uet_rx_pkt *pk,
			      const struct uet_rx_ctx *c, u8 aflags,
			      struct sk_buff_head *q)
{
	struct uet_pdc_rx *rx = &pdc->rx;

	uet_rx_mark(rx, pk->psn);
	uet_stat_inc(pdc->un, UET_STAT_RX_PKTS);
	uet_stat_add(pdc->un, UET_STAT_RX_BYTES, pk->len);
	if ((pk->flags & (UET_REQ_AR | UET_REQ_RETX)) || c->ce ||
	    ++rx->since_ack >= UET_ACK_EVERY)
		uet_rx_send_ack(pdc, pk->psn, aflags, c->ev, q);
	else if (pk->off + pk->len == pk->msg_len || rx->held.due)
		uet_rx_hold_ack(pdc, pk->psn, c->ev, q);
}

static void uet_rx_data_locked(struct uet_pdc *pdc, struct sk_buff *skb,
			       const struct uet_rx_pkt *pk,
			       const struct uet_rx_ctx *c,
			       struct sk_buff_head *q)
{
	u8 aflags = uet_rx_aflags(pk, c), rc = 0;
	int err;

	if (!uet_rx_data_new(pdc, pk, c, aflags, q))
		return;
	err = uet_rx_deliver(pdc, skb, pk, c, &rc);
	if (err) {
		uet_rx_not_taken(pdc, pk, c, err, rc, q);
		return;
	}
	uet_rx_data_taken(pdc, pk, c, aflags, q);
}

/* Parse and check the headers of a data packet of @seglen bytes at @hdr. */
static int uet_rx_parse_hdr(const void *hdr, u32 seglen,
			    struct uet_rx_pkt *pk)
{
	const struct uet_pds_req *req = hdr;
	const struct uet_ses_std *ses = (const struct uet_ses_std *)(req + 1);
	u64 hd;

	if (uet_prologue_next(req->prologue) != UET_NH_REQ_STD ||
	    FIELD_GET(UET_SES_OPCODE, ses->opcode) != UET_SES_SEND ||
	    FIELD_GET(UET_SES_VERSION, ses->ver_flags))
		return UET_STAT_DROP_UNKNOWN_TYPE;

	pk->flags = uet_prologue_flags(req->prologue);
	pk->psn = be32_to_cpu(req->psn);
	pk->spdcid = be16_to_cpu(req->spdcid);
	pk->dpdcid = be16_to_cpu(req->dpdcid);
	pk->msg_id = be16_to_cpu(ses->msg_id);
	pk->job = FIELD_GET(UET_SES_JOB, be32_to_cpu(ses->ri_gen_job));
	pk->dst_ep = FIELD_GET(UET_SES_PID, be16_to_cpu(ses->pid_on_fep));
	pk->src_ep = be32_to_cpu(ses->initiator);
	pk->msg_len = be32_to_cpu(ses->req_len);
	pk->len = seglen - UET_DATA_HDR_LEN;
	pk->at = UET_DATA_HDR_LEN;
	pk->stride = 0;
	pk->whole = false;
	pk->off = 0;
	if (!(ses->ver_flags & UET_SES_SOM)) {
		hd = be64_to_cpu(ses->hdr_data);
		pk->off = FIELD_GET(UET_SES_MSG_OFF, hd);
		if (FIELD_GET(UET_SES_PAYLOAD_LEN, hd) != pk->len)
			return UET_STAT_DROP_MALFORMED;
	}
	if (be32_to_cpu(ses->initiator) > UET_EP_MAX ||
	    pk->len > UET_SES_PAYLOAD_MAX ||
	    (u64)pk->off + pk->len > pk->msg_len ||
	    !(ses->ver_flags & UET_SES_EOM) != (pk->off + pk->len != pk->msg_len))
		return UET_STAT_DROP_MALFORMED;
	return 0;
}

/**
 * uet_rx_parse_data() - parse and check a data packet
 * @skb: the packet, from its PDS header on
 * @pk: filled in
 *
 * Return: 0, or the counter (enum uet_stat) of the reason to drop it.
 */
VISIBLE_IF_KUNIT int uet_rx_parse_data(struct sk_buff *skb,
				       struct uet_rx_pkt *pk)
{
	if (!pskb_may_pull(skb, UET_DATA_HDR_LEN))
		return UET_STAT_DROP_MALFORMED;
	return uet_rx_parse_hdr(skb->data, skb->len, pk);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rx_parse_data);

/* A switch trimmed this packet: tell the sender at once. */
static int uet_rx_trimmed(struct uet_net *un, struct sk_buff *skb,
			  const struct uet_rx_ctx *c)
{
	const struct uet_pds_req *req;
	struct uet_pdc *pdc;
	struct sk_buff_head q;
	u16 lid = 0;
	u8 flags;

	if (!pskb_may_pull(skb, sizeof(*req)))
		return UET_STAT_DROP_MALFORMED;
	req = (const struct uet_pds_req *)skb->data;
	flags = uet_prologue_flags(req->prologue);
	if (!(flags & UET_REQ_SYN)) {
		/* Only a PDC's own peer gets an answer. */
		pdc = uet_pdc_find(un, be16_to_cpu(req->dpdcid),
				   UET_PDC_TARGET, &c->saddr, &c->daddr);
		if (!pdc || pdc->key.rpdcid != be16_to_cpu(req->spdcid))
			return UET_STAT_DROP_UNKNOWN_PDC;
		lid = pdc->lid;
	}
	uet_stat_inc(un, UET_STAT_TRIMMED_RX);
	uet_stat_inc(un, UET_STAT_NACK_TX_TRIMMED);
	__skb_queue_head_init(&q);
	uet_rx_send_nack(un, &c->daddr, &c->saddr, c->ev, lid,
			 be16_to_cpu(req->spdcid), be32_to_cpu(req->psn),
			 UET_NACK_TRIMMED, 0,
			 (c->ce ? UET_NACK_M : 0) |
			 (flags & UET_REQ_RETX ? UET_NACK_RETX : 0), &q);
	uet_xmit_queue(un, &q);
	return 0;
}

/*
 * May target @pdc, locked, send a challenge ACK now?  One per PDC every
 * UET_CHALLENGE_PDC_MS, and challenge-ack-limit a second per namespace,
 * as TCP limits its challenge ACKs (tcp_send_challenge_ack()): a flood of
 * blind SYNs draws no more answers than that.  Each second's allowance
 * is drawn at random between half the limit and the limit, and the
 * per-PDC interval keeps many SYNs for one PDC from using it up, so that
 * a sender counting the answers to its own challenges learns nothing of
 * other peers' PDCs (the side channel of CVE-2016-5696).  Counted in
 * challenge_ack or challenge_ack_skipped.
 */
static bool uet_rx_challenge_ok(struct uet_pdc *pdc)
{
	struct uet_net *un = pdc->un;
	u32 sec = jiffies / HZ, old, limit, half;
	unsigned long last = pdc->rx.challenged;

	if (last && time_before(jiffies,
				last + msecs_to_jiffies(UET_CHALLENGE_PDC_MS)))
		goto skip;
	old = READ_ONCE(un->challenge_sec);
	if (old != sec && cmpxchg(&un->challenge_sec, old, sec) == old) {
		limit = uet_cfg(un)->challenge_ack_limit;
		half = (limit + 1) / 2;
		atomic_set(&un->challenge_left,
			   half + get_random_u32_below(limit - half + 1));
	}
	if (atomic_dec_if_positive(&un->challenge_left) < 0)
		goto skip;
	pdc->rx.challenged = jiffies ?: 1;
	uet_stat_inc(un, UET_STAT_CHALLENGE_ACK);
	return true;
skip:
	uet_stat_inc(un, UET_STAT_CHALLENGE_ACK_SKIPPED);
	return false;
}

/*
 * A SYN with the key of live @pdc but another start PSN: a new incarnation
 * of the initiator's PDC, or a blind reset attempt.  It replaces @pdc only
 * when its PSN falls in @pdc's window; otherwise the sender is challenged
 * with an ACK of the live state (RFC 5961 style), within the limits of
 * uet_rx_challenge_ok(), and @pdc stays.
 *
 * Return: true when @pdc is gone and the SYN may open a new PDC.
 */
static bool uet_rx_syn_reset(struct uet_pdc *pdc, const struct uet_rx_pkt *pk,
			     const struct uet_rx_ctx *c)
{
	struct sk_buff_head q;
	bool reset = true;

	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (!pdc->dead && pk->psn - pdc->rx.epsn >= UET_PSN_WINDOW) {
		if (uet_rx_challenge_ok(pdc))
			uet_rx_send_ack(pdc, pk->psn, 0, c->ev, &q);
		reset = false;
	} else {
		pdc->dead = true;
	}
	uet_pdc_unlock(pdc);
	uet_xmit_queue(pdc->un, &q);
	return reset;
}

/*
 * May a SYN open a PDC?  Only for a bound endpoint: otherwise it is
 * refused with the fatal NACK a refused message gets, from no PDC (id 0),
 * and nothing is kept.
 */
static bool uet_rx_syn_admit(struct uet_net *un, const struct uet_rx_pkt *pk,
			     const struct uet_rx_ctx *c)
{
	struct sk_buff_head q;
	struct sock *sk;

	sk = uet_ep_get(un, pk->job, pk->dst_ep, &c->daddr);
	if (sk) {
		sock_put(sk);
		return true;
	}
	__skb_queue_head_init(&q);
	uet_rx_send_nack(un, &c->daddr, &c->saddr, c->ev, 0, pk->spdcid,
			 pk->psn, UET_NACK_FATAL, UET_RC_BAD_PID,
			 (c->ce ? UET_NACK_M : 0) |
			 (pk->flags & UET_REQ_RETX ? UET_NACK_RETX : 0), &q);
	uet_xmit_queue(un, &q);
	return false;
}

/* The target PDC of a data packet, created by a SYN; NULL: *@why says. */
static struct uet_pdc *uet_rx_data_pdc(struct uet_net *un,
				       const struct uet_rx_pkt *pk,
				       const struct uet_rx_ctx *c, int *why)
{
	u32 start = pk->psn - FIELD_GET(UET_SYN_PSN_OFFSET, pk->dpdcid);
	struct uet_pdc_key key;
	struct uet_pdc *pdc;

	if (!(pk->flags & UET_REQ_SYN)) {
		pdc = uet_pdc_find(un, pk->dpdcid, UET_PDC_TARGET, &c->saddr,
				   &c->daddr);
		*why = UET_STAT_DROP_UNKNOWN_PDC;
		return pdc;
	}
	uet_pdc_key_init(&key, &c->daddr, &c->saddr, pk->job, pk->spdcid,
			 UET_PDC_TARGET);
	pdc = uet_pdc_target_find(un, &key);
	if (pdc && pdc->rx.start_psn == start)
		return pdc;
	*why = UET_STAT_DROP_SYN_CHALLENGE;
	if (pdc && !uet_rx_syn_reset(pdc, pk, c))
		return NULL;
	*why = UET_STAT_DROP_NO_ENDPOINT;
	if (!uet_rx_syn_admit(un, pk, c))
		return NULL;
	pdc = uet_pdc_target_get(un, &key, start);
	if (IS_ERR(pdc)) {
		switch (PTR_ERR(pdc)) {
		case -EDQUOT:
			*why = UET_STAT_DROP_SRC_LIMIT;
			break;
		case -ENOBUFS:
			*why = UET_STAT_DROP_PDC_LIMIT;
			break;
		default:
			*why = UET_STAT_DROP_NOMEM;
			break;
		}
		return NULL;
	}
	/* Another incarnation's SYN won a race: drop this one. */
	*why = UET_STAT_DROP_SYN_CHALLENGE;
	return pdc->rx.start_psn == start ? pdc : NULL;
}

/*
 * Take data packet @pk for @pdc, locked; what it draws goes on @q.
 * Return: 0, or the counter of the reason to drop it.
 */
static int uet_rx_data_take(struct uet_pdc *pdc, struct sk_buff *skb,
			    const struct uet_rx_pkt *pk,
			    const struct uet_rx_ctx *c, struct sk_buff_head *q)
{
	if (pdc->dead)
		return UET_STAT_DROP_UNKNOWN_PDC;
	if (pdc->key.rpdcid != pk->spdcid || pdc->key.job != pk->job)
		return UET_STAT_DROP_POLICY;
	uet_rx_data_locked(pdc, skb, pk, c, q);
	return 0;
}

static int uet_rx_data(struct uet_net *un, struct sk_buff *skb,
		       const struct uet_rx_ctx *c)
{
	struct uet_rx_pkt pk;
	struct sk_buff_head q;
	struct uet_pdc *pdc;
	int why;

	/* Softirq: in an RCU read section already. */
	if (c->dscp == uet_cfg(un)->dscp_trimmed)
		return uet_rx_trimmed(un, skb, c);
	why = uet_rx_parse_data(skb, &pk);
	if (why)
		return why;
	pdc = uet_rx_data_pdc(un, &pk, c, &why);
	if (!pdc)
		return why;

	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	why = uet_rx_data_take(pdc, skb, &pk, c, &q);
	uet_pdc_unlock(pdc);
	uet_xmit_queue(un, &q);
	return why;
}

static int uet_rx_ack(struct uet_net *un, struct sk_buff *skb,
		      const struct uet_rx_ctx *c, u8 type)
{
	unsigned int len = type == UET_PDS_ACK_CC ?
			   sizeof(struct uet_pds_ack_cc) :
			   sizeof(struct uet_pds_ack);
	struct uet_ack_info a;
	struct sk_buff_head q;
	struct uet_pdc *pdc;
	bool drain = false;
	int why = 0;

	if (!pskb_may_pull(skb, len) || uet_ack_read(skb->data, len, &a))
		return UET_STAT_DROP_MALFORMED;
	pdc = uet_pdc_find(un, a.dpdcid, UET_PDC_INITIATOR, &c->saddr,
			   &c->daddr);
	if (!pdc)
		return UET_STAT_DROP_UNKNOWN_PDC;
	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (pdc->dead) {
		why = UET_STAT_DROP_UNKNOWN_PDC;
	} else if (!pdc->tx.syn && a.spdcid != pdc->rid) {
		why = UET_STAT_DROP_POLICY;
	} else if (!uet_tx_ack_valid(pdc, &a)) {
		why = UET_STAT_DROP_ACK_UNSENT;
	} else if (a.flags & UET_ACK_P) {
		uet_stat_inc(un, UET_STAT_PROBE_ACK_RX);
		uet_tx_probe_ack(pdc, c->ev, &a);
	} else {
		uet_stat_inc(un, UET_STAT_ACK_RX);
		if (a.bitmap)
			uet_stat_inc(un, UET_STAT_SACK_RX);
		trace_uet_ack_rx(pdc->lid, a.cack, a.trigger, c->ev, a.cc,
				 a.flags & UET_ACK_M);
		uet_tx_ack(pdc, &a, &q);
		drain = uet_tx_out(pdc, &q);
	}
	uet_pdc_unlock(pdc);
	if (drain)
		uet_tx_drain(pdc);
	return why;
}

static int uet_rx_nack(struct uet_net *un, struct sk_buff *skb,
		       const struct uet_rx_ctx *c)
{
	const struct uet_pds_nack *n;
	struct uet_nack_info ni;
	struct sk_buff_head q;
	struct uet_pdc *pdc;
	bool drain = false;
	int why = 0;

	if (!pskb_may_pull(skb, sizeof(*n)))
		return UET_STAT_DROP_MALFORMED;
	n = (const struct uet_pds_nack *)skb->data;
	ni.psn = be32_to_cpu(n->psn);
	ni.payload = be32_to_cpu(n->payload);
	ni.spdcid = be16_to_cpu(n->spdcid);
	ni.ev = c->ev;
	ni.code = n->code;

	pdc = uet_pdc_find(un, be16_to_cpu(n->dpdcid), UET_PDC_INITIATOR,
			   &c->saddr, &c->daddr);
	if (!pdc)
		return UET_STAT_DROP_UNKNOWN_PDC;
	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (pdc->dead) {
		why = UET_STAT_DROP_UNKNOWN_PDC;
	} else if (!pdc->tx.syn && ni.spdcid && ni.spdcid != pdc->rid) {
		why = UET_STAT_DROP_POLICY;
	} else if (!uet_tx_nack_valid(pdc, &ni)) {
		why = UET_STAT_DROP_NACK_UNSENT;
	} else {
		uet_stat_inc(un, UET_STAT_NACK_RX);
		trace_uet_nack_rx(pdc->lid, ni.psn, ni.code, c->ev);
		uet_tx_nack(pdc, &ni, &q);
		drain = uet_tx_out(pdc, &q);
	}
	uet_pdc_unlock(pdc);
	if (drain)
		uet_tx_drain(pdc);
	return why;
}

/*
 * Answer a probe: an ACK_CC with P on the value probed, the probe's
 * opaque value, and the time since the probe reached uet (@rx_ns) as
 * NSCC's Service_Time (128 ns units, at most 8.4 ms), so that the sender
 * can take it out of its RTT sample.  The PSN state is reported, not
 * changed.
 */
static void uet_rx_probe_answer(struct uet_pdc *pdc,
				const struct uet_pds_ctrl *ctl,
				const struct uet_rx_ctx *c, u64 rx_ns,
				struct sk_buff_head *q)
{
	struct uet_ack_info a = {
		.flags		= UET_ACK_P,
		.opaque		= be16_to_cpu(ctl->opaque),
		.cc		= true,
	};

	uet_stat_inc(pdc->un, UET_STAT_PROBE_RX);
	a.cc_state = FIELD_PREP(UET_NSCC_SERVICE_TIME,
				min_t(u64, (ktime_get_ns() - rx_ns) /
					   UET_NSCC_SERVICE_NS,
				      FIELD_MAX(UET_NSCC_SERVICE_TIME)));
	uet_rx_ack_out(pdc, &a, c->ev, q);
}

/* Return: 0, or the counter of the reason the packet changed nothing. */
static int uet_rx_ctrl_locked(struct uet_pdc *pdc,
			      const struct uet_pds_ctrl *ctl,
			      const struct uet_rx_ctx *c, u64 rx_ns,
			      struct sk_buff_head *q)
{
	struct uet_rx_pkt pk = {
		.psn	= be32_to_cpu(ctl->psn),
		.flags	= uet_prologue_flags(ctl->prologue),
	};

	trace_uet_pkt_rx(pdc->lid, pk.psn, c->ev, UET_PDS_CTRL, 0);
	switch (uet_prologue_next(ctl->prologue)) {
	case UET_CTRL_NOP:
		/* The PSN of a refused message: taken, and acknowledged. */
		if (!uet_rx_psn_new(pdc, &pk, c, 0, q))
			break;
		uet_rx_mark(&pdc->rx, pk.psn);
		uet_rx_send_ack(pdc, pk.psn, pk.flags & UET_CTRL_RETX ?
				UET_ACK_RETX : 0, c->ev, q);
		break;
	case UET_CTRL_CLOSE:
		/*
		 * The initiator closed its end: ours goes too.  Its PSN is
		 * the initiator's next, which cannot be past our window: a
		 * forged CLOSE must guess it.
		 */
		if (pk.psn - pdc->rx.epsn > UET_PSN_WINDOW)
			return UET_STAT_DROP_WINDOW;
		pdc->dead = true;
		break;
	case UET_CTRL_PROBE:
		uet_rx_probe_answer(pdc, ctl, c, rx_ns, q);
		break;
	case UET_CTRL_CREDIT_REQ:
		/*
		 * Its PSN is the initiator's next, within a window of ours
		 * either way (data may overtake the request): a forged
		 * request must guess it, as a forged CLOSE must, to move the
		 * request that the pacer serves and the path of its grants.
		 */
		if (pk.psn - (pdc->rx.epsn - UET_PSN_WINDOW) >
		    2 * UET_PSN_WINDOW)
			return UET_STAT_DROP_WINDOW;
		uet_rccc_req_rx(pdc, be32_to_cpu(ctl->payload), c->ev, q);
		break;
	default:
		uet_rx_send_ack(pdc, pdc->rx.epsn - 1, 0, c->ev, q);
		break;
	}
	return 0;
}

/*
 * A CREDIT (RCCC), the one CTRL that goes to an initiator: from the
 * target the PDC knows, once it knows it.  Return: 0 or the counter of
 * the reason to drop.
 */
static int uet_rx_credit(struct uet_net *un, const struct uet_pds_ctrl *ctl,
			 const struct uet_rx_ctx *c)
{
	struct sk_buff_head q;
	struct uet_pdc *pdc;
	bool drain = false;
	int why = 0;

	pdc = uet_pdc_find(un, be16_to_cpu(ctl->dpdcid), UET_PDC_INITIATOR,
			   &c->saddr, &c->daddr);
	if (!pdc)
		return UET_STAT_DROP_UNKNOWN_PDC;
	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (pdc->dead) {
		why = UET_STAT_DROP_UNKNOWN_PDC;
	} else if (pdc->tx.syn || be16_to_cpu(ctl->spdcid) != pdc->rid) {
		why = UET_STAT_DROP_POLICY;
	} else {
		uet_tx_credit(pdc, be32_to_cpu(ctl->payload), &q);
		drain = uet_tx_out(pdc, &q);
	}
	uet_pdc_unlock(pdc);
	if (drain)
		uet_tx_drain(pdc);
	return why;
}

static int uet_rx_ctrl(struct uet_net *un, struct sk_buff *skb,
		       const struct uet_rx_ctx *c)
{
	u64 rx_ns = ktime_get_ns();
	const struct uet_pds_ctrl *ctl;
	struct sk_buff_head q;
	struct uet_pdc *pdc;
	int why = 0;
	u8 type;

	if (!pskb_may_pull(skb, sizeof(*ctl)))
		return UET_STAT_DROP_MALFORMED;
	ctl = (const struct uet_pds_ctrl *)skb->data;
	type = uet_prologue_next(ctl->prologue);
	if (type == UET_CTRL_CREDIT)
		return uet_rx_credit(un, ctl, c);
	if (type != UET_CTRL_NOP && type != UET_CTRL_CLOSE &&
	    type != UET_CTRL_PROBE && type != UET_CTRL_ACK_REQ &&
	    type != UET_CTRL_CREDIT_REQ)
		return UET_STAT_DROP_UNKNOWN_TYPE;

	pdc = uet_pdc_find(un, be16_to_cpu(ctl->dpdcid), UET_PDC_TARGET,
			   &c->saddr, &c->daddr);
	if (!pdc)
		return UET_STAT_DROP_UNKNOWN_PDC;
	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (pdc->dead)
		why = UET_STAT_DROP_UNKNOWN_PDC;
	else if (pdc->key.rpdcid != be16_to_cpu(ctl->spdcid))
		why = UET_STAT_DROP_POLICY;
	else
		why = uet_rx_ctrl_locked(pdc, ctl, c, rx_ns, &q);
	uet_pdc_unlock(pdc);
	uet_xmit_queue(un, &q);
	return why;
}

/*
 * Only unicast to this host reaches the transport: a broadcast or
 * multicast packet would have every host answer it.  Over IPv6, an
 * IPv4-mapped source would pose as an IPv4 peer (PDC keys hold IPv4
 * addresses mapped).  Return: 0 or the counter of the reason to drop.
 */
static int uet_rx_check_addr(const struct sk_buff *skb,
			     const struct uet_rx_ctx *c)
{
	if (skb->pkt_type != PACKET_HOST)
		return UET_STAT_DROP_NOT_HOST;
	if (ip_hdr(skb)->version == 6 && ipv6_addr_v4mapped(&c->saddr))
		return UET_STAT_DROP_V4MAPPED;
	return 0;
}

/* Consume @skb, or drop it and count why (@why, an enum uet_stat). */
static void uet_rx_done(struct uet_net *un, struct sk_buff *skb, int why)
{
	if (!why) {
		consume_skb(skb);
		return;
	}
	uet_stat_inc(un, why);
	kfree_skb(skb);
}

/* One UET packet, at its PDS header: take it, or count why not. */
static void uet_rx_one(struct uet_net *un, struct sk_buff *skb,
		       const struct uet_rx_ctx *c)
{
	int why = UET_STAT_DROP_MALFORMED;
	u8 type;

	if (!pskb_may_pull(skb, sizeof(__be16)))
		goto drop;
	type = uet_prologue_type(*(__be16 *)skb->data);
	switch (type) {
	case UET_PDS_RUD_REQ:
		why = uet_rx_data(un, skb, c);
		break;
	case UET_PDS_ACK:
	case UET_PDS_ACK_CC:
		why = uet_rx_ack(un, skb, c, type);
		break;
	case UET_PDS_NACK:
		why = uet_rx_nack(un, skb, c);
		break;
	case UET_PDS_CTRL:
		why = uet_rx_ctrl(un, skb, c);
		break;
	default:
		why = UET_STAT_DROP_UNKNOWN_TYPE;
		break;
	}
drop:
	uet_rx_done(un, skb, why);
}

/*
 * Is @skb a data packet for a PDC the target has (no SYN, not trimmed)?
 * @pk is then parsed.
 */
static bool uet_rx_run_data(struct uet_net *un, struct sk_buff *skb,
			    const struct uet_rx_ctx *c, struct uet_rx_pkt *pk)
{
	return pskb_may_pull(skb, sizeof(__be16)) &&
	       uet_prologue_type(*(__be16 *)skb->data) == UET_PDS_RUD_REQ &&
	       c->dscp != uet_cfg(un)->dscp_trimmed &&
	       !uet_rx_parse_data(skb, pk) && !(pk->flags & UET_REQ_SYN);
}

/*
 * Take data packet @skb (@pk) for @pdc and the packets after it in *@list
 * that are data packets for @pdc too, under one hold of its lock; the
 * ACKs they draw leave after them.  *@list is left at the first other.
 */
static void uet_rx_run_pdc(struct uet_net *un, struct uet_pdc *pdc,
			   struct sk_buff *skb, struct uet_rx_pkt *pk,
			   struct sk_buff **list, const struct uet_rx_ctx *c)
{
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	for (;;) {
		uet_rx_done(un, skb, uet_rx_data_take(pdc, skb, pk, c, &q));
		skb = *list;
		if (!skb || !uet_rx_run_data(un, skb, c, pk) ||
		    pk->dpdcid != pdc->lid)
			break;
		*list = skb->next;
		skb_mark_not_on_list(skb);
	}
	uet_pdc_unlock(pdc);
	uet_xmit_queue(un, &q);
}

/*
 * The packets of a batch, linked by ->next, each at its UET headers.  A
 * run of data packets to one PDC takes one lookup and one hold of its
 * lock (uet_rx_run_pdc()); any other packet is taken as if it came alone.
 */
static void uet_rx_run(struct uet_net *un, struct sk_buff *list,
		       const struct uet_rx_ctx *c)
{
	struct uet_rx_pkt pk;
	struct uet_pdc *pdc;
	struct sk_buff *skb;

	while ((skb = list)) {
		list = skb->next;
		skb_mark_not_on_list(skb);
		if (!uet_rx_run_data(un, skb, c, &pk)) {
			uet_rx_one(un, skb, c);
			continue;
		}
		pdc = uet_pdc_find(un, pk.dpdcid, UET_PDC_TARGET, &c->saddr,
				   &c->daddr);
		if (!pdc) {
			uet_rx_done(un, skb, UET_STAT_DROP_UNKNOWN_PDC);
			continue;
		}
		uet_rx_run_pdc(un, pdc, skb, &pk, &list, c);
	}
}

/**
 * uet_rx_unbatch() - take a batch apart as uet_tx_batch() built it
 * @skb: a GSO packet, at its UDP header
 *
 * A batch is UET packets of gso_size bytes but for a shorter last one:
 * whole packets in @skb's own bytes and in each skb on its frag_list, one
 * each or several (a superpacket, uet_tx_sp_append()).  Those skbs are
 * detached as they are, each at its first PDS header: no copy, no
 * allocation.  A packet otherwise laid out, or shared with another
 * holder (a packet tap's clone), is left alone.
 *
 * Return: the detached parts, linked by ->next, @skb then at its UDP
 * header; or NULL, @skb unchanged.
 */
VISIBLE_IF_KUNIT struct sk_buff *uet_rx_unbatch(struct sk_buff *skb)
{
	struct skb_shared_info *sh = skb_shinfo(skb);
	struct sk_buff *list = sh->frag_list, *p;
	u32 g = sh->gso_size, len = 0, truesize = 0, hlen;

	/* Only what uet_tx_batch() builds: no other GSO bit, no inner header. */
	if (!list || !g || skb_cloned(skb) || skb->encapsulation ||
	    !(sh->gso_type & SKB_GSO_UDP_L4) ||
	    (sh->gso_type & ~(SKB_GSO_UDP_L4 | SKB_GSO_UDP_TUNNEL)))
		return NULL;
	/*
	 * Each part is whole packets of g bytes but for a shorter last one;
	 * a part of several packets is a superpacket (uet_rx_super()).
	 */
	skb_walk_frags(skb, p) {
		if (skb_shared(p) || !p->len || (p->next && p->len % g))
			return NULL;
		len += p->len;
		truesize += p->truesize;
	}
	if (len > skb->data_len || skb->len - len <= sizeof(struct udphdr))
		return NULL;
	hlen = skb->len - len - sizeof(struct udphdr);
	if (hlen % g)
		return NULL;
	sh->frag_list = NULL;
	skb->len -= len;
	skb->data_len -= len;
	skb->truesize -= min(truesize, skb->truesize - SKB_TRUESIZE(0));
	skb_gso_reset(skb);
	return list;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rx_unbatch);

/* A superpacket's packets kept whole: at most one batch's (tx.c). */
#define UET_RX_SUPER_SEGS	64

/*
 * Packet @i of superpacket @skb, packets of @g bytes, parsed into @pk.
 * Return: 0, or the counter of the reason to drop the superpacket: only
 * data packets without SYN come in one (uet_tx_sp_append()).
 */
static int uet_rx_super_pkt(const struct sk_buff *skb, u32 g, u32 i,
			    struct uet_rx_pkt *pk)
{
	u32 at = i * g, len = min(g, skb->len - at);
	u8 buf[UET_DATA_HDR_LEN];
	const void *hdr;
	int why;

	hdr = skb_header_pointer(skb, at, UET_DATA_HDR_LEN, buf);
	if (!hdr || len < UET_DATA_HDR_LEN ||
	    uet_prologue_type(*(const __be16 *)hdr) != UET_PDS_RUD_REQ)
		return UET_STAT_DROP_MALFORMED;
	why = uet_rx_parse_hdr(hdr, len, pk);
	if (why)
		return why;
	if (pk->flags & UET_REQ_SYN)
		return UET_STAT_DROP_MALFORMED;
	pk->at = at + UET_DATA_HDR_LEN;
	pk->stride = g;
	return 0;
}

/* Does @pk, packet @i of a superpacket, continue @first's range? */
static bool uet_rx_super_next(const struct uet_rx_pkt *first,
			      const struct uet_rx_pkt *pk, u32 i)
{
	return pk->psn == first->psn + i &&
	       pk->off == first->off + i * first->len &&
	       pk->msg_id == first->msg_id && pk->msg_len == first->msg_len &&
	       pk->dst_ep == first->dst_ep && pk->src_ep == first->src_ep;
}

/*
 * Keep superpacket @skb whole, @pk its packets' range, for @pdc, locked:
 * when its @n packets are new PSNs inside the window and the message
 * keeps them (uet_rx_deliver()), each is then answered as if it came
 * alone, @fl its flags.  Return: false, nothing taken.
 */
static bool uet_rx_super_keep(struct uet_pdc *pdc, struct sk_buff *skb,
			      const struct uet_rx_pkt *pk, u32 n, const u8 *fl,
			      const struct uet_rx_ctx *c, struct sk_buff_head *q)
{
	u32 seg = pk->stride - UET_DATA_HDR_LEN, first = pk->psn - (n - 1);
	struct uet_pdc_rx *rx = &pdc->rx;
	struct uet_rx_pkt one = *pk;
	u32 i;
	u8 rc, af;

	if (pdc->dead || pdc->key.rpdcid != pk->spdcid ||
	    pdc->key.job != pk->job || first - rx->epsn > UET_PSN_WINDOW - n)
		return false;
	for (i = 0; i < n; i++)
		if (uet_rx_test(rx, first + i))
			return false;
	if (uet_rx_deliver(pdc, skb, pk, c, &rc))
		return false;
	uet_stat_inc(pdc->un, UET_STAT_RX_SUPER);
	uet_stat_add(pdc->un, UET_STAT_RX_SUPER_SEGS, n);
	one.whole = false;
	for (i = 0; i < n; i++) {
		one.psn = first + i;
		one.off = pk->off + i * seg;
		one.len = i < n - 1 ? seg : pk->len - i * seg;
		one.at = i * pk->stride + UET_DATA_HDR_LEN;
		one.flags = fl[i];
		af = uet_rx_aflags(&one, c);
		/* New and in the window: checked above. */
		if (uet_rx_data_new(pdc, &one, c, af, q))
			uet_rx_data_taken(pdc, &one, c, af, q);
	}
	return true;
}

/*
 * The packets of superpacket @skb, @n of @g bytes, each taken for @pdc,
 * locked, as if it came alone; copied, since their skb holds the others.
 */
static void uet_rx_super_apart(struct uet_pdc *pdc, struct sk_buff *skb,
			       u32 g, u32 n, const struct uet_rx_ctx *c,
			       struct sk_buff_head *q)
{
	struct uet_rx_pkt pk;
	u32 i;
	int why;

	uet_stat_inc(pdc->un, UET_STAT_RX_SUPER_APART);
	for (i = 0; i < n; i++) {
		/* Parsed once already: cannot fail. */
		why = uet_rx_super_pkt(skb, g, i, &pk) ?:
		      uet_rx_data_take(pdc, skb, &pk, c, q);
		if (why)
			uet_stat_inc(pdc->un, why);
	}
}

/*
 * A superpacket: @skb, at its first packet's PDS header, packets of @g
 * bytes (header included) but for a shorter last one, which one initiator
 * PDC built of consecutive packets of one message (uet_tx_sp_append()).
 * Kept whole as one unit of the message when it may be
 * (uet_rx_super_keep()); otherwise its packets are taken one by one.  One
 * that is not data packets of one PDC is dropped, each packet counted.
 */
static void uet_rx_super(struct uet_net *un, struct sk_buff *skb, u32 g,
			 const struct uet_rx_ctx *c)
{
	u32 n = DIV_ROUND_UP(skb->len, g), i;
	bool whole = n <= UET_RX_SUPER_SEGS &&
		     !((g - UET_DATA_HDR_LEN) % UET_RX_GRAIN);
	u8 fl[UET_RX_SUPER_SEGS];
	struct uet_rx_pkt first, pk;
	struct sk_buff_head q;
	struct uet_pdc *pdc;
	int why = 0;

	if (c->dscp == uet_cfg(un)->dscp_trimmed)
		why = UET_STAT_DROP_MALFORMED;
	for (i = 0; i < n && !why; i++) {
		why = uet_rx_super_pkt(skb, g, i, &pk);
		if (!i)
			first = pk;
		else if (!why && (pk.spdcid != first.spdcid ||
				  pk.dpdcid != first.dpdcid ||
				  pk.job != first.job))
			why = UET_STAT_DROP_MALFORMED;
		else if (!why && !uet_rx_super_next(&first, &pk, i))
			whole = false;
		if (whole)
			fl[i] = pk.flags;
	}
	if (!why) {
		pdc = uet_pdc_find(un, first.dpdcid, UET_PDC_TARGET,
				   &c->saddr, &c->daddr);
		why = pdc ? 0 : UET_STAT_DROP_UNKNOWN_PDC;
	}
	if (why) {
		uet_stat_add(un, why, n);
		kfree_skb(skb);
		return;
	}
	/* The range of all its packets, the last one's PSN and flags. */
	first.psn = pk.psn;
	first.flags = pk.flags;
	first.len = pk.off + pk.len - first.off;
	first.whole = true;
	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (!whole || !uet_rx_super_keep(pdc, skb, &first, n, fl, c, &q))
		uet_rx_super_apart(pdc, skb, g, n, c, &q);
	uet_pdc_unlock(pdc);
	uet_xmit_queue(un, &q);
	consume_skb(skb);
}

/*
 * The parts of a batch, each at its PDS header: runs of single packets go
 * to uet_rx_run(), superpackets (longer than @g) to uet_rx_super(), in
 * order.
 */
static void uet_rx_parts(struct uet_net *un, struct sk_buff *list, u32 g,
			 const struct uet_rx_ctx *c)
{
	struct sk_buff *skb, *run = NULL, **tail = &run;

	while ((skb = list)) {
		list = skb->next;
		skb->next = NULL;
		if (skb->len <= g) {
			*tail = skb;
			tail = &skb->next;
			continue;
		}
		if (run) {
			uet_rx_run(un, run, c);
			run = NULL;
			tail = &run;
		}
		uet_rx_super(un, skb, g, c);
	}
	if (run)
		uet_rx_run(un, run, c);
}

/*
 * A GSO packet that UDP handed over whole (a batch, uet_tx_batch()):
 * each of its packets is taken as if it came alone, with @skb's
 * addresses, entropy value and ECN mark.  One laid out otherwise is cut
 * as UDP would have cut it.
 */
static void uet_rx_batch(struct sock *sk, struct sk_buff *skb,
			 const struct uet_rx_ctx *c)
{
	struct uet_net *un = uet_net(sock_net(sk));
	u32 g = skb_shinfo(skb)->gso_size;
	struct sk_buff *segs, *next;

	segs = uet_rx_unbatch(skb);
	if (segs) {
		uet_stat_inc(un, UET_STAT_RX_BATCH);
		__skb_pull(skb, sizeof(struct udphdr));
		skb->next = segs;
		uet_rx_parts(un, skb, g, c);
		return;
	}
	uet_stat_inc(un, UET_STAT_RX_BATCH_CUT);
	__skb_push(skb, -skb_mac_offset(skb));
	segs = udp_rcv_segment(sk, skb, ip_hdr(skb)->version == 4);
	skb_list_walk_safe(segs, skb, next) {
		__skb_pull(skb, skb_transport_offset(skb));
		udp_post_segment_fix_csum(skb);
		__skb_pull(skb, sizeof(struct udphdr));
	}
	uet_rx_run(un, segs, c);
}

/**
 * uet_encap_rcv() - take a UET packet from the namespace's UDP socket
 * @sk: the UDP socket (encap_rcv of a UDP tunnel socket)
 * @skb: the packet, at its UDP header; or a batch of them (uet_rx_batch())
 *
 * Every UET packet comes here; the KUnit suites inject theirs here too.
 *
 * Context: softirq, rcu_read_lock() held.
 * Return: 0: the packet is consumed.
 */
VISIBLE_IF_KUNIT int uet_encap_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct uet_net *un = uet_net(sock_net(sk));
	struct uet_rx_ctx c;
	int why;

	uet_rx_ctx_init(skb, &c);
	why = uet_rx_check_addr(skb, &c);
	if (why)
		goto drop;
	if (!udp_hdr(skb)->check && !uet_cfg(un)->udp_rx_zero_csum) {
		why = UET_STAT_DROP_CSUM;
		goto drop;
	}
	if (skb_is_gso(skb)) {
		uet_rx_batch(sk, skb, &c);
		return 0;
	}
	__skb_pull(skb, sizeof(struct udphdr));
	uet_rx_one(un, skb, &c);
	return 0;
drop:
	uet_rx_done(un, skb, why);
	return 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_encap_rcv);

/**
 * uet_rx_pdc_gc() - discard the partial messages of closed sockets and
 *	those without progress for the namespace's msg-timeout
 * @pdc: a target PDC, locked
 *
 * Context: under RCU (the configuration is read).
 */
void uet_rx_pdc_gc(struct uet_pdc *pdc)
{
	unsigned long timeout, now = jiffies;
	struct hlist_node *tmp;
	struct uet_rx_msg *m;
	int bkt;

	timeout = msecs_to_jiffies(uet_cfg(pdc->un)->msg_timeout_ms);
	hash_for_each_safe(pdc->rx.msgs, bkt, tmp, m, hnode) {
		if (!m->sk) {
			/*
			 * Every PSN of its message taken (data or NOP): any
			 * packet of it is a duplicate, refused before it is
			 * looked up.  The tombstone has served.
			 */
			if ((s32)(pdc->rx.epsn - m->psn_last) > 0)
				uet_rx_msg_drop(pdc, m);
			continue;
		}
		if (sock_flag(m->sk, SOCK_DEAD)) {
			uet_rx_msg_discard(pdc, m, UET_RC_BAD_PID);
		} else if (time_after(now, m->last + timeout)) {
			uet_stat_inc(pdc->un, UET_STAT_RX_MSG_TIMEOUT);
			uet_rx_msg_discard(pdc, m, UET_RC_BAD_PID);
		}
	}
}

/**
 * uet_rx_pdc_init() - set up the receiving side of a new target PDC
 * @pdc: the PDC, not yet published
 */
void uet_rx_pdc_init(struct uet_pdc *pdc)
{
	hash_init(pdc->rx.msgs);
	INIT_LIST_HEAD(&pdc->rx.rccc_node);
	INIT_LIST_HEAD(&pdc->rx.rccc_out_node);
	hrtimer_init(&pdc->rx.held.timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_ABS_SOFT);
	pdc->rx.held.timer.function = uet_rx_held_timer;
}

/**
 * uet_rx_pdc_release() - free what an unlinked, dead target PDC holds
 * @pdc: the PDC
 *
 * Context: process (the namespace's work item).
 */
void uet_rx_pdc_release(struct uet_pdc *pdc)
{
	struct hlist_node *tmp;
	struct uet_rx_msg *m;
	int bkt;

	hrtimer_cancel(&pdc->rx.held.timer);
	uet_rccc_target_release(pdc);
	spin_lock_bh(&pdc->lock);
	hash_for_each_safe(pdc->rx.msgs, bkt, tmp, m, hnode) {
		hash_del(&m->hnode);
		uet_rx_msg_free(m);
	}
	spin_unlock_bh(&pdc->lock);
}

/*
 * ICMP and ICMPv6 errors about the packets uet sends.  The kernel's UDP
 * error handler (__udp4_lib_err(), __udp6_lib_err(), alike in 6.1 and
 * 6.12) first looks for the socket bound to the quoted packet's source
 * port, for uet an entropy value: a socket found there that is no UDP
 * tunnel gets the error, and uet never sees it (Documentation/datapath.rst,
 * "ICMP errors").  Only when none is bound there does it look the other
 * way round, which finds the namespace's socket bound to the UET port, and
 * ask uet_encap_err_lookup() whether the error is uet's; then it updates
 * the route's path MTU and calls uet_encap_err_rcv().
 */

/*
 * encap_err_lookup of the namespace's UDP sockets, @skb's transport
 * header at the UDP header the error quotes: every error about a packet
 * sent to the UET port is uet's, so that it goes to no one else; whether
 * it names a packet uet has in flight is for uet_icmp_rcv() to check.
 * Return: 0 to claim it.
 */
static int uet_encap_err_lookup(struct sock *sk, struct sk_buff *skb)
{
	return udp_hdr(skb)->dest == inet_sk(sk)->inet_sport ? 0 : -ENOENT;
}

/*
 * What a claimed error quotes: @skb->data is the quoted IP header (its
 * fixed part in the linear data), its UDP header at @udp_off; the ICMP
 * header is at the transport header.  Only
 * "fragmentation needed" and "packet too big" change anything: the PDC
 * whose data packet they quote learns the path MTU (uet_tx_pmtu()).  An
 * MTU below the family's minimum counts as the minimum (net.ipv4.route.
 * min_pmtu, IPV6_MIN_MTU), as the kernel's route does.
 */
static void uet_icmp_rcv(struct sock *sk, struct sk_buff *skb,
			 unsigned int udp_off)
{
	struct net *net = sock_net(sk);
	struct uet_net *un = uet_net(net);
	const struct uet_pds_req *req;
	struct in6_addr laddr, raddr;
	struct uet_pds_req quote;
	struct sk_buff_head q;
	struct uet_pdc *pdc;
	bool ok = false, drain = false;
	u32 mtu = 0;

	uet_stat_inc(un, UET_STAT_ICMP_RX);
	/* The socket's family, not the quote's version, which is forged. */
	if (sk->sk_family == AF_INET) {
		const struct iphdr *iph = (const struct iphdr *)skb->data;
		const struct icmphdr *ih = icmp_hdr(skb);

		if (ih->type == ICMP_DEST_UNREACH &&
		    ih->code == ICMP_FRAG_NEEDED)
			mtu = max_t(u32, ntohs(ih->un.frag.mtu),
				    READ_ONCE(net->ipv4.ip_rt_min_pmtu));
		ipv6_addr_set_v4mapped(iph->saddr, &laddr);
		ipv6_addr_set_v4mapped(iph->daddr, &raddr);
	} else {
		const struct ipv6hdr *ip6h = (const struct ipv6hdr *)skb->data;

		if (icmp6_hdr(skb)->icmp6_type == ICMPV6_PKT_TOOBIG)
			mtu = max_t(u32, ntohl(icmp6_hdr(skb)->icmp6_mtu),
				    IPV6_MIN_MTU);
		laddr = ip6h->saddr;
		raddr = ip6h->daddr;
	}
	if (!mtu)
		return;

	/* A quote of the UDP header alone (RFC 792's minimum) names nothing. */
	req = skb_header_pointer(skb, udp_off + sizeof(struct udphdr),
				 sizeof(quote), &quote);
	if (!req || uet_prologue_type(req->prologue) != UET_PDS_RUD_REQ)
		goto out;
	pdc = uet_pdc_find(un, be16_to_cpu(req->spdcid), UET_PDC_INITIATOR,
			   &raddr, &laddr);
	if (!pdc)
		goto out;
	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (!pdc->dead) {
		ok = uet_tx_pmtu(pdc, be32_to_cpu(req->psn), mtu, &q);
		drain = uet_tx_out(pdc, &q);
	}
	uet_pdc_unlock(pdc);
	if (drain)
		uet_tx_drain(pdc);
out:
	if (!ok)
		uet_stat_inc(un, UET_STAT_ICMP_UNMATCHED);
}

UET_DEFINE_ENCAP_ERR_RCV(uet_encap_err_rcv, uet_icmp_rcv)

static int uet_udp_sock(struct uet_net *un, u8 family, u16 port,
			struct socket **sockp)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.encap_type	= UET_ENCAP_TYPE,
		.encap_rcv	= uet_encap_rcv,
		.encap_err_lookup = uet_encap_err_lookup,
		.encap_err_rcv	= uet_encap_err_rcv,
	};
	struct udp_port_cfg cfg = {
		.family		= family,
		.local_udp_port	= htons(port),
		.ipv6_v6only	= 1,
		.use_udp_checksums = 1,
		.use_udp6_tx_checksums = 1,
		/*
		 * No: IPv6 packets with a zero checksum (RFC 6935) reach
		 * uet_encap_rcv(), which takes or drops them as udp-csum
		 * rx-zero says, so a change applies to this socket at once.
		 * A non-zero checksum is still verified.
		 */
		.use_udp6_rx_checksums = 0,
	};
	int err;

	err = udp_sock_create(un->net, &cfg, sockp);
	if (err)
		return err;
	setup_udp_tunnel_sock(un->net, *sockp, &tcfg);
	/* Batches (uet_tx_batch()) come whole: uet_rx_batch() cuts them. */
	udp_set_bit(ACCEPT_L4, (*sockp)->sk);
	return 0;
}

static void uet_udp_release(struct socket *s4, struct socket *s6)
{
	if (s4)
		udp_tunnel_sock_release(s4);
	if (s6)
		udp_tunnel_sock_release(s6);
}

/* Open the IPv4 socket, and the IPv6 one unless IPv6 is off. */
static int uet_udp_pair(struct uet_net *un, u16 port, struct socket **s4,
			struct socket **s6)
{
	int err;

	*s6 = NULL;
	err = uet_udp_sock(un, AF_INET, port, s4);
	if (err)
		return err;
	if (!IS_ENABLED(CONFIG_IPV6))
		return 0;
	err = uet_udp_sock(un, AF_INET6, port, s6);
	if (err == -EAFNOSUPPORT || err == -EPFNOSUPPORT)
		err = 0;
	if (err) {
		uet_udp_release(*s4, NULL);
		*s4 = NULL;
	}
	return err;
}

/**
 * uet_udp_open() - open a namespace's UET UDP sockets
 * @un: the namespace, being set up
 * @port: UDP port to bind
 *
 * Return: 0, or the error of creating or binding a socket.
 */
int uet_udp_open(struct uet_net *un, u16 port)
{
	struct socket *s4, *s6;
	int err;

	err = uet_udp_pair(un, port, &s4, &s6);
	if (err)
		return err;
	rcu_assign_pointer(un->sock4, s4);
	rcu_assign_pointer(un->sock6, s6);
	WRITE_ONCE(un->udp_port, port);
	return 0;
}

/**
 * uet_udp_close() - close a namespace's UET UDP sockets
 * @un: the namespace, going away
 *
 * Returns after every packet already handed to uet_encap_rcv() is done.
 */
void uet_udp_close(struct uet_net *un)
{
	/* No configuration change can run: the namespace is exiting. */
	struct socket *s4 = rcu_dereference_protected(un->sock4, true);
	struct socket *s6 = rcu_dereference_protected(un->sock6, true);

	RCU_INIT_POINTER(un->sock4, NULL);
	RCU_INIT_POINTER(un->sock6, NULL);
	uet_udp_release(s4, s6);
	synchronize_rcu();
}

/**
 * uet_udp_rebind() - move a namespace's UET UDP sockets to another port
 * @un: the namespace
 * @port: the new port
 *
 * The new sockets are opened before the old ones are closed, so a port
 * that cannot be bound leaves everything as it was.
 *
 * Context: process, un->cfg_lock held.
 * Return: 0 or the error of opening the new sockets.
 */
int uet_udp_rebind(struct uet_net *un, u16 port)
{
	struct socket *s4, *s6, *o4, *o6;
	int err;

	lockdep_assert_held(&un->cfg_lock);
	if (port == un->udp_port)
		return 0;
	err = uet_udp_pair(un, port, &s4, &s6);
	if (err)
		return err;
	o4 = rcu_replace_pointer(un->sock4, s4,
				 lockdep_is_held(&un->cfg_lock));
	o6 = rcu_replace_pointer(un->sock6, s6,
				 lockdep_is_held(&un->cfg_lock));
	WRITE_ONCE(un->udp_port, port);
	uet_udp_release(o4, o6);
	return 0;
}
