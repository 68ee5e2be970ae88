// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the sending side of an initiator PDC, driven through its entry
 * points.  Messages go in by sendmsg(); the case, as the target, reads the
 * data packets sent and answers with ACKs, SACKs and NACKs it builds; the
 * timer runs when the case says.  Checked: what is sent (PSNs, flags,
 * offsets, retransmissions), what the sending socket gets back (its
 * charge, its error queue) and the counters.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <net/sock.h>
#include <uet/cc.h>
#include <uet/sock.h>
#include <uet/wire.h>
#include "kt.h"

/* A value to send ACKs on: the engine reads the value of the slot acked. */
#define T_EV		0x0123
/* Timeout of the cases that time out, us: longer than any of their steps. */
#define T_RTO_US	200000
#define T_RTO_WAIT_MS	(T_RTO_US / 1000 + 50)

static int uet_tx_test_wmem(struct uet_kt *kt)
{
	return atomic_read(&uet_sk(kt->tx->sk)->wmem);
}

/* The target acknowledges up to @cack; @trigger drew the ACK. */
static void uet_tx_test_ack(struct uet_kt *kt, u16 lid, u32 cack, u32 trigger,
			    u8 flags)
{
	struct uet_ack_info a = {
		.cack		= cack,
		.trigger	= trigger,
		.spdcid		= UET_KT_PEER_PDC,
		.dpdcid		= lid,
		.flags		= flags,
	};

	uet_kt_rcv_ack(kt, &a, T_EV);
}

/* The same, with a SACK bitmap from @base on. */
static void uet_tx_test_sack(struct uet_kt *kt, u16 lid, u32 cack, u32 base,
			     u64 bitmap, u32 trigger)
{
	struct uet_ack_info a = {
		.cack		= cack,
		.trigger	= trigger,
		.sack_base	= base,
		.bitmap		= bitmap,
		.spdcid		= UET_KT_PEER_PDC,
		.dpdcid		= lid,
		.cc		= true,
	};

	uet_kt_rcv_ack(kt, &a, T_EV);
}

/* Send a message of @n packets (the last one short) and read them. */
static u32 uet_tx_test_burst(struct uet_kt *kt, struct uet_rx_pkt *pk,
			     unsigned int n, u32 seed)
{
	u32 len = (n - 1) * UET_DEFAULT_MSS + 100;
	unsigned int i;

	KUNIT_ASSERT_EQ(kt->test, uet_kt_send(kt, len, seed), len);
	for (i = 0; i < n; i++)
		uet_kt_pop_data(kt, &pk[i], NULL);
	KUNIT_EXPECT_EQ(kt->test, uet_kt_pending(kt), 0);
	return len;
}

static void uet_tx_test_rto(struct uet_config *c)
{
	c->rto_min_us = T_RTO_US;
	c->rto_max_us = T_RTO_US;
}

/*
 * Cumulative ACKs free the window in PSN order; the message is done, and
 * its charge returned, when its last packet is acknowledged.
 */
static void uet_tx_test_ack_in_order(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_pdc_counts c;
	struct uet_rx_pkt pk[4], more;
	u32 len, s, i;
	u16 lid;

	len = uet_tx_test_burst(kt, pk, 4, 1);
	s = pk[0].psn;
	lid = pk[0].spdcid;
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, pk[i].psn, s + i);
		KUNIT_EXPECT_EQ(test, pk[i].spdcid, lid);
		/* no answer yet: SYN, with the PSN's offset from the start */
		KUNIT_EXPECT_TRUE(test, pk[i].flags & UET_REQ_SYN);
		KUNIT_EXPECT_EQ(test, FIELD_GET(UET_SYN_PSN_OFFSET,
						pk[i].dpdcid), i);
		KUNIT_EXPECT_EQ(test, pk[i].off, i * UET_DEFAULT_MSS);
		KUNIT_EXPECT_EQ(test, pk[i].msg_len, len);
		KUNIT_EXPECT_EQ(test, pk[i].job, UET_KT_JOB);
		KUNIT_EXPECT_EQ(test, pk[i].dst_ep, UET_KT_EP_PEER);
		KUNIT_EXPECT_EQ(test, pk[i].src_ep, UET_KT_EP_TX);
		/* an ACK at once for the PDC's first PSN and the last one */
		KUNIT_EXPECT_EQ(test, !!(pk[i].flags & UET_REQ_AR),
				i == 0 || i == 3);
	}
	KUNIT_EXPECT_EQ(test, pk[3].len, 100);

	/* the first two acknowledged: their slots go, the message stays */
	uet_tx_test_ack(kt, lid, s + 1, s + 1, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, lid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.out, 2);
	KUNIT_EXPECT_EQ(test, c.msgs, 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 0);
	KUNIT_EXPECT_GT(test, uet_tx_test_wmem(kt), 0);

	/* the rest: the message is done and its charge returned */
	uet_tx_test_ack(kt, lid, s + 3, s + 3, 0);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, lid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.out, 0);
	KUNIT_EXPECT_EQ(test, c.msgs, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_ACK_RX), 2);
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);

	/* the answers named the target's PDC: no SYN any more */
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 10, 2), 10);
	uet_kt_pop_data(kt, &more, NULL);
	KUNIT_EXPECT_EQ(test, more.psn, s + 4);
	KUNIT_EXPECT_FALSE(test, more.flags & UET_REQ_SYN);
	KUNIT_EXPECT_EQ(test, more.dpdcid, UET_KT_PEER_PDC);
	KUNIT_EXPECT_NE(test, more.msg_id, pk[0].msg_id);

	/* an ACK of PSNs never sent is forged: it changes nothing */
	uet_tx_test_ack(kt, lid, s + 10, s + 10, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_ACK_UNSENT), 1);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, lid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.out, 1);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

/*
 * A SACK bitmap frees the PSNs it names, out of order; the gap, shallower
 * than sack-retx-thresh, is not resent; a cumulative ACK over PSNs the
 * SACK freed already frees only the rest.
 */
static void uet_tx_test_sack_out_of_order(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_pdc_counts c;
	struct uet_rx_pkt pk[4];
	u32 s;
	u16 lid;

	uet_tx_test_burst(kt, pk, 4, 3);
	s = pk[0].psn;
	lid = pk[0].spdcid;

	/* s + 1 .. s + 3 received, s not */
	uet_tx_test_sack(kt, lid, s - 1, s, 0xe, s + 3);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_SACK_RX), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, lid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.out, 1);
	KUNIT_EXPECT_EQ(test, c.msgs, 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 0);

	/* the same SACK again frees nothing twice */
	uet_tx_test_sack(kt, lid, s - 1, s, 0xe, s + 3);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, lid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.out, 1);

	/* a SACK naming a PSN never sent is forged */
	uet_tx_test_sack(kt, lid, s - 1, s, BIT_ULL(4), s + 3);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_ACK_UNSENT), 1);

	uet_tx_test_ack(kt, lid, s + 3, s, 0);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, lid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.out, 0);
	KUNIT_EXPECT_EQ(test, c.msgs, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

/*
 * A trimmed packet is resent at once; one refused for want of resources
 * is held and resent at the timeout, as a NACK retransmission.
 */
static void uet_tx_test_nack_retransmit(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_pdc_counts c;
	struct uet_rx_pkt pk[4], re;
	u32 s;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_rto);
	uet_tx_test_burst(kt, pk, 4, 4);
	s = pk[0].psn;
	lid = pk[0].spdcid;

	/* a switch trimmed s + 2: resent now, whole, asking for an ACK */
	uet_kt_rcv_nack(kt, lid, 0, s + 2, UET_NACK_TRIMMED, 0, T_EV);
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, s + 2);
	KUNIT_EXPECT_EQ(test, re.off, pk[2].off);
	KUNIT_EXPECT_EQ(test, re.len, pk[2].len);
	KUNIT_EXPECT_TRUE(test, re.flags & UET_REQ_RETX);
	KUNIT_EXPECT_TRUE(test, re.flags & UET_REQ_AR);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_NACK), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_NACK_RX_TRIMMED), 1);

	/* the receiver had no room for s + 1: held, nothing sent now */
	uet_kt_rcv_nack(kt, lid, UET_KT_PEER_PDC, s + 1,
			UET_NACK_NO_RESOURCE, 0, T_EV);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_NACK_RX_NORES), 1);

	/* everything else received */
	uet_tx_test_sack(kt, lid, s, s + 1, 0x6, s + 3);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, lid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.out, 1);
	KUNIT_EXPECT_EQ(test, c.held, 1);

	/* the timeout resends the held packet alone */
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, T_RTO_WAIT_MS));
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, s + 1);
	KUNIT_EXPECT_TRUE(test, re.flags & UET_REQ_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_NACK), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT), 0);

	uet_tx_test_ack(kt, lid, s + 3, s + 1, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);
}

