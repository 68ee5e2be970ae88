// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the spraying engine against the reference documents' rules and
 * worked examples (400 Gbit/s, 6 us, MSS 4096 unless a case says else).
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <uet/config.h>
#include <uet/spray.h>

#define T_SEED		42
#define T_KEY		0x0a000002
#define T_PORT		4000
#define T_US		NSEC_PER_USEC
#define T_RANGE_MAX	256

struct uet_spray_test_ctx {
	const struct uet_config *cfg;
	u64 key;
};

static int uet_spray_test_res_init(struct kunit_resource *res, void *context)
{
	struct uet_spray_test_ctx *ctx = context;

	res->data = uet_spray_create(ctx->cfg, ctx->key, T_PORT, GFP_KERNEL);
	return res->data ? 0 : -ENOMEM;
}

static void uet_spray_test_res_free(struct kunit_resource *res)
{
	uet_spray_destroy(res->data);
}

static bool uet_spray_test_res_match(struct kunit *test,
				     struct kunit_resource *res, void *data)
{
	return res->data == data;
}

/* A state freed when the case ends, whether it passes or not. */
static struct uet_spray *uet_spray_test_new(struct kunit *test,
					    const struct uet_config *cfg,
					    u64 key)
{
	struct uet_spray_test_ctx ctx = { .cfg = cfg, .key = key };
	struct uet_spray *s;

	s = kunit_alloc_resource(test, uet_spray_test_res_init,
				 uet_spray_test_res_free, GFP_KERNEL, &ctx);
	KUNIT_ASSERT_NOT_NULL(test, s);
	return s;
}

static void uet_spray_test_free(struct kunit *test, struct uet_spray *s)
{
	KUNIT_EXPECT_EQ(test, kunit_destroy_resource(test,
						     uet_spray_test_res_match,
						     s), 0);
}

/*
 * Defaults, with the reference's REPS cache of 8 of the worked examples,
 * the given policy, and a fixed seed: reproducible draws.
 */
static void uet_spray_test_cfg(struct uet_config *cfg, u8 spray)
{
	uet_config_init_defaults(cfg);
	cfg->reps_buf_bits = 3;
	cfg->spray = spray;
	cfg->seed = T_SEED;
}

static u16 uet_spray_test_next(struct uet_spray *s)
{
	return uet_spray_next(s, NULL);
}

/* Fill @out with the next @n values of @s. */
static void uet_spray_test_draw(struct uet_spray *s, u16 *out, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		out[i] = uet_spray_test_next(s);
}

static u16 *uet_spray_test_buf(struct kunit *test, u32 n)
{
	u16 *buf = kunit_kcalloc(test, n, sizeof(*buf), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* Expect the next @n values of @s to be @want[0..n-1]. */
static void uet_spray_test_expect_seq(struct kunit *test, struct uet_spray *s,
				      const u16 *want, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, uet_spray_test_next(s), want[i],
				    "packet %u", i);
}

static void uet_spray_test_rr_defaults(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i;

	uet_spray_test_cfg(&cfg, UET_SPRAY_RR);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_EXPECT_EQ(test, uet_spray_type(s), UET_SPRAY_RR);
	for (i = 0; i < 128; i++)
		KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), 256 + i);
	KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), 256);
}

/* The worked example: a 1 MiB message, 256 packets, each port twice. */
static void uet_spray_test_rr_message(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u16 *uses, v;
	u32 i;

	uet_spray_test_cfg(&cfg, UET_SPRAY_RR);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uses = uet_spray_test_buf(test, 128);
	for (i = 0; i < 256; i++) {
		v = uet_spray_test_next(s);
		KUNIT_ASSERT_TRUE(test, v >= 256 && v <= 383);
		uses[v - 256]++;
	}
	for (i = 0; i < 128; i++)
		KUNIT_EXPECT_EQ_MSG(test, uses[i], 2, "port %u", 256 + i);
}

static void uet_spray_test_rr_wrap(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i;

	uet_spray_test_cfg(&cfg, UET_SPRAY_RR);
	cfg.start_port = 65535;
	cfg.entropy_mask_bits = 8;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), 65535);
	for (i = 0; i <= 254; i++)
		KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), i);
	KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), 65535);
}

static void uet_spray_test_rr_zero_bits(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i;

	uet_spray_test_cfg(&cfg, UET_SPRAY_RR);
	cfg.start_port = 1000;
	cfg.entropy_mask_bits = 0;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	for (i = 0; i < 20; i++)
		KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), 1000);
}

