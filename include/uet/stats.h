/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: per-namespace transport counters.  Each CPU counts into its own
 * copy, so the per-packet path writes no shared cache line; readers sum
 * the copies.  Counters only ever grow.
 */
#ifndef _UET_STATS_H
#define _UET_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>
#include <uet/net.h>

/**
 * enum uet_stat - one transport counter
 * @UET_STAT_TX_PKTS: data packets sent, first transmissions
 * @UET_STAT_TX_BYTES: payload bytes of @UET_STAT_TX_PKTS
 * @UET_STAT_RETX_TIMEOUT: data packets retransmitted on a timeout
 * @UET_STAT_RETX_SACK: data packets retransmitted for a SACK gap, or
 *	overtaken and out for a timeout (each transmission's own)
 * @UET_STAT_RETX_NACK: data packets retransmitted for a NACK
 * @UET_STAT_TX_MSGS: messages accepted by sendmsg()
 * @UET_STAT_TX_MSGS_DONE: messages acknowledged whole
 * @UET_STAT_TX_MSGS_FAILED: messages given up
 * @UET_STAT_TX_NOROUTE: packets not sent for want of a route
 * @UET_STAT_TX_NOMEM: packets not sent for want of memory
 * @UET_STAT_RX_PKTS: data packets received and accepted
 * @UET_STAT_RX_BYTES: payload bytes of @UET_STAT_RX_PKTS
 * @UET_STAT_RX_MSGS: messages delivered to a socket
 * @UET_STAT_RX_OOO: data packets that arrived ahead of the next expected PSN
 * @UET_STAT_ACK_TX: ACKs sent (with or without a SACK bitmap)
 * @UET_STAT_SACK_TX: ACKs sent with a SACK bitmap
 * @UET_STAT_ACK_RX: ACKs received
 * @UET_STAT_SACK_RX: ACKs received with a SACK bitmap
 * @UET_STAT_NACK_TX: NACKs sent
 * @UET_STAT_NACK_RX: NACKs received
 * @UET_STAT_NACK_RX_TRIMMED: NACKs received for a trimmed packet
 * @UET_STAT_NACK_RX_NORES: NACKs received for want of receiver resources
 * @UET_STAT_NACK_RX_OOR: NACKs received for a PSN outside the window
 * @UET_STAT_NACK_RX_FATAL: NACKs received that end a message
 * @UET_STAT_TRIMMED_RX: trimmed data packets received (answered by a NACK)
 * @UET_STAT_PROBE_TX: probes sent
 * @UET_STAT_PROBE_RX: probes received (and answered)
 * @UET_STAT_PROBE_ACK_RX: probe answers received
 * @UET_STAT_PDC_OPEN: PDCs opened
 * @UET_STAT_PDC_CLOSE: PDCs closed
 * @UET_STAT_SPRAY_CREATE: spraying states created
 * @UET_STAT_SPRAY_FREE: spraying states freed
 * @UET_STAT_EV_MARK: entropy values marked to be passed over once
 * @UET_STAT_EV_BAD: entropy values taken out of the rotation
 * @UET_STAT_EV_RESTORE: entropy values restored by a probe answer
 * @UET_STAT_REPS_FREEZE: REPS freezes started
 * @UET_STAT_REPS_THAW: REPS freezes ended
 * @UET_STAT_REPS_EXPLORE: REPS explorations (random values drawn)
 * @UET_STAT_REPS_RECYCLE: REPS values recycled into the cache
 * @UET_STAT_REPS_DISCARD: REPS values discarded
 * @UET_STAT_DROP_MALFORMED: dropped: truncated or inconsistent headers
 * @UET_STAT_DROP_UNKNOWN_TYPE: dropped: a PDS type or opcode uet does not
 *	handle
 * @UET_STAT_DROP_UNKNOWN_PDC: dropped: no PDC with that id and peer
 * @UET_STAT_DROP_WINDOW: dropped: PSN outside the window
 * @UET_STAT_DROP_DUP: dropped: duplicate of a packet already received
 * @UET_STAT_DROP_NOMEM: dropped: no memory (answered by a NACK)
 * @UET_STAT_DROP_RCVBUF: refused: the socket's receive buffer is full
 *	(answered by a NACK; the sender retries later)
 * @UET_STAT_DROP_NO_ENDPOINT: refused: no socket bound to the endpoint
 * @UET_STAT_DROP_PDC_LIMIT: dropped: the namespace's PDC limit reached
 * @UET_STAT_DROP_POLICY: dropped: job or addresses do not match the PDC
 * @UET_STAT_DROP_CSUM: dropped: UDP checksum absent (zero) and the
 *	namespace set to drop such packets (udp-csum rx-zero drop); a wrong
 *	checksum never reaches uet: UDP drops it and counts it in
 *	UDP's InCsumErrors
 * @UET_STAT_RX_REORDER_SUM: sum over the out-of-order arrivals of how many
 *	PSNs each came ahead of the next expected one
 * @UET_STAT_RX_REORDER_MAX: gauge: the most PSNs ahead of the next expected
 *	one that any arrival came (max_out_of_order); a per-CPU maximum, the
 *	highest of them on read
 * @UET_STAT_PDC_OPEN_NOW: gauge: PDCs open now; computed on read, never
 *	written (the mean reorder depth is derived by the reader, from
 *	@UET_STAT_RX_REORDER_SUM and @UET_STAT_RX_OOO)
 * @UET_STAT_NACK_TX_TRIMMED: NACKs sent for a trimmed packet
 * @UET_STAT_EVENTS_LOST: path events not multicast for want of memory
 * @UET_STAT_REPS_REPLAY: REPS, freezing with an empty cache, sent a value
 *	of its cache again rather than explore
 * @UET_STAT_DROP_SRC_LIMIT: dropped: a SYN over its source's PDC limit
 * @UET_STAT_PDC_EVICT: target PDCs that never took a packet in order,
 *	closed to make room for a new one in a full table
 * @UET_STAT_DROP_SYN_CHALLENGE: dropped: a SYN with a live PDC's key and
 *	another start PSN, outside the PDC's window (answered by an ACK
 *	with the live PDC's state)
 * @UET_STAT_DROP_ACK_UNSENT: dropped: an ACK for PSNs never sent
 * @UET_STAT_DROP_NACK_UNSENT: dropped: a NACK for a PSN never sent, or
 *	without a PDC id where the target must have had one
 * @UET_STAT_DROP_NOT_HOST: dropped: broadcast, multicast or another
 *	host's packet
 * @UET_STAT_DROP_V4MAPPED: dropped: an IPv4-mapped source over IPv6
 * @UET_STAT_RX_MEM: gauge: pages held by received messages (the
 *	namespace's rx-mem use); computed on read, never written
 * @UET_STAT_DROP_RX_MEM: refused: the namespace's rx-mem is used up
 *	(answered by a NACK; the sender retries later)
 * @UET_STAT_DROP_OVERLAP: dropped: a packet with bytes of its message that
 *	another packet wrote already (a second SOM, an overlap)
 * @UET_STAT_DROP_UNALIGNED: dropped: a packet not starting on a 64-byte
 *	boundary of its message, or not a multiple of 64 bytes long short of
 *	the message's end
 * @UET_STAT_DROP_DISCARDED: refused: a packet of a message discarded
 *	before (answered by a fatal NACK)
 * @UET_STAT_RX_MSG_TIMEOUT: partial messages discarded after msg-timeout
 *	without progress
 * @UET_STAT_RX_MSG_REUSED: partial messages discarded because their id
 *	started a new message
 * @UET_STAT_ICMP_RX: ICMP and ICMPv6 errors about packets sent to the UET
 *	port, claimed by uet (none reaches another socket through uet)
 * @UET_STAT_ICMP_UNMATCHED: of @UET_STAT_ICMP_RX, "fragmentation needed"
 *	and "packet too big" errors that quote no data packet of a live
 *	initiator PDC in flight (forged, late, or too short a quote):
 *	ignored
 * @UET_STAT_PMTU_UPDATE: an initiator PDC's path MTU lowered by an ICMP
 *	error
 * @UET_STAT_RETX_PMTU: data packets resent at once because an ICMP error
 *	said they were too big for their path (not counted against max-retx)
 * @UET_STAT_CHALLENGE_ACK: challenge ACKs sent (a SYN with a live PDC's
 *	key outside its window)
 * @UET_STAT_CHALLENGE_ACK_SKIPPED: challenge ACKs not sent: the
 *	namespace's challenge-ack-limit for this second was used up
 * @UET_STAT_TX_ROUTE_LOOKUP: packets routed by a FIB lookup: not found in
 *	their PDC's route cache, or without a PDC
 * @UET_STAT_DROP_TOO_BIG: refused: a message larger than its socket's
 *	receive buffer (SO_RCVBUF) can ever hold (answered by a fatal NACK;
 *	the sender reports EMSGSIZE)
 * @UET_STAT_NSCC_PROP_INC: NSCC proportional increases (no ECN, delay
 *	below target)
 * @UET_STAT_NSCC_FAST_INC: NSCC fast increases (the network stayed
 *	empty)
 * @UET_STAT_NSCC_FAIR_INC: NSCC fair increases (no ECN, delay at/above
 *	target)
 * @UET_STAT_NSCC_HOLD: NSCC holds (ECN, delay below target)
 * @UET_STAT_NSCC_MULT_DEC: NSCC multiplicative decreases (ECN, delay
 *	at/above target)
 * @UET_STAT_NSCC_MD_WAIT: NSCC decreases held back (average delay not
 *	above target, or the last decrease under a base RTT old)
 * @UET_STAT_NSCC_QUICK_ADAPT: NSCC quick adapts (window set to what was
 *	delivered)
 * @UET_STAT_NSCC_QA_IGNORE: ECN-marked ACKs NSCC ignored after a quick
 *	adapt
 * @UET_STAT_NSCC_TRIM_DEC: NSCC decreases on a trimmed packet
 * @UET_STAT_NSCC_TIMEOUT_DEC: NSCC decreases on a packet lost (timeout
 *	or SACK gap)
 * @UET_STAT_RCCC_REQ_TX: RCCC credit requests (CTRL CREDIT_REQ) sent
 * @UET_STAT_RCCC_REQ_RX: RCCC credit requests taken by a target
 * @UET_STAT_RCCC_CREDIT_TX: RCCC grants (CTRL CREDIT) sent
 * @UET_STAT_RCCC_CREDIT_RX: RCCC grants that raised an initiator's credit
 * @UET_STAT_RCCC_WAIT: times an initiator PDC stopped for want of credit
 * @UET_STAT_RETX_SPURIOUS: timeouts found spurious: the target got the
 *	packet before its retransmission (the timeout's cut of the window
 *	undone, the late RTT taken into the timeout)
 * @UET_STAT_ACK_HELD: ACKs a target held for ack-delay and sent from its
 *	timer, each covering every packet that arrived meanwhile
 * @UET_STAT_EV_SKIP: active: marked entropy values passed over (each mark
 *	once)
 * @UET_STAT_RX_MSG_KEPT: messages received whole in one packet and kept
 *	as that packet until recvmsg() (no page, no copy in softirq)
 * @UET_STAT_TX_BATCH: batches sent: consecutive data packets on one route
 *	and entropy value, handed to IP as one UDP GSO packet
 * @UET_STAT_RX_BATCH: batches received whole and taken apart without a
 *	copy or an allocation
 * @UET_STAT_RX_BATCH_CUT: GSO packets received otherwise laid out (or
 *	shared on the way), cut into their packets by UDP segmentation
 * @UET_STAT_TX_SUPER: superpackets built: one skb of several consecutive
 *	data packets of one message, its packets' headers between their
 *	payloads (one left alone in its batch gives up its last packet, so
 *	one of two then leaves as two packets)
 * @UET_STAT_TX_SUPER_SEGS: data packets sent inside superpackets
 * @UET_STAT_RX_SUPER: superpackets received and kept whole as one unit
 *	of their message
 * @UET_STAT_RX_SUPER_SEGS: data packets received inside kept superpackets
 * @UET_STAT_RX_SUPER_APART: superpackets whose packets were taken one by
 *	one, copied (not consecutive PSNs of one message, a PSN taken
 *	already, or the message would not keep them)
 * @UET_STAT_TX_TIMER_LATE: timer runs of an initiator PDC that came over
 *	a 32nd of a timeout late and looked again before calling anything
 *	lost (uet_tx_late())
 * @UET_STAT_RX_PKT_KEPT: data packets kept as they came until recvmsg()
 *	copies from them (no page, no copy in softirq)
 * @UET_STAT_TX_PAGES_REUSED: pages of sent messages written again by later
 *	ones of their socket rather than freed (struct uet_page_ring)
 * @UET_STAT_TX_PAGES_RELEASED: pages a socket's ring gave back once none
 *	of its messages had been in flight for UET_RING_IDLE
 * @UET_STAT_RCCC_LOST: bytes of credit a target's pacer wrote off, granted
 *	and no data seen for UET_RCCC_LOST_RTTS round trips
 * @UET_STAT_MAX: number of counters
 */
