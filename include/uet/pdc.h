/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: packet delivery contexts (PDCs), the destinations they share a
 * spraying state with, and the transmit and receive machinery of a PDC.
 *
 * A PDC carries the requests of one job from one local address to one
 * remote address.  The initiator sends data and keeps a bounded window of
 * PSNs in flight; the target receives, suppresses duplicates and
 * acknowledges.  Both ends create their PDC on demand (the first packets
 * carry SYN) and close it when idle.
 *
 * Lifetime: a PDC is found under RCU in uet_net.pdc_by_id/pdc_by_key and
 * used under its own lock; @dead (under that lock) ends its use.  A dead
 * PDC is unlinked under uet_net.pdc_lock, then freed by the namespace's
 * work item, which first stops its timer, then frees it after a grace
 * period (kfree_rcu).
 */
#ifndef _UET_PDC_H
#define _UET_PDC_H

#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/rhashtable-types.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <uet/cc.h>
#include <uet/kunit.h>
#include <uet/net.h>

struct uet_route_cache;
struct uet_spray;
struct uet_tx_msg;

/* PSNs one PDC may have in flight; a power of 2, at most 4096 (SYN). */
#define UET_PSN_WINDOW		256
/*
 * Discarded messages a target PDC remembers, to refuse their other
 * packets; a PDC that would need more closes instead (its sender then
 * fails its messages rather than have one taken as delivered).
 */
#define UET_RX_TOMBS_MAX	64
/* PDCs of each role one namespace may hold. */
#define UET_PDC_MAX		4096
/* Target PDCs the sources of one slot of uet_net.src_open may hold open. */
#define UET_PDC_SRC_MAX		(UET_PDC_MAX / 16)
/* Initiator PDCs the users of one slot of uet_net.user_open may open. */
#define UET_PDC_USER_MAX	(UET_PDC_MAX / 4)
/* Target PDCs a SYN finding the table full looks at for one to evict. */
#define UET_PDC_EVICT_SCAN	32
/*
 * A target acknowledges at least every this many data packets: an eighth
 * of the PSN window, so that a full window still draws 8 ACKs.  Each ACK
 * costs both ends a packet's work (Documentation/datapath.rst).
 */
#define UET_ACK_EVERY		32
/* Buckets of the table of partially received messages of one PDC. */
#define UET_RX_MSG_HASH_BITS	4
/* A target closes after this many times the initiator's idle time. */
#define UET_TARGET_IDLE_MULT	4
/* Probes of one PDC whose send time is kept, to time their answers. */
#define UET_PROBE_SLOTS		4
/* Retries of a packet the receiver refused for want of resources. */
#define UET_NORES_MAX		255
/* A target PDC sends at most one challenge ACK in this many ms. */
#define UET_CHALLENGE_PDC_MS	500

#define UET_PDC_INITIATOR	1
#define UET_PDC_TARGET		2

/**
 * struct uet_pdc_key - what identifies a PDC besides its local id
 * @laddr: local address (IPv4 as v4-mapped IPv6)
 * @raddr: remote address (IPv4 as v4-mapped IPv6)
 * @job: job id
 * @rpdcid: target: the initiator's PDC id; initiator: 0
 * @role: UET_PDC_INITIATOR or UET_PDC_TARGET
 * @mode: PDS request type of the PDC, UET_PDS_RUD_REQ
 *
 * Compared as bytes: build it zeroed.
 */
struct uet_pdc_key {
	struct in6_addr laddr;
	struct in6_addr raddr;
	u32 job;
	u16 rpdcid;
	u8 role;
	u8 mode;
};

/* Flags of struct uet_tx_slot. */
#define UET_SLOT_FB	BIT(0)	/* engine told ACK/NACK of this transmission */
#define UET_SLOT_ED	BIT(1)	/* early-detection deadline reported */
#define UET_SLOT_HOLD	BIT(2)	/* refused by the receiver: resend after RTO */
#define UET_SLOT_NOP	BIT(3)	/* message refused: the PSN goes as CTRL NOP */
#define UET_SLOT_TO	BIT(4)	/* engine told TIMEOUT of this transmission */
#define UET_SLOT_TRIM	BIT(5)	/* trimmed: resent without counting a retx */
/* a message's end sent without AR: its ACK may be held for ack-delay */
#define UET_SLOT_HELD	BIT(6)