static void uet_tx_test_active(struct uet_config *c)
{
	c->spray = UET_SPRAY_ACTIVE;
}

/*
 * A trim NACK marks the value it comes on, the trimmed copy's: not the
 * value of a copy resent since, and also once the PSN is acknowledged.
 */
static void uet_tx_test_trim_value(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u32 len = 3 * UET_DEFAULT_MSS + 100;
	struct uet_rx_pkt pk[4], re;
	u16 ev[4], ev2, lid;
	unsigned int i;
	u32 s;

	uet_kt_config(kt, uet_tx_test_active);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, len, 8), len);
	for (i = 0; i < 4; i++)
		uet_kt_pop_data(kt, &pk[i], &ev[i]);
	s = pk[0].psn;
	lid = pk[0].spdcid;

	uet_kt_rcv_nack(kt, lid, 0, s + 2, UET_NACK_TRIMMED, 0, ev[2]);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_EV_MARK), 1);
	uet_kt_pop_data(kt, &re, &ev2);
	KUNIT_EXPECT_EQ(test, re.psn, s + 2);
	KUNIT_ASSERT_NE(test, ev2, ev[2]);

	/* the first copy's trim again: counted, resent, the new value clean */
	uet_kt_rcv_nack(kt, lid, 0, s + 2, UET_NACK_TRIMMED, 0, ev[2]);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_NACK_RX_TRIMMED), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_EV_MARK), 1);
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, s + 2);

	/* everything acknowledged, then s + 3's trim: its value marked */
	uet_tx_test_ack(kt, lid, s + 3, s + 3, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
	uet_kt_rcv_nack(kt, lid, UET_KT_PEER_PDC, s + 3, UET_NACK_TRIMMED, 0,
			ev[3]);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_EV_MARK), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

/*
 * A fatal NACK gives the message up at once (its socket hears why) and
 * fills its PSN with a CTRL NOP; the message goes when the NOP is
 * acknowledged.  Refused by a target with no PDC while another PSN is in
 * flight, the NOP waits, unsent and uncounted, until an answer names the
 * target's PDC.
 */
static void uet_tx_test_nack_fatal(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_pds_ctrl nop;
	struct uet_msg_err e;
	struct uet_rx_pkt pk;
	u32 s;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_rto);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100, 5), 100);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100, 6), 100);
	uet_kt_pop_data(kt, &pk, NULL);
	s = pk.psn;
	lid = pk.spdcid;
	uet_kt_pop_data(kt, &pk, NULL);
	KUNIT_EXPECT_EQ(test, pk.psn, s + 1);

	/* no endpoint at the target: refused from no PDC (id 0) */
	uet_kt_rcv_nack(kt, lid, 0, s, UET_NACK_FATAL, UET_RC_BAD_PID,
			T_EV);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_NACK_RX_FATAL), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_FAILED), 1);
	KUNIT_ASSERT_EQ(test, uet_kt_recv_err(kt, kt->tx, &e), 0);
	KUNIT_EXPECT_EQ(test, e.ue_errno, ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, e.ue_seq, 0);
	KUNIT_EXPECT_EQ(test, e.ue_len, 100);
	KUNIT_EXPECT_EQ(test, e.ue_dst.suet_job, UET_KT_JOB);
	KUNIT_EXPECT_EQ(test, e.ue_dst.suet_ep, UET_KT_EP_PEER);
	KUNIT_EXPECT_EQ(test, ntohl(e.ue_dst.suet_addr4.s_addr), 0x7f000002);
	KUNIT_EXPECT_EQ(test, uet_kt_recv_err(kt, kt->tx, &e), -EAGAIN);

	/* the PSN's NOP could name no PDC: a timeout resends the other one */
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, T_RTO_WAIT_MS));
	uet_kt_pop_data(kt, &pk, NULL);
	KUNIT_EXPECT_EQ(test, pk.psn, s + 1);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT), 1);
	KUNIT_EXPECT_GT(test, uet_tx_test_wmem(kt), 0);

	/*
	 * The other one opened the target's PDC, whose ACK names it; the NOP,
	 * out a timeout and overtaken, goes at once, to that PDC, and its ACK
	 * ends the PSN.
	 */
	uet_tx_test_ack(kt, lid, s - 1, s + 1, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
	uet_kt_pop_ctrl(kt, &nop, NULL);
	KUNIT_EXPECT_EQ(test, uet_prologue_next(nop.prologue), UET_CTRL_NOP);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(nop.psn), s);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(nop.spdcid), lid);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(nop.dpdcid), UET_KT_PEER_PDC);
	KUNIT_EXPECT_TRUE(test,
			  uet_prologue_flags(nop.prologue) & UET_CTRL_AR);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);

	uet_tx_test_ack(kt, lid, s + 1, s, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
}

/*
 * No ACK for a timeout: the oldest packet not acknowledged is resent,
 * once per timeout; nothing is once everything is acknowledged.
 */
static void uet_tx_test_rto_retransmit(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk[2], re;
	u32 s;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_rto);
	uet_tx_test_burst(kt, pk, 2, 6);
	s = pk[0].psn;
	lid = pk[0].spdcid;
	uet_tx_test_ack(kt, lid, s, s, 0);

	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, T_RTO_WAIT_MS));
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, s + 1);
	KUNIT_EXPECT_EQ(test, re.off, pk[1].off);
	KUNIT_EXPECT_TRUE(test, re.flags & UET_REQ_RETX);
	KUNIT_EXPECT_TRUE(test, re.flags & UET_REQ_AR);
	KUNIT_EXPECT_FALSE(test, re.flags & UET_REQ_SYN);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT), 1);

	uet_tx_test_ack(kt, lid, s + 1, s + 1, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);

	/* nothing in flight: a timeout sends nothing */
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, T_RTO_WAIT_MS));
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT), 1);
}

/* active, timeouts of T_RTO_US, and no probe of a bad value in the case */
static void uet_tx_test_active_rto(struct uet_config *c)
{
	uet_tx_test_rto(c);
	uet_tx_test_active(c);
	c->probe_period_ns = U32_MAX;
}

/*
 * A window lost whole: the PDC's timeout resends the oldest packet, and
 * its ACK, the first of a packet sent after the others, calls them lost
 * at once rather than one per timeout.  Lost with everything after them,
 * they make no value bad (active): only the oldest's timeout does.
 */
