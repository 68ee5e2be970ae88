// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the datapath's pure logic.  PSN order and windows across the
 * 2^32 wrap, the receiver's window bitmap and the SACK bitmap it sends,
 * ACK headers written and read back, the RTT estimator's timeout bounds
 * and backoff, the base RTT, the early-detection deadline and each
 * transmission's own timeout, data packets built by the sender and
 * parsed by the receiver, and short messages' pieces of a shared page.
 */
#include <kunit/test.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/udp.h>
#include <linux/uio.h>
#include <net/inet_ecn.h>
#include <uet/msg.h>
#include <uet/pdc.h>
#include <uet/stats.h>
#include <uet/wire.h>

#define T_PSN_WRAP	0xfffffff0U
#define T_MSG_LEN	10000
/* Packets in flight in the early-detection cases: past UET_ACK_EVERY. */
#define T_ED_SENT	(UET_ACK_EVERY + 12)
#define T_JOB		0x123456
#define T_LID		0x1111
#define T_RID		0x2222

/* An initiator PDC with a ring, freed with the case. */
static struct uet_pdc *uet_dp_test_pdc(struct kunit *test)
{
	struct uet_pdc *pdc = kunit_kzalloc(test, sizeof(*pdc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pdc);
	pdc->tx.ring = kunit_kcalloc(test, UET_PSN_WINDOW,
				     sizeof(*pdc->tx.ring), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pdc->tx.ring);
	pdc->lid = T_LID;
	pdc->rid = T_RID;
	pdc->tx.min_rtt_ns = U64_MAX;
	pdc->rto_min_us = 10;
	pdc->rto_max_us = 1000;
	return pdc;
}

static void uet_dp_test_psn_order(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, uet_psn_before(1, 2));
	KUNIT_EXPECT_FALSE(test, uet_psn_before(2, 1));
	KUNIT_EXPECT_FALSE(test, uet_psn_before(5, 5));
	/* Across the wrap, 0 comes after 2^32 - 1. */
	KUNIT_EXPECT_TRUE(test, uet_psn_before(U32_MAX, 0));
	KUNIT_EXPECT_TRUE(test, uet_psn_before(T_PSN_WRAP, 0x10));
	KUNIT_EXPECT_FALSE(test, uet_psn_before(0x10, T_PSN_WRAP));
	/* Half the space away is the limit. */
	KUNIT_EXPECT_TRUE(test, uet_psn_before(0, 0x7fffffff));
	KUNIT_EXPECT_FALSE(test, uet_psn_before(0, 0x80000001));
}

static void uet_dp_test_in_flight(struct kunit *test)
{
	struct uet_pdc_tx tx = {
		.snd_una = T_PSN_WRAP,
		.snd_nxt = T_PSN_WRAP + 0x20,
	};

	KUNIT_EXPECT_TRUE(test, uet_tx_in_flight(&tx, T_PSN_WRAP));
	KUNIT_EXPECT_TRUE(test, uet_tx_in_flight(&tx, U32_MAX));
	KUNIT_EXPECT_TRUE(test, uet_tx_in_flight(&tx, 0));
	KUNIT_EXPECT_TRUE(test, uet_tx_in_flight(&tx, T_PSN_WRAP + 0x1f));
	KUNIT_EXPECT_FALSE(test, uet_tx_in_flight(&tx, T_PSN_WRAP + 0x20));
	KUNIT_EXPECT_FALSE(test, uet_tx_in_flight(&tx, T_PSN_WRAP - 1));
	/* Nothing in flight: no PSN is. */
	tx.snd_nxt = tx.snd_una;
	KUNIT_EXPECT_FALSE(test, uet_tx_in_flight(&tx, T_PSN_WRAP));
}

/* The receiver's window: in order, out of order, across the wrap. */
static void uet_dp_test_rx_window(struct kunit *test)
{
	struct uet_pdc_rx *rx = kunit_kzalloc(test, sizeof(*rx), GFP_KERNEL);
	u32 base = T_PSN_WRAP - 3, end = base + UET_PSN_WINDOW + 10, i;

	KUNIT_ASSERT_NOT_NULL(test, rx);
	rx->epsn = base;
	KUNIT_EXPECT_EQ(test, uet_rx_sack_bits(rx), 0ULL);

	/* A gap at epsn: nothing moves, the SACK bits say what came. */
	uet_rx_mark(rx, base + 2);
	uet_rx_mark(rx, base + 5);
	uet_rx_mark(rx, base + 63);
	KUNIT_EXPECT_EQ(test, rx->epsn, base);
	KUNIT_EXPECT_FALSE(test, rx->took);
	KUNIT_EXPECT_TRUE(test, uet_rx_test(rx, base + 5));
	KUNIT_EXPECT_FALSE(test, uet_rx_test(rx, base + 4));
	KUNIT_EXPECT_EQ(test, uet_rx_sack_bits(rx),
			BIT_ULL(2) | BIT_ULL(5) | BIT_ULL(63));

	/* The gap filled: epsn moves past every PSN received in a row. */
	uet_rx_mark(rx, base);
	KUNIT_EXPECT_EQ(test, rx->epsn, base + 1);
	KUNIT_EXPECT_TRUE(test, rx->took);
	uet_rx_mark(rx, base + 1);
	KUNIT_EXPECT_EQ(test, rx->epsn, base + 3);
	KUNIT_EXPECT_EQ(test, uet_rx_sack_bits(rx), BIT_ULL(2) | BIT_ULL(60));
	/* bits of PSNs passed are cleared for the next lap of the ring */
	KUNIT_EXPECT_FALSE(test, uet_rx_test(rx, base + UET_PSN_WINDOW));

	/*
	 * Fill the rest in order, across the 2^32 wrap and the ring: each
	 * PSN expected is new, and those received before are skipped over.
	 */
	for (i = 0; i < 2 * UET_PSN_WINDOW && rx->epsn != end; i++)
		uet_rx_mark(rx, rx->epsn);
	KUNIT_EXPECT_EQ(test, rx->epsn, end);
	KUNIT_EXPECT_EQ(test, i, end - (base + 3) - 2);
	KUNIT_EXPECT_EQ(test, uet_rx_sack_bits(rx), 0ULL);
	for (i = 0; i < UET_PSN_WINDOW / 64; i++)
		KUNIT_EXPECT_EQ(test, rx->bitmap[i], 0ULL);
}

/* SACK bits across the words of the bitmap (epsn not on a word edge). */
static void uet_dp_test_sack_bits_words(struct kunit *test)
{
	struct uet_pdc_rx *rx = kunit_kzalloc(test, sizeof(*rx), GFP_KERNEL);
	u32 base = 3 * 64 + 40, i;

	KUNIT_ASSERT_NOT_NULL(test, rx);
	rx->epsn = base;
	/* bits 1..63 of the SACK span the last word and the first again */
	for (i = 1; i < 64; i += 2)
		uet_rx_mark(rx, base + i);
	KUNIT_EXPECT_EQ(test, uet_rx_sack_bits(rx), 0xaaaaaaaaaaaaaaaaULL);
	/* PSNs past 64 are in the window but not in the SACK */
	uet_rx_mark(rx, base + 100);
	KUNIT_EXPECT_EQ(test, uet_rx_sack_bits(rx), 0xaaaaaaaaaaaaaaaaULL);
	KUNIT_EXPECT_TRUE(test, uet_rx_test(rx, base + 100));
}

