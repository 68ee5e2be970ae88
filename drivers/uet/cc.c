// SPDX-License-Identifier: GPL-2.0
/*
 * uet: NSCC, the sender-driven window of UET congestion control.
 *
 * The algorithm and its constants follow the UEC's public htsim model of
 * NSCC (UecSrc's NSCC paths and initNsccParams); Documentation/cc.rst
 * says where this code departs from it and why.
 *
 * Units: bytes, nanoseconds, and Q16 fractions (UET_NSCC_FP_ONE is 1.0).
 * Overflow: windows and per-call byte counts are clamped to
 * UET_NSCC_CWND_LIMIT (2^30) and times to UET_NSCC_TIME_LIMIT_NS (1 s,
 * below 2^30), and parameters are bounded by uet_nscc_params_valid(), so
 * each product below is at most 2^30 x 2^30 or 2^46 x 2^16 and fits a u64
 * with room; the one sum of unbounded length (the pending increase)
 * saturates.
 *
 * Locking: none here.  Every function works on one PDC's struct uet_nscc
 * and the caller holds that PDC's lock (uet_pdc.lock) around the call.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/types.h>
#include <uet/cc.h>
#include <uet/config.h>
#include <uet/kunit.h>
#include <uet/wire.h>

/* The model's reference BDP: 100 Gbit/s x 12 us = 150000 bytes. */
#define UET_NSCC_REF_BDP	((u64)UET_NSCC_REF_RATE_MBPS * \
				 UET_NSCC_REF_RTT_NS / 8000)

/* The model's fixed constants, as Q16 fractions. */
#define UET_NSCC_GAMMA		52429	/* 0.8 */
#define UET_NSCC_MAX_MD_JUMP	32768	/* 0.5 */
#define UET_NSCC_DELAY_EWMA	819	/* 0.0125 */
#define UET_NSCC_FAST_DELAY_NS	1000	/* 1 us */
#define UET_NSCC_QA_GATE	3	/* bytes delivered < max window / 8 */

/* Upper bounds of parameters that multiply byte counts (see the top). */
#define UET_NSCC_MTU_LIMIT	65536U
#define UET_NSCC_FAST_LIMIT	(64U << UET_NSCC_FP_SHIFT)

static u32 uet_nscc_clamp_bytes(u64 v)
{
	return min_t(u64, v, UET_NSCC_CWND_LIMIT);
}

/**
 * uet_nscc_params_init() - NSCC defaults derived as the model derives them
 * @p: parameters to fill
 * @link_rate_mbps: link rate, Mbit/s (0 counts as 1)
 * @base_rtt_ns: unloaded network RTT, ns (0 counts as 1, at most 1 s)
 * @mtu: bytes of a full packet as the window counts them (1..65536)
 * @trimming: the network trims instead of dropping, which lets the target
 *	queueing delay sit below a base RTT
 *
 * The increases scale with the network against the model's reference of
 * 100 Gbit/s and 12 us: a = BDP / 150000 bytes (a BDP of at least 4/3 of
 * @mtu, as the window's floor implies), b = target / 12 us.  Per
 * window of ACKs, fair increase adds 5 x @mtu x a bytes and proportional
 * increase up to 4 x @mtu x a x b; fast increase adds a / 4 per byte
 * acknowledged; eta, 0.15 x @mtu x a, comes once per base RTT.  The
 * target is 3/4 of the base RTT with trimming, one base RTT without; quick
 * adapt triggers on a delay of 4 targets.  The window runs from one @mtu
 * to 1.5 BDP, but never below two @mtu so a slow link still keeps two
 * packets in flight.
 *
 * Context: any; pure.
 */
void uet_nscc_params_init(struct uet_nscc_params *p, u32 link_rate_mbps,
			  u32 base_rtt_ns, u32 mtu, bool trimming)
{
	u64 bdp, a, b, prop;

	link_rate_mbps = max(link_rate_mbps, 1U);
	base_rtt_ns = clamp(base_rtt_ns, 1U, UET_NSCC_TIME_LIMIT_NS);
	mtu = clamp(mtu, 1U, UET_NSCC_MTU_LIMIT);

	memset(p, 0, sizeof(*p));
	p->link_rate_mbps = link_rate_mbps;
	p->base_rtt_ns = base_rtt_ns;
	p->mtu = mtu;
	/* Mbit/s x ns = 1e-3 bit: at most 2^32 x 2^30 */
	bdp = uet_nscc_clamp_bytes(div_u64((u64)link_rate_mbps * base_rtt_ns,
					   8000));
	/* 3 x 1 s still fits a u32 */
	p->target_qdelay_ns = trimming ? max(base_rtt_ns * 3 / 4, 1U) :
					 base_rtt_ns;

	/*
	 * a from the BDP the window's bounds imply: a window floored at two
	 * packets must be able to grow back to them, however small the BDP.
	 * a <= 2^30 x 2^16 / 150000 < 2^33; b <= 2^30 x 2^16 / 12000 < 2^33
	 */
	a = div_u64(max(bdp, 4ULL * mtu / 3) << UET_NSCC_FP_SHIFT,
		    UET_NSCC_REF_BDP);
	b = div_u64((u64)p->target_qdelay_ns << UET_NSCC_FP_SHIFT,
		    UET_NSCC_REF_RTT_NS);

	/* 5 x 2^16 x 2^33 < 2^52 */
	p->fair_inc = uet_nscc_clamp_bytes((5ULL * mtu * a) >>
					   UET_NSCC_FP_SHIFT);
	/* clamped to 2^30 first, so that x b < 2^63 */
	prop = uet_nscc_clamp_bytes((4ULL * mtu * a) >> UET_NSCC_FP_SHIFT);
	p->prop_inc = uet_nscc_clamp_bytes((prop * b) >> UET_NSCC_FP_SHIFT);
	p->fast_inc = min_t(u64, a / 4, UET_NSCC_FAST_LIMIT);
	p->eta = uet_nscc_clamp_bytes(div_u64(15ULL * mtu * a, 100) >>
				      UET_NSCC_FP_SHIFT);

	p->gamma = UET_NSCC_GAMMA;
	p->max_md_jump = UET_NSCC_MAX_MD_JUMP;
	p->delay_ewma = UET_NSCC_DELAY_EWMA;
	p->fast_delay_ns = UET_NSCC_FAST_DELAY_NS;
	/* the target is at most 1 s, 4 s still fits a u32 */
	p->qa_delay_ns = 4 * p->target_qdelay_ns;
	p->qa_gate = UET_NSCC_QA_GATE;
	p->adjust_bytes = 8 * mtu;
	p->adjust_period_ns = base_rtt_ns;

	p->min_cwnd = mtu;
	p->max_cwnd = uet_nscc_clamp_bytes(max(bdp * 3 / 2, 2ULL * mtu));
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_params_init);

