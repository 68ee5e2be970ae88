// SPDX-License-Identifier: GPL-2.0
/*
 * uet: RCCC, the receiver's credit: the target's pacer, and the CTRL
 * CREDIT_REQ and CREDIT packets of both ends.
 *
 * An initiator asks with CREDIT_REQ, carrying its cumulative request; a
 * target answers with CREDIT, carrying its cumulative grant.  A target
 * whose namespace runs RCCC grants through its pacer, at most
 * UET_RCCC_CHUNK_PKTS full packets to a PDC a turn, in turn over the PDCs
 * owed credit, at the namespace's link rate, and no further than
 * UET_RCCC_AHEAD_PKTS beyond the grant that stood when new data last
 * came; one that does not grants what is asked at once, so that a sender
 * running RCCC never waits on a peer without it.
 *
 * Across its PDCs a pacer keeps the credit out, granted and not yet used
 * by arriving data, within one round trip of its link and the target
 * queueing delay (uet_rccc_bound()): a turn that comes late, or grants
 * that come back at once, cannot put more than that into the last hop's
 * queue.  Data that uses credit also starts a turn that is due and that
 * the timer, late on a busy CPU or in a VM, has not run.  Data that does
 * not come is given back: a retransmission that fills a gap returns the
 * grant its lost original used, a repeated request says that the sender
 * spent what it had, and credit out with no data for UET_RCCC_LOST_RTTS
 * round trips is written off.
 *
 * A repeated request is answered with the grant as it stands: the
 * sender's timer repeats a request it got nothing for, which repairs a
 * lost CREDIT_REQ or CREDIT.
 *
 * The arithmetic is in cc.c (uet_rccc_*), the initiator's side in tx.c.
 * Lock order: uet_pdc.lock, then uet_rccc_pacer.lock (include/uet/rccc.h).
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <uet/cc.h>
#include <uet/net.h>
#include <uet/pdc.h>
#include <uet/rccc.h>
#include <uet/stats.h>
#include <uet/wire.h>

/* Shortest time between two turns of a pacer, ns. */
#define UET_RCCC_TURN_MIN_NS	20000
/* Round trips (and target delays) without data before credit out is lost. */
#define UET_RCCC_LOST_RTTS	4

/**
 * uet_rccc_ctl_out() - queue a CTRL CREDIT_REQ or CREDIT to a PDC's peer
 * @pdc: the PDC, locked: an initiator asks, a target grants
 * @type: %UET_CTRL_CREDIT_REQ or %UET_CTRL_CREDIT
 * @val: the cumulative request or grant, bytes
 * @ev: entropy value to send it on
 * @q: where the packet goes, sent once the lock is dropped
 */
void uet_rccc_ctl_out(struct uet_pdc *pdc, u8 type, u32 val, u16 ev,
		      struct sk_buff_head *q)
{
	bool initiator = pdc->key.role == UET_PDC_INITIATOR;
	struct uet_pds_ctrl *c;
	struct sk_buff *skb;

	skb = uet_ctl_skb(pdc, sizeof(*c), ev);
	if (!skb) {
		uet_stat_inc(pdc->un, UET_STAT_TX_NOMEM);
		return;
	}
	c = (struct uet_pds_ctrl *)skb->data;
	c->prologue = uet_prologue(UET_PDS_CTRL, type, 0);
	/* no PSN of its own: the next one, as a probe carries */
	c->psn = cpu_to_be32(initiator ? pdc->tx.snd_nxt : pdc->rx.epsn);
	c->spdcid = cpu_to_be16(pdc->lid);
	c->dpdcid = cpu_to_be16(initiator ? pdc->rid : pdc->key.rpdcid);
	c->payload = cpu_to_be32(val);
	__skb_queue_tail(q, skb);
	uet_stat_inc(pdc->un, type == UET_CTRL_CREDIT ?
			      UET_STAT_RCCC_CREDIT_TX : UET_STAT_RCCC_REQ_TX);
}

/* Put a locked target PDC on its pacer's list, and start the pacer. */
static void uet_rccc_queue(struct uet_pdc *pdc)
{
	struct uet_rccc_pacer *p = &pdc->un->rccc;

	if (pdc->rx.rccc_off || pdc->rx.rccc_held)
		return;
	spin_lock(&p->lock);
	if (!pdc->rx.rccc_queued) {
		list_add_tail(&pdc->rx.rccc_node, &p->pdcs);
		pdc->rx.rccc_queued = true;
		if (!p->armed) {
			p->armed = true;
			hrtimer_start(&p->timer, 0, HRTIMER_MODE_REL_SOFT);
		}
	}
	spin_unlock(&p->lock);
}