static void uet_tx_test_window_lost(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk[4], re;
	u32 len = 3 * UET_DEFAULT_MSS + 100;
	unsigned int i;
	u16 ev[4];
	u32 s;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_active_rto);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, len, 7), len);
	for (i = 0; i < 4; i++)
		uet_kt_pop_data(kt, &pk[i], &ev[i]);
	KUNIT_ASSERT_NE(test, ev[1], ev[0]);
	s = pk[0].psn;
	lid = pk[0].spdcid;

	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, T_RTO_WAIT_MS));
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, s);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_EV_BAD), 1);

	uet_tx_test_ack(kt, lid, s, s, UET_ACK_RETX);
	for (i = 1; i < 4; i++) {
		uet_kt_pop_data(kt, &re, NULL);
		KUNIT_EXPECT_EQ(test, re.psn, s + i);
		KUNIT_EXPECT_TRUE(test, re.flags & UET_REQ_RETX);
	}
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SACK), 3);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_EV_BAD), 1);

	uet_tx_test_ack(kt, lid, s + 3, s + 3, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);
}

/*
 * A timer run that comes late (the host busy) calls nothing lost at once:
 * the ACK behind it comes first and nothing is resent.  It looks again
 * only once: a second late run resends.
 */
static void uet_tx_test_late_timer(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk[2], re;
	u32 s;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_rto);
	uet_tx_test_burst(kt, pk, 2, 6);
	s = pk[0].psn;
	lid = pk[0].spdcid;

	/* due 100 ms ago, half a timeout: it waits */
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timer_late(kt, lid, T_RTO_WAIT_MS,
						     T_RTO_US / 2000));
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_TIMER_LATE), 1);
	uet_tx_test_ack(kt, lid, s, s, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT), 0);

	/* late again: it waits; late once more after the wait: it resends */
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timer_late(kt, lid, T_RTO_WAIT_MS,
						     T_RTO_US / 2000));
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_TIMER_LATE), 2);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timer_late(kt, lid,
						     T_RTO_US / 2000 + 10,
						     T_RTO_US / 2000));
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, s + 1);
	KUNIT_EXPECT_TRUE(test, re.flags & UET_REQ_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_TIMER_LATE), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT), 1);

	uet_tx_test_ack(kt, lid, s + 1, s + 1, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);
}

/*
 * A packet overtaken, and out for a timeout, is resent before the PDC's
 * timeout, which every ACK of anything restarts; that timeout then finds
 * the copy not late yet and runs from it, without resending it again.
 */
static void uet_tx_test_own_timeout(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk[3], re;
	u32 s;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_rto);
	uet_tx_test_burst(kt, pk, 3, 10);
	s = pk[0].psn;
	lid = pk[0].spdcid;
	/* 150 ms later the two after it arrive: the PDC's timeout restarts */
	msleep(150);
	uet_tx_test_sack(kt, lid, s - 1, s, 0x6, s + 2);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);

	/* 260 ms after the send, 110 after the ACK: its own timeout */
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, 110));
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, s);
	KUNIT_EXPECT_TRUE(test, re.flags & UET_REQ_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SACK), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT), 0);

	/* past the PDC's timeout, 120 ms after the copy: not late yet */
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, 120));
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT), 0);

	uet_tx_test_ack(kt, lid, s + 2, s, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);
}

static void uet_tx_test_giveup_cfg(struct uet_config *c)
{
	c->max_retx = 2;
	c->rto_min_us = 500 * USEC_PER_MSEC;
	c->rto_max_us = 500 * USEC_PER_MSEC;
}

/*
 * Real timers this time: a packet never acknowledged is resent every
 * 500 ms, beyond max-retx (2) until the target has been silent for 3 s
 * (5 times, fewer if the timer runs late), then the PDC gives up, closes,
 * and the socket hears ETIMEDOUT.  The next PDC to the peer starts its
 * PSNs away from the last one used.
 */
static void uet_tx_test_max_retx(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk, re;
	struct uet_msg_err e;
	unsigned int i;
	u64 n;
	u32 s;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_giveup_cfg);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100, 7), 100);
	KUNIT_ASSERT_TRUE(test, UET_KT_WAIT(uet_kt_pending(kt) > 0, 1000));
	uet_kt_pop_data(kt, &pk, NULL);
	s = pk.psn;
	lid = pk.spdcid;

	KUNIT_ASSERT_TRUE(test,
			  UET_KT_WAIT(!uet_kt_pdc(kt, lid, UET_PDC_INITIATOR,
						  NULL), 10000));
	uet_kt_gc(kt);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_CLOSE), 1);
	n = uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT);
	KUNIT_EXPECT_GT(test, n, 2);
	KUNIT_EXPECT_LE(test, n, 5);
	for (i = 0; i < n; i++) {
		uet_kt_pop_data(kt, &re, NULL);
		KUNIT_EXPECT_EQ(test, re.psn, s);
		KUNIT_EXPECT_TRUE(test, re.flags & UET_REQ_RETX);
	}
	/* never answered: no CLOSE either */
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_FAILED), 1);
	KUNIT_ASSERT_EQ(test, uet_kt_recv_err(kt, kt->tx, &e), 0);
	KUNIT_EXPECT_EQ(test, e.ue_errno, ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, e.ue_len, 100);
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);

	/* a late packet of the old PDC cannot fall in the new one's window */
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100, 8), 100);
	uet_kt_pop_data(kt, &pk, NULL);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 2);
	KUNIT_EXPECT_TRUE(test, pk.flags & UET_REQ_SYN);
	KUNIT_EXPECT_GE(test, pk.psn - s, (u32)BIT(16));
	KUNIT_EXPECT_GE(test, s - pk.psn, (u32)UET_PSN_WINDOW);
}

/*
 * The target's silence runs from its last answer, not from the PDC's
 * start: a PDC 3 s old whose target has just acknowledged a packet keeps
 * resending a hole past max-retx (2) for 3 s more (5 or 6 times, every
 * 500 ms) instead of giving up after 2.
 */
static void uet_tx_test_heard(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk, re;
	struct uet_msg_err e;
	unsigned int i;
	u64 n;
	u32 s;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_giveup_cfg);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100, 7), 100);
	KUNIT_ASSERT_TRUE(test, UET_KT_WAIT(uet_kt_pending(kt) > 0, 1000));
	uet_kt_pop_data(kt, &pk, NULL);
	s = pk.psn;
	lid = pk.spdcid;
	uet_tx_test_ack(kt, lid, s, s, 0);
	msleep(3100);

	/* s + 1 lost, s + 2 acknowledged: the target answered just now */
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100, 8), 100);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100, 9), 100);
	uet_kt_pop_data(kt, &pk, NULL);
	uet_kt_pop_data(kt, &pk, NULL);
	KUNIT_EXPECT_EQ(test, pk.psn, s + 2);
	uet_tx_test_sack(kt, lid, s, s + 1, 0x2, s + 2);

	KUNIT_ASSERT_TRUE(test,
			  UET_KT_WAIT(!uet_kt_pdc(kt, lid, UET_PDC_INITIATOR,
						  NULL), 10000));
	n = uet_kt_stat(kt, UET_STAT_RETX_TIMEOUT) +
	    uet_kt_stat(kt, UET_STAT_RETX_SACK);
	KUNIT_EXPECT_GE(test, n, 4);
	KUNIT_EXPECT_LE(test, n, 7);
	for (i = 0; i < n; i++) {
		uet_kt_pop_data(kt, &re, NULL);
		KUNIT_EXPECT_EQ(test, re.psn, s + 1);
	}
	KUNIT_ASSERT_EQ(test, uet_kt_recv_err(kt, kt->tx, &e), 0);
	KUNIT_EXPECT_EQ(test, e.ue_errno, ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, e.ue_len, 100);
}