/**
 * uet_nscc_params_valid() - check parameters within the arithmetic's bounds
 * @p: parameters
 *
 * Context: any; pure.
 * Return: 0, or -EINVAL when a field is out of its documented range or the
 * smallest window cannot hold one full packet.
 */
int uet_nscc_params_valid(const struct uet_nscc_params *p)
{
	if (!p->link_rate_mbps ||
	    !p->base_rtt_ns || p->base_rtt_ns > UET_NSCC_TIME_LIMIT_NS ||
	    !p->target_qdelay_ns ||
	    p->target_qdelay_ns > UET_NSCC_TIME_LIMIT_NS ||
	    !p->mtu || p->mtu > UET_NSCC_MTU_LIMIT ||
	    p->gamma > UET_NSCC_FP_ONE ||
	    !p->max_md_jump || p->max_md_jump > UET_NSCC_FP_ONE ||
	    p->fair_inc > UET_NSCC_CWND_LIMIT ||
	    p->prop_inc > UET_NSCC_CWND_LIMIT ||
	    p->fast_inc > UET_NSCC_FAST_LIMIT ||
	    p->fast_delay_ns > UET_NSCC_TIME_LIMIT_NS ||
	    p->eta > UET_NSCC_CWND_LIMIT ||
	    !p->delay_ewma || p->delay_ewma > UET_NSCC_FP_ONE ||
	    p->qa_gate > 31 ||
	    !p->adjust_bytes ||
	    !p->adjust_period_ns ||
	    p->adjust_period_ns > UET_NSCC_TIME_LIMIT_NS ||
	    p->min_cwnd < p->mtu || p->min_cwnd > p->max_cwnd ||
	    p->max_cwnd > UET_NSCC_CWND_LIMIT)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_params_valid);

/*
 * A PDC's largest window: the namespace's, scaled by this PDC's base RTT
 * against the namespace's (1.5 BDP when the defaults are in use), within
 * [2 x min_cwnd, max_cwnd].  rtt_ns <= p->base_rtt_ns: at most 2^30 x 2^30.
 */
static u32 uet_nscc_pdc_max(const struct uet_nscc_params *p, u32 rtt_ns)
{
	u64 m = div_u64((u64)p->max_cwnd * rtt_ns, p->base_rtt_ns);

	m = max_t(u64, m, 2ULL * p->min_cwnd);
	return min_t(u64, m, p->max_cwnd);
}

static void uet_nscc_bound(struct uet_nscc *n, const struct uet_nscc_params *p)
{
	n->cwnd = clamp(n->cwnd, p->min_cwnd, n->max_cwnd);
}

static void uet_nscc_record(struct uet_nscc *n, enum uet_nscc_action act)
{
	n->last_action = act;
	n->actions[act]++;
}

/**
 * uet_nscc_init() - start a PDC's NSCC state
 * @n: state to fill
 * @p: the namespace's parameters (valid)
 * @now_ns: current time, ns (non-zero)
 *
 * The window starts at its largest, so a new PDC sends a bandwidth-delay
 * product in its first RTT; the base RTT starts at the namespace's.
 *
 * Context: the caller holds the PDC's lock, or the PDC is not yet visible.
 */
void uet_nscc_init(struct uet_nscc *n, const struct uet_nscc_params *p,
		   u64 now_ns)
{
	memset(n, 0, sizeof(*n));
	n->base_rtt_ns = p->base_rtt_ns;
	n->target_qdelay_ns = p->target_qdelay_ns;
	n->max_cwnd = uet_nscc_pdc_max(p, p->base_rtt_ns);
	n->cwnd = n->max_cwnd;
	n->last_adjust_ns = now_ns;
	/* wraps harmlessly: the first decrease is never held back */
	n->last_dec_ns = now_ns - p->base_rtt_ns - 1;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_init);

