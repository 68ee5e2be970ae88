// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the life of a PDC.  Opened by sendmsg() (initiator) or by a SYN
 * (target); two SYNs of different incarnations, one after the other and
 * racing from two threads; closed when idle, by the initiator's CLOSE,
 * and by the namespace going away with messages still queued, sockets
 * closed and timers running.  Checked through what is sent, the PDC
 * tables, the counters and what the sockets hold; lockdep and KASAN watch
 * the locking and the frees.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <net/sock.h>
#include <uet/sock.h>
#include <uet/spray.h>
#include "kt.h"

#define T_BUF		4096
/* Idle time of the idle cases, ms. */
#define T_IDLE_MS	50

/* Packet @j of a message of @msg_len bytes cut every 512, with SYN. */
static void uet_pdc_test_syn(struct uet_kt *kt, u32 start, u32 psn,
			     u16 msg_id, u32 msg_len, u32 j)
{
	struct uet_kt_data d = {
		.psn		= psn,
		.start		= start,
		.flags		= UET_REQ_SYN | UET_REQ_AR,
		.msg_id		= msg_id,
		.msg_len	= msg_len,
		.off		= j * 512,
		.len		= min(512U, msg_len - j * 512),
		.ev		= 0x200 + j,
	};

	uet_kt_rcv_data(kt, &d);
}

static int uet_pdc_test_rmem(struct uet_kt *kt)
{
	return atomic_read(&kt->rx->sk->sk_rmem_alloc);
}

/*
 * sendmsg() opens an initiator PDC and later messages to the peer share
 * it; a SYN opens a target PDC.  Each is found by its own id and role.
 */
static void uet_pdc_test_create(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_rx_pkt pk, pk2;
	struct uet_pdc_counts c;
	struct uet_ack_info a;
	u16 ilid, tlid;

	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100, 1), 100);
	uet_kt_pop_data(kt, &pk, NULL);
	ilid = pk.spdcid;
	KUNIT_EXPECT_NE(test, ilid, 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 1);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, ilid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.msgs, 1);
	KUNIT_EXPECT_EQ(test, c.out, 1);
	KUNIT_EXPECT_FALSE(test, uet_kt_pdc(kt, ilid, UET_PDC_TARGET, NULL));

	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 200, 2), 200);
	uet_kt_pop_data(kt, &pk2, NULL);
	KUNIT_EXPECT_EQ(test, pk2.spdcid, ilid);
	KUNIT_EXPECT_EQ(test, pk2.psn, pk.psn + 1);
	KUNIT_EXPECT_NE(test, pk2.msg_id, pk.msg_id);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 1);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, ilid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.msgs, 2);

	/* the peer's SYN, with a message of two packets: one in */
	uet_pdc_test_syn(kt, 9, 9, 1, 1000, 0);
	uet_kt_pop_ack(kt, &a, NULL);
	tlid = a.spdcid;
	KUNIT_EXPECT_NE(test, tlid, ilid);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 2);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, tlid, UET_PDC_TARGET, &c));
	KUNIT_EXPECT_EQ(test, c.msgs, 1);
	KUNIT_EXPECT_FALSE(test, uet_kt_pdc(kt, tlid, UET_PDC_INITIATOR, NULL));
	KUNIT_EXPECT_GT(test, uet_pdc_test_rmem(kt), 0);
}

/*
 * A SYN with a live PDC's key and another start PSN: outside the PDC's
 * window it is a blind attempt, challenged with an ACK of the live state;
 * inside, a new incarnation, which replaces the PDC and frees what the
 * old one held.
 */
