// SPDX-License-Identifier: GPL-2.0
/*
 * uet: the "uet" generic netlink family -- a namespace's configuration,
 * counters, destinations and PDCs, and the "events" multicast group.
 *
 * Each UET_A_CFG_* attribute maps onto one field of struct uet_config
 * through uet_nl_fields[], so get and set share one table and a new
 * attribute is one line there plus its entry in the spec,
 * Documentation/netlink/specs/uet.yaml, from which `make regen` generates
 * the uapi header and the request policies (netlink-gen.c). The ops table
 * stays here: the generated one needs Linux 6.2 (genl_split_ops).
 */
#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/uet.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <uet/compat.h>
#include <uet/job.h>
#include <uet/kunit.h>
#include <uet/msg.h>
#include <uet/net.h>
#include <uet/netlink.h>
#include <uet/netlink-gen.h>
#include <uet/pdc.h>
#include <uet/spray.h>
#include <uet/stats.h>

/* The uapi enums mirror the engine's and the PDC code's own values. */
static_assert((int)UET_REPS_NORMAL == (int)UET_SPRAY_PHASE_NORMAL);
static_assert((int)UET_REPS_FREEZING == (int)UET_SPRAY_PHASE_FREEZING);
static_assert((int)UET_REPS_WINDOW == (int)UET_SPRAY_PHASE_WINDOW);
static_assert(UET_PDC_ROLE_INITIATOR == UET_PDC_INITIATOR);
static_assert(UET_PDC_ROLE_TARGET == UET_PDC_TARGET);

/*
 * The request policies are generated from the spec (make regen):
 * uet_config_set_nl_policy has every UET_A_CFG_* attribute with its type
 * and range, and with UET_A_CFG_PAD refused.
 */
static_assert(sizeof(uet_config_set_nl_policy) ==
	      sizeof(uet_config_set_nl_policy[0]) * (UET_A_CFG_MAX + 1));
EXPORT_SYMBOL_IF_UET_KUNIT(uet_config_set_nl_policy);

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
	[UET_A_CFG_DSCP_TRIMMED] = UET_NL_OFF(dscp_trimmed),
	[UET_A_CFG_UDP_CSUM_TX] = UET_NL_OFF(udp_csum_tx),
	[UET_A_CFG_UDP_RX_ZERO_CSUM] = UET_NL_OFF(udp_rx_zero_csum),
	[UET_A_CFG_RX_MEM] = UET_NL_OFF(rx_mem),
	[UET_A_CFG_MSG_TIMEOUT_MS] = UET_NL_OFF(msg_timeout_ms),
	[UET_A_CFG_CHALLENGE_ACK_LIMIT] = UET_NL_OFF(challenge_ack_limit),
	[UET_A_CFG_SNDBUF] = UET_NL_OFF(sndbuf),
	[UET_A_CFG_RCVBUF] = UET_NL_OFF(rcvbuf),
	[UET_A_CFG_CC] = UET_NL_OFF(cc),
	[UET_A_CFG_CC_TARGET_QDELAY_NS] = UET_NL_OFF(cc_target_qdelay_ns),
	[UET_A_CFG_ACK_DELAY_US] = UET_NL_OFF(ack_delay_us),
	[UET_A_CFG_SPRAY_BURST] = UET_NL_OFF(spray_burst),
	[UET_A_CFG_SUPERPACKETS] = UET_NL_OFF(superpackets),
};

static struct genl_family uet_nl_family;

static void uet_nl_cfg_store(struct uet_config *cfg, int type,
			     const struct nlattr *nla)
{
	void *p = (u8 *)cfg + uet_nl_fields[type];

	switch (uet_config_set_nl_policy[type].type) {
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

	switch (uet_config_set_nl_policy[type].type) {
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
	if (err)
		goto err_unlock;
	/* Opens the new port before closing the old: a refusal changes nothing. */
	err = uet_udp_rebind(un, new->cfg.udp_port);
	if (err) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[UET_A_CFG_UDP_PORT],
				    "cannot bind the UDP port");
		goto err_unlock;
	}
	rcu_assign_pointer(un->cfg, new);
	mutex_unlock(&un->cfg_lock);
	kfree_rcu(old, rcu);
	return 0;

err_unlock:
	mutex_unlock(&un->cfg_lock);
	kfree(new);
	return err;
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

/* ---- counters ------------------------------------------------------- */

static size_t uet_nl_stats_size(void)
{
	size_t size = 0;
	int i;

	for (i = 0; i < UET_STAT_MAX; i++)
		size += nla_total_size(0) +
			nla_total_size(strlen(uet_stat_names[i]) + 1) +
			nla_total_size_64bit(sizeof(u64)) +
			nla_total_size(0);
	return size;
}

static int uet_nl_stat_put(struct sk_buff *msg, enum uet_stat i, u64 v)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, UET_A_STATS_STAT);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(msg, UET_A_STAT_NAME, uet_stat_names[i]) ||
	    nla_put_u64_64bit(msg, UET_A_STAT_VALUE, v, UET_A_STAT_PAD) ||
	    (uet_stat_is_gauge(i) && nla_put_flag(msg, UET_A_STAT_GAUGE))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int uet_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_net *un = uet_net(genl_info_net(info));
	u64 sum[UET_STAT_MAX];
	struct sk_buff *msg;
	enum uet_stat i;
	void *hdr;

	msg = genlmsg_new(uet_nl_stats_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &uet_nl_family, 0,
				UET_CMD_STATS_GET);
	if (!hdr)
		goto err;
	uet_stats_read(un, sum);
	for (i = 0; i < UET_STAT_MAX; i++)
		if (uet_nl_stat_put(msg, i, sum[i]))
			goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* ---- dumps of destinations and PDCs ----------------------------------- */

