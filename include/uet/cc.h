/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: NSCC, UET's network-signal-based congestion control.
 *
 * One congestion window per PDC, in bytes, across every entropy value the
 * PDC sprays on.  The sender grows or shrinks it from the ECN echo of each
 * ACK and the queueing delay (RTT sample - base RTT) against a target:
 *
 *   ECN  delay vs target  action
 *   no   below            proportional increase (more the lower the delay)
 *   no   at/above         fair increase (the same bytes for every PDC)
 *   yes  below            hold (mild marking: leave it to the path selector)
 *   yes  at/above         multiplicative decrease by the delay excess
 *
 * plus quick adapt (the window set to what was delivered in the last
 * period, after a loss or an extreme delay), and decreases on trims and
 * timeouts.  In-flight bytes are signed: the ACK clock is the receiver's
 * received-bytes count, rounded up to 256 bytes and carried by ACKs that
 * may arrive out of order, so it can briefly run ahead of what was sent.
 *
 * Pure logic: no clock (callers pass the time in ns), no allocation, no
 * lock, O(1) per call, integer arithmetic only.  The caller serialises
 * every call on one struct uet_nscc with the PDC's lock (uet_pdc.lock).
 * Documentation/cc.rst describes the algorithm, the constants and the
 * fixed-point units.
 */
#ifndef _UET_CC_H
#define _UET_CC_H

#include <linux/bits.h>
#include <linux/types.h>

/* Fixed-point fractions: Q16, so 1.0 is 65536. */
#define UET_NSCC_FP_SHIFT	16
#define UET_NSCC_FP_ONE		65536U		/* 1 << UET_NSCC_FP_SHIFT */

/*
 * Bounds that keep every product below 2^63 (see cc.c): windows and
 * per-ACK byte counts up to 1 GiB, delays and RTTs up to 1 s.
 */
#define UET_NSCC_CWND_LIMIT	0x40000000U	/* 2^30 */
#define UET_NSCC_TIME_LIMIT_NS	1000000000U

/* The model's reference network: 100 Gbit/s and 12 us, BDP 150000 bytes. */
#define UET_NSCC_REF_RATE_MBPS	100000U
#define UET_NSCC_REF_RTT_NS	12000U

/* ACK_CC NSCC state: Rcvd_Bytes counts 256-byte units in 24 bits. */
#define UET_NSCC_RCVD_SHIFT	8
#define UET_NSCC_RCVD_BITS	24
#define UET_NSCC_RCVD_MASK	((1U << UET_NSCC_RCVD_BITS) - 1)

/**
 * enum uet_nscc_action - what one NSCC call did to the window
 * @UET_NSCC_ACT_NONE: nothing (a NACK that is not a congestion signal)
 * @UET_NSCC_ACT_PROP_INC: no ECN, delay below target: proportional increase
 * @UET_NSCC_ACT_FAST_INC: as @UET_NSCC_ACT_PROP_INC, but the network stayed
 *	empty for a window's worth of bytes: fast (multiplicative) increase
 * @UET_NSCC_ACT_FAIR_INC: no ECN, delay at/above target: fair increase
 * @UET_NSCC_ACT_HOLD: ECN, delay below target: no change
 * @UET_NSCC_ACT_MULT_DEC: ECN, delay at/above target: multiplicative decrease
 * @UET_NSCC_ACT_MD_WAIT: as @UET_NSCC_ACT_MULT_DEC, but the average delay is
 *	not above target or the last decrease is less than a base RTT old
 * @UET_NSCC_ACT_QUICK_ADAPT: window set to the bytes delivered last period
 * @UET_NSCC_ACT_QA_IGNORE: an ECN-marked ACK of data sent before the last
 *	quick adapt, ignored
 * @UET_NSCC_ACT_TRIM_DEC: a trimmed packet's bytes taken off the window
 * @UET_NSCC_ACT_TIMEOUT_DEC: a timed-out packet's bytes taken off the window
 * @__UET_NSCC_ACT_MAX: number of actions
 */
enum uet_nscc_action {
	UET_NSCC_ACT_NONE,
	UET_NSCC_ACT_PROP_INC,
	UET_NSCC_ACT_FAST_INC,
	UET_NSCC_ACT_FAIR_INC,
	UET_NSCC_ACT_HOLD,
	UET_NSCC_ACT_MULT_DEC,
	UET_NSCC_ACT_MD_WAIT,
	UET_NSCC_ACT_QUICK_ADAPT,
	UET_NSCC_ACT_QA_IGNORE,
	UET_NSCC_ACT_TRIM_DEC,
	UET_NSCC_ACT_TIMEOUT_DEC,
	__UET_NSCC_ACT_MAX,
};