/* Messages in flight to one destination continue one sequence. */
static void uet_spray_test_rr_messages_share(struct kunit *test)
{
	static const u32 turns[] = { 3, 5, 2, 7, 1, 4 };
	struct uet_config cfg;
	struct uet_spray *s;
	u16 want = 256;
	u32 i, j;

	uet_spray_test_cfg(&cfg, UET_SPRAY_RR);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	/* two messages take turns; feedback must not move the sequence */
	for (i = 0; i < ARRAY_SIZE(turns); i++) {
		for (j = 0; j < turns[i]; j++)
			KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), want++);
		KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT,
							 want - 1, 0), 0);
		KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM,
							 want - 1, 0), 0);
	}
}

static void uet_spray_test_none(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, res;
	u16 v;

	uet_spray_test_cfg(&cfg, UET_SPRAY_NONE);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	for (i = 0; i <= UET_SPRAY_EV_PROBE_RESP; i++) {
		KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), T_PORT);
		KUNIT_EXPECT_EQ(test, res, 0);
		KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, i, T_PORT, 0), 0);
	}
	KUNIT_EXPECT_FALSE(test, uet_spray_probe_next(s, &v));
	KUNIT_EXPECT_EQ(test, uet_spray_early_deadline_ns(s, 6000), 0);
}

/* Draw one full turn of a fresh active state: its rotation order. */
static u16 *uet_spray_test_order(struct kunit *test, struct uet_spray *s,
				 u32 *n)
{
	struct uet_spray_info info;
	u16 *order;

	uet_spray_get_info(s, &info);
	*n = info.nvals;
	order = uet_spray_test_buf(test, *n);
	uet_spray_test_draw(s, order, *n);
	return order;
}

/* The worked example: 72 values, 256 packets: 40 carry 4 and 32 carry 3. */
static void uet_spray_test_active_defaults(struct kunit *test)
{
	u32 i, n, four = 0, three = 0;
	struct uet_config cfg;
	struct uet_spray *s;
	u16 *uses, *order, v;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	KUNIT_EXPECT_EQ(test, uet_config_active_set_size(&cfg), 72);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uses = uet_spray_test_buf(test, 128);
	for (i = 0; i < 256; i++) {
		v = uet_spray_test_next(s);
		KUNIT_ASSERT_TRUE(test, v >= 256 && v <= 383);
		uses[v - 256]++;
	}
	for (i = 0; i < 128; i++) {
		KUNIT_EXPECT_TRUE(test, !uses[i] || uses[i] == 3 ||
				  uses[i] == 4);
		four += uses[i] == 4;
		three += uses[i] == 3;
	}
	KUNIT_EXPECT_EQ(test, four, 40);
	KUNIT_EXPECT_EQ(test, three, 32);

	/* a fresh state: its first 72 values are distinct */
	s = uet_spray_test_new(test, &cfg, T_KEY + 1);
	order = uet_spray_test_order(test, s, &n);
	KUNIT_ASSERT_EQ(test, n, 72);
	memset(uses, 0, 128 * sizeof(*uses));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, ++uses[order[i] - 256], 1);
}

static void uet_spray_test_active_one(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u16 first;
	u32 i;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	cfg.active_set_size = 1;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	first = uet_spray_test_next(s);
	KUNIT_EXPECT_TRUE(test, first >= 256 && first <= 383);
	for (i = 0; i < 50; i++)
		KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), first);
}

/* A set larger than the range is the whole range, each value once a turn. */
static void uet_spray_test_active_whole_range(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u16 *uses, *order;
	u32 i, n;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	cfg.active_set_size = 1000;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);
	KUNIT_ASSERT_EQ(test, n, 128);
	uses = uet_spray_test_buf(test, 128);
	for (i = 0; i < n; i++)
		uses[order[i] - 256]++;
	for (i = 0; i < 128; i++)
		KUNIT_EXPECT_EQ(test, uses[i], 1);

	cfg.entropy_mask_bits = 8;
	cfg.active_set_size = 65536;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);
	KUNIT_EXPECT_EQ(test, n, 256);
}