/**
 * struct uet_tx_slot - one PSN in flight
 * @msg: its message; NULL once acknowledged
 * @sent_ns: time of the last transmission
 * @off: offset of the payload in the message
 * @horizon: the PDC's next PSN just after the last transmission: the
 *	packet counts as lost from a SACK gap once sack_retx_thresh PSNs
 *	from @horizon on have been acknowledged.  PSN + 1 while the last
 *	transmission is in PSN order: sent after every earlier PSN's and
 *	before every later one's
 * @len: payload bytes
 * @ev: entropy value of the last transmission
 * @retx: retransmissions so far
 * @nores: resends after the receiver refused it for want of resources,
 *	or after a switch trimmed it
 * @flags: UET_SLOT_*
 */
struct uet_tx_slot {
	struct uet_tx_msg *msg;
	u64 sent_ns;
	u32 off;
	u32 horizon;
	u16 len;
	u16 ev;
	u8 retx;
	u8 nores;
	u8 flags;
};

/**
 * struct uet_probe_rec - a probe sent, to time its answer
 * @sent_ns: when it was sent; 0 once answered
 * @id: its opaque value
 * @ev: the entropy value it tested
 */
struct uet_probe_rec {
	u64 sent_ns;
	u16 id;
	u16 ev;
};

/**
 * struct uet_tx_spur - the first retransmission of a PSN on a timeout, or
 *	the first of a batch a loss rule resent, watched until the target
 *	shows whether it was needed
 * @sent_ns: when the transmission that timed out left; 0: nothing watched
 * @acked_ns: when an ACK first acknowledged the PSN; 0 until one did
 * @cwnd: NSCC's window just before the timeout cut it
 * @psn: the PSN
 * @timeout: the PDC's timeout resent it, not a loss rule
 *
 * The target answers a copy of a PSN it already has with an ACK that
 * names the PSN and, for a retransmitted copy, carries RETX.  Such an ACK
 * after the PSN was acknowledged says the original got through: the
 * timeout was spurious (RFC 3708's test, with the duplicate's ACK for a
 * D-SACK).  The original's late ACK then measured its RTT.  When the
 * resent copy came first, the original's ACK comes last, without RETX,
 * naming the PSN behind the cumulative one.
 */
struct uet_tx_spur {
	u64 sent_ns;
	u64 acked_ns;
	u32 cwnd;
	u32 psn;
	bool timeout;
};

