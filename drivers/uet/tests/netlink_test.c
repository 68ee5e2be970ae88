// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a spraying state as the netlink dumps put it.  A listing of
 * values too long for one message must continue, message after message,
 * into exactly the listing the engine gives, flags included; a message
 * too short for the state's summary must be left as it was.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <net/netlink.h>
#include <uet/config.h>
#include <uet/net.h>
#include <uet/netlink.h>
#include <uet/spray.h>

#define T_SEED		7
#define T_KEY		0x0a000002
#define T_PORT		4000
/* Room for a few values per message: listings take many messages. */
#define T_SKB_ROOM	256
#define T_MAX_VALUES	1024

/**
 * struct uet_nl_test_listing - values read back from messages
 * @vals: the values, in the order listed
 * @n: how many
 * @msgs: messages they took
 * @has: which UET_A_SPRAY_* attributes the last summary had
 * @sum: their values
 */
struct uet_nl_test_listing {
	struct uet_spray_value vals[T_MAX_VALUES];
	u32 n;
	u32 msgs;
	bool has[UET_A_SPRAY_MAX + 1];
	u64 sum[UET_A_SPRAY_MAX + 1];
};

static int uet_nl_test_res_init(struct kunit_resource *res, void *context)
{
	res->data = uet_spray_create(context, T_KEY, T_PORT, GFP_KERNEL);
	return res->data ? 0 : -ENOMEM;
}

static void uet_nl_test_res_free(struct kunit_resource *res)
{
	uet_spray_destroy(res->data);
}

/* A state of @type, freed when the case ends, whether it passes or not. */
static struct uet_spray *uet_nl_test_state(struct kunit *test, u8 type,
					   void (*tune)(struct uet_config *c))
{
	struct uet_config cfg;
	struct uet_spray *s;

	uet_config_init_defaults(&cfg);
	cfg.spray = type;
	cfg.seed = T_SEED;
	if (tune)
		tune(&cfg);
	s = kunit_alloc_resource(test, uet_nl_test_res_init,
				 uet_nl_test_res_free, GFP_KERNEL, &cfg);
	KUNIT_ASSERT_NOT_NULL(test, s);
	return s;
}

/* An integer attribute of the summary, by its size. */
static u64 uet_nl_test_uint(const struct nlattr *a)
{
	switch (nla_len(a)) {
	case 1:
		return nla_get_u8(a);
	case 2:
		return nla_get_u16(a);
	case 4:
		return nla_get_u32(a);
	default:
		return nla_get_u64(a);
	}
}

/* uapi flags back to the engine's, to compare with its own listing. */
static u16 uet_nl_test_flags(u32 f)
{
	return (f & UET_VALUE_F_MARKED ? UET_SPRAY_VF_MARKED : 0) |
	       (f & UET_VALUE_F_BAD ? UET_SPRAY_VF_BAD : 0) |
	       (f & UET_VALUE_F_STALE ? UET_SPRAY_VF_STALE : 0);
}

/* Read one message's nest: its summary, and its values appended to @l. */
static void uet_nl_test_parse(struct kunit *test, struct sk_buff *skb,
			      u32 first, struct uet_nl_test_listing *l)
{
	struct nlattr *nest = (struct nlattr *)skb->data, *a;
	struct nlattr *tb[UET_A_VALUE_MAX + 1];
	int rem;

	KUNIT_ASSERT_EQ(test, nla_type(nest), UET_A_DEST_SPRAY);
	KUNIT_ASSERT_EQ(test, (unsigned int)nla_total_size(nla_len(nest)),
			skb->len);
	memset(l->has, 0, sizeof(l->has));
	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != UET_A_SPRAY_VALUE) {
			KUNIT_ASSERT_LE(test, nla_type(a), UET_A_SPRAY_MAX);
			l->has[nla_type(a)] = true;
			l->sum[nla_type(a)] = uet_nl_test_uint(a);
			continue;
		}
		KUNIT_ASSERT_EQ(test,
				nla_parse_nested_deprecated(tb, UET_A_VALUE_MAX,
							    a, NULL, NULL), 0);
		KUNIT_ASSERT_NOT_NULL(test, tb[UET_A_VALUE_VALUE]);
		KUNIT_ASSERT_NOT_NULL(test, tb[UET_A_VALUE_FLAGS]);
		KUNIT_ASSERT_LT(test, l->n, (u32)T_MAX_VALUES);
		l->vals[l->n].value = nla_get_u16(tb[UET_A_VALUE_VALUE]);
		l->vals[l->n].flags =
			uet_nl_test_flags(nla_get_u32(tb[UET_A_VALUE_FLAGS]));
		l->n++;
	}
	KUNIT_ASSERT_EQ(test, rem, 0);
	if (first || l->has[UET_A_SPRAY_VALUES_FIRST]) {
		KUNIT_ASSERT_TRUE(test, l->has[UET_A_SPRAY_VALUES_FIRST]);
		KUNIT_EXPECT_EQ(test, l->sum[UET_A_SPRAY_VALUES_FIRST], first);
	}
}

