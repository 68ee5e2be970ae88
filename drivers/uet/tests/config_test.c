// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the configuration's defaults, the range of every attribute as the
 * netlink policy enforces it, and the rules that span attributes.
 */
#include <kunit/test.h>
#include <linux/netlink.h>
#include <net/netlink.h>
#include <uet/config.h>
#include <uet/net.h>
#include <uet/netlink-gen.h>

static void uet_cfg_test_defaults(struct kunit *test)
{
	struct uet_config c;

	uet_config_init_defaults(&c);
	KUNIT_EXPECT_EQ(test, c.spray, UET_SPRAY_RR);
	KUNIT_EXPECT_EQ(test, c.entropy_mask_bits, 7);
	KUNIT_EXPECT_EQ(test, c.start_port, 256);
	KUNIT_EXPECT_EQ(test, c.active_set_size, 0);
	KUNIT_EXPECT_EQ(test, c.reps_buf_bits, 8);
	KUNIT_EXPECT_EQ(test, c.ev_set_size, 65536);
	KUNIT_EXPECT_EQ(test, c.freeze_timeout_ns, 100000);
	KUNIT_EXPECT_EQ(test, c.fail_detect_mult, 3);
	KUNIT_EXPECT_EQ(test, c.probe_period_ns, 150000);
	KUNIT_EXPECT_EQ(test, c.pdc_groups, 1);
	KUNIT_EXPECT_EQ(test, c.link_rate_mbps, 400000);
	KUNIT_EXPECT_EQ(test, c.base_rtt_ns, 6000);
	KUNIT_EXPECT_EQ(test, c.mss, 4096);
	KUNIT_EXPECT_EQ(test, c.udp_port, 4793);
	KUNIT_EXPECT_EQ(test, c.seed, 0);
	KUNIT_EXPECT_EQ(test, c.ack_delay_us, 0);
	KUNIT_EXPECT_EQ(test, c.spray_burst, 1);
	KUNIT_EXPECT_EQ(test, c.superpackets, 1);
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), 0);
}

/* The reference worked examples: 300,000 B BDP, 72 active values, 71. */
static void uet_cfg_test_derived(struct kunit *test)
{
	struct uet_config c;

	uet_config_init_defaults(&c);
	KUNIT_EXPECT_EQ(test, uet_config_bdp_bytes(&c, c.base_rtt_ns), 300000);
	KUNIT_EXPECT_EQ(test, uet_config_active_set_size(&c), 72);
	KUNIT_EXPECT_EQ(test, uet_config_reps_window(&c), 71);

	c.active_set_size = 1;
	KUNIT_EXPECT_EQ(test, uet_config_active_set_size(&c), 1);
	c.active_set_size = 1000;	/* no cap of 100 when set explicitly */
	KUNIT_EXPECT_EQ(test, uet_config_active_set_size(&c), 128);
	c.entropy_mask_bits = 8;
	KUNIT_EXPECT_EQ(test, uet_config_active_set_size(&c), 256);
	c.active_set_size = 0;
	c.base_rtt_ns = 100000;		/* 1,250,000 B: capped at 100 */
	KUNIT_EXPECT_EQ(test, uet_config_active_set_size(&c), 100);
	c.base_rtt_ns = 100;		/* a packet is larger than the BDP */
	KUNIT_EXPECT_EQ(test, uet_config_active_set_size(&c), 1);
	c.entropy_mask_bits = 0;
	c.base_rtt_ns = 6000;
	KUNIT_EXPECT_EQ(test, uet_config_active_set_size(&c), 1);
}

/**
 * struct uet_cfg_range - the range the policy must enforce on an attribute
 * @attr: UET_A_CFG_* attribute
 * @size: its integer size in bytes
 * @min: smallest value accepted
 * @max: largest value accepted
 */
struct uet_cfg_range {
	int attr;
	int size;
	u64 min;
	u64 max;
};