/**
 * struct uet_pdc_tx - sending side of an initiator PDC, under uet_pdc.lock
 * @ring: UET_PSN_WINDOW slots, PSN p at p % UET_PSN_WINDOW
 * @msgs: every message of the PDC not yet done, oldest first
 * @sendq: messages with bytes not yet packetised, oldest first
 * @timer: retransmission timeout and early-detection deadlines
 * @xmit_work: sends @txq on behalf of a task that sent its budget of it
 *	(uet_tx_drain()), owning it as @xmit_busy says
 * @min_rtt_ns: lowest RTT measured, from data ACKs and probe answers:
 *	the base RTT once measured; U64_MAX before the first sample
 * @rto_at: when the retransmission timeout expires, 0 when nothing is in
 *	flight; restarted by every ACK that acknowledges something new
 * @late_until: a timer run that came late calls nothing lost before this
 *	time (uet_tx_late()); 0 when it has not waited since the last ACK
 *	that acknowledged something
 * @acked_sent_ns: when the latest transmission known to be acknowledged
 *	was sent (a packet sent once, or a resent copy its ACK names): one
 *	sent before it and unacknowledged was overtaken in time
 *	(uet_tx_overtaken()), as a window lost whole is by the ACK of the
 *	oldest packet the PDC's timeout resent
 * @probe_at: when to send the next probe, 0 when none is due; only the
 *	destination's prober (uet_dest.prober) keeps one due
 * @heard_ns: when the target last answered (an ACK, a NACK of a packet in
 *	flight or a new grant of credit); the PDC's start before it has
 * @probes: the last UET_PROBE_SLOTS probes sent, by opaque value
 * @start_psn: first PSN of the PDC
 * @snd_una: oldest PSN not yet acknowledged
 * @snd_nxt: next PSN to send
 * @ed_psn: next PSN whose early-detection deadline is to be checked
 * @to_psn: next PSN whose own timeout (one RTO after its transmission)
 *	is to be checked
 * @high_acked: highest PSN acknowledged so far
 * @srtt_us: smoothed RTT; 0 before the first sample
 * @rttvar_us: RTT variation
 * @rtt_max_us: the largest recent RTT, decaying slowly towards the samples:
 *	sprayed packets take paths of different delay, and a timeout or a
 *	SACK gap must allow for the slowest of them
 * @rto_us: current retransmission timeout, backed off on timeouts
 * @spur: the last timeout's retransmission, to tell a spurious timeout
 * @late_rtt_us: the RTT of the last original a spurious timeout
 *	overtook, decaying by 1/UET_LATE_RTT_DECAY per sample: the timeout
 *	stays above it for about as many samples
 * @txq: packets built and not yet handed to IP, in PSN order
 * @xmit_busy: a context is sending @txq; others only append to it
 * @last_err: why the last packet could not be sent (0, EHOSTUNREACH)
 * @pmtu: path MTU (bytes of IP packet) an ICMP error reported for a
 *	packet of the PDC, the lowest so far; 0 until one did.  Packets are
 *	cut to fit it on every path, since they are sprayed over all
 * @next_msg_id: SES message id of the next message
 * @probe_id: opaque value of the next probe
 * @syn: no answer from the target yet: packets carry SYN
 * @refused: PSNs in flight the target refused while @syn, each waiting
 *	as a NOP for a PDC to name (uet_tx_unnamed())
 * @nscc: NSCC window state, with uet_pdc.cc UET_CC_NSCC
 * @nscc_p: NSCC constants, derived from the configuration snapshot when
 *	the PDC started (immutable once it did)
 * @rccc: RCCC credit, with uet_pdc.cc UET_CC_RCCC or UET_CC_NSCC_RCCC
 */
struct uet_pdc_tx {
	struct uet_tx_slot *ring;
	struct list_head msgs;
	struct list_head sendq;
	struct hrtimer timer;
	struct work_struct xmit_work;
	u64 min_rtt_ns;
	u64 rto_at;
	u64 late_until;
	u64 acked_sent_ns;
	u64 probe_at;
	u64 heard_ns;
	struct uet_probe_rec probes[UET_PROBE_SLOTS];
	u32 start_psn;
	u32 snd_una;
	u32 snd_nxt;
	u32 ed_psn;
	u32 to_psn;
	u32 high_acked;
	u32 srtt_us;
	u32 rttvar_us;
	u32 rtt_max_us;
	u32 rto_us;
	struct uet_tx_spur spur;
	u32 late_rtt_us;
	struct sk_buff_head txq;
	bool xmit_busy;
	int last_err;
	u32 pmtu;
	u16 next_msg_id;
	u16 probe_id;
	bool syn;
	u32 refused;
	struct uet_nscc nscc;
	struct uet_nscc_params nscc_p;
	struct uet_rccc_tx rccc;
};

/**
 * struct uet_rx_held - the ACK a target holds (ack-delay), under uet_pdc.lock
 * @timer: sends it at @due
 * @due: when it must leave, set by the first packet it covers; 0 when no
 *	ACK is held
 * @last_ns: when @psn arrived: the ACK reports the time since as its
 *	Service_Time
 * @psn: the newest packet accepted since the last ACK, which the held
 *	ACK names
 * @ev: @psn's entropy value, which the ACK carries back
 */
struct uet_rx_held {
	struct hrtimer timer;
	u64 due;
	u64 last_ns;
	u32 psn;
	u16 ev;
};