/**
 * uet_nscc_rcvd_bytes() - bytes newly reported by an ACK_CC's Rcvd_Bytes
 * @n: NSCC state, under the PDC's lock
 * @rcvd_field: the 24-bit Rcvd_Bytes of the ACK's NSCC CC state (units of
 *	256 bytes, wrapping)
 * @psn_bytes: bytes of the PSNs the ACK acknowledges for the first time
 *
 * The field is a running count, so ACKs that arrive out of order carry
 * older counts: a count behind the last one (by serial number arithmetic
 * over 24 bits) reports nothing and leaves the state alone.  A target
 * that does not run NSCC sends plain ACKs, counted by their PSNs, and an
 * ACK_CC only to carry a SACK: after plain ACKs (@n->rcvd_rebase) the
 * count is a new base, and the ACK counts its PSNs, so that no byte is
 * taken out of flight twice.
 *
 * Context: the caller holds the PDC's lock.
 * Return: bytes the receiver got since the previous newest report, a
 * multiple of 256 below 2^31, or @psn_bytes on a new base; 0 for a stale
 * or repeated count.
 */
u32 uet_nscc_rcvd_bytes(struct uet_nscc *n, u32 rcvd_field, u32 psn_bytes)
{
	u32 delta = (rcvd_field - n->rcvd_units) & UET_NSCC_RCVD_MASK;

	if (n->rcvd_rebase) {
		n->rcvd_rebase = false;
		n->rcvd_units = rcvd_field & UET_NSCC_RCVD_MASK;
		return psn_bytes;
	}
	if (!delta || delta > UET_NSCC_RCVD_MASK / 2)
		return 0;
	n->rcvd_units = rcvd_field & UET_NSCC_RCVD_MASK;
	return delta << UET_NSCC_RCVD_SHIFT;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_rcvd_bytes);

/*
 * Fold a queueing delay sample into the average.  An ACK without ECN whose
 * sample is above target says the queue that delayed it has drained, so
 * the average decays towards a quarter of the base RTT instead of taking
 * the stale sample (as the model does).  avg_q <= 2^46 and the weights sum
 * to 2^16: each product is below 2^62.
 */
static void uet_nscc_avg(struct uet_nscc *n, const struct uet_nscc_params *p,
			 u32 delay_ns, bool ecn)
{
	u64 sample;

	if (!ecn && delay_ns > n->target_qdelay_ns)
		delay_ns = n->base_rtt_ns / 4;
	sample = (u64)min(delay_ns, UET_NSCC_TIME_LIMIT_NS) << UET_NSCC_FP_SHIFT;
	n->avg_delay_q = (n->avg_delay_q * (UET_NSCC_FP_ONE - p->delay_ewma) +
			  sample * p->delay_ewma) >> UET_NSCC_FP_SHIFT;
}

static void uet_nscc_inc(struct uet_nscc *n, u64 coef, u64 bytes)
{
	/* coef, bytes <= 2^30; only the sum can overflow */
	if (check_add_overflow(n->inc_bytes, coef * bytes, &n->inc_bytes))
		n->inc_bytes = U64_MAX;
}

/*
 * The delay past which quick adapt runs without a loss: four targets; on
 * a path slower than the configured base RTT, four targets of a base RTT
 * that slow (3/4 of it each, as uet_nscc_params_init() derives them).
 * min_rtt_ns <= 1 s: 3 s still fits a u32.
 */
static u32 uet_nscc_qa_delay(const struct uet_nscc *n,
			     const struct uet_nscc_params *p)
{
	if (n->min_rtt_ns > n->base_rtt_ns)
		return max(p->qa_delay_ns, 3 * n->min_rtt_ns);
	return p->qa_delay_ns;
}

/*
 * On a path slower than the configured base RTT, a period (base RTT +
 * target) ends at nearly every ACK and delivers one ACK's bytes: an
 * extreme delay there without a loss halves the window instead, at most
 * once a round trip (the lowest RTT plus @delay_ns, the sample's excess
 * over it).  Losses and trims, and every signal on a path the configured
 * base covers, set the window to what the period delivered.
 */
static enum uet_nscc_action uet_nscc_quick_adapt(struct uet_nscc *n,
						 const struct uet_nscc_params *p,
						 u32 delay_ns, u64 now_ns)
{
	/* every loss (trim, timeout, SACK gap) set qa_trigger first */
	if (!n->qa_trigger && n->min_rtt_ns > n->base_rtt_ns) {
		if (now_ns - n->last_dec_ns <= (u64)n->min_rtt_ns + delay_ns)
			return UET_NSCC_ACT_NONE;
		n->cwnd = max(n->cwnd / 2, p->min_cwnd);
		n->last_dec_ns = now_ns;
		return UET_NSCC_ACT_MULT_DEC;
	}
	n->cwnd = max_t(u64, n->qa_acked, p->min_cwnd);
	n->qa_ignore = n->in_flight;
	n->qa_ignored = 0;
	n->qa_trigger = false;
	return UET_NSCC_ACT_QUICK_ADAPT;
}