/*
 * A dump walks an RCU hash table with an iterator kept across the
 * messages of the dump.  One entry may need more than one message (a
 * destination with many PDCs, a large active set or REPS cache): its
 * listing then continues in the next message, which repeats the entry's
 * identifying attributes.  Entries that come or go between messages may
 * be missed or listed twice, like any netlink dump, and so may entries
 * that a table resize moves under the walk: the namespace's table
 * generation and the walks that met a resize, checked for every message,
 * flag such a dump with NLM_F_DUMP_INTR so that userspace can retry.
 */

/* Bytes one listed value takes in a message. */
#define UET_NL_VALUE_SIZE	(nla_total_size(0) + nla_total_size(2) + \
				 nla_total_size(4))

/**
 * struct uet_nl_dump - state of one dump, kept across its messages
 * @iter: position in the table walked
 * @un: the namespace dumped
 * @addr: the address the request asked for, with @filter
 * @cur: the entry whose listing a full message interrupted, or NULL;
 *	only compared, never dereferenced
 * @done: items (PDC ids, then values) of @cur already listed
 * @tbl: the bucket table the walk last saw; only compared
 * @rewinds: times the walk met a table resize
 * @filter: list only entries with @addr
 * @vals: room for one message's values, out of the stack
 */
struct uet_nl_dump {
	struct rhashtable_iter iter;
	struct uet_net *un;
	struct in6_addr addr;
	const void *cur;
	u32 done;
	const struct bucket_table *tbl;
	u32 rewinds;
	bool filter;
	struct uet_spray_value vals[UET_NL_VALUES_MAX];
};

static struct uet_nl_dump *uet_nl_dump_ctx(struct netlink_callback *cb)
{
	return (struct uet_nl_dump *)cb->args[0];
}

/*
 * The dump's sequence, which genl_dump_check_consistent() compares from
 * message to message: it moves with the tables' generation and with
 * every resize the walk meets.
 */
static void uet_nl_dump_seq(struct netlink_callback *cb)
{
	struct uet_nl_dump *d = uet_nl_dump_ctx(cb);

	cb->seq = READ_ONCE(d->un->tables_gen) + d->rewinds;
}

static int uet_nl_dump_start(struct netlink_callback *cb,
			     struct rhashtable *(*table)(struct uet_net *un),
			     int addr_attr)
{
	struct nlattr **attrs = uet_genl_dump_attrs(genl_dumpit_info(cb));
	struct uet_net *un = uet_net(sock_net(cb->skb->sk));
	struct uet_nl_dump *d;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->un = un;
	if (attrs[addr_attr]) {
		d->addr = nla_get_in6_addr(attrs[addr_attr]);
		d->filter = true;
	}
	rhashtable_walk_enter(table(un), &d->iter);
	cb->args[0] = (long)d;
	return 0;
}

static int uet_nl_dump_done(struct netlink_callback *cb)
{
	struct uet_nl_dump *d = uet_nl_dump_ctx(cb);

	rhashtable_walk_exit(&d->iter);
	kfree(d);
	return 0;
}

