// SPDX-License-Identifier: GPL-2.0
/*
 * uet: sending.  Messages queued on an initiator PDC are cut into packets
 * as the PSN window allows; every packet, first transmission or
 * retransmission, takes the entropy value the spraying engine gives and
 * is routed on that value, since the route's ECMP choice may depend on
 * it (the UDP source port).  Packets leave through the namespace's
 * kernel UDP socket with the UDP tunnel API, checksummed unless udp-csum
 * tx is off, DF set, never larger than the route's MTU nor than the path
 * MTU ICMP errors reported to the PDC (uet_tx_pmtu()).  A packet cut
 * before such an error and resent after it goes without DF (IPv4) or in
 * fragments (IPv6): its PSN covers those bytes of its message for good.
 *
 * Reliability: cumulative ACKs and SACK bitmaps free the slots of the
 * window; a slot is resent on a retransmission timeout (smoothed RTT and
 * variance, bounded by rto-min/rto-max, doubled on each timeout), when it
 * is out for a timeout and a packet sent after it was acknowledged (its
 * first transmission, or one in PSN order), when a SACK gap is
 * sack-retx-thresh PSNs deep, or on a trim NACK.  A packet
 * resent max-retx times gives up the PDC: its messages are reported to
 * their sockets.  Every ACK, NACK, SACK loss, timeout and early-detection
 * deadline is told to the spraying engine.
 *
 * Everything here runs under the PDC's lock; packets are built under it
 * and sent after it is released (uet_xmit_queue()).
 *
 * Per packet, no copy and no FIB lookup in the steady state: a data
 * packet's payload is the message's pages, referenced (uet_tx_build()),
 * and its route comes from the PDC's cache of the route each entropy
 * value took (include/uet/route.h), checked with dst_check().
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <linux/workqueue.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp_tunnel.h>
#include <trace/events/uet.h>
#include <uet/kunit.h>
#include <uet/msg.h>
#include <uet/net.h>
#include <uet/netlink.h>
#include <uet/pdc.h>
#include <uet/route.h>
#include <uet/sock.h>
#include <uet/spray.h>
#include <uet/stats.h>
#include <uet/wire.h>

/* Room in front of a packet for the UDP, IP and link headers. */
#define UET_HEADROOM	(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
			 sizeof(struct udphdr))

/*
 * Room in front of a data packet for the UDP, IP and link headers of
 * @dst's way (UET_HEADROOM when not known), as udp_tunnel_xmit_skb()
 * computes it: the head then fits a smaller allocation, which
 * init_on_alloc clears whole, than LL_MAX_HEADER's room would take.  A
 * way that needs more on the day gets it from skb_cow_head().
 */
static u32 uet_tx_headroom(const struct dst_entry *dst)
{
	if (!dst)
		return UET_HEADROOM;
	return LL_RESERVED_SPACE(dst->dev) + dst->header_len +
	       sizeof(struct ipv6hdr) + sizeof(struct udphdr);
}

/* Packets one batch carries at most: UDP_MAX_SEGMENTS, as UDP GSO does. */
#define UET_TX_BATCH_SEGS	64
/* Packets a task sends from a PDC's queue before its work item goes on. */
#define UET_TX_DRAIN_BUDGET	UET_PSN_WINDOW
/* Samples over which a spurious timeout's RTT (late_rtt_us) decays. */
#define UET_LATE_RTT_DECAY	1024

/* Initial timeout before any RTT sample, in units of rto-min. */
#define UET_RTO_INIT_MULT	10
/*
 * A packet is given up after max-retx retransmissions only once the
 * target has also been silent this long: resolving its address takes
 * up to three ARP or NDISC tries a second apart, during which every copy
 * waits in the neighbour's queue (TCP likewise counts its retries in
 * time, retransmits_timed_out()).
 */
#define UET_GIVE_UP_SILENCE_NS	(3 * NSEC_PER_SEC)
/* SACK bits one ACK can name. */
#define UET_SACK_BITS		64
/* Lookups of a PDC that closed under us before sendmsg() gives up. */
#define UET_TX_TRIES		4

static_assert(sizeof(struct uet_skb_cb) <= sizeof_field(struct sk_buff, cb));
/* A data packet's payload fits in the fragments of its skb. */
static_assert(DIV_ROUND_UP(UET_SES_PAYLOAD_MAX, PAGE_SIZE) + 1 <= MAX_SKB_FRAGS);
/* While SYN is set, a packet's PSN offset must fit in 12 bits. */
static_assert(UET_PSN_WINDOW - 1 <= UET_SYN_PSN_OFFSET);

static struct uet_tx_slot *uet_slot(struct uet_pdc *pdc, u32 psn)
{
	return &pdc->tx.ring[psn % UET_PSN_WINDOW];
}

/* The PDC's NSCC state, or NULL with cc none.  Under the PDC's lock. */
static struct uet_nscc *uet_tx_cc(struct uet_pdc *pdc)
{
	return uet_pdc_nscc(pdc) ? &pdc->tx.nscc : NULL;
}

/* Bytes the packet of @s counts for in the window. */
static u32 uet_tx_cc_bytes(const struct uet_tx_slot *s)
{
	return uet_cc_wire_bytes(s->len);
}

/* One counter per NSCC action, in the order of enum uet_nscc_action. */
static_assert(UET_STAT_NSCC_TIMEOUT_DEC - UET_STAT_NSCC_PROP_INC ==
	      UET_NSCC_ACT_TIMEOUT_DEC - UET_NSCC_ACT_PROP_INC);
static_assert(UET_NSCC_ACT_TIMEOUT_DEC + 1 == __UET_NSCC_ACT_MAX);

/* Count and trace what an NSCC update did. */
static void uet_tx_cc_note(struct uet_pdc *pdc, enum uet_nscc_action act,
			   u32 delay_ns, bool ecn)
{
	const struct uet_nscc *n = &pdc->tx.nscc;

	if (act != UET_NSCC_ACT_NONE)
		uet_stat_inc(pdc->un, UET_STAT_NSCC_PROP_INC + act -
				      UET_NSCC_ACT_PROP_INC);
	trace_uet_cc(pdc->lid, n->cwnd, n->in_flight, delay_ns, ecn, act);
}

/* A packet of @s given up for lost (timeout, SACK gap): NSCC's loss. */
static void uet_tx_cc_loss(struct uet_pdc *pdc, const struct uet_tx_slot *s,
			   u64 now)
{
	struct uet_nscc *n = uet_tx_cc(pdc);

	if (n && !(s->flags & UET_SLOT_NOP))
		uet_tx_cc_note(pdc, uet_nscc_on_timeout(n, &pdc->tx.nscc_p,
							uet_tx_cc_bytes(s),
							now),
			       0, false);
}

/**
 * uet_tx_in_flight() - is a PSN sent and not yet past the cumulative ACK?
 * @tx: the sending side
 * @psn: the PSN
 *
 * Return: true when @psn is in [snd_una, snd_nxt), modulo 2^32.
 */
VISIBLE_IF_KUNIT bool uet_tx_in_flight(const struct uet_pdc_tx *tx, u32 psn)
{
	return psn - tx->snd_una < tx->snd_nxt - tx->snd_una;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_in_flight);

/*
 * Look the route of one packet up in the FIB.  @saddr is the source to use
 * (:: to let the route choose) and is set to the one chosen.
 */
static struct dst_entry *uet_route(struct uet_net *un, struct in6_addr *saddr,
				   const struct in6_addr *daddr, __be16 sport)
{
	__be16 dport = htons(READ_ONCE(un->udp_port));

	if (ipv6_addr_v4mapped(daddr)) {
		struct flowi4 fl4 = {
			.daddr		= daddr->s6_addr32[3],
			.flowi4_proto	= IPPROTO_UDP,
			.fl4_sport	= sport,
			.fl4_dport	= dport,
		};
		struct rtable *rt;

		if (!ipv6_addr_any(saddr))
			fl4.saddr = saddr->s6_addr32[3];
		rt = ip_route_output_key(un->net, &fl4);
		if (IS_ERR(rt))
			return ERR_CAST(rt);
		if (rt->rt_type != RTN_UNICAST && rt->rt_type != RTN_LOCAL) {
			ip_rt_put(rt);
			return ERR_PTR(-ENETUNREACH);
		}
		ipv6_addr_set_v4mapped(fl4.saddr, saddr);
		return &rt->dst;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		struct flowi6 fl6 = {
			.daddr		= *daddr,
			.saddr		= *saddr,
			.flowi6_proto	= IPPROTO_UDP,
			.fl6_sport	= sport,
			.fl6_dport	= dport,
		};
		struct dst_entry *dst;

		dst = ipv6_stub->ipv6_dst_lookup_flow(un->net, NULL, &fl6,
						      NULL);
		if (IS_ERR(dst))
			return dst;
		*saddr = fl6.saddr;
		return dst;
	}
#else
	return ERR_PTR(-EAFNOSUPPORT);
#endif
}

/* Bytes of IP and UDP header in front of @pdc's packets. */
static u32 uet_tx_ip_udp_len(const struct uet_pdc *pdc)
{
	return sizeof(struct udphdr) + (ipv6_addr_v4mapped(&pdc->key.raddr) ?
					sizeof(struct iphdr) :
					sizeof(struct ipv6hdr));
}

/*
 * Bytes of UET headers and payload a packet of @pdc on route @dst may
 * carry: what the route's MTU leaves after the IP and UDP headers, and no
 * more than the path MTU an ICMP error reported (uet_tx_pmtu()).  The one
 * place that sizes data packets.  Under the PDC's lock.
 */
static u32 uet_tx_room(const struct uet_pdc *pdc, const struct dst_entry *dst)
{
	u32 mtu = dst_mtu(dst);

	if (pdc->tx.pmtu)
		mtu = min(mtu, pdc->tx.pmtu);
	return mtu - uet_tx_ip_udp_len(pdc);
}

/*
 * The route of a packet of @pdc on entropy value @ev, from the PDC's
 * route cache or, on a miss, from the FIB (and then cached).  @saddr is
 * set to the source address.  Under the PDC's lock.
 */
static struct dst_entry *uet_tx_route_pdc(struct uet_pdc *pdc, u16 ev,
					  struct in6_addr *saddr)
{
	bool v4 = ipv6_addr_v4mapped(&pdc->key.raddr);
	u16 dport = READ_ONCE(pdc->un->udp_port), key = ev;
	struct dst_entry *dst;

	*saddr = pdc->key.laddr;
	if (pdc->routes) {
		key = uet_route_cache_ev(pdc->routes,
					 uet_route_port_free(pdc->un->net, v4),
					 ev);
		dst = uet_route_cache_get(pdc->routes, key, dport);
		if (dst)
			return dst;
	}
	uet_stat_inc(pdc->un, UET_STAT_TX_ROUTE_LOOKUP);
	dst = uet_route(pdc->un, saddr, &pdc->key.raddr, htons(ev));
	/* A route that chose the source itself may choose another later. */
	if (!IS_ERR(dst) && pdc->routes &&
	    ipv6_addr_equal(saddr, &pdc->key.laddr))
		uet_route_cache_set(pdc->routes, key, dport, dst);
	return dst;
}

/**
 * uet_tx_saddr() - the source address the route to a peer chooses
 * @un: the namespace
 * @raddr: the peer (IPv4 as v4-mapped IPv6)
 * @saddr: set to the source address
 *
 * A FIB lookup, counted in tx_route_lookups.
 *
 * Return: the route, with a reference for the caller, or the routing
 * error (-ENETUNREACH, -EHOSTUNREACH...).
 */
struct dst_entry *uet_tx_saddr(struct uet_net *un,
			       const struct in6_addr *raddr,
			       struct in6_addr *saddr)
{
	uet_stat_inc(un, UET_STAT_TX_ROUTE_LOOKUP);
	*saddr = in6addr_any;
	return uet_route(un, saddr, raddr, 0);
}

/* Is there a route from @laddr (:: for any) to @raddr? */
static int uet_tx_route_check(struct uet_net *un, const struct in6_addr *laddr,
			      const struct in6_addr *raddr)
{
	struct in6_addr saddr = *laddr;
	struct dst_entry *dst;

	dst = uet_route(un, &saddr, raddr, 0);
	if (IS_ERR(dst))
		return PTR_ERR(dst);
	dst_release(dst);
	return 0;
}

static void uet_xmit(struct uet_net *un, struct sk_buff *skb)
{
	struct uet_skb_cb cb = *UET_SKB_CB(skb);
	struct dst_entry *dst = cb.dst;
	__be16 dport = htons(READ_ONCE(un->udp_port));
	bool v4 = ipv6_addr_v4mapped(&cb.daddr);
	struct socket *sock;
	bool nocheck;

	if (uet_test_xmit(un, skb))
		return;
	if (!dst) {
		uet_stat_inc(un, UET_STAT_TX_ROUTE_LOOKUP);
		dst = uet_route(un, &cb.saddr, &cb.daddr, cb.sport);
		if (IS_ERR(dst)) {
			uet_stat_inc(un, UET_STAT_TX_NOROUTE);
			kfree_skb(skb);
			return;
		}
	}
	rcu_read_lock();
	sock = v4 ? rcu_dereference(un->sock4) : rcu_dereference(un->sock6);
	if (!sock) {
		rcu_read_unlock();
		dst_release(dst);
		kfree_skb(skb);
		return;
	}
	nocheck = !uet_cfg(un)->udp_csum_tx;
	/*
	 * A packet larger than its path: IPv4 clears DF; ip6_fragment()
	 * splits a local IPv6 packet only with ignore_df.
	 */
	skb->ignore_df = cb.frag;
	if (v4)
		udp_tunnel_xmit_skb((struct rtable *)dst, sock->sk, skb,
				    cb.saddr.s6_addr32[3], cb.daddr.s6_addr32[3],
				    cb.tos, ip4_dst_hoplimit(dst),
				    cb.frag ? 0 : htons(IP_DF), cb.sport, dport,
				    false, nocheck);
#if IS_ENABLED(CONFIG_IPV6)
	else
		udp_tunnel6_xmit_skb(dst, sock->sk, skb, NULL, &cb.saddr,
				     &cb.daddr, cb.tos, ip6_dst_hoplimit(dst),
				     0, cb.sport, dport, nocheck);
#endif
	rcu_read_unlock();
}

/*
 * Superpackets: consecutive data packets of one message on one route and
 * entropy value, built into one skb: the first packet's headers linear,
 * then each packet's payload (frags of the message's pages) and each
 * later packet's 56-byte headers in a page fragment before it.  gso_size
 * is a packet's length, headers included, so segmentation anywhere cuts
 * it into exactly the packets uet_tx_build() would have built, and a uet
 * receiver keeps it whole (uet_rx_super()).  Only towards devices that
 * carry UDP GSO of frag_list packets (veth), with UDP checksums on.
 */
static void uet_tx_write_hdr(struct uet_pdc *pdc, u32 psn,
			     const struct uet_tx_slot *s, u8 flags, u16 dpdcid,
			     void *p);