/* The range must fit below 65536: 65408 at 7 bits, 65280 at 8. */
static void uet_spray_test_active_offset_limit(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u16 v;
	u32 i;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	cfg.start_port = 65408;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&cfg, NULL), 0);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	for (i = 0; i < 200; i++) {
		v = uet_spray_test_next(s);
		KUNIT_EXPECT_GE(test, v, 65408);
	}
	cfg.start_port = 65409;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&cfg, NULL), -EINVAL);
	KUNIT_EXPECT_NULL(test, uet_spray_create(&cfg, T_KEY, T_PORT,
						 GFP_KERNEL));
	cfg.entropy_mask_bits = 8;
	cfg.start_port = 65280;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&cfg, NULL), 0);
	cfg.start_port = 65281;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&cfg, NULL), -EINVAL);
}

/* A trimmed value is passed over once, then used again. */
static void uet_spray_test_active_mark(struct kunit *test)
{
	struct uet_spray_info info;
	struct uet_config cfg;
	struct uet_spray *s;
	u16 *order;
	u32 n, res;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM,
						 order[2], 0),
			UET_SPRAY_R_MARK);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM,
						 order[2], 0), 0);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.nmarked, 1);
	uet_spray_test_expect_seq(test, s, order, 2);
	KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), order[3]);
	KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_SKIP);
	uet_spray_test_expect_seq(test, s, order + 4, n - 4);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.nmarked, 0);
	/* the mark is gone: the next turn is whole */
	uet_spray_test_expect_seq(test, s, order, n);
}

/*
 * order[1] and the 7 after it are marked: order[1] is used (all 7 marked),
 * then order[2] is cleared and passed over to order[9].  Only the first
 * marked value a packet meets is cleared, so order[3..8] stay marked.
 */
static void uet_spray_test_active_skip_seven(struct kunit *test)
{
	struct uet_spray_info info;
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, n, res;
	u16 *order;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);
	for (i = 1; i <= 8; i++)
		uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM, order[i], 0);

	uet_spray_test_expect_seq(test, s, order, 1);
	KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), order[1]);
	KUNIT_EXPECT_EQ(test, res, 0);
	KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), order[9]);
	KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_SKIP);
	uet_spray_test_expect_seq(test, s, order + 10, n - 10);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.nmarked, 6);

	/* next turn: order[3] is the first marked value met */
	uet_spray_test_expect_seq(test, s, order, 3);
	KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), order[9]);
	uet_spray_test_expect_seq(test, s, order + 10, n - 10);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.nmarked, 5);
}

/* Fewer than 8 values, all marked: the cleared one is used. */
static void uet_spray_test_active_all_marked(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u16 *order;
	u32 i, n, res;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	cfg.active_set_size = 3;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);
	KUNIT_ASSERT_EQ(test, n, 3);
	for (i = 0; i < n; i++)
		uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM, order[i], 0);
	KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), order[0]);
	KUNIT_EXPECT_EQ(test, res, 0);
}

/* Only a trim on the way marks; nothing else but a timeout changes a thing. */
static void uet_spray_test_active_ignored(struct kunit *test)
{
	static const enum uet_spray_event evs[] = {
		UET_SPRAY_EV_ACK, UET_SPRAY_EV_ACK_ECN,
		UET_SPRAY_EV_NACK_TRIM_LAST_HOP, UET_SPRAY_EV_NACK,
		UET_SPRAY_EV_SACK_LOSS, UET_SPRAY_EV_EARLY_DEADLINE,
		UET_SPRAY_EV_PROBE_RESP,
	};
	struct uet_spray *s, *twin;
	struct uet_config cfg;
	u16 *uses, *order, out = 0;
	u32 i, n;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	twin = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);
	uet_spray_test_expect_seq(test, twin, order, n);
	for (i = 0; i < ARRAY_SIZE(evs); i++)
		KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, evs[i],
							 order[i], 0), 0);

	/* values outside the set: one in the range, one outside it */
	uses = uet_spray_test_buf(test, 128);
	for (i = 0; i < n; i++)
		uses[order[i] - 256] = 1;
	for (i = 0; i < 128 && !out; i++)
		if (!uses[i])
			out = 256 + i;
	KUNIT_ASSERT_NE(test, out, 0);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM,
						 out, 0), 0);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT,
						 out, 0), 0);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT,
						 100, 0), 0);

	for (i = 0; i < 3 * n; i++)
		KUNIT_EXPECT_EQ(test, uet_spray_test_next(s),
				uet_spray_test_next(twin));
}