/* No timeout in uet_tx_test_drain_budget(): only what it answers moves. */
static void uet_tx_test_no_rto(struct uet_config *c)
{
	c->rto_min_us = 10 * USEC_PER_SEC;
	c->rto_max_us = 10 * USEC_PER_SEC;
}

/* uet_tx_test_drain_budget(): the case's fixture and task, and counts. */
static struct uet_kt *t_echo_kt;
static struct task_struct *t_echo_task;
static bool t_echo_on;
static unsigned int t_echo_task_pkts;
static atomic_t t_echo_softirq;

/*
 * struct uet_net.test_xmit of uet_tx_test_drain_budget(): capture the
 * packet; while echoing, acknowledge a data packet the case's task sends
 * from within its transmission, as the inline softirq of a veth peer
 * would.  Other contexts are only counted: no KUnit assertion off the
 * case's task.
 */
static void uet_tx_test_echo_xmit(struct uet_net *un, struct sk_buff *skb)
{
	struct uet_kt *kt = READ_ONCE(t_echo_kt);
	struct uet_skb_cb *cb = UET_SKB_CB(skb);
	struct uet_rx_pkt pk;

	dst_release(cb->dst);
	cb->dst = NULL;
	if (!in_task())
		atomic_inc(&t_echo_softirq);
	skb_queue_tail(&kt->out, skb);
	if (current != t_echo_task)
		return;
	t_echo_task_pkts++;
	if (!READ_ONCE(t_echo_on))
		return;
	uet_kt_pop_data(kt, &pk, NULL);
	uet_tx_test_ack(kt, pk.spdcid, pk.psn, pk.psn, 0);
}

/*
 * A task sends at most a window's packets of a PDC's queue, then leaves
 * the queue to the PDC's work item, which sends the rest in order, in
 * process context.  The peer answers every packet the task sends at once,
 * as on veth, so that the queue never empties while the task sends it: a
 * task without a bound would send the whole message in sendmsg().
 */
static void uet_tx_test_drain_budget(struct kunit *test)
{
	u32 n = 2 * UET_PSN_WINDOW + 10, len = n * UET_DEFAULT_MSS, i;
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk, prev;

	uet_kt_config(kt, uet_tx_test_no_rto);
	WRITE_ONCE(t_echo_kt, kt);
	t_echo_task = current;
	t_echo_task_pkts = 0;
	atomic_set(&t_echo_softirq, 0);
	WRITE_ONCE(t_echo_on, true);
	WRITE_ONCE(kt->un->test_xmit, uet_tx_test_echo_xmit);

	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, len, 1), len);
	WRITE_ONCE(t_echo_on, false);
	/* the task sent the window it built; the answers refilled the queue */
	KUNIT_EXPECT_EQ(test, t_echo_task_pkts, UET_PSN_WINDOW);

	/* the work item sends the window the answers opened, in PSN order */
	KUNIT_ASSERT_TRUE(test, UET_KT_WAIT(uet_kt_pending(kt) >=
					    UET_PSN_WINDOW, 10000));
	for (i = 0; i < UET_PSN_WINDOW; i++) {
		uet_kt_pop_data(kt, &pk, NULL);
		if (i)
			KUNIT_EXPECT_EQ(test, pk.psn, prev.psn + 1);
		KUNIT_EXPECT_EQ(test, pk.off, (UET_PSN_WINDOW + i) *
					      UET_DEFAULT_MSS);
		prev = pk;
	}
	KUNIT_EXPECT_EQ(test, t_echo_task_pkts, UET_PSN_WINDOW);
	KUNIT_EXPECT_EQ(test, atomic_read(&t_echo_softirq), 0);
	/* the window is full again: nothing more without an answer */
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

static void uet_tx_test_reps(struct uet_config *c)
{
	uet_tx_test_no_rto(c);
	c->spray = UET_SPRAY_REPS;
}

/* A message 10 packets longer than the window, unanswered: its window. */
static void uet_tx_test_fill(struct uet_kt *kt, struct uet_rx_pkt *pk)
{
	u32 len = (UET_PSN_WINDOW + 10) * UET_DEFAULT_MSS;
	unsigned int i;

	KUNIT_ASSERT_EQ(kt->test, uet_kt_send(kt, len, 1), len);
	for (i = 0; i < UET_PSN_WINDOW; i++)
		uet_kt_pop_data(kt, &pk[i], NULL);
	KUNIT_EXPECT_EQ(kt->test, uet_kt_pending(kt), 0);
}

/*
 * The packet that fills the PSN window does not ask for an ACK: the
 * receiver's ACK every UET_ACK_EVERY packets frees the window, and asking
 * would draw an ACK per burst.
 */
static void uet_tx_test_full_window(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt *pk;
	unsigned int i, ar = 0;

	pk = kunit_kcalloc(test, UET_PSN_WINDOW, sizeof(*pk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pk);
	uet_kt_config(kt, uet_tx_test_no_rto);
	uet_tx_test_fill(kt, pk);
	for (i = 0; i < UET_PSN_WINDOW; i++)
		ar += !!(pk[i].flags & UET_REQ_AR);
	/* the PDC's first PSN only */
	KUNIT_EXPECT_EQ(test, ar, 1);
	KUNIT_EXPECT_TRUE(test, pk[0].flags & UET_REQ_AR);
	KUNIT_EXPECT_FALSE(test, pk[UET_PSN_WINDOW - 1].flags & UET_REQ_AR);
}

/* Under REPS it asks: early detection counts on the last packet's ACK. */
static void uet_tx_test_full_window_reps(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt *pk;

	pk = kunit_kcalloc(test, UET_PSN_WINDOW, sizeof(*pk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pk);
	uet_kt_config(kt, uet_tx_test_reps);
	uet_tx_test_fill(kt, pk);
	KUNIT_EXPECT_TRUE(test, pk[UET_PSN_WINDOW - 1].flags & UET_REQ_AR);
	KUNIT_EXPECT_FALSE(test, pk[UET_PSN_WINDOW - 2].flags & UET_REQ_AR);
}

static void uet_tx_test_burst_cfg(struct uet_config *c)
{
	uet_tx_test_no_rto(c);
	c->spray_burst = 4;
}

static void uet_tx_test_burst_reps_cfg(struct uet_config *c)
{
	uet_tx_test_reps(c);
	c->spray_burst = 4;
}

/* Send a message of 6 packets; their entropy values go to @ev. */
static void uet_tx_test_six(struct uet_kt *kt, u16 *ev)
{
	u32 len = 5 * UET_DEFAULT_MSS + 100;
	struct uet_rx_pkt pk;
	unsigned int i;

	KUNIT_ASSERT_EQ(kt->test, uet_kt_send(kt, len, 1), len);
	for (i = 0; i < 6; i++)
		uet_kt_pop_data(kt, &pk, &ev[i]);
}

/* spray-burst 4 under rr: four new packets a value, one turn a burst. */
static void uet_tx_test_spray_burst(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u16 ev[6];

	uet_kt_config(kt, uet_tx_test_burst_cfg);
	uet_tx_test_six(kt, ev);
	KUNIT_EXPECT_EQ(test, ev[1], ev[0]);
	KUNIT_EXPECT_EQ(test, ev[2], ev[0]);
	KUNIT_EXPECT_EQ(test, ev[3], ev[0]);
	KUNIT_EXPECT_NE(test, ev[4], ev[0]);
	KUNIT_EXPECT_EQ(test, ev[5], ev[4]);
}

/* reps takes a step a packet whatever spray-burst says: it explores. */
static void uet_tx_test_spray_burst_reps(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	unsigned int i, same = 0;
	u16 ev[6];

	uet_kt_config(kt, uet_tx_test_burst_reps_cfg);
	uet_tx_test_six(kt, ev);
	for (i = 1; i < 4; i++)
		same += ev[i] == ev[0];
	KUNIT_EXPECT_LT(test, same, 3);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_REPS_EXPLORE), 6);
}