/**
 * struct uet_nscc_params - NSCC constants of one network namespace
 * @link_rate_mbps: link rate the defaults were derived from, Mbit/s
 * @base_rtt_ns: network base RTT, ns: each PDC's initial base RTT, and
 *	the delay a trim counts as
 * @mtu: bytes of a full packet as the window counts them
 * @target_qdelay_ns: target queueing delay, ns
 * @gamma: multiplicative decrease gain, Q16 (at most 1.0)
 * @max_md_jump: smallest factor one decrease multiplies the window by, Q16
 *	(above 0, at most 1.0)
 * @fair_inc: bytes one window's worth of fair-increase ACKs adds
 * @prop_inc: bytes one window's worth of proportional-increase ACKs adds
 *	at zero delay; scaled down linearly to 0 at the target
 * @fast_inc: fast increase: bytes added per byte acknowledged, Q16
 * @fast_delay_ns: delay under which the network counts as empty, ns
 * @eta: bytes added once per @adjust_period_ns whatever the signal
 * @delay_ewma: weight of a new sample in the average delay, Q16
 * @qa_delay_ns: a delay sample above this triggers quick adapt, ns
 * @qa_gate: quick adapt only when the bytes delivered last period are
 *	below @max_cwnd >> @qa_gate
 * @adjust_bytes: increases reach the window after this many bytes acked...
 * @adjust_period_ns: ...or this long since the last time, ns
 * @min_cwnd: smallest window, bytes
 * @max_cwnd: largest window, bytes (at most %UET_NSCC_CWND_LIMIT)
 * @rccc: RCCC runs too: a trim at the last hop does not shrink the window,
 *	since the receiver's credit already paces that hop
 *
 * Read-only while PDCs use it; uet_nscc_params_init() fills every field
 * from a link rate and a base RTT, uet_nscc_params_valid() checks a set
 * changed by hand.
 */
struct uet_nscc_params {
	u32 link_rate_mbps;
	u32 base_rtt_ns;
	u32 mtu;
	u32 target_qdelay_ns;
	u32 gamma;
	u32 max_md_jump;
	u32 fair_inc;
	u32 prop_inc;
	u32 fast_inc;
	u32 fast_delay_ns;
	u32 eta;
	u32 delay_ewma;
	u32 qa_delay_ns;
	u32 qa_gate;
	u32 adjust_bytes;
	u32 adjust_period_ns;
	u32 min_cwnd;
	u32 max_cwnd;
	bool rccc;
};

/**
 * struct uet_nscc - NSCC state of one PDC
 * @cwnd: congestion window, bytes
 * @max_cwnd: this PDC's largest window: 1.5 x BDP at @base_rtt_ns, within
 *	the namespace's bounds
 * @in_flight: bytes sent and neither reported received nor given up
 *	(NACKed, timed out); may be briefly negative
 * @base_rtt_ns: the namespace's base RTT, lowered to any smaller RTT
 *	sample, ns
 * @min_rtt_ns: smallest RTT sample seen, ns; 0 before the first.  Above
 *	@base_rtt_ns on a path slower than configured, where quick adapt
 *	measures extreme delays from it
 * @target_qdelay_ns: target queueing delay, ns
 * @avg_delay_q: average queueing delay, ns << %UET_NSCC_FP_SHIFT
 * @inc_bytes: increase accumulated since the last adjustment, bytes x
 *	bytes (divided by the window when applied)
 * @adjust_acked: bytes acknowledged since the last adjustment
 * @last_adjust_ns: time @eta was last added
 * @last_dec_ns: time of the last multiplicative decrease or halving
 * @fast_count: bytes acknowledged in a row at a delay under fast_delay_ns
 * @fast: fast increase is on
 * @qa_trigger: a loss was seen: quick adapt at the end of this period
 * @qa_end_ns: end of the current quick-adapt period; 0 before the first
 * @qa_acked: bytes acknowledged in the current quick-adapt period
 * @qa_held: since the last quick-adapt period ended, the sender was held
 *	back, not application-limited: the window was full (in-flight
 *	reached it) at a send, or data was left waiting (uet_nscc_on_held())
 * @qa_ignore: bytes in flight at the last quick adapt, whose ECN-marked
 *	ACKs are ignored...
 * @qa_ignored: ...counted here until they are all accounted for
 * @rcvd_units: last Rcvd_Bytes the receiver reported (256-byte units)
 * @rcvd_rebase: a plain ACK was counted by its PSNs since @rcvd_units: the
 *	next Rcvd_Bytes is a new base, not bytes received since it
 * @last_action: enum uet_nscc_action of the last call
 * @actions: how many times each enum uet_nscc_action was taken (wraps)
 *
 * Every field is protected by the owning PDC's lock (uet_pdc.lock); the
 * functions below take none.
 */