static const struct uet_cfg_range uet_cfg_ranges[] = {
	{ UET_A_CFG_SPRAY, 1, 0, UET_SPRAY_MAX },
	{ UET_A_CFG_ENTROPY_MASK_BITS, 1, 0, 8 },
	{ UET_A_CFG_START_PORT, 2, 0, U16_MAX },
	{ UET_A_CFG_ACTIVE_SET_SIZE, 4, 0, 65536 },
	{ UET_A_CFG_REPS_BUF_BITS, 1, 0, 16 },
	{ UET_A_CFG_EV_SET_SIZE, 4, 1, 65536 },
	{ UET_A_CFG_FREEZE_TIMEOUT_NS, 4, 1000, 1000000000 },
	{ UET_A_CFG_FAIL_DETECT_MULT, 1, 0, U8_MAX },
	{ UET_A_CFG_PROBE_PERIOD_NS, 4, 1000, 1000000000 },
	{ UET_A_CFG_PDC_GROUPS, 1, 0, 1 },
	{ UET_A_CFG_LINK_RATE_MBPS, 4, 1, 1600000 },
	{ UET_A_CFG_BASE_RTT_NS, 4, 100, 100000000 },
	{ UET_A_CFG_MSS, 4, 256, 16384 },
	{ UET_A_CFG_UDP_PORT, 2, 1, U16_MAX },
	{ UET_A_CFG_PDC_IDLE_MS, 4, 1, 3600000 },
	{ UET_A_CFG_RTO_MIN_US, 4, 10, 60000000 },
	{ UET_A_CFG_RTO_MAX_US, 4, 10, 60000000 },
	{ UET_A_CFG_MAX_RETX, 1, 1, U8_MAX },
	{ UET_A_CFG_SEED, 8, 0, U64_MAX },
	{ UET_A_CFG_SACK_RETX_THRESH, 2, 1, 1024 },
	{ UET_A_CFG_UDP_CSUM_TX, 1, 0, 1 },
	{ UET_A_CFG_UDP_RX_ZERO_CSUM, 1, 0, 1 },
	{ UET_A_CFG_ACK_DELAY_US, 4, 0, 8000 },
	{ UET_A_CFG_SPRAY_BURST, 1, 1, 64 },
	{ UET_A_CFG_SUPERPACKETS, 1, 0, 1 },
};

/**
 * struct uet_cfg_edge - one value at or just past an edge of a range
 * @attr: UET_A_CFG_* attribute
 * @size: its integer size in bytes
 * @value: value to offer
 * @ok: whether the policy must accept it
 */
struct uet_cfg_edge {
	int attr;
	int size;
	u64 value;
	bool ok;
};

/* Four edges a range: min and max accepted, min - 1 and max + 1 refused. */
static struct uet_cfg_edge uet_cfg_edges[ARRAY_SIZE(uet_cfg_ranges) * 4];

static bool uet_cfg_edge_make(unsigned int i, struct uet_cfg_edge *e)
{
	const struct uet_cfg_range *r = &uet_cfg_ranges[i / 4];
	u64 type_max = r->size == 8 ? U64_MAX : BIT_ULL(8 * r->size) - 1;

	e->attr = r->attr;
	e->size = r->size;
	switch (i % 4) {
	case 0:
		e->value = r->min;
		e->ok = true;
		return true;
	case 1:
		e->value = r->max;
		e->ok = true;
		return true;
	case 2:
		e->value = r->min - 1;
		e->ok = false;
		return r->min > 0;
	default:
		e->value = r->max + 1;
		e->ok = false;
		return r->max < type_max;
	}
}

/* Parameters: every edge that the attribute's integer type can carry. */
static const void *uet_cfg_edge_gen_params(const void *prev, char *desc)
{
	const struct uet_cfg_edge *e = prev;
	unsigned int i = prev ? e - uet_cfg_edges + 1 : 0;

	for (; i < ARRAY_SIZE(uet_cfg_edges); i++) {
		if (!uet_cfg_edge_make(i, &uet_cfg_edges[i]))
			continue;
		e = &uet_cfg_edges[i];
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "attr %d value %llu %s",
			 e->attr, e->value, e->ok ? "accepted" : "refused");
		return e;
	}
	return NULL;
}