static int uet_nl_value_put(struct sk_buff *skb,
			    const struct uet_spray_value *v)
{
	static const u16 flag_map[][2] = {
		{ UET_SPRAY_VF_MARKED, UET_VALUE_F_MARKED },
		{ UET_SPRAY_VF_BAD, UET_VALUE_F_BAD },
		{ UET_SPRAY_VF_STALE, UET_VALUE_F_STALE },
	};
	struct nlattr *nest;
	u32 flags = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(flag_map); i++)
		if (v->flags & flag_map[i][0])
			flags |= flag_map[i][1];
	nest = nla_nest_start(skb, UET_A_SPRAY_VALUE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u16(skb, UET_A_VALUE_VALUE, v->value) ||
	    nla_put_u32(skb, UET_A_VALUE_FLAGS, flags)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int uet_nl_spray_info_put(struct sk_buff *skb,
				 const struct uet_spray_info *info)
{
	if (nla_put_u8(skb, UET_A_SPRAY_TYPE, info->type))
		return -EMSGSIZE;
	switch (info->type) {
	case UET_SPRAY_NONE:
	case UET_SPRAY_RR:
		return nla_put_u16(skb, UET_A_SPRAY_NEXT, info->next);
	case UET_SPRAY_ACTIVE:
		if (nla_put_u16(skb, UET_A_SPRAY_NEXT, info->next) ||
		    nla_put_u32(skb, UET_A_SPRAY_NVALS, info->nvals) ||
		    nla_put_u32(skb, UET_A_SPRAY_NBAD, info->nbad) ||
		    nla_put_u32(skb, UET_A_SPRAY_NMARKED, info->nmarked) ||
		    (info->nbad &&
		     nla_put_u16(skb, UET_A_SPRAY_PROBE, info->probe)))
			return -EMSGSIZE;
		return 0;
	case UET_SPRAY_REPS:
		if (nla_put_u8(skb, UET_A_SPRAY_PHASE, info->phase) ||
		    nla_put_u32(skb, UET_A_SPRAY_NVALS, info->nvals) ||
		    nla_put_u32(skb, UET_A_SPRAY_CACHED, info->cached) ||
		    nla_put_u32(skb, UET_A_SPRAY_FILLED, info->filled) ||
		    nla_put_u32(skb, UET_A_SPRAY_WINDOW_LEFT,
				info->window_left))
			return -EMSGSIZE;
		if (info->phase != UET_SPRAY_PHASE_FREEZING)
			return 0;
		return nla_put_u64_64bit(skb, UET_A_SPRAY_FROZEN_NS,
					 ktime_get_ns() - info->freeze_start_ns,
					 UET_A_SPRAY_PAD);
	}
	return 0;
}

/**
 * uet_nl_spray_put() - put a spraying state in a netlink message
 * @skb: the message
 * @type: the nest's attribute type (UET_A_DEST_SPRAY, UET_A_PDC_SPRAY)
 * @s: the state
 * @first: index of the first value to list, to resume a listing that an
 *	earlier message could not hold whole
 * @buf: room for UET_NL_VALUES_MAX values
 * @n: set to the number of values listed
 *
 * Puts the state's summary and as many of its values as @skb has room
 * for (at most UET_NL_VALUES_MAX), taken in one snapshot.
 *
 * Context: any but hard IRQ; takes the state's lock.
 * Return: 0 when the listing is complete, 1 when values remain for the
 * next message, -EMSGSIZE when not even the summary fits.
 */
VISIBLE_IF_KUNIT int uet_nl_spray_put(struct sk_buff *skb, int type,
				      struct uet_spray *s, u32 first,
				      struct uet_spray_value *buf, u32 *n)
{
	struct uet_spray_info info;
	u32 total, room, got, i;
	struct nlattr *nest;
	int ret = 0;

	*n = 0;
	uet_spray_get_info(s, &info);
	total = info.type == UET_SPRAY_ACTIVE ? info.nvals :
		info.type == UET_SPRAY_REPS ? info.filled : 0;
	nest = nla_nest_start(skb, type);
	if (!nest || uet_nl_spray_info_put(skb, &info))
		goto cancel;
	if (first >= total)
		goto end;
	if (nla_put_u32(skb, UET_A_SPRAY_VALUES_FIRST, first))
		goto cancel;

	room = min3((u32)skb_tailroom(skb) / UET_NL_VALUE_SIZE, total - first,
		    (u32)UET_NL_VALUES_MAX);
	got = room ? uet_spray_get_values(s, first, buf, room) : 0;
	for (i = 0; i < got; i++)
		if (uet_nl_value_put(skb, &buf[i]))
			break;
	*n = i;
	/* Fewer than asked for means the listing ended (it can shrink). */
	if (i < got || (got == room && first + got < total))
		ret = 1;
end:
	nla_nest_end(skb, nest);
	return ret;

cancel:
	if (nest)
		nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_nl_spray_put);

/*
 * End the message of an entry whose listing went from @from to d->done
 * items.  An entry is split over messages only when it does not fit in
 * one: an entry that starts in a message shared with others and does not
 * end there is dropped from it, to start again in the next, empty one.
 * A message that listed nothing of an entry with items left is dropped
 * too.  Return: as uet_nl_dest_fill().
 */
static int uet_nl_entry_end(struct sk_buff *skb, struct uet_nl_dump *d,
			    void *hdr, u32 from, int ret)
{
	bool alone = hdr - GENL_HDRLEN - NLMSG_HDRLEN == (void *)skb->data;

	if (ret < 0 || (ret > 0 && (d->done == from || (!from && !alone)))) {
		genlmsg_cancel(skb, hdr);
		d->done = from;
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return ret;
}

static void *uet_nl_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb,
			     u8 cmd)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &uet_nl_family, NLM_F_MULTI, cmd);
	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

/*
 * One destination: its address, PDCs and group spraying state, listing
 * its items (PDC ids, then values) from d->done on.
 * Return: 0 when complete, 1 when the message is full and the listing
 * continues in the next one, -EMSGSIZE when nothing of it fitted.
 */