enum uet_stat {
	UET_STAT_TX_PKTS,
	UET_STAT_TX_BYTES,
	UET_STAT_RETX_TIMEOUT,
	UET_STAT_RETX_SACK,
	UET_STAT_RETX_NACK,
	UET_STAT_TX_MSGS,
	UET_STAT_TX_MSGS_DONE,
	UET_STAT_TX_MSGS_FAILED,
	UET_STAT_TX_NOROUTE,
	UET_STAT_TX_NOMEM,
	UET_STAT_RX_PKTS,
	UET_STAT_RX_BYTES,
	UET_STAT_RX_MSGS,
	UET_STAT_RX_OOO,
	UET_STAT_ACK_TX,
	UET_STAT_SACK_TX,
	UET_STAT_ACK_RX,
	UET_STAT_SACK_RX,
	UET_STAT_NACK_TX,
	UET_STAT_NACK_RX,
	UET_STAT_NACK_RX_TRIMMED,
	UET_STAT_NACK_RX_NORES,
	UET_STAT_NACK_RX_OOR,
	UET_STAT_NACK_RX_FATAL,
	UET_STAT_TRIMMED_RX,
	UET_STAT_PROBE_TX,
	UET_STAT_PROBE_RX,
	UET_STAT_PROBE_ACK_RX,
	UET_STAT_PDC_OPEN,
	UET_STAT_PDC_CLOSE,
	UET_STAT_SPRAY_CREATE,
	UET_STAT_SPRAY_FREE,
	UET_STAT_EV_MARK,
	UET_STAT_EV_BAD,
	UET_STAT_EV_RESTORE,
	UET_STAT_REPS_FREEZE,
	UET_STAT_REPS_THAW,
	UET_STAT_REPS_EXPLORE,
	UET_STAT_REPS_RECYCLE,
	UET_STAT_REPS_DISCARD,
	UET_STAT_DROP_MALFORMED,
	UET_STAT_DROP_UNKNOWN_TYPE,
	UET_STAT_DROP_UNKNOWN_PDC,
	UET_STAT_DROP_WINDOW,
	UET_STAT_DROP_DUP,
	UET_STAT_DROP_NOMEM,
	UET_STAT_DROP_RCVBUF,
	UET_STAT_DROP_NO_ENDPOINT,
	UET_STAT_DROP_PDC_LIMIT,
	UET_STAT_DROP_POLICY,
	UET_STAT_DROP_CSUM,
	UET_STAT_RX_REORDER_SUM,
	UET_STAT_RX_REORDER_MAX,
	UET_STAT_PDC_OPEN_NOW,
	UET_STAT_NACK_TX_TRIMMED,
	UET_STAT_EVENTS_LOST,
	UET_STAT_REPS_REPLAY,
	UET_STAT_DROP_SRC_LIMIT,
	UET_STAT_PDC_EVICT,
	UET_STAT_DROP_SYN_CHALLENGE,
	UET_STAT_DROP_ACK_UNSENT,
	UET_STAT_DROP_NACK_UNSENT,
	UET_STAT_DROP_NOT_HOST,
	UET_STAT_DROP_V4MAPPED,
	UET_STAT_RX_MEM,
	UET_STAT_DROP_RX_MEM,
	UET_STAT_DROP_OVERLAP,
	UET_STAT_DROP_UNALIGNED,
	UET_STAT_DROP_DISCARDED,
	UET_STAT_RX_MSG_TIMEOUT,
	UET_STAT_RX_MSG_REUSED,
	UET_STAT_ICMP_RX,
	UET_STAT_ICMP_UNMATCHED,
	UET_STAT_PMTU_UPDATE,
	UET_STAT_RETX_PMTU,
	UET_STAT_CHALLENGE_ACK,
	UET_STAT_CHALLENGE_ACK_SKIPPED,
	UET_STAT_TX_ROUTE_LOOKUP,
	UET_STAT_DROP_TOO_BIG,
	UET_STAT_NSCC_PROP_INC,
	UET_STAT_NSCC_FAST_INC,
	UET_STAT_NSCC_FAIR_INC,
	UET_STAT_NSCC_HOLD,
	UET_STAT_NSCC_MULT_DEC,
	UET_STAT_NSCC_MD_WAIT,
	UET_STAT_NSCC_QUICK_ADAPT,
	UET_STAT_NSCC_QA_IGNORE,
	UET_STAT_NSCC_TRIM_DEC,
	UET_STAT_NSCC_TIMEOUT_DEC,
	UET_STAT_RCCC_REQ_TX,
	UET_STAT_RCCC_REQ_RX,
	UET_STAT_RCCC_CREDIT_TX,
	UET_STAT_RCCC_CREDIT_RX,
	UET_STAT_RCCC_WAIT,
	UET_STAT_RETX_SPURIOUS,
	UET_STAT_ACK_HELD,
	UET_STAT_EV_SKIP,
	UET_STAT_RX_MSG_KEPT,
	UET_STAT_TX_BATCH,
	UET_STAT_RX_BATCH,
	UET_STAT_RX_BATCH_CUT,
	UET_STAT_RX_PKT_KEPT,
	UET_STAT_TX_PAGES_REUSED,
	UET_STAT_TX_PAGES_RELEASED,
	UET_STAT_RCCC_LOST,
	UET_STAT_TX_SUPER,
	UET_STAT_TX_SUPER_SEGS,
	UET_STAT_RX_SUPER,
	UET_STAT_RX_SUPER_SEGS,
	UET_STAT_RX_SUPER_APART,
	UET_STAT_TX_TIMER_LATE,