static void uet_pdc_test_syn_incarnations(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u8 *buf = kunit_kzalloc(test, T_BUF, GFP_KERNEL);
	u32 s = 0x10000, far = s + BIT(20);
	struct uet_pdc_counts c;
	struct uet_ack_info a;
	u16 t1, t2;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	uet_pdc_test_syn(kt, s, s, 1, 1000, 0);
	uet_kt_pop_ack(kt, &a, NULL);
	t1 = a.spdcid;
	KUNIT_EXPECT_GT(test, uet_pdc_test_rmem(kt), 0);

	uet_pdc_test_syn(kt, far, far, 2, 50, 0);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, a.spdcid, t1);
	KUNIT_EXPECT_EQ(test, a.cack, s);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_SYN_CHALLENGE), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 1);
	KUNIT_EXPECT_TRUE(test, uet_kt_pdc(kt, t1, UET_PDC_TARGET, NULL));
	KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL), -EAGAIN);

	/* a start PSN in the window: the peer restarted its PDC */
	uet_pdc_test_syn(kt, s + 1, s + 1, 3, 50, 0);
	uet_kt_pop_ack(kt, &a, NULL);
	t2 = a.spdcid;
	KUNIT_EXPECT_EQ(test, a.cack, s + 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN), 2);
	/* a new PDC (its id may be the old one's again): nothing partial */
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, t2, UET_PDC_TARGET, &c));
	KUNIT_EXPECT_EQ(test, c.msgs, 0);
	if (t2 != t1)
		KUNIT_EXPECT_FALSE(test,
				   uet_kt_pdc(kt, t1, UET_PDC_TARGET, NULL));
	KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL), 50);
	KUNIT_EXPECT_TRUE(test, uet_kt_payload_ok(buf, 50, 3));

	/* the old incarnation's partial message goes with it */
	uet_kt_gc(kt);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_CLOSE), 1);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_rmem(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

#define T_RACE_ROUNDS	16

/**
 * struct uet_pdc_test_racer - one thread injecting one SYN
 * @kt: the fixture
 * @skb: the SYN, built by the case
 * @go: both threads wait for it, to start together
 * @done: completed when the SYN is in
 */
struct uet_pdc_test_racer {
	struct uet_kt *kt;
	struct sk_buff *skb;
	struct completion *go;
	struct completion done;
};

static int uet_pdc_test_race_fn(void *arg)
{
	struct uet_pdc_test_racer *r = arg;

	wait_for_completion(r->go);
	uet_kt_inject(r->kt, r->skb, 0x300);
	complete(&r->done);
	return 0;
}

/*
 * Two SYNs for the same key with start PSNs far apart, from two threads at
 * once, round after round: exactly one PDC opens, the other SYN is
 * dropped, and exactly one of the two messages arrives.  (On UML's one
 * CPU the threads interleave between packets; on SMP inside the lookup.)
 */
static void uet_pdc_test_syn_race(struct kunit *test)
{
	struct uet_pdc_test_racer r[2] = {};
	struct uet_kt *kt = test->priv;
	u8 *buf = kunit_kzalloc(test, T_BUF, GFP_KERNEL);
	struct task_struct *t;
	struct completion go;
	u32 round, i, start;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (round = 0; round < T_RACE_ROUNDS; round++) {
		init_completion(&go);
		for (i = 0; i < 2; i++) {
			struct uet_kt_data d = {
				.flags		= UET_REQ_SYN | UET_REQ_AR,
				.spdcid		= 0x1000 + round,
				.msg_id		= 2 * round + i,
				.msg_len	= 20,
				.len		= 20,
			};

			start = round * BIT(24) + i * BIT(20);
			d.psn = start;
			d.start = start;
			r[i].kt = kt;
			r[i].go = &go;
			r[i].skb = uet_kt_data_skb(kt, &d);
			init_completion(&r[i].done);
			t = kthread_run(uet_pdc_test_race_fn, &r[i],
					"uet_kt_syn%u", i);
			if (IS_ERR(t)) {
				uet_kt_inject(kt, r[i].skb, 0x300);
				complete(&r[i].done);
			}
		}
		complete_all(&go);
		for (i = 0; i < 2; i++)
			wait_for_completion(&r[i].done);
		KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_OPEN),
				round + 1);
		KUNIT_EXPECT_EQ(test,
				uet_kt_stat(kt, UET_STAT_DROP_SYN_CHALLENGE),
				round + 1);
		KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RX_MSGS),
				round + 1);
		n = uet_kt_recv(kt, buf, T_BUF, NULL);
		KUNIT_EXPECT_EQ(test, n, 20);
		KUNIT_EXPECT_TRUE(test,
				  uet_kt_payload_ok(buf, 20, 2 * round) ||
				  uet_kt_payload_ok(buf, 20, 2 * round + 1));
		KUNIT_EXPECT_EQ(test, uet_kt_recv(kt, buf, T_BUF, NULL),
				-EAGAIN);
	}
	uet_kt_purge(kt);
}