/*
 * Quick adapt: at the end of each period (base RTT + target), if a loss
 * was seen or the delay is extreme, and the bytes delivered in that period
 * are a small part of the largest window, the window becomes what was
 * delivered: after an incast the second RTT already matches the share of
 * the bottleneck this PDC got.  Only a sender held back in the period (a
 * full window, or data left waiting): what an application-limited one (a
 * ping-pong) delivers is what it sent, not its share, and its window, set
 * to that, would make every message wait for its ACK.  The ECN-marked
 * ACKs of what was in flight then are ignored afterwards, since they
 * report the queue quick adapt already answered.  On a path slower than
 * the configured base RTT (a host's own stack, a VM) @delay_ns is the
 * sample's excess over the lowest RTT and extreme past
 * uet_nscc_qa_delay(): measured from the configured base, every sample
 * would be; and there a delay alone halves the window rather than set it
 * (uet_nscc_quick_adapt()).  Returns QUICK_ADAPT, MULT_DEC or QA_IGNORE
 * when the caller must do nothing more, NONE otherwise.
 */
static enum uet_nscc_action uet_nscc_qa(struct uet_nscc *n,
					const struct uet_nscc_params *p,
					bool loss, bool ecn, u32 delay_ns,
					u64 now_ns)
{
	enum uet_nscc_action act = UET_NSCC_ACT_NONE;

	if (ecn && n->qa_ignored < n->qa_ignore) {
		act = UET_NSCC_ACT_QA_IGNORE;
	} else if (now_ns > n->qa_end_ns) {
		if (n->qa_end_ns &&
		    (n->qa_held || n->in_flight >= (s64)n->cwnd) &&
		    (n->qa_trigger || loss ||
		     delay_ns > uet_nscc_qa_delay(n, p)) &&
		    n->qa_acked < (n->max_cwnd >> p->qa_gate))
			act = uet_nscc_quick_adapt(n, p, delay_ns, now_ns);
		/* before the first period, what was sent counts for it */
		if (n->qa_end_ns)
			n->qa_held = false;
		n->qa_acked = 0;
		n->qa_end_ns = now_ns + n->base_rtt_ns + n->target_qdelay_ns;
	}
	if (act != UET_NSCC_ACT_NONE) {
		n->inc_bytes = 0;
		n->adjust_acked = 0;
	}
	return act;
}

/*
 * Fast increase: once a whole window was acknowledged at a delay under
 * fast_delay_ns, the network has room (a competitor left): grow by a
 * fraction of each ACK, exponentially, until the delay shows up.
 */
static bool uet_nscc_fast(struct uet_nscc *n, const struct uet_nscc_params *p,
			  u32 acked, u32 delay_ns)
{
	if (delay_ns < p->fast_delay_ns) {
		n->fast_count += acked;
		if (n->fast_count > n->cwnd || n->fast) {
			/* 2^30 x 2^22 */
			u64 add = ((u64)acked * p->fast_inc) >> UET_NSCC_FP_SHIFT;

			n->cwnd = uet_nscc_clamp_bytes(n->cwnd + add);
			n->fast = true;
			return true;
		}
	} else {
		n->fast_count = 0;
	}
	n->fast = false;
	return false;
}

/*
 * cwnd *= max(1 - gamma x (avg - target) / avg, max_md_jump), at most once
 * per base RTT, on the average delay: the excess over target is the part
 * of the window sitting in the queue, so all PDCs doing this drain it in
 * about one RTT.  gamma x excess <= 2^16 x 2^30.
 */
static enum uet_nscc_action uet_nscc_md(struct uet_nscc *n,
					const struct uet_nscc_params *p,
					u64 now_ns)
{
	u32 avg = uet_nscc_avg_delay_ns(n);
	u64 drop, factor;

	n->fast = false;
	n->fast_count = 0;
	if (avg <= n->target_qdelay_ns ||
	    now_ns - n->last_dec_ns <= n->base_rtt_ns)
		return UET_NSCC_ACT_MD_WAIT;

	drop = div_u64((u64)p->gamma * (avg - n->target_qdelay_ns), avg);
	factor = max_t(u64, UET_NSCC_FP_ONE - drop, p->max_md_jump);
	n->cwnd = ((u64)n->cwnd * factor) >> UET_NSCC_FP_SHIFT;
	n->cwnd = max(n->cwnd, p->min_cwnd);
	n->last_dec_ns = now_ns;
	return UET_NSCC_ACT_MULT_DEC;
}

/*
 * Apply the pending increase (bytes x bytes over the window: one window of
 * ACKs adds the per-window constant), plus eta once per adjust period.
 */
static void uet_nscc_adjust(struct uet_nscc *n,
			    const struct uet_nscc_params *p, u64 now_ns)
{
	u64 add = div_u64(n->inc_bytes, n->cwnd);

	if (now_ns - n->last_adjust_ns >= p->adjust_period_ns) {
		add += p->eta;
		n->last_adjust_ns = now_ns;
	}
	n->cwnd = uet_nscc_clamp_bytes(n->cwnd + min_t(u64, add,
						       UET_NSCC_CWND_LIMIT));
	n->inc_bytes = 0;
	n->adjust_acked = 0;
}

/**
 * uet_nscc_on_ack() - an ACK reported bytes received, an RTT and ECN
 * @n: NSCC state, under the PDC's lock
 * @p: the namespace's parameters (valid)
 * @acked: bytes newly received, from uet_nscc_rcvd_bytes() (0 is fine)
 * @rtt_ns: RTT sample of the packet the ACK is for, ns, with the
 *	receiver's service time already taken off; 0 when the ACK carries
 *	no safe sample (an ambiguous retransmission): the average delay
 *	stands in for it
 * @ecn: the ACK's M flag (the packet was ECN-marked)
 * @now_ns: current time, ns (non-zero)
 *
 * Takes @acked off the in-flight bytes, lowers the base RTT to a smaller
 * sample, then applies quick adapt or the ECN x delay quadrant, and folds
 * the pending increase into the window every adjust_bytes or
 * adjust_period_ns.
 *
 * Context: the caller holds the PDC's lock.
 * Return: the action taken.
 */