static int uet_nl_dest_fill(struct sk_buff *skb, struct netlink_callback *cb,
			    void *obj)
{
	struct uet_nl_dump *d = uet_nl_dump_ctx(cb);
	u32 from = d->done, idx = 0, first, n;
	struct uet_dest *dest = obj;
	struct uet_spray *spray;
	struct uet_pdc *pdc;
	int ret = -EMSGSIZE;
	void *hdr;

	hdr = uet_nl_dump_hdr(skb, cb, UET_CMD_DEST_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_in6_addr(skb, UET_A_DEST_ADDR, &dest->addr) ||
	    nla_put_u32(skb, UET_A_DEST_NPDCS, READ_ONCE(dest->refs)))
		goto out;
	list_for_each_entry_rcu(pdc, &dest->pdcs, dest_node) {
		if (idx++ < from)
			continue;
		if (nla_put_u16(skb, UET_A_DEST_PDC, pdc->lid)) {
			ret = 1;
			goto out;
		}
		d->done++;
	}
	ret = 0;
	/*
	 * Pairs with the release that publishes it set up (pdc.c); it is
	 * freed after a grace period.
	 */
	spray = smp_load_acquire(&dest->spray);
	if (spray) {
		first = from > idx ? from - idx : 0;
		ret = uet_nl_spray_put(skb, UET_A_DEST_SPRAY, spray, first,
				       d->vals, &n);
		d->done = idx + first + n;
		if (ret < 0 && d->done > from)
			ret = 1;
	}
out:
	return uet_nl_entry_end(skb, d, hdr, from, ret);
}

static int uet_nl_pdc_tx_put(struct sk_buff *skb, const struct uet_pdc *pdc)
{
	const struct uet_pdc_tx *tx = &pdc->tx;
	struct uet_pdc_counts c;
	u64 base;

	uet_pdc_counts_get(pdc, &c);
	base = min_t(u64, uet_tx_base_rtt_ns(pdc), U32_MAX);
	if (nla_put_u32(skb, UET_A_PDC_START_PSN, tx->start_psn) ||
	    nla_put_u32(skb, UET_A_PDC_NEXT_PSN, tx->snd_nxt) ||
	    nla_put_u32(skb, UET_A_PDC_ACK_PSN, tx->snd_una) ||
	    nla_put_u32(skb, UET_A_PDC_OUTSTANDING, c.out) ||
	    nla_put_u32(skb, UET_A_PDC_MSGS, c.msgs) ||
	    nla_put_u32(skb, UET_A_PDC_SRTT_US, tx->srtt_us) ||
	    nla_put_u32(skb, UET_A_PDC_RTTVAR_US, tx->rttvar_us) ||
	    nla_put_u32(skb, UET_A_PDC_RTO_US, tx->rto_us) ||
	    nla_put_u32(skb, UET_A_PDC_BASE_RTT_NS, base) ||
	    (tx->min_rtt_ns != U64_MAX &&
	     nla_put_u32(skb, UET_A_PDC_MIN_RTT_NS,
			 min_t(u64, tx->min_rtt_ns, U32_MAX))) ||
	    (tx->syn && nla_put_flag(skb, UET_A_PDC_SYN)) ||
	    (tx->pmtu && nla_put_u32(skb, UET_A_PDC_PMTU, tx->pmtu)))
		return -EMSGSIZE;
	if (uet_pdc_nscc(pdc) &&
	    (nla_put_u32(skb, UET_A_PDC_CWND, tx->nscc.cwnd) ||
	     nla_put_s32(skb, UET_A_PDC_CC_IN_FLIGHT,
			 clamp_t(s64, tx->nscc.in_flight, S32_MIN, S32_MAX)) ||
	     nla_put_u8(skb, UET_A_PDC_CC_ACTION, tx->nscc.last_action)))
		return -EMSGSIZE;
	if (uet_pdc_rccc(pdc) &&
	    nla_put_s32(skb, UET_A_PDC_CC_CREDIT,
			(s32)(tx->rccc.init + tx->rccc.grant - tx->rccc.sent)))
		return -EMSGSIZE;
	return 0;
}

static int uet_nl_pdc_rx_put(struct sk_buff *skb, const struct uet_pdc *pdc)
{
	const struct uet_pdc_rx *rx = &pdc->rx;
	struct uet_pdc_counts c;

	uet_pdc_counts_get(pdc, &c);
	if (nla_put_u32(skb, UET_A_PDC_START_PSN, rx->start_psn) ||
	    nla_put_u32(skb, UET_A_PDC_NEXT_PSN, rx->epsn) ||
	    nla_put_u32(skb, UET_A_PDC_OUTSTANDING, c.out) ||
	    nla_put_u32(skb, UET_A_PDC_MSGS, c.msgs))
		return -EMSGSIZE;
	return 0;
}

/* Caller holds pdc->lock. */
static int uet_nl_pdc_put(struct sk_buff *skb, const struct uet_pdc *pdc)
{
	const struct uet_pdc_key *k = &pdc->key;

	if (nla_put_u16(skb, UET_A_PDC_LID, pdc->lid) ||
	    nla_put_u16(skb, UET_A_PDC_RID, pdc->rid) ||
	    nla_put_u8(skb, UET_A_PDC_ROLE, k->role) ||
	    nla_put_in6_addr(skb, UET_A_PDC_LADDR, &k->laddr) ||
	    nla_put_in6_addr(skb, UET_A_PDC_RADDR, &k->raddr) ||
	    nla_put_u32(skb, UET_A_PDC_JOB, k->job) ||
	    nla_put_u32(skb, UET_A_PDC_WINDOW, UET_PSN_WINDOW) ||
	    nla_put_u32(skb, UET_A_PDC_IDLE_MS,
			jiffies_to_msecs(jiffies - pdc->last_active)))
		return -EMSGSIZE;
	if (k->role == UET_PDC_INITIATOR)
		return uet_nl_pdc_tx_put(skb, pdc);
	return uet_nl_pdc_rx_put(skb, pdc);
}