/**
 * uet_rccc_req_rx() - a target PDC got a CREDIT_REQ
 * @pdc: the target PDC, locked and live
 * @req: the initiator's cumulative request, bytes
 * @ev: the entropy value it came on, which grants go back on
 * @q: where an answer goes, sent once the lock is dropped
 *
 * A new request that the pacer is to meet gets its answer from the pacer.
 * Any other, or one made while the PDC is held (uet_rccc_grant()), draws
 * the grant as it stands at once: a request repeated while the PDC waits
 * its turn learns that this end is there, so that its sender does not
 * take the wait for a target gone (UET_RCCC_ASK_MAX).
 */
void uet_rccc_req_rx(struct uet_pdc *pdc, u32 req, u16 ev,
		     struct sk_buff_head *q)
{
	struct uet_pdc_rx *rx = &pdc->rx;
	bool raised = (s32)(req - rx->rccc_req) > 0;

	uet_stat_inc(pdc->un, UET_STAT_RCCC_REQ_RX);
	rx->rccc_ev = ev;
	if (raised)
		rx->rccc_req = req;
	else	/* asked again, its credit spent: what did not come is lost */
		WRITE_ONCE(rx->rccc_used, rx->rccc_used +
			   uet_rccc_unseen(rx->rccc_grant, rx->rccc_used,
					   READ_ONCE(rx->rccc_lost)));
	if (!uet_pdc_rccc(pdc)) {
		rx->rccc_grant = rx->rccc_req;
	} else if (uet_rccc_demand(rx->rccc_req, rx->rccc_grant)) {
		uet_rccc_queue(pdc);
		if (raised && !rx->rccc_held)
			return;
	}
	uet_rccc_ctl_out(pdc, UET_CTRL_CREDIT, rx->rccc_grant, ev, q);
}

/*
 * Should data that used credit start a turn now?  When the last turn
 * waits for credit out to come down (@blocked), or when the next turn is
 * overdue: a timer that fires late must not leave the link idle once the
 * senders have spent their credit, as long as data still comes.
 */
static bool uet_rccc_due(const struct uet_rccc_pacer *p)
{
	return READ_ONCE(p->blocked) ||
	       (READ_ONCE(p->running) &&
		(s64)(local_clock() - READ_ONCE(p->due_ns)) > 0);
}

/* Start the turn that uet_rccc_due() asks for, once until it runs. */
static void uet_rccc_wake(struct uet_rccc_pacer *p)
{
	spin_lock(&p->lock);
	if (uet_rccc_due(p)) {
		p->blocked = false;
		WRITE_ONCE(p->due_ns, local_clock() + p->period_ns);
		if (p->armed)
			hrtimer_start(&p->timer, 0, HRTIMER_MODE_REL_SOFT);
	}
	spin_unlock(&p->lock);
}

/**
 * uet_rccc_data_rx() - a data packet arrived on a target PDC
 * @pdc: the target PDC, locked and live
 * @len: its payload bytes
 * @resent: a retransmission of a PSN not received before: its original,
 *	which used credit too, was lost
 *
 * Its sender uses the credit it was granted, on new data or on a copy it
 * resent (a duplicate, whose ACK was lost): the pacer may grant
 * UET_RCCC_AHEAD_PKTS packets beyond the grant as it stands, and takes a
 * PDC it held for want of data back on its list.  Counting new data only
 * would leave a sender that spent its credit on copies waiting for a
 * grant, and the target waiting for its data, for good.  The credit out
 * comes down by what the packet used, and by its lost original's; and a
 * turn that waits for that, or that its timer has not run when due, runs
 * now (uet_rccc_due()).
 */
void uet_rccc_data_rx(struct uet_pdc *pdc, u32 len, bool resent)
{
	struct uet_pdc_rx *rx = &pdc->rx;
	u32 unseen = 0;

	if (uet_pdc_rccc(pdc))
		unseen = uet_rccc_unseen(rx->rccc_grant, rx->rccc_used,
					 READ_ONCE(rx->rccc_lost));
	if (unseen) {
		WRITE_ONCE(rx->rccc_used, rx->rccc_used +
			   min(unseen, resent ? 2 * len : len));
		WRITE_ONCE(rx->rccc_seen, jiffies);
		if (uet_rccc_due(&pdc->un->rccc))
			uet_rccc_wake(&pdc->un->rccc);
	}
	rx->rccc_fresh = rx->rccc_grant;
	if (unlikely(rx->rccc_held)) {
		rx->rccc_held = false;
		if (uet_rccc_demand(rx->rccc_req, rx->rccc_grant))
			uet_rccc_queue(pdc);
	}
}

