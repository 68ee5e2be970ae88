// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the receiving side of a target PDC, driven through its entry
 * point.  The case, as the initiator, sends data packets it builds, in
 * the order it chooses, with duplicates; checked are the ACKs and NACKs
 * the target sends back (cumulative PSN, SACK bitmap, codes), the
 * messages the receiving socket gets (whole, once, byte for byte) and the
 * counters - never how the target keeps a message meanwhile.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <net/sock.h>
#include <uet/msg.h>
#include <uet/sock.h>
#include "kt.h"

#define T_BUF		8192

/* Packet @j of message @msg_id, @msg_len bytes cut every @seg, at @psn. */
static void uet_rx_test_pkt(struct uet_kt *kt, u32 start, u32 psn, u16 msg_id,
			    u32 msg_len, u32 seg, u32 j, u8 flags)
{
	struct uet_kt_data d = {
		.psn		= psn,
		.start		= start,
		.flags		= flags,
		.msg_id		= msg_id,
		.msg_len	= msg_len,
		.off		= j * seg,
		.len		= min(seg, msg_len - j * seg),
		.ev		= 0x100 + j,
	};

	uet_kt_rcv_data(kt, &d);
}

/* Receive one message of @len bytes, @seed's, from the peer. */
static void uet_rx_test_recv(struct uet_kt *kt, u8 *buf, u32 len, u32 seed)
{
	struct sockaddr_uet from;
	int n;

	n = uet_kt_recv(kt, buf, T_BUF, &from);
	KUNIT_ASSERT_EQ(kt->test, n, (int)len);
	KUNIT_EXPECT_TRUE(kt->test, uet_kt_payload_ok(buf, len, seed));
	KUNIT_EXPECT_EQ(kt->test, from.suet_family, AF_UET);
	KUNIT_EXPECT_EQ(kt->test, from.suet_ip_family, AF_INET);
	KUNIT_EXPECT_EQ(kt->test, ntohl(from.suet_addr4.s_addr), 0x7f000002);
	KUNIT_EXPECT_EQ(kt->test, from.suet_job, UET_KT_JOB);
	KUNIT_EXPECT_EQ(kt->test, from.suet_ep, UET_KT_EP_PEER);
}

static u8 *uet_rx_test_buf(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, T_BUF, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/*
 * In order, across the 2^32 PSN wrap: the target opens on the SYN,
 * acknowledges when asked, and the socket gets the message once whole.
 */
static void uet_rx_test_in_order(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u32 s = 0xfffffffe, len = 2500;
	u8 *buf = uet_rx_test_buf(test);
	struct uet_pdc_counts c;
	struct uet_ack_info a;
	struct uet_kt_data d;
	u16 ev, tlid;

	uet_rx_test_pkt(kt, s, s, 1, len, 1024, 0, UET_REQ_SYN);
	uet_rx_test_pkt(kt, s, s + 1, 1, len, 1024, 1, UET_REQ_SYN);
	/* not asked, and fewer than UET_ACK_EVERY: no ACK yet */
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL), -EAGAIN);

	uet_rx_test_pkt(kt, s, s + 2, 1, len, 1024, 2,
			UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, &ev);
	KUNIT_EXPECT_FALSE(test, a.cc);
	KUNIT_EXPECT_EQ(test, a.cack, s + 2);
	KUNIT_EXPECT_EQ(test, a.trigger, s + 2);
	KUNIT_EXPECT_EQ(test, a.dpdcid, UET_KT_PEER_PDC);
	KUNIT_EXPECT_EQ(test, a.flags, 0);
	/* on the entropy value of the packet that drew it */
	KUNIT_EXPECT_EQ(test, ev, 0x102);
	tlid = a.spdcid;
	KUNIT_EXPECT_NE(test, tlid, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);

	uet_rx_test_recv(kt, buf, len, 1);
	KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL), -EAGAIN);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MSGS), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKTS), 3);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_BYTES), len);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_OOO), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 1);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, tlid, UET_PDC_TARGET, &c));
	KUNIT_EXPECT_EQ(test, c.msgs, 0);
	KUNIT_EXPECT_EQ(test, c.out, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kt->rx->sk->sk_rmem_alloc), 0);

	/* answered: the next packet names the target's PDC, no SYN */
	d = (struct uet_kt_data) {
		.psn = s + 3, .dpdcid = tlid, .flags = UET_REQ_AR,
		.msg_id = 2, .msg_len = 10, .len = 10,
	};
	uet_kt_rcv_data(kt, &d);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 3);
	KUNIT_EXPECT_EQ(test, a.spdcid, tlid);
	uet_rx_test_recv(kt, buf, 10, 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 1);
}

#define T_OOO_PKTS	6

/*
 * Out of order: every ACK's cumulative PSN and SACK bitmap say exactly
 * which PSNs arrived; the message is handed over once its last missing
 * packet is in, intact.
 */