/*
 * One PDC, and its own spraying state with PDC groups off, listing the
 * state's values from d->done on.  A PDC found closing is left out.
 * Return: as uet_nl_dest_fill().
 */
static int uet_nl_pdc_fill(struct sk_buff *skb, struct netlink_callback *cb,
			   void *obj)
{
	struct uet_nl_dump *d = uet_nl_dump_ctx(cb);
	struct uet_pdc *pdc = obj;
	u32 from = d->done, n;
	int ret = -EMSGSIZE;
	void *hdr;

	hdr = uet_nl_dump_hdr(skb, cb, UET_CMD_PDC_GET);
	if (!hdr)
		return -EMSGSIZE;
	/* Under the lock, a PDC not dead still owns its spraying state. */
	spin_lock_bh(&pdc->lock);
	if (pdc->dead) {
		spin_unlock_bh(&pdc->lock);
		genlmsg_cancel(skb, hdr);
		return 0;
	}
	if (uet_nl_pdc_put(skb, pdc))
		goto out;
	ret = 0;
	if (!pdc->dest && pdc->spray) {
		ret = uet_nl_spray_put(skb, UET_A_PDC_SPRAY, pdc->spray, from,
				       d->vals, &n);
		d->done = from + n;
	}
out:
	spin_unlock_bh(&pdc->lock);
	return uet_nl_entry_end(skb, d, hdr, from, ret);
}

static bool uet_nl_dest_match(const struct uet_nl_dump *d, const void *obj)
{
	const struct uet_dest *dest = obj;

	return ipv6_addr_equal(&dest->addr, &d->addr);
}

static bool uet_nl_pdc_match(const struct uet_nl_dump *d, const void *obj)
{
	const struct uet_pdc *pdc = obj;

	return ipv6_addr_equal(&pdc->key.raddr, &d->addr);
}

/* The walk met a resize: entries already sent may come again. */
static void uet_nl_dump_rewind(struct netlink_callback *cb)
{
	uet_nl_dump_ctx(cb)->rewinds++;
	uet_nl_dump_seq(cb);
}

/*
 * A resize in progress, or done since the walk last looked, moves entries
 * between bucket tables under the walk.  Context: rcu_read_lock() held.
 */
static void uet_nl_dump_resize_check(struct netlink_callback *cb)
{
	struct uet_nl_dump *d = uet_nl_dump_ctx(cb);
	const struct bucket_table *tbl;

	tbl = rht_dereference_rcu(d->iter.ht->tbl, d->iter.ht);
	if (tbl != d->tbl || rcu_access_pointer(tbl->future_tbl)) {
		d->tbl = tbl;
		uet_nl_dump_rewind(cb);
	}
}

/*
 * Fill @skb with entries of the table the dump walks, from where the
 * previous message stopped.  Return: as a dumpit callback.
 */
static int uet_nl_dump_walk(struct sk_buff *skb, struct netlink_callback *cb,
			    int (*fill)(struct sk_buff *skb,
					struct netlink_callback *cb,
					void *obj),
			    bool (*match)(const struct uet_nl_dump *d,
					  const void *obj))
{
	struct uet_nl_dump *d = uet_nl_dump_ctx(cb);
	int ret = 0;
	void *obj;

	uet_nl_dump_seq(cb);
	if (rhashtable_walk_start_check(&d->iter) == -EAGAIN)
		uet_nl_dump_rewind(cb);
	uet_nl_dump_resize_check(cb);
	for (;;) {
		obj = rhashtable_walk_peek(&d->iter);
		if (obj == ERR_PTR(-EAGAIN)) {
			uet_nl_dump_rewind(cb);
			continue;
		}
		if (IS_ERR_OR_NULL(obj))
			break;
		/* A different entry where one was interrupted: start it. */
		if (obj != d->cur)
			d->done = 0;
		d->cur = obj;
		if (!d->filter || match(d, obj)) {
			ret = fill(skb, cb, obj);
			if (ret)
				break;
		}
		d->cur = NULL;
		d->done = 0;
		if (rhashtable_walk_next(&d->iter) == ERR_PTR(-EAGAIN))
			uet_nl_dump_rewind(cb);
	}
	uet_nl_dump_resize_check(cb);
	rhashtable_walk_stop(&d->iter);
	/* An entry too large for an empty message would never progress. */
	if (ret < 0 && !skb->len)
		return ret;
	return skb->len;
}

static struct rhashtable *uet_nl_dests(struct uet_net *un)
{
	return &un->dests;
}

static struct rhashtable *uet_nl_pdcs(struct uet_net *un)
{
	return &un->pdc_by_id;
}

static int uet_nl_dest_start(struct netlink_callback *cb)
{
	return uet_nl_dump_start(cb, uet_nl_dests, UET_A_DEST_ADDR);
}

/*
 * PDC ids and PSNs tell a local user what to forge to inject packets into
 * a PDC: the dumps that list them are for CAP_NET_ADMIN over the
 * namespace only.  Checked in the dump callback, where both 6.1 and 6.12
 * hand over an extack (6.1 gives none to the start callback); the refusal
 * comes back in NLMSG_DONE.
 */