enum uet_nscc_action uet_nscc_on_ack(struct uet_nscc *n,
				     const struct uet_nscc_params *p,
				     u32 acked, u64 rtt_ns, bool ecn,
				     u64 now_ns)
{
	enum uet_nscc_action act;
	u32 delay, qa_delay;

	acked = min(acked, UET_NSCC_CWND_LIMIT);
	n->in_flight -= acked;
	n->qa_acked += acked;
	n->adjust_acked += acked;
	n->qa_ignored += acked;

	if (rtt_ns) {
		u32 rtt = min_t(u64, rtt_ns, UET_NSCC_TIME_LIMIT_NS);

		if (!n->min_rtt_ns || rtt < n->min_rtt_ns)
			n->min_rtt_ns = rtt;
		if (rtt < n->base_rtt_ns) {
			n->base_rtt_ns = rtt;
			n->max_cwnd = uet_nscc_pdc_max(p, rtt);
		}
		delay = rtt - n->base_rtt_ns;
		qa_delay = rtt - n->min_rtt_ns;
		uet_nscc_avg(n, p, delay, ecn);
	} else {
		delay = uet_nscc_avg_delay_ns(n);
		qa_delay = delay;
	}

	act = uet_nscc_qa(n, p, false, ecn, qa_delay, now_ns);
	if (act != UET_NSCC_ACT_NONE)
		goto out;

	if (!ecn && delay >= n->target_qdelay_ns) {
		uet_nscc_inc(n, p->fair_inc, acked);
		act = UET_NSCC_ACT_FAIR_INC;
	} else if (!ecn) {
		if (uet_nscc_fast(n, p, acked, delay)) {
			act = UET_NSCC_ACT_FAST_INC;
		} else {
			/* acked x (target - delay) <= 2^60, result <= acked */
			u64 x = div_u64((u64)acked *
					(n->target_qdelay_ns - delay),
					n->target_qdelay_ns);

			uet_nscc_inc(n, p->prop_inc, x);
			act = UET_NSCC_ACT_PROP_INC;
		}
	} else if (delay >= n->target_qdelay_ns) {
		act = uet_nscc_md(n, p, now_ns);
	} else {
		act = UET_NSCC_ACT_HOLD;
	}
	uet_nscc_bound(n, p);

	if (n->adjust_acked > p->adjust_bytes ||
	    now_ns - n->last_adjust_ns > p->adjust_period_ns)
		uet_nscc_adjust(n, p, now_ns);
out:
	uet_nscc_bound(n, p);
	uet_nscc_record(n, act);
	return act;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_on_ack);

/**
 * uet_nscc_on_trim() - a NACK said a packet was trimmed on its way
 * @n: NSCC state, under the PDC's lock
 * @p: the namespace's parameters (valid)
 * @bytes: the trimmed packet's size as the window counted it
 * @last_hop: trimmed at the receiver's last hop (UET_NACK_TRIMMED_LAST_HOP)
 * @now_ns: current time, ns (non-zero)
 *
 * The packet left the network: its bytes leave in-flight until it is sent
 * again.  A trim is a loss, so it asks for quick adapt at the end of the
 * period, and counts as a delay sample of one network base RTT (about
 * where switches start to trim).  Unless quick adapt runs now, the
 * packet's bytes come off the window; with RCCC on, a last-hop trim does
 * not shrink it since credit already paces that hop.
 *
 * Context: the caller holds the PDC's lock.
 * Return: the action taken.
 */
enum uet_nscc_action uet_nscc_on_trim(struct uet_nscc *n,
				      const struct uet_nscc_params *p,
				      u32 bytes, bool last_hop, u64 now_ns)
{
	enum uet_nscc_action act;

	bytes = min(bytes, UET_NSCC_CWND_LIMIT);
	n->in_flight -= bytes;
	n->qa_ignored += bytes;
	uet_nscc_avg(n, p, p->base_rtt_ns, true);
	n->qa_trigger = true;

	act = uet_nscc_qa(n, p, true, true, 0, now_ns);
	if (act == UET_NSCC_ACT_NONE && !(p->rccc && last_hop)) {
		n->cwnd = n->cwnd > bytes ? n->cwnd - bytes : 0;
		act = UET_NSCC_ACT_TRIM_DEC;
	}
	uet_nscc_bound(n, p);
	uet_nscc_record(n, act);
	return act;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_on_trim);

/**
 * uet_nscc_on_nack() - a NACK that is not a congestion signal
 * @n: NSCC state, under the PDC's lock
 * @bytes: the NACKed packet's size as the window counted it
 *
 * A NACK for a reason other than trimming (no resources at the receiver,
 * a PSN out of its window, ...) still means the packet left the network
 * and will be sent again: only in-flight changes.
 *
 * Context: the caller holds the PDC's lock.
 * Return: %UET_NSCC_ACT_NONE.
 */