static void uet_pdc_test_idle_cfg(struct uet_config *c)
{
	c->pdc_idle_ms = T_IDLE_MS;
}

/*
 * Idle PDCs close: an initiator once nothing is in flight, after the idle
 * time, telling the target with a CLOSE; a target after four times that,
 * freeing the message it was receiving.  A PDC with a message in flight
 * stays however long it waits.
 */
static void uet_pdc_test_idle_close(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_ack_info a = {};
	struct uet_pds_ctrl cl;
	struct uet_rx_pkt pk;
	u16 ilid, tlid, ev;

	uet_kt_config(kt, uet_pdc_test_idle_cfg);
	uet_pdc_test_syn(kt, 9, 9, 1, 1000, 0);
	uet_kt_pop_ack(kt, &a, NULL);
	tlid = a.spdcid;
	KUNIT_EXPECT_GT(test, uet_pdc_test_rmem(kt), 0);

	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100, 1), 100);
	uet_kt_pop_data(kt, &pk, &ev);
	ilid = pk.spdcid;
	msleep(3 * T_IDLE_MS);
	uet_kt_gc(kt);
	KUNIT_EXPECT_TRUE(test, uet_kt_pdc(kt, ilid, UET_PDC_INITIATOR, NULL));

	a = (struct uet_ack_info) {
		.cack = pk.psn, .trigger = pk.psn,
		.spdcid = UET_KT_PEER_PDC, .dpdcid = ilid,
	};
	uet_kt_rcv_ack(kt, &a, ev);
	msleep(UET_TARGET_IDLE_MULT * T_IDLE_MS + 100);
	uet_kt_gc(kt);
	KUNIT_EXPECT_FALSE(test, uet_kt_pdc(kt, ilid, UET_PDC_INITIATOR, NULL));
	KUNIT_EXPECT_FALSE(test, uet_kt_pdc(kt, tlid, UET_PDC_TARGET, NULL));
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_CLOSE), 2);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_rmem(kt), 0);

	/* the CLOSE: the initiator's next PSN, on its last value */
	uet_kt_pop_ctrl(kt, &cl, NULL);
	KUNIT_EXPECT_EQ(test, uet_prologue_next(cl.prologue), UET_CTRL_CLOSE);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(cl.psn), pk.psn + 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cl.spdcid), ilid);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cl.dpdcid), UET_KT_PEER_PDC);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

/*
 * The initiator's CLOSE closes the target and frees its partial message;
 * a CLOSE whose PSN is outside the window is not believed.
 */