/* The receiver's SACK, written and read back: the same PSNs received. */
static void uet_dp_test_ack_roundtrip(struct kunit *test)
{
	struct uet_pdc_rx *rx = kunit_kzalloc(test, sizeof(*rx), GFP_KERNEL);
	struct uet_ack_info a = {}, b;
	u8 buf[sizeof(struct uet_pds_ack_cc)];
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, rx);
	rx->epsn = U32_MAX - 1;
	uet_rx_mark(rx, U32_MAX - 1);
	uet_rx_mark(rx, 2);
	uet_rx_mark(rx, 40);

	a.bitmap = uet_rx_sack_bits(rx);
	a.cack = rx->epsn - 1;
	a.sack_base = rx->epsn;
	a.trigger = 40;
	a.spdcid = T_LID;
	a.dpdcid = T_RID;
	a.flags = UET_ACK_M | UET_ACK_RETX;
	a.cc = true;
	memset(buf, 0xee, sizeof(buf));
	uet_ack_write(buf, &a);
	KUNIT_ASSERT_EQ(test, uet_ack_read(buf, sizeof(buf), &b), 0);
	KUNIT_EXPECT_TRUE(test, b.cc);
	KUNIT_EXPECT_EQ(test, b.cack, U32_MAX - 1);
	KUNIT_EXPECT_EQ(test, b.trigger, 40U);
	KUNIT_EXPECT_EQ(test, b.spdcid, T_LID);
	KUNIT_EXPECT_EQ(test, b.dpdcid, T_RID);
	KUNIT_EXPECT_EQ(test, b.flags, UET_ACK_M | UET_ACK_RETX);
	KUNIT_EXPECT_EQ(test, b.cc_state, 0ULL);
	KUNIT_EXPECT_EQ(test, uet_prologue_type(*(__be16 *)buf), UET_PDS_ACK_CC);
	/* bit i of what the sender reads is PSN sack_base + i */
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, !!(b.bitmap & BIT_ULL(i)),
				uet_rx_test(rx, b.sack_base + i));
	KUNIT_EXPECT_EQ(test, b.bitmap, BIT_ULL(3) | BIT_ULL(41));

	/* cut short, or another type: refused */
	KUNIT_EXPECT_EQ(test, uet_ack_read(buf, sizeof(buf) - 1, &b), -EINVAL);
	KUNIT_EXPECT_EQ(test, uet_ack_read(buf, 11, &b), -EINVAL);
	*(__be16 *)buf = uet_prologue(UET_PDS_NACK, 0, 0);
	KUNIT_EXPECT_EQ(test, uet_ack_read(buf, sizeof(buf), &b), -EINVAL);
}

static void uet_dp_test_ack_plain_and_probe(struct kunit *test)
{
	struct uet_ack_info a = { .cack = 1000, .trigger = 1000 - 5,
				  .spdcid = 7, .dpdcid = 9 };
	u8 buf[sizeof(struct uet_pds_ack_cc)];
	struct uet_ack_info b;

	/* a plain ACK is 12 bytes, enough to read */
	uet_ack_write(buf, &a);
	KUNIT_ASSERT_EQ(test, uet_ack_read(buf, sizeof(struct uet_pds_ack), &b),
			0);
	KUNIT_EXPECT_FALSE(test, b.cc);
	KUNIT_EXPECT_EQ(test, b.trigger, 995U);
	KUNIT_EXPECT_EQ(test, b.cack, 1000U);

	/* a trigger beyond a 16-bit offset is sent as the cumulative PSN */
	a.trigger = a.cack + 0x10000;
	uet_ack_write(buf, &a);
	KUNIT_ASSERT_EQ(test, uet_ack_read(buf, sizeof(buf), &b), 0);
	KUNIT_EXPECT_EQ(test, b.trigger, a.cack);

	/* a probe answer: opaque value and service time come back */
	memset(&a, 0, sizeof(a));
	a.flags = UET_ACK_P;
	a.opaque = 0xbeef;
	a.cack = 77;
	a.cc = true;
	a.sack_base = 78;
	a.cc_state = FIELD_PREP(UET_NSCC_SERVICE_TIME, 964);
	uet_ack_write(buf, &a);
	KUNIT_ASSERT_EQ(test, uet_ack_read(buf, sizeof(buf), &b), 0);
	KUNIT_EXPECT_EQ(test, b.flags, UET_ACK_P);
	KUNIT_EXPECT_EQ(test, b.opaque, 0xbeef);
	KUNIT_EXPECT_EQ(test, b.cc_type, UET_ACK_CC_NSCC);
	KUNIT_EXPECT_EQ(test, FIELD_GET(UET_NSCC_SERVICE_TIME, b.cc_state),
			964ULL);
	KUNIT_EXPECT_EQ(test, b.bitmap, 0ULL);
}

/*
 * ACK_CC with NSCC's CC state: cc_type in bits 7..4 of byte 12, and
 * Rcvd_Bytes in bits 39..16 of the state, which NSCC reads back as bytes.
 */
static void uet_dp_test_ack_nscc(struct kunit *test)
{
	struct uet_ack_info a = { .cack = 500, .trigger = 500, .cc = true,
				  .sack_base = 501,
				  .cc_type = UET_ACK_CC_NSCC };
	const struct uet_pds_ack_cc *acc;
	u8 buf[sizeof(struct uet_pds_ack_cc)];
	struct uet_nscc_params p;
	struct uet_ack_info b;
	struct uet_nscc n;

	a.cc_state = FIELD_PREP(UET_NSCC_RCVD_BYTES, 0xabcdef) |
		     FIELD_PREP(UET_NSCC_SERVICE_TIME, 3);
	uet_ack_write(buf, &a);
	acc = (const struct uet_pds_ack_cc *)buf;
	/* NSCC is cc_type 0 */
	KUNIT_EXPECT_EQ(test, acc->cc_type_flags, 0x00);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(acc->cc_state),
			0x000300abcdef0000ULL);
	KUNIT_ASSERT_EQ(test, uet_ack_read(buf, sizeof(buf), &b), 0);
	KUNIT_EXPECT_EQ(test, b.cc_type, UET_ACK_CC_NSCC);
	KUNIT_EXPECT_EQ(test, FIELD_GET(UET_NSCC_RCVD_BYTES, b.cc_state),
			0xabcdefULL);

	/* 256-byte units, as NSCC's counter takes them */
	uet_nscc_params_init(&p, 50, 2000000, uet_cc_wire_bytes(1024), true);
	uet_nscc_init(&n, &p, 1);
	KUNIT_EXPECT_EQ(test, uet_nscc_rcvd_bytes(&n, 4, 0), 1024U);
	KUNIT_EXPECT_EQ(test, uet_cc_wire_bytes(1024), 1024U + 56 + 8 + 40);

	/* a credit (RCCC) ACK_CC is cc_type 1, in bits 7..4 */
	a.cc_type = UET_ACK_CC_CREDIT;
	uet_ack_write(buf, &a);
	KUNIT_EXPECT_EQ(test, acc->cc_type_flags, 0x10);
	KUNIT_ASSERT_EQ(test, uet_ack_read(buf, sizeof(buf), &b), 0);
	KUNIT_EXPECT_EQ(test, b.cc_type, UET_ACK_CC_CREDIT);
}

/*
 * RFC 6298 with floors at 5/4 of the recent maximum and of a spurious
 * timeout's RTT, bounds, backoff.
 */