/* A timeout takes a value out until its probe is answered. */
static void uet_spray_test_active_bad(struct kunit *test)
{
	struct uet_spray_info info;
	struct uet_config cfg;
	struct uet_spray *s;
	u16 *order, v;
	u32 i, n;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);

	/* a mark does not survive the value going bad */
	uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM, order[5], 0);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT,
						 order[5], 0),
			UET_SPRAY_R_BAD);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT,
						 order[5], 0), 0);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM,
						 order[5], 0), 0);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.nbad, 1);
	KUNIT_EXPECT_EQ(test, info.nmarked, 0);

	for (i = 0; i < 3; i++) {
		uet_spray_test_expect_seq(test, s, order, 5);
		uet_spray_test_expect_seq(test, s, order + 6, n - 6);
	}
	KUNIT_EXPECT_TRUE(test, uet_spray_probe_next(s, &v));
	KUNIT_EXPECT_EQ(test, v, order[5]);

	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_PROBE_RESP,
						 order[5], 0),
			UET_SPRAY_R_RESTORE);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_PROBE_RESP,
						 order[5], 0), 0);
	KUNIT_EXPECT_FALSE(test, uet_spray_probe_next(s, &v));
	/* back in, last in the current turn, then in that place for good */
	uet_spray_test_expect_seq(test, s, order, 5);
	uet_spray_test_expect_seq(test, s, order + 6, n - 6);
	KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), order[5]);
	uet_spray_test_expect_seq(test, s, order, 5);
	uet_spray_test_expect_seq(test, s, order + 6, n - 6);
	KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), order[5]);

	/* the value the rotation was about to take goes bad: the next one */
	uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, order[0], 0);
	uet_spray_test_expect_seq(test, s, order + 1, 4);
}

/* Every value bad: all are used anyway, in probe order. */
static void uet_spray_test_active_all_bad(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, n, res;
	u16 *order;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	cfg.active_set_size = 4;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);
	KUNIT_ASSERT_EQ(test, n, 4);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, uet_spray_feedback(s,
							 UET_SPRAY_EV_TIMEOUT,
							 order[i], 0),
				UET_SPRAY_R_BAD);
	/* in the order they went bad, the probe order */
	for (i = 0; i < 4 * n; i++) {
		KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), order[i % n]);
		KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_ALL_BAD);
	}

	/* one answered probe: that value alone carries the traffic */
	uet_spray_feedback(s, UET_SPRAY_EV_PROBE_RESP, order[2], 0);
	for (i = 0; i < 10; i++) {
		KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), order[2]);
		KUNIT_EXPECT_EQ(test, res, 0);
	}
}

/* 3 values bad, a probe every 150 us: each is probed every 450 us. */
static void uet_spray_test_active_probe_rotation(struct kunit *test)
{
	u64 last[3] = { 0 }, t, period;
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, k, n, probed[3] = { 0 };
	u16 *order, v;

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	period = cfg.probe_period_ns;
	KUNIT_EXPECT_EQ(test, period, 150 * T_US);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);
	KUNIT_EXPECT_FALSE(test, uet_spray_probe_next(s, &v));
	for (k = 0; k < 3; k++)
		uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, order[10 + k], 0);

	for (i = 1; i <= 30; i++) {
		t = i * period;
		KUNIT_ASSERT_TRUE(test, uet_spray_probe_next(s, &v));
		for (k = 0; k < 3 && v != order[10 + k]; k++)
			;
		KUNIT_ASSERT_LT(test, k, 3);
		if (probed[k]++)
			KUNIT_EXPECT_EQ(test, t - last[k], 450 * T_US);
		last[k] = t;
	}
	for (k = 0; k < 3; k++) {
		KUNIT_EXPECT_EQ(test, probed[k], 10);
		uet_spray_feedback(s, UET_SPRAY_EV_PROBE_RESP, order[10 + k],
				   0);
	}
	KUNIT_EXPECT_FALSE(test, uet_spray_probe_next(s, &v));
}

static void uet_spray_test_reps_explore_first(struct kunit *test)
{
	struct uet_spray_info info;
	struct uet_config cfg;
	struct uet_spray *s;
	u16 *uses, v;
	u32 i, res;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.nvals, 8);
	KUNIT_EXPECT_EQ(test, info.phase, UET_SPRAY_PHASE_NORMAL);
	for (i = 0; i < 20; i++) {
		uet_spray_next(s, &res);
		KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_EXPLORE);
	}

	/* exploration draws from [0, EntropyValueSetSize - 1] */
	cfg.ev_set_size = 16;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uses = uet_spray_test_buf(test, 16);
	for (i = 0; i < 1000; i++) {
		v = uet_spray_test_next(s);
		KUNIT_ASSERT_LT(test, v, 16);
		uses[v]++;
	}
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_GT(test, uses[i], 0);
}

