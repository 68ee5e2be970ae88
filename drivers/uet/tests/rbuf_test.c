// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the receive reassembly tracker.  A message is complete only when
 * every byte was written once; overlapping and misaligned packets are
 * refused and change nothing; pages exist only where data landed, a
 * short message takes none, and packets may be kept as they came.
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
 * The budget for keeping packets, from the first: a packet that carries
 * a message longer than UET_RBUF_INLINE_MAX whole is the budget, and only
 * what it takes beyond the message's pages is reserved; the first of
 * several sets as many packets as the message has, plus one, within
 * UET_RBUF_KEEP_RATIO times the pages, all reserved; a message heard of
 * first by its shorter last packet, a short one, or a packet far larger
 * than its bytes keeps nothing.
 */
static void uet_rbuf_test_keep_budget(struct kunit *test)
{
	u32 len = 4096, slack = PAGE_ALIGN(len) + UET_RBUF_KEEP_SLACK, over;
	u32 big = 10 * PAGE_SIZE;
	struct uet_rbuf *b = uet_rbuf_test_new(test, len);

	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, 0, len, slack, &over),
			slack);
	KUNIT_EXPECT_EQ(test, over, slack - (u32)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, 0, len, 3000, &over),
			(u32)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, over, 0U);
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, 0, len, slack + 1, &over),
			0U);
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, 0, 2048, 3000, &over),
			UET_RBUF_KEEP_RATIO * (u32)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, over, UET_RBUF_KEEP_RATIO * (u32)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, 2048, 2048, 3000, &over),
			0U);

	b = uet_rbuf_test_new(test, big);
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, 0, 4096, 5000, &over),
			11 * 5000U);
	KUNIT_EXPECT_EQ(test, over, 11 * 5000U);
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, 4096, 1024, 5000, &over),
			UET_RBUF_KEEP_RATIO * big);
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, big - 64, 64, 500, &over),
			0U);

	b = uet_rbuf_test_new(test, UET_RBUF_INLINE_MAX);
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, 0, UET_RBUF_INLINE_MAX,
						   2048, &over), 0U);
	b = uet_rbuf_test_new(test, UET_RBUF_INLINE_MAX + 1);
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_budget(b, 0, UET_RBUF_INLINE_MAX + 1,
						   2 * PAGE_SIZE, &over),
			2 * (u32)PAGE_SIZE);

	/* each packet within the slack, all within the budget */
	b->keep_max = 10000;
	KUNIT_EXPECT_TRUE(test, uet_rbuf_may_keep(b, 1024, 6000));
	KUNIT_EXPECT_FALSE(test, uet_rbuf_may_keep(b, 1024, 2 * PAGE_SIZE + 1));
	b->kept_size = 6000;
	KUNIT_EXPECT_TRUE(test, uet_rbuf_may_keep(b, 1024, 4000));
	KUNIT_EXPECT_FALSE(test, uet_rbuf_may_keep(b, 1024, 4001));
	KUNIT_EXPECT_FALSE(test, uet_rbuf_may_keep(b, 0, 1000));
	b->kept_size = 0;
}

/* An skb of @hdr bytes of 0xee then @len bytes of @c, on no list. */
static struct sk_buff *uet_rbuf_test_kskb(struct kunit *test, u32 hdr,
					  u32 len, u8 c)
{
	struct sk_buff *skb = alloc_skb(hdr + len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	memset(skb_put(skb, hdr), 0xee, hdr);
	memset(skb_put(skb, len), c, len);
	return skb;
}

/* Copy all of @b out; check byte @off of each of @n @seg-byte packets. */
static void uet_rbuf_test_read(struct kunit *test, const struct uet_rbuf *b,
			       u32 seg, u32 n)
{
	u8 *out = kunit_kzalloc(test, b->len, GFP_KERNEL);
	struct kvec kv = { .iov_base = out, .iov_len = b->len };
	struct iov_iter it;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, out);
	iov_iter_kvec(&it, ITER_DEST, &kv, 1, b->len);
	KUNIT_ASSERT_EQ(test, uet_rbuf_to_iter(b, b->len, &it), 0);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, out[i * seg], i + 1);
		KUNIT_EXPECT_EQ(test, out[min((i + 1) * seg, b->len) - 1], i + 1);
	}
}

/*
 * A kept packet that is the whole message: complete at once, counted as
 * the pages its truesize rounds up to, no page allocated, its bytes copied
 * out from its offset in the packet; freeing the buffer drops the
 * buffer's reference only.
 */
