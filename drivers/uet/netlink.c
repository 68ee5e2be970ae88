// SPDX-License-Identifier: GPL-2.0
/*
 * uet: the "uet" generic netlink family -- configuration of a namespace.
 *
 * Each UET_A_CFG_* attribute maps onto one field of struct uet_config
 * through uet_nl_fields[], so get and set share one table and a new
 * attribute is one line there plus its policy.
 */
#include <linux/stddef.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <uet/kunit.h>
#include <uet/net.h>

static struct netlink_range_validation uet_nl_active_set_range = {
	.max = UET_ACTIVE_SET_SIZE_MAX,
};

static struct netlink_range_validation uet_nl_ev_set_range = {
	.min = UET_EV_SET_SIZE_MIN,
	.max = UET_EV_SET_SIZE_MAX,
};

static struct netlink_range_validation uet_nl_time_ns_range = {
	.min = UET_TIME_NS_MIN,
	.max = UET_TIME_NS_MAX,
};

static struct netlink_range_validation uet_nl_link_rate_range = {
	.min = UET_LINK_RATE_MBPS_MIN,
	.max = UET_LINK_RATE_MBPS_MAX,
};

static struct netlink_range_validation uet_nl_base_rtt_range = {
	.min = UET_BASE_RTT_NS_MIN,
	.max = UET_BASE_RTT_NS_MAX,
};

static struct netlink_range_validation uet_nl_mss_range = {
	.min = UET_MSS_MIN,
	.max = UET_MSS_MAX,
};

static struct netlink_range_validation uet_nl_pdc_idle_range = {
	.min = UET_PDC_IDLE_MS_MIN,
	.max = UET_PDC_IDLE_MS_MAX,
};

static struct netlink_range_validation uet_nl_rto_range = {
	.min = UET_RTO_US_MIN,
	.max = UET_RTO_US_MAX,
};

static struct netlink_range_validation uet_nl_sack_thresh_range = {
	.min = UET_SACK_RETX_THRESH_MIN,
	.max = UET_SACK_RETX_THRESH_MAX,
};

const struct nla_policy uet_nl_cfg_policy[UET_A_CFG_MAX + 1] = {
	[UET_A_CFG_SPRAY] = NLA_POLICY_MAX(NLA_U8, UET_SPRAY_MAX),
	[UET_A_CFG_ENTROPY_MASK_BITS] =
		NLA_POLICY_MAX(NLA_U8, UET_ENTROPY_MASK_BITS_MAX),
	[UET_A_CFG_START_PORT] = { .type = NLA_U16 },
	[UET_A_CFG_ACTIVE_SET_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_active_set_range),
	[UET_A_CFG_REPS_BUF_BITS] =
		NLA_POLICY_MAX(NLA_U8, UET_REPS_BUF_BITS_MAX),
	[UET_A_CFG_EV_SET_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_ev_set_range),
	[UET_A_CFG_FREEZE_TIMEOUT_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_time_ns_range),
	[UET_A_CFG_FAIL_DETECT_MULT] = { .type = NLA_U8 },
	[UET_A_CFG_PROBE_PERIOD_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_time_ns_range),
	[UET_A_CFG_PDC_GROUPS] = NLA_POLICY_MAX(NLA_U8, 1),
	[UET_A_CFG_LINK_RATE_MBPS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_link_rate_range),
	[UET_A_CFG_BASE_RTT_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_base_rtt_range),
	[UET_A_CFG_MSS] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_mss_range),
	[UET_A_CFG_UDP_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[UET_A_CFG_PDC_IDLE_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_pdc_idle_range),
	[UET_A_CFG_RTO_MIN_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_rto_range),
	[UET_A_CFG_RTO_MAX_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_nl_rto_range),
	[UET_A_CFG_MAX_RETX] = NLA_POLICY_MIN(NLA_U8, UET_MAX_RETX_MIN),
	[UET_A_CFG_SEED] = { .type = NLA_U64 },
	[UET_A_CFG_SACK_RETX_THRESH] =
		NLA_POLICY_FULL_RANGE(NLA_U16, &uet_nl_sack_thresh_range),
	[UET_A_CFG_PAD] = { .type = NLA_REJECT },
};
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nl_cfg_policy);