/* REPS with a configured base RTT of 2 s: early detection after 6 s. */
static void uet_tx_test_slow_base_cfg(struct uet_config *c)
{
	uet_tx_test_reps(c);
	c->base_rtt_ns = 2 * NSEC_PER_SEC;
}

/*
 * A probe answer that lowers the base RTT brings the early-detection
 * deadlines of what is in flight forward, and the timer with them: left
 * where the old base RTT put it, it would report a failed path seconds
 * late.
 */
static void uet_tx_test_probe_base_rtt(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_ack_info a = {
		.flags		= UET_ACK_P,
		.opaque		= 7,
		.spdcid		= UET_KT_PEER_PDC,
	};
	struct uet_kt_tx st;
	struct uet_rx_pkt pk[2];
	u64 sent;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_slow_base_cfg);
	sent = ktime_get_ns();
	uet_tx_test_burst(kt, pk, 2, 9);
	lid = pk[0].spdcid;
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, lid, &st));
	KUNIT_EXPECT_GE(test, st.timer_at, sent + 6 * NSEC_PER_SEC);

	/*
	 * Answered after 1 s: early detection 3 s after the send.  Seconds,
	 * so that the timer cannot fire before the case reads it.
	 */
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_probe_sent(kt, lid, a.opaque, T_EV,
						     NSEC_PER_SEC));
	a.dpdcid = lid;
	a.cack = pk[0].psn - 1;
	uet_kt_rcv_ack(kt, &a, T_EV);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PROBE_ACK_RX), 1);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, lid, &st));
	KUNIT_EXPECT_GT(test, st.timer_at, 0);
	KUNIT_EXPECT_LE(test, st.timer_at, sent + 4 * NSEC_PER_SEC);
}

static void uet_tx_test_nscc_cfg(struct uet_config *c)
{
	c->cc = UET_CC_NSCC;
	c->rto_min_us = T_RTO_US;
	c->rto_max_us = T_RTO_US;
}

/*
 * NSCC against a target without it, which sends plain ACKs and an ACK_CC
 * only to carry a SACK: the plain ACKs take their PSNs out of flight, and
 * the ACK_CC's Rcvd_Bytes, which counts all the target got, does not take
 * them out a second time.
 */
static void uet_tx_test_nscc_plain_acks(struct kunit *test)
{
	u32 len = 3 * UET_DEFAULT_MSS, units, s, i;
	struct uet_kt *kt = test->priv;
	struct uet_ack_info a = {
		.spdcid		= UET_KT_PEER_PDC,
		.bitmap		= BIT_ULL(1),
		.cc		= true,
	};
	struct uet_rx_pkt pk;
	s64 one;

	uet_kt_config(kt, uet_tx_test_nscc_cfg);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, len, 1), len);
	for (i = 0; i < 3; i++)
		uet_kt_pop_data(kt, &pk, NULL);
	s = pk.psn - 2;
	a.dpdcid = pk.spdcid;
	one = uet_kt_nscc_in_flight(kt, pk.spdcid) / 3;
	KUNIT_ASSERT_GT(test, one, 0);
	uet_tx_test_ack(kt, pk.spdcid, s, s, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_nscc_in_flight(kt, pk.spdcid), 2 * one);

	/* the third SACKed, all three counted as received */
	units = DIV_ROUND_UP(3 * one, 1 << UET_NSCC_RCVD_SHIFT);
	a.cack = s;
	a.trigger = s + 2;
	a.sack_base = s + 1;
	a.cc_state = FIELD_PREP(UET_NSCC_RCVD_BYTES, units);
	uet_kt_rcv_ack(kt, &a, T_EV);
	KUNIT_EXPECT_EQ(test, uet_kt_nscc_in_flight(kt, pk.spdcid), one);
}

/*
 * Two packets under NSCC; the PDC's timeout resends the first and cuts the
 * window.  Return: the first PSN, with @lid and the state @before it.
 */
static u32 uet_tx_test_timed_out(struct kunit *test, u32 seed, u16 *lid,
				 struct uet_kt_tx *before)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk[2], re;
	struct uet_kt_tx st;

	uet_kt_config(kt, uet_tx_test_nscc_cfg);
	uet_tx_test_burst(kt, pk, 2, seed);
	*lid = pk[0].spdcid;
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, *lid, before));
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, *lid, T_RTO_WAIT_MS));
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, pk[0].psn);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, *lid, &st));
	KUNIT_EXPECT_LT(test, st.cwnd, before->cwnd);
	return pk[0].psn;
}

/*
 * A timeout whose original got through after all: the target answers the
 * resent copy, a duplicate, with an ACK naming a PSN acknowledged already,
 * and the timeout is found spurious: NSCC's cut is undone and the late
 * RTT goes into the timeout.  The ACK of a retransmission that was
 * needed (its PSN still in flight) finds nothing of the kind.
 */
static void uet_tx_test_spurious_timeout(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_kt_tx before, st;
	struct uet_rx_pkt re;
	u16 lid;
	u32 s = uet_tx_test_timed_out(test, 7, &lid, &before);

	/* the original's late ACK, then the duplicate's */
	uet_tx_test_ack(kt, lid, s, s, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SPURIOUS), 0);
	uet_tx_test_ack(kt, lid, s, s, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SPURIOUS), 1);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, lid, &st));
	KUNIT_EXPECT_GE(test, st.cwnd, before.cwnd);
	KUNIT_EXPECT_GE(test, st.late_rtt_us, T_RTO_WAIT_MS * USEC_PER_MSEC);
	uet_tx_test_ack(kt, lid, s, s, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SPURIOUS), 1);

	/* PSN s + 1 was lost: its retransmission's ACK is its first */
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, T_RTO_WAIT_MS));
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, s + 1);
	uet_tx_test_ack(kt, lid, s + 1, s + 1, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SPURIOUS), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
}

/*
 * A packet overtaken and out for a timeout is resent on its own; the copy
 * comes first, the original last (a host that held it): the original's
 * ACK names the PSN behind the cumulative one, the resend was spurious and
 * NSCC's cut is undone.  The copy delivered the PSN first, and a loss
 * rule's resend at that: the original's RTT stays out of the timeout.
 */
static void uet_tx_test_spurious_late_original(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_kt_tx before, st;
	struct uet_rx_pkt pk[3], re;
	u32 s;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_nscc_cfg);
	uet_tx_test_burst(kt, pk, 3, 11);
	s = pk[0].psn;
	lid = pk[0].spdcid;
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, lid, &before));
	/* as in uet_tx_test_own_timeout(): its own timeout comes first */
	msleep(150);
	uet_tx_test_sack(kt, lid, s - 1, s, 0x6, s + 2);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, 110));
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, s);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SACK), 1);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, lid, &st));
	KUNIT_EXPECT_LT(test, st.cwnd, before.cwnd);

	/* the copy's ACK acknowledges s: nothing shown yet */
	uet_tx_test_ack(kt, lid, s + 2, s, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SPURIOUS), 0);
	/* the original's */
	uet_tx_test_ack(kt, lid, s + 2, s, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SPURIOUS), 1);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, lid, &st));
	KUNIT_EXPECT_GE(test, st.cwnd, before.cwnd);
	KUNIT_EXPECT_EQ(test, st.late_rtt_us, before.late_rtt_us);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
}