static void uet_rx_test_out_of_order(struct kunit *test)
{
	static const u32 order[T_OOO_PKTS] = { 5, 3, 1, 0, 4, 2 };
	struct uet_kt *kt = test->priv;
	u32 s = 0xfffffffd, seg = 512, len = T_OOO_PKTS * 512 - 123;
	u8 *buf = uet_rx_test_buf(test);
	bool got[T_OOO_PKTS] = {};
	u32 k, i, next = 0, ooo = 0, sacks = 0;
	struct uet_ack_info a;
	u64 bits;

	for (k = 0; k < T_OOO_PKTS; k++) {
		u32 j = order[k];

		KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL),
				-EAGAIN);
		uet_rx_test_pkt(kt, s, s + j, 1, len, seg, j,
				UET_REQ_SYN | UET_REQ_AR);
		if (j > next)
			ooo++;
		got[j] = true;
		while (next < T_OOO_PKTS && got[next])
			next++;
		bits = 0;
		for (i = next; i < T_OOO_PKTS; i++)
			if (got[i])
				bits |= BIT_ULL(i - next);
		sacks += !!bits;

		uet_kt_pop_ack(kt, &a, NULL);
		KUNIT_EXPECT_EQ_MSG(test, a.cack, s + next - 1, "packet %u", j);
		KUNIT_EXPECT_EQ_MSG(test, a.trigger, s + j, "packet %u", j);
		KUNIT_EXPECT_EQ_MSG(test, a.cc, !!bits, "packet %u", j);
		if (bits) {
			KUNIT_EXPECT_EQ_MSG(test, a.sack_base, s + next,
					    "packet %u", j);
			KUNIT_EXPECT_EQ_MSG(test, a.bitmap, bits, "packet %u",
					    j);
			/* under cc none too: NSCC's state, Rcvd_Bytes */
			KUNIT_EXPECT_EQ_MSG(test, a.cc_type, UET_ACK_CC_NSCC,
					    "packet %u", j);
			KUNIT_EXPECT_GT_MSG(test,
					    FIELD_GET(UET_NSCC_RCVD_BYTES,
						      a.cc_state),
					    0ULL, "packet %u", j);
		}
	}
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	uet_rx_test_recv(kt, buf, len, 1);
	KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL), -EAGAIN);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_OOO), ooo);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_SACK_TX), sacks);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MSGS), 1);
}

/*
 * Two messages whose packets interleave, each out of order: both are
 * handed over whole, each with its own bytes.
 */
static void uet_rx_test_interleaved(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u8 *buf = uet_rx_test_buf(test);
	u32 s = 77, len1 = 3000, len2 = 2100;

	/* PSNs: 1:0 2:0 1:1 2:1 1:2 2:2, sent 2:2 1:1 2:0 1:2 2:1 1:0 */
	uet_rx_test_pkt(kt, s, s + 5, 2, len2, 1024, 2, UET_REQ_SYN);
	uet_rx_test_pkt(kt, s, s + 2, 1, len1, 1024, 1, UET_REQ_SYN);
	uet_rx_test_pkt(kt, s, s + 1, 2, len2, 1024, 0, UET_REQ_SYN);
	uet_rx_test_pkt(kt, s, s + 4, 1, len1, 1024, 2, UET_REQ_SYN);
	KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL), -EAGAIN);
	uet_rx_test_pkt(kt, s, s + 3, 2, len2, 1024, 1, UET_REQ_SYN);
	uet_rx_test_recv(kt, buf, len2, 2);
	KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL), -EAGAIN);
	uet_rx_test_pkt(kt, s, s, 1, len1, 1024, 0, UET_REQ_SYN | UET_REQ_AR);
	uet_rx_test_recv(kt, buf, len1, 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MSGS), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_BYTES), len1 + len2);
}

/*
 * Duplicates, before and after the message is complete: dropped, counted,
 * answered with an ACK of the current state; the message comes once.
 */
static void uet_rx_test_duplicates(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u8 *buf = uet_rx_test_buf(test);
	u32 s = 1000, len = 1000;
	struct uet_ack_info a;

	uet_rx_test_pkt(kt, s, s, 1, len, 640, 0, UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s);

	/* the same packet again, not asking for an ACK: it gets one */
	uet_rx_test_pkt(kt, s, s, 1, len, 640, 0, UET_REQ_SYN);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s);
	KUNIT_EXPECT_EQ(test, a.trigger, s);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_DUP), 1);

	/* the message's end, not asking: acknowledged at once all the same */
	uet_rx_test_pkt(kt, s, s + 1, 1, len, 640, 1, UET_REQ_SYN);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 1);
	uet_rx_test_pkt(kt, s, s + 1, 1, len, 640, 1,
			UET_REQ_SYN | UET_REQ_RETX);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 1);
	/* a duplicate that was a retransmission says so */
	KUNIT_EXPECT_TRUE(test, a.flags & UET_ACK_RETX);
	uet_rx_test_pkt(kt, s, s, 1, len, 640, 0, UET_REQ_SYN);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_DUP), 3);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);

	uet_rx_test_recv(kt, buf, len, 1);
	KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL), -EAGAIN);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKTS), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MSGS), 1);
}