static void uet_pdc_test_close_ctrl(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct uet_ack_info a;
	struct uet_kt_data d;
	u32 s = 0xffffff00;
	u16 tlid;

	uet_pdc_test_syn(kt, s, s, 1, 1000, 0);
	uet_kt_pop_ack(kt, &a, NULL);
	tlid = a.spdcid;
	KUNIT_EXPECT_GT(test, uet_pdc_test_rmem(kt), 0);

	uet_kt_rcv_ctrl(kt, UET_CTRL_CLOSE, tlid, s + 1 + 2 * UET_PSN_WINDOW);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_WINDOW), 1);
	KUNIT_EXPECT_TRUE(test, uet_kt_pdc(kt, tlid, UET_PDC_TARGET, NULL));

	uet_kt_rcv_ctrl(kt, UET_CTRL_CLOSE, tlid, s + 1);
	KUNIT_EXPECT_FALSE(test, uet_kt_pdc(kt, tlid, UET_PDC_TARGET, NULL));
	uet_kt_gc(kt);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_PDC_CLOSE), 1);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_rmem(kt), 0);

	/* the rest of the message finds no PDC */
	d = (struct uet_kt_data) {
		.psn = s + 1, .dpdcid = tlid, .flags = UET_REQ_AR,
		.msg_id = 1, .msg_len = 1000, .off = 512, .len = 488,
	};
	uet_kt_rcv_data(kt, &d);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_UNKNOWN_PDC), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
}

static void uet_pdc_test_teardown_cfg(struct uet_config *c)
{
	c->mss = UET_MSS_MIN;
	c->rto_min_us = 2000;
	c->rto_max_us = 2000;
	c->max_retx = 255;
}

/*
 * The namespace goes with an initiator PDC holding a full window, bytes
 * not yet sent and a second message queued, its timer running, and a
 * target PDC holding part of a message; both sockets closed first (a
 * namespace outlives no socket of its own).  Every message is freed and
 * every socket reference dropped; the initiator says CLOSE.
 */
static void uet_pdc_test_teardown_queued(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct sock *tx_sk, *rx_sk;
	struct uet_pds_ctrl cl;
	struct uet_pdc_counts c;
	struct uet_ack_info a;
	struct uet_rx_pkt pk;
	struct sk_buff *skb;
	unsigned int closes = 0;
	u16 ilid;

	uet_kt_config(kt, uet_pdc_test_teardown_cfg);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 100 << 10, 1), 100 << 10);
	KUNIT_ASSERT_EQ(test, uet_kt_send(kt, 1 << 10, 2), 1 << 10);
	uet_kt_pop_data(kt, &pk, NULL);
	ilid = pk.spdcid;
	a = (struct uet_ack_info) {
		.cack = pk.psn, .trigger = pk.psn,
		.spdcid = UET_KT_PEER_PDC, .dpdcid = ilid,
	};
	uet_kt_rcv_ack(kt, &a, 0x400);
	KUNIT_ASSERT_TRUE(test, uet_kt_pdc(kt, ilid, UET_PDC_INITIATOR, &c));
	KUNIT_EXPECT_EQ(test, c.msgs, 2);
	KUNIT_EXPECT_EQ(test, c.queued, 2);

	uet_pdc_test_syn(kt, 9, 9, 1, 1000, 0);
	KUNIT_EXPECT_GT(test, uet_pdc_test_rmem(kt), 0);

	tx_sk = kt->tx->sk;
	rx_sk = kt->rx->sk;
	sock_hold(tx_sk);
	sock_hold(rx_sk);
	uet_kt_net_destroy(kt, 2);

	KUNIT_EXPECT_EQ(test, atomic_read(&uet_sk(tx_sk)->wmem), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rx_sk->sk_rmem_alloc), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&tx_sk->sk_refcnt), 1);
	KUNIT_EXPECT_EQ(test, refcount_read(&rx_sk->sk_refcnt), 1);
	sock_put(tx_sk);
	sock_put(rx_sk);

	while ((skb = uet_kt_pop(kt))) {
		if (uet_kt_type(skb) == UET_PDS_CTRL &&
		    skb->len >= sizeof(cl)) {
			memcpy(&cl, skb->data, sizeof(cl));
			if (uet_prologue_next(cl.prologue) == UET_CTRL_CLOSE &&
			    be16_to_cpu(cl.spdcid) == ilid)
				closes++;
		}
		kfree_skb(skb);
	}
	KUNIT_EXPECT_EQ(test, closes, 1);
}