/*
 * The PDC's timeout resends a PSN whose copy comes first and whose
 * original comes last: spurious, NSCC's cut undone, but the copy won the
 * race, so the original's RTT does not raise the timeout.
 */
static void uet_tx_test_spurious_copy_first(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_kt_tx before, st;
	u16 lid;
	u32 s = uet_tx_test_timed_out(test, 13, &lid, &before);

	/* the copy's ACK, then the original's */
	uet_tx_test_ack(kt, lid, s + 1, s, UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SPURIOUS), 0);
	uet_tx_test_ack(kt, lid, s + 1, s, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SPURIOUS), 1);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, lid, &st));
	KUNIT_EXPECT_GE(test, st.cwnd, before.cwnd);
	KUNIT_EXPECT_EQ(test, st.late_rtt_us, before.late_rtt_us);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);
}

/*
 * An ACK that names the PSN ending the cumulative range, as the target's
 * answer to a control packet does, proves nothing about a resend of it.
 */
static void uet_tx_test_spurious_at_cack(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk, re;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_nscc_cfg);
	uet_tx_test_burst(kt, &pk, 1, 12);
	lid = pk.spdcid;
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_timeout(kt, lid, T_RTO_WAIT_MS));
	uet_kt_pop_data(kt, &re, NULL);
	KUNIT_EXPECT_EQ(test, re.psn, pk.psn);
	uet_tx_test_ack(kt, lid, pk.psn, pk.psn, UET_ACK_RETX);
	uet_tx_test_ack(kt, lid, pk.psn, pk.psn, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RETX_SPURIOUS), 0);
}

static void uet_tx_test_held_cfg(struct uet_config *c)
{
	c->cc = UET_CC_NONE;
	c->ack_delay_us = 500;
	uet_tx_test_rto(c);
}

/*
 * With ack-delay, a message's end asks for no ACK unless something waits
 * for it (here, the send buffer more than half used); it times out
 * ack-delay later, and the time the target held an ACK (its Service_Time)
 * is no part of the RTT measured.
 */
static void uet_tx_test_ack_held(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk[2], one;
	struct uet_ack_info a = {
		.spdcid		= UET_KT_PEER_PDC,
		.cc		= true,
		.cc_state	= FIELD_PREP(UET_NSCC_SERVICE_TIME,
					     8000000 / UET_NSCC_SERVICE_NS),
	};
	u64 t0, t1, out_us, rto = (u64)T_RTO_US * NSEC_PER_USEC;
	struct uet_kt_tx st;
	int w;

	uet_kt_config(kt, uet_tx_test_held_cfg);
	t0 = ktime_get_ns();
	uet_tx_test_burst(kt, pk, 2, 1);
	t1 = ktime_get_ns();
	/* the PDC's first packet asks, its first message's end does not */
	KUNIT_EXPECT_TRUE(test, pk[0].flags & UET_REQ_AR);
	KUNIT_EXPECT_FALSE(test, pk[1].flags & UET_REQ_AR);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, pk[0].spdcid, &st));
	KUNIT_EXPECT_GE(test, st.rto_at, t0 + rto + 500 * NSEC_PER_USEC);
	KUNIT_EXPECT_LE(test, st.rto_at, t1 + rto + 500 * NSEC_PER_USEC);

	msleep(20);
	a.cack = pk[1].psn;
	a.trigger = pk[1].psn;
	a.dpdcid = pk[0].spdcid;
	uet_kt_rcv_ack(kt, &a, T_EV);
	out_us = div_u64(ktime_get_ns() - t0, NSEC_PER_USEC);
	KUNIT_ASSERT_TRUE(test, uet_kt_tx_read(kt, pk[0].spdcid, &st));
	KUNIT_EXPECT_GT(test, st.srtt_us, 0);
	KUNIT_EXPECT_LE(test, st.srtt_us, out_us - 8000);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_DONE), 1);

	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 10, 2), 10);
	uet_kt_pop_data(kt, &one, NULL);
	KUNIT_EXPECT_FALSE(test, one.flags & UET_REQ_AR);
	/* one more such message takes the send buffer past half: it asks */
	w = uet_tx_test_wmem(kt);
	WRITE_ONCE(kt->tx->sk->sk_sndbuf, 3 * w);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 10, 3), 10);
	uet_kt_pop_data(kt, &one, NULL);
	KUNIT_EXPECT_TRUE(test, one.flags & UET_REQ_AR);
}

static void uet_tx_test_rccc_cfg(struct uet_config *c)
{
	c->cc = UET_CC_RCCC;
	/* 1 Gbit/s x 131.072 us: a BDP, the initial credit, of 4 packets */
	c->link_rate_mbps = 1000;
	c->base_rtt_ns = 131072;
	c->rto_min_us = T_RTO_US;
	c->rto_max_us = T_RTO_US;
}

/*
 * Every PSN in flight refused by a target with no PDC (a client retrying
 * until its server binds): the PDC starts over at the next PSN, each
 * message going as the first of a new PDC, with the credit of one; none
 * waits behind NOPs that no PDC can take.  Its initial credit is 4
 * packets (uet_tx_test_rccc_cfg()): without the new start the fifth
 * message would wait for good.
 */
static void uet_tx_test_refused_restart(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk;
	u32 i, s = 0;

	uet_kt_config(kt, uet_tx_test_rccc_cfg);
	for (i = 0; i < 6; i++) {
		KUNIT_ASSERT_EQ(test, uet_kt_send(kt, UET_DEFAULT_MSS, i),
				UET_DEFAULT_MSS);
		uet_kt_pop_data(kt, &pk, NULL);
		if (!i)
			s = pk.psn;
		KUNIT_EXPECT_EQ(test, pk.psn, s + i);
		KUNIT_EXPECT_TRUE(test, pk.flags & UET_REQ_SYN);
		/* the first PSN of a new start */
		KUNIT_EXPECT_EQ(test, FIELD_GET(UET_SYN_PSN_OFFSET, pk.dpdcid),
				0);
		KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
		uet_kt_rcv_nack(kt, pk.spdcid, 0, pk.psn, UET_NACK_FATAL,
				UET_RC_BAD_PID, T_EV);
	}
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_MSGS_FAILED), 6);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_REQ_TX), 0);
	/* every message and its charge gone */
	KUNIT_EXPECT_EQ(test, uet_tx_test_wmem(kt), 0);
}

/* The next packet is a CTRL of @type; return its payload, @ev its value. */
static u32 uet_tx_test_pop_ctrl_ev(struct uet_kt *kt, u8 type, u16 lid,
				   u16 *ev)
{
	struct uet_pds_ctrl c;

	uet_kt_pop_ctrl(kt, &c, ev);
	KUNIT_EXPECT_EQ(kt->test, uet_prologue_next(c.prologue), type);
	KUNIT_EXPECT_EQ(kt->test, be16_to_cpu(c.spdcid), lid);
	KUNIT_EXPECT_EQ(kt->test, be16_to_cpu(c.dpdcid), UET_KT_PEER_PDC);
	return be32_to_cpu(c.payload);
}

static u32 uet_tx_test_pop_ctrl(struct uet_kt *kt, u8 type, u16 lid)
{
	return uet_tx_test_pop_ctrl_ev(kt, type, lid, NULL);
}

/*
 * RCCC: a PDC sends its initial credit (4 packets), asks for the rest once
 * the target has answered, asks again a timeout later when nothing came,
 * and sends what each CREDIT grants; an older grant changes nothing, and
 * one beyond what was asked counts as what was asked.  The repeated
 * request goes on the value of the packet that drew the last ACK, and
 * takes no step of rr's rotation: the next data packet has the value
 * after it.
 */