/**
 * struct uet_pdc_rx - receiving side of a target PDC, under uet_pdc.lock
 * @bitmap: PSNs received in [@epsn, @epsn + UET_PSN_WINDOW), PSN p at bit
 *	p % UET_PSN_WINDOW
 * @epsn: next expected PSN: every PSN before it has been received
 * @start_psn: first PSN of the PDC, from its SYN
 * @took: @epsn has moved: a packet came in order (uet_pdc_evict() spares
 *	the PDC, reading it under uet_net.pdc_lock only; @epsn itself is
 *	back at @start_psn every 2^32 PSNs)
 * @since_ack: packets accepted since the last ACK
 * @ntombs: messages of @msgs discarded, kept to refuse the rest of them
 * @routes_grown: the route cache has had its one chance to grow
 *	(uet_rx_routes_grow(), on the first packet without SYN)
 * @challenged: jiffies of the last challenge ACK sent, 0 before any
 * @cc_rcvd: bytes of every data packet that arrived, refused ones too,
 *	but duplicates, counted as the sender's window counts them (UDP
 *	length + 40): the Rcvd_Bytes that every ACK_CC reports, whatever
 *	the PDC's cc
 * @msgs: partially received messages, and discarded ones, by message id
 * @rccc_node: in uet_net.rccc.pdcs while credit is owed to the initiator;
 *	under uet_rccc_pacer.lock
 * @rccc_req: the initiator's highest credit request (RCCC, wraps)
 * @rccc_grant: credit granted to it so far (wraps)
 * @rccc_ev: entropy value of its last request, which grants go back on
 * @rccc_fresh: @rccc_grant when the last new data packet arrived: the
 *	pacer grants at most UET_RCCC_AHEAD_PKTS packets beyond it
 * @rccc_used: @rccc_grant that arriving data used, new or resent (wraps;
 *	read by the pacer's turn without the PDC's lock)
 * @rccc_lost: @rccc_grant given up for lost, data that did not come
 *	(wraps); written by the pacer's turn under uet_rccc_pacer.lock only
 * @rccc_seen: jiffies of the last data that used credit, or of the grant
 *	that left credit out again; read by the pacer's turn
 * @rccc_out_node: in uet_net.rccc.out while credit is out (granted and
 *	not used or lost), else empty; under uet_rccc_pacer.lock
 * @rccc_queued: on the pacer's list (@rccc_node); under
 *	uet_rccc_pacer.lock
 * @rccc_held: owed credit but off the pacer's list, granted
 *	UET_RCCC_AHEAD_PKTS packets beyond @rccc_fresh; the next new data
 *	packet puts it back
 * @rccc_off: released: never put on the pacer's list again
 * @held: the ACK held back for ack-delay
 */
struct uet_pdc_rx {
	u64 bitmap[UET_PSN_WINDOW / 64];
	u32 epsn;
	u32 start_psn;
	u16 since_ack;
	u16 ntombs;
	bool took;
	bool routes_grown;
	unsigned long challenged;
	u64 cc_rcvd;
	DECLARE_HASHTABLE(msgs, UET_RX_MSG_HASH_BITS);
	struct list_head rccc_node;
	u32 rccc_req;
	u32 rccc_grant;
	u32 rccc_fresh;
	u32 rccc_used;
	u32 rccc_lost;
	unsigned long rccc_seen;
	struct list_head rccc_out_node;
	u16 rccc_ev;
	bool rccc_queued;
	bool rccc_held;
	bool rccc_off;
	struct uet_rx_held held;
};