/* Draw @n values of a new active state made with @key. */
static void uet_pdc_test_draw(struct kunit *test, u64 key, u16 *out, u32 n)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i;

	uet_config_init_defaults(&cfg);
	cfg.spray = UET_SPRAY_ACTIVE;
	cfg.seed = 7;
	s = uet_spray_create(&cfg, key, 0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < n; i++)
		out[i] = uet_spray_next(s, NULL);
	uet_spray_destroy(s);
}

/*
 * Each spraying state the namespace makes for one destination has a key
 * of its own, so under one seed each PDC group draws its own values.
 */
static void uet_pdc_test_spray_keys(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	struct in6_addr a = {
		.s6_addr32 = { 0, 0, htonl(0xffff), htonl(0x0a000002) },
	};
	u16 v1[72], v2[72];
	u32 i, diff = 0;
	u64 k1, k2;

	spin_lock_bh(&kt->un->pdc_lock);
	k1 = uet_pdc_spray_key(kt->un, &a);
	k2 = uet_pdc_spray_key(kt->un, &a);
	spin_unlock_bh(&kt->un->pdc_lock);
	KUNIT_EXPECT_NE(test, k1, k2);
	uet_pdc_test_draw(test, k1, v1, ARRAY_SIZE(v1));
	uet_pdc_test_draw(test, k2, v2, ARRAY_SIZE(v2));
	for (i = 0; i < ARRAY_SIZE(v1); i++)
		diff += v1[i] != v2[i];
	KUNIT_EXPECT_GT(test, diff, 0);
}

/* The next packet is a CTRL CREDIT from target @tlid: its grant. */
static u32 uet_pdc_test_credit(struct uet_kt *kt, u16 tlid)
{
	struct uet_pds_ctrl c;

	uet_kt_pop_ctrl(kt, &c, NULL);
	KUNIT_EXPECT_EQ(kt->test, uet_prologue_next(c.prologue),
			UET_CTRL_CREDIT);
	KUNIT_EXPECT_EQ(kt->test, be16_to_cpu(c.spdcid), tlid);
	KUNIT_EXPECT_EQ(kt->test, be16_to_cpu(c.dpdcid), UET_KT_PEER_PDC);
	return be32_to_cpu(c.payload);
}

/* A target PDC of the fixture's namespace; its ACK popped. */
static u16 uet_pdc_test_target(struct uet_kt *kt)
{
	struct uet_ack_info a;

	uet_pdc_test_syn(kt, 0x5000, 0x5000, 1, 100, 0);
	uet_kt_pop_ack(kt, &a, NULL);
	return a.spdcid;
}

/*
 * A target without RCCC grants what is asked at once, and answers a
 * repeated or older request with its grant as it stands.  A request
 * whose PSN is not near the window is dropped.
 */
static void uet_pdc_test_credit_unpaced(struct kunit *test)
{
	struct uet_kt *kt = test->priv;
	u16 tlid = uet_pdc_test_target(kt);

	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x5001, 50000);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_credit(kt, tlid), 50000);
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x5001, 40000);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_credit(kt, tlid), 50000);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_REQ_RX), 2);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_CREDIT_TX), 2);

	/* a PSN nowhere near the window: forged, dropped */
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x105001, 60000);
	KUNIT_EXPECT_EQ(test, uet_kt_pending(kt), 0);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_WINDOW), 1);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_REQ_RX), 2);
	/* one overtaken by data, a window behind, is the initiator's */
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid,
			    0x5001 - UET_PSN_WINDOW, 60000);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_credit(kt, tlid), 60000);
}

/* Pop the CREDITs a target sent; return the last grant, @n their number. */
static u32 uet_pdc_test_credits(struct uet_kt *kt, u16 tlid, u32 *n)
{
	u32 grant = 0;

	for (*n = 0; uet_kt_pending(kt); (*n)++)
		grant = uet_pdc_test_credit(kt, tlid);
	return grant;
}

/*
 * 1 Mbit/s: a chunk every 134 ms, so that the pacer is seen at work; a
 * round trip and target delay of 300 ms, so that its bound on credit out
 * (40097 bytes) is not what stops it
 */
