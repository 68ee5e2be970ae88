// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the per-PDC route cache.  Its size per spraying type, the two
 * entries a value may live in, and hits, misses, invalidation by
 * dst_check() and by a UDP port change on a route of its own, a resize
 * (a target's cache growing), one entry for every value where no route
 * depends on the port, with every reference the cache takes given back.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/xfrm.h>
#include <net/dst.h>
#include <net/net_namespace.h>
#include <uet/compat.h>
#include <uet/config.h>
#include <uet/route.h>

#define T_DPORT		4793
#define T_START		256

static bool uet_rt_test_valid;

static struct dst_entry *uet_rt_test_check(struct dst_entry *dst, u32 cookie)
{
	return uet_rt_test_valid ? dst : NULL;
}

static struct dst_ops uet_rt_test_ops = {
	.family	= AF_INET,
	.check	= uet_rt_test_check,
};

/* A route nobody else holds, checked by uet_rt_test_check(). */
static struct dst_entry *uet_rt_test_dst(struct kunit *test)
{
	struct dst_entry *dst = kunit_kzalloc(test, sizeof(*dst), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dst);
	uet_dst_init(dst, &uet_rt_test_ops, DST_OBSOLETE_FORCE_CHK,
		     DST_NOCOUNT);
	uet_rt_test_valid = true;
	return dst;
}

static void uet_rt_test_slots(struct kunit *test)
{
	struct uet_config cfg;

	uet_config_init_defaults(&cfg);
	cfg.spray = UET_SPRAY_NONE;
	KUNIT_EXPECT_EQ(test, uet_route_cache_slots(&cfg), 1);
	cfg.spray = UET_SPRAY_RR;
	cfg.entropy_mask_bits = 7;
	KUNIT_EXPECT_EQ(test, uet_route_cache_slots(&cfg), 128);
	cfg.entropy_mask_bits = 0;
	KUNIT_EXPECT_EQ(test, uet_route_cache_slots(&cfg), 1);
	cfg.spray = UET_SPRAY_ACTIVE;
	cfg.entropy_mask_bits = 8;
	KUNIT_EXPECT_EQ(test, uet_route_cache_slots(&cfg), 256);
	/* REPS: its cache's size, bounded */
	cfg.spray = UET_SPRAY_REPS;
	cfg.entropy_mask_bits = 0;
	cfg.reps_buf_bits = 3;
	KUNIT_EXPECT_EQ(test, uet_route_cache_slots(&cfg), 8);
	cfg.reps_buf_bits = UET_REPS_BUF_BITS_MAX;
	KUNIT_EXPECT_EQ(test, uet_route_cache_slots(&cfg),
			1U << UET_ROUTE_BITS_MAX);
}

/* A round robin's values never share their first entry. */
static void uet_rt_test_slot_rr(struct kunit *test)
{
	DECLARE_BITMAP(used, 1U << UET_ROUTE_BITS_MAX);
	unsigned int bits, v;

	for (bits = 0; bits <= UET_ROUTE_BITS_MAX; bits++) {
		u16 mask = (1U << bits) - 1;
		u16 start = T_START + 3 * bits;

		bitmap_zero(used, 1U << UET_ROUTE_BITS_MAX);
		for (v = 0; v <= mask; v++) {
			u32 i = uet_route_slot(mask, start + v, 0);

			KUNIT_ASSERT_LE(test, i, (u32)mask);
			KUNIT_EXPECT_FALSE(test, test_bit(i, used));
			__set_bit(i, used);
			KUNIT_EXPECT_LE(test, uet_route_slot(mask, start + v, 1),
					(u32)mask);
		}
	}
	/* Random values sharing their first entry mostly differ in their second. */
	for (v = 0, bits = 0; v < 1024; v++)
		bits += uet_route_slot(255, v, 1) !=
			uet_route_slot(255, v + 256, 1);
	KUNIT_EXPECT_GT(test, bits, 1000U);
}

static void uet_rt_test_hit_miss(struct kunit *test)
{
	struct dst_entry *dst = uet_rt_test_dst(test), *d2, *got;
	struct uet_route_cache *c = uet_route_cache_alloc(8, GFP_KERNEL);
	u16 a = T_START, b = T_START + 8;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_NULL(test, uet_route_cache_get(c, a, T_DPORT));
	uet_route_cache_set(c, a, T_DPORT, dst);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 2U);

	got = uet_route_cache_get(c, a, T_DPORT);
	KUNIT_EXPECT_PTR_EQ(test, got, dst);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 3U);
	dst_release(got);
	KUNIT_EXPECT_NULL(test, uet_route_cache_get(c, a + 1, T_DPORT));

	/* b shares a's first entry: it takes its second, both stay */
	KUNIT_ASSERT_NE(test, uet_route_slot(c->mask, b, 1),
			uet_route_slot(c->mask, a, 0));
	d2 = uet_rt_test_dst(test);
	uet_route_cache_set(c, b, T_DPORT, d2);
	got = uet_route_cache_get(c, b, T_DPORT);
	KUNIT_EXPECT_PTR_EQ(test, got, d2);
	dst_release(got);
	got = uet_route_cache_get(c, a, T_DPORT);
	KUNIT_EXPECT_PTR_EQ(test, got, dst);
	dst_release(got);

	/* set again over itself: one reference still */
	uet_route_cache_set(c, a, T_DPORT, dst);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 2U);

	uet_route_cache_free(c);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 1U);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(d2), 1U);
}