/**
 * struct uet_pdc - a packet delivery context
 * @id_node: in uet_net.pdc_by_id; under uet_net.pdc_lock
 * @key_node: in uet_net.pdc_by_key; under uet_net.pdc_lock
 * @key: addresses, job, role (immutable)
 * @reap_node: in uet_net.reap once unlinked; under uet_net.pdc_lock
 * @age_node: target: in uet_net.targets while linked; under
 *	uet_net.pdc_lock
 * @dest_node: in uet_dest.pdcs while it holds @dest; under
 *	uet_net.pdc_lock, RCU readers
 * @un: the namespace
 * @dest: the PDC group's destination, or NULL with PDC groups off
 * @spray: the spraying state (the group's, or the PDC's own); NULL on a
 *	target
 * @routes: the routes its packets (an initiator's data, a target's ACKs)
 *	took, by entropy value; under @lock, NULL once the PDC is freed
 * @lock: protects everything below that is not immutable
 * @dead: the PDC is closing: nobody may use it any more
 * @unlinked: out of the tables; under uet_net.pdc_lock
 * @slot: target: its peer's slot of uet_net.src_open; initiator: the
 *	slot of uet_net.user_open of the user that opened it (immutable once
 *	published)
 * @lid: local PDC id (immutable)
 * @rid: remote PDC id; an initiator learns it from the first answer
 * @own_port: the PDC's own entropy value (spraying type none)
 * @max_retx: configured retransmissions before giving up (snapshot)
 * @sack_thresh: configured SACK-gap depth that is a loss (snapshot)
 * @mss: configured payload bytes per packet (snapshot)
 * @rto_min_us: configured lower bound of the timeout (snapshot)
 * @rto_max_us: configured upper bound of the timeout (snapshot)
 * @idle_ms: configured idle time before closing (snapshot)
 * @base_rtt_ns: configured base RTT, used until an RTT is measured
 *	(snapshot)
 * @probe_period_ns: configured probe period (snapshot)
 * @link_rate_mbps: configured link rate, NSCC's reference (snapshot)
 * @cc_target_ns: configured NSCC target queueing delay, 0 = derived
 *	(snapshot)
 * @ack_delay_ns: configured ack-delay (snapshot): how long a target may
 *	hold an ACK, how much longer an initiator waits for one it did not
 *	ask for; 0 = off
 * @cc: configured enum uet_cc_type (snapshot): an initiator keeps an NSCC
 *	window, a target reports Rcvd_Bytes in its ACKs
 * @spray_burst: configured new data packets in a row on one entropy value
 *	(snapshot)
 * @last_active: jiffies of the last packet sent or received
 * @rcu: deferred free
 * @tx: initiator state
 * @rx: target state
 */
struct uet_pdc {
	struct rhash_head id_node;
	struct rhash_head key_node;
	struct uet_pdc_key key;
	struct list_head reap_node;
	struct list_head age_node;
	struct list_head dest_node;
	struct uet_net *un;
	struct uet_dest *dest;
	struct uet_spray *spray;
	struct uet_route_cache *routes;
	spinlock_t lock;	/* protects the PDC's mutable state */
	bool dead;
	bool unlinked;
	u16 slot;
	u16 lid;
	u16 rid;
	u16 own_port;
	u8 max_retx;
	u16 sack_thresh;
	u32 mss;
	u32 rto_min_us;
	u32 rto_max_us;
	u32 idle_ms;
	u32 base_rtt_ns;
	u32 probe_period_ns;
	u32 link_rate_mbps;
	u32 cc_target_ns;
	u32 ack_delay_ns;
	u8 cc;
	u8 spray_burst;
	unsigned long last_active;
	struct rcu_head rcu;
	union {
		struct uet_pdc_tx tx;
		struct uet_pdc_rx rx;
	};
};

/**
 * struct uet_dest - a remote address and the PDC group state shared by
 *	the PDCs to and from it (with PDC groups on)
 * @node: in uet_net.dests; under uet_net.pdc_lock, RCU readers
 * @addr: the remote address (IPv4 as v4-mapped IPv6)
 * @pdcs: the PDCs holding a reference (uet_pdc.dest_node); changed under
 *	uet_net.pdc_lock, RCU readers
 * @refs: PDCs to or from @addr; under uet_net.pdc_lock
 * @spray: the group's spraying state, made with the first initiator PDC
 *	and published with smp_store_release() under uet_net.pdc_lock; used
 *	under the lock of a PDC holding a reference, or read under RCU
 * @prober: the initiator PDC that probes the group's bad values, one
 *	probe per probe period for the whole destination; NULL when none
 *	does.  Claimed with cmpxchg() by a PDC whose feedback made a value
 *	bad or that joins the group (active), given up by its owner when
 *	nothing is bad, cleared and handed to another initiator under
 *	uet_net.pdc_lock when the owner is freed.
 *	Compared, never dereferenced without uet_net.pdc_lock.
 * @rcu: the destination and its spraying state are freed after a grace
 *	period, since dumps walk them under RCU
 */
