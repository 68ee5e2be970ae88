// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: NSCC's window arithmetic with literal numbers.  Unless a case says
 * else: 100 Gbit/s, 12 us base RTT, 4096-byte packets, trimming on, which
 * derives target 9 us, fair increase 20480, proportional increase 12288,
 * fast increase 0.25, eta 614, window 4096..225000 bytes.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <uet/cc.h>

#define T_RATE		100000		/* Mbit/s */
#define T_RTT		12000		/* ns */
#define T_MTU		4096
#define T_TARGET	9000
#define T_NOW		1000000ULL	/* first time stamp, ns */
#define T_CWND		100000

static void uet_nscc_test_setup(struct uet_nscc_params *p, struct uet_nscc *n,
				u32 cwnd)
{
	uet_nscc_params_init(p, T_RATE, T_RTT, T_MTU, true);
	uet_nscc_init(n, p, T_NOW);
	if (cwnd)
		n->cwnd = cwnd;
}

/* A delay sample as the RTT of an ACK: base RTT plus queueing delay. */
static u64 rtt(u32 delay_ns)
{
	return T_RTT + delay_ns;
}

static void uet_nscc_test_defaults_100g(struct kunit *test)
{
	struct uet_nscc_params p;

	uet_nscc_params_init(&p, 100000, 12000, 4096, true);
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), 0);
	KUNIT_EXPECT_EQ(test, p.target_qdelay_ns, 9000);
	KUNIT_EXPECT_EQ(test, p.gamma, 52429);		/* 0.8 */
	KUNIT_EXPECT_EQ(test, p.max_md_jump, 32768);	/* 0.5 */
	KUNIT_EXPECT_EQ(test, p.fair_inc, 20480);	/* 5 packets */
	KUNIT_EXPECT_EQ(test, p.prop_inc, 12288);	/* 4 x 0.75 packets */
	KUNIT_EXPECT_EQ(test, p.fast_inc, 16384);	/* 0.25 */
	KUNIT_EXPECT_EQ(test, p.eta, 614);		/* 0.15 packet */
	KUNIT_EXPECT_EQ(test, p.delay_ewma, 819);	/* 0.0125 */
	KUNIT_EXPECT_EQ(test, p.fast_delay_ns, 1000);
	KUNIT_EXPECT_EQ(test, p.qa_delay_ns, 36000);
	KUNIT_EXPECT_EQ(test, p.qa_gate, 3);
	KUNIT_EXPECT_EQ(test, p.adjust_bytes, 32768);
	KUNIT_EXPECT_EQ(test, p.adjust_period_ns, 12000);
	KUNIT_EXPECT_EQ(test, p.min_cwnd, 4096);
	KUNIT_EXPECT_EQ(test, p.max_cwnd, 225000);	/* 1.5 x 150000 */

	/* without trimming the target is a whole base RTT */
	uet_nscc_params_init(&p, 100000, 12000, 4096, false);
	KUNIT_EXPECT_EQ(test, p.target_qdelay_ns, 12000);
	KUNIT_EXPECT_EQ(test, p.qa_delay_ns, 48000);
	KUNIT_EXPECT_EQ(test, p.prop_inc, 16384);	/* b = 1 */
	KUNIT_EXPECT_EQ(test, p.fair_inc, 20480);
}

static void uet_nscc_test_defaults_vm(struct kunit *test)
{
	struct uet_nscc_params p;

	/* 50 Mbit/s under a VM, 1 ms base RTT: BDP 6250 bytes, a = 2730/2^16 */
	uet_nscc_params_init(&p, 50, 1000000, 4096, true);
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), 0);
	KUNIT_EXPECT_EQ(test, p.target_qdelay_ns, 750000);
	KUNIT_EXPECT_EQ(test, p.fair_inc, 853);
	/* b = 62.5: proportional increase grows with the RTT squared */
	KUNIT_EXPECT_EQ(test, p.prop_inc, 42625);
	KUNIT_EXPECT_EQ(test, p.fast_inc, 682);
	KUNIT_EXPECT_EQ(test, p.eta, 25);
	KUNIT_EXPECT_EQ(test, p.qa_delay_ns, 3000000);
	KUNIT_EXPECT_EQ(test, p.adjust_period_ns, 1000000);
	KUNIT_EXPECT_EQ(test, p.min_cwnd, 4096);
	KUNIT_EXPECT_EQ(test, p.max_cwnd, 9375);

	/*
	 * The same link at the 6 us default: BDP 37, two packets' floor;
	 * the increases scale with the BDP that floor implies, 4/3 x 4096 =
	 * 5461 bytes: a = 2385/2^16, b = 24576/2^16.
	 */
	uet_nscc_params_init(&p, 50, 6000, 4096, true);
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), 0);
	KUNIT_EXPECT_EQ(test, p.target_qdelay_ns, 4500);
	KUNIT_EXPECT_EQ(test, p.fair_inc, 745);
	KUNIT_EXPECT_EQ(test, p.prop_inc, 223);
	KUNIT_EXPECT_EQ(test, p.eta, 22);
	KUNIT_EXPECT_EQ(test, p.max_cwnd, 8192);

	/* the edges clamp instead of overflowing */
	uet_nscc_params_init(&p, U32_MAX, U32_MAX, U32_MAX, true);
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), 0);
	KUNIT_EXPECT_EQ(test, p.base_rtt_ns, UET_NSCC_TIME_LIMIT_NS);
	KUNIT_EXPECT_EQ(test, p.max_cwnd, UET_NSCC_CWND_LIMIT);
	KUNIT_EXPECT_EQ(test, p.prop_inc, UET_NSCC_CWND_LIMIT);
	uet_nscc_params_init(&p, 0, 0, 0, true);
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), 0);
	KUNIT_EXPECT_EQ(test, p.target_qdelay_ns, 1);
	KUNIT_EXPECT_EQ(test, p.min_cwnd, 1);
}