static void uet_rbuf_test_keep(struct kunit *test)
{
	u32 len = 3000, hdr = 40, over;
	struct uet_rbuf *b = uet_rbuf_test_new(test, len);
	struct sk_buff *skb = uet_rbuf_test_kskb(test, hdr, len, 1);

	b->keep_max = uet_rbuf_keep_budget(b, 0, len, skb->truesize, &over);
	KUNIT_ASSERT_TRUE(test, uet_rbuf_may_keep(b, len, skb->truesize));
	KUNIT_EXPECT_EQ(test, uet_rbuf_keep_pages(b, skb->truesize),
			DIV_ROUND_UP(skb->truesize, PAGE_SIZE));
	uet_rbuf_keep_skb(b, skb_get(skb), 0, 0, hdr, 0, len);
	KUNIT_EXPECT_EQ(test, b->got, len);
	KUNIT_EXPECT_EQ(test, b->npages, 0U);
	KUNIT_EXPECT_NULL(test, b->pg[0].page);
	KUNIT_EXPECT_EQ(test, refcount_read(&skb->users), 2U);
	uet_rbuf_test_read(test, b, len, 1);
	uet_rbuf_test_new(test, 64);
	KUNIT_EXPECT_EQ(test, refcount_read(&skb->users), 1U);
	kfree_skb(skb);
}

/*
 * Packets kept out of order and packets copied, in one message: each byte
 * comes out of the packet or page it landed in, in order; a kept range
 * refuses an overlapping copy; only copied ranges take pages; the kept
 * packets count as the pages of their truesizes' sum.
 */
static void uet_rbuf_test_keep_mixed(struct kunit *test)
{
	u32 seg = 2560, hdr = 48, n = DIV_ROUND_UP(T_LEN, seg), i, size = 0;
	static const u8 order[] = { 2, 0, 4, 1, 3 };
	struct uet_rbuf *b = uet_rbuf_test_new(test, T_LEN);
	struct sk_buff *skb, *kept[5];
	u32 pages = 0;

	KUNIT_ASSERT_EQ(test, n, 5U);
	b->keep_max = U32_MAX;
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		u32 k = order[i], off = k * seg, len = min(seg, T_LEN - off);

		if (k == 3) {
			/* copied into its page */
			KUNIT_EXPECT_EQ(test, uet_rbuf_test_put(test, b, off,
								len, k + 1), 0);
			continue;
		}
		skb = uet_rbuf_test_kskb(test, hdr, len, k + 1);
		kept[k] = skb_get(skb);
		size += skb->truesize;
		KUNIT_ASSERT_EQ(test, uet_rbuf_check(b, off, len), 0);
		pages += uet_rbuf_keep_pages(b, skb->truesize);
		uet_rbuf_keep_skb(b, skb, 0, 0, hdr, off, len);
	}
	KUNIT_EXPECT_EQ(test, b->got, (u32)T_LEN);
	KUNIT_EXPECT_EQ(test, b->kept_size, size);
	KUNIT_EXPECT_EQ(test, pages, DIV_ROUND_UP(size, PAGE_SIZE));
	/* packet 3 is bytes 7680..10239: pages 1 and 2 only */
	KUNIT_EXPECT_EQ(test, b->npages, 2U);
	KUNIT_EXPECT_NULL(test, b->pg[0].page);
	KUNIT_EXPECT_NOT_NULL(test, b->pg[1].page);
	KUNIT_EXPECT_NOT_NULL(test, b->pg[2].page);
	KUNIT_EXPECT_NULL(test, b->pg[3].page);
	KUNIT_EXPECT_EQ(test, uet_rbuf_check(b, 2 * seg, 64), -EEXIST);
	KUNIT_EXPECT_PTR_EQ(test, b->kept_last, kept[4]);
	uet_rbuf_test_read(test, b, seg, n);

	uet_rbuf_test_new(test, 64);
	for (i = 0; i < n; i++) {
		if (i == 3)
			continue;
		KUNIT_EXPECT_EQ(test, refcount_read(&kept[i]->users), 1U);
		kfree_skb(kept[i]);
	}
}

static struct kunit_case uet_rbuf_test_cases[] = {
	KUNIT_CASE(uet_rbuf_test_out_of_order),
	KUNIT_CASE(uet_rbuf_test_overlap),
	KUNIT_CASE(uet_rbuf_test_unaligned),
	KUNIT_CASE(uet_rbuf_test_short_skb),
	KUNIT_CASE(uet_rbuf_test_empty),
	KUNIT_CASE(uet_rbuf_test_inline),
	KUNIT_CASE(uet_rbuf_test_keep_budget),
	KUNIT_CASE(uet_rbuf_test_keep),
	KUNIT_CASE(uet_rbuf_test_keep_mixed),
	{}
};

static struct kunit_suite uet_rbuf_test_suite = {
	.name = "uet_rbuf",
	.init = uet_rbuf_test_init,
	.exit = uet_rbuf_test_exit,
	.test_cases = uet_rbuf_test_cases,
};

kunit_test_suite(uet_rbuf_test_suite);