	UET_STAT_MAX
};

/**
 * struct uet_stats - one CPU's copy of a namespace's counters
 * @c: the counters, indexed by enum uet_stat; written by this CPU only
 */
struct uet_stats {
	u64 c[UET_STAT_MAX];
};

extern const char * const uet_stat_names[UET_STAT_MAX];

int uet_stats_init(struct uet_net *un);
void uet_stats_exit(struct uet_net *un);
void uet_stats_read(struct uet_net *un, u64 *sum);
void uet_stats_spray(struct uet_net *un, u32 result);
bool uet_stat_is_gauge(enum uet_stat s);
int uet_stats_sysfs_init(void);
void uet_stats_sysfs_exit(void);

/**
 * uet_stat_inc() - count one event
 * @un: the namespace
 * @s: the counter
 *
 * Context: any; preemption-safe.
 */
static inline void uet_stat_inc(struct uet_net *un, enum uet_stat s)
{
	this_cpu_inc(un->stats->c[s]);
}

/**
 * uet_stat_add() - count several events or bytes
 * @un: the namespace
 * @s: the counter
 * @v: how much to add
 *
 * Context: any; preemption-safe.
 */
static inline void uet_stat_add(struct uet_net *un, enum uet_stat s, u64 v)
{
	this_cpu_add(un->stats->c[s], v);
}

/**
 * uet_stat_reorder() - count one out-of-order data arrival
 * @un: the namespace
 * @depth: how many PSNs past the next expected one it came
 *
 * Counts it in UET_STAT_RX_OOO and UET_STAT_RX_REORDER_SUM, and raises
 * this CPU's UET_STAT_RX_REORDER_MAX.  Another context on this CPU may
 * raise the maximum between the read and the write; a maximum lost so is
 * seen again on the next deeper arrival.
 *
 * Context: any; preemption-safe.
 */
static inline void uet_stat_reorder(struct uet_net *un, u32 depth)
{
	this_cpu_inc(un->stats->c[UET_STAT_RX_OOO]);
	this_cpu_add(un->stats->c[UET_STAT_RX_REORDER_SUM], depth);
	if (depth > this_cpu_read(un->stats->c[UET_STAT_RX_REORDER_MAX]))
		this_cpu_write(un->stats->c[UET_STAT_RX_REORDER_MAX], depth);
}

#endif /* _UET_STATS_H */