static void uet_nscc_test_params_valid(struct kunit *test)
{
	struct uet_nscc_params p;

	uet_nscc_params_init(&p, T_RATE, T_RTT, T_MTU, true);
	p.gamma = UET_NSCC_FP_ONE + 1;
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), -EINVAL);
	uet_nscc_params_init(&p, T_RATE, T_RTT, T_MTU, true);
	p.max_md_jump = 0;
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), -EINVAL);
	uet_nscc_params_init(&p, T_RATE, T_RTT, T_MTU, true);
	p.min_cwnd = T_MTU - 1;		/* one packet must fit */
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), -EINVAL);
	uet_nscc_params_init(&p, T_RATE, T_RTT, T_MTU, true);
	p.max_cwnd = UET_NSCC_CWND_LIMIT + 1;
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), -EINVAL);
	uet_nscc_params_init(&p, T_RATE, T_RTT, T_MTU, true);
	p.target_qdelay_ns = 0;
	KUNIT_EXPECT_EQ(test, uet_nscc_params_valid(&p), -EINVAL);
}

static void uet_nscc_test_init(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	uet_nscc_test_setup(&p, &n, 0);
	KUNIT_EXPECT_EQ(test, n.cwnd, 225000);	/* a BDP in the first RTT */
	KUNIT_EXPECT_EQ(test, n.max_cwnd, 225000);
	KUNIT_EXPECT_EQ(test, n.in_flight, 0);
	KUNIT_EXPECT_EQ(test, n.base_rtt_ns, T_RTT);
	KUNIT_EXPECT_EQ(test, n.target_qdelay_ns, T_TARGET);
	KUNIT_EXPECT_EQ(test, uet_nscc_avg_delay_ns(&n), 0);
}

/* No ECN, delay 3 us of a 9 us target: 2/3 of the proportional increase. */
static void uet_nscc_test_proportional(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	uet_nscc_test_setup(&p, &n, T_CWND);
	uet_nscc_on_send(&n, T_CWND);
	/* a whole window in one ACK: 12288 x 66666 / 100000 = 8191 */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, T_CWND, rtt(3000),
					      false, T_NOW + 1),
			UET_NSCC_ACT_PROP_INC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 108191);
	KUNIT_EXPECT_EQ(test, n.in_flight, 0);
	/* avg = 0.0125 x 3000 */
	KUNIT_EXPECT_EQ(test, uet_nscc_avg_delay_ns(&n), 37);
	KUNIT_EXPECT_EQ(test, n.last_action, UET_NSCC_ACT_PROP_INC);
	KUNIT_EXPECT_EQ(test, n.actions[UET_NSCC_ACT_PROP_INC], 1);

	/* a small ACK only accumulates: 8 packets or a base RTT apply it */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4096, rtt(0), false,
					      T_NOW + 2),
			UET_NSCC_ACT_PROP_INC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 108191);
	KUNIT_EXPECT_EQ(test, n.inc_bytes, 12288ULL * 4096);
	/* an ACK of nothing a base RTT later: 50331648 / 108191 + eta 614 */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, rtt(0), false,
					      T_NOW + 2 + T_RTT + 1),
			UET_NSCC_ACT_PROP_INC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 108191 + 465 + 614);
	KUNIT_EXPECT_EQ(test, n.inc_bytes, 0);
}

/* No ECN, delay at or above target: the same 20480 bytes for any window. */
static void uet_nscc_test_fair(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	uet_nscc_test_setup(&p, &n, T_CWND);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, T_CWND, rtt(T_TARGET),
					      false, T_NOW + 1),
			UET_NSCC_ACT_FAIR_INC);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_CWND + 20480);
	KUNIT_EXPECT_EQ(test, uet_nscc_avg_delay_ns(&n), 112);	/* 9000 */

	/*
	 * Above target without ECN the queue behind the packet has drained:
	 * the average takes a quarter base RTT (3000), not the sample.
	 */
	uet_nscc_test_setup(&p, &n, 50000);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 50000, rtt(20000),
					      false, T_NOW + 1),
			UET_NSCC_ACT_FAIR_INC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 50000 + 20480);
	KUNIT_EXPECT_EQ(test, uet_nscc_avg_delay_ns(&n), 37);
}

/* ECN with the delay below target: no change, the path selector acts. */
static void uet_nscc_test_hold(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	uet_nscc_test_setup(&p, &n, T_CWND);
	uet_nscc_on_send(&n, T_CWND);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, T_CWND, rtt(3000),
					      true, T_NOW + 1),
			UET_NSCC_ACT_HOLD);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_CWND);
	KUNIT_EXPECT_EQ(test, n.in_flight, 0);
	KUNIT_EXPECT_EQ(test, n.inc_bytes, 0);
	KUNIT_EXPECT_EQ(test, n.actions[UET_NSCC_ACT_HOLD], 1);
}

/* ECN at/above target: cwnd *= max(1 - 0.8 (avg - 9000) / avg, 0.5). */
static void uet_nscc_test_md(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	/* avg 12000: 1 - 0.8 x 3000 / 12000 = 0.8; eta off, it is due too */
	uet_nscc_test_setup(&p, &n, T_CWND);
	p.eta = 0;
	n.avg_delay_q = 12000ULL << UET_NSCC_FP_SHIFT;
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, rtt(12000), true,
					      T_NOW + 1),
			UET_NSCC_ACT_MULT_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 80000);

	/* at most once per base RTT */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, rtt(12000), true,
					      T_NOW + 1 + T_RTT),
			UET_NSCC_ACT_MD_WAIT);
	KUNIT_EXPECT_EQ(test, n.cwnd, 80000);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, rtt(12000), true,
					      T_NOW + 2 + T_RTT),
			UET_NSCC_ACT_MULT_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 64000);

	/* avg 30000: 1 - 0.8 x 21000 / 30000 = 0.44, clamped to 0.5 */
	uet_nscc_test_setup(&p, &n, T_CWND);
	p.eta = 0;
	n.avg_delay_q = 30000ULL << UET_NSCC_FP_SHIFT;
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, rtt(30000), true,
					      T_NOW + 1),
			UET_NSCC_ACT_MULT_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 50000);

	/* a larger max_md_jump lets less go */
	p.max_md_jump = 49152;	/* 0.75 */
	n.cwnd = T_CWND;
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, rtt(30000), true,
					      T_NOW + 2 + T_RTT),
			UET_NSCC_ACT_MULT_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 75000);

	/* the sample is above target but the average is not: wait */
	uet_nscc_test_setup(&p, &n, T_CWND);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, rtt(30000), true,
					      T_NOW + 1),
			UET_NSCC_ACT_MD_WAIT);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_CWND);

	/* never below one packet */
	uet_nscc_test_setup(&p, &n, 5000);
	n.avg_delay_q = 30000ULL << UET_NSCC_FP_SHIFT;
	uet_nscc_on_ack(&n, &p, 0, rtt(30000), true, T_NOW + 1);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_MTU);
}