/*
 * Where each attribute lives in struct uet_config.  The field's size is
 * the attribute's integer size, which the policy's type gives.
 */
#define UET_NL_OFF(member) offsetof(struct uet_config, member)

static const u16 uet_nl_fields[UET_A_CFG_MAX + 1] = {
	[UET_A_CFG_SPRAY] = UET_NL_OFF(spray),
	[UET_A_CFG_ENTROPY_MASK_BITS] = UET_NL_OFF(entropy_mask_bits),
	[UET_A_CFG_START_PORT] = UET_NL_OFF(start_port),
	[UET_A_CFG_ACTIVE_SET_SIZE] = UET_NL_OFF(active_set_size),
	[UET_A_CFG_REPS_BUF_BITS] = UET_NL_OFF(reps_buf_bits),
	[UET_A_CFG_EV_SET_SIZE] = UET_NL_OFF(ev_set_size),
	[UET_A_CFG_FREEZE_TIMEOUT_NS] = UET_NL_OFF(freeze_timeout_ns),
	[UET_A_CFG_FAIL_DETECT_MULT] = UET_NL_OFF(fail_detect_mult),
	[UET_A_CFG_PROBE_PERIOD_NS] = UET_NL_OFF(probe_period_ns),
	[UET_A_CFG_PDC_GROUPS] = UET_NL_OFF(pdc_groups),
	[UET_A_CFG_LINK_RATE_MBPS] = UET_NL_OFF(link_rate_mbps),
	[UET_A_CFG_BASE_RTT_NS] = UET_NL_OFF(base_rtt_ns),
	[UET_A_CFG_MSS] = UET_NL_OFF(mss),
	[UET_A_CFG_UDP_PORT] = UET_NL_OFF(udp_port),
	[UET_A_CFG_PDC_IDLE_MS] = UET_NL_OFF(pdc_idle_ms),
	[UET_A_CFG_RTO_MIN_US] = UET_NL_OFF(rto_min_us),
	[UET_A_CFG_RTO_MAX_US] = UET_NL_OFF(rto_max_us),
	[UET_A_CFG_MAX_RETX] = UET_NL_OFF(max_retx),
	[UET_A_CFG_SEED] = UET_NL_OFF(seed),
	[UET_A_CFG_SACK_RETX_THRESH] = UET_NL_OFF(sack_retx_thresh),
};

static struct genl_family uet_nl_family;

static void uet_nl_cfg_store(struct uet_config *cfg, int type,
			     const struct nlattr *nla)
{
	void *p = (u8 *)cfg + uet_nl_fields[type];

	switch (uet_nl_cfg_policy[type].type) {
	case NLA_U8:
		*(u8 *)p = nla_get_u8(nla);
		break;
	case NLA_U16:
		*(u16 *)p = nla_get_u16(nla);
		break;
	case NLA_U32:
		*(u32 *)p = nla_get_u32(nla);
		break;
	case NLA_U64:
		*(u64 *)p = nla_get_u64(nla);
		break;
	}
}

static int uet_nl_cfg_put(struct sk_buff *skb, const struct uet_config *cfg,
			  int type)
{
	const void *p = (const u8 *)cfg + uet_nl_fields[type];

	switch (uet_nl_cfg_policy[type].type) {
	case NLA_U8:
		return nla_put_u8(skb, type, *(const u8 *)p);
	case NLA_U16:
		return nla_put_u16(skb, type, *(const u16 *)p);
	case NLA_U32:
		return nla_put_u32(skb, type, *(const u32 *)p);
	case NLA_U64:
		return nla_put_u64_64bit(skb, type, *(const u64 *)p,
					 UET_A_CFG_PAD);
	}
	return 0;
}