static void uet_spray_test_reps_fifo(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, res;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	for (i = 1; i <= 3; i++)
		KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_ACK,
							 10 * i, 0),
				UET_SPRAY_R_RECYCLE);
	for (i = 1; i <= 3; i++) {
		KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), 10 * i);
		KUNIT_EXPECT_EQ(test, res, 0);
	}
	uet_spray_next(s, &res);
	KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_EXPLORE);
	/* a value is sent on once for each time it is recycled */
	uet_spray_feedback(s, UET_SPRAY_EV_ACK, 77, 0);
	uet_spray_feedback(s, UET_SPRAY_EV_ACK, 77, 0);
	KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), 77);
	KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), 77);
	uet_spray_next(s, &res);
	KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_EXPLORE);
}

static void uet_spray_test_reps_overwrite(struct kunit *test)
{
	struct uet_spray_info info;
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, res;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	for (i = 0; i < 10; i++)
		uet_spray_feedback(s, UET_SPRAY_EV_ACK, 100 + i, 0);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.cached, 8);
	for (i = 2; i < 10; i++) {
		KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), 100 + i);
		KUNIT_EXPECT_EQ(test, res, 0);
	}
	uet_spray_next(s, &res);
	KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_EXPLORE);
}

static void uet_spray_test_reps_discard(struct kunit *test)
{
	static const enum uet_spray_event evs[] = {
		UET_SPRAY_EV_ACK_ECN, UET_SPRAY_EV_NACK_TRIM,
		UET_SPRAY_EV_NACK_TRIM_LAST_HOP, UET_SPRAY_EV_NACK,
		UET_SPRAY_EV_SACK_LOSS,
	};
	struct uet_spray_info info;
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, res;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	for (i = 0; i < ARRAY_SIZE(evs); i++)
		KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, evs[i], 500 + i, 0),
				UET_SPRAY_R_DISCARD);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_PROBE_RESP,
						 600, 0), 0);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.cached, 0);
	KUNIT_EXPECT_EQ(test, info.filled, 0);
	uet_spray_next(s, &res);
	KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_EXPLORE);
}

/* Freezing lasts FreezingTimeout at least, and until the next recycle. */
static void uet_spray_test_reps_freeze(struct kunit *test)
{
	u64 t0 = 1000 * T_US, timeout;
	struct uet_spray_info info;
	struct uet_config cfg;
	struct uet_spray *s;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	timeout = cfg.freeze_timeout_ns;
	KUNIT_EXPECT_EQ(test, timeout, 100 * T_US);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, 1,
						 t0),
			UET_SPRAY_R_FREEZE);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.phase, UET_SPRAY_PHASE_FREEZING);
	KUNIT_EXPECT_EQ(test, info.freeze_start_ns, t0);

	/* recycles before the timeout do not end it */
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_ACK, 2,
						 t0 + 50 * T_US),
			UET_SPRAY_R_RECYCLE);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_ACK, 3,
						 t0 + timeout - 1),
			UET_SPRAY_R_RECYCLE);
	/* past the timeout, only a recycle ends it */
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_ACK_ECN, 4,
						 t0 + 300 * T_US),
			UET_SPRAY_R_DISCARD);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.phase, UET_SPRAY_PHASE_FREEZING);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_ACK, 5,
						 t0 + 300 * T_US),
			UET_SPRAY_R_RECYCLE | UET_SPRAY_R_THAW);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.phase, UET_SPRAY_PHASE_WINDOW);
	KUNIT_EXPECT_EQ(test, info.window_left, 71);
	KUNIT_EXPECT_EQ(test, info.cached, 3);

	/* exactly at the timeout is "has passed" */
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, 1, t0);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_ACK, 2,
						 t0 + timeout),
			UET_SPRAY_R_RECYCLE | UET_SPRAY_R_THAW);
}

/*
 * Frozen: nothing explores once something was ever cached; an empty
 * cache replays its slots in turn.  Frozen before anything was cached:
 * explore, there is nothing to replay.
 */