struct uet_nscc {
	u32 cwnd;
	u32 max_cwnd;
	s64 in_flight;
	u32 base_rtt_ns;
	u32 min_rtt_ns;
	u32 target_qdelay_ns;
	u64 avg_delay_q;
	u64 inc_bytes;
	u64 adjust_acked;
	u64 last_adjust_ns;
	u64 last_dec_ns;
	u64 fast_count;
	bool fast;
	bool qa_trigger;
	u64 qa_end_ns;
	u64 qa_acked;
	bool qa_held;
	s64 qa_ignore;
	s64 qa_ignored;
	u32 rcvd_units;
	bool rcvd_rebase;
	u8 last_action;
	u32 actions[__UET_NSCC_ACT_MAX];
};

void uet_nscc_params_init(struct uet_nscc_params *p, u32 link_rate_mbps,
			  u32 base_rtt_ns, u32 mtu, bool trimming);
int uet_nscc_params_valid(const struct uet_nscc_params *p);

void uet_nscc_init(struct uet_nscc *n, const struct uet_nscc_params *p,
		   u64 now_ns);
u32 uet_nscc_rcvd_bytes(struct uet_nscc *n, u32 rcvd_field, u32 psn_bytes);
enum uet_nscc_action uet_nscc_on_ack(struct uet_nscc *n,
				     const struct uet_nscc_params *p,
				     u32 acked, u64 rtt_ns, bool ecn,
				     u64 now_ns);
enum uet_nscc_action uet_nscc_on_trim(struct uet_nscc *n,
				      const struct uet_nscc_params *p,
				      u32 bytes, bool last_hop, u64 now_ns);
enum uet_nscc_action uet_nscc_on_nack(struct uet_nscc *n, u32 bytes);
enum uet_nscc_action uet_nscc_on_timeout(struct uet_nscc *n,
					 const struct uet_nscc_params *p,
					 u32 bytes, u64 now_ns);
void uet_nscc_undo(struct uet_nscc *n, const struct uet_nscc_params *p,
		   u32 cwnd);
bool uet_nscc_can_send(const struct uet_nscc *n, u32 bytes);
void uet_nscc_on_send(struct uet_nscc *n, u32 bytes);
void uet_nscc_on_held(struct uet_nscc *n);
void uet_nscc_on_unmark(struct uet_nscc *n, u32 bytes);

/*
 * RCCC, the receiver's credit.  Credit counts payload bytes.  Both ends
 * keep cumulative 32-bit counts that wrap and are compared signed: the
 * initiator's request (bytes it queued beyond its initial credit) and the
 * target's grant.  A lost or reordered CREDIT_REQ or CREDIT is repaired by
 * any later one.
 */

/* A target's pacer grants at most this many full packets to a PDC a turn. */
#define UET_RCCC_CHUNK_PKTS	4
/*
 * A target's pacer grants a PDC at most this many full packets beyond the
 * grant that stood when its last new data packet arrived, twice the PSN
 * window (UET_PSN_WINDOW) that bounds what its sender has in flight: a
 * CREDIT_REQ that no data follows, a forged one included, draws a bounded
 * number of CREDITs.
 */
#define UET_RCCC_AHEAD_PKTS	512
/*
 * The fewest full packets a target's pacer may have out across its PDCs:
 * one crossing the last hop while the next one's CREDIT goes out.
 */
#define UET_RCCC_BOUND_MIN_PKTS	2
/*
 * Bytes a request may run ahead of the grant.  The 32-bit totals are
 * compared signed, so a request 2 GiB or more ahead (many sockets of one
 * job, at the largest SO_SNDBUF, on one PDC) would look behind; the rest
 * is asked for as the grant comes.
 */
#define UET_RCCC_REQ_AHEAD	BIT(30)
/*
 * Initial credit: one BDP, within these many full packets.  One packet
 * where it is more than the BDP (jumbo packets on a slow link): every
 * sender of an incast spends it at once into the last hop's queue.
 */
#define UET_RCCC_INIT_MIN_PKTS	1
#define UET_RCCC_INIT_MAX_PKTS	256
/*
 * Requests repeated without an answer before one packet goes without
 * credit, so that its timeouts find out whether the target still exists.
 */
#define UET_RCCC_ASK_MAX	3
/*
 * A sender waiting its turn at a busy target's pacer asks again after a
 * wait (uet_rccc_ask_ns()), then after 2, then after 4: the target's
 * standing answer says it is there, and more requests would not bring
 * credit sooner.
 */