/**
 * struct uet_tx_sp - the superpacket uet_tx_push() has open
 * @skb: the superpacket, still the last packet on the push's queue; NULL
 *	when none is open
 * @msg: the message its packets carry
 * @psn: its last packet's PSN
 * @seg: the payload bytes of each of its packets
 * @max: bytes of UET packets it may carry (its device's GSO limits)
 * @ev: its entropy value
 *
 * On uet_tx_push()'s stack, under the PDC lock.
 */
struct uet_tx_sp {
	struct sk_buff *skb;
	struct uet_tx_msg *msg;
	u32 psn;
	u32 seg;
	u32 max;
	u16 ev;
};

/* Is @skb a superpacket not yet handed to GSO (uet_tx_batch())? */
static bool uet_tx_is_sp(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->gso_size && !skb_shinfo(skb)->gso_type;
}

/*
 * Bytes of UET packets one GSO packet to @dev may carry, to @daddr; 0
 * when @dev does not carry UDP GSO of frag_list packets.
 */
static u32 uet_tx_gso_room(const struct net_device *dev,
			   const struct in6_addr *daddr)
{
	const netdev_features_t need = NETIF_F_GSO_UDP_L4 |
				       NETIF_F_GSO_UDP_TUNNEL |
				       NETIF_F_FRAGLIST;
	u32 hdrs, max;

	if ((dev->features & need) != need)
		return 0;
	hdrs = LL_RESERVED_SPACE(dev) + sizeof(struct udphdr) +
	       (ipv6_addr_v4mapped(daddr) ? sizeof(struct iphdr) :
					    sizeof(struct ipv6hdr));
	max = min_t(u32, READ_ONCE(dev->gso_max_size), U16_MAX);
	return max > hdrs ? max - hdrs : 0;
}

/*
 * Open a superpacket at the packet of slot @s just queued last on @q,
 * when more of its message follow and its way allows one.  Under RCU.
 */
static void uet_tx_sp_open(struct uet_pdc *pdc, struct uet_tx_sp *sp,
			   struct sk_buff_head *q, const struct uet_tx_slot *s,
			   u32 psn, const struct dst_entry *dst)
{
	const struct uet_skb_cb *cb = UET_SKB_CB(skb_peek_tail(q));
	const struct uet_config *cfg = uet_cfg(pdc->un);

	sp->skb = NULL;
	if (!cfg->superpackets || !cfg->udp_csum_tx || pdc->tx.syn ||
	    !cb->batch || s->msg->sent == s->msg->buf->len)
		return;
	sp->max = uet_tx_gso_room(dst->dev, &cb->daddr);
	if (sp->max < 2 * skb_peek_tail(q)->len)
		return;
	sp->skb = skb_peek_tail(q);
	sp->msg = s->msg;
	sp->psn = psn;
	sp->seg = s->len;
	sp->ev = s->ev;
}

/*
 * Append the packet of slot @s, PSN @psn, to superpacket @sp: its headers
 * in a page fragment, its payload as frags.  Return: false, @sp
 * unchanged, when they do not fit or memory is short.
 */
static bool uet_tx_sp_append(struct uet_pdc *pdc, struct uet_tx_sp *sp,
			     u32 psn, const struct uet_tx_slot *s, u8 flags)
{
	struct sk_buff *skb = sp->skb;
	struct skb_shared_info *sh = skb_shinfo(skb);
	u32 g = UET_DATA_HDR_LEN + sp->seg;
	void *hdr;

	if (sh->nr_frags + 1 + uet_buf_frags(s->off, s->len) > MAX_SKB_FRAGS ||
	    skb->len + g > sp->max || sh->gso_segs >= UET_TX_BATCH_SEGS)
		return false;
	hdr = netdev_alloc_frag(UET_DATA_HDR_LEN);
	if (!hdr)
		return false;
	uet_tx_write_hdr(pdc, psn, s, flags, pdc->rid, hdr);
	skb_fill_page_desc(skb, sh->nr_frags, virt_to_head_page(hdr),
			   hdr - page_address(virt_to_head_page(hdr)),
			   UET_DATA_HDR_LEN);
	skb->len += UET_DATA_HDR_LEN;
	skb->data_len += UET_DATA_HDR_LEN;
	skb->truesize += UET_DATA_HDR_LEN;
	/* Cannot fail: the frags were counted. */
	WARN_ON_ONCE(uet_buf_skb_frags(s->msg->buf, s->off, s->len, skb));
	if (!sh->gso_size) {
		sh->gso_size = g;
		sh->gso_segs = 1;
		uet_stat_inc(pdc->un, UET_STAT_TX_SUPER);
		uet_stat_inc(pdc->un, UET_STAT_TX_SUPER_SEGS);
	}
	sh->gso_segs++;
	uet_stat_inc(pdc->un, UET_STAT_TX_SUPER_SEGS);
	return true;
}

/*
 * Join the packet of slot @s, PSN @psn, to the open superpacket @sp when
 * it is the next of its message on its way, as long as its packets or
 * the message's shorter end (which closes it).  Return: true when it
 * joined; @dst is then released.
 */
static bool uet_tx_sp_join(struct uet_pdc *pdc, struct uet_tx_sp *sp,
			   u32 psn, const struct uet_tx_slot *s,
			   struct dst_entry *dst, const struct in6_addr *saddr,
			   u8 flags)
{
	const struct uet_skb_cb *cb;

	if (!sp->skb)
		return false;
	cb = UET_SKB_CB(sp->skb);
	if (s->msg != sp->msg || psn != sp->psn + 1 || dst != cb->dst ||
	    s->ev != sp->ev || !ipv6_addr_equal(saddr, &cb->saddr) ||
	    (s->len != sp->seg &&
	     (s->len > sp->seg || s->off + s->len != s->msg->buf->len)) ||
	    !uet_tx_sp_append(pdc, sp, psn, s, flags)) {
		sp->skb = NULL;
		return false;
	}
	dst_release(dst);
	trace_uet_data_tx(pdc->lid, psn, s->ev, s->len, 0);
	sp->psn = psn;
	if (s->len != sp->seg)
		sp->skb = NULL;
	return true;
}

/*
 * Split the last packet off superpacket @skb (GSO fields not yet set) as
 * a classic packet: its header copied into a linear part, its payload
 * frags moved.  So that a superpacket sent alone still has a frag_list
 * member (the tunnel bit is only set on those).  Return: the packet, or
 * NULL, @skb unchanged.
 */
static struct sk_buff *uet_tx_sp_split(struct sk_buff *skb)
{
	struct skb_shared_info *sh = skb_shinfo(skb), *th;
	u32 g = sh->gso_size, n = sh->gso_segs, at = (n - 1) * g;
	u32 off = skb_headlen(skb), i, j, len;
	struct sk_buff *t;

	for (i = 0; i < sh->nr_frags && off < at; i++)
		off += skb_frag_size(&sh->frags[i]);
	if (off != at || i >= sh->nr_frags ||
	    skb_frag_size(&sh->frags[i]) != UET_DATA_HDR_LEN)
		return NULL;
	t = alloc_skb(skb_headroom(skb) + UET_DATA_HDR_LEN,
		      GFP_ATOMIC | __GFP_NOWARN);
	if (!t)
		return NULL;
	skb_reserve(t, skb_headroom(skb));
	memcpy(skb_put(t, UET_DATA_HDR_LEN), skb_frag_address(&sh->frags[i]),
	       UET_DATA_HDR_LEN);
	len = skb->len - at;
	th = skb_shinfo(t);
	for (j = i + 1; j < sh->nr_frags; j++)
		th->frags[th->nr_frags++] = sh->frags[j];
	t->len += len - UET_DATA_HDR_LEN;
	t->data_len += len - UET_DATA_HDR_LEN;
	t->truesize += len - UET_DATA_HDR_LEN;
	put_page(skb_frag_page(&sh->frags[i]));
	sh->nr_frags = i;
	skb->len -= len;
	skb->data_len -= len;
	skb->truesize -= len;
	sh->gso_segs = n - 1;
	return t;
}

/* Do @b and @a, a data packet that may be batched, go the same way? */
static bool uet_tx_same_way(const struct uet_skb_cb *a,
			    const struct uet_skb_cb *b)
{
	return b->batch && a->dst == b->dst && a->sport == b->sport &&
	       a->tos == b->tos && ipv6_addr_equal(&a->saddr, &b->saddr) &&
	       ipv6_addr_equal(&a->daddr, &b->daddr);
}

/**
 * uet_tx_batch() - join the packets that follow one on its way into it
 * @skb: a data packet that may be batched, dequeued from @q
 * @q: the packets queued behind it
 * @max_len: bytes of UET packets the batch may carry
 * @max_segs: packets the batch may carry
 *
 * The packets at @q's head that go @skb's way (route, entropy value,
 * addresses, TOS), each as long as @skb but for a shorter last one, are
 * chained on @skb's frag_list, and @skb becomes a UDP GSO packet of
 * them: IP, the qdisc and the device take them once, and a device that
 * cannot carry it has it cut into the packets it was built from.  A
 * superpacket (uet_tx_sp_append()), head or member, counts as its
 * packets; one left alone gives up its last packet to be its member
 * (uet_tx_sp_split()), since only a batch with a frag_list is marked a
 * UDP tunnel's.  That mark makes the receiver's UDP hand it whole to
 * uet_encap_rcv(), which takes its packets apart again: UDP cuts every
 * other GSO packet bound for an encapsulation socket first
 * (udp_unexpected_gso()).  skb->encapsulation stays clear, so software
 * segmentation cuts it as plain UDP.  The joined packets' routes are
 * released: @skb's serves them all.
 *
 * Return: the packets in @skb.
 */
VISIBLE_IF_KUNIT u32 uet_tx_batch(struct sk_buff *skb, struct sk_buff_head *q,
				  u32 max_len, u32 max_segs)
{
	const struct uet_skb_cb *cb = UET_SKB_CB(skb);
	struct skb_shared_info *sh = skb_shinfo(skb);
	struct sk_buff **tail = &sh->frag_list;
	bool sp = uet_tx_is_sp(skb);
	u32 seg = sp ? sh->gso_size : skb->len;
	u32 n = sp ? sh->gso_segs : 1, nn;
	struct sk_buff *next;

	/* Members follow only a part that ends on a whole packet. */
	while (skb->len == n * seg && n < max_segs && (next = skb_peek(q)) &&
	       skb->len + next->len <= max_len &&
	       uet_tx_same_way(cb, UET_SKB_CB(next))) {
		if (uet_tx_is_sp(next)) {
			if (skb_shinfo(next)->gso_size != seg)
				break;
			nn = skb_shinfo(next)->gso_segs;
		} else {
			if (next->len > seg)
				break;
			nn = 1;
		}
		if (n + nn > max_segs)
			break;
		__skb_unlink(next, q);
		dst_release(UET_SKB_CB(next)->dst);
		skb_shinfo(next)->gso_size = 0;
		skb_shinfo(next)->gso_segs = 0;
		*tail = next;
		tail = &next->next;
		skb->len += next->len;
		skb->data_len += next->len;
		skb->truesize += next->truesize;
		n += nn;
	}
	/* A superpacket alone: its last packet becomes a member. */
	if (sp && !sh->frag_list) {
		next = uet_tx_sp_split(skb);
		if (next) {
			*tail = next;
			skb->len += next->len;
			skb->data_len += next->len;
			skb->truesize += next->truesize;
		}
	}
	if (n == 1)
		return 1;
	sh->gso_size = seg;
	sh->gso_segs = n;
	/*
	 * The tunnel bit only with a frag_list: a device taking a GSO packet
	 * without one whole (USO) must not read it as a tunnel's.  A
	 * superpacket without one is cut by the receiver's UDP.
	 */
	sh->gso_type = SKB_GSO_UDP_L4 |
		       (sh->frag_list ? SKB_GSO_UDP_TUNNEL : 0);
	/* udp_set_csum() leaves a GSO packet's checksum to the segments. */
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
	skb->csum_offset = offsetof(struct udphdr, check);
	return n;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_batch);

/*
 * Batch the packets queued behind @skb with it where its device carries
 * a batch whole: UDP GSO of frag_list packets (veth does).  Elsewhere
 * each packet goes alone, as software segmentation would cost what IP
 * saves.  Not without UDP checksums: a GSO packet's segments carry them.
 */
static void uet_tx_batch_try(struct uet_net *un, struct sk_buff *skb,
			     struct sk_buff_head *q)
{
	const struct uet_skb_cb *cb = UET_SKB_CB(skb);
	const struct net_device *dev = cb->dst->dev;
	bool csum;
	u32 max;

	/* A PDC's timer sends too: not always in an RCU read section. */
	rcu_read_lock();
	csum = uet_cfg(un)->udp_csum_tx;
	rcu_read_unlock();
	max = uet_tx_gso_room(dev, &cb->daddr);
	if (!csum || !max) {
		/* The device changed under a superpacket: plain UDP GSO. */
		if (uet_tx_is_sp(skb))
			uet_tx_batch(skb, q, 0, 0);
		return;
	}
	if (uet_tx_batch(skb, q, max,
			 min_t(u32, READ_ONCE(dev->gso_max_segs),
			       UET_TX_BATCH_SEGS)) > 1)
		uet_stat_inc(un, UET_STAT_TX_BATCH);
}

/**
 * uet_xmit_queue() - send the packets built under a PDC lock
 * @un: the namespace
 * @q: the packets; emptied
 *
 * Consecutive data packets on one route and entropy value go as one
 * batch (uet_tx_batch()).
 *
 * Context: process or softirq, no PDC lock held.
 */
void uet_xmit_queue(struct uet_net *un, struct sk_buff_head *q)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(q))) {
		if (UET_SKB_CB(skb)->batch &&
		    (!skb_queue_empty(q) || uet_tx_is_sp(skb)))
			uet_tx_batch_try(un, skb, q);
		uet_xmit(un, skb);
	}
}

/* Free packets that will not be sent, and the routes they hold. */
static void uet_skb_queue_purge(struct sk_buff_head *q)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(q))) {
		dst_release(UET_SKB_CB(skb)->dst);
		kfree_skb(skb);
	}
}

/**
 * uet_tx_out() - queue the packets built under an initiator PDC's lock
 * @pdc: the PDC, locked
 * @q: the packets, in PSN order; emptied
 *
 * One context at a time hands a PDC's packets to IP, so that they leave
 * in the order they were built: concurrent senders would reorder them,
 * which the receiver could only take for loss.
 *
 * Return: true when the caller is to send them with uet_tx_drain() once
 * it has released the lock.
 */
bool uet_tx_out(struct uet_pdc *pdc, struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	skb_queue_splice_tail_init(q, &tx->txq);
	if (tx->xmit_busy || skb_queue_empty(&tx->txq))
		return false;
	tx->xmit_busy = true;
	return true;
}