static void uet_spray_test_reps_replay(struct kunit *test)
{
	static const u16 replay1[] = { 1, 2, 3, 1, 2, 3, 1 };
	static const u16 replay2[] = { 9, 2, 3, 9, 1, 2 };
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, res;
	u16 taken[3];

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, 50, 0);
	uet_spray_next(s, &res);
	KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_EXPLORE);

	s = uet_spray_test_new(test, &cfg, T_KEY);
	for (i = 1; i <= 3; i++)
		uet_spray_feedback(s, UET_SPRAY_EV_ACK, i, 0);
	uet_spray_test_draw(s, taken, 3);
	uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, 50, 0);
	for (i = 0; i < ARRAY_SIZE(replay1); i++) {
		KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), replay1[i]);
		KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_REPLAY);
	}
	/* a recycle is reused first; replay goes on from where it was */
	uet_spray_feedback(s, UET_SPRAY_EV_ACK, 9, 1);
	for (i = 0; i < ARRAY_SIZE(replay2); i++) {
		KUNIT_EXPECT_EQ(test, uet_spray_next(s, &res), replay2[i]);
		KUNIT_EXPECT_EQ(test, res, i ? UET_SPRAY_R_REPLAY : 0);
	}
}

/*
 * Thaw @s: cache one value, freeze at 0, recycle after the timeout.
 * Return: the phase it ends in.
 */
static u8 uet_spray_test_thaw(struct uet_spray *s, const struct uet_config *cfg)
{
	struct uet_spray_info info;

	uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, 1, 0);
	uet_spray_feedback(s, UET_SPRAY_EV_ACK, 1, cfg->freeze_timeout_ns);
	uet_spray_get_info(s, &info);
	return info.phase;
}

/* The worked example: a window of 71, of which the 7th, 15th .. 71st explore. */
static void uet_spray_test_reps_window(struct kunit *test)
{
	struct uet_spray_info info;
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, res, explored = 0;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	KUNIT_EXPECT_EQ(test, uet_config_reps_window(&cfg), 71);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_ASSERT_EQ(test, uet_spray_test_thaw(s, &cfg),
			UET_SPRAY_PHASE_WINDOW);
	/* keep a value cached, so "as usual" never explores */
	for (i = 1; i <= 71; i++) {
		uet_spray_feedback(s, UET_SPRAY_EV_ACK, 1000 + i, 0);
		uet_spray_next(s, &res);
		if (res & UET_SPRAY_R_EXPLORE)
			explored++;
		KUNIT_EXPECT_EQ_MSG(test, !!(res & UET_SPRAY_R_EXPLORE),
				    i % 8 == 7, "packet %u", i);
	}
	KUNIT_EXPECT_EQ(test, explored, 9);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.phase, UET_SPRAY_PHASE_NORMAL);
	KUNIT_EXPECT_EQ(test, info.window_left, 0);
	uet_spray_feedback(s, UET_SPRAY_EV_ACK, 2000, 0);
	uet_spray_next(s, &res);
	KUNIT_EXPECT_EQ(test, res, 0);
}

/* A cache of 1: every packet of the window explores. */
static void uet_spray_test_reps_window_bits0(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, res;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	cfg.reps_buf_bits = 0;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_ASSERT_EQ(test, uet_spray_test_thaw(s, &cfg),
			UET_SPRAY_PHASE_WINDOW);
	for (i = 1; i <= 71; i++) {
		uet_spray_feedback(s, UET_SPRAY_EV_ACK, 1000 + i, 0);
		uet_spray_next(s, &res);
		KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_EXPLORE);
	}
	uet_spray_next(s, &res);
	KUNIT_EXPECT_EQ(test, res, 0);
}

/* No new freezing while freezing or in the window; again after it. */
static void uet_spray_test_reps_no_refreeze(struct kunit *test)
{
	struct uet_spray_info info;
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, 1,
						 10),
			UET_SPRAY_R_FREEZE);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, 2,
						 20), 0);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s,
						 UET_SPRAY_EV_EARLY_DEADLINE,
						 3, 30), 0);
	uet_spray_get_info(s, &info);
	KUNIT_EXPECT_EQ(test, info.freeze_start_ns, 10);

	uet_spray_feedback(s, UET_SPRAY_EV_ACK, 4, 10 + cfg.freeze_timeout_ns);
	uet_spray_get_info(s, &info);
	KUNIT_ASSERT_EQ(test, info.phase, UET_SPRAY_PHASE_WINDOW);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, 5,
						 0), 0);
	for (i = 0; i < 70; i++)
		uet_spray_test_next(s);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s,
						 UET_SPRAY_EV_EARLY_DEADLINE,
						 6, 0), 0);
	uet_spray_test_next(s);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s,
						 UET_SPRAY_EV_EARLY_DEADLINE,
						 7, 0),
			UET_SPRAY_R_FREEZE);
}