static void uet_dp_test_rtt_rto(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);
	struct uet_pdc_tx *tx = &pdc->tx;

	uet_tx_rtt(pdc, 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, tx->srtt_us, 100U);
	KUNIT_EXPECT_EQ(test, tx->rttvar_us, 50U);
	KUNIT_EXPECT_EQ(test, tx->rto_us, 300U);
	uet_tx_rtt(pdc, 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, tx->rttvar_us, 37U);
	KUNIT_EXPECT_EQ(test, tx->rto_us, 248U);

	/* a slow path's sample lifts the floor at once; it decays slowly */
	uet_tx_rtt(pdc, 600 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, tx->rtt_max_us, 600U);
	KUNIT_EXPECT_EQ(test, tx->rto_us, 770U);
	uet_tx_rtt(pdc, 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, tx->rtt_max_us, 600U - 500U / 64);
	KUNIT_EXPECT_GE(test, tx->rto_us, 5 * tx->rtt_max_us / 4);
	KUNIT_EXPECT_EQ(test, tx->min_rtt_ns, 100 * NSEC_PER_USEC);

	/* a spurious timeout's RTT is a floor too, decaying more slowly */
	tx->late_rtt_us = 700;
	uet_tx_rtt(pdc, 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, tx->late_rtt_us, 699U);
	KUNIT_EXPECT_EQ(test, tx->rto_us, 699U + 699U / 4);
	tx->late_rtt_us = 0;

	/* backoff doubles up to rto-max; a sample ends it */
	tx->rto_us = 300;
	uet_tx_backoff(pdc);
	KUNIT_EXPECT_EQ(test, tx->rto_us, 600U);
	uet_tx_backoff(pdc);
	KUNIT_EXPECT_EQ(test, tx->rto_us, 1000U);
	uet_tx_backoff(pdc);
	KUNIT_EXPECT_EQ(test, tx->rto_us, 1000U);
	uet_tx_rtt(pdc, 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, tx->rto_us, uet_tx_rto_base(pdc));
	KUNIT_EXPECT_LT(test, tx->rto_us, 1000U);
}

static void uet_dp_test_rto_bounds(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);

	/* tiny RTTs: rto-min */
	pdc->rto_min_us = 500;
	uet_tx_rtt(pdc, 1000);
	KUNIT_EXPECT_EQ(test, pdc->tx.rto_us, 500U);
	/* huge RTTs: rto-max, and no overflow */
	uet_tx_rtt(pdc, 100ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, pdc->tx.rto_us, 1000U);
	KUNIT_EXPECT_EQ(test, uet_tx_rto_base(pdc), 1000U);
	/* a sample below 1 us counts as 1 us */
	pdc = uet_dp_test_pdc(test);
	uet_tx_rtt(pdc, 10);
	KUNIT_EXPECT_EQ(test, pdc->tx.srtt_us, 1U);
	KUNIT_EXPECT_EQ(test, pdc->tx.min_rtt_ns, 10ULL);
}

/* Configured base RTT until a sample; then the lowest measured. */
static void uet_dp_test_base_rtt(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);

	pdc->base_rtt_ns = 6000;
	KUNIT_EXPECT_EQ(test, uet_tx_base_rtt_ns(pdc), 6000ULL);
	/* a VM's RTT far above the configured one replaces it */
	uet_tx_rtt(pdc, 300 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, uet_tx_base_rtt_ns(pdc), 300 * NSEC_PER_USEC);
	uet_tx_rtt(pdc, 900 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, uet_tx_base_rtt_ns(pdc), 300 * NSEC_PER_USEC);
	uet_tx_rtt(pdc, 200 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, uet_tx_base_rtt_ns(pdc), 200 * NSEC_PER_USEC);
}

/*
 * The early-detection deadline runs from the packet that at the latest
 * draws the ACK covering a PSN: UET_ACK_EVERY - 1 PSNs on, or the last
 * one sent, and ack-delay later when that one asked for no ACK.
 */
static void uet_dp_test_ed_deadline(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 start = T_PSN_WRAP, n = T_ED_SENT, i;
	u64 ed = 1000;

	tx->snd_una = start;
	tx->snd_nxt = start + n;
	for (i = 0; i < n; i++)
		tx->ring[(start + i) % UET_PSN_WINDOW].sent_ns = 10000 + 100 * i;

	KUNIT_EXPECT_EQ(test, uet_tx_ed_at(pdc, start, ed),
			10000ULL + 100 * (UET_ACK_EVERY - 1) + ed);
	KUNIT_EXPECT_EQ(test, uet_tx_ed_at(pdc, start + 5, ed),
			10000ULL + 100 * (5 + UET_ACK_EVERY - 1) + ed);
	/* near the end: the last packet sent, which asks for an ACK */
	KUNIT_EXPECT_EQ(test, uet_tx_ed_at(pdc, start + n - 2, ed),
			10000ULL + 100 * (n - 1) + ed);
	KUNIT_EXPECT_EQ(test, uet_tx_ed_at(pdc, start + n - 1, ed),
			10000ULL + 100 * (n - 1) + ed);
	/* a retransmission after the later packet: its own send time */
	tx->ring[(start + 1) % UET_PSN_WINDOW].sent_ns = 50000;
	KUNIT_EXPECT_EQ(test, uet_tx_ed_at(pdc, start + 1, ed), 50000ULL + ed);
	/* the last packet asked for no ACK: the target may hold it */
	pdc->ack_delay_ns = 3000;
	tx->ring[(start + n - 1) % UET_PSN_WINDOW].flags = UET_SLOT_HELD;
	KUNIT_EXPECT_EQ(test, uet_tx_ed_at(pdc, start + n - 2, ed),
			10000ULL + 100 * (n - 1) + ed + 3000);
	KUNIT_EXPECT_EQ(test, uet_tx_ed_at(pdc, start + 5, ed),
			10000ULL + 100 * (5 + UET_ACK_EVERY - 1) + ed);
}

/*
 * Early detection reports each transmission once its uet_tx_ed_at()
 * deadline passed, in PSN order; a PSN resent gets a deadline of its own.
 */
