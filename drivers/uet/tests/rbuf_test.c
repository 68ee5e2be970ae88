// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the receive reassembly tracker.  A message is complete only when
 * every byte was written once; overlapping and misaligned packets are
 * refused and change nothing; pages exist only where data landed, a
 * short message takes none, and one packet may be kept as its message.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <uet/msg.h>

#define T_LEN	(3 * PAGE_SIZE + 100)

/**
 * struct uet_rbuf_test - what a case allocated, freed by its exit
 * @b: the case's buffer
 * @skbs: the case's packets
 */
struct uet_rbuf_test {
	struct uet_rbuf *b;
	struct sk_buff_head skbs;
};

static int uet_rbuf_test_init(struct kunit *test)
{
	struct uet_rbuf_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	skb_queue_head_init(&t->skbs);
	test->priv = t;
	return 0;
}

static void uet_rbuf_test_exit(struct kunit *test)
{
	struct uet_rbuf_test *t = test->priv;

	uet_rbuf_free(t->b);
	skb_queue_purge(&t->skbs);
}

/* The case's buffer for a @len-byte message, in place of any before it. */
static struct uet_rbuf *uet_rbuf_test_new(struct kunit *test, u32 len)
{
	struct uet_rbuf_test *t = test->priv;

	uet_rbuf_free(t->b);
	t->b = uet_rbuf_alloc(len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->b);
	return t->b;
}

/* An skb of @len bytes of @c, freed with the case. */
static struct sk_buff *uet_rbuf_test_skb(struct kunit *test, u32 len, u8 c)
{
	struct uet_rbuf_test *t = test->priv;
	struct sk_buff *skb = alloc_skb(len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_queue_tail(&t->skbs, skb);
	memset(skb_put(skb, len), c, len);
	return skb;
}

/* Check, populate and write [@off, @off + @len) of @b with byte @c. */
static int uet_rbuf_test_put(struct kunit *test, struct uet_rbuf *b,
			     u32 off, u32 len, u8 c)
{
	struct sk_buff *skb = uet_rbuf_test_skb(test, len, c);
	u32 need;
	int err;

	err = uet_rbuf_check(b, off, len);
	if (err)
		return err;
	need = uet_rbuf_missing(b, off, len);
	KUNIT_ASSERT_EQ(test, uet_rbuf_populate(b, off, len, GFP_KERNEL), need);
	return uet_rbuf_write_skb(b, off, skb, 0, len);
}

/* Segment @off of @seg bytes (shorter at the end) of a T_LEN message. */
static int uet_rbuf_test_seg(struct kunit *test, struct uet_rbuf *b, u32 off,
			     u32 seg, u8 c)
{
	return uet_rbuf_test_put(test, b, off, min_t(u32, seg, T_LEN - off), c);
}

static u8 uet_rbuf_test_byte(const struct uet_rbuf *b, u32 off)
{
	const u8 *p = page_address(b->pg[off >> PAGE_SHIFT].page);

	return p[offset_in_page(off)];
}

/* Out of order, across page boundaries: complete once, bytes in place. */
static void uet_rbuf_test_out_of_order(struct kunit *test)
{
	struct uet_rbuf *b = uet_rbuf_test_new(test, T_LEN);
	u32 seg = 1408, off;

	KUNIT_EXPECT_EQ(test, b->npages, 0);
	/* odd segments first, then even ones */
	for (off = seg; off < T_LEN; off += 2 * seg)
		KUNIT_EXPECT_EQ(test, uet_rbuf_test_seg(test, b, off, seg, 1), 0);
	KUNIT_EXPECT_LT(test, b->got, (u32)T_LEN);
	for (off = 0; off < T_LEN; off += 2 * seg)
		KUNIT_EXPECT_EQ(test, uet_rbuf_test_seg(test, b, off, seg, 2), 0);
	KUNIT_EXPECT_EQ(test, b->got, (u32)T_LEN);
	KUNIT_EXPECT_EQ(test, b->npages, 4);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_byte(b, 0), 2);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_byte(b, seg), 1);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_byte(b, 2 * seg - 1), 1);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_byte(b, 2 * seg), 2);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_byte(b, T_LEN - 1),
			((T_LEN - 1) / seg) % 2 ? 1 : 2);
}

/*
 * The attack of the issue: the same 16 KiB twice under new PSNs and the
 * last bytes would have completed a 32 KiB message by count alone.
 */