static void uet_rx_test_nscc_cfg(struct uet_config *c)
{
	c->cc = UET_CC_NSCC;
}

/* Rcvd_Bytes of ACK_CC @a, in bytes. */
static u64 uet_rx_test_rcvd(const struct uet_ack_info *a)
{
	return FIELD_GET(UET_NSCC_RCVD_BYTES, a->cc_state) <<
	       UET_NSCC_RCVD_SHIFT;
}

/*
 * NSCC's Rcvd_Bytes counts each packet once: a duplicate (a
 * retransmission of a packet the sender had given up for lost) leaves it
 * as it was, else the sender would take the packet out of flight twice.
 */
static void uet_rx_test_dup_rcvd(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u32 s = 4000, len = 2048;
	struct uet_ack_info a;
	u64 one;

	uet_kt_config(kt, uet_rx_test_nscc_cfg);
	uet_rx_test_pkt(kt, s, s, 1, len, 1024, 0, UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_ASSERT_TRUE(test, a.cc);
	KUNIT_EXPECT_EQ(test, a.cc_type, UET_ACK_CC_NSCC);
	one = uet_rx_test_rcvd(&a);
	/* the packet as the window counts it, in 256-byte units */
	KUNIT_EXPECT_EQ(test, one,
			round_up(uet_cc_wire_bytes(1024),
				 1U << UET_NSCC_RCVD_SHIFT));

	uet_rx_test_pkt(kt, s, s, 1, len, 1024, 0,
			UET_REQ_SYN | UET_REQ_AR | UET_REQ_RETX);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, uet_rx_test_rcvd(&a), one);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_DUP), 1);

	uet_rx_test_pkt(kt, s, s + 1, 1, len, 1024, 1,
			UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, uet_rx_test_rcvd(&a),
			round_up(2 * uet_cc_wire_bytes(1024),
				 1U << UET_NSCC_RCVD_SHIFT));
	uet_kt_purge(kt);
}

/*
 * Not asked, within a message: one ACK every UET_ACK_EVERY packets,
 * covering them all.
 */
static void uet_rx_test_ack_every(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u8 *buf = uet_rx_test_buf(test);
	u32 s = 5, i, len = UET_ACK_EVERY * 128 + 100;
	struct uet_ack_info a;

	for (i = 0; i < UET_ACK_EVERY; i++) {
		KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
		uet_rx_test_pkt(kt, s, s + i, 1, len, 128, i, UET_REQ_SYN);
	}
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + UET_ACK_EVERY - 1);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	uet_rx_test_pkt(kt, s, s + i, 1, len, 128, i, UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + UET_ACK_EVERY);
	uet_rx_test_recv(kt, buf, len, 1);
	KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL), -EAGAIN);
}

static void uet_rx_test_held_cfg(struct uet_config *c)
{
	c->ack_delay_us = 8000;
	c->rto_min_us = 10000;
}

/*
 * With ack-delay, the ACK of a message's end that asked for none is held:
 * it leaves from the timer, names the newest packet, covers what came
 * meanwhile and reports the time held as Service_Time.  An ACK that
 * leaves meanwhile, asked for, takes its place.  (Without ack-delay such
 * an end is acknowledged at once: uet_rx_test_duplicates.)
 */
static void uet_rx_test_ack_held(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u8 *buf = uet_rx_test_buf(test);
	struct uet_ack_info a;
	u64 t0, held, service;
	u32 s = 1000;
	u16 ev;

	uet_kt_config(kt, uet_rx_test_held_cfg);
	t0 = ktime_get_ns();
	uet_rx_test_pkt(kt, s, s, 1, 100, 1024, 0, UET_REQ_SYN);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	uet_rx_test_pkt(kt, s, s + 1, 2, 3000, 1024, 1, UET_REQ_SYN);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_TRUE(test, UET_KT_WAIT(uet_kt_pending(kt), 1000));
	held = ktime_get_ns() - t0;
	uet_kt_pop_ack(kt, &a, &ev);
	KUNIT_EXPECT_EQ(test, a.cack, s + 1);
	KUNIT_EXPECT_EQ(test, a.trigger, s + 1);
	KUNIT_EXPECT_EQ(test, ev, 0x101);
	KUNIT_EXPECT_GE(test, held, 8000 * NSEC_PER_USEC);
	service = FIELD_GET(UET_NSCC_SERVICE_TIME, a.cc_state) *
		  UET_NSCC_SERVICE_NS;
	KUNIT_EXPECT_GT(test, service, 0);
	KUNIT_EXPECT_LE(test, service, held);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_ACK_HELD), 1);

	/* held again, then an ACK asked for: nothing is held after it */
	uet_rx_test_pkt(kt, s, s + 2, 3, 100, 1024, 0, UET_REQ_SYN);
	uet_rx_test_pkt(kt, s, s + 3, 2, 3000, 1024, 0, UET_REQ_SYN);
	uet_rx_test_pkt(kt, s, s + 4, 2, 3000, 1024, 2,
			UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 4);
	/* past the hold the first of them started (at least 20 ms) */
	KUNIT_EXPECT_FALSE(test, UET_KT_WAIT(uet_kt_pending(kt), 30));
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_ACK_HELD), 1);
	uet_rx_test_recv(kt, buf, 100, 1);
	uet_rx_test_recv(kt, buf, 100, 3);
	uet_rx_test_recv(kt, buf, 3000, 2);
}