static void uet_pdc_test_rccc_cfg(struct uet_config *c)
{
	c->cc = UET_CC_RCCC;
	c->link_rate_mbps = 1;
	c->base_rtt_ns = 100000000;
	c->cc_target_qdelay_ns = 200000000;
}

/*
 * A target with RCCC grants through its pacer, a chunk of
 * UET_RCCC_CHUNK_PKTS packets a turn, cumulative, until the request is
 * met, at the link's rate; then the pacer stops.  A target PDC closed
 * while owed credit leaves the pacer.
 */
static void uet_pdc_test_credit_paced(struct kunit *test)
{
	u32 chunk = UET_RCCC_CHUNK_PKTS * UET_DEFAULT_MSS, req = 2 * chunk + 7;
	struct uet_kt *kt = test->priv;
	unsigned long t0;
	u32 n;
	u16 tlid;

	uet_kt_config(kt, uet_pdc_test_rccc_cfg);
	tlid = uet_pdc_test_target(kt);
	t0 = jiffies;
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x5001, req);
	/* the first chunk at once */
	KUNIT_ASSERT_TRUE(test, UET_KT_WAIT(uet_kt_pending(kt), 1000));
	KUNIT_EXPECT_EQ(test, uet_pdc_test_credit(kt, tlid), chunk);
	/*
	 * each next one 134 ms of link later, until the request is met; a
	 * turn the host ran late grants what it missed in one CREDIT, so
	 * the rest comes in one or two
	 */
	KUNIT_ASSERT_TRUE(test, UET_KT_WAIT(!hrtimer_active(&kt->un->rccc.timer),
					    3000));
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(jiffies - t0), 200);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_credits(kt, tlid, &n), req);
	KUNIT_EXPECT_GE(test, n, 1);
	KUNIT_EXPECT_LE(test, n, 2);

	/*
	 * owed credit: a repeated request draws the grant as it stands at
	 * once (the pacer may have granted a chunk meanwhile); then closed:
	 * off the pacer's list when freed
	 */
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x5001,
			    req + 100 * chunk);
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x5001,
			    req + 100 * chunk);
	KUNIT_ASSERT_GE(test, uet_kt_pending(kt), 1);
	KUNIT_EXPECT_GE(test, uet_pdc_test_credit(kt, tlid), req);
	uet_kt_rcv_ctrl(kt, UET_CTRL_CLOSE, tlid, 0x5001);
	uet_kt_gc(kt);
	KUNIT_EXPECT_FALSE(test, uet_kt_pdc(kt, tlid, UET_PDC_TARGET, NULL));
	KUNIT_EXPECT_TRUE(test, UET_KT_WAIT(!hrtimer_active(&kt->un->rccc.timer),
					    1000));
	KUNIT_EXPECT_TRUE(test, list_empty(&kt->un->rccc.pdcs));
	uet_kt_purge(kt);
}

/* RCCC at the default link rate: the pacer meets a request in a few turns */
static void uet_pdc_test_rccc_fast_cfg(struct uet_config *c)
{
	c->cc = UET_CC_RCCC;
}

/*
 * A request that no data follows (a forged one, say) draws at most
 * UET_RCCC_AHEAD_PKTS packets of credit: the pacer then holds the PDC,
 * and answers a repeated request with the grant as it stands.  A new data
 * packet puts it back on the pacer for as much again, and so does a copy
 * of one resent.
 */