static int uet_nl_cfg_fill(struct sk_buff *skb, const struct uet_config *cfg)
{
	int type, err;

	for (type = 1; type <= UET_A_CFG_MAX; type++) {
		if (type == UET_A_CFG_PAD)
			continue;
		err = uet_nl_cfg_put(skb, cfg, type);
		if (err)
			return err;
	}
	return 0;
}

static struct sk_buff *uet_nl_reply_new(struct genl_info *info, u8 cmd,
					void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put_reply(msg, info, &uet_nl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int uet_nl_config_get(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_net *un = uet_net(genl_info_net(info));
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = uet_nl_reply_new(info, UET_CMD_CONFIG_GET, &hdr);
	if (!msg)
		return -ENOMEM;
	rcu_read_lock();
	err = uet_nl_cfg_fill(msg, uet_cfg(un));
	rcu_read_unlock();
	if (err) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int uet_nl_config_set(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_net *un = uet_net(genl_info_net(info));
	struct uet_cfg_rcu *old, *new;
	int type, err;

	new = kmalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;

	mutex_lock(&un->cfg_lock);
	old = rcu_dereference_protected(un->cfg,
					lockdep_is_held(&un->cfg_lock));
	new->cfg = old->cfg;
	for (type = 1; type <= UET_A_CFG_MAX; type++)
		if (info->attrs[type])
			uet_nl_cfg_store(&new->cfg, type, info->attrs[type]);

	err = uet_config_validate(&new->cfg, info->extack);
	if (err) {
		mutex_unlock(&un->cfg_lock);
		kfree(new);
		return err;
	}
	rcu_assign_pointer(un->cfg, new);
	mutex_unlock(&un->cfg_lock);
	kfree_rcu(old, rcu);
	return 0;
}

static int uet_nl_info_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = uet_nl_reply_new(info, UET_CMD_INFO_GET, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_string(msg, UET_A_INFO_VERSION, UET_VERSION) ||
	    nla_put_u32(msg, UET_A_INFO_GENL_VERSION, UET_GENL_VERSION) ||
	    nla_put_u32(msg, UET_A_INFO_SPRAY_MAX, UET_SPRAY_MAX) ||
	    nla_put_u32(msg, UET_A_INFO_CFG_MAX, UET_A_CFG_MAX)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static const struct nla_policy uet_nl_empty_policy[1] = {};

static const struct genl_ops uet_nl_ops[] = {
	{
		.cmd	 = UET_CMD_INFO_GET,
		.doit	 = uet_nl_info_get,
		.policy	 = uet_nl_empty_policy,
		.maxattr = 0,
	},
	{
		.cmd	 = UET_CMD_CONFIG_GET,
		.doit	 = uet_nl_config_get,
		.policy	 = uet_nl_empty_policy,
		.maxattr = 0,
	},
	{
		.cmd	 = UET_CMD_CONFIG_SET,
		.doit	 = uet_nl_config_set,
		.policy	 = uet_nl_cfg_policy,
		.maxattr = UET_A_CFG_MAX,
		.flags	 = GENL_UNS_ADMIN_PERM,
	},
};

static struct genl_family uet_nl_family __ro_after_init = {
	.name		= UET_GENL_NAME,
	.version	= UET_GENL_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= uet_nl_ops,
	.n_ops		= ARRAY_SIZE(uet_nl_ops),
	.resv_start_op	= UET_CMD_CONFIG_SET + 1,
};

/**
 * uet_netlink_init() - register the "uet" generic netlink family
 *
 * Return: 0 or a negative errno from genl_register_family().
 */
int uet_netlink_init(void)
{
	return genl_register_family(&uet_nl_family);
}

/**
 * uet_netlink_exit() - unregister the "uet" generic netlink family
 */
void uet_netlink_exit(void)
{
	genl_unregister_family(&uet_nl_family);
}