static void uet_dp_test_ed_due(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);
	struct uet_tx_msg *m = (struct uet_tx_msg *)test;
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 start = T_PSN_WRAP, i, p;
	u64 ed = 1000, at0, at3;

	tx->snd_una = start;
	tx->snd_nxt = start + T_ED_SENT;
	tx->ed_psn = start;
	for (i = 0; i < T_ED_SENT; i++) {
		struct uet_tx_slot *s = &tx->ring[(start + i) % UET_PSN_WINDOW];

		s->msg = m;
		s->sent_ns = 10000 + 100 * i;
	}
	/* out for @ed, but its ACK may wait for a later packet: not due */
	at0 = uet_tx_ed_at(pdc, start, ed);
	KUNIT_EXPECT_FALSE(test, uet_tx_ed_due(pdc, 10000 + ed + 1, ed, &p));
	KUNIT_EXPECT_FALSE(test, uet_tx_ed_due(pdc, at0 - 1, ed, &p));
	KUNIT_EXPECT_EQ(test, tx->ed_psn, start);
	/* at the deadline: the first, once; the second not yet */
	KUNIT_ASSERT_TRUE(test, uet_tx_ed_due(pdc, at0, ed, &p));
	KUNIT_EXPECT_EQ(test, p, start);
	tx->ring[p % UET_PSN_WINDOW].flags |= UET_SLOT_ED;
	KUNIT_EXPECT_FALSE(test, uet_tx_ed_due(pdc, at0, ed, &p));
	KUNIT_EXPECT_EQ(test, tx->ed_psn, start + 1);
	/* at 3's deadline: 1 and 3, acknowledged 2 passed over */
	at3 = uet_tx_ed_at(pdc, start + 3, ed);
	tx->ring[(start + 2) % UET_PSN_WINDOW].msg = NULL;
	KUNIT_ASSERT_TRUE(test, uet_tx_ed_due(pdc, at3, ed, &p));
	KUNIT_EXPECT_EQ(test, p, start + 1);
	tx->ring[p % UET_PSN_WINDOW].flags |= UET_SLOT_ED;
	KUNIT_ASSERT_TRUE(test, uet_tx_ed_due(pdc, at3, ed, &p));
	KUNIT_EXPECT_EQ(test, p, start + 3);
	tx->ring[p % UET_PSN_WINDOW].flags |= UET_SLOT_ED;
	KUNIT_EXPECT_FALSE(test, uet_tx_ed_due(pdc, at3, ed, &p));
	KUNIT_EXPECT_EQ(test, tx->ed_psn, start + 4);
	/* 1 resent at 40000: the cursor goes back, 1 due again at its time */
	uet_tx_ed_renew(pdc, start + 1);
	tx->ring[(start + 1) % UET_PSN_WINDOW].sent_ns = 40000;
	KUNIT_EXPECT_EQ(test, tx->ed_psn, start + 1);
	KUNIT_EXPECT_FALSE(test, tx->ring[(start + 1) % UET_PSN_WINDOW].flags &
				 UET_SLOT_ED);
	KUNIT_EXPECT_FALSE(test, uet_tx_ed_due(pdc, 40000 + ed - 1, ed, &p));
	KUNIT_ASSERT_TRUE(test, uet_tx_ed_due(pdc, 40000 + ed, ed, &p));
	KUNIT_EXPECT_EQ(test, p, start + 1);
	tx->ring[p % UET_PSN_WINDOW].flags |= UET_SLOT_ED;
	/* then on past the reported ones to 4 */
	KUNIT_ASSERT_TRUE(test, uet_tx_ed_due(pdc, 40000 + ed, ed, &p));
	KUNIT_EXPECT_EQ(test, p, start + 4);
	/* a PSN ahead of the cursor resent: the cursor stays */
	uet_tx_ed_renew(pdc, start + 10);
	KUNIT_EXPECT_EQ(test, tx->ed_psn, start + 4);
}

/*
 * Each transmission times out on its own once out for the timeout and
 * overtaken by an acknowledged later packet; the cursor passes every PSN
 * about once and stops at the first transmission in order not yet due.
 */
static void uet_dp_test_own_timeout(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);
	struct uet_tx_msg *m = (struct uet_tx_msg *)test;
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 start = T_PSN_WRAP, i, p;
	u64 rto = 1000;

	tx->snd_una = start;
	tx->snd_nxt = start + 10;
	tx->to_psn = start;
	tx->high_acked = start - 1;
	for (i = 0; i < 10; i++) {
		struct uet_tx_slot *s = &tx->ring[(start + i) % UET_PSN_WINDOW];

		s->msg = m;
		s->sent_ns = 10000 + 100 * i;
		s->horizon = start + i + 1;
	}
	/* not yet out for the timeout: wait for the first one */
	KUNIT_EXPECT_FALSE(test, uet_tx_to_due(pdc, 10500, rto, &p));
	KUNIT_EXPECT_EQ(test, uet_tx_to_next(pdc, 10500, rto), 11000ULL);
	/* out for it, but nothing later acknowledged: a stall, not a path */
	KUNIT_EXPECT_FALSE(test, uet_tx_to_due(pdc, 20000, rto, &p));
	KUNIT_EXPECT_EQ(test, uet_tx_to_next(pdc, 20000, rto), U64_MAX);
	/* PSNs 3 and 4 SACKed: 0..2 due, each once */
	tx->ring[(start + 3) % UET_PSN_WINDOW].msg = NULL;
	tx->ring[(start + 4) % UET_PSN_WINDOW].msg = NULL;
	tx->high_acked = start + 4;
	KUNIT_EXPECT_EQ(test, uet_tx_to_next(pdc, 20000, rto), 20000ULL);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE(test, uet_tx_to_due(pdc, 20000, rto, &p));
		KUNIT_EXPECT_EQ(test, p, start + i);
		tx->ring[p % UET_PSN_WINDOW].flags |= UET_SLOT_TO;
	}
	/* 5 due by time, not overtaken: the cursor waits there */
	KUNIT_EXPECT_FALSE(test, uet_tx_to_due(pdc, 20000, rto, &p));
	KUNIT_EXPECT_EQ(test, tx->to_psn, start + 5);
	KUNIT_EXPECT_EQ(test, uet_tx_to_next(pdc, 20000, rto), U64_MAX);
	/* 5 resent out of order, not due: passed over; 6 waits */
	tx->ring[(start + 5) % UET_PSN_WINDOW].sent_ns = 19900;
	tx->ring[(start + 5) % UET_PSN_WINDOW].horizon = start + 10;
	tx->high_acked = start + 6;
	tx->ring[(start + 6) % UET_PSN_WINDOW].msg = NULL;
	KUNIT_EXPECT_EQ(test, uet_tx_to_next(pdc, 20000, rto), 20000ULL);
	KUNIT_EXPECT_FALSE(test, uet_tx_to_due(pdc, 20000, rto, &p));
	KUNIT_EXPECT_EQ(test, tx->to_psn, start + 7);
	/* beyond the receiver's SACK bitmap: silence says nothing */
	tx->snd_una = start + 7 - 64;
	tx->high_acked = start + 9;
	KUNIT_EXPECT_FALSE(test, uet_tx_to_due(pdc, 20000, rto, &p));
	KUNIT_EXPECT_EQ(test, tx->to_psn, start + 7);
	KUNIT_EXPECT_EQ(test, uet_tx_to_next(pdc, 20000, rto), U64_MAX);
	/* the cursor behind the cumulative ACK jumps to it */
	tx->snd_una = start + 8;
	tx->high_acked = start + 9;
	tx->ring[(start + 9) % UET_PSN_WINDOW].msg = NULL;
	KUNIT_ASSERT_TRUE(test, uet_tx_to_due(pdc, 20000, rto, &p));
	KUNIT_EXPECT_EQ(test, p, start + 8);
	tx->ring[p % UET_PSN_WINDOW].flags |= UET_SLOT_TO;
	KUNIT_EXPECT_FALSE(test, uet_tx_to_due(pdc, 20000, rto, &p));
	KUNIT_EXPECT_EQ(test, tx->to_psn, tx->snd_nxt);
	KUNIT_EXPECT_EQ(test, uet_tx_to_next(pdc, 20000, rto), U64_MAX);
}

/* A run over a 32nd of a timeout late waits as long again, up to one. */
static void uet_dp_test_late_wait(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, uet_tx_late_wait(0, 8000000), 0ULL);
	KUNIT_EXPECT_EQ(test, uet_tx_late_wait(250000, 8000000), 0ULL);
	KUNIT_EXPECT_EQ(test, uet_tx_late_wait(250001, 8000000), 250001ULL);
	KUNIT_EXPECT_EQ(test, uet_tx_late_wait(5000000, 8000000), 5000000ULL);
	KUNIT_EXPECT_EQ(test, uet_tx_late_wait(30000000, 8000000), 8000000ULL);
}