static void uet_pdc_test_credit_held(struct kunit *test)
{
	u32 ahead = UET_RCCC_AHEAD_PKTS * UET_DEFAULT_MSS, n;
	struct uet_kt *kt = test->priv;
	struct uet_kt_data d = {
		.psn = 0x5001, .start = 0x5000, .flags = UET_REQ_AR,
		.msg_id = 2, .msg_len = 100, .len = 100, .ev = 0x201,
	};
	struct uet_ack_info a;
	u16 tlid;

	uet_kt_config(kt, uet_pdc_test_rccc_fast_cfg);
	tlid = uet_pdc_test_target(kt);
	d.dpdcid = tlid;
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x5001, 0x40000000);
	KUNIT_ASSERT_TRUE(test, UET_KT_WAIT(!hrtimer_active(&kt->un->rccc.timer),
					    3000));
	KUNIT_EXPECT_EQ(test, uet_pdc_test_credits(kt, tlid, &n), ahead);
	KUNIT_EXPECT_LE(test, n, UET_RCCC_AHEAD_PKTS / UET_RCCC_CHUNK_PKTS);
	KUNIT_EXPECT_TRUE(test, list_empty(&kt->un->rccc.pdcs));

	/* held: a new request is answered at once, with nothing new */
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x5001, 0x40000001);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_credits(kt, tlid, &n), ahead);
	KUNIT_EXPECT_EQ(test, n, 1);

	/* data: as much again */
	uet_kt_rcv_data(kt, &d);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_ASSERT_TRUE(test, UET_KT_WAIT(uet_kt_pending(kt) &&
					    !hrtimer_active(&kt->un->rccc.timer),
					    3000));
	KUNIT_EXPECT_EQ(test, uet_pdc_test_credits(kt, tlid, &n), 2 * ahead);
	KUNIT_EXPECT_GE(test, n, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&kt->un->rccc.pdcs));

	/* a copy resent, its ACK lost: credit spent too, as much again */
	uet_kt_rcv_data(kt, &d);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_ASSERT_TRUE(test, UET_KT_WAIT(uet_kt_pending(kt) &&
					    !hrtimer_active(&kt->un->rccc.timer),
					    3000));
	KUNIT_EXPECT_EQ(test, uet_pdc_test_credits(kt, tlid, &n), 3 * ahead);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_DROP_DUP), 1);
}

/*
 * 10 Mbit/s, 200 ms of round trip and target delay: credit out bound to
 * 240000 payload bytes in whole packets and a packet, written off after
 * 800 ms without data.
 */
static void uet_pdc_test_rccc_bound_cfg(struct uet_config *c)
{
	c->cc = UET_CC_RCCC;
	c->link_rate_mbps = 10;
	c->base_rtt_ns = 100000000;
	c->cc_target_qdelay_ns = 100000000;
}

/* Wait for the pacer to stop at its bound; return the grant then. */
static u32 uet_pdc_test_bound_grant(struct kunit *test, u16 tlid)
{
	struct uet_kt *kt = test->priv;
	u32 n;

	KUNIT_EXPECT_TRUE(test, UET_KT_WAIT(READ_ONCE(kt->un->rccc.blocked),
					    1000));
	return uet_pdc_test_credits(kt, tlid, &n);
}

/* Pop the CREDITs sent so far into *@grant; true once it is @min or more. */
static bool uet_pdc_test_granted(struct uet_kt *kt, u16 tlid, u32 *grant,
				 u32 min)
{
	while (uet_kt_pending(kt))
		*grant = uet_pdc_test_credit(kt, tlid);
	return *grant >= min;
}

/*
 * Pop CREDITs until one grants @min or more, for at most @ms; return the
 * last grant.
 */
static u32 uet_pdc_test_grant_to(struct uet_kt *kt, u16 tlid, u32 min,
				 u32 ms)
{
	u32 grant = 0;

	UET_KT_WAIT(uet_pdc_test_granted(kt, tlid, &grant, min), ms);
	return grant;
}

/*
 * A pacer keeps the credit it has out, granted and not used by data,
 * within its bound: it grants again as data uses some, a retransmission
 * of a PSN not received gives its lost original's back too, a repeated
 * request gives back all it had out, and credit out with no data for 4
 * round trips is written off.
 */