/*
 * Two windows, 200000 and 50000 bytes, fed the same signals each RTT: a
 * window of fair-increase ACKs (plus eta), then a decrease by 0.8.  The
 * difference shrinks by 0.8 a round, to where x = 0.8 (x + 20480 + 614).
 */
static void uet_nscc_test_fair_converges(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc a, b;
	struct uet_nscc *w[2] = { &a, &b };
	u64 now = T_NOW;
	int r, i;

	uet_nscc_test_setup(&p, &a, 200000);
	uet_nscc_test_setup(&p, &b, 50000);
	for (r = 0; r < 50; r++) {
		now += 2 * T_RTT;
		for (i = 0; i < 2; i++) {
			KUNIT_EXPECT_EQ(test,
					uet_nscc_on_ack(w[i], &p, w[i]->cwnd,
							rtt(T_TARGET), false,
							now),
					UET_NSCC_ACT_FAIR_INC);
			w[i]->avg_delay_q = 12000ULL << UET_NSCC_FP_SHIFT;
			KUNIT_EXPECT_EQ(test,
					uet_nscc_on_ack(w[i], &p, 0,
							rtt(12000), true,
							now + 1),
					UET_NSCC_ACT_MULT_DEC);
		}
		if (r == 0)
			/* still far apart after one round */
			KUNIT_EXPECT_GT(test, a.cwnd, 2 * b.cwnd);
	}
	/* 150000 x 0.8^50: a few bytes apart, near 84376 (less rounding) */
	KUNIT_EXPECT_GE(test, a.cwnd, b.cwnd);
	KUNIT_EXPECT_LE(test, a.cwnd - b.cwnd, 4);
	KUNIT_EXPECT_GE(test, b.cwnd, 84360);
	KUNIT_EXPECT_LE(test, a.cwnd, 84380);
}

/* Fast increase: after a window's worth of ACKs at under 1 us of delay. */
static void uet_nscc_test_fast(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	uet_nscc_test_setup(&p, &n, T_CWND);
	/* 60000 < cwnd so far: proportional, 12288 x 56666 / 100000 */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 60000, rtt(500), false,
					      T_NOW + 1),
			UET_NSCC_ACT_PROP_INC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 106963);
	/* 120000 > 106963: fast, + 60000 / 4 */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 60000, rtt(500), false,
					      T_NOW + 2),
			UET_NSCC_ACT_FAST_INC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 121963);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4000, rtt(0), false,
					      T_NOW + 3),
			UET_NSCC_ACT_FAST_INC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 122963);
	/* delay shows up: back to proportional */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4000, rtt(2000), false,
					      T_NOW + 4),
			UET_NSCC_ACT_PROP_INC);
	KUNIT_EXPECT_FALSE(test, n.fast);
	KUNIT_EXPECT_EQ(test, n.fast_count, 0);
}

/* A smaller RTT lowers the base RTT and the largest window with it. */
static void uet_nscc_test_base_rtt(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	uet_nscc_test_setup(&p, &n, 0);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, 10000, false,
					      T_NOW + 1),
			UET_NSCC_ACT_PROP_INC);
	KUNIT_EXPECT_EQ(test, n.base_rtt_ns, 10000);
	KUNIT_EXPECT_EQ(test, n.max_cwnd, 187500);	/* 225000 x 10 / 12 */
	KUNIT_EXPECT_EQ(test, n.cwnd, 187500);
	KUNIT_EXPECT_EQ(test, uet_nscc_avg_delay_ns(&n), 0);
	/* a larger one does not raise it */
	uet_nscc_on_ack(&n, &p, 0, 11000, false, T_NOW + 2);
	KUNIT_EXPECT_EQ(test, n.base_rtt_ns, 10000);
	/* no sample: the average delay (below target) decides */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, 0, true, T_NOW + 3),
			UET_NSCC_ACT_HOLD);
}

/* NSCC state with three packets of 1000 bytes sent. */
static void uet_nscc_test_three(struct kunit *test, struct uet_nscc_params *p,
				struct uet_nscc *n)
{
	uet_nscc_test_setup(p, n, T_CWND);
	uet_nscc_on_send(n, 1000);
	uet_nscc_on_send(n, 1000);
	uet_nscc_on_send(n, 1000);
	KUNIT_EXPECT_EQ(test, n->in_flight, 3000);
}

/*
 * Rcvd_Bytes is rounded up to 256 bytes and ACKs reorder: three packets of
 * 1000 bytes, reported as 4, 8 and 12 units, the second report first.
 */
static void uet_nscc_test_inflight_reorder(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;
	u32 bytes;

	uet_nscc_test_three(test, &p, &n);
	bytes = uet_nscc_rcvd_bytes(&n, 8, 0);
	KUNIT_EXPECT_EQ(test, bytes, 2048);
	uet_nscc_on_ack(&n, &p, bytes, rtt(1000), false, T_NOW + 1);
	KUNIT_EXPECT_EQ(test, n.in_flight, 952);

	/* the older report is stale: nothing */
	bytes = uet_nscc_rcvd_bytes(&n, 4, 0);
	KUNIT_EXPECT_EQ(test, bytes, 0);
	uet_nscc_on_ack(&n, &p, bytes, rtt(1000), false, T_NOW + 2);
	KUNIT_EXPECT_EQ(test, n.in_flight, 952);
	KUNIT_EXPECT_EQ(test, n.rcvd_units, 8);

	/* the rounding takes in-flight below zero */
	bytes = uet_nscc_rcvd_bytes(&n, 12, 0);
	KUNIT_EXPECT_EQ(test, bytes, 1024);
	uet_nscc_on_ack(&n, &p, bytes, rtt(1000), false, T_NOW + 3);
	KUNIT_EXPECT_EQ(test, n.in_flight, -72);
	/* the same count again is nothing new */
	KUNIT_EXPECT_EQ(test, uet_nscc_rcvd_bytes(&n, 12, 0), 0);

	/* the 24-bit count wraps */
	n.rcvd_units = 0xfffff0;
	KUNIT_EXPECT_EQ(test, uet_nscc_rcvd_bytes(&n, 0x000010, 0), 32 * 256);
	KUNIT_EXPECT_EQ(test, n.rcvd_units, 0x10);
	KUNIT_EXPECT_EQ(test, uet_nscc_rcvd_bytes(&n, 0xfffff8, 0), 0);
	KUNIT_EXPECT_EQ(test, uet_nscc_rcvd_bytes(&n, 0x1000010, 0), 0);
}