static int uet_nl_dump_admin(struct netlink_callback *cb)
{
	struct net *net = sock_net(cb->skb->sk);

	if (netlink_ns_capable(cb->skb, net->user_ns, CAP_NET_ADMIN))
		return 0;
	NL_SET_ERR_MSG(cb->extack,
		       "Listing PDC ids and PSNs needs CAP_NET_ADMIN");
	return -EPERM;
}

static int uet_nl_dest_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	int err = uet_nl_dump_admin(cb);

	if (err)
		return err;
	return uet_nl_dump_walk(skb, cb, uet_nl_dest_fill, uet_nl_dest_match);
}

static int uet_nl_pdc_start(struct netlink_callback *cb)
{
	return uet_nl_dump_start(cb, uet_nl_pdcs, UET_A_PDC_RADDR);
}

static int uet_nl_pdc_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	int err = uet_nl_dump_admin(cb);

	if (err)
		return err;
	return uet_nl_dump_walk(skb, cb, uet_nl_pdc_fill, uet_nl_pdc_match);
}

/* ---- events --------------------------------------------------------- */

enum uet_nl_mcgrp {
	UET_NL_MCGRP_EVENTS,
};

/*
 * Events name PDC ids: joining needs CAP_NET_ADMIN over the namespace.
 * Debian's 6.1 (a stable backport) and 6.12 both check the flag in
 * genl_bind().
 */
static const struct genl_multicast_group uet_nl_mcgrps[] = {
	[UET_NL_MCGRP_EVENTS] = {
		.name	= UET_MCGRP_EVENTS,
		.flags	= GENL_MCAST_CAP_NET_ADMIN,
	},
};

/*
 * Events may be raised until the namespaces are gone, which is after the
 * family is unregistered: uet_netlink_exit() clears this, then waits for
 * the notifiers that saw it set (they run under RCU).
 */
static bool uet_nl_live;

#define UET_NL_EVENT_SIZE	(nla_total_size(sizeof(u8)) * 2 +	\
				 nla_total_size(sizeof(struct in6_addr)) * 2 + \
				 nla_total_size(sizeof(u16)) * 2 +	\
				 nla_total_size(sizeof(u32)) * 4 +	\
				 nla_total_size_64bit(sizeof(u64)))

/*
 * A new event message about @pdc, or NULL when nobody listens in its
 * namespace (the common case: a bit test) or memory is short.  A listener
 * learns of events lost in delivery from ENOBUFS on its socket; one lost
 * here would be silent, so it is counted.
 */
static struct sk_buff *uet_nl_event_new(const struct uet_pdc *pdc, u8 type,
					void **hdr)
{
	struct uet_net *un = pdc->un;
	const struct uet_pdc_key *k = &pdc->key;
	struct sk_buff *skb;

	if (!READ_ONCE(uet_nl_live) ||
	    !genl_has_listeners(&uet_nl_family, un->net, UET_NL_MCGRP_EVENTS))
		return NULL;
	skb = genlmsg_new(UET_NL_EVENT_SIZE, GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		goto lost;
	*hdr = genlmsg_put(skb, 0, 0, &uet_nl_family, 0, UET_CMD_EVENT);
	if (!*hdr ||
	    nla_put_u8(skb, UET_A_EVENT_TYPE, type) ||
	    nla_put_u64_64bit(skb, UET_A_EVENT_TIME_NS, ktime_get_ns(),
			      UET_A_EVENT_PAD) ||
	    nla_put_u16(skb, UET_A_EVENT_PDC, pdc->lid) ||
	    nla_put_u8(skb, UET_A_EVENT_ROLE, k->role) ||
	    nla_put_u32(skb, UET_A_EVENT_JOB, k->job) ||
	    nla_put_in6_addr(skb, UET_A_EVENT_LADDR, &k->laddr) ||
	    nla_put_in6_addr(skb, UET_A_EVENT_RADDR, &k->raddr)) {
		nlmsg_free(skb);
		goto lost;
	}
	return skb;

lost:
	uet_stat_inc(un, UET_STAT_EVENTS_LOST);
	return NULL;
}

static void uet_nl_event_send(const struct uet_pdc *pdc, struct sk_buff *skb,
			      void *hdr)
{
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&uet_nl_family, pdc->un->net, skb, 0,
				UET_NL_MCGRP_EVENTS, GFP_ATOMIC);
}

/**
 * uet_nl_notify_pdc() - tell listeners that a PDC was opened or closed
 * @pdc: the PDC
 * @open: true when it was just opened, false when it is being freed
 *
 * Context: any but hard IRQ; does not sleep.
 */
void uet_nl_notify_pdc(const struct uet_pdc *pdc, bool open)
{
	struct sk_buff *skb;
	void *hdr;

	rcu_read_lock();
	skb = uet_nl_event_new(pdc, open ? UET_EVENT_PDC_OPEN :
				   UET_EVENT_PDC_CLOSE, &hdr);
	if (skb)
		uet_nl_event_send(pdc, skb, hdr);
	rcu_read_unlock();
}