static void uet_pdc_test_credit_bound(struct kunit *test)
{
	u32 bound = uet_rccc_bound(10, 200000000, 100000000,
				   UET_DEFAULT_MSS);
	struct uet_kt *kt = test->priv;
	struct uet_kt_data d = {
		.psn = 0x5001, .start = 0x5000, .flags = UET_REQ_AR,
		.msg_id = 2, .msg_len = UET_DEFAULT_MSS, .len = UET_DEFAULT_MSS,
		.ev = 0x201,
	};
	struct uet_ack_info a;
	u16 tlid;
	u32 g, n;

	KUNIT_ASSERT_EQ(test, bound, 60 * UET_DEFAULT_MSS);
	uet_kt_config(kt, uet_pdc_test_rccc_bound_cfg);
	tlid = uet_pdc_test_target(kt);
	d.dpdcid = tlid;
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x5001, 1 << 20);
	/* whole packets once the bound binds: within one of it */
	g = uet_pdc_test_bound_grant(test, tlid);
	KUNIT_EXPECT_LE(test, g, bound);
	KUNIT_EXPECT_GT(test, g, bound - UET_DEFAULT_MSS);

	/* data used a packet of it: a packet more */
	uet_kt_rcv_data(kt, &d);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_bound_grant(test, tlid),
			g + UET_DEFAULT_MSS);

	/* a resent PSN never received: its lost original's packet too */
	d.psn++;
	d.msg_id++;
	d.flags |= UET_REQ_RETX;
	uet_kt_rcv_data(kt, &d);
	uet_kt_pop_ack(kt, &a, NULL);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_bound_grant(test, tlid),
			g + 3 * UET_DEFAULT_MSS);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_LOST), 0);

	/*
	 * asked again, its credit spent: what it had out is given back at
	 * once, so the pacer grants a bound more (200 ms of link) before
	 * the 800 ms without data that would write it off
	 */
	g += 3 * UET_DEFAULT_MSS;
	uet_kt_rcv_ctrl_val(kt, UET_CTRL_CREDIT_REQ, tlid, 0x5003, 1 << 20);
	n = uet_pdc_test_grant_to(kt, tlid, g + bound - UET_DEFAULT_MSS + 1,
				  600);
	KUNIT_EXPECT_GT(test, n, g + bound - UET_DEFAULT_MSS);
	KUNIT_EXPECT_LE(test, n, g + bound);
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_LOST), 0);

	/* no data for 800 ms: written off, and granted again */
	KUNIT_EXPECT_TRUE(test, UET_KT_WAIT(uet_kt_stat(kt, UET_STAT_RCCC_LOST),
					    3000));
	KUNIT_EXPECT_EQ(test, uet_kt_stat(kt, UET_STAT_RCCC_LOST), n - g);
	KUNIT_EXPECT_TRUE(test, UET_KT_WAIT(uet_kt_pending(kt), 1000));
	uet_kt_purge(kt);
}

static struct kunit_case uet_pdc_test_cases[] = {
	KUNIT_CASE(uet_pdc_test_create),
	KUNIT_CASE(uet_pdc_test_syn_incarnations),
	KUNIT_CASE(uet_pdc_test_syn_race),
	KUNIT_CASE(uet_pdc_test_idle_close),
	KUNIT_CASE(uet_pdc_test_close_ctrl),
	KUNIT_CASE(uet_pdc_test_teardown_queued),
	KUNIT_CASE(uet_pdc_test_spray_keys),
	KUNIT_CASE(uet_pdc_test_credit_unpaced),
	KUNIT_CASE(uet_pdc_test_credit_paced),
	KUNIT_CASE(uet_pdc_test_credit_held),
	KUNIT_CASE(uet_pdc_test_credit_bound),
	{}
};

static struct kunit_suite uet_pdc_test_suite = {
	.name = "uet_pdc",
	.init = uet_kt_init,
	.exit = uet_kt_exit,
	.test_cases = uet_pdc_test_cases,
};

kunit_test_suite(uet_pdc_test_suite);