/*
 * What the target cannot take is NACKed and not taken: a SYN to an
 * endpoint nobody bound (fatal, from no PDC, and no PDC opens), a PSN
 * beyond the window, a message over a full receive buffer (resent later,
 * it is taken), a message larger than the receive buffer (fatal).
 */
static void uet_rx_test_refused(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u8 *buf = uet_rx_test_buf(test);
	struct uet_pds_nack n;
	struct uet_ack_info a;
	struct uet_kt_data d;
	u32 s = 3000;
	u16 tlid;

	d = (struct uet_kt_data) {
		.psn = s, .start = s, .flags = UET_REQ_SYN | UET_REQ_AR,
		.msg_id = 1, .msg_len = 10, .len = 10, .dst_ep = 99,
	};
	uet_kt_rcv_data(kt, &d);
	uet_kt_pop_nack(kt, &n);
	KUNIT_EXPECT_EQ(test, n.code, UET_NACK_FATAL);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(n.payload), UET_RC_BAD_PID);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(n.psn), s);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n.spdcid), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n.dpdcid), UET_KT_PEER_PDC);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_NO_ENDPOINT), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 0);

	/* a receive buffer that holds one one-page message at a time */
	WRITE_ONCE(kt->rx->sk->sk_rcvbuf, 3 * PAGE_SIZE / 2);
	uet_rx_test_pkt(kt, s, s, 1, 3000, 1536, 0, UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	tlid = a.spdcid;

	/* beyond the window */
	uet_rx_test_pkt(kt, s, s + UET_PSN_WINDOW + 1, 1, 3000, 1536, 1,
			UET_REQ_SYN);
	uet_kt_pop_nack(kt, &n);
	KUNIT_EXPECT_EQ(test, n.code, UET_NACK_PSN_OOR_WINDOW);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n.spdcid), tlid);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_WINDOW), 1);

	/* a second message while the first is charged: no room */
	uet_rx_test_pkt(kt, s, s + 1, 2, 100, 1536, 0, UET_REQ_SYN);
	uet_kt_pop_nack(kt, &n);
	KUNIT_EXPECT_EQ(test, n.code, UET_NACK_NO_RESOURCE);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(n.psn), s + 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_RCVBUF), 1);

	/* larger than the buffer can ever hold: refused for good */
	uet_rx_test_pkt(kt, s, s + 3, 3, 2 * PAGE_SIZE, 1536, 0, UET_REQ_SYN);
	uet_kt_pop_nack(kt, &n);
	KUNIT_EXPECT_EQ(test, n.code, UET_NACK_FATAL);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(n.payload), UET_RC_TOO_LONG);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(n.psn), s + 3);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_TOO_BIG), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_RCVBUF), 1);

	/* the first completes and is read: the second fits when resent */
	uet_rx_test_pkt(kt, s, s + 2, 1, 3000, 1536, 1, UET_REQ_SYN);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s);
	uet_rx_test_recv(kt, buf, 3000, 1);
	uet_rx_test_pkt(kt, s, s + 1, 2, 100, 1536, 0,
			UET_REQ_SYN | UET_REQ_RETX);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 2);
	uet_rx_test_recv(kt, buf, 100, 2);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 1);
}

/*
 * Message @msg_id of @len bytes in two packets of 1536 bytes at @psn and
 * @psn + 1 (with SYN, the PDC started at @start): acknowledged whole.
 */