struct uet_dest {
	struct rhash_head node;
	struct in6_addr addr;
	struct list_head pdcs;
	unsigned int refs;
	struct uet_spray *spray;
	struct uet_pdc *prober;
	struct rcu_head rcu;
};

/**
 * struct uet_skb_cb - where a packet built under a PDC lock goes
 * @saddr: source address (IPv4 as v4-mapped IPv6)
 * @daddr: destination address
 * @dst: its route, held, or NULL to route it when sent
 * @sport: UDP source port: the entropy value
 * @tos: IPv4 TOS / IPv6 traffic class
 * @frag: larger than its path's MTU as last learned: sent without DF
 *	(IPv4) or fragmented by this host (IPv6)
 * @batch: a data packet that may join a batch (uet_tx_batch())
 */
struct uet_skb_cb {
	struct in6_addr saddr;
	struct in6_addr daddr;
	struct dst_entry *dst;
	__be16 sport;
	u8 tos;
	bool frag;
	bool batch;
};

#define UET_SKB_CB(skb)	((struct uet_skb_cb *)(skb)->cb)

/**
 * struct uet_ack_info - an ACK or ACK_CC, as sent or received
 * @bitmap: SACK bitmap: bit i set, PSN @sack_base + i received
 * @cc_state: ACK_CC's CC state; with UET_ACK_P, the target's service
 *	time of the probe in ns (bits 31..0)
 * @cack: cumulative ACK PSN
 * @trigger: PSN of the packet that drew the ACK (not with UET_ACK_P)
 * @sack_base: PSN of bit 0 of @bitmap
 * @spdcid: the target's PDC id
 * @dpdcid: the initiator's PDC id
 * @opaque: with UET_ACK_P, the opaque value of the probe answered
 * @flags: UET_ACK_* flags
 * @cc_type: an ACK_CC's cc_type: UET_ACK_CC_NSCC when @cc_state is NSCC's
 * @cc: an ACK_CC: @bitmap, @sack_base, @cc_type and @cc_state are valid
 */
struct uet_ack_info {
	u64 bitmap;
	u64 cc_state;
	u32 cack;
	u32 trigger;
	u32 sack_base;
	u16 spdcid;
	u16 dpdcid;
	u16 opaque;
	u8 flags;
	u8 cc_type;
	bool cc;
};

/**
 * struct uet_rx_pkt - a data packet's PDS and SES fields
 * @psn: PSN
 * @job: job id
 * @msg_len: length of the whole message
 * @off: offset of the payload in the message
 * @len: payload bytes
 * @spdcid: initiator's PDC id
 * @dpdcid: target's PDC id, or with SYN pdc_info and PSN offset
 * @msg_id: message id
 * @dst_ep: destination endpoint
 * @src_ep: source endpoint
 * @flags: UET_REQ_* flags
 * @at: where the payload starts in the skb
 * @stride: 0 for a packet alone; for one of a superpacket, the bytes from
 *	one of its packets' headers to the next: its skb holds others, so it
 *	is copied, never kept
 * @whole: with @stride, the superpacket's packets as one range, @psn and
 *	@flags its last one's: kept whole or not taken
 */
struct uet_rx_pkt {
	u32 psn;
	u32 job;
	u32 msg_len;
	u32 off;
	u32 len;
	u32 at;
	u16 spdcid;
	u16 dpdcid;
	u16 msg_id;
	u16 dst_ep;
	u16 src_ep;
	u16 stride;
	u8 flags;
	bool whole;
};