/*
 * A target without NSCC: plain ACKs, counted by their PSNs, then an ACK_CC
 * for a SACK whose Rcvd_Bytes counts everything since the PDC began.  That
 * count is a new base and the ACK counts its PSNs: nothing twice.
 */
static void uet_nscc_test_rcvd_rebase(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;
	u32 bytes;

	uet_nscc_test_three(test, &p, &n);
	/* a plain ACK of the first packet, as uet_tx_cc_ack() takes it */
	n.rcvd_rebase = true;
	uet_nscc_on_ack(&n, &p, 1000, rtt(1000), false, T_NOW + 1);
	KUNIT_EXPECT_EQ(test, n.in_flight, 2000);

	/* 3 packets received (12 units), the ACK_CC SACKs the third */
	bytes = uet_nscc_rcvd_bytes(&n, 12, 1000);
	KUNIT_EXPECT_EQ(test, bytes, 1000);
	KUNIT_EXPECT_EQ(test, n.rcvd_units, 12);
	KUNIT_EXPECT_FALSE(test, n.rcvd_rebase);
	uet_nscc_on_ack(&n, &p, bytes, rtt(1000), false, T_NOW + 2);
	KUNIT_EXPECT_EQ(test, n.in_flight, 1000);

	/* counts are deltas again from that base */
	KUNIT_EXPECT_EQ(test, uet_nscc_rcvd_bytes(&n, 16, 1000), 1024);
}

static void uet_nscc_test_can_send(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	uet_nscc_test_setup(&p, &n, 8192);
	uet_nscc_on_send(&n, 4096);
	KUNIT_EXPECT_TRUE(test, uet_nscc_can_send(&n, 4096));
	KUNIT_EXPECT_FALSE(test, uet_nscc_can_send(&n, 4097));
	n.in_flight = -100;
	KUNIT_EXPECT_TRUE(test, uet_nscc_can_send(&n, 8292));
	KUNIT_EXPECT_FALSE(test, uet_nscc_can_send(&n, 8293));
	/* a packet given up leaves in-flight; acknowledged after all, back */
	n.in_flight = 8192;
	KUNIT_EXPECT_FALSE(test, uet_nscc_can_send(&n, 1));
	KUNIT_EXPECT_EQ(test, uet_nscc_on_nack(&n, 4096), UET_NSCC_ACT_NONE);
	KUNIT_EXPECT_EQ(test, n.cwnd, 8192);
	KUNIT_EXPECT_TRUE(test, uet_nscc_can_send(&n, 4096));
	uet_nscc_on_unmark(&n, 4096);
	KUNIT_EXPECT_EQ(test, n.in_flight, 8192);
}

/* Trims take the packet off the window until quick adapt takes over. */
static void uet_nscc_test_trim(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	uet_nscc_test_setup(&p, &n, T_CWND);
	uet_nscc_on_send(&n, 8192);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false, T_NOW + 1),
			UET_NSCC_ACT_TRIM_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_CWND - 4096);
	KUNIT_EXPECT_EQ(test, n.in_flight, 4096);
	KUNIT_EXPECT_TRUE(test, n.qa_trigger);
	/* a trim counts as a base RTT of delay: 0.0125 x 12000, rounded down */
	KUNIT_EXPECT_EQ(test, uet_nscc_avg_delay_ns(&n), 149);

	/* with RCCC a last-hop trim leaves the window to the credit */
	p.rccc = true;
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, true, T_NOW + 2),
			UET_NSCC_ACT_NONE);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_CWND - 4096);
	KUNIT_EXPECT_EQ(test, n.in_flight, 0);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false, T_NOW + 3),
			UET_NSCC_ACT_TRIM_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_CWND - 8192);
}

/*
 * An incast: the window is at its largest (225000), a period (12 + 9 us)
 * delivers 20000 bytes, under 225000 / 8; the trim after the period sets
 * the window to those 20000 bytes, and ECN-marked ACKs of what was then in
 * flight are ignored instead of decreasing it again.
 */
static void uet_nscc_test_quick_adapt(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;
	u64 t = T_NOW;

	uet_nscc_test_setup(&p, &n, 0);
	uet_nscc_on_send(&n, 225000);
	/* the first ACK starts the period: it ends at t + 100 + 21000 */
	uet_nscc_on_ack(&n, &p, 4096, rtt(5000), false, t + 100);
	uet_nscc_on_ack(&n, &p, 20000, rtt(5000), false, t + 200);
	KUNIT_EXPECT_EQ(test, n.qa_acked, 20000);
	/* not before the period ends: an ordinary decrease */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false,
					       t + 21100),
			UET_NSCC_ACT_TRIM_DEC);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false,
					       t + 21101),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, n.cwnd, 20000);
	KUNIT_EXPECT_EQ(test, n.in_flight, 225000 - 24096 - 8192);
	KUNIT_EXPECT_EQ(test, n.qa_ignore, 225000 - 24096 - 8192);
	KUNIT_EXPECT_FALSE(test, n.qa_trigger);
	KUNIT_EXPECT_EQ(test, n.actions[UET_NSCC_ACT_QUICK_ADAPT], 1);

	/* the queue it answered: marked ACKs ignored, trims too */
	n.avg_delay_q = 30000ULL << UET_NSCC_FP_SHIFT;
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 100000, rtt(30000), true,
					      t + 21200),
			UET_NSCC_ACT_QA_IGNORE);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false,
					       t + 21300),
			UET_NSCC_ACT_QA_IGNORE);
	KUNIT_EXPECT_EQ(test, n.cwnd, 20000);
	/*
	 * until all of it is accounted for: then the decrease by half, plus
	 * eta, due once a base RTT whatever the signal
	 */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 88616, rtt(30000), true,
					      t + 21400),
			UET_NSCC_ACT_MULT_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 10000 + 614);
	/* at most once a period */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false,
					       t + 21500),
			UET_NSCC_ACT_TRIM_DEC);
}