enum uet_nscc_action uet_nscc_on_nack(struct uet_nscc *n, u32 bytes)
{
	n->in_flight -= min(bytes, UET_NSCC_CWND_LIMIT);
	uet_nscc_record(n, UET_NSCC_ACT_NONE);
	return UET_NSCC_ACT_NONE;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_on_nack);

/**
 * uet_nscc_on_timeout() - a packet's retransmission timer fired
 * @n: NSCC state, under the PDC's lock
 * @p: the namespace's parameters (valid)
 * @bytes: the packet's size as the window counted it
 * @now_ns: current time, ns (non-zero)
 *
 * The packet is given up for lost: its bytes leave in-flight and come off
 * the window, as in the model.  A loss also asks for quick adapt, as a
 * trim does; when that runs now it replaces the decrease.
 *
 * Context: the caller holds the PDC's lock.
 * Return: the action taken.
 */
enum uet_nscc_action uet_nscc_on_timeout(struct uet_nscc *n,
					 const struct uet_nscc_params *p,
					 u32 bytes, u64 now_ns)
{
	enum uet_nscc_action act;

	bytes = min(bytes, UET_NSCC_CWND_LIMIT);
	n->in_flight -= bytes;
	n->qa_trigger = true;

	act = uet_nscc_qa(n, p, true, false, 0, now_ns);
	if (act == UET_NSCC_ACT_NONE) {
		n->cwnd = n->cwnd > bytes ? n->cwnd - bytes : 0;
		act = UET_NSCC_ACT_TIMEOUT_DEC;
	}
	uet_nscc_bound(n, p);
	uet_nscc_record(n, act);
	return act;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_on_timeout);

/**
 * uet_nscc_undo() - a timeout proved spurious: take its reaction back
 * @n: NSCC state, under the PDC's lock
 * @p: the namespace's parameters (valid)
 * @cwnd: the window just before the timeout's reaction
 *
 * The packet was not lost: the window goes back to at least what it was,
 * and a quick adapt the loss asked for and that has not run yet is off.
 *
 * Context: the caller holds the PDC's lock.
 */
void uet_nscc_undo(struct uet_nscc *n, const struct uet_nscc_params *p,
		   u32 cwnd)
{
	n->cwnd = max(n->cwnd, cwnd);
	n->qa_trigger = false;
	uet_nscc_bound(n, p);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_undo);

/**
 * uet_nscc_can_send() - whether the window lets a packet out
 * @n: NSCC state, under the PDC's lock
 * @bytes: the packet's size as the window counts it
 *
 * Context: the caller holds the PDC's lock.
 * Return: true when in-flight plus @bytes fits the window.  With in-flight
 * below zero a little more than the window may go out; the next reports
 * take it back.
 */
bool uet_nscc_can_send(const struct uet_nscc *n, u32 bytes)
{
	return n->in_flight + bytes <= (s64)n->cwnd;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_can_send);

/**
 * uet_nscc_on_send() - a packet (new or retransmitted) went out
 * @n: NSCC state, under the PDC's lock
 * @bytes: its size as the window counts it
 *
 * A packet that fills the window marks the quick-adapt period as one the
 * sender was held back in (uet_nscc.qa_held).
 *
 * Context: the caller holds the PDC's lock.
 */
void uet_nscc_on_send(struct uet_nscc *n, u32 bytes)
{
	n->in_flight += bytes;
	if (n->in_flight >= (s64)n->cwnd)
		n->qa_held = true;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_on_send);

/**
 * uet_nscc_on_held() - the sender has data it may not send yet
 * @n: NSCC state, under the PDC's lock
 *
 * Held back by the window, the PSN window or credit rather than by its
 * application: the quick-adapt period counts as one that may quick-adapt
 * (uet_nscc.qa_held).
 *
 * Context: the caller holds the PDC's lock.
 */
void uet_nscc_on_held(struct uet_nscc *n)
{
	n->qa_held = true;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_on_held);

/**
 * uet_nscc_on_unmark() - a packet given up was acknowledged after all
 * @n: NSCC state, under the PDC's lock
 * @bytes: its size as the window counted it
 *
 * A packet NACKed or timed out left in-flight then; if it is acknowledged
 * before it is sent again, it did arrive and the receiver's count will
 * take its bytes off in-flight a second time: put them back first.
 *
 * Context: the caller holds the PDC's lock.
 */
void uet_nscc_on_unmark(struct uet_nscc *n, u32 bytes)
{
	n->in_flight += bytes;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nscc_on_unmark);

/**
 * uet_rccc_init_credit() - an initiator's credit before any grant
 * @link_rate_mbps: its link rate, Mbit/s
 * @base_rtt_ns: the base RTT, ns
 * @mss: payload bytes of a full packet
 *
 * One bandwidth-delay product, so that a lone sender is not slowed by
 * the round trip its first request takes, within %UET_RCCC_INIT_MIN_PKTS
 * and %UET_RCCC_INIT_MAX_PKTS full packets.
 *
 * Return: the initial credit in payload bytes.
 */
u32 uet_rccc_init_credit(u32 link_rate_mbps, u32 base_rtt_ns, u32 mss)
{
	/* Mbit/s x ns / 8000 = bytes; both are at most 32 bits */
	u64 bdp = div_u64((u64)link_rate_mbps * base_rtt_ns, 8000);

	return clamp_t(u64, bdp, (u64)UET_RCCC_INIT_MIN_PKTS * mss,
		       (u64)UET_RCCC_INIT_MAX_PKTS * mss);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_init_credit);