static void uet_tx_test_rccc(struct kunit *test)
{
	u32 len = 9 * UET_DEFAULT_MSS + 100, req, s, i;
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk[10];
	u16 lid, ev[6], req_ev;

	uet_kt_config(kt, uet_tx_test_rccc_cfg);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, len, 1), len);
	for (i = 0; i < 4; i++)
		uet_kt_pop_data(kt, &pk[i], &ev[i]);
	/* rr: one value after the other */
	KUNIT_EXPECT_EQ(test, ev[1], (u16)(ev[0] + 1));
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_WAIT), 1);
	/* the credit is spent: the last packet asks for its ACK */
	KUNIT_EXPECT_TRUE(test, pk[3].flags & UET_REQ_AR);
	s = pk[0].psn;
	lid = pk[0].spdcid;

	/* a CREDIT before the target has answered names no known target */
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT, lid, 0, 2 * UET_DEFAULT_MSS);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_POLICY), 1);

	/* the answer names the target: the request for the rest goes */
	uet_tx_test_ack(kt, lid, s + 3, s + 3, 0);
	req = len - 4 * UET_DEFAULT_MSS;
	KUNIT_EXPECT_EQ(test, uet_tx_test_pop_ctrl(kt, UET_CTRL_CREDIT_REQ,
						   lid), req);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);

	/* no answer: asked again a timeout later */
	KUNIT_EXPECT_TRUE(test, UET_KT_WAIT(uet_kt_pending(kt),
					    2 * T_RTO_WAIT_MS));
	KUNIT_EXPECT_EQ(test, uet_tx_test_pop_ctrl_ev(kt, UET_CTRL_CREDIT_REQ,
						      lid, &req_ev), req);
	KUNIT_EXPECT_EQ(test, req_ev, ev[3]);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_REQ_TX), 2);

	/* two packets' worth */
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT, lid, 0, 2 * UET_DEFAULT_MSS);
	for (i = 4; i < 6; i++) {
		uet_kt_pop_data(kt, &pk[i], &ev[i]);
		KUNIT_EXPECT_EQ(test, pk[i].psn, s + i);
	}
	KUNIT_EXPECT_EQ(test, ev[4], (u16)(ev[3] + 1));
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_CREDIT_RX), 1);

	/* an older grant */
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT, lid, 0, UET_DEFAULT_MSS);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_CREDIT_RX), 1);

	/* far more than asked: the rest of the message, nothing beyond */
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT, lid, 0, 0x70000000);
	for (i = 6; i < 10; i++)
		uet_kt_pop_data(kt, &pk[i], NULL);
	KUNIT_EXPECT_EQ(test, pk[9].len, 100);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_CREDIT_RX), 2);
	/* a second message: no credit left for it but the clamp's none */
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 10, 2), 10);
	KUNIT_EXPECT_EQ(test, uet_tx_test_pop_ctrl(kt, UET_CTRL_CREDIT_REQ,
						   lid), req + 10);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

/*
 * Wait for the PDC's next repeated request, and check it: at most
 * 1 << UET_RCCC_BACKOFF_MAX timeouts after the one before.
 */
static void uet_tx_test_reasked(struct uet_kt *kt, u16 lid, u32 req)
{
	KUNIT_ASSERT_TRUE(kt->test,
			  UET_KT_WAIT(uet_kt_pending(kt),
				      (2 << UET_RCCC_BACKOFF_MAX) *
				      T_RTO_WAIT_MS));
	KUNIT_EXPECT_EQ(kt->test, uet_tx_test_pop_ctrl(kt, UET_CTRL_CREDIT_REQ,
						       lid), req);
}

/*
 * Send @len bytes as the first message of an RCCC PDC, take its @n
 * packets and acknowledge them all.  Return: the first one's PSN, with
 * *@lid set to the PDC's id.
 */
static u32 uet_tx_test_rccc_first(struct uet_kt *kt, u32 len, u32 n,
				  u16 *lid)
{
	struct uet_rx_pkt pk;
	u32 i, s;

	uet_kt_config(kt, uet_tx_test_rccc_cfg);
	KUNIT_ASSERT_EQ(kt->test, uet_kt_send(kt, len, 1), len);
	for (i = 0; i < n; i++)
		uet_kt_pop_data(kt, &pk, NULL);
	s = pk.psn - (n - 1);
	*lid = pk.spdcid;
	uet_tx_test_ack(kt, *lid, s + n - 1, s + n - 1, 0);
	return s;
}

/*
 * RCCC: requests that get no answer, nothing in flight: after
 * UET_RCCC_ASK_MAX of them one packet goes uncredited, asking for its ACK.
 * A CREDIT that grants nothing new still counts as an answer.
 */
static void uet_tx_test_rccc_unanswered(struct kunit *test)
{
	u32 len = 9 * UET_DEFAULT_MSS + 100, req, s, i;
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk;
	u16 lid;

	s = uet_tx_test_rccc_first(kt, len, 4, &lid);
	req = len - 4 * UET_DEFAULT_MSS;
	KUNIT_EXPECT_EQ(test, uet_tx_test_pop_ctrl(kt, UET_CTRL_CREDIT_REQ,
						   lid), req);
	for (i = 0; i < UET_RCCC_ASK_MAX - 1; i++)
		uet_tx_test_reasked(kt, lid, req);
	/* the target is there, the pacer has not come to us yet */
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT, lid, 0, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	for (i = 0; i < UET_RCCC_ASK_MAX; i++) {
		uet_tx_test_reasked(kt, lid, req);
		/* nothing else until the last of them */
		KUNIT_EXPECT_EQ(test, uet_kt_pending(kt),
				i + 1 == UET_RCCC_ASK_MAX);
	}
	uet_kt_pop_data(kt, &pk, NULL);
	KUNIT_EXPECT_EQ(test, pk.psn, s + 4);
	KUNIT_EXPECT_TRUE(test, pk.flags & UET_REQ_AR);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

/*
 * RCCC: a PDC gone quiet with every byte granted starts over with its
 * initial credit: a small message goes at once, without asking and
 * without waiting a round trip for a grant; a message beyond the initial
 * credit asks for what is beyond it.
 */
static void uet_tx_test_rccc_quiet(struct kunit *test)
{
	u32 len = 4 * UET_DEFAULT_MSS, s, i;
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk;
	u16 lid;

	/* the initial credit, exactly */
	s = uet_tx_test_rccc_first(kt, len, 4, &lid);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);

	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 10, 2), 10);
	uet_kt_pop_data(kt, &pk, NULL);
	KUNIT_EXPECT_EQ(test, pk.psn, s + 4);
	KUNIT_EXPECT_EQ(test, pk.len, 10);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	uet_tx_test_ack(kt, lid, s + 4, s + 4, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);

	/* quiet again: the initial credit, then a request for the rest */
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, len + 10, 3), len + 10);
	for (i = 5; i < 9; i++) {
		uet_kt_pop_data(kt, &pk, NULL);
		KUNIT_EXPECT_EQ(test, pk.psn, s + i);
	}
	KUNIT_EXPECT_EQ(test, uet_tx_test_pop_ctrl(kt, UET_CTRL_CREDIT_REQ,
						   lid), 10);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_REQ_TX), 1);
}

/*
 * RCCC: a message queued on a quiet PDC that overdrew its credit and is
 * still owed a grant waits for it, and asks again a timeout later when
 * its request or the answer is lost: nothing is in flight whose timer
 * would otherwise wake the PDC.
 */