/**
 * uet_tx_drain() - send an initiator PDC's queued packets until none is left
 * @pdc: the PDC, not locked, kept by the caller's RCU read section, by
 *	being its timer callback or by being its work item
 *
 * The caller owns the queue (uet_tx_out() returned true).  A task sends
 * at most UET_TX_DRAIN_BUDGET packets, then hands the queue, still owned,
 * to the PDC's work item: on a device that delivers in the sender's
 * softirq (veth), each packet a task sends runs the softirq inline, whose
 * ACKs queue more packets for the task to send, so that the task would
 * otherwise stay in sendmsg() for as long as the transfer flows (an RCU
 * stall on a kernel without preemption).  A work item rather than the
 * timer: in a task, the inline softirq keeps the packets of a PDC in
 * flight few; sent from softirq, a window's worth waits in the per-CPU
 * backlogs at once, which on a slow kernel takes longer than rto-max to
 * get through and collapses into timeouts.  On the high-priority
 * workqueue, so that the PDC's packets do not wait behind the tasks
 * that queue them (several senders copying their messages in).
 */
void uet_tx_drain(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 budget = UET_TX_DRAIN_BUDGET;
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	while (!skb_queue_empty(&tx->txq)) {
		if (in_task() && !budget) {
			/*
			 * A dead PDC's queue is purged by its release, which
			 * cancels the work item: queue none after it.
			 */
			if (pdc->dead)
				break;
			queue_work(system_highpri_wq, &tx->xmit_work);
			spin_unlock_bh(&pdc->lock);
			return;
		}
		budget -= min(budget, skb_queue_len(&tx->txq));
		skb_queue_splice_init(&tx->txq, &q);
		spin_unlock_bh(&pdc->lock);
		uet_xmit_queue(pdc->un, &q);
		spin_lock_bh(&pdc->lock);
	}
	tx->xmit_busy = false;
	spin_unlock_bh(&pdc->lock);
}

/**
 * uet_ctl_skb_addr() - allocate a control packet (ACK, NACK, CTRL)
 * @saddr: its source address
 * @daddr: its destination address
 * @len: bytes of UET headers; zeroed
 * @ev: its UDP source port (the entropy value it carries back)
 *
 * Return: the packet with @len bytes put, routed when sent; or NULL.
 */
struct sk_buff *uet_ctl_skb_addr(const struct in6_addr *saddr,
				 const struct in6_addr *daddr,
				 unsigned int len, u16 ev)
{
	struct uet_skb_cb *cb;
	struct sk_buff *skb;

	skb = alloc_skb(UET_HEADROOM + len, GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		return NULL;
	skb_reserve(skb, UET_HEADROOM);
	skb_put_zero(skb, len);
	cb = UET_SKB_CB(skb);
	cb->saddr = *saddr;
	cb->daddr = *daddr;
	cb->dst = NULL;
	cb->sport = htons(ev);
	cb->tos = 0;
	cb->frag = false;
	cb->batch = false;
	return skb;
}

/**
 * uet_ctl_skb() - allocate a control packet to a PDC's peer
 * @pdc: the PDC, locked
 * @len: bytes of UET headers; zeroed
 * @ev: its UDP source port
 *
 * Routed at once through the PDC's route cache; the packet holds the
 * route (uet_skb_cb.dst) until uet_xmit_queue() sends it.  Without a
 * route it is routed again when sent, and counted if it still has none.
 *
 * Return: the packet, or NULL.
 */
struct sk_buff *uet_ctl_skb(struct uet_pdc *pdc, unsigned int len, u16 ev)
{
	struct sk_buff *skb;
	struct dst_entry *dst;
	struct in6_addr saddr;

	skb = uet_ctl_skb_addr(&pdc->key.laddr, &pdc->key.raddr, len, ev);
	if (!skb)
		return NULL;
	dst = uet_tx_route_pdc(pdc, ev, &saddr);
	if (!IS_ERR(dst)) {
		UET_SKB_CB(skb)->dst = dst;
		UET_SKB_CB(skb)->saddr = saddr;
	}
	return skb;
}

static void uet_tx_timer_set(struct uet_pdc *pdc, u64 when)
{
	struct hrtimer *t = &pdc->tx.timer;

	/*
	 * Most packets leave the deadline where it was (the oldest one's):
	 * starting a timer queued for that very time again would only take
	 * it out of its base and put it back.  Its callback takes the PDC's
	 * lock, held here, so a timer that expires meanwhile finds the
	 * state this call left, as it would have at the same time anyway.
	 */
	if (hrtimer_is_queued(t) && ktime_to_ns(hrtimer_get_expires(t)) == when)
		return;
	hrtimer_start(t, ns_to_ktime(when), HRTIMER_MODE_ABS_SOFT);
}

static u64 uet_tx_rto_ns(const struct uet_pdc *pdc)
{
	return (u64)pdc->tx.rto_us * NSEC_PER_USEC;
}

/**
 * uet_tx_base_rtt_ns() - the base RTT of a PDC
 * @pdc: the initiator PDC
 *
 * The lowest RTT measured (data ACKs and probe answers), and the
 * configured base-rtt only until the first sample: a configured value
 * far below the real RTT (a 400G default in a VM) would make every
 * early-detection deadline pass.
 *
 * Return: the base RTT in ns.
 */
u64 uet_tx_base_rtt_ns(const struct uet_pdc *pdc)
{
	if (pdc->tx.min_rtt_ns == U64_MAX)
		return pdc->base_rtt_ns;
	return pdc->tx.min_rtt_ns;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_base_rtt_ns);

/* When a PDC waiting for credit is to ask again, from now (RCCC). */
static u64 uet_tx_ask_ns(const struct uet_pdc *pdc)
{
	return uet_rccc_ask_ns(&pdc->tx.rccc, uet_tx_rto_ns(pdc),
			       (u64)pdc->rto_max_us * NSEC_PER_USEC);
}

/* Early-detection delay after a send (REPS): 0 when off. */
static u64 uet_tx_ed_ns(const struct uet_pdc *pdc)
{
	u64 base = min_t(u64, uet_tx_base_rtt_ns(pdc), U32_MAX);

	return uet_spray_early_deadline_ns(pdc->spray, base);
}

/**
 * uet_tx_ed_at() - when the early-detection deadline of a PSN passes
 * @pdc: the initiator PDC
 * @psn: a PSN in flight
 * @ed: the early-detection delay, uet_tx_ed_ns()
 *
 * The target acknowledges every UET_ACK_EVERY packets unless a packet
 * asks, so the ACK that covers @psn may be drawn by a packet sent up to
 * UET_ACK_EVERY - 1 PSNs after it, or by the last packet sent, which
 * asks for an ACK (end of message, of a burst, full window) or, with
 * ack-delay, may have its ACK held that long (UET_SLOT_HELD).  The
 * deadline runs from the later of that packet's and @psn's last
 * transmission: an ACK held back by coalescing is not a failure.
 *
 * Return: the deadline, ktime_get_ns() clock.
 */
VISIBLE_IF_KUNIT u64 uet_tx_ed_at(struct uet_pdc *pdc, u32 psn, u64 ed)
{
	u32 q = psn + UET_ACK_EVERY - 1, last = pdc->tx.snd_nxt - 1;
	const struct uet_tx_slot *s;

	if (uet_psn_before(last, q))
		q = last;
	s = uet_slot(pdc, q);
	if (s->flags & UET_SLOT_HELD)
		ed += pdc->ack_delay_ns;
	return max(uet_slot(pdc, psn)->sent_ns, s->sent_ns) + ed;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_ed_at);

/* Next early-detection deadline, U64_MAX if none. */
static u64 uet_tx_ed_next(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u64 ed = uet_tx_ed_ns(pdc);
	u32 p;

	if (!ed)
		return U64_MAX;
	p = uet_psn_before(tx->ed_psn, tx->snd_una) ? tx->snd_una : tx->ed_psn;
	return p == tx->snd_nxt ? U64_MAX : uet_tx_ed_at(pdc, p, ed);
}

/**
 * uet_tx_ed_due() - the next transmission whose early-detection deadline
 *	passed
 * @pdc: the initiator PDC
 * @now: the time, ktime_get_ns() clock
 * @ed: the early-detection delay, uet_tx_ed_ns()
 * @psn: set to its PSN
 *
 * The deadline is uet_tx_ed_at()'s, the one the timer is armed for.  The
 * cursor @ed_psn moves over the PSNs in order, passes those reported
 * (UET_SLOT_ED) or acknowledged, and stops at the first not yet due; a
 * PSN resent moves it back (uet_tx_ed_renew()).
 *
 * Return: true and @psn set when one is due; the caller reports it
 * (UET_SLOT_ED), so that the next call moves on.
 */
VISIBLE_IF_KUNIT bool uet_tx_ed_due(struct uet_pdc *pdc, u64 now, u64 ed,
				    u32 *psn)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	if (uet_psn_before(tx->ed_psn, tx->snd_una))
		tx->ed_psn = tx->snd_una;
	for (; tx->ed_psn != tx->snd_nxt; tx->ed_psn++) {
		struct uet_tx_slot *s = uet_slot(pdc, tx->ed_psn);

		if (!s->msg || (s->flags & UET_SLOT_ED))
			continue;
		if (uet_tx_ed_at(pdc, tx->ed_psn, ed) > now)
			return false;
		*psn = tx->ed_psn;
		return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_ed_due);

/**
 * uet_tx_ed_renew() - give a PSN being resent its own deadline
 * @pdc: the initiator PDC
 * @psn: the PSN, in flight
 *
 * The cursor of uet_tx_ed_due() moves back to @psn if it had passed it:
 * it then walks again only PSNs already reported, at most a window.
 */
VISIBLE_IF_KUNIT void uet_tx_ed_renew(struct uet_pdc *pdc, u32 psn)
{
	uet_slot(pdc, psn)->flags &= ~UET_SLOT_ED;
	if (uet_psn_before(psn, pdc->tx.ed_psn))
		pdc->tx.ed_psn = psn;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_ed_renew);

/**
 * uet_tx_rto_base() - the retransmission timeout before backoff
 * @pdc: the initiator PDC
 *
 * RFC 6298's srtt + 4 * rttvar, but at least 5/4 of the recent maximum
 * RTT, since the samples mix paths of different delay and the average
 * follows the fast ones, and 5/4 of the RTT a spurious timeout found.
 *
 * Return: the timeout in us, bounded by rto-min and rto-max.
 */
VISIBLE_IF_KUNIT u32 uet_tx_rto_base(const struct uet_pdc *pdc)
{
	const struct uet_pdc_tx *tx = &pdc->tx;
	u32 rto = tx->srtt_us + max(4 * tx->rttvar_us, 1U);

	rto = max(rto, tx->rtt_max_us + tx->rtt_max_us / 4);
	rto = max(rto, tx->late_rtt_us + tx->late_rtt_us / 4);
	return clamp(rto, pdc->rto_min_us, pdc->rto_max_us);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_rto_base);

/*
 * How long a packet must have been out before a SACK gap may call it
 * lost, and before it times out on its own: its paths may differ in delay
 * by far more than sack-retx-thresh packets' worth, and only an ACK that
 * could have come back by now and did not says loss.  The timeout before
 * backoff, or before a sample.
 */
static u64 uet_tx_reorder_ns(const struct uet_pdc *pdc)
{
	if (!pdc->tx.srtt_us)
		return uet_tx_rto_ns(pdc);
	return (u64)uet_tx_rto_base(pdc) * NSEC_PER_USEC;
}

/* Was the last transmission of PSN @psn in PSN order (see @horizon)? */
static bool uet_tx_in_order(const struct uet_tx_slot *s, u32 psn)
{
	return s->horizon == psn + 1 && !(s->flags & UET_SLOT_HOLD);
}

/*
 * Has a packet of a higher PSN, sent after the last transmission of @s,
 * been acknowledged?  Then the PDC's paths carry packets and that one's
 * did not: its value is to blame.  Without it a stall of the whole PDC
 * (or of the host) would fail every value at once.
 */
static bool uet_tx_overtaken_psn(const struct uet_pdc_tx *tx,
				 const struct uet_tx_slot *s)
{
	return !uet_psn_before(tx->high_acked, s->horizon);
}

/*
 * Has any packet sent after the last transmission of @s been acknowledged?
 * When a whole window is lost, the only one is the oldest packet, resent
 * by the PDC's timeout: in PSN order alone the others would wait for a
 * timeout each, backed off, minutes for a window.
 */
static bool uet_tx_overtaken(const struct uet_pdc_tx *tx,
			     const struct uet_tx_slot *s)
{
	return uet_tx_overtaken_psn(tx, s) ||
	       (s64)(tx->acked_sent_ns - s->sent_ns) > 0;
}

/*
 * Could the receiver have reported PSN @psn?  Its SACK bitmap covers the
 * 64 PSNs from the one it expects, which is at least snd_una: a packet
 * received beyond them stays unacknowledged until the gap is filled, and
 * its silence says nothing about its path.
 */
static bool uet_tx_in_reach(const struct uet_pdc_tx *tx, u32 psn)
{
	return psn - tx->snd_una < UET_SACK_BITS;
}

/* Out for @rto at @now, with a clock read on another CPU maybe ahead. */
static bool uet_tx_out_for(const struct uet_tx_slot *s, u64 now, u64 rto)
{
	return (s64)(now - s->sent_ns) >= (s64)rto;
}

/**
 * uet_tx_to_due() - the next transmission whose own timeout has passed
 * @pdc: the initiator PDC
 * @now: the time, ktime_get_ns() clock
 * @rto: the timeout, uet_tx_reorder_ns()
 * @psn: set to its PSN
 *
 * A transmission times out on its own when it is unacknowledged @rto
 * after it was sent, a packet sent after it has been acknowledged, and
 * the receiver's SACK bitmap reaches it.  The cursor @to_psn moves over
 * the PSNs in order and stops at the first transmission in PSN order that
 * is not due (none after it is: they were sent later, wait for the same
 * ACK, or are further out of reach); a retransmission out of order that
 * is not due is passed over, left to its SACK gap or to the PDC's
 * timeout.  So each PSN is looked at about once: O(1) per packet.
 *
 * Return: true and @psn set when one is due; the caller reports it
 * (UET_SLOT_TO) or resends it (out of PSN order then, since a packet sent
 * after it was acknowledged), so that the next call moves on.
 */
VISIBLE_IF_KUNIT bool uet_tx_to_due(struct uet_pdc *pdc, u64 now, u64 rto,
				    u32 *psn)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	if (uet_psn_before(tx->to_psn, tx->snd_una))
		tx->to_psn = tx->snd_una;
	for (; tx->to_psn != tx->snd_nxt; tx->to_psn++) {
		struct uet_tx_slot *s = uet_slot(pdc, tx->to_psn);

		if (!s->msg || (s->flags & (UET_SLOT_TO | UET_SLOT_HOLD)))
			continue;
		if (!uet_tx_in_reach(tx, tx->to_psn))
			return false;
		if (uet_tx_out_for(s, now, rto) && uet_tx_overtaken(tx, s)) {
			*psn = tx->to_psn;
			return true;
		}
		if (uet_tx_in_order(s, tx->to_psn))
			return false;
	}
	return false;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_to_due);