/* A burst of trims inside a period: quick adapt on the next ACK after it. */
static void uet_nscc_test_quick_adapt_burst(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;
	u64 t = T_NOW;
	int i;

	uet_nscc_test_setup(&p, &n, 0);
	uet_nscc_on_send(&n, 225000);				/* full */
	uet_nscc_on_ack(&n, &p, 0, rtt(5000), false, t);	/* period */
	uet_nscc_on_ack(&n, &p, 12000, rtt(5000), false, t + 1000);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false,
						       t + 2000 + i),
				UET_NSCC_ACT_TRIM_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, 225000 - 3 * 4096);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4000, rtt(5000), false,
					      t + 21001),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, n.cwnd, 16000);

	/* a period that delivered enough (>= 28125): no quick adapt */
	uet_nscc_test_setup(&p, &n, 0);
	uet_nscc_on_send(&n, 225000);
	uet_nscc_on_ack(&n, &p, 0, rtt(5000), false, t);
	uet_nscc_on_ack(&n, &p, 28125, rtt(5000), false, t + 1000);
	uet_nscc_on_trim(&n, &p, 4096, false, t + 2000);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false,
					       t + 21001),
			UET_NSCC_ACT_TRIM_DEC);

	/* a delay over 4 targets triggers it without a loss */
	uet_nscc_test_setup(&p, &n, 0);
	uet_nscc_on_send(&n, 225000);
	uet_nscc_on_ack(&n, &p, 0, rtt(0), false, t);
	uet_nscc_on_ack(&n, &p, 8000, rtt(5000), false, t + 1000);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, rtt(36001), true,
					      t + 21001),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, n.cwnd, 8000);
	/* never below one packet */
	uet_nscc_test_setup(&p, &n, 0);
	uet_nscc_on_send(&n, 225000);
	uet_nscc_on_ack(&n, &p, 0, rtt(5000), false, t);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false,
					       t + 21001),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_MTU);
}

/*
 * A sender its application holds back (a ping-pong: one message in flight,
 * the window never full) delivers what it sends, not its share: no quick
 * adapt on extreme delay or loss.  Once the window fills in a period, the
 * same signals quick-adapt at its end; a period later, not full again,
 * they do not; data left waiting counts as a full window.
 */
static void uet_nscc_test_quick_adapt_app_limited(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;
	u64 t = T_NOW;

	uet_nscc_test_setup(&p, &n, 0);
	uet_nscc_on_send(&n, 8000);
	uet_nscc_on_ack(&n, &p, 0, rtt(0), false, t);	/* period */
	uet_nscc_on_ack(&n, &p, 8000, rtt(36001), false, t + 1000);
	uet_nscc_on_send(&n, 8000);
	KUNIT_EXPECT_NE(test, uet_nscc_on_ack(&n, &p, 0, rtt(36001), false,
					      t + 21001),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_timeout(&n, &p, 4096, t + 42002),
			UET_NSCC_ACT_TIMEOUT_DEC);
	KUNIT_EXPECT_EQ(test, n.actions[UET_NSCC_ACT_QUICK_ADAPT], 0);
	KUNIT_EXPECT_GT(test, n.cwnd, 200000);

	/* the window filled in this period: it ends in quick adapt */
	uet_nscc_on_send(&n, n.cwnd);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 8000, rtt(36001), false,
					      t + 63003),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, n.cwnd, 8000);
	/* a period whose sends did not fill it: none */
	n.in_flight = 0;
	uet_nscc_on_send(&n, 2000);
	KUNIT_EXPECT_NE(test, uet_nscc_on_ack(&n, &p, 2000, rtt(36001), false,
					      t + 84004),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, n.actions[UET_NSCC_ACT_QUICK_ADAPT], 1);
	/* data left waiting (PSN window, credit): held back all the same */
	uet_nscc_on_held(&n);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 0, rtt(36001), false,
					      t + 105005),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_MTU);
}

/*
 * A path slower than the configured base RTT (a VM's: 200 us against
 * 12 us): a delay is extreme once the sample is 3 of its lowest RTTs above
 * that RTT (4 targets had the base RTT been configured as 200 us), not
 * 4 of the configured targets above the configured base.  Such a delay
 * halves the window, at most once a round trip, where a period of one ACK
 * would set it to that ACK's bytes; a loss there still quick-adapts.
 */
static void uet_nscc_test_quick_adapt_slow_path(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;
	u64 t = T_NOW;
	u32 cwnd;
	int i;

	uet_nscc_test_setup(&p, &n, 0);
	uet_nscc_on_send(&n, n.cwnd);
	/* the first ACK starts the period */
	uet_nscc_on_ack(&n, &p, 4096, 200000, false, t);
	KUNIT_EXPECT_EQ(test, n.min_rtt_ns, 200000);
	KUNIT_EXPECT_EQ(test, n.base_rtt_ns, T_RTT);
	KUNIT_EXPECT_EQ(test, n.qa_end_ns, t + T_RTT + 9000);
	/* periods of one ACK each, held back, at 188 us over the base */
	for (i = 1; i <= 11; i++) {
		uet_nscc_on_held(&n);
		KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4096,
						      200000 + i, false,
						      t + i * 22000),
				UET_NSCC_ACT_FAIR_INC);
	}
	uet_nscc_on_held(&n);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4096, 800000, false,
					      t + 12 * 22000),
			UET_NSCC_ACT_FAIR_INC);
	KUNIT_EXPECT_EQ(test, n.actions[UET_NSCC_ACT_QUICK_ADAPT], 0);
	/*
	 * past it, a delay alone halves the window, once a round trip (the
	 * first one a round trip after the start)
	 */
	cwnd = n.cwnd;
	uet_nscc_on_held(&n);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4096, 800001, false,
					      t + 900000),
			UET_NSCC_ACT_MULT_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, cwnd / 2);
	uet_nscc_on_held(&n);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4096, 800001, false,
					      t + 922000),
			UET_NSCC_ACT_FAIR_INC);
	KUNIT_EXPECT_GE(test, n.cwnd, cwnd / 2);
	cwnd = n.cwnd;
	uet_nscc_on_held(&n);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4096, 800001, false,
					      t + 900000 + 800002),
			UET_NSCC_ACT_MULT_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, cwnd / 2);
	KUNIT_EXPECT_EQ(test, n.actions[UET_NSCC_ACT_QUICK_ADAPT], 0);
	/* a loss there still sets the window to what the period delivered */
	uet_nscc_on_held(&n);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_trim(&n, &p, 4096, false,
					       t + 1800000),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, n.cwnd, p.min_cwnd);

	/*
	 * A path the configured base covers, with a target set below 3/4 of
	 * it (cc-target-qdelay): the model's 4 targets, not 3 lowest RTTs.
	 */
	uet_nscc_test_setup(&p, &n, 0);
	p.target_qdelay_ns = 1000;
	p.qa_delay_ns = 4000;
	uet_nscc_init(&n, &p, T_NOW);
	uet_nscc_on_send(&n, n.cwnd);
	uet_nscc_on_ack(&n, &p, 0, rtt(0), false, t);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_ack(&n, &p, 4096, rtt(4001), false,
					      t + 14000),
			UET_NSCC_ACT_QUICK_ADAPT);
}