static void uet_tx_test_rccc_idle(struct kunit *test)
{
	u32 len = 3 * UET_DEFAULT_MSS + UET_DEFAULT_MSS / 2, s, i;
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk;
	u16 lid;

	uet_kt_config(kt, uet_tx_test_rccc_cfg);
	/* half a packet of credit left, and a packet that overdraws it */
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, len, 1), len);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, UET_DEFAULT_MSS, 2),
			UET_DEFAULT_MSS);
	for (i = 0; i < 5; i++)
		uet_kt_pop_data(kt, &pk, NULL);
	s = pk.psn - 4;
	lid = pk.spdcid;
	uet_tx_test_ack(kt, lid, s + 4, s + 4, 0);
	KUNIT_EXPECT_EQ(test, uet_tx_test_pop_ctrl(kt, UET_CTRL_CREDIT_REQ,
						   lid), UET_DEFAULT_MSS / 2);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);

	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 10, 3), 10);
	KUNIT_EXPECT_EQ(test, uet_tx_test_pop_ctrl(kt, UET_CTRL_CREDIT_REQ,
						   lid), UET_DEFAULT_MSS / 2 + 10);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	/* lost: asked again */
	uet_tx_test_reasked(kt, lid, UET_DEFAULT_MSS / 2 + 10);
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT, lid, 0,
			    UET_DEFAULT_MSS / 2 + 10);
	uet_kt_pop_data(kt, &pk, NULL);
	KUNIT_EXPECT_EQ(test, pk.psn, s + 5);
	KUNIT_EXPECT_EQ(test, pk.len, 10);
}

static void uet_tx_test_nosuper_cfg(struct uet_config *c)
{
	uet_tx_test_burst_cfg(c);
	c->superpackets = 0;
}

/*
 * Superpackets: on a device that carries UDP GSO of frag_list packets
 * with the tunnel bit, a burst of one message leaves as one GSO packet
 * whose parts carry several packets each; cut every gso_size bytes, it is
 * exactly the packets, consecutive, with their payloads.  With
 * superpackets off, none.
 */
static void uet_tx_test_super(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct net_device *lo = kt->net->loopback_dev;
	netdev_features_t old = lo->features;
	u32 len = 11 * UET_DEFAULT_MSS + 100, psn = 0, segs = 0, off = 0;
	u8 hbuf[UET_DATA_HDR_LEN], *pay;
	const struct uet_pds_req *req;
	struct uet_rx_pkt pk;
	int err;
	struct sk_buff *skb;
	const void *hdr;
	u16 lid;
	u32 i, g;

	pay = kunit_kmalloc(test, UET_DEFAULT_MSS, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pay);
	uet_kt_config(kt, uet_tx_test_burst_cfg);
	/* one message first, answered: no SYN any more */
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 10, 1), 10);
	uet_kt_pop_data(kt, &pk, NULL);
	lid = pk.spdcid;
	uet_tx_test_ack(kt, lid, pk.psn, pk.psn, 0);
	psn = pk.psn + 1;

	lo->features |= NETIF_F_GSO_UDP_TUNNEL;
	uet_kt_config(kt, uet_tx_test_burst_cfg);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, len, 2), len);
	lo->features = old;
	KUNIT_EXPECT_GT(test, uet_kt_stat(kt, UET_STAT_TX_SUPER), 0);
	while ((skb = uet_kt_pop(kt))) {
		g = skb_shinfo(skb)->gso_size ?: skb->len;
		if (skb_is_gso(skb)) {
			KUNIT_EXPECT_TRUE(test, skb_shinfo(skb)->gso_type &
						SKB_GSO_UDP_L4);
			/* the tunnel bit only with a frag_list */
			KUNIT_EXPECT_EQ(test,
					!!(skb_shinfo(skb)->gso_type &
					   SKB_GSO_UDP_TUNNEL),
					skb_has_frag_list(skb));
			KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_segs,
					DIV_ROUND_UP(skb->len, g));
		}
		for (i = 0; i * g < skb->len; i++) {
			u32 sl = min(g, skb->len - i * g), k;

			hdr = skb_header_pointer(skb, i * g, sizeof(hbuf), hbuf);
			KUNIT_ASSERT_NOT_NULL(test, hdr);
			if (uet_prologue_type(*(const __be16 *)hdr) !=
			    UET_PDS_RUD_REQ)
				break;
			req = hdr;
			KUNIT_EXPECT_EQ(test, psn, be32_to_cpu(req->psn));
			KUNIT_ASSERT_LE(test, sl - UET_DATA_HDR_LEN,
					(u32)UET_DEFAULT_MSS);
			err = skb_copy_bits(skb, i * g + UET_DATA_HDR_LEN, pay,
					    sl - UET_DATA_HDR_LEN);
			KUNIT_ASSERT_EQ(test, err, 0);
			for (k = 0; k < sl - UET_DATA_HDR_LEN; k++)
				if (pay[k] != uet_kt_byte(2, off + k))
					break;
			KUNIT_EXPECT_EQ(test, k, sl - UET_DATA_HDR_LEN);
			off += sl - UET_DATA_HDR_LEN;
			psn++;
			segs++;
		}
		kfree_skb(skb);
	}
	KUNIT_EXPECT_EQ(test, segs, 12);
	KUNIT_EXPECT_EQ(test, off, len);

	segs = uet_kt_stat(kt, UET_STAT_TX_SUPER);
	lo->features |= NETIF_F_GSO_UDP_TUNNEL;
	uet_kt_config(kt, uet_tx_test_nosuper_cfg);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, len, 3), len);
	lo->features = old;
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_TX_SUPER), segs);
	uet_kt_purge(kt);
}

static struct kunit_case uet_tx_test_cases[] = {
	KUNIT_CASE(uet_tx_test_ack_in_order),
	KUNIT_CASE(uet_tx_test_sack_out_of_order),
	KUNIT_CASE(uet_tx_test_nack_retransmit),
	KUNIT_CASE(uet_tx_test_trim_value),
	KUNIT_CASE(uet_tx_test_nack_fatal),
	KUNIT_CASE(uet_tx_test_rto_retransmit),
	KUNIT_CASE(uet_tx_test_own_timeout),
	KUNIT_CASE(uet_tx_test_window_lost),
	KUNIT_CASE(uet_tx_test_late_timer),
	KUNIT_CASE(uet_tx_test_max_retx),
	KUNIT_CASE(uet_tx_test_heard),
	KUNIT_CASE(uet_tx_test_drain_budget),
	KUNIT_CASE(uet_tx_test_full_window),
	KUNIT_CASE(uet_tx_test_full_window_reps),
	KUNIT_CASE(uet_tx_test_spray_burst),
	KUNIT_CASE(uet_tx_test_super),
	KUNIT_CASE(uet_tx_test_spray_burst_reps),
	KUNIT_CASE(uet_tx_test_probe_base_rtt),
	KUNIT_CASE(uet_tx_test_nscc_plain_acks),
	KUNIT_CASE(uet_tx_test_spurious_timeout),
	KUNIT_CASE(uet_tx_test_spurious_late_original),
	KUNIT_CASE(uet_tx_test_spurious_copy_first),
	KUNIT_CASE(uet_tx_test_spurious_at_cack),
	KUNIT_CASE(uet_tx_test_refused_restart),
	KUNIT_CASE(uet_tx_test_rccc),
	KUNIT_CASE(uet_tx_test_rccc_unanswered),
	KUNIT_CASE(uet_tx_test_rccc_quiet),
	KUNIT_CASE(uet_tx_test_rccc_idle),
	KUNIT_CASE(uet_tx_test_ack_held),
	{}
};

static struct kunit_suite uet_tx_test_suite = {
	.name = "uet_tx",
	.init = uet_kt_init,
	.exit = uet_kt_exit,
	.test_cases = uet_tx_test_cases,
};

kunit_test_suite(uet_tx_test_suite);