/* One attribute as the kernel would receive it, checked by the policy. */
static void uet_cfg_test_policy_edge(struct kunit *test)
{
	const struct uet_cfg_edge *e = test->param_value;
	struct {
		struct nlattr nla;
		u64 data;
	} buf = {};
	void *data = nla_data(&buf.nla);
	struct netlink_ext_ack extack = {};
	int err;

	buf.nla.nla_type = e->attr;
	buf.nla.nla_len = nla_attr_size(e->size);
	switch (e->size) {
	case 1:
		*(u8 *)data = e->value;
		break;
	case 2:
		*(u16 *)data = e->value;
		break;
	case 4:
		*(u32 *)data = e->value;
		break;
	default:
		*(u64 *)data = e->value;
		break;
	}
	err = nla_validate(&buf.nla, nla_total_size(e->size), UET_A_CFG_MAX,
			   uet_config_set_nl_policy, &extack);
	if (e->ok) {
		KUNIT_EXPECT_EQ(test, err, 0);
	} else {
		KUNIT_EXPECT_EQ(test, err, -ERANGE);
		KUNIT_EXPECT_PTR_EQ(test, extack.bad_attr,
				    (const struct nlattr *)&buf.nla);
		KUNIT_EXPECT_PTR_EQ(test, extack.policy,
				    &uet_config_set_nl_policy[e->attr]);
	}
}

/* MRC NIC: StartingPortOffset + 2^EntropyMaskBits - 1 <= 65535 (active). */
static void uet_cfg_test_active_range_rule(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct uet_config c;

	uet_config_init_defaults(&c);
	c.spray = UET_SPRAY_ACTIVE;
	c.start_port = 65408;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), 0);
	c.start_port = 65409;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, &extack), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, extack._msg);

	c.entropy_mask_bits = 8;
	c.start_port = 65280;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), 0);
	c.start_port = 65281;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), -EINVAL);

	c.entropy_mask_bits = 0;
	c.start_port = 65535;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), 0);

	/* The UET NIC's round robin wraps modulo 65536 instead. */
	c.spray = UET_SPRAY_RR;
	c.entropy_mask_bits = 8;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), 0);
}

static void uet_cfg_test_rto_rule(struct kunit *test)
{
	struct uet_config c;

	uet_config_init_defaults(&c);
	c.rto_min_us = 5000;
	c.rto_max_us = 5000;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), 0);
	c.rto_max_us = 4999;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), -EINVAL);
}

/* A held ACK must come back before its sender's timeout. */
static void uet_cfg_test_ack_delay_rule(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct uet_config c;

	uet_config_init_defaults(&c);
	c.ack_delay_us = 999;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), 0);
	c.ack_delay_us = 1000;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, &extack), -EINVAL);
	KUNIT_EXPECT_STREQ(test, extack._msg, "ack-delay must be below rto-min");
	c.rto_min_us = 1001;
	KUNIT_EXPECT_EQ(test, uet_config_validate(&c, NULL), 0);
}

static struct kunit_case uet_cfg_test_cases[] = {
	KUNIT_CASE(uet_cfg_test_defaults),
	KUNIT_CASE(uet_cfg_test_derived),
	KUNIT_CASE_PARAM(uet_cfg_test_policy_edge, uet_cfg_edge_gen_params),
	KUNIT_CASE(uet_cfg_test_active_range_rule),
	KUNIT_CASE(uet_cfg_test_rto_rule),
	KUNIT_CASE(uet_cfg_test_ack_delay_rule),
	{}
};

static struct kunit_suite uet_cfg_test_suite = {
	.name = "uet_config",
	.test_cases = uet_cfg_test_cases,
};

kunit_test_suite(uet_cfg_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for uet");