#define UET_RCCC_BACKOFF_MAX	2
/*
 * A repeat waits this many of the sender's usual waits for a grant: a
 * turn that comes a little late is no sign of a lost request.
 */
#define UET_RCCC_ASK_WAITS	2
/*
 * Turns' worth of tokens a late turn of a running pacer may catch up on,
 * at least (uet_rccc_cap()).  After idle, one turn's worth.
 */
#define UET_RCCC_CATCHUP	4
/* A target's pacer grants all but 1/2^this of its link's rate. */
#define UET_RCCC_HEADROOM_SHIFT	6
/*
 * Elapsed time a pacer turn counts at most, so that products fit a u64;
 * above the longest period between turns (4 packets of 16 KiB at
 * 1 Mbit/s: 528 ms), which must count whole.
 */
#define UET_RCCC_TICK_MAX_NS	1000000000ULL

/**
 * struct uet_rccc_tx - an initiator PDC's credit
 * @init: initial credit, bytes: what it may send before any grant, at
 *	the start and after each time it went quiet
 * @queued: the grant when the PDC last went quiet (uet_rccc_on_idle()),
 *	0 before, plus the bytes of every message queued since, and of
 *	every retransmission (wraps)
 * @sent: likewise, plus the payload bytes of data packets sent since,
 *	new and resent (wraps)
 * @grant: the target's cumulative grant, the highest seen (wraps)
 * @asked: the request last sent in a CREDIT_REQ (wraps)
 * @ask_at: when to repeat the request while waiting for credit, ns; 0
 *	when not waiting
 * @wait_from: when the current wait for credit began (its timer was
 *	armed, uet_tx_arm()), ns
 * @wait_ns: smoothed length of a wait that a grant ended, ns (1/8 gain,
 *	as SRTT); 0 before the first
 * @waiting: data is queued and the credit is spent
 * @unanswered: requests repeated since the last CREDIT (saturates)
 * @repeats: requests repeated since the last grant that raised the credit
 *	(saturates): each waits twice as long as the one before, up to
 *	%UET_RCCC_BACKOFF_MAX doublings
 * @ev: the entropy value requests go on; 0 for the PDC's own, until a
 *	request goes unanswered
 * @acked_ev: the entropy value of the packet that drew the last ACK,
 *	where a repeated request goes; 0 before any
 *
 * Every field is protected by the PDC's lock (uet_pdc.lock).
 */
struct uet_rccc_tx {
	u32 init;
	u32 queued;
	u32 sent;
	u32 grant;
	u32 asked;
	u64 ask_at;
	u64 wait_from;
	u32 wait_ns;
	bool waiting;
	u8 unanswered;
	u8 repeats;
	u16 ev;
	u16 acked_ev;
};

u32 uet_rccc_init_credit(u32 link_rate_mbps, u32 base_rtt_ns, u32 mss);
void uet_rccc_tx_init(struct uet_rccc_tx *r, u32 init);
u32 uet_rccc_req(const struct uet_rccc_tx *r);
bool uet_rccc_need(const struct uet_rccc_tx *r);
bool uet_rccc_can_send(const struct uet_rccc_tx *r);
void uet_rccc_on_resend(struct uet_rccc_tx *r, u32 bytes);
void uet_rccc_on_wait_end(struct uet_rccc_tx *r, u64 waited_ns);
u64 uet_rccc_ask_ns(const struct uet_rccc_tx *r, u64 rto_ns, u64 max_ns);
void uet_rccc_on_idle(struct uet_rccc_tx *r);
bool uet_rccc_on_grant(struct uet_rccc_tx *r, u32 grant);
u32 uet_rccc_demand(u32 req, u32 grant);
u64 uet_rccc_tokens(u32 rate_mbps, u64 elapsed_ns, u32 mss);
u32 uet_rccc_unseen(u32 grant, u32 used, u32 lost);
u32 uet_rccc_bound(u32 rate_mbps, u32 rtt_ns, u32 target_ns, u32 mss);
u64 uet_rccc_cap(u64 turn, u32 chunk, u32 bound, bool running);

/**
 * uet_nscc_avg_delay_ns() - average queueing delay of a PDC
 * @n: NSCC state, under the PDC's lock
 *
 * Return: the average queueing delay, ns.
 */
static inline u32 uet_nscc_avg_delay_ns(const struct uet_nscc *n)
{
	return n->avg_delay_q >> UET_NSCC_FP_SHIFT;
}

#endif /* _UET_CC_H */