/**
 * uet_tx_to_next() - when uet_tx_to_due() may next find one
 * @pdc: the initiator PDC
 * @now: the time, ktime_get_ns() clock
 * @rto: the timeout, uet_tx_reorder_ns()
 *
 * Return: the time the transmission at the cursor times out; @now when
 * the cursor is on a PSN it will pass over; U64_MAX when nothing is in
 * flight after it, or when it waits for an ACK (of a later packet, or one
 * that brings it within reach): the ACK runs the scan.
 */
VISIBLE_IF_KUNIT u64 uet_tx_to_next(struct uet_pdc *pdc, u64 now, u64 rto)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	struct uet_tx_slot *s;
	u32 p;

	p = uet_psn_before(tx->to_psn, tx->snd_una) ? tx->snd_una : tx->to_psn;
	if (p == tx->snd_nxt || !uet_tx_in_reach(tx, p))
		return U64_MAX;
	s = uet_slot(pdc, p);
	if (!s->msg || (s->flags & UET_SLOT_TO) || !uet_tx_in_order(s, p))
		return now;
	if (!uet_tx_out_for(s, now, rto))
		return s->sent_ns + rto;
	return uet_tx_overtaken(tx, s) ? now : U64_MAX;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_to_next);

/**
 * uet_tx_late_wait() - how long a late timer run waits before it judges
 * @late: how late the timer ran, ns
 * @rto: the PDC's timeout, ns
 *
 * A timer that runs more than a 32nd of a timeout late found this host
 * busy (a stalled vCPU, softirqs deferred to ksoftirqd): the ACKs that
 * would have stopped it may wait in a backlog that is processed after
 * the timer.  It looks again as much later as it was late, at most a
 * timeout, so that they can come first.  An eighth let through the runs
 * 0.1-1.35 ms late that most spurious timeouts of an incast came in
 * (timeouts of 6.5 ms on average).
 *
 * Return: the wait, ns; 0 to judge now.
 */
VISIBLE_IF_KUNIT u64 uet_tx_late_wait(u64 late, u64 rto)
{
	if (late <= rto / 32)
		return 0;
	return min(late, rto);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_late_wait);

/*
 * Should this timer run, due at @due, leave loss alone?  A PDC waits once
 * between two ACKs that acknowledge something (uet_tx_arm() forgets the
 * wait on progress): on a host busy all the time, the run after the wait
 * judges however late it is, and losses are found at most a timeout
 * later.
 */
static bool uet_tx_late(struct uet_pdc *pdc, u64 now, u64 due)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u64 wait;

	if (tx->late_until)
		return now < tx->late_until;
	wait = uet_tx_late_wait(now > due ? now - due : 0,
				uet_tx_rto_ns(pdc));
	if (!wait)
		return false;
	tx->late_until = now + wait;
	uet_stat_inc(pdc->un, UET_STAT_TX_TIMER_LATE);
	return true;
}

/* What the newest packet's ACK may be held at the target (ack-delay). */
static u64 uet_tx_held_ns(struct uet_pdc *pdc)
{
	if (uet_slot(pdc, pdc->tx.snd_nxt - 1)->flags & UET_SLOT_HELD)
		return pdc->ack_delay_ns;
	return 0;
}

/*
 * Arm the timer: the retransmission timeout runs from the last progress
 * (restarted by an ACK that acknowledges something new, else only started
 * when nothing runs), and the next early-detection deadline may come first.
 */
static void uet_tx_arm(struct uet_pdc *pdc, u64 now, bool restart)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u64 next = U64_MAX;

	if (restart || tx->snd_una == tx->snd_nxt)
		tx->late_until = 0;
	if (tx->snd_una == tx->snd_nxt) {
		tx->rto_at = 0;
	} else {
		if (restart || !tx->rto_at)
			tx->rto_at = now + uet_tx_rto_ns(pdc) +
				     uet_tx_held_ns(pdc);
		next = min3(tx->rto_at, uet_tx_ed_next(pdc),
			    uet_tx_to_next(pdc, now, uet_tx_reorder_ns(pdc)));
		/* not before a late run's second look (uet_tx_late()) */
		next = max(next, tx->late_until);
	}
	if (tx->probe_at)
		next = min(next, tx->probe_at);
	/* nothing left to wait for: its messages were given up */
	if (list_empty(&tx->sendq))
		tx->rccc.waiting = false;
	if (!tx->rccc.waiting) {
		tx->rccc.ask_at = 0;
	} else {
		/* a wait starts: the push that began it is timed already */
		if (!tx->rccc.ask_at) {
			tx->rccc.wait_from = now;
			tx->rccc.ask_at = now + uet_tx_ask_ns(pdc);
		}
		next = min(next, tx->rccc.ask_at);
	}
	if (next == U64_MAX)
		hrtimer_try_to_cancel(&tx->timer);
	else
		uet_tx_timer_set(pdc, next);
}

/* What an engine call did, on value @ev: counters, path events, trace. */
static void uet_tx_spray_note(struct uet_pdc *pdc, u16 ev, u32 res)
{
	if (!res)
		return;
	uet_stats_spray(pdc->un, res);
	uet_nl_notify_spray(pdc, ev, res);
	trace_uet_spray(pdc->lid, ev, res);
}

/*
 * Is @pdc the one PDC that probes its destination's bad values?  It
 * becomes it when nobody is.  A PDC of its own (PDC groups off) always is.
 */
static bool uet_tx_prober(struct uet_pdc *pdc)
{
	struct uet_pdc *old;

	if (!pdc->dest)
		return true;
	/* Pairs with uet_tx_probe_value(): see the value made bad first. */
	smp_mb();
	old = cmpxchg(&pdc->dest->prober, NULL, pdc);
	return !old || old == pdc;
}

/* A value left the rotation: probe it, unless another PDC of the group does. */
static void uet_tx_probe_start(struct uet_pdc *pdc, u64 now)
{
	if (!pdc->tx.probe_at && uet_tx_prober(pdc))
		pdc->tx.probe_at = now + pdc->probe_period_ns;
}

static void uet_tx_fb(struct uet_pdc *pdc, struct uet_tx_slot *s,
		      enum uet_spray_event ev, u64 now)
{
	u32 res = uet_spray_feedback(pdc->spray, ev, s->ev, now);

	uet_tx_spray_note(pdc, s->ev, res);
	if (res & UET_SPRAY_R_BAD)
		uet_tx_probe_start(pdc, now);
}

/*
 * A trim NACK comes on the value of the copy a switch trimmed: that
 * value's path is congested, whether or not the PSN was resent or
 * acknowledged since.
 */
static void uet_tx_fb_trim(struct uet_pdc *pdc, const struct uet_nack_info *n,
			   u64 now)
{
	enum uet_spray_event ev = n->code == UET_NACK_TRIMMED ?
				  UET_SPRAY_EV_NACK_TRIM :
				  UET_SPRAY_EV_NACK_TRIM_LAST_HOP;

	uet_tx_spray_note(pdc, n->ev,
			  uet_spray_feedback(pdc->spray, ev, n->ev, now));
}

/* ACK or NACK feedback: at most one per transmission. */
static void uet_tx_fb_once(struct uet_pdc *pdc, struct uet_tx_slot *s,
			   enum uet_spray_event ev, u64 now)
{
	if (s->flags & UET_SLOT_FB)
		return;
	s->flags |= UET_SLOT_FB;
	uet_tx_fb(pdc, s, ev, now);
}

/*
 * A transmission timed out: its value's path failed (active: the value
 * goes bad; REPS: freezing).  At most once per transmission.
 */
static void uet_tx_fb_timeout(struct uet_pdc *pdc, struct uet_tx_slot *s,
			      u64 now)
{
	if (s->flags & UET_SLOT_TO)
		return;
	s->flags |= UET_SLOT_TO;
	uet_tx_fb(pdc, s, UET_SPRAY_EV_TIMEOUT, now);
}

/* Take the next entropy value and route the packet of @s on it. */
static struct dst_entry *uet_tx_route_next(struct uet_pdc *pdc,
					   struct uet_tx_slot *s,
					   struct in6_addr *saddr, u32 *room)
{
	struct dst_entry *dst;
	u32 res = 0;

	s->ev = uet_spray_next(pdc->spray, &res);
	uet_tx_spray_note(pdc, s->ev, res);
	dst = uet_tx_route_pdc(pdc, s->ev, saddr);
	if (IS_ERR(dst)) {
		pdc->tx.last_err = EHOSTUNREACH;
		uet_stat_inc(pdc->un, UET_STAT_TX_NOROUTE);
		return NULL;
	}
	pdc->tx.last_err = 0;
	*room = uet_tx_room(pdc, dst);
	return dst;
}