static void uet_rbuf_test_overlap(struct kunit *test)
{
	struct uet_rbuf *b = uet_rbuf_test_new(test, 32768);

	KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 0, 16320, 1), 0);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 0, 16320, 1),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 64, 64, 1), -EEXIST);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 16256, 128, 1),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 32704, 64, 1), 0);
	KUNIT_EXPECT_EQ(test, b->got, 16384U);
	/* pages only where data landed: 0..3 and 7 */
	KUNIT_EXPECT_EQ(test, b->npages, 5);
	KUNIT_EXPECT_NULL(test, b->pg[5].page);
}

/*
 * Offsets and lengths off the 64-byte granule are refused, in a message
 * held inline (1000 bytes) and in one of two pages (4136), each 40 bytes
 * past a granule.
 */
static void uet_rbuf_test_unaligned(struct kunit *test)
{
	static const u32 lens[] = { 1000, PAGE_SIZE + 40 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		u32 len = lens[i], end = len - 40;
		struct uet_rbuf *b = uet_rbuf_test_new(test, len);

		KUNIT_EXPECT_EQ(test, uet_rbuf_check(b, 10, 64), -EINVAL);
		KUNIT_EXPECT_EQ(test, uet_rbuf_check(b, 0, 100), -EINVAL);
		/* the end of the message may be short of a granule */
		KUNIT_EXPECT_EQ(test, uet_rbuf_check(b, end, 40), 0);
		KUNIT_EXPECT_EQ(test, uet_rbuf_check(b, 0, len), 0);
		KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, end, 40, 3), 0);
		KUNIT_EXPECT_EQ(test, uet_rbuf_check(b, end - 64, 104),
				-EEXIST);
		KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 0, end, 4), 0);
		KUNIT_EXPECT_EQ(test, b->got, len);
	}
}

/* A failed copy marks nothing written, inline (128 bytes) or in a page. */
static void uet_rbuf_test_short_skb(struct kunit *test)
{
	static const u32 lens[] = { 128, PAGE_SIZE };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		struct uet_rbuf *b = uet_rbuf_test_new(test, lens[i]);
		struct sk_buff *skb = uet_rbuf_test_skb(test, 64, 5);

		KUNIT_ASSERT_EQ(test, uet_rbuf_populate(b, 0, 128, GFP_KERNEL),
				1U);
		KUNIT_EXPECT_NE(test, uet_rbuf_write_skb(b, 0, skb, 0, 128), 0);
		KUNIT_EXPECT_EQ(test, b->got, 0U);
		KUNIT_EXPECT_EQ(test, uet_rbuf_check(b, 0, 128), 0);
	}
}

/* An empty message is complete at once and holds no page. */
static void uet_rbuf_test_empty(struct kunit *test)
{
	struct uet_rbuf *b = uet_rbuf_test_new(test, 0);

	KUNIT_EXPECT_EQ(test, uet_rbuf_check(b, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, uet_rbuf_missing(b, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, b->got, b->len);
	KUNIT_EXPECT_EQ(test, uet_rbuf_size(0), sizeof(*b));
}

/*
 * A message of at most UET_RBUF_INLINE_MAX bytes takes no page: its bytes
 * count as one page from their first write, land in place and come out
 * whole; one byte more and it takes a page.
 */
static void uet_rbuf_test_inline(struct kunit *test)
{
	u32 len = UET_RBUF_INLINE_MAX;
	struct uet_rbuf *b = uet_rbuf_test_new(test, len), *big;
	u8 *out = kunit_kzalloc(test, len, GFP_KERNEL);
	struct kvec kv = { .iov_base = out, .iov_len = len };
	struct iov_iter it;

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, uet_rbuf_missing(b, 512, 512), 1U);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 512, 512, 7), 0);
	KUNIT_EXPECT_EQ(test, b->npages, 1U);
	KUNIT_EXPECT_NULL(test, b->pg[0].page);
	KUNIT_EXPECT_EQ(test, uet_rbuf_missing(b, 0, 512), 0U);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 448, 128, 1), -EEXIST);
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 0, 512, 9), 0);
	KUNIT_EXPECT_EQ(test, b->got, len);
	KUNIT_EXPECT_EQ(test, b->npages, 1U);
	iov_iter_kvec(&it, ITER_DEST, &kv, 1, len);
	KUNIT_ASSERT_EQ(test, uet_rbuf_to_iter(b, len, &it), 0);
	KUNIT_EXPECT_EQ(test, out[0], 9);
	KUNIT_EXPECT_EQ(test, out[511], 9);
	KUNIT_EXPECT_EQ(test, out[512], 7);
	KUNIT_EXPECT_EQ(test, out[len - 1], 7);

	big = uet_rbuf_alloc(len + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	KUNIT_EXPECT_EQ(test, uet_rbuf_populate(big, 0, 64, GFP_KERNEL), 1U);
	KUNIT_EXPECT_NOT_NULL(test, big->pg[0].page);
	uet_rbuf_free(big);
}