static void uet_rt_test_invalidate(struct kunit *test)
{
	struct dst_entry *dst = uet_rt_test_dst(test);
	struct uet_route_cache *c = uet_route_cache_alloc(4, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	/* the route changed: dst_check() refuses it, the entry empties */
	uet_route_cache_set(c, T_START, T_DPORT, dst);
	uet_rt_test_valid = false;
	KUNIT_EXPECT_NULL(test, uet_route_cache_get(c, T_START, T_DPORT));
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 1U);
	uet_rt_test_valid = true;
	KUNIT_EXPECT_NULL(test, uet_route_cache_get(c, T_START, T_DPORT));

	/* another UDP port: every route was looked up for the old one */
	uet_route_cache_set(c, T_START, T_DPORT, dst);
	uet_route_cache_set(c, T_START + 1, T_DPORT, dst);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 3U);
	KUNIT_EXPECT_NULL(test, uet_route_cache_get(c, T_START, T_DPORT + 1));
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 1U);
	KUNIT_EXPECT_NULL(test, uet_route_cache_get(c, T_START + 1,
						    T_DPORT + 1));
	uet_route_cache_free(c);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 1U);
	uet_route_cache_free(NULL);
}

/* A target's one entry grows: its route moves with its reference. */
static void uet_rt_test_resize(struct kunit *test)
{
	struct dst_entry *dst = uet_rt_test_dst(test), *got;
	struct uet_route_cache *c = uet_route_cache_alloc(1, GFP_KERNEL);
	unsigned int v;

	KUNIT_ASSERT_NOT_NULL(test, c);
	uet_route_cache_set(c, T_START, T_DPORT, dst);
	c = uet_route_cache_resize(c, 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, c->mask, 7);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 2U);
	got = uet_route_cache_get(c, T_START, T_DPORT);
	KUNIT_EXPECT_PTR_EQ(test, got, dst);
	dst_release(got);

	/* eight consecutive values all stay */
	for (v = 1; v < 8; v++)
		uet_route_cache_set(c, T_START + v, T_DPORT, dst);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 9U);
	for (v = 0; v < 8; v++) {
		got = uet_route_cache_get(c, T_START + v, T_DPORT);
		KUNIT_EXPECT_PTR_EQ(test, got, dst);
		dst_release(got);
	}

	/* down to one entry: it and the spare keep two, the rest go */
	c = uet_route_cache_resize(c, 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 3U);
	KUNIT_EXPECT_EQ(test, c->dport, T_DPORT);
	uet_route_cache_free(c);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 1U);
}

/*
 * A full rotation and the PDC's own value beside it: the own value takes
 * the spare and evicts nobody; a second outsider takes the spare over.
 */
static void uet_rt_test_spare(struct kunit *test)
{
	struct dst_entry *dst = uet_rt_test_dst(test), *d2, *got;
	struct uet_route_cache *c = uet_route_cache_alloc(8, GFP_KERNEL);
	u16 own = 40000;
	unsigned int v;

	KUNIT_ASSERT_NOT_NULL(test, c);
	d2 = uet_rt_test_dst(test);
	for (v = 0; v < 8; v++)
		uet_route_cache_set(c, T_START + v, T_DPORT, dst);
	uet_route_cache_set(c, own, T_DPORT, d2);
	for (v = 0; v < 8; v++) {
		got = uet_route_cache_get(c, T_START + v, T_DPORT);
		KUNIT_EXPECT_PTR_EQ(test, got, dst);
		if (got)
			dst_release(got);
	}
	got = uet_route_cache_get(c, own, T_DPORT);
	KUNIT_EXPECT_PTR_EQ(test, got, d2);
	if (got)
		dst_release(got);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(d2), 2U);

	/* set again: in place, one reference still */
	uet_route_cache_set(c, own, T_DPORT, d2);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(d2), 2U);
	uet_route_cache_set(c, own + 1, T_DPORT, dst);
	KUNIT_EXPECT_NULL(test, uet_route_cache_get(c, own, T_DPORT));
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(d2), 1U);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 10U);
	uet_route_cache_free(c);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 1U);
}