/* Timeouts take the packet off the window and ask for quick adapt. */
static void uet_nscc_test_timeout(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;
	u64 t = T_NOW;

	uet_nscc_test_setup(&p, &n, T_CWND);
	uet_nscc_on_send(&n, 50000);
	KUNIT_EXPECT_EQ(test, uet_nscc_on_timeout(&n, &p, 4096, t + 1),
			UET_NSCC_ACT_TIMEOUT_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_CWND - 4096);
	KUNIT_EXPECT_EQ(test, n.in_flight, 50000 - 4096);
	KUNIT_EXPECT_TRUE(test, n.qa_trigger);
	n.cwnd = 5000;
	KUNIT_EXPECT_EQ(test, uet_nscc_on_timeout(&n, &p, 4096, t + 2),
			UET_NSCC_ACT_TIMEOUT_DEC);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_MTU);
	/* nothing delivered in the period: the next loss quick-adapts */
	KUNIT_EXPECT_EQ(test, uet_nscc_on_timeout(&n, &p, 4096, t + 21002),
			UET_NSCC_ACT_QUICK_ADAPT);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_MTU);
	KUNIT_EXPECT_EQ(test, n.in_flight, 50000 - 3 * 4096);
	KUNIT_EXPECT_EQ(test, n.actions[UET_NSCC_ACT_TIMEOUT_DEC], 2);
	KUNIT_EXPECT_EQ(test, n.last_action, UET_NSCC_ACT_QUICK_ADAPT);
}

/* The window stays within [min_cwnd, the PDC's max_cwnd]. */
static void uet_nscc_test_bounds(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;

	uet_nscc_test_setup(&p, &n, 220000);
	uet_nscc_on_ack(&n, &p, 220000, rtt(T_TARGET), false, T_NOW + 1);
	KUNIT_EXPECT_EQ(test, n.cwnd, 225000);
	uet_nscc_on_trim(&n, &p, 1 << 30, false, T_NOW + 2);
	KUNIT_EXPECT_EQ(test, n.cwnd, T_MTU);
	/* an absurd ACK saturates instead of wrapping */
	uet_nscc_on_ack(&n, &p, U32_MAX, rtt(0), false, T_NOW + 3);
	KUNIT_EXPECT_EQ(test, n.in_flight, -220000LL - (2LL << 30));
	KUNIT_EXPECT_LE(test, n.cwnd, 225000);
	KUNIT_EXPECT_GE(test, n.cwnd, T_MTU);
}

/*
 * A BDP far below a packet (10 Mbit/s x 6 us = 7 bytes, mtu 4200): the
 * window is floored at two packets, and once a timeout took it to one it
 * must be able to grow back; increases scaled by the BDP alone were 0.
 */
static void uet_nscc_test_small_bdp(struct kunit *test)
{
	struct uet_nscc_params p;
	struct uet_nscc n;
	u64 t;

	uet_nscc_params_init(&p, 10, 6000, 4200, true);
	KUNIT_EXPECT_GT(test, p.fair_inc, 0);
	KUNIT_EXPECT_GT(test, p.prop_inc, 0);
	uet_nscc_init(&n, &p, T_NOW);
	KUNIT_EXPECT_EQ(test, n.cwnd, 8400);
	uet_nscc_on_send(&n, 4200);
	uet_nscc_on_timeout(&n, &p, 4200, T_NOW + 1);
	KUNIT_ASSERT_EQ(test, n.cwnd, 4200);
	for (t = 1; t <= 1000; t++)
		uet_nscc_on_ack(&n, &p, 4200, 6000, false,
				T_NOW + t * NSEC_PER_MSEC);
	KUNIT_EXPECT_GT(test, n.cwnd, 4200);
}

/* RCCC's initial credit: one BDP within 1 and 256 full packets. */
static void uet_rccc_test_init_credit(struct kunit *test)
{
	/* 100 Gbit/s x 12 us = 150000 bytes */
	KUNIT_EXPECT_EQ(test, uet_rccc_init_credit(100000, 12000, 4096), 150000);
	/* 1 Gbit/s x 6 us = 750 bytes: one packet */
	KUNIT_EXPECT_EQ(test, uet_rccc_init_credit(1000, 6000, 4096), 4096);
	/* 50 Mbit/s x 1 ms = 6250 bytes: one jumbo packet, not four */
	KUNIT_EXPECT_EQ(test, uet_rccc_init_credit(50, 1000000, 8192), 8192);
	/* 1.6 Tbit/s x 1 s: 256 packets */
	KUNIT_EXPECT_EQ(test, uet_rccc_init_credit(1600000, 1000000000, 4096),
			256 * 4096);
}

/*
 * The link's payload bytes, less 1/64 of headroom: 104 bytes of headers a
 * full packet.
 */