/* A message's packets built by the sender, parsed by the receiver. */
static void uet_dp_test_data_roundtrip(struct kunit *test)
{
	static const u32 offs[] = { 0, 4000, 8000 };
	struct uet_pdc *pdc = uet_dp_test_pdc(test);
	struct uet_tx_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	u8 *pay = kunit_kmalloc(test, T_MSG_LEN, GFP_KERNEL);
	u8 *got = kunit_kmalloc(test, T_MSG_LEN, GFP_KERNEL);
	struct uet_tx_slot s = {};
	struct uet_rx_pkt pk;
	unsigned int i;
	u32 psn;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL(test, pay);
	KUNIT_ASSERT_NOT_NULL(test, got);
	m->buf = uet_buf_alloc(T_MSG_LEN, NULL, NULL, NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->buf);
	for (i = 0; i < T_MSG_LEN; i++)
		pay[i] = i * 7 + 3;
	for (i = 0; i < m->buf->npages; i++)
		memcpy(page_address(m->buf->pages[i]), pay + i * PAGE_SIZE,
		       min_t(u32, PAGE_SIZE, T_MSG_LEN - i * PAGE_SIZE));
	m->job = T_JOB;
	m->msg_id = 0x4242;
	m->src_ep = 17;
	m->dst_ep = 4000;
	pdc->tx.start_psn = T_PSN_WRAP;
	pdc->tx.syn = true;

	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		struct sk_buff *skb;

		s.msg = m;
		s.off = offs[i];
		s.len = min_t(u32, 4000, T_MSG_LEN - offs[i]);
		psn = T_PSN_WRAP + 3 * i;
		/* the last packet goes after the target answered: no SYN */
		pdc->tx.syn = i < 2;
		skb = uet_tx_build(pdc, psn, &s, i ? UET_REQ_AR : 0, NULL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		KUNIT_EXPECT_EQ(test, skb->len, UET_DATA_HDR_LEN + s.len);
		KUNIT_ASSERT_EQ(test, uet_rx_parse_data(skb, &pk), 0);
		KUNIT_EXPECT_EQ(test, pk.psn, psn);
		KUNIT_EXPECT_EQ(test, pk.job, T_JOB);
		KUNIT_EXPECT_EQ(test, pk.msg_len, T_MSG_LEN);
		KUNIT_EXPECT_EQ(test, pk.off, offs[i]);
		KUNIT_EXPECT_EQ(test, pk.len, (u32)s.len);
		KUNIT_EXPECT_EQ(test, pk.spdcid, T_LID);
		KUNIT_EXPECT_EQ(test, pk.msg_id, 0x4242);
		KUNIT_EXPECT_EQ(test, pk.dst_ep, 4000);
		KUNIT_EXPECT_EQ(test, pk.src_ep, 17);
		if (i < 2) {
			/* SYN: the PSN's offset from the start, not an id */
			KUNIT_EXPECT_TRUE(test, pk.flags & UET_REQ_SYN);
			KUNIT_EXPECT_EQ(test, pk.psn -
					FIELD_GET(UET_SYN_PSN_OFFSET, pk.dpdcid),
					T_PSN_WRAP);
		} else {
			KUNIT_EXPECT_FALSE(test, pk.flags & UET_REQ_SYN);
			KUNIT_EXPECT_EQ(test, pk.dpdcid, T_RID);
		}
		KUNIT_EXPECT_EQ(test, !!(pk.flags & UET_REQ_AR), i > 0);
		/* headers linear, payload in the message's pages */
		KUNIT_EXPECT_EQ(test, skb_headlen(skb), UET_DATA_HDR_LEN);
		KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags,
				uet_buf_frags(offs[i], s.len));
		KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, UET_DATA_HDR_LEN, got,
						    s.len), 0);
		KUNIT_EXPECT_EQ(test, memcmp(got, pay + offs[i], s.len), 0);
		kfree_skb(skb);
	}
	uet_buf_free(m->buf, NULL, 0);
}

/* Damaged data packets: the receiver names the reason. */
static void uet_dp_test_data_malformed(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);
	struct uet_tx_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct uet_tx_slot s = { .off = 4000, .len = 1000 };
	struct uet_ses_std *ses;
	struct uet_rx_pkt pk;
	struct sk_buff *skb;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->buf = uet_buf_alloc(T_MSG_LEN, NULL, NULL, NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->buf);
	s.msg = m;

	/* the payload length in the header must match the packet's */
	skb = uet_tx_build(pdc, 1, &s, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, pskb_trim(skb, skb->len - 1), 0);
	KUNIT_EXPECT_EQ(test, uet_rx_parse_data(skb, &pk),
			UET_STAT_DROP_MALFORMED);
	kfree_skb(skb);

	/* shorter than the headers */
	skb = uet_tx_build(pdc, 1, &s, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, pskb_trim(skb, UET_DATA_HDR_LEN - 1), 0);
	KUNIT_EXPECT_EQ(test, uet_rx_parse_data(skb, &pk),
			UET_STAT_DROP_MALFORMED);
	kfree_skb(skb);

	/* an opcode other than SEND */
	skb = uet_tx_build(pdc, 1, &s, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	ses = (struct uet_ses_std *)(skb->data + sizeof(struct uet_pds_req));
	ses->opcode = 0x3f;
	KUNIT_EXPECT_EQ(test, uet_rx_parse_data(skb, &pk),
			UET_STAT_DROP_UNKNOWN_TYPE);
	kfree_skb(skb);

	/* EOM on a packet that does not end the message */
	skb = uet_tx_build(pdc, 1, &s, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	ses = (struct uet_ses_std *)(skb->data + sizeof(struct uet_pds_req));
	ses->ver_flags |= UET_SES_EOM;
	KUNIT_EXPECT_EQ(test, uet_rx_parse_data(skb, &pk),
			UET_STAT_DROP_MALFORMED);
	kfree_skb(skb);

	/* a refused message's PSN goes as a CTRL NOP */
	s.flags = UET_SLOT_NOP;
	skb = uet_tx_build(pdc, 1, &s, UET_REQ_RETX, NULL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, sizeof(struct uet_pds_ctrl));
	KUNIT_EXPECT_EQ(test, uet_prologue_type(*(__be16 *)skb->data),
			UET_PDS_CTRL);
	KUNIT_EXPECT_EQ(test, uet_prologue_next(*(__be16 *)skb->data),
			UET_CTRL_NOP);
	kfree_skb(skb);
	uet_buf_free(m->buf, NULL, 0);
}

/* The page fragments a range of a message takes. */
static void uet_dp_test_buf_frags(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, uet_buf_frags(0, 0), 0U);
	KUNIT_EXPECT_EQ(test, uet_buf_frags(100, 0), 0U);
	KUNIT_EXPECT_EQ(test, uet_buf_frags(0, 1), 1U);
	KUNIT_EXPECT_EQ(test, uet_buf_frags(0, PAGE_SIZE), 1U);
	KUNIT_EXPECT_EQ(test, uet_buf_frags(0, PAGE_SIZE + 1), 2U);
	KUNIT_EXPECT_EQ(test, uet_buf_frags(PAGE_SIZE - 1, 2), 2U);
	KUNIT_EXPECT_EQ(test, uet_buf_frags(PAGE_SIZE, PAGE_SIZE), 1U);
	KUNIT_EXPECT_EQ(test, uet_buf_frags(1, 3 * PAGE_SIZE), 4U);
	KUNIT_EXPECT_EQ(test, uet_buf_frags(PAGE_SIZE / 2, UET_SES_PAYLOAD_MAX),
			DIV_ROUND_UP(PAGE_SIZE / 2 + UET_SES_PAYLOAD_MAX,
				     PAGE_SIZE));
}

/*
 * A packet straddling two pages takes two fragments and a reference on
 * each: its bytes outlive the message, and freeing it gives them back.
 */