static void uet_rx_test_two(struct uet_kt *kt, u32 start, u32 psn,
			    u16 msg_id, u32 len)
{
	struct uet_ack_info a;

	uet_rx_test_pkt(kt, start, psn, msg_id, len, 1536, 0, UET_REQ_SYN);
	uet_rx_test_pkt(kt, start, psn + 1, msg_id, len, 1536, 1,
			UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(kt->test, a.cack, psn + 1);
}

/*
 * A message that comes whole in one packet is kept as that packet: the
 * socket is charged the packet's truesize, more than the page a copy
 * takes, until recvmsg() copies it out whole; then nothing stays charged.
 * A message of two packets keeps both; with SO_RCVBUF too small for the
 * budget on top of the message's pages, both are copied.
 */
static void uet_rx_test_kept(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct sock *sk = kt->rx->sk;
	u8 *buf = uet_rx_test_buf(test);
	u32 s = 7000, len = 3000;
	struct uet_ack_info a;

	uet_rx_test_pkt(kt, s, s, 1, len, len, 0, UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MSG_KEPT), 1);
	KUNIT_EXPECT_GT(test, atomic_read(&sk->sk_rmem_alloc), (int)PAGE_SIZE);
	KUNIT_EXPECT_GT(test, uet_kt_stat(kt, UET_STAT_RX_MEM), 0);
	uet_rx_test_recv(kt, buf, len, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&sk->sk_rmem_alloc), 0);
	KUNIT_EXPECT_EQ(test, sk->sk_forward_alloc, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MEM), 0);

	uet_rx_test_two(kt, s, s + 1, 2, len);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKT_KEPT), 3);
	uet_rx_test_recv(kt, buf, len, 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MSG_KEPT), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&sk->sk_rmem_alloc), 0);
	KUNIT_EXPECT_EQ(test, sk->sk_forward_alloc, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MEM), 0);

	WRITE_ONCE(sk->sk_rcvbuf, PAGE_SIZE + PAGE_SIZE / 2);
	uet_rx_test_two(kt, s, s + 3, 3, len);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKT_KEPT), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&sk->sk_rmem_alloc),
			(int)(sizeof(struct uet_rx_msg) + uet_rbuf_size(len) +
			      PAGE_SIZE));
	uet_rx_test_recv(kt, buf, len, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&sk->sk_rmem_alloc), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

/* The buffer of the oldest message waiting for recvmsg() on @sk. */
static bool uet_rx_test_embedded(struct kunit *test, struct sock *sk)
{
	struct uet_rx_msg *m;

	m = list_first_entry_or_null(&uet_sk(sk)->rxq, struct uet_rx_msg,
				     qnode);
	KUNIT_ASSERT_NOT_NULL(test, m);
	return m->buf == (struct uet_rbuf *)(m + 1) && m->buf->embedded;
}

/*
 * A small message one packet carries whole holds its buffer and bytes in
 * its own allocation; one that waits for a second packet does not (a
 * discarded partial message stays a tombstone of its allocation's size).
 * Both arrive intact and give back all they were charged.
 */
static void uet_rx_test_inline_embed(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct sock *sk = kt->rx->sk;
	u8 *buf = uet_rx_test_buf(test);
	u32 s = 9000;
	struct uet_ack_info a;

	uet_rx_test_pkt(kt, s, s, 1, 64, 64, 0, UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_TRUE(test, uet_rx_test_embedded(test, sk));
	uet_rx_test_recv(kt, buf, 64, 1);

	uet_rx_test_pkt(kt, s, s + 1, 2, 1000, 512, 0, UET_REQ_SYN);
	uet_rx_test_pkt(kt, s, s + 2, 2, 1000, 512, 1,
			UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 2);
	KUNIT_EXPECT_FALSE(test, uet_rx_test_embedded(test, sk));
	uet_rx_test_recv(kt, buf, 1000, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&sk->sk_rmem_alloc), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MEM), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

/*
 * A message of @n packets of @seg bytes from the peer, from @psn on, to
 * target PDC @tlid (0: with SYN, before the target has named it), as one
 * batch
 * (uet_tx_batch()): a UDP GSO packet with a packet on its frag_list each.
 */
static struct sk_buff *uet_rx_test_batch(struct uet_kt *kt, u32 start,
					 u32 psn, u16 tlid, u16 msg_id, u32 len,
					 u32 seg, u32 n)
{
	struct sk_buff *skb, *head;
	struct sk_buff_head q;
	u32 j;

	__skb_queue_head_init(&q);
	for (j = 0; j < n; j++) {
		struct uet_kt_data d = {
			.psn		= psn + j,
			.start		= start,
			.dpdcid		= tlid,
			.flags		= (tlid ? 0 : UET_REQ_SYN) |
					  (j + 1 == n ? UET_REQ_AR : 0),
			.msg_id		= msg_id,
			.msg_len	= len,
			.off		= j * seg,
			.len		= min(seg, len - j * seg),
		};

		skb = uet_kt_data_skb(kt, &d);
		UET_SKB_CB(skb)->batch = true;
		__skb_queue_tail(&q, skb);
	}
	head = __skb_dequeue(&q);
	KUNIT_EXPECT_EQ(kt->test, uet_tx_batch(head, &q, U16_MAX, 64), n);
	KUNIT_EXPECT_TRUE(kt->test, skb_queue_empty(&q));
	return head;
}

/*
 * A batch is taken apart into its packets, each taken as if alone (with
 * SYN) or in one run under the PDC's lock: the messages arrive whole.
 * One a packet tap shares on the way is cut by UDP segmentation instead,
 * with the same result.
 */
static void uet_rx_test_batch_in(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u8 *buf = uet_rx_test_buf(test);
	u32 s = 9000, len = 3 * 1536 + 500;
	struct sk_buff *skb, *tap;
	struct uet_ack_info a;
	u16 tlid;

	skb = uet_rx_test_batch(kt, s, s, 0, 1, len, 1536, 4);
	uet_kt_inject(kt, skb, 0x100);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 3);
	tlid = a.spdcid;
	uet_rx_test_recv(kt, buf, len, 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_BATCH), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_BATCH_CUT), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKTS), 4);

	/* the PDC named: one run under its lock */
	skb = uet_rx_test_batch(kt, s, s + 4, tlid, 2, len, 1536, 4);
	uet_kt_inject(kt, skb, 0x100);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 7);
	uet_rx_test_recv(kt, buf, len, 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_BATCH), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKTS), 8);

	skb = uet_rx_test_batch(kt, s, s + 8, tlid, 3, len, 1536, 4);
	tap = skb_clone(skb, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tap);
	uet_kt_inject(kt, skb, 0x100);
	kfree_skb(tap);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_BATCH), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_BATCH_CUT), 1);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.cack, s + 11);
	uet_rx_test_recv(kt, buf, len, 3);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKTS), 12);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