static void uet_rccc_test_tokens(struct kunit *test)
{
	/* 50 Mbit/s for 1 ms: 6250 - 97 bytes, 6153 x 4096 / 4200 */
	KUNIT_EXPECT_EQ(test, uet_rccc_tokens(50, 1000000, 4096), 6000);
	KUNIT_EXPECT_EQ(test, uet_rccc_tokens(50, 0, 4096), 0);
	/* counted up to 1 s, whatever passed */
	KUNIT_EXPECT_EQ(test, uet_rccc_tokens(1600000, 10000000000ULL, 4096),
			uet_rccc_tokens(1600000, 1000000000, 4096));
	/*
	 * The pacer's period at 1 Mbit/s and mss 16384 counts whole:
	 * 4 x 16488 x 8000 ns, 65952 - 1030 bytes, x 16384 / 16488.
	 */
	KUNIT_EXPECT_EQ(test, uet_rccc_tokens(1, 527616000, 16384), 64512);
	/* 2 x 10^10 - 3125 x 10^5 bytes, x 4096 / 4200 */
	KUNIT_EXPECT_EQ(test, uet_rccc_tokens(1600000, 100000000, 4096),
			19200000000ULL);
}

/* Credit out: granted, less what data used and what was written off. */
static void uet_rccc_test_unseen(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, uet_rccc_unseen(1000, 400, 100), 500);
	/* a late original after its retransmission: used past the grant */
	KUNIT_EXPECT_EQ(test, uet_rccc_unseen(1000, 900, 200), 0);
	/* across the wrap */
	KUNIT_EXPECT_EQ(test, uet_rccc_unseen(5, 0xfffffff0, 0), 21);
	KUNIT_EXPECT_EQ(test, uet_rccc_unseen(5, 0, 0xfffffff0), 21);
}

/*
 * The pacer's bound: the link's payload over the base RTT and target
 * delay, and a packet where the link carries it within one more target
 * delay, in whole packets, two at least.
 */
static void uet_rccc_test_bound(struct kunit *test)
{
	/* 50 Mbit/s for 2 ms: 12500 - 195 bytes, x 4096 / 4200: 12000 */
	KUNIT_EXPECT_EQ(test, uet_rccc_bound(50, 2000000, 1000000, 4096),
			4 * 4096);
	/* 3 ms: 18000, 2 packets of 8192: not 2 rounded up and one more */
	KUNIT_EXPECT_EQ(test, uet_rccc_bound(50, 2000000, 1000000, 8192),
			2 * 8192);
	/* 1024: 11170 rounded up and one more, 12, within 3 ms's 16756 */
	KUNIT_EXPECT_EQ(test, uet_rccc_bound(50, 2000000, 1000000, 1024),
			12 * 1024);
	/* jumbo packets on a slow link: two packets at least */
	KUNIT_EXPECT_EQ(test, uet_rccc_bound(50, 0, 0, 8192), 2 * 8192);
	/* within a signed 32-bit count */
	KUNIT_EXPECT_EQ(test, uet_rccc_bound(1600000, 4000000000U, 1000000,
					     4096),
			(U32_MAX / 2) / 4096 * 4096);
}

/*
 * A turn's cap: its worth, a chunk at least; while the pacer runs, four
 * turns' worth or the bound on credit out, the larger.
 */
static void uet_rccc_test_cap(struct kunit *test)
{
	/* after idle: one turn's worth, or a chunk */
	KUNIT_EXPECT_EQ(test, uet_rccc_cap(25000, 16384, 500000, false), 25000);
	KUNIT_EXPECT_EQ(test, uet_rccc_cap(1000, 16384, 500000, false), 16384);
	/* running, a long round trip: the bound, not 4 x 25000 */
	KUNIT_EXPECT_EQ(test, uet_rccc_cap(25000, 16384, 500000, true), 500000);
	/* running, a short one: four turns' worth */
	KUNIT_EXPECT_EQ(test, uet_rccc_cap(1000000, 16384, 600000, true),
			4000000);
	/* a chunk counts for a short turn */
	KUNIT_EXPECT_EQ(test, uet_rccc_cap(1000, 16384, 12288, true), 65536);
}

/* Cumulative request and grant, signed across the wrap. */
static void uet_rccc_test_credit(struct kunit *test)
{
	struct uet_rccc_tx r;

	uet_rccc_tx_init(&r, 1000);
	KUNIT_EXPECT_TRUE(test, uet_rccc_can_send(&r));
	r.queued = 800;
	/* the initial credit covers it: nothing to ask */
	KUNIT_EXPECT_FALSE(test, uet_rccc_need(&r));
	r.queued = 3000;
	KUNIT_EXPECT_TRUE(test, uet_rccc_need(&r));
	KUNIT_EXPECT_EQ(test, uet_rccc_req(&r), 2000);
	r.asked = uet_rccc_req(&r);
	KUNIT_EXPECT_FALSE(test, uet_rccc_need(&r));
	r.sent = 1000;
	KUNIT_EXPECT_FALSE(test, uet_rccc_can_send(&r));
	/* a grant: 500 more; an older one: nothing; beyond the request: 2000 */
	KUNIT_EXPECT_TRUE(test, uet_rccc_on_grant(&r, 500));
	KUNIT_EXPECT_TRUE(test, uet_rccc_can_send(&r));
	KUNIT_EXPECT_FALSE(test, uet_rccc_on_grant(&r, 400));
	KUNIT_EXPECT_EQ(test, r.grant, 500);
	KUNIT_EXPECT_TRUE(test, uet_rccc_on_grant(&r, 1U << 30));
	KUNIT_EXPECT_EQ(test, r.grant, 2000);
	r.sent = 3000;
	KUNIT_EXPECT_FALSE(test, uet_rccc_can_send(&r));
	/* a resend of 500 overdraws, and is asked for again */
	r.asked = uet_rccc_req(&r);
	uet_rccc_on_resend(&r, 500);
	KUNIT_EXPECT_EQ(test, r.sent, 3500);
	KUNIT_EXPECT_EQ(test, uet_rccc_req(&r), 2500);
	KUNIT_EXPECT_TRUE(test, uet_rccc_need(&r));
	KUNIT_EXPECT_TRUE(test, uet_rccc_on_grant(&r, 2500));
	KUNIT_EXPECT_FALSE(test, uet_rccc_can_send(&r));
	KUNIT_EXPECT_FALSE(test, uet_rccc_on_grant(&r, 2600));
	KUNIT_EXPECT_EQ(test, r.grant, 2500);

	/*
	 * 3 GiB queued beyond the initial credit: the request runs 1 GiB
	 * ahead of the grant, and on as the grant comes (compared signed,
	 * 3 GiB ahead would look behind)
	 */
	uet_rccc_tx_init(&r, 1000);
	r.queued = 1000 + 3 * UET_RCCC_REQ_AHEAD;
	KUNIT_EXPECT_EQ(test, uet_rccc_req(&r), UET_RCCC_REQ_AHEAD);
	KUNIT_EXPECT_TRUE(test, uet_rccc_need(&r));
	r.asked = uet_rccc_req(&r);
	KUNIT_EXPECT_FALSE(test, uet_rccc_need(&r));
	KUNIT_EXPECT_TRUE(test, uet_rccc_on_grant(&r, UET_RCCC_REQ_AHEAD));
	KUNIT_EXPECT_EQ(test, uet_rccc_req(&r), 2 * UET_RCCC_REQ_AHEAD);
	KUNIT_EXPECT_TRUE(test, uet_rccc_need(&r));

	/* across the wrap of every count */
	uet_rccc_tx_init(&r, 1000);
	r.queued = 0xfffffc00;
	r.sent = 0xfffff000;
	r.grant = 0xfffff000 - 1000;
	r.asked = r.grant;
	KUNIT_EXPECT_FALSE(test, uet_rccc_can_send(&r));
	r.queued += 0x2000;
	KUNIT_EXPECT_TRUE(test, uet_rccc_need(&r));
	KUNIT_EXPECT_TRUE(test, uet_rccc_on_grant(&r, r.grant + 0x1800));
	KUNIT_EXPECT_TRUE(test, uet_rccc_can_send(&r));
	KUNIT_EXPECT_EQ(test, uet_rccc_demand(5, 0xfffffff0), 21);
	KUNIT_EXPECT_EQ(test, uet_rccc_demand(0xfffffff0, 5), 0);
}