/* What the pacer may still grant a locked target PDC before data comes. */
static u32 uet_rccc_room(const struct uet_pdc *pdc)
{
	u32 ahead = pdc->rx.rccc_grant - pdc->rx.rccc_fresh;
	u32 max = UET_RCCC_AHEAD_PKTS * pdc->mss;

	return ahead < max ? max - ahead : 0;
}

/*
 * Grant a target PDC, taken off the pacer's list, up to @chunk bytes, and
 * put it back at the end if it is owed more, or hold it until data comes
 * if it was granted all it may be before then.  Return: the bytes granted.
 */
static u32 uet_rccc_grant(struct uet_pdc *pdc, u32 chunk)
{
	struct uet_rccc_pacer *p = &pdc->un->rccc;
	struct uet_pdc_rx *rx = &pdc->rx;
	struct sk_buff_head q;
	u32 g = 0;

	__skb_queue_head_init(&q);
	spin_lock_bh(&pdc->lock);
	if (!pdc->dead && !rx->rccc_off) {
		g = min3(chunk, uet_rccc_demand(rx->rccc_req, rx->rccc_grant),
			 uet_rccc_room(pdc));
		if (g && !uet_rccc_unseen(rx->rccc_grant, rx->rccc_used,
					  READ_ONCE(rx->rccc_lost)))
			WRITE_ONCE(rx->rccc_seen, jiffies);
		WRITE_ONCE(rx->rccc_grant, rx->rccc_grant + g);
		if (g) {
			uet_rccc_ctl_out(pdc, UET_CTRL_CREDIT, rx->rccc_grant,
					 rx->rccc_ev, &q);
			spin_lock(&p->lock);
			if (list_empty(&rx->rccc_out_node))
				list_add_tail(&rx->rccc_out_node, &p->out);
			spin_unlock(&p->lock);
		}
		if (uet_rccc_demand(rx->rccc_req, rx->rccc_grant)) {
			if (uet_rccc_room(pdc))
				uet_rccc_queue(pdc);
			else
				rx->rccc_held = true;
		}
	}
	spin_unlock_bh(&pdc->lock);
	uet_xmit_queue(pdc->un, &q);
	return g;
}

/*
 * Credit out across a locked pacer's PDCs; a PDC's that saw no data for
 * @lost jiffies is written off, and a PDC with none out leaves the list.
 */
static u64 uet_rccc_out(struct uet_rccc_pacer *p, unsigned long lost)
{
	struct uet_pdc *pdc, *tmp;
	struct uet_pdc_rx *rx;
	u64 sum = 0;
	u32 u;

	list_for_each_entry_safe(pdc, tmp, &p->out, rx.rccc_out_node) {
		rx = &pdc->rx;
		u = uet_rccc_unseen(READ_ONCE(rx->rccc_grant),
				    READ_ONCE(rx->rccc_used), rx->rccc_lost);
		if (u && time_after(jiffies, READ_ONCE(rx->rccc_seen) + lost)) {
			WRITE_ONCE(rx->rccc_lost, rx->rccc_lost + u);
			uet_stat_add(pdc->un, UET_STAT_RCCC_LOST, u);
			u = 0;
		}
		if (!u)
			list_del_init(&rx->rccc_out_node);
		sum += u;
	}
	return sum;
}

/*
 * A pacer's turn: the link's bytes since the last turn, at most
 * uet_rccc_cap() (a turn's worth after idle, more while it runs), are
 * granted a chunk at a time in list order, the rest at once to a PDC
 * left alone on the list, as far as the bound on credit out allows.  The
 * PDCs it takes off the lists stay valid: uet_rccc_target_release() takes
 * a PDC off under the same lock before the PDC is freed after a grace
 * period, and a turn runs under RCU.
 */
static enum hrtimer_restart uet_rccc_turn(struct hrtimer *t)
{
	struct uet_rccc_pacer *p = container_of(t, struct uet_rccc_pacer,
						timer);
	struct uet_net *un = container_of(p, struct uet_net, rccc);
	enum hrtimer_restart ret = HRTIMER_RESTART;
	u64 now = ktime_get_ns(), period, cap, out;
	u32 rate, mss, chunk, rtt, target, bound;
	const struct uet_config *cfg;
	struct uet_pdc *pdc;
	unsigned long lost;