/**
 * uet_nl_notify_spray_events() - tell listeners what a spraying engine
 *	call changed about a path
 * @pdc: the PDC on whose behalf the engine was called
 * @value: the entropy value the call concerned
 * @result: its UET_SPRAY_R_* bits; those in UET_NL_SPRAY_EVENTS each
 *	make one event
 *
 * Called through uet_nl_notify_spray(), which filters @result inline.
 *
 * Context: any but hard IRQ, PDC lock allowed; does not sleep.
 */
void uet_nl_notify_spray_events(const struct uet_pdc *pdc, u16 value,
				u32 result)
{
	static const struct {
		u32 bit;
		u8 type;
	} map[] = {
		{ UET_SPRAY_R_BAD,	UET_EVENT_VALUE_BAD },
		{ UET_SPRAY_R_RESTORE,	UET_EVENT_VALUE_RESTORED },
		{ UET_SPRAY_R_FREEZE,	UET_EVENT_FREEZE_START },
		{ UET_SPRAY_R_THAW,	UET_EVENT_FREEZE_END },
		{ UET_SPRAY_R_MARK,	UET_EVENT_VALUE_MARKED },
	};
	struct sk_buff *skb;
	unsigned int i;
	void *hdr;

	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(map); i++) {
		if (!(result & map[i].bit))
			continue;
		skb = uet_nl_event_new(pdc, map[i].type, &hdr);
		if (!skb)
			continue;
		if (nla_put_u16(skb, UET_A_EVENT_VALUE, value)) {
			nlmsg_free(skb);
			continue;
		}
		uet_nl_event_send(pdc, skb, hdr);
	}
	rcu_read_unlock();
}

/**
 * uet_nl_notify_msg_failed() - tell listeners that a message was given up
 * @pdc: the PDC that carried it
 * @m: the message
 * @err: why, a positive errno as reported to its socket
 *
 * Context: any but hard IRQ, PDC lock allowed; does not sleep.
 */
void uet_nl_notify_msg_failed(const struct uet_pdc *pdc,
			      const struct uet_tx_msg *m, int err)
{
	struct sk_buff *skb;
	void *hdr;

	rcu_read_lock();
	skb = uet_nl_event_new(pdc, UET_EVENT_MSG_FAILED, &hdr);
	if (skb) {
		if (nla_put_u32(skb, UET_A_EVENT_ERRNO, err) ||
		    nla_put_u32(skb, UET_A_EVENT_MSG_SEQ, m->seq) ||
		    nla_put_u32(skb, UET_A_EVENT_MSG_LEN, m->buf->len))
			nlmsg_free(skb);
		else
			uet_nl_event_send(pdc, skb, hdr);
	}
	rcu_read_unlock();
}

/* ---- jobs ----------------------------------------------------------- */

/**
 * struct uet_nl_job_msg - where uet_nl_job_put() writes a job
 * @skb: the message
 * @ns: the user namespace uid and gid are shown in (the requester's)
 * @portid: netlink port of the requester
 * @seq: sequence number of the request
 * @flags: netlink flags of the message (NLM_F_MULTI in dumps)
 */
struct uet_nl_job_msg {
	struct sk_buff *skb;
	struct user_namespace *ns;
	u32 portid;
	u32 seq;
	int flags;
};

static int uet_nl_job_put(const struct uet_job *job, void *arg)
{
	struct uet_nl_job_msg *m = arg;
	void *hdr;

	hdr = genlmsg_put(m->skb, m->portid, m->seq, &uet_nl_family, m->flags,
			  UET_CMD_JOB_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(m->skb, UET_A_JOB_ID, job->id) ||
	    (uid_valid(job->uid) &&
	     nla_put_u32(m->skb, UET_A_JOB_UID,
			 from_kuid_munged(m->ns, job->uid))) ||
	    (gid_valid(job->gid) &&
	     nla_put_u32(m->skb, UET_A_JOB_GID,
			 from_kgid_munged(m->ns, job->gid)))) {
		genlmsg_cancel(m->skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(m->skb, hdr);
	return 0;
}

static int uet_nl_job_id(struct genl_info *info, u32 *id)
{
	if (GENL_REQ_ATTR_CHECK(info, UET_A_JOB_ID)) {
		NL_SET_ERR_MSG(info->extack, "Job id missing");
		return -EINVAL;
	}
	*id = nla_get_u32(info->attrs[UET_A_JOB_ID]);
	return 0;
}

static int uet_nl_job_add(struct sk_buff *skb, struct genl_info *info)
{
	struct user_namespace *ns = sk_user_ns(NETLINK_CB(skb).sk);
	struct nlattr *a;
	kuid_t uid = INVALID_UID;
	kgid_t gid = INVALID_GID;
	u32 id;
	int err;

	err = uet_nl_job_id(info, &id);
	if (err)
		return err;
	a = info->attrs[UET_A_JOB_UID];
	if (a) {
		uid = make_kuid(ns, nla_get_u32(a));
		if (!uid_valid(uid)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "No such uid in your user namespace");
			return -EINVAL;
		}
	}
	a = info->attrs[UET_A_JOB_GID];
	if (a) {
		gid = make_kgid(ns, nla_get_u32(a));
		if (!gid_valid(gid)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "No such gid in your user namespace");
			return -EINVAL;
		}
	}
	return uet_job_add(genl_info_net(info), id, uid, gid, info->extack);
}