/* A waiting sender asks again after its usual waits, not one timeout. */
static void uet_rccc_test_ask(struct kunit *test)
{
	struct uet_rccc_tx r;

	uet_rccc_tx_init(&r, 1000);
	/* no wait seen yet: one timeout, doubled per repeat up to 4 */
	KUNIT_EXPECT_EQ(test, uet_rccc_ask_ns(&r, 1000000, 200000000), 1000000);
	r.repeats = 1;
	KUNIT_EXPECT_EQ(test, uet_rccc_ask_ns(&r, 1000000, 200000000), 2000000);
	r.repeats = 200;
	KUNIT_EXPECT_EQ(test, uet_rccc_ask_ns(&r, 1000000, 200000000), 4000000);
	r.repeats = 0;

	/* waits of 11 ms for a turn (16 senders at 50 Mbit/s): ask at 22 ms */
	uet_rccc_on_wait_end(&r, 11000000);
	KUNIT_EXPECT_EQ(test, r.wait_ns, 11000000);
	KUNIT_EXPECT_EQ(test, uet_rccc_ask_ns(&r, 1000000, 200000000),
			22000000);
	/* one short wait moves the average an eighth of the way */
	uet_rccc_on_wait_end(&r, 3000000);
	KUNIT_EXPECT_EQ(test, r.wait_ns, 10000000);
	/* short waits: never below a timeout */
	KUNIT_EXPECT_EQ(test, uet_rccc_ask_ns(&r, 30000000, 200000000),
			30000000);
	/* long ones: at most rto-max, before the doubling */
	KUNIT_EXPECT_EQ(test, uet_rccc_ask_ns(&r, 1000000, 5000000), 5000000);
	r.repeats = 2;
	KUNIT_EXPECT_EQ(test, uet_rccc_ask_ns(&r, 1000000, 5000000), 20000000);
	/* a wait beyond 4 s counts as 4.29 s */
	uet_rccc_tx_init(&r, 1000);
	uet_rccc_on_wait_end(&r, 10000000000ULL);
	KUNIT_EXPECT_EQ(test, r.wait_ns, U32_MAX);
}

static struct kunit_case uet_nscc_test_cases[] = {
	KUNIT_CASE(uet_nscc_test_defaults_100g),
	KUNIT_CASE(uet_nscc_test_defaults_vm),
	KUNIT_CASE(uet_nscc_test_params_valid),
	KUNIT_CASE(uet_nscc_test_init),
	KUNIT_CASE(uet_nscc_test_proportional),
	KUNIT_CASE(uet_nscc_test_fair),
	KUNIT_CASE(uet_nscc_test_hold),
	KUNIT_CASE(uet_nscc_test_md),
	KUNIT_CASE(uet_nscc_test_fair_converges),
	KUNIT_CASE(uet_nscc_test_fast),
	KUNIT_CASE(uet_nscc_test_base_rtt),
	KUNIT_CASE(uet_nscc_test_inflight_reorder),
	KUNIT_CASE(uet_nscc_test_rcvd_rebase),
	KUNIT_CASE(uet_nscc_test_can_send),
	KUNIT_CASE(uet_nscc_test_trim),
	KUNIT_CASE(uet_nscc_test_quick_adapt),
	KUNIT_CASE(uet_nscc_test_quick_adapt_burst),
	KUNIT_CASE(uet_nscc_test_quick_adapt_app_limited),
	KUNIT_CASE(uet_nscc_test_quick_adapt_slow_path),
	KUNIT_CASE(uet_nscc_test_timeout),
	KUNIT_CASE(uet_nscc_test_bounds),
	KUNIT_CASE(uet_nscc_test_small_bdp),
	KUNIT_CASE(uet_rccc_test_init_credit),
	KUNIT_CASE(uet_rccc_test_tokens),
	KUNIT_CASE(uet_rccc_test_unseen),
	KUNIT_CASE(uet_rccc_test_bound),
	KUNIT_CASE(uet_rccc_test_cap),
	KUNIT_CASE(uet_rccc_test_credit),
	KUNIT_CASE(uet_rccc_test_ask),
	{}
};

static struct kunit_suite uet_nscc_test_suite = {
	.name = "uet_nscc",
	.test_cases = uet_nscc_test_cases,
};

kunit_test_suite(uet_nscc_test_suite);