/* The PSN of a refused message, sent as a CTRL NOP to keep PSNs whole. */
static struct sk_buff *uet_tx_build_nop(struct uet_pdc *pdc, u32 psn,
					const struct uet_tx_slot *s, u8 flags)
{
	struct uet_pds_ctrl *c;
	struct sk_buff *skb;

	skb = alloc_skb(UET_HEADROOM + sizeof(*c), GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		return NULL;
	skb_reserve(skb, UET_HEADROOM);
	c = skb_put_zero(skb, sizeof(*c));
	c->prologue = uet_prologue(UET_PDS_CTRL, UET_CTRL_NOP,
				   (flags & UET_REQ_RETX ? UET_CTRL_RETX : 0) |
				   UET_CTRL_AR);
	c->psn = cpu_to_be32(psn);
	c->spdcid = cpu_to_be16(pdc->lid);
	c->dpdcid = cpu_to_be16(pdc->rid);
	return skb;
}

/* Write the PDS and SES headers of the packet of slot @s at @p. */
static void uet_tx_write_hdr(struct uet_pdc *pdc, u32 psn,
			     const struct uet_tx_slot *s, u8 flags, u16 dpdcid,
			     void *p)
{
	const struct uet_tx_msg *m = s->msg;
	struct uet_pds_req *req = p;
	struct uet_ses_std *ses = (struct uet_ses_std *)(req + 1);
	u8 sesf = 0;

	req->prologue = uet_prologue(UET_PDS_RUD_REQ, UET_NH_REQ_STD, flags);
	req->clear_psn_off = 0;
	req->psn = cpu_to_be32(psn);
	req->spdcid = cpu_to_be16(pdc->lid);
	req->dpdcid = cpu_to_be16(dpdcid);

	if (!s->off)
		sesf |= UET_SES_SOM;
	if (s->off + s->len == m->buf->len)
		sesf |= UET_SES_EOM;
	memset(ses, 0, sizeof(*ses));
	ses->opcode = FIELD_PREP(UET_SES_OPCODE, UET_SES_SEND);
	ses->ver_flags = sesf;
	ses->msg_id = cpu_to_be16(m->msg_id);
	ses->ri_gen_job = cpu_to_be32(FIELD_PREP(UET_SES_JOB, m->job));
	ses->pid_on_fep = cpu_to_be16(FIELD_PREP(UET_SES_PID, m->dst_ep));
	ses->initiator = cpu_to_be32(m->src_ep);
	if (s->off)
		ses->hdr_data =
			cpu_to_be64(FIELD_PREP(UET_SES_PAYLOAD_LEN, s->len) |
				    FIELD_PREP(UET_SES_MSG_OFF, s->off));
	ses->req_len = cpu_to_be32(m->buf->len);
}

/**
 * uet_tx_build() - build the packet of a slot
 * @pdc: the initiator PDC, locked
 * @psn: the slot's PSN
 * @s: the slot
 * @flags: UET_REQ_* flags besides SYN, which the PDC's state adds
 * @dst: the route it will take, or NULL
 *
 * The headers go in the linear part, the payload as page fragments of
 * the message's buffer, not copied: each fragment holds a reference to
 * its page, so the packet keeps its bytes however long it stays queued
 * (a qdisc, a slow path, the receiver's socket), after the message is
 * acknowledged or freed.  A retransmission builds its packet again from
 * the same pages.
 *
 * Return: a data packet (PDS request, SES standard request, payload), or
 * a CTRL NOP for a refused message; NULL when memory is short.
 */
VISIBLE_IF_KUNIT struct sk_buff *uet_tx_build(struct uet_pdc *pdc, u32 psn,
					      const struct uet_tx_slot *s,
					      u8 flags,
					      const struct dst_entry *dst)
{
	u32 room = uet_tx_headroom(dst);
	const struct uet_tx_msg *m = s->msg;
	struct sk_buff *skb;
	u16 dpdcid = pdc->rid;

	if (s->flags & UET_SLOT_NOP)
		return uet_tx_build_nop(pdc, psn, s, flags);
	skb = alloc_skb(room + UET_DATA_HDR_LEN, GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		return NULL;
	skb_reserve(skb, room);

	if (pdc->tx.syn) {
		flags |= UET_REQ_SYN;
		dpdcid = FIELD_PREP(UET_SYN_PSN_OFFSET, psn - pdc->tx.start_psn);
	}
	uet_tx_write_hdr(pdc, psn, s, flags, dpdcid,
			 skb_put(skb, UET_DATA_HDR_LEN));

	/* No copy: the payload is the message's pages, referenced. */
	if (uet_buf_skb_frags(m->buf, s->off, s->len, skb)) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_build);

static void uet_tx_queue_skb(struct uet_pdc *pdc, struct sk_buff *skb,
			     struct dst_entry *dst, const struct in6_addr *saddr,
			     u16 ev, bool frag, bool batch,
			     struct sk_buff_head *q)
{
	struct uet_skb_cb *cb = UET_SKB_CB(skb);

	cb->saddr = *saddr;
	cb->daddr = pdc->key.raddr;
	cb->dst = dst;
	cb->sport = htons(ev);
	/* ECN-capable, so that a congested switch marks rather than drops. */
	cb->tos = INET_ECN_ECT_0;
	cb->frag = frag;
	cb->batch = batch;
	__skb_queue_tail(q, skb);
}

/*
 * Build the packet of @s, routed by @dst with @room (uet_tx_room()), and
 * queue it; false when it could not be sent.
 */
static bool uet_tx_emit(struct uet_pdc *pdc, u32 psn, struct uet_tx_slot *s,
			struct dst_entry *dst, const struct in6_addr *saddr,
			u32 room, u8 flags, struct sk_buff_head *q)
{
	struct sk_buff *skb;

	if (!dst)
		return false;
	skb = uet_tx_build(pdc, psn, s, flags, dst);
	if (!skb) {
		dst_release(dst);
		uet_stat_inc(pdc->un, UET_STAT_TX_NOMEM);
		return false;
	}
	uet_tx_queue_skb(pdc, skb, dst, saddr, s->ev, skb->len > room,
			 skb->len <= room && !(s->flags & UET_SLOT_NOP), q);
	trace_uet_data_tx(pdc->lid, psn, s->ev, s->len, flags & UET_REQ_RETX);
	return true;
}

static void uet_tx_msg_maybe_done(struct uet_pdc *pdc, struct uet_tx_msg *m)
{
	if (m->inflight || !list_empty(&m->sq_node))
		return;
	list_del(&m->node);
	if (!m->err)
		uet_stat_inc(pdc->un, UET_STAT_TX_MSGS_DONE);
	uet_tx_msg_free(m);
}

/* Give a message up: no more of it is sent; its socket hears why. */
static void uet_tx_fail(struct uet_pdc *pdc, struct uet_tx_msg *m, int err)
{
	if (m->err)
		return;
	m->err = err;
	list_del_init(&m->sq_node);
	uet_stat_inc(pdc->un, UET_STAT_TX_MSGS_FAILED);
	uet_nl_notify_msg_failed(pdc, m, err);
	uet_sock_tx_error(m, &pdc->key.raddr, err);
}

/*
 * A packet of @lost could not get through: the receiver's PSN state now
 * has a hole the PDC cannot fill, so the PDC closes and every message on
 * it is given up (the others with ECONNRESET).
 */
static void uet_tx_give_up(struct uet_pdc *pdc, struct uet_tx_msg *lost,
			   int err)
{
	struct uet_tx_msg *m;

	pdc->dead = true;
	uet_tx_fail(pdc, lost, err);
	list_for_each_entry(m, &pdc->tx.msgs, node)
		uet_tx_fail(pdc, m, ECONNRESET);
}

/*
 * Watch the retransmission a timeout is about to make of @psn (struct
 * uet_tx_spur), if it is the PSN's first: after another, a duplicate
 * could not say which copy was not needed.
 */
static void uet_tx_spur_watch(struct uet_pdc *pdc, u32 psn,
			      const struct uet_tx_slot *s, bool timeout)
{
	struct uet_tx_spur *w = &pdc->tx.spur;

	w->sent_ns = s->retx || s->nores ? 0 : s->sent_ns;
	w->acked_ns = 0;
	w->cwnd = pdc->tx.nscc.cwnd;
	w->psn = psn;
	w->timeout = timeout;
}

/*
 * The same for a packet a loss rule resends, unless a watch still waits:
 * a batch of losses needs one, since a host that stalled delays the
 * batch's originals alike; a watch whose PSN was acknowledged more than
 * @rto ago will see no other copy's answer.
 */
static void uet_tx_spur_watch_idle(struct uet_pdc *pdc, u32 psn,
				   const struct uet_tx_slot *s, u64 now,
				   u64 rto)
{
	const struct uet_tx_spur *w = &pdc->tx.spur;

	if (!w->sent_ns || (w->acked_ns && now - w->acked_ns > rto))
		uet_tx_spur_watch(pdc, psn, s, false);
}

/*
 * The target had the watched PSN from its original: the retransmission
 * was spurious, and NSCC takes its reaction back.  When the original was
 * acknowledged first (@original_first) and the PDC's timeout resent it,
 * the resend gained nothing: the original's late ACK measured its RTT,
 * which the timeout stays above for the next UET_LATE_RTT_DECAY samples
 * or so (and its backoff ends), since a stall that long is likely to come
 * again (a VM's vCPU descheduled, an incast's queue).  Not otherwise: a
 * copy that came first delivered the PSN sooner than waiting would have,
 * and the timeout is also the loss rules' reorder window, which a queue
 * on one path would hold every real loss behind for as long (the
 * collective at 1.78 x its ideal against 1.19).
 */
static void uet_tx_spurious(struct uet_pdc *pdc, bool original_first)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	struct uet_tx_spur *w = &tx->spur;

	if (original_first && w->timeout) {
		s64 rtt = div_s64(w->acked_ns - w->sent_ns, NSEC_PER_USEC);

		rtt = clamp_t(s64, rtt, 1, U32_MAX / 8);
		tx->late_rtt_us = max_t(u32, tx->late_rtt_us, rtt);
		tx->rto_us = uet_tx_rto_base(pdc);
	}
	if (uet_tx_cc(pdc))
		uet_nscc_undo(&tx->nscc, &tx->nscc_p, w->cwnd);
	uet_stat_inc(pdc->un, UET_STAT_RETX_SPURIOUS);
	w->sent_ns = 0;
	w->acked_ns = 0;
}

/* Resend the packet of @s on a new entropy value; false if given up. */
static bool uet_tx_resend(struct uet_pdc *pdc, u32 psn, struct uet_tx_slot *s,
			  enum uet_stat why, u64 now, struct sk_buff_head *q)
{
	struct in6_addr saddr;
	struct dst_entry *dst;
	u32 room;

	/* resent once more: which copy arrives first says nothing now */
	if (unlikely(pdc->tx.spur.sent_ns) && psn == pdc->tx.spur.psn &&
	    (s->retx || s->nores))
		pdc->tx.spur.sent_ns = 0;
	if (s->flags & (UET_SLOT_HOLD | UET_SLOT_TRIM)) {
		if (s->nores >= UET_NORES_MAX) {
			uet_tx_give_up(pdc, s->msg, ENOBUFS);
			return false;
		}
		s->nores++;
	} else {
		if (s->retx >= pdc->max_retx &&
		    (s64)(now - pdc->tx.heard_ns) >= UET_GIVE_UP_SILENCE_NS) {
			uet_tx_give_up(pdc, s->msg,
				       pdc->tx.last_err ?: ETIMEDOUT);
			return false;
		}
		if (s->retx < U8_MAX)
			s->retx++;
	}
	s->flags &= ~(UET_SLOT_FB | UET_SLOT_HOLD | UET_SLOT_TO | UET_SLOT_TRIM |
		      UET_SLOT_HELD);
	uet_tx_ed_renew(pdc, psn);
	s->sent_ns = now;
	s->horizon = pdc->tx.snd_nxt;
	/* Resent whatever the window says: the window bounds new data. */
	if (!(s->flags & UET_SLOT_NOP)) {
		if (uet_tx_cc(pdc))
			uet_nscc_on_send(&pdc->tx.nscc, uet_tx_cc_bytes(s));
		if (uet_pdc_rccc(pdc))
			uet_rccc_on_resend(&pdc->tx.rccc, s->len);
	}
	dst = uet_tx_route_next(pdc, s, &saddr, &room);
	if (uet_tx_emit(pdc, psn, s, dst, &saddr, room,
			UET_REQ_RETX | UET_REQ_AR, q))
		uet_stat_inc(pdc->un, why);
	return true;
}

/*
 * With ack-delay, does anything wait for the ACK of a message's end that
 * the target would hold?  A sender short of send buffer; a PSN window or
 * congestion window half used, which the next message may need; credit
 * half spent, which comes back whole only once the ACK shows the PDC
 * quiet (uet_rccc_on_idle()).
 */
static bool uet_tx_ack_waited(const struct uet_pdc *pdc,
			      const struct uet_tx_msg *m)
{
	const struct uet_pdc_tx *tx = &pdc->tx;
	const struct uet_rccc_tx *r = &tx->rccc;

	return (u32)atomic_read(&uet_sk(m->sk)->wmem) >
	       (u32)READ_ONCE(m->sk->sk_sndbuf) / 2 ||
	       tx->snd_nxt - tx->snd_una > UET_PSN_WINDOW / 2 ||
	       (uet_pdc_nscc(pdc) &&
		tx->nscc.in_flight > (s64)(tx->nscc.cwnd / 2)) ||
	       (uet_pdc_rccc(pdc) &&
		(s32)(r->init + r->grant - r->sent) < (s32)(r->init / 2));
}

/* Should the packet just cut from @m ask for an ACK at once? */
static bool uet_tx_want_ack(const struct uet_pdc *pdc,
			    const struct uet_tx_msg *m, u32 psn)
{
	const struct uet_pdc_tx *tx = &pdc->tx;

	return psn == tx->start_psn ||
	       (m->sent == m->buf->len &&
		(!pdc->ack_delay_ns || uet_tx_ack_waited(pdc, m))) ||
	       /*
		* A full PSN window needs no ACK at once: the receiver ACKs
		* every UET_ACK_EVERY packets, and that frees most of it.
		* Asking would make each ACK draw a burst ending in an ACK,
		* an ACK for every few packets.  Early detection (REPS)
		* counts on the last packet sent asking (uet_tx_ed_at()).
		*/
	       (tx->snd_nxt - tx->snd_una == UET_PSN_WINDOW &&
		uet_tx_ed_ns(pdc)) ||
	       /* a congestion window may be too small for UET_ACK_EVERY */
	       (uet_pdc_nscc(pdc) &&
		tx->nscc.in_flight >= (s64)tx->nscc.cwnd) ||
	       /* nor may the credit, which comes in CREDITs, not ACKs */
	       (uet_pdc_rccc(pdc) && !uet_rccc_can_send(&tx->rccc));
}

/*
 * Is there credit (RCCC) for a new packet?  Running out with data queued
 * starts the wait that uet_tx_arm() repeats the request in.
 */
static bool uet_tx_credit_open(struct uet_pdc *pdc)
{
	struct uet_rccc_tx *r = &pdc->tx.rccc;

	if (!uet_pdc_rccc(pdc) || uet_rccc_can_send(r))
		return true;
	/*
	 * Asked again and again, and nothing in flight: a target that
	 * closed its PDC answers nothing.  One packet goes uncredited; its
	 * retransmissions end in an error to the sender if the target is
	 * gone, and its ACK or the next grant goes on otherwise.
	 */
	if (r->unanswered >= UET_RCCC_ASK_MAX &&
	    pdc->tx.snd_una == pdc->tx.snd_nxt)
		return true;
	if (!r->waiting) {
		r->waiting = true;
		uet_stat_inc(pdc->un, UET_STAT_RCCC_WAIT);
	}
	return false;
}

/* Does the congestion window let a new packet out, and the credit? */
static bool uet_tx_cc_open(struct uet_pdc *pdc)
{
	const struct uet_nscc *n = uet_tx_cc(pdc);

	if (n && n->in_flight >= (s64)n->cwnd)
		return false;
	return uet_tx_credit_open(pdc);
}

/*
 * The value a CREDIT_REQ goes on: the PDC's own, so that control traffic
 * keeps to one path, until a request gets nothing back (@again).  The
 * repeat then goes on the value of the packet that drew the last ACK, a
 * path that has just worked, and the requests after it stay there while
 * they are answered: the grant comes back on the value its request came
 * on (uet_rccc_req_rx()), so a failed path under the PDC's own value
 * would otherwise hold the credit back for as long as it is down.  Taking
 * the value from the spraying engine instead would spend a step of its
 * policy (a slot of rr's rotation, a recycled value of REPS) on a packet
 * that gives it no feedback.
 */
static u16 uet_tx_credit_ev(struct uet_pdc *pdc, bool again)
{
	struct uet_rccc_tx *r = &pdc->tx.rccc;

	if (again && r->acked_ev)
		r->ev = r->acked_ev;
	return r->ev ?: pdc->own_port;
}

/*
 * Ask the target for credit (RCCC): when more is queued than was granted
 * and asked for, or @again, to repeat a request that got no answer.  Until
 * the target has answered, the PDC has no id to name it by.
 */
static void uet_tx_credit_ask(struct uet_pdc *pdc, bool again,
			      struct sk_buff_head *q)
{
	struct uet_rccc_tx *r = &pdc->tx.rccc;

	if (!uet_pdc_rccc(pdc) || pdc->tx.syn ||
	    (!again && !uet_rccc_need(r)))
		return;
	r->asked = uet_rccc_req(r);
	uet_rccc_ctl_out(pdc, UET_CTRL_CREDIT_REQ, r->asked,
			 uet_tx_credit_ev(pdc, again), q);
}

/*
 * Cut and send packets while the window has room.  spray-burst packets
 * in a row go on one entropy value, which the engine chose for the first
 * (they then leave as one batch, uet_tx_batch()), and on its route, held
 * for the burst; a burst ends with the push, so that each starts from the
 * engine's latest feedback and a fresh route check.  Not under
 * reps: it recycles the values of ACKed packets into its cache and
 * explores only once the cache runs dry, so one step a burst would replay
 * a few values for good (measured: the fabric's 4 paths took 4/6/57/33%).
 * The clock is read once a push: its packets leave together, once it is
 * done.
 */
static void uet_tx_push(struct uet_pdc *pdc, struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 blen = uet_spray_type(pdc->spray) == UET_SPRAY_REPS ? 1 :
		   pdc->spray_burst;
	struct dst_entry *bdst = NULL;
	struct in6_addr bsaddr = {};
	u32 burst = 0, broom = 0;
	struct uet_tx_sp sp = {};
	bool sent = false;
	u64 now = 0;
	u16 ev = 0;

	/* uet_tx_sp_open() reads the configuration. */
	rcu_read_lock();
	while (!list_empty(&tx->sendq) &&
	       tx->snd_nxt - tx->snd_una < UET_PSN_WINDOW &&
	       uet_tx_cc_open(pdc)) {
		struct uet_tx_msg *m = list_first_entry(&tx->sendq,
							struct uet_tx_msg,
							sq_node);
		u32 psn = tx->snd_nxt, room = 0, seg;
		struct uet_tx_slot *s = uet_slot(pdc, psn);
		struct in6_addr saddr;
		struct dst_entry *dst;
		u8 flags = 0;

		if (burst) {
			burst--;
			s->ev = ev;
			dst = dst_clone(bdst);
			saddr = bsaddr;
			room = broom;
		} else {
			dst = uet_tx_route_next(pdc, s, &saddr, &room);
			ev = s->ev;
			burst = blen ? blen - 1 : 0;
			dst_release(bdst);
			bdst = burst ? dst_clone(dst) : NULL;
			bsaddr = saddr;
			broom = room;
		}
		if (!now)
			now = ktime_get_ns();
		seg = min3(pdc->mss, (u32)UET_SES_PAYLOAD_MAX,
			   m->buf->len - m->sent);
		if (dst && room > UET_DATA_HDR_LEN)
			seg = min_t(u32, seg, room - UET_DATA_HDR_LEN);
		/* The receiver takes whole granules but for the message's end. */
		if (seg < m->buf->len - m->sent)
			seg = min(max_t(u32, round_down(seg, UET_RX_GRAIN),
					UET_RX_GRAIN), m->buf->len - m->sent);

		s->msg = m;
		s->off = m->sent;
		s->len = seg;
		s->retx = 0;
		s->nores = 0;
		s->flags = 0;
		s->sent_ns = now;
		s->horizon = psn + 1;
		m->sent += seg;
		m->pkts++;
		m->inflight++;
		tx->snd_nxt++;
		if (m->sent == m->buf->len)
			list_del_init(&m->sq_node);
		if (uet_tx_cc(pdc))
			uet_nscc_on_send(&tx->nscc, uet_tx_cc_bytes(s));
		tx->rccc.sent += seg;
		if (uet_tx_want_ack(pdc, m, psn))
			flags |= UET_REQ_AR;
		else if (m->sent == m->buf->len)
			s->flags |= UET_SLOT_HELD;
		if (uet_tx_sp_join(pdc, &sp, psn, s, dst, &saddr, flags)) {
			uet_stat_inc(pdc->un, UET_STAT_TX_PKTS);
			uet_stat_add(pdc->un, UET_STAT_TX_BYTES, seg);
		} else if (uet_tx_emit(pdc, psn, s, dst, &saddr, room, flags,
				       q)) {
			uet_stat_inc(pdc->un, UET_STAT_TX_PKTS);
			uet_stat_add(pdc->un, UET_STAT_TX_BYTES, seg);
			uet_tx_sp_open(pdc, &sp, q, s, psn, dst);
		}
		sent = true;
	}
	rcu_read_unlock();
	dst_release(bdst);
	/* Data left waiting: held back, not application-limited. */
	if (!list_empty(&tx->sendq) && uet_tx_cc(pdc))
		uet_nscc_on_held(&tx->nscc);
	if (sent) {
		pdc->last_active = jiffies;
		uet_tx_arm(pdc, now, false);
	} else if (tx->rccc.waiting && !tx->rccc.ask_at) {
		/*
		 * The wait for credit started with nothing sent: on an idle
		 * PDC no packet's timer would repeat a lost request.
		 */
		uet_tx_arm(pdc, ktime_get_ns(), false);
	}
}

/* Queue @m on @pdc, locked and live, and send what the window allows. */
static void uet_tx_queue_msg(struct uet_pdc *pdc, struct uet_tx_msg *m,
			     struct sk_buff_head *q)
{
	m->msg_id = pdc->tx.next_msg_id++;
	if (list_empty(&pdc->tx.sendq) && pdc->tx.snd_una == pdc->tx.snd_nxt)
		uet_rccc_on_idle(&pdc->tx.rccc);
	list_add_tail(&m->node, &pdc->tx.msgs);
	list_add_tail(&m->sq_node, &pdc->tx.sendq);
	pdc->tx.rccc.queued += m->buf->len;
	uet_tx_push(pdc, q);
	uet_tx_credit_ask(pdc, false, q);
}

/**
 * uet_tx_send() - queue a message and send what the window allows
 * @un: the namespace
 * @m: the message; the PDC owns it on success
 * @laddr: local address (IPv4 as v4-mapped IPv6)
 * @raddr: remote address
 *
 * Finds the initiator PDC of (@laddr, @raddr, the message's job), or
 * creates it.  A PDC found closing is looked up again, a few times.
 *
 * Context: process (sendmsg()), may sleep.
 * Return: 0; -ENETUNREACH, -EHOSTUNREACH... when the message would open a
 * PDC and there is no route to @raddr; or the error of creating the PDC.
 */
int uet_tx_send(struct uet_net *un, struct uet_tx_msg *m,
		const struct in6_addr *laddr, const struct in6_addr *raddr)
{
	struct uet_pdc *pdc, *spare = NULL;
	struct uet_pdc_key key;
	struct sk_buff_head q;
	int tries, err = -EAGAIN;

	uet_pdc_key_init(&key, laddr, raddr, m->job, 0, UET_PDC_INITIATOR);
	__skb_queue_head_init(&q);
	for (tries = 0; tries < UET_TX_TRIES && err == -EAGAIN; tries++) {
		rcu_read_lock();
		pdc = uet_pdc_initiator_get(un, &key, &spare);
		err = PTR_ERR_OR_ZERO(pdc);
		if (!err) {
			bool drain = false;

			spin_lock_bh(&pdc->lock);
			err = pdc->dead ? -EAGAIN : 0;
			if (!err) {
				uet_tx_queue_msg(pdc, m, &q);
				drain = uet_tx_out(pdc, &q);
			}
			uet_pdc_unlock(pdc);
			if (drain)
				uet_tx_drain(pdc);
		}
		rcu_read_unlock();
		if (err == -EAGAIN && !spare) {
			/* A new PDC: refuse an unroutable peer now, not later. */
			err = uet_tx_route_check(un, laddr, raddr);
			if (!err) {
				spare = uet_pdc_alloc(un, &key,
						      GFP_KERNEL_ACCOUNT);
				err = spare ? -EAGAIN : -ENOMEM;
			}
		}
	}
	uet_pdc_free_unused(spare);
	return err;
}

/*
 * The transmission of @s, sent at its sent_ns, was acknowledged.  Only
 * when that copy is known: were it a copy sent before, a stall's late ACK
 * of the original would call lost everything sent before a spurious
 * timeout's resend.
 */
static void uet_tx_sent_acked(struct uet_pdc_tx *tx,
			      const struct uet_tx_slot *s)
{
	if ((s64)(s->sent_ns - tx->acked_sent_ns) > 0)
		tx->acked_sent_ns = s->sent_ns;
}

/* Slot @psn acknowledged: tell the engine, release the slot. */
static bool uet_tx_acked(struct uet_pdc *pdc, u32 psn,
			 enum uet_spray_event ev, u64 now, u32 *bytes)
{
	struct uet_tx_slot *s = uet_slot(pdc, psn);
	struct uet_tx_msg *m = s->msg;

	if (!m)
		return false;
	if (!(s->flags & UET_SLOT_NOP))
		*bytes += uet_tx_cc_bytes(s);
	/* sent once: the copy acknowledged is the one sent at sent_ns */
	if (!s->retx)
		uet_tx_sent_acked(&pdc->tx, s);
	if (unlikely(pdc->tx.spur.sent_ns) && psn == pdc->tx.spur.psn &&
	    !pdc->tx.spur.acked_ns)
		pdc->tx.spur.acked_ns = now;
	uet_tx_fb_once(pdc, s, ev, now);
	s->msg = NULL;
	m->inflight--;
	uet_tx_msg_maybe_done(pdc, m);
	return true;
}

static void uet_tx_advance(struct uet_pdc_tx *tx)
{
	while (tx->snd_una != tx->snd_nxt &&
	       !tx->ring[tx->snd_una % UET_PSN_WINDOW].msg)
		tx->snd_una++;
}

/**
 * uet_tx_rtt() - take an RTT sample of a data packet sent once
 * @pdc: the initiator PDC
 * @rtt_ns: the sample
 *
 * Updates the base RTT (the minimum), the smoothed RTT and its variation,
 * the decaying maximum, and sets the timeout back to its base (ending any
 * backoff).
 */
VISIBLE_IF_KUNIT void uet_tx_rtt(struct uet_pdc *pdc, u64 rtt_ns)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 r = clamp_t(u64, div_u64(rtt_ns, NSEC_PER_USEC), 1, U32_MAX / 8);
	u32 delta;

	tx->min_rtt_ns = min(tx->min_rtt_ns, rtt_ns);
	if (!tx->srtt_us) {
		tx->srtt_us = r;
		tx->rttvar_us = r / 2;
	} else {
		delta = tx->srtt_us > r ? tx->srtt_us - r : r - tx->srtt_us;
		tx->rttvar_us = (3 * tx->rttvar_us + delta) / 4;
		tx->srtt_us = (7 * tx->srtt_us + r) / 8;
	}
	/* A new maximum at once; below it, 1/64 of the way per sample. */
	if (r >= tx->rtt_max_us)
		tx->rtt_max_us = r;
	else
		tx->rtt_max_us -= (tx->rtt_max_us - r) / 64;
	tx->late_rtt_us -= DIV_ROUND_UP(tx->late_rtt_us, UET_LATE_RTT_DECAY);
	tx->rto_us = uet_tx_rto_base(pdc);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_rtt);