	rcu_read_lock();
	cfg = uet_cfg(un);
	rate = cfg->link_rate_mbps;
	mss = cfg->mss;
	chunk = UET_RCCC_CHUNK_PKTS * mss;
	target = cfg->cc_target_qdelay_ns ?: cfg->base_rtt_ns;
	rtt = cfg->base_rtt_ns + target;
	bound = uet_rccc_bound(rate, rtt, target, mss);
	lost = nsecs_to_jiffies((u64)UET_RCCC_LOST_RTTS * rtt) + 1;
	/* a turn every chunk's time on the link, or less often */
	period = max_t(u64, div_u64((u64)UET_RCCC_CHUNK_PKTS *
				    uet_cc_wire_bytes(mss) * 8000, rate),
		       UET_RCCC_TURN_MIN_NS);
	cap = uet_rccc_cap(uet_rccc_tokens(rate, period, mss), chunk, bound,
			   p->running);

	spin_lock_bh(&p->lock);
	/* no wake while this turn runs: it grants what it can itself */
	p->blocked = false;
	p->tokens = min_t(s64, p->tokens +
			       uet_rccc_tokens(rate, now - p->last_ns, mss), cap);
	p->last_ns = now;
	out = uet_rccc_out(p, lost);
	while (p->tokens > 0 && out + mss <= bound && !list_empty(&p->pdcs)) {
		pdc = list_first_entry(&p->pdcs, struct uet_pdc, rx.rccc_node);
		list_del_init(&pdc->rx.rccc_node);
		pdc->rx.rccc_queued = false;
		/*
		 * Alone, it takes the turn's tokens in one CREDIT rather than
		 * a CREDIT a chunk: chunks only share a turn among PDCs.
		 */
		if (list_empty(&p->pdcs))
			chunk = clamp_t(s64, p->tokens, chunk, U32_MAX / 2);
		/*
		 * Whole packets within the bound: a sender sends a full
		 * packet on any credit left, so a part of one would let a
		 * packet more out.
		 */
		chunk = min_t(u64, chunk, rounddown(bound - out, mss));
		spin_unlock_bh(&p->lock);
		chunk = uet_rccc_grant(pdc, chunk);
		spin_lock_bh(&p->lock);
		p->tokens -= chunk;
		out += chunk;
		chunk = UET_RCCC_CHUNK_PKTS * mss;
	}
	/* Under the lock: uet_rccc_queue() starts the timer only when idle. */
	p->running = !list_empty(&p->pdcs);
	p->blocked = p->running && p->tokens > 0;
	p->period_ns = period;
	WRITE_ONCE(p->due_ns, local_clock() + period);
	if (hrtimer_is_queued(t)) {
		/*
		 * A wake started the timer again between its expiry and
		 * this turn taking the lock: that start stands, and a
		 * started timer must not be forwarded.
		 */
		ret = HRTIMER_NORESTART;
	} else if (!p->running) {
		p->armed = false;
		ret = HRTIMER_NORESTART;
	} else {
		hrtimer_forward_now(t, ns_to_ktime(period));
	}
	spin_unlock_bh(&p->lock);
	rcu_read_unlock();
	return ret;
}

/**
 * uet_rccc_target_release() - take a target PDC off its pacer for good
 * @pdc: the target PDC, unlinked and dead
 *
 * Context: process (the namespace's work item), before the PDC is freed.
 */
void uet_rccc_target_release(struct uet_pdc *pdc)
{
	struct uet_rccc_pacer *p = &pdc->un->rccc;

	spin_lock_bh(&pdc->lock);
	pdc->rx.rccc_off = true;
	spin_lock(&p->lock);
	if (pdc->rx.rccc_queued) {
		list_del_init(&pdc->rx.rccc_node);
		pdc->rx.rccc_queued = false;
	}
	list_del_init(&pdc->rx.rccc_out_node);
	spin_unlock(&p->lock);
	spin_unlock_bh(&pdc->lock);
}

/**
 * uet_rccc_net_init() - set up a namespace's credit pacer
 * @un: the namespace
 */
void uet_rccc_net_init(struct uet_net *un)
{
	struct uet_rccc_pacer *p = &un->rccc;

	spin_lock_init(&p->lock);
	INIT_LIST_HEAD(&p->pdcs);
	INIT_LIST_HEAD(&p->out);
	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	p->timer.function = uet_rccc_turn;
	p->last_ns = ktime_get_ns();
}

/**
 * uet_rccc_net_exit() - stop a namespace's credit pacer
 * @un: the namespace, whose PDCs are all freed
 *
 * Context: process.
 */
void uet_rccc_net_exit(struct uet_net *un)
{
	WARN_ON(!list_empty(&un->rccc.pdcs));
	WARN_ON(!list_empty(&un->rccc.out));
	hrtimer_cancel(&un->rccc.timer);
}