/**
 * struct uet_nack_info - a NACK as received
 * @psn: PSN refused
 * @payload: code-specific payload
 * @spdcid: the target's PDC id, 0 when it had none
 * @ev: the entropy value it came on: a target answers on the value of the
 *	packet it refuses
 * @code: UET_NACK_*
 */
struct uet_nack_info {
	u32 psn;
	u32 payload;
	u16 spdcid;
	u16 ev;
	u8 code;
};

/**
 * uet_pdc_nscc() - whether a PDC runs NSCC
 * @pdc: the PDC
 *
 * Return: true with cc nscc or nscc+rccc (immutable snapshot).
 */
static inline bool uet_pdc_nscc(const struct uet_pdc *pdc)
{
	return pdc->cc == UET_CC_NSCC || pdc->cc == UET_CC_NSCC_RCCC;
}

/**
 * uet_pdc_rccc() - whether a PDC runs RCCC
 * @pdc: the PDC
 *
 * Return: true with cc rccc or nscc+rccc (immutable snapshot).
 */
static inline bool uet_pdc_rccc(const struct uet_pdc *pdc)
{
	return pdc->cc == UET_CC_RCCC || pdc->cc == UET_CC_NSCC_RCCC;
}

/**
 * uet_psn_before() - PSN order, modulo 2^32
 * @a: a PSN
 * @b: another
 *
 * Return: true when @a comes before @b.
 */
static inline bool uet_psn_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

/* pdc.c */
int uet_pdc_net_init(struct uet_net *un);
void uet_pdc_net_exit(struct uet_net *un);
void uet_pdc_key_init(struct uet_pdc_key *key, const struct in6_addr *laddr,
		      const struct in6_addr *raddr, u32 job, u16 rpdcid,
		      u8 role);
struct uet_pdc *uet_pdc_alloc(struct uet_net *un,
			      const struct uet_pdc_key *key, gfp_t gfp);
void uet_pdc_free_unused(struct uet_pdc *pdc);
struct uet_pdc *uet_pdc_initiator_get(struct uet_net *un,
				      const struct uet_pdc_key *key,
				      struct uet_pdc **spare);
struct uet_pdc *uet_pdc_target_find(struct uet_net *un,
				    const struct uet_pdc_key *key);
struct uet_pdc *uet_pdc_target_get(struct uet_net *un,
				   const struct uet_pdc_key *key,
				   u32 start_psn);
struct uet_pdc *uet_pdc_find(struct uet_net *un, u16 lid, u8 role,
			     const struct in6_addr *raddr,
			     const struct in6_addr *laddr);
void uet_pdc_kill(struct uet_pdc *pdc);
void uet_pdc_unlock(struct uet_pdc *pdc) __releases(&pdc->lock);

/**
 * struct uet_pdc_counts - what a PDC holds, counted for dumps
 * @out: initiator: packets sent and not yet acknowledged; target: PSNs
 *	received beyond the next expected one
 * @retx: initiator: of @out, packets sent more than once
 * @held: initiator: of @out, packets held after a NACK for resources
 * @msgs: initiator: messages not yet done; target: messages partly received
 * @queued: initiator: messages with bytes not yet packetised
 */
struct uet_pdc_counts {
	u32 out;
	u32 retx;
	u32 held;
	u32 msgs;
	u32 queued;
};

void uet_pdc_counts_get(const struct uet_pdc *pdc, struct uet_pdc_counts *c);

/* tx.c */
int uet_tx_send(struct uet_net *un, struct uet_tx_msg *m,
		const struct in6_addr *laddr, const struct in6_addr *raddr);
struct dst_entry *uet_tx_saddr(struct uet_net *un,
			       const struct in6_addr *raddr,
			       struct in6_addr *saddr);
void uet_tx_pdc_init(struct uet_pdc *pdc);
void uet_tx_pdc_start(struct uet_pdc *pdc, u32 start_psn);
void uet_tx_pdc_release(struct uet_pdc *pdc);
bool uet_tx_quiet(const struct uet_pdc *pdc);
void uet_tx_routes_release(struct uet_pdc *pdc);
void uet_tx_ack(struct uet_pdc *pdc, const struct uet_ack_info *a,
		struct sk_buff_head *q);