/**
 * uet_tx_backoff() - double the retransmission timeout, up to rto-max
 * @pdc: the initiator PDC
 *
 * Until the next RTT sample, after a timeout or a refusal.
 */
VISIBLE_IF_KUNIT void uet_tx_backoff(struct uet_pdc *pdc)
{
	pdc->tx.rto_us = min(pdc->tx.rto_us * 2, pdc->rto_max_us);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_tx_backoff);

/*
 * A NOP for a PSN that a target without a PDC refused: nothing can name
 * that target yet, so it is not sent, nor counted against max-retx, until
 * an answer from a PDC of the target comes (a SYN of a later message opens
 * one, which expects every PSN from the start).  Until then the PDC may
 * close (uet_tx_quiet()): the target holds nothing of it.
 */
static bool uet_tx_unnamed(const struct uet_pdc *pdc,
			   const struct uet_tx_slot *s)
{
	return pdc->tx.syn && (s->flags & UET_SLOT_NOP);
}

/*
 * The transmissions that timed out on their own: each reports a timeout
 * for its own value, so that a failed path leaves the rotation about one
 * timeout after it failed, not one value per PDC timeout; and each is
 * lost, and sent again.  The PDC's timeout restarts on every ACK that
 * acknowledges something, so behind a hole with fewer than
 * sack-retx-thresh packets sent after it (a small window, a message's
 * tail) nothing else would resend it while the rest flows.  A resent copy
 * lost again is out of PSN order: its SACK gap or the PDC's timeout
 * finds it.
 */
static void uet_tx_lost(struct uet_pdc *pdc, u64 now, struct sk_buff_head *q)
{
	u64 rto = uet_tx_reorder_ns(pdc);
	u32 p;

	while (uet_tx_to_due(pdc, now, rto, &p)) {
		struct uet_tx_slot *s = uet_slot(pdc, p);

		/*
		 * Sets UET_SLOT_TO: the cursor moves past an unnamed NOP.
		 * Lost with everything sent after it, the value is not to
		 * blame.
		 */
		if (uet_tx_overtaken_psn(&pdc->tx, s))
			uet_tx_fb_timeout(pdc, s, now);
		else
			s->flags |= UET_SLOT_TO;
		if (uet_tx_unnamed(pdc, s))
			continue;
		uet_tx_spur_watch_idle(pdc, p, s, now, rto);
		uet_tx_cc_loss(pdc, s, now);
		if (!uet_tx_resend(pdc, p, s, UET_STAT_RETX_SACK, now, q))
			return;
	}
}

/*
 * Resend what a SACK gap shows lost: sack-retx-thresh PSNs sent after the
 * packet's last transmission acknowledged, and the packet out long enough.
 */
static void uet_tx_sack_loss(struct uet_pdc *pdc, u64 now,
			     struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 hi = tx->high_acked, thresh = pdc->sack_thresh, p, n;
	u64 reorder = uet_tx_reorder_ns(pdc);

	for (p = tx->snd_una, n = 0;
	     n < UET_SACK_BITS && (s32)(hi - p) >= (s32)thresh; p++, n++) {
		struct uet_tx_slot *s = uet_slot(pdc, p);

		if (!s->msg || (s->flags & UET_SLOT_HOLD) ||
		    (s32)(hi - s->horizon) + 1 < (s32)thresh ||
		    now - s->sent_ns < reorder)
			continue;
		/* Out for a timeout, and overtaken: it timed out too. */
		uet_tx_spur_watch_idle(pdc, p, s, now, reorder);
		uet_tx_fb_timeout(pdc, s, now);
		uet_tx_fb(pdc, s, UET_SPRAY_EV_SACK_LOSS, now);
		uet_tx_cc_loss(pdc, s, now);
		if (!uet_tx_resend(pdc, p, s, UET_STAT_RETX_SACK, now, q))
			return;
	}
}

static void uet_tx_learn_rid(struct uet_pdc *pdc, u16 rid)
{
	if (pdc->tx.syn && rid) {
		pdc->rid = rid;
		pdc->tx.syn = false;
		pdc->tx.refused = 0;
	}
}

/*
 * Was @psn sent?  PSNs before the PDC's start, from snd_nxt on, and more
 * than a window before the oldest unacknowledged one were not (or not
 * lately: no answer to them can still be on its way).
 */
static bool uet_tx_sent(const struct uet_pdc_tx *tx, u32 psn)
{
	u32 span = tx->snd_nxt - tx->snd_una + UET_PSN_WINDOW;
	u32 since = tx->snd_nxt - tx->start_psn;

	/*
	 * The start bounds a young PDC.  2^32 PSNs on, the distance from it
	 * wraps to less than what is in flight, and bounds nothing.
	 */
	if (since >= tx->snd_nxt - tx->snd_una && since < span)
		span = since;
	return tx->snd_nxt - psn - 1 < span;
}

/**
 * uet_tx_ack_valid() - could the peer have sent this ACK?
 * @pdc: the initiator PDC, locked
 * @a: the ACK, parsed
 *
 * Its cumulative ACK and the PSNs its SACK bitmap marks must have been
 * sent: an ACK for anything else is forged (or from another incarnation)
 * and must change nothing.
 *
 * Return: true when valid.
 */
bool uet_tx_ack_valid(const struct uet_pdc *pdc, const struct uet_ack_info *a)
{
	const struct uet_pdc_tx *tx = &pdc->tx;

	if (a->cack + 1 != tx->snd_nxt && !uet_tx_sent(tx, a->cack + 1))
		return false;
	return !a->cc || !a->bitmap ||
	       uet_tx_sent(tx, a->sack_base + fls64(a->bitmap) - 1);
}

/**
 * uet_tx_nack_valid() - could the peer have sent this NACK?
 * @pdc: the initiator PDC, locked
 * @n: the NACK, parsed
 *
 * Its PSN must have been sent.  A target without a PDC (id 0) NACKs a
 * trimmed packet with SYN, and refuses a SYN to an unbound endpoint
 * (fatal), which only a PDC that has not heard from its target yet can
 * be waiting for.
 *
 * Return: true when valid.
 */
bool uet_tx_nack_valid(const struct uet_pdc *pdc, const struct uet_nack_info *n)
{
	if (!uet_tx_sent(&pdc->tx, n->psn))
		return false;
	if (n->spdcid)
		return true;
	switch (n->code) {
	case UET_NACK_TRIMMED:
	case UET_NACK_TRIMMED_LASTHOP:
		return true;
	case UET_NACK_FATAL:
		return pdc->tx.syn;
	default:
		return false;
	}
}

/*
 * NSCC's part of an ACK: the bytes the receiver reports (or, from a target
 * that reports none, those of the PSNs this ACK acknowledged: @slot_bytes),
 * the RTT sample of its trigger (@rtt_ns, 0 for none, already less the
 * target's service time), and its ECN echo.  With nothing left in flight, the
 * in-flight count is set back to 0: a packet timed out that arrived after
 * all, or one the receiver never reported, cannot skew it for longer.
 */