/* Has the work item discarded @n partial messages for want of progress? */
static bool uet_rx_test_timed_out(struct uet_kt *kt, u64 n)
{
	return UET_KT_WAIT((uet_kt_gc(kt),
			    uet_kt_stat(kt, UET_STAT_RX_MSG_TIMEOUT) == n),
			   3000);
}

static void uet_rx_test_tomb_cfg(struct uet_config *c)
{
	c->msg_timeout_ms = UET_MSG_TIMEOUT_MS_MIN;
}

/*
 * A partial message timed out leaves a tombstone that refuses the rest of
 * it, up to the last PSN it could use.  A packet past that is another
 * message's with the same id (ids wrap after 65,536 messages): taken,
 * even when it is not the new message's first.  A tombstone goes once
 * every PSN up to the last one its message could use is taken.
 */
static void uet_rx_test_tombstone(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u8 *buf = uet_rx_test_buf(test);
	struct uet_pdc_counts c;
	struct uet_pds_nack n;
	struct uet_ack_info a;
	u32 s = 5000, p;
	u16 tlid;

	uet_kt_config(kt, uet_rx_test_tomb_cfg);
	/* 3000 bytes cut every 1536: 1464 left after it, 23 PSNs at most */
	uet_rx_test_pkt(kt, s, s, 7, 3000, 1536, 0, UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_ASSERT_TRUE(test, uet_rx_test_timed_out(kt, 1));

	/* the rest of it, even late: refused */
	uet_rx_test_pkt(kt, s, s + 23, 7, 3000, 1536, 1, UET_REQ_SYN);
	uet_kt_pop_nack(kt, &n);
	KUNIT_EXPECT_EQ(test, n.code, UET_NACK_FATAL);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(n.payload), UET_RC_BAD_PID);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(n.psn), s + 23);

	/* id 7 again, its second packet first, past the old one's PSNs */
	uet_rx_test_pkt(kt, s, s + 41, 7, 3000, 1536, 1,
			UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.trigger, s + 41);
	uet_rx_test_pkt(kt, s, s + 40, 7, 3000, 1536, 0,
			UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	tlid = a.spdcid;
	uet_rx_test_recv(kt, buf, 3000, 7);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);

	/*
	 * Message 9's first packet, 72 bytes of it left after: 2 PSNs at
	 * most.  Its tombstone stays until every PSN up to them is taken.
	 */
	for (p = s + 1; p != s + 40; p++) {
		uet_kt_rcv_ctrl(kt, UET_CTRL_NOP, tlid, p);
		uet_kt_pop_ack(kt, &a, NULL);
	}
	uet_rx_test_pkt(kt, s, s + 42, 9, 200, 128, 0,
			UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_ASSERT_TRUE(test, uet_rx_test_timed_out(kt, 2));
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, tlid, UET_PDC_TARGET, &c));
	KUNIT_EXPECT_EQ(test, c.msgs, 1);
	uet_kt_rcv_ctrl(kt, UET_CTRL_NOP, tlid, s + 43);
	uet_kt_pop_ack(kt, &a, NULL);
	uet_kt_gc(kt);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, tlid, UET_PDC_TARGET, &c));
	KUNIT_EXPECT_EQ(test, c.msgs, 1);
	uet_kt_rcv_ctrl(kt, UET_CTRL_NOP, tlid, s + 44);
	uet_kt_pop_ack(kt, &a, NULL);
	uet_kt_gc(kt);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, tlid, UET_PDC_TARGET, &c));
	KUNIT_EXPECT_EQ(test, c.msgs, 0);
}

/*
 * Superpackets (prototype): packets @from..@to-1 of the message of
 * uet_rx_test_super() in one skb, packet @from's headers linear, each
 * later one's header and payload in page fragments.
 */