void uet_tx_credit(struct uet_pdc *pdc, u32 grant, struct sk_buff_head *q);
void uet_tx_nack(struct uet_pdc *pdc, const struct uet_nack_info *n,
		 struct sk_buff_head *q);
void uet_tx_probe_ack(struct uet_pdc *pdc, u16 ev,
		      const struct uet_ack_info *a);
bool uet_tx_probe_kick(struct uet_pdc *pdc);
bool uet_tx_ack_valid(const struct uet_pdc *pdc, const struct uet_ack_info *a);
bool uet_tx_nack_valid(const struct uet_pdc *pdc,
		       const struct uet_nack_info *n);
bool uet_tx_pmtu(struct uet_pdc *pdc, u32 psn, u32 mtu,
		 struct sk_buff_head *q);
bool uet_tx_out(struct uet_pdc *pdc, struct sk_buff_head *q);
void uet_tx_drain(struct uet_pdc *pdc);
struct sk_buff *uet_ctl_skb(struct uet_pdc *pdc, unsigned int len,
			    u16 ev);
struct sk_buff *uet_ctl_skb_addr(const struct in6_addr *saddr,
				 const struct in6_addr *daddr,
				 unsigned int len, u16 ev);
void uet_xmit_queue(struct uet_net *un, struct sk_buff_head *q);
u64 uet_tx_base_rtt_ns(const struct uet_pdc *pdc);

/* rx.c */
void uet_rx_pdc_init(struct uet_pdc *pdc);
void uet_rx_pdc_release(struct uet_pdc *pdc);
void uet_rx_pdc_gc(struct uet_pdc *pdc);

#if UET_KUNIT_HOOKS
/*
 * The datapath's pure logic (PSN windows, SACK bitmaps, the RTT
 * estimator, header layouts): static in their own files but for KUnit
 * (VISIBLE_IF_KUNIT), for the suite drivers/uet/tests/datapath_test.c and
 * the fixture of the PDC suites.
 */
bool uet_tx_in_flight(const struct uet_pdc_tx *tx, u32 psn);
void uet_tx_rtt(struct uet_pdc *pdc, u64 rtt_ns);
u32 uet_tx_rto_base(const struct uet_pdc *pdc);
void uet_tx_backoff(struct uet_pdc *pdc);
u64 uet_tx_ed_at(struct uet_pdc *pdc, u32 psn, u64 ed);
bool uet_tx_ed_due(struct uet_pdc *pdc, u64 now, u64 ed, u32 *psn);
void uet_tx_ed_renew(struct uet_pdc *pdc, u32 psn);
u64 uet_pdc_spray_key(struct uet_net *un, const struct in6_addr *a);
bool uet_tx_to_due(struct uet_pdc *pdc, u64 now, u64 rto, u32 *psn);
u64 uet_tx_to_next(struct uet_pdc *pdc, u64 now, u64 rto);
u64 uet_tx_late_wait(u64 late, u64 rto);
struct sk_buff *uet_tx_build(struct uet_pdc *pdc, u32 psn,
			     const struct uet_tx_slot *s, u8 flags,
			     const struct dst_entry *dst);
bool uet_rx_test(const struct uet_pdc_rx *rx, u32 psn);
void uet_rx_mark(struct uet_pdc_rx *rx, u32 psn);
u64 uet_rx_sack_bits(const struct uet_pdc_rx *rx);
int uet_rx_parse_data(struct sk_buff *skb, struct uet_rx_pkt *pk);
void uet_ack_write(void *hdr, const struct uet_ack_info *a);
int uet_ack_read(const void *hdr, unsigned int len, struct uet_ack_info *a);
u32 uet_tx_batch(struct sk_buff *skb, struct sk_buff_head *q, u32 max_len,
		 u32 max_segs);
struct sk_buff *uet_rx_unbatch(struct sk_buff *skb);
#endif

#endif /* _UET_PDC_H */