/**
 * uet_rccc_tx_init() - start an initiator PDC's credit
 * @r: the credit, under the PDC's lock
 * @init: the initial credit, bytes
 */
void uet_rccc_tx_init(struct uet_rccc_tx *r, u32 init)
{
	*r = (struct uet_rccc_tx){ .init = init };
	/* nothing asked yet: any request beyond the initial credit is new */
	r->asked = uet_rccc_req(r);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_tx_init);

/**
 * uet_rccc_req() - an initiator's cumulative request
 * @r: the credit, under the PDC's lock
 *
 * Return: the bytes queued beyond the initial credit, modulo 2^32, and no
 * more than UET_RCCC_REQ_AHEAD beyond the grant; below the grant
 * (compared signed) while the initial credit covers the queue.
 */
u32 uet_rccc_req(const struct uet_rccc_tx *r)
{
	u32 req = r->queued - r->init;
	u32 ahead = req - r->grant;

	/*
	 * Behind the grant it is at most the initial credit behind (a quiet
	 * PDC's request, uet_rccc_on_idle()): further is far ahead.
	 */
	if (ahead > UET_RCCC_REQ_AHEAD &&
	    ahead < 0U - UET_RCCC_INIT_MAX_PKTS * UET_MSS_MAX)
		return r->grant + UET_RCCC_REQ_AHEAD;
	return req;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_req);

/**
 * uet_rccc_need() - whether the initiator has a request to make
 * @r: the credit, under the PDC's lock
 *
 * Return: true when its request is beyond both the grant and the request
 * it last sent.
 */
bool uet_rccc_need(const struct uet_rccc_tx *r)
{
	u32 req = uet_rccc_req(r);

	return (s32)(req - r->grant) > 0 && (s32)(req - r->asked) > 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_need);

/**
 * uet_rccc_can_send() - whether a new data packet may go
 * @r: the credit, under the PDC's lock
 *
 * Return: true while some credit is left; the packet may overdraw it.
 */
bool uet_rccc_can_send(const struct uet_rccc_tx *r)
{
	return (s32)(r->init + r->grant - r->sent) > 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_can_send);

/**
 * uet_rccc_on_grant() - a CREDIT arrived
 * @r: the credit, under the PDC's lock
 * @grant: the target's cumulative grant it carries
 *
 * A grant older than the one held changes nothing; one beyond what was
 * queued counts as what was queued, so that a forged or confused CREDIT
 * cannot let out more than this end asked for.
 *
 * Return: true when the credit grew.
 */
bool uet_rccc_on_grant(struct uet_rccc_tx *r, u32 grant)
{
	u32 req = uet_rccc_req(r);

	if ((s32)(grant - req) > 0)
		grant = req;
	if ((s32)(grant - r->grant) <= 0)
		return false;
	r->grant = grant;
	return true;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_on_grant);

/**
 * uet_rccc_on_resend() - a retransmission spends credit as new data does
 * @r: the credit, under the PDC's lock
 * @bytes: its payload bytes
 *
 * A resent packet goes at once, credit or not, but it takes the link's
 * time as new data does: it is counted as sent, and queued again so that
 * the next request asks for it.  Otherwise losses at a paced last hop
 * would add their retransmissions to a full grant rate, and the queue they
 * overflow would lose more.
 */
void uet_rccc_on_resend(struct uet_rccc_tx *r, u32 bytes)
{
	r->queued += bytes;
	r->sent += bytes;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_on_resend);

/**
 * uet_rccc_on_wait_end() - a grant ended a wait for credit
 * @r: the credit, under the PDC's lock
 * @waited_ns: how long the wait lasted
 *
 * At a target that many senders share, a sender waits its turn at the
 * pacer, many round trips: the wait it usually sees, not its RTO, says
 * when a request has gone unanswered for too long.
 */
void uet_rccc_on_wait_end(struct uet_rccc_tx *r, u64 waited_ns)
{
	u32 w = min_t(u64, waited_ns, U32_MAX);

	if (!r->wait_ns)
		r->wait_ns = w;
	else
		r->wait_ns = r->wait_ns - (r->wait_ns >> 3) + (w >> 3);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_on_wait_end);

/**
 * uet_rccc_ask_ns() - how long a waiting initiator waits to ask again
 * @r: the credit, under the PDC's lock
 * @rto_ns: the PDC's retransmission timeout
 * @max_ns: its upper bound (rto-max)
 *
 * %UET_RCCC_ASK_WAITS usual waits, at least a timeout and at most
 * @max_ns, doubled for each request already repeated without a grant, up
 * to %UET_RCCC_BACKOFF_MAX times.  Repeating after one timeout while the
 * pacer serves a dozen others would cost the last hop a CREDIT_REQ for
 * nearly every grant, and make the target write off credit whose data is
 * still in its queue (uet_rccc_req_rx()).
 *
 * Return: the time in ns.
 */
u64 uet_rccc_ask_ns(const struct uet_rccc_tx *r, u64 rto_ns, u64 max_ns)
{
	u64 t = min_t(u64, (u64)UET_RCCC_ASK_WAITS * r->wait_ns, max_ns);

	return max(t, rto_ns) << min_t(u8, r->repeats, UET_RCCC_BACKOFF_MAX);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_ask_ns);