static int uet_nl_job_del(struct sk_buff *skb, struct genl_info *info)
{
	u32 id;
	int err;

	err = uet_nl_job_id(info, &id);
	if (err)
		return err;
	return uet_job_del(genl_info_net(info), id, info->extack);
}

static int uet_nl_job_get(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_nl_job_msg m = {
		.ns	= sk_user_ns(NETLINK_CB(skb).sk),
		.portid	= info->snd_portid,
		.seq	= info->snd_seq,
	};
	u32 id;
	int err;

	err = uet_nl_job_id(info, &id);
	if (err)
		return err;
	m.skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!m.skb) {
		NL_SET_ERR_MSG(info->extack, "Out of memory for the reply");
		return -ENOMEM;
	}
	err = uet_job_get(genl_info_net(info), id, uet_nl_job_put, &m);
	if (err) {
		nlmsg_free(m.skb);
		if (err == -ENOENT)
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[UET_A_JOB_ID],
					    "No such job");
		return err;
	}
	return genlmsg_reply(m.skb, info);
}

/* cb->args[0]: the job id the next message starts from. */
static int uet_nl_job_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct uet_nl_job_msg m = {
		.skb	= skb,
		.ns	= sk_user_ns(NETLINK_CB(cb->skb).sk),
		.portid	= NETLINK_CB(cb->skb).portid,
		.seq	= cb->nlh->nlmsg_seq,
		.flags	= NLM_F_MULTI,
	};
	unsigned long pos = cb->args[0];
	int err;

	err = uet_job_walk(sock_net(skb->sk), &pos, uet_nl_job_put, &m);
	cb->args[0] = pos;
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* ---- the family ----------------------------------------------------- */

/*
 * Every command is strictly validated (resv_start_op 0): reserved header
 * bits and flags are refused, and so is any attribute its policy does not
 * name; genetlink gives a command without a policy one that refuses every
 * attribute. Each refusal carries an extended ack.
 */
static const struct genl_ops uet_nl_ops[] = {
	{
		.cmd	 = UET_CMD_INFO_GET,
		.doit	 = uet_nl_info_get,
	},
	{
		.cmd	 = UET_CMD_CONFIG_GET,
		.doit	 = uet_nl_config_get,
	},
	{
		.cmd	 = UET_CMD_CONFIG_SET,
		.doit	 = uet_nl_config_set,
		.policy	 = uet_config_set_nl_policy,
		.maxattr = ARRAY_SIZE(uet_config_set_nl_policy) - 1,
		.flags	 = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd	 = UET_CMD_STATS_GET,
		.doit	 = uet_nl_stats_get,
	},
	{
		.cmd	 = UET_CMD_DEST_GET,
		.start	 = uet_nl_dest_start,
		.dumpit	 = uet_nl_dest_dump,
		.done	 = uet_nl_dump_done,
		.policy	 = uet_dest_get_nl_policy,
		.maxattr = ARRAY_SIZE(uet_dest_get_nl_policy) - 1,
	},
	{
		.cmd	 = UET_CMD_PDC_GET,
		.start	 = uet_nl_pdc_start,
		.dumpit	 = uet_nl_pdc_dump,
		.done	 = uet_nl_dump_done,
		.policy	 = uet_pdc_get_nl_policy,
		.maxattr = ARRAY_SIZE(uet_pdc_get_nl_policy) - 1,
	},
	{
		.cmd	 = UET_CMD_JOB_ADD,
		.doit	 = uet_nl_job_add,
		.policy	 = uet_job_add_nl_policy,
		.maxattr = ARRAY_SIZE(uet_job_add_nl_policy) - 1,
		.flags	 = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd	 = UET_CMD_JOB_DEL,
		.doit	 = uet_nl_job_del,
		.policy	 = uet_job_del_nl_policy,
		.maxattr = ARRAY_SIZE(uet_job_del_nl_policy) - 1,
		.flags	 = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd	 = UET_CMD_JOB_GET,
		.doit	 = uet_nl_job_get,
		.dumpit	 = uet_nl_job_dump,
		.policy	 = uet_job_get_nl_policy,
		.maxattr = ARRAY_SIZE(uet_job_get_nl_policy) - 1,
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
	.resv_start_op	= 0,
	.mcgrps		= uet_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(uet_nl_mcgrps),
};

/**
 * uet_netlink_init() - register the "uet" generic netlink family
 *
 * Return: 0 or a negative errno from genl_register_family().
 */
int uet_netlink_init(void)
{
	int err;

	err = genl_register_family(&uet_nl_family);
	if (!err)
		WRITE_ONCE(uet_nl_live, true);
	return err;
}

/**
 * uet_netlink_exit() - unregister the "uet" generic netlink family
 *
 * Context: process; may sleep.
 */
void uet_netlink_exit(void)
{
	WRITE_ONCE(uet_nl_live, false);
	synchronize_rcu();
	genl_unregister_family(&uet_nl_family);
}