/*
 * Only a message longer than UET_RBUF_INLINE_MAX, carried whole by one
 * packet that nothing was written before and whose truesize is within
 * UET_RBUF_KEEP_SLACK of the copy's pages, may be kept as the packet.
 */
static void uet_rbuf_test_may_keep(struct kunit *test)
{
	u32 len = 4096, max = PAGE_ALIGN(len) + UET_RBUF_KEEP_SLACK;
	struct uet_rbuf *b = uet_rbuf_test_new(test, len);

	KUNIT_EXPECT_TRUE(test, uet_rbuf_may_keep(b, 0, len, max));
	KUNIT_EXPECT_FALSE(test, uet_rbuf_may_keep(b, 0, len, max + 1));
	KUNIT_EXPECT_FALSE(test, uet_rbuf_may_keep(b, 0, len - 64, 2048));
	KUNIT_EXPECT_FALSE(test, uet_rbuf_may_keep(b, 64, len - 64, 2048));
	KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, 0, 64, 1), 0);
	KUNIT_EXPECT_FALSE(test, uet_rbuf_may_keep(b, 0, len, 2048));

	b = uet_rbuf_test_new(test, UET_RBUF_INLINE_MAX);
	KUNIT_EXPECT_FALSE(test, uet_rbuf_may_keep(b, 0, UET_RBUF_INLINE_MAX,
						   2048));
	b = uet_rbuf_test_new(test, UET_RBUF_INLINE_MAX + 1);
	KUNIT_EXPECT_TRUE(test, uet_rbuf_may_keep(b, 0, UET_RBUF_INLINE_MAX + 1,
						  2 * PAGE_SIZE));
	KUNIT_EXPECT_FALSE(test, uet_rbuf_may_keep(b, 0, UET_RBUF_INLINE_MAX + 1,
						   2 * PAGE_SIZE + 1));
}

/*
 * A kept packet is the whole message: complete at once, counted as the
 * pages given, no page allocated, its bytes copied out from its offset in
 * the packet; freeing the buffer drops the buffer's reference only.
 */
static void uet_rbuf_test_keep(struct kunit *test)
{
	u32 len = 3000, hdr = 40;
	struct uet_rbuf *b = uet_rbuf_test_new(test, len);
	struct sk_buff *skb = uet_rbuf_test_skb(test, hdr + len, 5);
	u8 *out = kunit_kzalloc(test, len, GFP_KERNEL);
	struct kvec kv = { .iov_base = out, .iov_len = len };
	struct iov_iter it;

	KUNIT_ASSERT_NOT_NULL(test, out);
	memset(skb->data, 0xee, hdr);
	skb->data[hdr + len - 1] = 6;
	KUNIT_ASSERT_TRUE(test, uet_rbuf_may_keep(b, 0, len, skb->truesize));
	uet_rbuf_keep_skb(b, skb_get(skb), hdr, 2);
	KUNIT_EXPECT_EQ(test, b->got, len);
	KUNIT_EXPECT_EQ(test, b->npages, 2U);
	KUNIT_EXPECT_NULL(test, b->pg[0].page);
	KUNIT_EXPECT_EQ(test, refcount_read(&skb->users), 2U);
	iov_iter_kvec(&it, ITER_DEST, &kv, 1, len);
	KUNIT_ASSERT_EQ(test, uet_rbuf_to_iter(b, len, &it), 0);
	KUNIT_EXPECT_EQ(test, out[0], 5);
	KUNIT_EXPECT_EQ(test, out[len - 2], 5);
	KUNIT_EXPECT_EQ(test, out[len - 1], 6);
	uet_rbuf_test_new(test, 64);
	KUNIT_EXPECT_EQ(test, refcount_read(&skb->users), 1U);
}

static struct kunit_case uet_rbuf_test_cases[] = {
	KUNIT_CASE(uet_rbuf_test_out_of_order),
	KUNIT_CASE(uet_rbuf_test_overlap),
	KUNIT_CASE(uet_rbuf_test_unaligned),
	KUNIT_CASE(uet_rbuf_test_short_skb),
	KUNIT_CASE(uet_rbuf_test_empty),
	KUNIT_CASE(uet_rbuf_test_inline),
	KUNIT_CASE(uet_rbuf_test_may_keep),
	KUNIT_CASE(uet_rbuf_test_keep),
	{}
};

static struct kunit_suite uet_rbuf_test_suite = {
	.name = "uet_rbuf",
	.init = uet_rbuf_test_init,
	.exit = uet_rbuf_test_exit,
	.test_cases = uet_rbuf_test_cases,
};

kunit_test_suite(uet_rbuf_test_suite);