/*
 * Every value under one entry while no route depends on the port; a change
 * either way empties the cache, whose routes were looked up the other way.
 */
static void uet_rt_test_any(struct kunit *test)
{
	struct dst_entry *dst = uet_rt_test_dst(test), *got;
	struct uet_route_cache *c = uet_route_cache_alloc(8, GFP_KERNEL);
	u16 k;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, uet_route_cache_ev(c, false, 40000), 40000);
	uet_route_cache_set(c, 40000, T_DPORT, dst);

	k = uet_route_cache_ev(c, true, 40000);
	KUNIT_EXPECT_EQ(test, k, 0);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 1U);
	KUNIT_EXPECT_NULL(test, uet_route_cache_get(c, k, T_DPORT));
	uet_route_cache_set(c, k, T_DPORT, dst);
	/* any value finds the one route */
	got = uet_route_cache_get(c, uet_route_cache_ev(c, true, 123),
				  T_DPORT);
	KUNIT_EXPECT_PTR_EQ(test, got, dst);
	dst_release(got);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 2U);

	/* the ports count again: value 0 must not take the shared route */
	KUNIT_EXPECT_EQ(test, uet_route_cache_ev(c, false, 0), 0);
	KUNIT_EXPECT_EQ(test, uet_dst_refcnt(dst), 1U);
	KUNIT_EXPECT_NULL(test, uet_route_cache_get(c, 0, T_DPORT));
	uet_route_cache_free(c);
}

/* What makes a namespace's routes depend on the source port. */
static void uet_rt_test_port_free(struct kunit *test)
{
	struct net *net = &init_net;

	KUNIT_EXPECT_TRUE(test, uet_route_port_free(net, true));
#ifdef CONFIG_IP_ROUTE_MULTIPATH
	WRITE_ONCE(net->ipv4.sysctl_fib_multipath_hash_policy, 1);
	KUNIT_EXPECT_FALSE(test, uet_route_port_free(net, true));
	WRITE_ONCE(net->ipv4.sysctl_fib_multipath_hash_policy, 0);
#endif
#ifdef CONFIG_IP_MULTIPLE_TABLES
	net->ipv4.fib_rules_require_fldissect++;
	KUNIT_EXPECT_FALSE(test, uet_route_port_free(net, true));
	net->ipv4.fib_rules_require_fldissect--;
#endif
#ifdef CONFIG_XFRM
	net->xfrm.policy_count[XFRM_POLICY_OUT]++;
	KUNIT_EXPECT_FALSE(test, uet_route_port_free(net, true));
	KUNIT_EXPECT_FALSE(test, uet_route_port_free(net, false));
	net->xfrm.policy_count[XFRM_POLICY_OUT]--;
#endif
#if IS_ENABLED(CONFIG_IPV6)
	KUNIT_EXPECT_TRUE(test, uet_route_port_free(net, false));
	WRITE_ONCE(net->ipv6.sysctl.multipath_hash_policy, 1);
	KUNIT_EXPECT_FALSE(test, uet_route_port_free(net, false));
	KUNIT_EXPECT_TRUE(test, uet_route_port_free(net, true));
	WRITE_ONCE(net->ipv6.sysctl.multipath_hash_policy, 0);
#endif
	KUNIT_EXPECT_TRUE(test, uet_route_port_free(net, true));
}

static struct kunit_case uet_rt_test_cases[] = {
	KUNIT_CASE(uet_rt_test_slots),
	KUNIT_CASE(uet_rt_test_slot_rr),
	KUNIT_CASE(uet_rt_test_hit_miss),
	KUNIT_CASE(uet_rt_test_spare),
	KUNIT_CASE(uet_rt_test_invalidate),
	KUNIT_CASE(uet_rt_test_resize),
	KUNIT_CASE(uet_rt_test_any),
	KUNIT_CASE(uet_rt_test_port_free),
	{}
};

static struct kunit_suite uet_rt_test_suite = {
	.name = "uet_route",
	.test_cases = uet_rt_test_cases,
};

kunit_test_suite(uet_rt_test_suite);