/**
 * uet_rccc_on_idle() - the PDC went quiet: its initial credit comes back
 * @r: the credit, under the PDC's lock; nothing is queued or in flight
 *
 * Once every byte queued was sent and granted, the credit is spent: each
 * later message would wait a round trip for a grant before its first
 * packet, a small one too.  A quiet PDC starts over as a new one does:
 * its initial credit (one BDP) goes without asking, and only what is
 * queued beyond it is asked for, as Homa sends a message's first RTT of
 * bytes unscheduled.  Not while the target still owes credit for bytes
 * already sent: the grant to come would add to the initial credit.  The
 * request this leaves is below what the target holds, which keeps the
 * higher one: the next request it sees is the next one above it.
 */
void uet_rccc_on_idle(struct uet_rccc_tx *r)
{
	if ((s32)(uet_rccc_req(r) - r->grant) <= 0 &&
	    (s32)(r->sent - r->grant) > 0) {
		r->queued = r->grant;
		r->sent = r->grant;
	}
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_on_idle);

/**
 * uet_rccc_demand() - credit a target still owes
 * @req: the highest request its initiator made
 * @grant: what it granted so far
 *
 * Return: the bytes requested and not granted, 0 if none.
 */
u32 uet_rccc_demand(u32 req, u32 grant)
{
	s32 d = req - grant;

	return d > 0 ? d : 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_demand);

/**
 * uet_rccc_unseen() - credit a target granted that no data has used yet
 * @grant: its cumulative grant to the PDC
 * @used: grant that arriving data used (wraps)
 * @lost: grant given up for lost (wraps)
 *
 * Return: the bytes still to come, 0 if none.
 */
u32 uet_rccc_unseen(u32 grant, u32 used, u32 lost)
{
	s32 d = grant - used - lost;

	return d > 0 ? d : 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_unseen);

/**
 * uet_rccc_bound() - credit a target may have out across its PDCs
 * @rate_mbps: its link rate, Mbit/s
 * @rtt_ns: the base RTT and the target queueing delay, ns
 * @target_ns: the target queueing delay, ns
 * @mss: payload bytes of a full packet
 *
 * What the link carries in @rtt_ns, and one packet more, in whole
 * packets: enough to keep it busy over a round trip with the target's
 * queue, and no more, however late the pacer's turns come.  The packet
 * more only where the link carries it within @target_ns more: a jumbo
 * packet on a slow link takes longer than the target delay, and would
 * keep the queue above twice it.  %UET_RCCC_BOUND_MIN_PKTS at least.
 *
 * Return: the bound in payload bytes, a multiple of @mss (not 0).
 */
u32 uet_rccc_bound(u32 rate_mbps, u32 rtt_ns, u32 target_ns, u32 mss)
{
	u64 b = DIV_ROUND_UP_ULL(uet_rccc_tokens(rate_mbps, rtt_ns, mss),
				 mss) + 1;
	u64 cap = div_u64(uet_rccc_tokens(rate_mbps, (u64)rtt_ns + target_ns,
					  mss), mss);

	b = max_t(u64, min(b, cap), UET_RCCC_BOUND_MIN_PKTS);
	return min_t(u64, b, (U32_MAX / 2) / mss) * mss;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_bound);

/**
 * uet_rccc_tokens() - payload bytes a link carries in some time
 * @rate_mbps: the link rate, Mbit/s
 * @elapsed_ns: the time, ns; counted up to %UET_RCCC_TICK_MAX_NS
 * @mss: payload bytes of a full packet
 *
 * The link carries the headers too: a full packet counts for
 * uet_cc_wire_bytes(@mss) on it, of which @mss are payload.  Of the
 * link's bytes 1/2^%UET_RCCC_HEADROOM_SHIFT is left over, so that a queue
 * that bursts and jitter build at the last hop drains.
 *
 * Return: the payload bytes.
 */
u64 uet_rccc_tokens(u32 rate_mbps, u64 elapsed_ns, u32 mss)
{
	u64 t = min(elapsed_ns, UET_RCCC_TICK_MAX_NS);

	/* the link's bytes first (< 2^38), less the headroom */
	t = div_u64(t * rate_mbps, 8000);
	t -= t >> UET_RCCC_HEADROOM_SHIFT;
	/* then their payload share */
	return div_u64(t * mss, uet_cc_wire_bytes(mss));
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_tokens);

/**
 * uet_rccc_cap() - tokens a pacer's turn may hold
 * @turn: payload bytes the link carries in one period between turns
 * @chunk: payload bytes of a turn's chunk
 * @bound: the bound on credit out, uet_rccc_bound()
 * @running: the turn before had PDCs owed credit left
 *
 * After idle, a turn's worth, a chunk at least.  While the pacer runs, a
 * turn that comes late catches up on %UET_RCCC_CATCHUP turns' worth, and
 * on @bound if that is more: a timer that fires far later than its
 * period (a busy CPU, a VM) must not cost the link what it could have
 * carried meanwhile, and the bound on credit out, not the tokens, is what
 * keeps a late turn's grants out of the last hop's queue.
 *
 * Return: the cap, bytes.
 */
u64 uet_rccc_cap(u64 turn, u32 chunk, u32 bound, bool running)
{
	u64 cap = max_t(u64, chunk, turn);

	if (running)
		cap = max_t(u64, cap * UET_RCCC_CATCHUP, bound);
	return cap;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rccc_cap);