/* A message with exactly @room bytes of tailroom. */
static struct sk_buff *uet_nl_test_skb(struct kunit *test, unsigned int room)
{
	struct sk_buff *skb = alloc_skb(room, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, skb_tailroom(skb) - room);
	return skb;
}

/* List @s through messages of @room bytes, as a dump would. */
static void uet_nl_test_list(struct kunit *test, struct uet_spray *s,
			     unsigned int room, struct uet_nl_test_listing *l)
{
	struct uet_spray_value *buf;
	struct sk_buff *skb;
	u32 first = 0, n;
	int ret;

	buf = kunit_kcalloc(test, UET_NL_VALUES_MAX, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	l->n = 0;
	l->msgs = 0;
	do {
		skb = uet_nl_test_skb(test, room);
		ret = uet_nl_spray_put(skb, UET_A_DEST_SPRAY, s, first, buf,
				       &n);
		KUNIT_ASSERT_GE(test, ret, 0);
		/* Each message but the last lists something: progress. */
		KUNIT_ASSERT_TRUE(test, n > 0 || ret == 0);
		uet_nl_test_parse(test, skb, first, l);
		KUNIT_ASSERT_EQ(test, l->n, first + n);
		kfree_skb(skb);
		first += n;
		l->msgs++;
		KUNIT_ASSERT_LT(test, l->msgs, (u32)T_MAX_VALUES);
	} while (ret > 0);
}

/* The listing read back from messages equals the engine's own, whole. */
static void uet_nl_test_same(struct kunit *test, struct uet_spray *s,
			     const struct uet_nl_test_listing *l)
{
	struct uet_spray_value *want;
	u32 n, i;

	want = kunit_kcalloc(test, T_MAX_VALUES, sizeof(*want), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	n = uet_spray_get_values(s, 0, want, T_MAX_VALUES);
	KUNIT_ASSERT_EQ(test, l->n, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, l->vals[i].value, want[i].value);
		KUNIT_EXPECT_EQ(test, l->vals[i].flags, want[i].flags);
	}
}

static void uet_nl_test_whole_range(struct uet_config *c)
{
	c->active_set_size = 1U << c->entropy_mask_bits;
}

/* active: 128 values, some bad and some marked, over many messages. */
static void uet_nl_test_active(struct kunit *test)
{
	struct uet_nl_test_listing *l;
	struct uet_spray_info info;
	struct uet_spray *s;
	u16 v;
	int i;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	s = uet_nl_test_state(test, UET_SPRAY_ACTIVE, uet_nl_test_whole_range);
	for (i = 0; i < 3; i++) {
		v = uet_spray_next(s, NULL);
		uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, v, i * NSEC_PER_USEC);
		v = uet_spray_next(s, NULL);
		uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM, v, 0);
	}
	uet_spray_get_info(s, &info);
	KUNIT_ASSERT_EQ(test, info.nvals, 128U);
	KUNIT_ASSERT_EQ(test, info.nbad, 3U);
	KUNIT_ASSERT_GT(test, info.nmarked, 0U);

	uet_nl_test_list(test, s, T_SKB_ROOM, l);
	KUNIT_EXPECT_GT(test, l->msgs, 10U);
	uet_nl_test_same(test, s, l);
	KUNIT_EXPECT_TRUE(test, l->has[UET_A_SPRAY_NBAD]);
	KUNIT_EXPECT_EQ(test, l->sum[UET_A_SPRAY_NBAD], 3);
	KUNIT_EXPECT_TRUE(test, l->has[UET_A_SPRAY_PROBE]);
	KUNIT_EXPECT_EQ(test, l->sum[UET_A_SPRAY_PROBE], info.probe);
	/* The bad values come last, flagged. */
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, l->vals[l->n - 1 - i].flags &
				  UET_SPRAY_VF_BAD);
}