static void uet_dp_test_frags_outlive(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);
	struct uet_tx_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct uet_tx_slot s = { .off = PAGE_SIZE - 100, .len = 1000 };
	u8 *got = kunit_kmalloc(test, s.len, GFP_KERNEL);
	struct sk_buff *skb, *skb2;
	struct page *p0, *p1;
	unsigned int i;
	int r0, r1;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL(test, got);
	m->buf = uet_buf_alloc(T_MSG_LEN, NULL, NULL, NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->buf);
	for (i = 0; i < m->buf->npages; i++)
		memset(page_address(m->buf->pages[i]), 0xa0 + i, PAGE_SIZE);
	p0 = m->buf->pages[0];
	p1 = m->buf->pages[1];
	r0 = page_ref_count(p0);
	r1 = page_ref_count(p1);
	s.msg = m;

	skb = uet_tx_build(pdc, 1, &s, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, UET_DATA_HDR_LEN + 1000);
	KUNIT_EXPECT_EQ(test, skb->data_len, 1000U);
	KUNIT_ASSERT_EQ(test, skb_shinfo(skb)->nr_frags, 2);
	KUNIT_EXPECT_PTR_EQ(test, skb_frag_page(&skb_shinfo(skb)->frags[0]),
			    p0);
	KUNIT_EXPECT_EQ(test, skb_frag_off(&skb_shinfo(skb)->frags[0]),
			PAGE_SIZE - 100);
	KUNIT_EXPECT_EQ(test, skb_frag_size(&skb_shinfo(skb)->frags[0]), 100U);
	KUNIT_EXPECT_PTR_EQ(test, skb_frag_page(&skb_shinfo(skb)->frags[1]),
			    p1);
	KUNIT_EXPECT_EQ(test, skb_frag_off(&skb_shinfo(skb)->frags[1]), 0U);
	KUNIT_EXPECT_EQ(test, skb_frag_size(&skb_shinfo(skb)->frags[1]), 900U);
	KUNIT_EXPECT_EQ(test, page_ref_count(p0), r0 + 1);
	KUNIT_EXPECT_EQ(test, page_ref_count(p1), r1 + 1);
	KUNIT_EXPECT_GE(test, skb->truesize, SKB_TRUESIZE(0) + 1000);

	/* a retransmission: another packet on the same pages */
	skb2 = uet_tx_build(pdc, 1, &s, UET_REQ_RETX, NULL);
	KUNIT_ASSERT_NOT_NULL(test, skb2);
	KUNIT_EXPECT_EQ(test, page_ref_count(p0), r0 + 2);

	/* the message goes (acknowledged, its socket closed): packets stay */
	uet_buf_free(m->buf, NULL, 0);
	m->buf = NULL;
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, UET_DATA_HDR_LEN, got, s.len),
			0);
	KUNIT_EXPECT_EQ(test, got[0], 0xa0);
	KUNIT_EXPECT_EQ(test, got[99], 0xa0);
	KUNIT_EXPECT_EQ(test, got[100], 0xa1);
	KUNIT_EXPECT_EQ(test, got[999], 0xa1);
	KUNIT_EXPECT_EQ(test, page_ref_count(p0), r0 + 1);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, page_ref_count(p0), r0);
	KUNIT_EXPECT_EQ(test, page_ref_count(p1), r1);
	/* the last packet frees the pages */
	kfree_skb(skb2);
}

/*
 * Messages shorter than a page share one: each its own piece, its packets
 * referencing the page at the piece's offset, the page freed with the
 * last reference, whether the buffer is allocated apart or held in its
 * message.  A message of a page or more takes pages of its own.
 */