static struct sk_buff *uet_rx_test_sp(struct uet_kt *kt, u16 tlid, u16 id,
				      u32 psn0, u32 len, u32 seg, u32 from,
				      u32 to)
{
	struct sk_buff *sp = NULL, *p;
	u32 j;

	for (j = from; j < to; j++) {
		struct uet_kt_data d = {
			.psn = psn0 + j, .dpdcid = tlid, .msg_id = id,
			.msg_len = len, .off = j * seg,
			.len = min(seg, len - j * seg),
		};
		struct page *pg;
		int i;

		p = uet_kt_data_skb(kt, &d);
		if (!sp) {
			sp = p;
			continue;
		}
		pg = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(kt->test, pg);
		memcpy(page_address(pg), p->data, p->len);
		i = skb_shinfo(sp)->nr_frags;
		get_page(pg);
		skb_fill_page_desc(sp, i, pg, 0, UET_DATA_HDR_LEN);
		skb_fill_page_desc(sp, i + 1, pg, UET_DATA_HDR_LEN,
				   p->len - UET_DATA_HDR_LEN);
		sp->len += p->len;
		sp->data_len += p->len;
		sp->truesize += p->len;
		kfree_skb(p);
	}
	return sp;
}

/*
 * Send the batch of parts @p[0..@n-1] (superpackets or packets of @g
 * bytes but for a shorter last one) as one GSO packet of @segs packets.
 */
static void uet_rx_test_sp_send(struct uet_kt *kt, struct sk_buff **p, u32 n,
				u32 g, u32 segs)
{
	struct sk_buff *head = p[0], **tail = &skb_shinfo(head)->frag_list;
	u32 i;

	for (i = 1; i < n; i++) {
		*tail = p[i];
		tail = &p[i]->next;
		head->len += p[i]->len;
		head->data_len += p[i]->len;
		head->truesize += p[i]->truesize;
	}
	skb_shinfo(head)->gso_size = g;
	skb_shinfo(head)->gso_segs = segs;
	skb_shinfo(head)->gso_type = SKB_GSO_UDP_L4 | SKB_GSO_UDP_TUNNEL;
	uet_kt_inject(kt, head, 0x100);
}

/*
 * A batch of [superpacket of 3][superpacket of 2][packet]: each
 * superpacket is kept whole (rx_super), the message arrives intact, every
 * PSN is taken and the memory comes back.
 */
static void uet_rx_test_super(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u32 s = 1000, seg = 1024, len = 6 * 1024 + 100, g = 56 + 1024;
	u8 *buf = uet_rx_test_buf(test);
	struct uet_ack_info a;
	struct sk_buff *p[3];
	u16 tlid;

	uet_rx_test_pkt(kt, s, s, 1, len, seg, 0, UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	tlid = a.spdcid;
	p[0] = uet_rx_test_sp(kt, tlid, 1, s, len, seg, 1, 4);
	p[1] = uet_rx_test_sp(kt, tlid, 1, s, len, seg, 4, 6);
	p[2] = uet_rx_test_sp(kt, tlid, 1, s, len, seg, 6, 7);
	KUNIT_ASSERT_EQ(test, p[0]->len, 3 * g);
	KUNIT_ASSERT_EQ(test, p[1]->len, 2 * g);
	uet_rx_test_sp_send(kt, p, 3, g, 6);

	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_SUPER), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_SUPER_SEGS), 5);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_SUPER_APART), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKTS), 7);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKT_KEPT), 4);
	uet_rx_test_recv(kt, buf, len, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kt->rx->sk->sk_rmem_alloc), 0);
	uet_kt_purge(kt);
}

/* Edits the second packet's headers of a superpacket. */
typedef void (*uet_rx_test_edit)(struct uet_pds_req *req,
				 struct uet_ses_std *ses);

static void uet_rx_test_psn_gap(struct uet_pds_req *req,
				struct uet_ses_std *ses)
{
	be32_add_cpu(&req->psn, 3);
}

static void uet_rx_test_other_msg(struct uet_pds_req *req,
				  struct uet_ses_std *ses)
{
	be16_add_cpu(&ses->msg_id, 1);
}

static void uet_rx_test_other_pdc(struct uet_pds_req *req,
				  struct uet_ses_std *ses)
{
	be16_add_cpu(&req->spdcid, 1);
}

static void uet_rx_test_syn(struct uet_pds_req *req, struct uet_ses_std *ses)
{
	req->prologue |= uet_prologue(0, 0, UET_REQ_SYN);
}

static void uet_rx_test_other_job(struct uet_pds_req *req,
				  struct uet_ses_std *ses)
{
	ses->ri_gen_job ^= cpu_to_be32(FIELD_PREP(UET_SES_JOB, 1));
}

static void uet_rx_test_not_data(struct uet_pds_req *req,
				 struct uet_ses_std *ses)
{
	ses->opcode = 0;
}

/**
 * struct uet_rx_test_sp_case - a superpacket not as uet builds them
 * @what: what is wrong with it
 * @edit: the edit that makes it so
 * @stat: the counter that shows what became of it
 * @count: by how much it grows
 * @taken: packets the target took (of the superpacket's 2 and the 1 after)
 * @whole: whether the message is then whole
 */
struct uet_rx_test_sp_case {
	const char *what;
	uet_rx_test_edit edit;
	enum uet_stat stat;
	u64 count;
	u32 taken;
	bool whole;
};