/* A large message holds the whole listing at once. */
static void uet_nl_test_one_message(struct kunit *test)
{
	struct uet_nl_test_listing *l;
	struct uet_spray *s;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	s = uet_nl_test_state(test, UET_SPRAY_ACTIVE, NULL);
	uet_nl_test_list(test, s, NLMSG_GOODSIZE, l);
	KUNIT_EXPECT_EQ(test, l->msgs, 1U);
	KUNIT_EXPECT_EQ(test, l->n, 72U);	/* the reference's default set */
	uet_nl_test_same(test, s, l);
}

static void uet_nl_test_reps_big(struct uet_config *c)
{
	c->reps_buf_bits = 8;
}

/* REPS: the cache, then the stale slots kept for replay. */
static void uet_nl_test_reps(struct kunit *test)
{
	struct uet_nl_test_listing *l;
	struct uet_spray_info info;
	struct uet_spray *s;
	u16 *v;
	int i;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	v = kunit_kcalloc(test, 200, sizeof(*v), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_NOT_NULL(test, v);
	s = uet_nl_test_state(test, UET_SPRAY_REPS, uet_nl_test_reps_big);
	/* 200 values explored, then acknowledged, fill 200 slots... */
	for (i = 0; i < 200; i++)
		v[i] = uet_spray_next(s, NULL);
	for (i = 0; i < 200; i++)
		uet_spray_feedback(s, UET_SPRAY_EV_ACK, v[i], 0);
	/* ...and 50 taken again leave 150 cached, 50 stale. */
	for (i = 0; i < 50; i++)
		uet_spray_next(s, NULL);
	uet_spray_get_info(s, &info);
	KUNIT_ASSERT_EQ(test, info.filled, 200U);
	KUNIT_ASSERT_EQ(test, info.cached, 150U);

	uet_nl_test_list(test, s, T_SKB_ROOM, l);
	KUNIT_EXPECT_GT(test, l->msgs, 10U);
	uet_nl_test_same(test, s, l);
	KUNIT_EXPECT_FALSE(test, l->vals[149].flags & UET_SPRAY_VF_STALE);
	KUNIT_EXPECT_TRUE(test, l->vals[150].flags & UET_SPRAY_VF_STALE);
}

/* rr lists no values: the next one is in the summary. */
static void uet_nl_test_rr(struct kunit *test)
{
	struct uet_nl_test_listing *l;
	struct uet_spray *s;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	s = uet_nl_test_state(test, UET_SPRAY_RR, NULL);
	uet_spray_next(s, NULL);
	uet_nl_test_list(test, s, T_SKB_ROOM, l);
	KUNIT_EXPECT_EQ(test, l->msgs, 1U);
	KUNIT_EXPECT_EQ(test, l->n, 0U);
	KUNIT_EXPECT_TRUE(test, l->has[UET_A_SPRAY_NEXT]);
	KUNIT_EXPECT_EQ(test, l->sum[UET_A_SPRAY_NEXT], 257);
	KUNIT_EXPECT_EQ(test, l->sum[UET_A_SPRAY_TYPE], UET_SPRAY_RR);
}

/* No room for the summary: nothing is put, the caller tries again. */
static void uet_nl_test_no_room(struct kunit *test)
{
	struct uet_spray_value *buf;
	struct uet_spray *s;
	struct sk_buff *skb;
	u32 n = 1;

	buf = kunit_kcalloc(test, UET_NL_VALUES_MAX, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	s = uet_nl_test_state(test, UET_SPRAY_REPS, NULL);
	skb = uet_nl_test_skb(test, 16);
	KUNIT_EXPECT_EQ(test, uet_nl_spray_put(skb, UET_A_DEST_SPRAY, s, 0,
					       buf, &n), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_EQ(test, skb->len, 0U);
	kfree_skb(skb);
}

static struct kunit_case uet_nl_test_cases[] = {
	KUNIT_CASE(uet_nl_test_active),
	KUNIT_CASE(uet_nl_test_one_message),
	KUNIT_CASE(uet_nl_test_reps),
	KUNIT_CASE(uet_nl_test_rr),
	KUNIT_CASE(uet_nl_test_no_room),
	{}
};

static struct kunit_suite uet_nl_test_suite = {
	.name = "uet_netlink",
	.test_cases = uet_nl_test_cases,
};

kunit_test_suite(uet_nl_test_suite);

MODULE_LICENSE("GPL");