static void uet_tx_cc_ack(struct uet_pdc *pdc, const struct uet_ack_info *a,
			  u32 slot_bytes, u64 rtt_ns, u64 now)
{
	struct uet_nscc *n = uet_tx_cc(pdc);
	bool ecn = a->flags & UET_ACK_M;
	enum uet_nscc_action act;
	u32 acked = slot_bytes;

	if (!n)
		return;
	if (a->cc && a->cc_type == UET_ACK_CC_NSCC) {
		acked = uet_nscc_rcvd_bytes(n, FIELD_GET(UET_NSCC_RCVD_BYTES,
							 a->cc_state),
					    slot_bytes);
	} else {
		n->rcvd_rebase = true;
	}
	act = uet_nscc_on_ack(n, &pdc->tx.nscc_p, acked, rtt_ns, ecn, now);
	if (pdc->tx.snd_una == pdc->tx.snd_nxt)
		n->in_flight = 0;
	uet_tx_cc_note(pdc, act, rtt_ns ? rtt_ns - n->base_rtt_ns :
				 uet_nscc_avg_delay_ns(n), ecn);
}

/* How long the target says it held an ACK (Service_Time), ns. */
static u64 uet_tx_ack_service_ns(const struct uet_ack_info *a)
{
	if (!a->cc || a->cc_type != UET_ACK_CC_NSCC)
		return 0;
	return FIELD_GET(UET_NSCC_SERVICE_TIME, a->cc_state) *
	       UET_NSCC_SERVICE_NS;
}

/*
 * The RTT an ACK (a probe's answer too) measures, out for @out_ns: less
 * the time the target held it.  0, no sample, when the target claims to
 * have held it for the whole round trip or more.
 */
static u64 uet_tx_ack_rtt(const struct uet_ack_info *a, u64 out_ns)
{
	u64 service = uet_tx_ack_service_ns(a);

	return out_ns > service ? out_ns - service : 0;
}

/*
 * Once the watched PSN is acknowledged, an ACK naming it answers another
 * copy: a resent one (RETX) that came after the original, or the original
 * after its resent copy.  An ACK naming the PSN that ends its cumulative
 * range may be the target's answer to a control packet instead, which
 * proves nothing.
 */
static void uet_tx_spur_check(struct uet_pdc *pdc, const struct uet_ack_info *a)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	if (likely(!tx->spur.acked_ns) || a->trigger != tx->spur.psn ||
	    !uet_tx_sent(tx, a->trigger))
		return;
	if (a->flags & UET_ACK_RETX)
		uet_tx_spurious(pdc, true);
	else if (uet_psn_before(a->trigger, a->cack))
		uet_tx_spurious(pdc, false);
}

/**
 * uet_tx_ack() - process an ACK or ACK_CC
 * @pdc: the initiator PDC, locked and live
 * @a: the ACK, parsed, checked by uet_tx_ack_valid()
 * @q: packets to send after unlocking
 *
 * Context: softirq.
 */
void uet_tx_ack(struct uet_pdc *pdc, const struct uet_ack_info *a,
		struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u64 now = ktime_get_ns();
	u32 p, i, hi, bytes = 0;
	struct uet_tx_slot *s;
	bool progress = false;
	u64 rtt = 0;

	uet_tx_learn_rid(pdc, a->spdcid);
	pdc->last_active = jiffies;
	tx->heard_ns = now;
	hi = a->cack;

	uet_tx_spur_check(pdc, a);

	if (uet_tx_in_flight(tx, a->trigger)) {
		s = uet_slot(pdc, a->trigger);
		/* its packet has just come through: a path that works */
		if (s->msg)
			tx->rccc.acked_ev = s->ev;
		/* the target names the copy: a resent one */
		if (s->msg && (a->flags & UET_ACK_RETX))
			uet_tx_sent_acked(tx, s);
		if (s->msg && !s->retx && !(a->flags & UET_ACK_RETX)) {
			rtt = uet_tx_ack_rtt(a, now - s->sent_ns);
			if (rtt)
				uet_tx_rtt(pdc, rtt);
		}
		progress |= uet_tx_acked(pdc, a->trigger, a->flags & UET_ACK_M ?
					 UET_SPRAY_EV_ACK_ECN :
					 UET_SPRAY_EV_ACK, now, &bytes);
		if (uet_psn_before(hi, a->trigger))
			hi = a->trigger;
	}
	for (p = tx->snd_una; uet_psn_before(p, a->cack + 1); p++)
		progress |= uet_tx_acked(pdc, p, UET_SPRAY_EV_ACK, now, &bytes);
	for (i = 0; a->cc && i < UET_SACK_BITS; i++) {
		p = a->sack_base + i;
		if (!(a->bitmap & BIT_ULL(i)) || !uet_tx_in_flight(tx, p))
			continue;
		progress |= uet_tx_acked(pdc, p, UET_SPRAY_EV_ACK, now, &bytes);
		if (uet_psn_before(hi, p))
			hi = p;
	}
	if (uet_psn_before(tx->high_acked, hi))
		tx->high_acked = hi;
	uet_tx_advance(tx);
	uet_tx_cc_ack(pdc, a, bytes, rtt, now);

	uet_tx_lost(pdc, now, q);
	if (pdc->dead)
		return;
	uet_tx_sack_loss(pdc, now, q);
	if (pdc->dead)
		return;
	uet_tx_push(pdc, q);
	/* the first answer gives the target's id that a request needs */
	uet_tx_credit_ask(pdc, false, q);
	uet_tx_arm(pdc, now, progress);
}

/**
 * uet_tx_credit() - a CREDIT arrived for an initiator PDC (RCCC)
 * @pdc: the PDC, locked and live, its target known
 * @grant: the target's cumulative grant, bytes
 * @q: where packets go, sent once the lock is dropped
 *
 * Context: softirq.
 */
void uet_tx_credit(struct uet_pdc *pdc, u32 grant, struct sk_buff_head *q)
{
	struct uet_rccc_tx *r = &pdc->tx.rccc;
	u64 now = ktime_get_ns();

	if (!uet_pdc_rccc(pdc))
		return;
	/* any CREDIT, a new grant or not, says that the target is there */
	r->unanswered = 0;
	if (!uet_rccc_on_grant(r, grant))
		return;
	uet_stat_inc(pdc->un, UET_STAT_RCCC_CREDIT_RX);
	pdc->last_active = jiffies;
	pdc->tx.heard_ns = now;
	if (r->waiting)
		uet_rccc_on_wait_end(r, now - r->wait_from);
	r->waiting = false;
	r->ask_at = 0;
	r->repeats = 0;
	uet_tx_push(pdc, q);
	uet_tx_arm(pdc, now, false);
}

static int uet_tx_rc_errno(u32 rc)
{
	return rc == UET_RC_TOO_LONG ? -EMSGSIZE : -ECONNREFUSED;
}

/*
 * Count every NACK from the peer, also one for a PSN already acknowledged
 * through another copy (a timeout retransmission): the counters are to
 * match what the receiver sent.
 */
static void uet_tx_nack_count(struct uet_pdc *pdc, u8 code)
{
	switch (code) {
	case UET_NACK_TRIMMED:
	case UET_NACK_TRIMMED_LASTHOP:
		uet_stat_inc(pdc->un, UET_STAT_NACK_RX_TRIMMED);
		break;
	case UET_NACK_NO_RESOURCE:
	case UET_NACK_NO_PKT_BUF:
		uet_stat_inc(pdc->un, UET_STAT_NACK_RX_NORES);
		break;
	case UET_NACK_PSN_OOR_WINDOW:
		uet_stat_inc(pdc->un, UET_STAT_NACK_RX_OOR);
		break;
	case UET_NACK_FATAL:
		uet_stat_inc(pdc->un, UET_STAT_NACK_RX_FATAL);
		break;
	}
}

/*
 * The target refused a PSN of @pdc before naming a PDC.  Once it has
 * refused every PSN in flight it holds no state of this PDC (a SYN it
 * took would have drawn an answer, or still be in flight), and nothing
 * needs the NOPs that would fill them: the PDC starts over at snd_nxt as
 * a new one would, its window, congestion window and initial credit
 * whole.  Otherwise messages refused while the target's endpoint was
 * not there (a client retrying until its server is up) would fill the
 * window with NOPs that no PDC can take, and hold every later message
 * queued for good.
 */
static void uet_tx_refused(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	struct uet_tx_msg *m;
	u32 p, unsent = 0;

	if (++tx->refused != tx->snd_nxt - tx->snd_una)
		return;
	for (p = tx->snd_una; p != tx->snd_nxt; p++) {
		struct uet_tx_slot *s = uet_slot(pdc, p);

		m = s->msg;
		if (!m)
			continue;
		s->msg = NULL;
		m->inflight--;
		uet_tx_msg_maybe_done(pdc, m);
	}
	list_for_each_entry(m, &tx->sendq, sq_node)
		unsent += m->buf->len - m->sent;
	tx->refused = 0;
	uet_tx_pdc_start(pdc, tx->snd_nxt);
	if (uet_pdc_rccc(pdc)) {
		tx->rccc.queued = unsent;
		tx->rccc.asked = uet_rccc_req(&tx->rccc);
	}
}

/**
 * uet_tx_nack() - process a NACK
 * @pdc: the initiator PDC, locked and live
 * @n: the NACK, parsed
 * @q: packets to send after unlocking
 *
 * A trimmed packet is resent at once; a packet refused for want of
 * resources or outside the window is held for a retransmission timeout
 * (backed off); a fatal NACK gives its message up.
 *
 * Context: softirq.
 */
void uet_tx_nack(struct uet_pdc *pdc, const struct uet_nack_info *n,
		 struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u64 now = ktime_get_ns();
	struct uet_tx_slot *s;

	uet_tx_learn_rid(pdc, n->spdcid);
	uet_tx_nack_count(pdc, n->code);
	if (n->code == UET_NACK_TRIMMED || n->code == UET_NACK_TRIMMED_LASTHOP)
		uet_tx_fb_trim(pdc, n, now);
	if (!uet_tx_in_flight(tx, n->psn))
		return;
	s = uet_slot(pdc, n->psn);
	if (!s->msg)
		return;
	pdc->last_active = jiffies;
	tx->heard_ns = now;

	switch (n->code) {
	case UET_NACK_TRIMMED:
	case UET_NACK_TRIMMED_LASTHOP:
		/* Congestion, not loss: not counted against max-retx. */
		if (uet_tx_cc(pdc) && !(s->flags & UET_SLOT_NOP))
			uet_tx_cc_note(pdc,
				       uet_nscc_on_trim(&tx->nscc, &tx->nscc_p,
							uet_tx_cc_bytes(s),
							n->code ==
							UET_NACK_TRIMMED_LASTHOP,
							now),
				       0, true);
		s->flags |= UET_SLOT_TRIM;
		if (!uet_tx_resend(pdc, n->psn, s, UET_STAT_RETX_NACK, now, q))
			return;
		break;
	case UET_NACK_NO_RESOURCE:
	case UET_NACK_NO_PKT_BUF:
	case UET_NACK_PSN_OOR_WINDOW:
		uet_tx_fb_once(pdc, s, UET_SPRAY_EV_NACK, now);
		s->flags |= UET_SLOT_HOLD;
		s->sent_ns = now;
		uet_tx_backoff(pdc);
		break;
	case UET_NACK_FATAL:
		uet_tx_fb_once(pdc, s, UET_SPRAY_EV_NACK, now);
		uet_tx_fail(pdc, s->msg, -uet_tx_rc_errno(n->payload));
		/*
		 * The receiver did not take the PSN: fill it with a NOP.  Were
		 * this NACK lost, the data would be resent and refused again.
		 * A target that refused a SYN has no PDC to name: the NOP
		 * waits for the first answer that names one (uet_tx_unnamed()).
		 */
		if (!(s->flags & UET_SLOT_NOP)) {
			s->flags |= UET_SLOT_NOP;
			s->retx = 0;
			if (pdc->tx.syn)
				uet_tx_refused(pdc);
			else if (!uet_tx_resend(pdc, n->psn, s,
						UET_STAT_RETX_NACK, now, q))
				return;
		}
		break;
	default:
		return;
	}
	uet_tx_push(pdc, q);
	uet_tx_arm(pdc, now, false);
}

/**
 * uet_tx_pmtu() - an ICMP error says a data packet of the PDC was too big
 * @pdc: the initiator PDC, locked and live
 * @psn: the PSN of the packet the error quotes
 * @mtu: the path MTU the error reports (bytes of IP packet), raised to
 *	the family's minimum by the caller
 * @q: packets to send after unlocking
 *
 * Only an error about a data packet in flight and larger than @mtu
 * counts: a sender off the path must guess the PDC id and a PSN in
 * flight, as it must guess a sequence number in the window for TCP to
 * take an ICMP error.  The PDC's path MTU goes down to @mtu, never up (a
 * new PDC starts again from the route's MTU), and every packet cut from
 * then on fits it, whichever path it takes.  The packet quoted was
 * dropped where the error came from: it is resent at once, without DF
 * (IPv4) or in fragments (IPv6), and like a trimmed packet not counted
 * against max-retx: the path did not fail.
 *
 * Context: softirq.
 * Return: false when the error names no such packet: nothing changed.
 */
bool uet_tx_pmtu(struct uet_pdc *pdc, u32 psn, u32 mtu,
		 struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	struct uet_tx_slot *s;
	u64 now;

	if (!uet_tx_in_flight(tx, psn))
		return false;
	s = uet_slot(pdc, psn);
	if (!s->msg || (s->flags & UET_SLOT_NOP) ||
	    uet_tx_ip_udp_len(pdc) + UET_DATA_HDR_LEN + s->len <= mtu)
		return false;
	/* Room for one granule of payload at least; less goes in fragments. */
	mtu = max_t(u32, mtu, uet_tx_ip_udp_len(pdc) + UET_DATA_HDR_LEN +
			      UET_RX_GRAIN);
	if (!tx->pmtu || mtu < tx->pmtu) {
		tx->pmtu = mtu;
		uet_stat_inc(pdc->un, UET_STAT_PMTU_UPDATE);
	}
	now = ktime_get_ns();
	/* Dropped where the error came from, no congestion signal. */
	if (uet_tx_cc(pdc))
		uet_nscc_on_nack(&tx->nscc, uet_tx_cc_bytes(s));
	s->flags |= UET_SLOT_TRIM;
	if (!uet_tx_resend(pdc, psn, s, UET_STAT_RETX_PMTU, now, q))
		return true;
	uet_tx_push(pdc, q);
	uet_tx_arm(pdc, now, false);
	return true;
}

/**
 * uet_tx_probe_ack() - a probe sent on an entropy value was answered
 * @pdc: the initiator PDC, locked and live
 * @ev: the value probed (the answer's UDP source port)
 * @a: the answer: an ACK with P
 *
 * The value is usable again.  When the answer names a probe this PDC
 * still has the send time of, the round trip less the target's service
 * time is an RTT sample that may lower the base RTT (not the smoothed
 * RTT: a probe does not queue behind data).
 *
 * Context: softirq.
 */