static void uet_dp_test_buf_shared(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);
	struct uet_tx_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct page_frag pf = {};
	struct uet_tx_slot s = {};
	struct uet_buf *a, *b, *c, *e;
	struct sk_buff *skb;
	struct iov_iter it;
	struct kvec kv;
	u8 data[300];
	int ref;

	KUNIT_ASSERT_NOT_NULL(test, m);
	memset(data, 0x5a, sizeof(data));
	a = uet_buf_alloc(100, &pf, NULL, NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = uet_buf_alloc(sizeof(data), &pf, NULL, NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_PTR_EQ(test, a->pages[0], pf.page);
	KUNIT_EXPECT_PTR_EQ(test, b->pages[0], pf.page);
	KUNIT_EXPECT_EQ(test, a->pgoff + 100, b->pgoff);
	KUNIT_EXPECT_EQ(test, b->npages, 1U);
	KUNIT_EXPECT_LT(test, uet_buf_truesize(100), 256U);
	/* the fragment's holder, a and b */
	ref = page_ref_count(pf.page);
	KUNIT_EXPECT_EQ(test, ref, 3);

	kv.iov_base = data;
	kv.iov_len = sizeof(data);
	iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, sizeof(data));
	KUNIT_ASSERT_EQ(test, uet_buf_from_iter(b, &it), 0);
	m->buf = b;
	s.msg = m;
	s.off = 200;
	s.len = 100;
	skb = uet_tx_build(pdc, 1, &s, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, skb_shinfo(skb)->nr_frags, 1);
	KUNIT_EXPECT_PTR_EQ(test, skb_frag_page(&skb_shinfo(skb)->frags[0]),
			    pf.page);
	KUNIT_EXPECT_EQ(test, skb_frag_off(&skb_shinfo(skb)->frags[0]),
			b->pgoff + 200);
	KUNIT_EXPECT_EQ(test, page_ref_count(pf.page), ref + 1);
	/* the bytes are b's, not a's */
	KUNIT_EXPECT_EQ(test, *((u8 *)page_address(pf.page) + b->pgoff + 299),
			0x5a);

	/* a page or more: pages of its own */
	c = uet_buf_alloc(PAGE_SIZE, &pf, NULL, NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_TRUE(test, c->pages[0] != pf.page);
	KUNIT_EXPECT_EQ(test, c->pgoff, 0U);
	KUNIT_EXPECT_EQ(test, uet_buf_truesize(PAGE_SIZE),
			struct_size(c, pages, 1) + PAGE_SIZE);
	uet_buf_free(c, NULL, 0);
	KUNIT_EXPECT_EQ(test, uet_buf_embed_size(PAGE_SIZE), 0U);
	KUNIT_EXPECT_EQ(test, uet_buf_embed_size(0), 0U);

	/* held in its message: a piece the same way, the memory the message's */
	e = kzalloc(uet_buf_embed_size(64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, uet_buf_init_shared(e, 64, &pf, GFP_KERNEL), 0);
	KUNIT_EXPECT_PTR_EQ(test, e->pages[0], pf.page);
	KUNIT_EXPECT_EQ(test, e->pgoff, b->pgoff + (u32)sizeof(data));
	KUNIT_EXPECT_EQ(test, page_ref_count(pf.page), ref + 2);
	uet_buf_free(e, NULL, 0);
	KUNIT_EXPECT_EQ(test, page_ref_count(pf.page), ref + 1);
	/* KASAN: uet_buf_free() left e's memory alone */
	kfree(e);

	uet_buf_free(a, NULL, 0);
	uet_buf_free(b, NULL, 0);
	KUNIT_EXPECT_EQ(test, page_ref_count(pf.page), 2);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, page_ref_count(pf.page), 1);
	put_page(pf.page);
}

/*
 * A socket's page ring: a full ring drops its oldest page; a page goes
 * back to a message only once the ring holds its last reference (a
 * packet at a peer may still read it), oldest first, and the take stops
 * at the first page held; a message of a page or more takes the ring's
 * pages before new ones and gives them back when freed; a drained ring
 * drops every page; a ring of no room frees what it is given.
 */
static void uet_dp_test_page_ring(struct kunit *test)
{
	struct uet_page_ring *r = uet_page_ring_alloc(GFP_KERNEL);
	struct page *p[3], *got[3], *fresh;
	struct uet_buf *b;
	u32 i, reused;

	KUNIT_ASSERT_NOT_NULL(test, r);
	for (i = 0; i < 3; i++) {
		p[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p[i]);
	}
	get_page(p[0]);
	uet_page_ring_put(r, p, 3, 2);
	KUNIT_EXPECT_EQ(test, r->n, 2U);
	/* p[0] was dropped: only the test's reference is left */
	KUNIT_EXPECT_EQ(test, page_ref_count(p[0]), 1);
	put_page(p[0]);

	/* a packet still holds p[1]: nothing comes back, not even p[2] */
	get_page(p[1]);
	KUNIT_EXPECT_EQ(test, uet_page_ring_take(r, got, 3), 0U);
	put_page(p[1]);
	KUNIT_EXPECT_EQ(test, uet_page_ring_take(r, got, 1), 1U);
	KUNIT_EXPECT_PTR_EQ(test, got[0], p[1]);
	KUNIT_EXPECT_EQ(test, r->n, 1U);

	/* two pages: p[2] from the ring, one new */
	b = uet_buf_alloc(2 * PAGE_SIZE, NULL, r, &reused, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, reused, 1U);
	KUNIT_EXPECT_PTR_EQ(test, b->pages[0], p[2]);
	KUNIT_EXPECT_TRUE(test, b->pages[1] != p[1]);
	KUNIT_EXPECT_EQ(test, r->n, 0U);
	fresh = b->pages[1];
	uet_buf_free(b, r, UET_PAGE_RING_PAGES);
	KUNIT_EXPECT_EQ(test, r->n, 2U);
	KUNIT_EXPECT_PTR_EQ(test, r->pages[r->head], p[2]);
	KUNIT_EXPECT_PTR_EQ(test, r->pages[(r->head + 1) % UET_PAGE_RING_PAGES],
			    fresh);

	/* an idle socket's ring drops every page, held elsewhere or not */
	get_page(p[2]);
	KUNIT_EXPECT_EQ(test, uet_page_ring_drain(r), 2U);
	KUNIT_EXPECT_EQ(test, r->n, 0U);
	KUNIT_EXPECT_EQ(test, page_ref_count(p[2]), 1);
	put_page(p[2]);
	KUNIT_EXPECT_EQ(test, uet_page_ring_drain(r), 0U);

	/* a ring of no room frees what it is given */
	uet_page_ring_put(r, got, 1, 0);
	KUNIT_EXPECT_EQ(test, r->n, 0U);
	uet_page_ring_free(r);
}

/*
 * Which answers name PSNs that were sent: none before the PDC's start
 * while it is young, and the same PSNs in flight 2^32 PSNs later, when
 * the distance from the start has wrapped.
 */
static void uet_dp_test_ack_valid_wrap(struct kunit *test)
{
	struct uet_pdc *pdc = uet_dp_test_pdc(test);
	struct uet_pdc_tx *tx = &pdc->tx;
	struct uet_ack_info a = {};

	tx->start_psn = 1000;
	tx->snd_una = 1000;
	tx->snd_nxt = 1010;
	a.cack = 1004;
	KUNIT_EXPECT_TRUE(test, uet_tx_ack_valid(pdc, &a));
	a.cack = 998;
	KUNIT_EXPECT_FALSE(test, uet_tx_ack_valid(pdc, &a));
	a.cack = 1010;
	KUNIT_EXPECT_FALSE(test, uet_tx_ack_valid(pdc, &a));

	/* 2^32 - 200 PSNs acknowledged, 205 in flight across the start */
	tx->snd_una = 1000 - 200;
	tx->snd_nxt = 1005;
	a.cack = tx->snd_una + 99;
	KUNIT_EXPECT_TRUE(test, uet_tx_ack_valid(pdc, &a));
	a.cack = tx->snd_nxt - 1;
	KUNIT_EXPECT_TRUE(test, uet_tx_ack_valid(pdc, &a));
	a.cack = tx->snd_nxt;
	KUNIT_EXPECT_FALSE(test, uet_tx_ack_valid(pdc, &a));
	a.cack = tx->snd_una - UET_PSN_WINDOW - 2;
	KUNIT_EXPECT_FALSE(test, uet_tx_ack_valid(pdc, &a));
	/* and once the oldest in flight has passed the start again */
	tx->snd_una = 1003;
	a.cack = 1001;
	KUNIT_EXPECT_TRUE(test, uet_tx_ack_valid(pdc, &a));
}

/* A packet of @len bytes of @c, as uet_tx_emit() queues a data packet. */
static struct sk_buff *uet_dp_test_pkt(struct kunit *test, u32 len, u8 c,
				       __be16 sport, bool batch)
{
	struct sk_buff *skb = alloc_skb(64 + len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, 64);
	memset(skb_put(skb, len), c, len);
	UET_SKB_CB(skb)->sport = sport;
	UET_SKB_CB(skb)->tos = INET_ECN_ECT_0;
	UET_SKB_CB(skb)->batch = batch;
	return skb;
}

/*
 * Packets join the one before them while they go its way and are as long
 * (a shorter one ends the batch), within the limits; the batch is a UDP
 * GSO packet of them, in order, on the frag_list.
 */
static void uet_dp_test_tx_batch(struct kunit *test)
{
	static const u32 lens[] = { 100, 100, 100, 60, 100, 100, 100, 100 };
	struct sk_buff *skb, *p, *b2;
	struct sk_buff_head q;
	unsigned int i = 0;

	__skb_queue_head_init(&q);
	for (i = 0; i < ARRAY_SIZE(lens); i++)
		__skb_queue_tail(&q, uet_dp_test_pkt(test, lens[i], i, htons(7),
						     true));
	/* another entropy value ends the second batch after two */
	UET_SKB_CB(skb_peek_tail(&q)->prev)->sport = htons(8);

	skb = __skb_dequeue(&q);
	KUNIT_EXPECT_EQ(test, uet_tx_batch(skb, &q, 65000, 64), 4);
	KUNIT_EXPECT_EQ(test, skb->len, 360);
	KUNIT_EXPECT_EQ(test, skb->data_len, 260);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_size, 100);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_segs, 4);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_type,
			SKB_GSO_UDP_L4 | SKB_GSO_UDP_TUNNEL);
	KUNIT_EXPECT_TRUE(test, skb->ip_summed == CHECKSUM_PARTIAL);
	i = 1;
	skb_walk_frags(skb, p) {
		KUNIT_EXPECT_EQ(test, p->data[0], i);
		KUNIT_EXPECT_EQ(test, p->len, lens[i]);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, 4);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&q), 4);

	/* 100, 100, then value 8: two */
	b2 = __skb_dequeue(&q);
	KUNIT_EXPECT_EQ(test, uet_tx_batch(b2, &q, 65000, 64), 2);
	KUNIT_EXPECT_EQ(test, b2->len, 200);
	kfree_skb(b2);

	/* alone: a packet that may not be batched is not taken */
	b2 = __skb_dequeue(&q);
	UET_SKB_CB(skb_peek(&q))->batch = false;
	UET_SKB_CB(skb_peek(&q))->sport = htons(8);
	KUNIT_EXPECT_EQ(test, uet_tx_batch(b2, &q, 65000, 64), 1);
	KUNIT_EXPECT_EQ(test, skb_shinfo(b2)->gso_size, 0);
	KUNIT_EXPECT_NULL(test, skb_shinfo(b2)->frag_list);
	KUNIT_EXPECT_EQ(test, b2->len, 100);
	kfree_skb(b2);
	kfree_skb(skb);
	__skb_queue_purge(&q);

	/* the limits: packets, then bytes */
	for (i = 0; i < 6; i++)
		__skb_queue_tail(&q, uet_dp_test_pkt(test, 100, i, htons(7),
						     true));
	skb = __skb_dequeue(&q);
	KUNIT_EXPECT_EQ(test, uet_tx_batch(skb, &q, 65000, 3), 3);
	kfree_skb(skb);
	skb = __skb_dequeue(&q);
	KUNIT_EXPECT_EQ(test, uet_tx_batch(skb, &q, 299, 64), 2);
	kfree_skb(skb);
	__skb_queue_purge(&q);
}