static const struct uet_rx_test_sp_case uet_rx_test_sp_cases[] = {
	{ "PSNs not consecutive", uet_rx_test_psn_gap,
	  UET_STAT_RX_SUPER_APART, 1, 3, true },
	{ "two messages", uet_rx_test_other_msg, UET_STAT_RX_SUPER_APART, 1,
	  3, false },
	{ "two PDCs", uet_rx_test_other_pdc, UET_STAT_DROP_MALFORMED, 2, 1 },
	{ "a SYN inside", uet_rx_test_syn, UET_STAT_DROP_MALFORMED, 2, 1 },
	{ "two jobs", uet_rx_test_other_job, UET_STAT_DROP_MALFORMED, 2, 1 },
	{ "not data", uet_rx_test_not_data, UET_STAT_DROP_UNKNOWN_TYPE, 2, 1 },
};

/*
 * Superpackets as uet never builds them, one case each: a message of 3
 * packets, the first 2 in a superpacket, the third its batch's member.
 * The superpacket is taken packet by packet when each packet could have
 * come alone, dropped and counted packet by packet when not; never kept
 * whole.  A dropped one left nothing behind: its packets sent again
 * alone (as the initiator would) complete the message.
 */
static void uet_rx_test_super_bad(struct kunit *test)
{
	const struct uet_rx_test_sp_case *t;
	struct uet_kt *kt = test->priv;
	u32 s = 2000, seg = 1024, len = 2 * 1024 + 300, g = 56 + 1024;
	u8 *buf = uet_rx_test_buf(test);
	u64 was, pkts, psn = s + 1;
	struct uet_ack_info a;
	struct sk_buff *p[2];
	int rmem;
	u16 tlid, id = 2;
	void *hdr;
	u32 j;

	uet_rx_test_pkt(kt, s, s, 1, 100, seg, 0, UET_REQ_SYN | UET_REQ_AR);
	uet_kt_pop_ack(kt, &a, NULL);
	tlid = a.spdcid;
	uet_rx_test_recv(kt, buf, 100, 1);
	for (t = uet_rx_test_sp_cases;
	     t < uet_rx_test_sp_cases + ARRAY_SIZE(uet_rx_test_sp_cases);
	     t++, id += 2, psn += 8) {
		kunit_info(test, "%s", t->what);
		rmem = atomic_read(&kt->rx->sk->sk_rmem_alloc);
		p[0] = uet_rx_test_sp(kt, tlid, id, psn, len, seg, 0, 2);
		p[1] = uet_rx_test_sp(kt, tlid, id, psn, len, seg, 2, 3);
		hdr = page_address(skb_frag_page(&skb_shinfo(p[0])->frags[0]));
		t->edit(hdr, hdr + sizeof(struct uet_pds_req));
		was = uet_kt_stat(kt, t->stat);
		pkts = uet_kt_stat(kt, UET_STAT_RX_PKTS);
		uet_rx_test_sp_send(kt, p, 2, g, 3);
		KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, t->stat) - was, t->count);
		KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_PKTS) - pkts,
				t->taken);
		KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_SUPER), 0);
		for (j = 0; t->taken < 3 && j < 3; j++) {
			struct uet_kt_data d = {
				.psn = psn + j, .dpdcid = tlid, .msg_id = id,
				.msg_len = len, .off = j * seg,
				.len = min(seg, len - j * seg),
				.flags = UET_REQ_RETX,
			};

			uet_kt_rcv_data(kt, &d);
		}
		if (t->whole || t->taken < 3)
			uet_rx_test_recv(kt, buf, len, id);
		if (t->whole || t->taken < 3)
			KUNIT_EXPECT_EQ(test,
					atomic_read(&kt->rx->sk->sk_rmem_alloc),
					rmem);
		uet_kt_purge(kt);
	}
}

static struct kunit_case uet_rx_test_cases[] = {
	KUNIT_CASE(uet_rx_test_in_order),
	KUNIT_CASE(uet_rx_test_super),
	KUNIT_CASE(uet_rx_test_super_bad),
	KUNIT_CASE(uet_rx_test_out_of_order),
	KUNIT_CASE(uet_rx_test_interleaved),
	KUNIT_CASE(uet_rx_test_duplicates),
	KUNIT_CASE(uet_rx_test_dup_rcvd),
	KUNIT_CASE(uet_rx_test_ack_every),
	KUNIT_CASE(uet_rx_test_ack_held),
	KUNIT_CASE(uet_rx_test_refused),
	KUNIT_CASE(uet_rx_test_kept),
	KUNIT_CASE(uet_rx_test_inline_embed),
	KUNIT_CASE(uet_rx_test_batch_in),
	KUNIT_CASE(uet_rx_test_tombstone),
	{}
};

static struct kunit_suite uet_rx_test_suite = {
	.name = "uet_rx",
	.init = uet_kt_init,
	.exit = uet_kt_exit,
	.test_cases = uet_rx_test_cases,
};

kunit_test_suite(uet_rx_test_suite);