void uet_tx_probe_ack(struct uet_pdc *pdc, u16 ev, const struct uet_ack_info *a)
{
	struct uet_probe_rec *r = &pdc->tx.probes[a->opaque % UET_PROBE_SLOTS];
	u64 now = ktime_get_ns(), rtt = 0;

	if (r->sent_ns && r->id == a->opaque && r->ev == ev) {
		rtt = uet_tx_ack_rtt(a, now - r->sent_ns);
		r->sent_ns = 0;
		/* early-detection deadlines, from the base RTT, come sooner */
		if (rtt && rtt < pdc->tx.min_rtt_ns) {
			pdc->tx.min_rtt_ns = rtt;
			uet_tx_arm(pdc, now, false);
		}
	}
	trace_uet_probe_answered(pdc->lid, ev, a->opaque, rtt,
				 uet_tx_ack_service_ns(a));
	uet_tx_spray_note(pdc, ev,
			  uet_spray_feedback(pdc->spray, UET_SPRAY_EV_PROBE_RESP,
					     ev, now));
}

/* Report each transmission whose early-detection deadline passed (REPS). */
static void uet_tx_early(struct uet_pdc *pdc, u64 now)
{
	u64 ed = uet_tx_ed_ns(pdc);
	u32 p;

	if (!ed)
		return;
	while (uet_tx_ed_due(pdc, now, ed, &p)) {
		struct uet_tx_slot *s = uet_slot(pdc, p);

		s->flags |= UET_SLOT_ED;
		uet_tx_fb(pdc, s, UET_SPRAY_EV_EARLY_DEADLINE, now);
	}
}

/**
 * uet_tx_quiet() - has an initiator PDC nothing left to deliver?
 * @pdc: the PDC, locked
 *
 * No message left, or, while its target has not named a PDC, only
 * messages given up, whose PSNs wait for that name (uet_tx_unnamed()).
 *
 * Return: true when the PDC may close once idle.
 */
bool uet_tx_quiet(const struct uet_pdc *pdc)
{
	const struct uet_tx_msg *m;

	if (!pdc->tx.syn)
		return list_empty(&pdc->tx.msgs);
	list_for_each_entry(m, &pdc->tx.msgs, node)
		if (!m->err)
			return false;
	return true;
}

/*
 * No progress for a retransmission timeout: resend the oldest packet (the
 * others come back through their own timeouts and SACK gaps) and every
 * packet the receiver refused for want of resources, then back off.  An
 * oldest packet resent since, as lost, is not late yet: the timeout then
 * runs from that transmission, without backoff.
 */
static void uet_tx_timeout(struct uet_pdc *pdc, u64 now,
			   struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	bool oldest = true;
	u32 p;

	for (p = tx->snd_una; p != tx->snd_nxt; p++) {
		struct uet_tx_slot *s = uet_slot(pdc, p);

		if (!s->msg || uet_tx_unnamed(pdc, s))
			continue;
		if (s->flags & UET_SLOT_HOLD) {
			if (!uet_tx_resend(pdc, p, s, UET_STAT_RETX_NACK, now,
					   q))
				return;
		} else if (oldest) {
			oldest = false;
			/*
			 * Resent as lost (uet_tx_lost()) since the timeout
			 * started: its answer is not late yet.
			 */
			if (!uet_tx_out_for(s, now, uet_tx_rto_ns(pdc))) {
				tx->rto_at = s->sent_ns + uet_tx_rto_ns(pdc);
				return;
			}
			uet_tx_spur_watch(pdc, p, s, true);
			uet_tx_fb_timeout(pdc, s, now);
			uet_tx_cc_loss(pdc, s, now);
			if (!uet_tx_resend(pdc, p, s, UET_STAT_RETX_TIMEOUT,
					   now, q))
				return;
		}
	}
	uet_tx_backoff(pdc);
	tx->rto_at = now + uet_tx_rto_ns(pdc);
}

/*
 * The bad value to probe next; none gives the prober's role up.  A value
 * made bad by another PDC of the group while we were giving it up, seen
 * after the barrier, makes us take it again (see uet_tx_prober()).
 */
static bool uet_tx_probe_value(struct uet_pdc *pdc, u16 *ev)
{
	struct uet_dest *d = pdc->dest;

	if (uet_spray_probe_next(pdc->spray, ev))
		return true;
	if (!d)
		return false;
	WRITE_ONCE(d->prober, NULL);
	/* Pairs with uet_tx_prober(): the role is free before we look again. */
	smp_mb();
	return uet_spray_probe_next(pdc->spray, ev) && uet_tx_prober(pdc);
}

/*
 * Probe the next value the engine holds bad (in turn, one per probe
 * period and destination): a CTRL PROBE sent on that value, answered by
 * an ACK with P.  Until the target has answered anything, the PDC has no
 * id to name it by and only keeps the period going.
 */
static void uet_tx_probe(struct uet_pdc *pdc, u64 now, struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	struct uet_probe_rec *r;
	struct uet_pds_ctrl *c;
	struct sk_buff *skb;
	u16 ev;

	tx->probe_at = 0;
	if (tx->syn) {
		tx->probe_at = now + pdc->probe_period_ns;
		return;
	}
	if (!uet_tx_probe_value(pdc, &ev))
		return;
	tx->probe_at = now + pdc->probe_period_ns;
	skb = uet_ctl_skb(pdc, sizeof(*c), ev);
	if (!skb) {
		uet_stat_inc(pdc->un, UET_STAT_TX_NOMEM);
		return;
	}
	r = &tx->probes[tx->probe_id % UET_PROBE_SLOTS];
	r->id = tx->probe_id++;
	r->ev = ev;
	r->sent_ns = now;
	c = (struct uet_pds_ctrl *)skb->data;
	c->prologue = uet_prologue(UET_PDS_CTRL, UET_CTRL_PROBE, 0);
	c->opaque = cpu_to_be16(r->id);
	c->psn = cpu_to_be32(tx->snd_nxt);
	c->spdcid = cpu_to_be16(pdc->lid);
	c->dpdcid = cpu_to_be16(pdc->rid);
	c->payload = cpu_to_be32(tx->snd_una);
	__skb_queue_tail(q, skb);
	uet_stat_inc(pdc->un, UET_STAT_PROBE_TX);
	trace_uet_probe_tx(pdc->lid, ev, r->id);
}

/**
 * uet_tx_probe_kick() - make a PDC its destination's prober
 * @pdc: an initiator PDC of the destination, not locked
 *
 * The prober was freed: this PDC takes over, and gives the role up at
 * its first probe time if nothing is bad.
 *
 * Context: uet_net.pdc_lock held (the destination's PDC list).
 * Return: false when @pdc is closing and cannot.
 */
bool uet_tx_probe_kick(struct uet_pdc *pdc)
{
	u64 now = ktime_get_ns();
	bool ok;

	spin_lock_bh(&pdc->lock);
	ok = !pdc->dead;
	if (ok) {
		uet_tx_probe_start(pdc, now);
		uet_tx_arm(pdc, now, false);
	}
	spin_unlock_bh(&pdc->lock);
	return ok;
}

/* Deadlines passed: early detection, the PDC's timeout, lost packets. */
static void uet_tx_expire_loss(struct uet_pdc *pdc, u64 now,
			       struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	uet_tx_early(pdc, now);
	/* the PDC's timeout first: what it resends is not due any more */
	if (tx->rto_at && now >= tx->rto_at)
		uet_tx_timeout(pdc, now, q);
	if (!pdc->dead)
		uet_tx_lost(pdc, now, q);
	if (pdc->dead)
		return;
	/* A loss took bytes out of flight: the window may have room. */
	if (uet_tx_cc(pdc))
		uet_tx_push(pdc, q);
}

/*
 * The timer, due at @due, fired: deadlines passed, a timeout, a probe
 * due; re-arm.
 */
static void uet_tx_expire(struct uet_pdc *pdc, u64 due, struct sk_buff_head *q)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u64 now = ktime_get_ns();

	if (!uet_tx_late(pdc, now, due)) {
		uet_tx_expire_loss(pdc, now, q);
		if (pdc->dead)
			return;
	}
	if (tx->probe_at && now >= tx->probe_at)
		uet_tx_probe(pdc, now, q);
	/* Waiting far longer than grants take: a request or answer was lost. */
	if (tx->rccc.ask_at && now >= tx->rccc.ask_at) {
		uet_tx_credit_ask(pdc, true, q);
		tx->rccc.ask_at = now + uet_tx_ask_ns(pdc);
		if (tx->rccc.unanswered < U8_MAX)
			tx->rccc.unanswered++;
		if (tx->rccc.repeats < U8_MAX)
			tx->rccc.repeats++;
		uet_tx_push(pdc, q);
	}
	uet_tx_arm(pdc, now, false);
}

/* A task left a PDC's queue to its work item (uet_tx_drain()), owned. */
static void uet_tx_xmit_work(struct work_struct *work)
{
	struct uet_pdc *pdc = container_of(work, struct uet_pdc, tx.xmit_work);

	/* uet_tx_pdc_release() cancels this work before the PDC is freed. */
	rcu_read_lock();
	uet_tx_drain(pdc);
	rcu_read_unlock();
}

static enum hrtimer_restart uet_tx_timer(struct hrtimer *t)
{
	struct uet_pdc *pdc = container_of(t, struct uet_pdc, tx.timer);
	struct sk_buff_head q;
	bool drain = false;

	/* The reaper cancels this timer before the PDC is freed. */
	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (!pdc->dead) {
		uet_tx_expire(pdc, hrtimer_get_expires_ns(t), &q);
		drain = uet_tx_out(pdc, &q);
	}
	uet_pdc_unlock(pdc);
	if (drain)
		uet_tx_drain(pdc);
	return HRTIMER_NORESTART;
}

/**
 * uet_tx_pdc_init() - set up the sending side of a new initiator PDC
 * @pdc: the PDC, not yet published
 */
void uet_tx_pdc_init(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	INIT_LIST_HEAD(&tx->msgs);
	INIT_LIST_HEAD(&tx->sendq);
	__skb_queue_head_init(&tx->txq);
	hrtimer_init(&tx->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	tx->timer.function = uet_tx_timer;
	INIT_WORK(&tx->xmit_work, uet_tx_xmit_work);
	tx->min_rtt_ns = U64_MAX;
	tx->syn = true;
}

/*
 * NSCC's constants from the configuration snapshot: the link rate and
 * base RTT as configured, a full packet of mss bytes, trimming assumed
 * (the target 3/4 of the base RTT) unless a target is configured.
 */
static void uet_tx_cc_start(struct uet_pdc *pdc)
{
	struct uet_nscc_params *p = &pdc->tx.nscc_p;

	if (uet_pdc_rccc(pdc))
		uet_rccc_tx_init(&pdc->tx.rccc,
				 uet_rccc_init_credit(pdc->link_rate_mbps,
						      pdc->base_rtt_ns,
						      pdc->mss));
	if (!uet_pdc_nscc(pdc))
		return;
	uet_nscc_params_init(p, pdc->link_rate_mbps, pdc->base_rtt_ns,
			     uet_cc_wire_bytes(pdc->mss), true);
	p->rccc = uet_pdc_rccc(pdc);
	if (pdc->cc_target_ns) {
		/* at most 1 s: 4 s still fits a u32 */
		p->target_qdelay_ns = pdc->cc_target_ns;
		p->qa_delay_ns = 4 * pdc->cc_target_ns;
	}
	/* The configuration's bounds keep them valid; never run without. */
	if (WARN_ON_ONCE(uet_nscc_params_valid(p))) {
		pdc->cc = uet_pdc_rccc(pdc) ? UET_CC_RCCC : UET_CC_NONE;
		return;
	}
	uet_nscc_init(&pdc->tx.nscc, p, ktime_get_ns());
}

/**
 * uet_tx_pdc_start() - set the PSNs and timeout of a new initiator PDC
 * @pdc: the PDC, being published (configuration snapshot taken)
 * @start_psn: its start PSN
 */
void uet_tx_pdc_start(struct uet_pdc *pdc, u32 start_psn)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	tx->start_psn = start_psn;
	tx->snd_una = start_psn;
	tx->snd_nxt = start_psn;
	tx->ed_psn = start_psn;
	tx->to_psn = start_psn;
	tx->high_acked = start_psn - 1;
	tx->acked_sent_ns = 0;
	tx->spur = (struct uet_tx_spur){};
	tx->late_rtt_us = 0;
	tx->heard_ns = ktime_get_ns();
	tx->rto_us = clamp(pdc->rto_min_us * UET_RTO_INIT_MULT,
			   pdc->rto_min_us, pdc->rto_max_us);
	uet_tx_cc_start(pdc);
	/* The group may hold bad values that nobody probes any more. */
	if (pdc->dest && uet_spray_type(pdc->spray) == UET_SPRAY_ACTIVE)
		uet_tx_probe_start(pdc, ktime_get_ns());
}

/**
 * uet_tx_pdc_release() - free the sending side of an unlinked, dead PDC
 * @pdc: the PDC
 *
 * Stops the timer and the work item, gives up any message left
 * (ECONNRESET) and tells the target the PDC is closed.
 *
 * Context: process (the namespace's work item).
 */
void uet_tx_pdc_release(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	struct uet_tx_msg *m, *tmp;
	struct uet_pds_ctrl *c;
	struct sk_buff_head q;
	struct sk_buff *skb;

	hrtimer_cancel(&tx->timer);
	/* Dead: nobody queues it again (uet_tx_drain()). */
	cancel_work_sync(&tx->xmit_work);
	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	uet_skb_queue_purge(&tx->txq);
	list_for_each_entry_safe(m, tmp, &tx->msgs, node) {
		uet_tx_fail(pdc, m, ECONNRESET);
		list_del(&m->node);
		uet_tx_msg_free(m);
	}
	if (!tx->syn) {
		/*
		 * On the entropy value of the last data packet, as the PDC's
		 * other packets: one the spraying type chose, on a path the
		 * fabric carried, not a port outside its range.
		 */
		skb = uet_ctl_skb(pdc, sizeof(*c),
				  uet_slot(pdc, tx->snd_nxt - 1)->ev);
		if (skb) {
			c = (struct uet_pds_ctrl *)skb->data;
			c->prologue = uet_prologue(UET_PDS_CTRL, UET_CTRL_CLOSE,
						   0);
			c->psn = cpu_to_be32(tx->snd_nxt);
			c->spdcid = cpu_to_be16(pdc->lid);
			c->dpdcid = cpu_to_be16(pdc->rid);
			__skb_queue_tail(&q, skb);
		}
	}
	spin_unlock_bh(&pdc->lock);
	kvfree(tx->ring);
	tx->ring = NULL;
	uet_xmit_queue(pdc->un, &q);
}

/**
 * uet_tx_routes_release() - release the routes a PDC cached
 * @pdc: the PDC, unlinked and dead, either role
 *
 * Whoever still reaches the PDC under RCU finds its lock and no cache,
 * and looks routes up.
 *
 * Context: process (the namespace's work item).
 */
void uet_tx_routes_release(struct uet_pdc *pdc)
{
	struct uet_route_cache *c;

	spin_lock_bh(&pdc->lock);
	c = pdc->routes;
	pdc->routes = NULL;
	spin_unlock_bh(&pdc->lock);
	uet_route_cache_free(c);
}