/* A batch as it reaches uet_encap_rcv(): at its UDP header. */
static struct sk_buff *uet_dp_test_batch(struct kunit *test, u32 n, u32 last)
{
	struct sk_buff *skb;
	struct sk_buff_head q;
	u32 i;

	__skb_queue_head_init(&q);
	for (i = 0; i < n; i++)
		__skb_queue_tail(&q, uet_dp_test_pkt(test, i + 1 < n ? 100 : last,
						     i, htons(7), true));
	skb = __skb_dequeue(&q);
	KUNIT_ASSERT_EQ(test, uet_tx_batch(skb, &q, 65000, 64), n);
	memset(skb_push(skb, sizeof(struct udphdr)), 0, sizeof(struct udphdr));
	return skb;
}

/*
 * A batch comes apart into its parts, each at its UET header, the
 * first left in the GSO packet, which is one no more; a GSO packet laid
 * out otherwise, or shared, is left whole.
 */
static void uet_dp_test_rx_unbatch(struct kunit *test)
{
	struct sk_buff *skb, *list, *p, *next, *c;
	unsigned int i, truesize;

	skb = uet_dp_test_batch(test, 4, 30);
	truesize = skb->truesize;
	list = uet_rx_unbatch(skb);
	KUNIT_ASSERT_NOT_NULL(test, list);
	KUNIT_EXPECT_EQ(test, skb->len, 108);
	KUNIT_EXPECT_FALSE(test, skb_is_gso(skb));
	KUNIT_EXPECT_FALSE(test, skb_has_frag_list(skb));
	KUNIT_EXPECT_EQ(test, skb->data[sizeof(struct udphdr)], 0);
	i = 1;
	skb_list_walk_safe(list, p, next) {
		KUNIT_EXPECT_EQ(test, p->data[0], i);
		KUNIT_EXPECT_EQ(test, p->len, i < 3 ? 100 : 30);
		truesize -= p->truesize;
		kfree_skb(p);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, 4);
	KUNIT_EXPECT_EQ(test, skb->truesize, truesize);
	kfree_skb(skb);

	/* the first packet shorter than gso_size: not a batch of ours */
	skb = uet_dp_test_batch(test, 3, 100);
	skb_shinfo(skb)->gso_size = 90;
	KUNIT_EXPECT_NULL(test, uet_rx_unbatch(skb));
	KUNIT_EXPECT_TRUE(test, skb_is_gso(skb));
	KUNIT_EXPECT_EQ(test, skb->len, 308);
	kfree_skb(skb);

	/* a short packet but the last */
	skb = uet_dp_test_batch(test, 3, 100);
	skb_shinfo(skb)->frag_list->len = 50;
	KUNIT_EXPECT_NULL(test, uet_rx_unbatch(skb));
	skb_shinfo(skb)->frag_list->len = 100;
	kfree_skb(skb);

	/* a part of whole packets (a superpacket) but the last: taken */
	skb = uet_dp_test_batch(test, 3, 100);
	skb_shinfo(skb)->frag_list->len = 200;
	skb->len += 100;
	skb->data_len += 100;
	list = uet_rx_unbatch(skb);
	KUNIT_EXPECT_NOT_NULL(test, list);
	KUNIT_EXPECT_EQ(test, list->len, 200);
	list->len = 100;
	kfree_skb_list(list);
	kfree_skb(skb);

	/* not only what uet_tx_batch() sets: a GSO bit more, inner headers */
	skb = uet_dp_test_batch(test, 3, 100);
	skb_shinfo(skb)->gso_type |= SKB_GSO_DODGY;
	KUNIT_EXPECT_NULL(test, uet_rx_unbatch(skb));
	skb_shinfo(skb)->gso_type ^= SKB_GSO_DODGY | SKB_GSO_FRAGLIST;
	KUNIT_EXPECT_NULL(test, uet_rx_unbatch(skb));
	skb_shinfo(skb)->gso_type ^= SKB_GSO_FRAGLIST;
	skb->encapsulation = 1;
	KUNIT_EXPECT_NULL(test, uet_rx_unbatch(skb));
	skb->encapsulation = 0;
	KUNIT_EXPECT_EQ(test, skb->len, 308);
	kfree_skb(skb);

	/* a tap's clone shares the frag_list */
	skb = uet_dp_test_batch(test, 3, 100);
	c = skb_clone(skb, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_NULL(test, uet_rx_unbatch(skb));
	KUNIT_EXPECT_EQ(test, skb->len, 308);
	kfree_skb(c);

	/* a packet of it held elsewhere */
	p = skb_get(skb_shinfo(skb)->frag_list);
	KUNIT_EXPECT_NULL(test, uet_rx_unbatch(skb));
	kfree_skb(p);
	KUNIT_EXPECT_NOT_NULL(test, list = uet_rx_unbatch(skb));
	kfree_skb_list(list);
	kfree_skb(skb);
}

static struct kunit_case uet_dp_test_cases[] = {
	KUNIT_CASE(uet_dp_test_tx_batch),
	KUNIT_CASE(uet_dp_test_rx_unbatch),
	KUNIT_CASE(uet_dp_test_psn_order),
	KUNIT_CASE(uet_dp_test_in_flight),
	KUNIT_CASE(uet_dp_test_rx_window),
	KUNIT_CASE(uet_dp_test_sack_bits_words),
	KUNIT_CASE(uet_dp_test_ack_roundtrip),
	KUNIT_CASE(uet_dp_test_ack_valid_wrap),
	KUNIT_CASE(uet_dp_test_ack_plain_and_probe),
	KUNIT_CASE(uet_dp_test_ack_nscc),
	KUNIT_CASE(uet_dp_test_rtt_rto),
	KUNIT_CASE(uet_dp_test_rto_bounds),
	KUNIT_CASE(uet_dp_test_base_rtt),
	KUNIT_CASE(uet_dp_test_ed_deadline),
	KUNIT_CASE(uet_dp_test_ed_due),
	KUNIT_CASE(uet_dp_test_own_timeout),
	KUNIT_CASE(uet_dp_test_late_wait),
	KUNIT_CASE(uet_dp_test_data_roundtrip),
	KUNIT_CASE(uet_dp_test_data_malformed),
	KUNIT_CASE(uet_dp_test_buf_frags),
	KUNIT_CASE(uet_dp_test_frags_outlive),
	KUNIT_CASE(uet_dp_test_buf_shared),
	KUNIT_CASE(uet_dp_test_page_ring),
	{}
};

static struct kunit_suite uet_dp_test_suite = {
	.name = "uet_datapath",
	.test_cases = uet_dp_test_cases,
};

kunit_test_suite(uet_dp_test_suite);