/* FailureDetectionRTTMultiplier x base RTT: 18 us at the defaults. */
static void uet_spray_test_reps_early_deadline(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_EXPECT_EQ(test, uet_spray_early_deadline_ns(s, cfg.base_rtt_ns),
			18 * T_US);
	KUNIT_EXPECT_EQ(test, uet_spray_early_deadline_ns(s, 4000), 12 * T_US);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s,
						 UET_SPRAY_EV_EARLY_DEADLINE,
						 1, 0),
			UET_SPRAY_R_FREEZE);

	cfg.fail_detect_mult = 0;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_EXPECT_EQ(test, uet_spray_early_deadline_ns(s, 6000), 0);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s,
						 UET_SPRAY_EV_EARLY_DEADLINE,
						 1, 0), 0);
	KUNIT_EXPECT_EQ(test, uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, 1,
						 0),
			UET_SPRAY_R_FREEZE);

	/* early detection is REPS's only */
	cfg.fail_detect_mult = 3;
	cfg.spray = UET_SPRAY_ACTIVE;
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_EXPECT_EQ(test, uet_spray_early_deadline_ns(s, 6000), 0);
}

/* Drive @s through packets and feedback that depend only on its choices. */
static void uet_spray_test_drive(struct uet_spray *s, u16 *out, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		out[i] = uet_spray_test_next(s);
		if (i % 50 == 49)
			uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, out[i],
					   i * T_US);
		else if (i % 7 == 3)
			uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM, out[i],
					   i * T_US);
		else if (i >= 4)
			uet_spray_feedback(s, UET_SPRAY_EV_ACK, out[i - 4],
					   i * T_US);
		if (i % 60 == 59)
			uet_spray_feedback(s, UET_SPRAY_EV_PROBE_RESP,
					   out[i - 10], i * T_US);
	}
}

/* Same seed, destination and inputs: the same choices. */
static void uet_spray_test_same_seed(struct kunit *test)
{
	static const u8 types[] = { UET_SPRAY_ACTIVE, UET_SPRAY_REPS };
	struct uet_config cfg;
	u16 *a, *b;
	u32 i, j, n = 600, diff = 0;

	a = uet_spray_test_buf(test, n);
	b = uet_spray_test_buf(test, n);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		uet_spray_test_cfg(&cfg, types[i]);
		uet_spray_test_drive(uet_spray_test_new(test, &cfg, T_KEY), a,
				     n);
		uet_spray_test_drive(uet_spray_test_new(test, &cfg, T_KEY), b,
				     n);
		KUNIT_EXPECT_EQ(test, memcmp(a, b, n * sizeof(*a)), 0);
	}
	/* another destination draws another active set */
	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	uet_spray_test_draw(uet_spray_test_new(test, &cfg, T_KEY), a, 72);
	uet_spray_test_draw(uet_spray_test_new(test, &cfg, T_KEY + 1), b, 72);
	for (j = 0; j < 72; j++)
		diff += a[j] != b[j];
	KUNIT_EXPECT_GT(test, diff, 0);
}

/* A new group starts new state; seed 0 draws a new active set. */
static void uet_spray_test_fresh_state(struct kunit *test)
{
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, res, diff = 0;
	u16 *a, *b;

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	for (i = 0; i < 8; i++)
		uet_spray_feedback(s, UET_SPRAY_EV_ACK, i, 0);
	uet_spray_test_free(test, s);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uet_spray_next(s, &res);
	KUNIT_EXPECT_EQ(test, res, UET_SPRAY_R_EXPLORE);

	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	cfg.seed = 0;
	a = uet_spray_test_buf(test, 72);
	b = uet_spray_test_buf(test, 72);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uet_spray_test_draw(s, a, 72);
	uet_spray_test_free(test, s);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uet_spray_test_draw(s, b, 72);
	for (i = 0; i < 72; i++)
		diff += a[i] != b[i];
	KUNIT_EXPECT_GT(test, diff, 0);

	uet_spray_test_cfg(&cfg, UET_SPRAY_RR);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	uet_spray_test_draw(s, a, 10);
	uet_spray_test_free(test, s);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	KUNIT_EXPECT_EQ(test, uet_spray_test_next(s), 256);
}

