/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: RCCC, the receiver's credit (drivers/uet/rccc.c).
 *
 * An initiator PDC running RCCC sends beyond its initial credit only with
 * credit its target grants.  The target keeps, per namespace, one pacer
 * that grants at the namespace's link rate, a chunk at a time, in turn
 * over the PDCs owed credit: however many senders converge on it, they
 * together send what its link carries (Documentation/cc.rst, "RCCC").
 *
 * Lock order: uet_pdc.lock, then uet_rccc_pacer.lock.  The pacer's timer
 * takes a PDC off its list under its own lock, drops it, then takes the
 * PDC's lock to grant.
 */
#ifndef _UET_RCCC_H
#define _UET_RCCC_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct uet_net;
struct uet_pdc;

/**
 * struct uet_rccc_pacer - a namespace's credit pacer (RCCC targets)
 * @lock: protects the fields below but @timer, and the list fields of
 *	the target PDCs (uet_pdc_rx.rccc_node, rccc_queued, rccc_out_node)
 *	and their uet_pdc_rx.rccc_lost; taken inside
 *	uet_pdc.lock, never around it
 * @pdcs: target PDCs owed credit, in turn order
 * @out: target PDCs with credit out, granted and not yet used by data
 * @timer: the next turn; runs while @pdcs is not empty
 * @tokens: payload bytes the link may still be granted; a grant may take
 *	it below zero
 * @last_ns: time of the last turn
 * @armed: @timer is started or running its turn: only a turn that finds
 *	@pdcs empty stops it, only uet_rccc_queue() starts it when stopped
 * @running: the last turn left PDCs owed credit: the next one is late if
 *	it finds more than a turn's tokens, and may catch up
 * @blocked: the last turn left PDCs owed credit and tokens unspent, for
 *	credit out up to the bound (uet_rccc_bound()): data that uses some
 *	brings the next turn forward
 * @due_ns: while @running, when the next turn is due, local_clock():
 *	data that uses credit after it starts the turn that a late timer
 *	(a busy CPU, a VM) has not run yet
 * @period_ns: the time between turns that the last turn set
 */
struct uet_rccc_pacer {
	spinlock_t lock;	/* see kernel-doc above */
	struct list_head pdcs;
	struct list_head out;
	struct hrtimer timer;
	s64 tokens;
	u64 last_ns;
	u64 due_ns;
	u64 period_ns;
	bool armed;
	bool running;
	bool blocked;
};

void uet_rccc_net_init(struct uet_net *un);
void uet_rccc_net_exit(struct uet_net *un);
void uet_rccc_req_rx(struct uet_pdc *pdc, u32 req, u16 ev,
		     struct sk_buff_head *q);
void uet_rccc_data_rx(struct uet_pdc *pdc, u32 len, bool resent);
void uet_rccc_target_release(struct uet_pdc *pdc);
void uet_rccc_ctl_out(struct uet_pdc *pdc, u8 type, u32 val, u16 ev,
		      struct sk_buff_head *q);

#endif /* _UET_RCCC_H */