/* The dump: active's rotation then its bad values; REPS's cache. */
static void uet_spray_test_values(struct kunit *test)
{
	struct uet_spray_value *vals;
	struct uet_config cfg;
	struct uet_spray *s;
	u32 i, n, got;
	u16 *order, taken[2];

	vals = kunit_kcalloc(test, T_RANGE_MAX, sizeof(*vals), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, vals);
	uet_spray_test_cfg(&cfg, UET_SPRAY_ACTIVE);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	order = uet_spray_test_order(test, s, &n);
	uet_spray_feedback(s, UET_SPRAY_EV_TIMEOUT, order[0], 0);
	uet_spray_feedback(s, UET_SPRAY_EV_NACK_TRIM, order[3], 0);
	got = uet_spray_get_values(s, 0, vals, T_RANGE_MAX);
	KUNIT_ASSERT_EQ(test, got, n);
	for (i = 0; i < n - 1; i++) {
		KUNIT_EXPECT_EQ(test, vals[i].value, order[i + 1]);
		KUNIT_EXPECT_EQ(test, vals[i].flags,
				i == 2 ? UET_SPRAY_VF_MARKED : 0);
	}
	KUNIT_EXPECT_EQ(test, vals[n - 1].value, order[0]);
	KUNIT_EXPECT_EQ(test, vals[n - 1].flags, UET_SPRAY_VF_BAD);
	/* resumed dumps see the same listing */
	KUNIT_EXPECT_EQ(test, uet_spray_get_values(s, 70, vals, 5), 2);
	KUNIT_EXPECT_EQ(test, vals[0].value, order[71]);
	KUNIT_EXPECT_EQ(test, vals[1].value, order[0]);

	uet_spray_test_cfg(&cfg, UET_SPRAY_REPS);
	s = uet_spray_test_new(test, &cfg, T_KEY);
	for (i = 1; i <= 4; i++)
		uet_spray_feedback(s, UET_SPRAY_EV_ACK, i, 0);
	uet_spray_test_draw(s, taken, 2);
	got = uet_spray_get_values(s, 0, vals, T_RANGE_MAX);
	KUNIT_ASSERT_EQ(test, got, 4);
	KUNIT_EXPECT_EQ(test, vals[0].value, 3);
	KUNIT_EXPECT_EQ(test, vals[1].value, 4);
	KUNIT_EXPECT_EQ(test, vals[2].value, 1);
	KUNIT_EXPECT_EQ(test, vals[2].flags, UET_SPRAY_VF_STALE);
	KUNIT_EXPECT_EQ(test, vals[3].value, 2);
}

static struct kunit_case uet_spray_test_cases[] = {
	KUNIT_CASE(uet_spray_test_rr_defaults),
	KUNIT_CASE(uet_spray_test_rr_message),
	KUNIT_CASE(uet_spray_test_rr_wrap),
	KUNIT_CASE(uet_spray_test_rr_zero_bits),
	KUNIT_CASE(uet_spray_test_rr_messages_share),
	KUNIT_CASE(uet_spray_test_none),
	KUNIT_CASE(uet_spray_test_active_defaults),
	KUNIT_CASE(uet_spray_test_active_one),
	KUNIT_CASE(uet_spray_test_active_whole_range),
	KUNIT_CASE(uet_spray_test_active_offset_limit),
	KUNIT_CASE(uet_spray_test_active_mark),
	KUNIT_CASE(uet_spray_test_active_skip_seven),
	KUNIT_CASE(uet_spray_test_active_all_marked),
	KUNIT_CASE(uet_spray_test_active_ignored),
	KUNIT_CASE(uet_spray_test_active_bad),
	KUNIT_CASE(uet_spray_test_active_all_bad),
	KUNIT_CASE(uet_spray_test_active_probe_rotation),
	KUNIT_CASE(uet_spray_test_reps_explore_first),
	KUNIT_CASE(uet_spray_test_reps_fifo),
	KUNIT_CASE(uet_spray_test_reps_overwrite),
	KUNIT_CASE(uet_spray_test_reps_discard),
	KUNIT_CASE(uet_spray_test_reps_freeze),
	KUNIT_CASE(uet_spray_test_reps_replay),
	KUNIT_CASE(uet_spray_test_reps_window),
	KUNIT_CASE(uet_spray_test_reps_window_bits0),
	KUNIT_CASE(uet_spray_test_reps_no_refreeze),
	KUNIT_CASE(uet_spray_test_reps_early_deadline),
	KUNIT_CASE(uet_spray_test_same_seed),
	KUNIT_CASE(uet_spray_test_fresh_state),
	KUNIT_CASE(uet_spray_test_values),
	{}
};

static struct kunit_suite uet_spray_test_suite = {
	.name = "uet_spray",
	.test_cases = uet_spray_test_cases,
};

kunit_test_suite(uet_spray_test_suite);
