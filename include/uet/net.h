/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: per-network-namespace state.
 *
 * Lock order (outermost first):
 *   uet_net.cfg_lock (mutex, process context: configuration changes)
 * Readers of the configuration take no lock: rcu_dereference(un->cfg).
 */
#ifndef _UET_NET_H
#define _UET_NET_H

#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/netns/generic.h>
#include <uet/config.h>

/**
 * struct uet_cfg_rcu - a published configuration and its deferred free
 * @cfg: the configuration, immutable once published
 * @rcu: frees the copy after the readers that might still see it
 */
struct uet_cfg_rcu {
	struct uet_config cfg;
	struct rcu_head rcu;
};

/**
 * struct uet_net - what uet keeps for one network namespace
 * @net: the namespace (not refcounted: we live and die with it)
 * @cfg: current configuration; written under @cfg_lock, read under RCU
 * @cfg_lock: serialises configuration changes
 */
struct uet_net {
	struct net *net;
	struct uet_cfg_rcu __rcu *cfg;
	struct mutex cfg_lock;		/* serialises configuration changes */
};

/* Module version, reported by UET_CMD_INFO_GET. */
#define UET_VERSION	"0.1"

extern unsigned int uet_net_id;

/**
 * uet_net() - uet's state of a namespace
 * @net: the namespace
 *
 * Return: the namespace's struct uet_net, valid while @net lives.
 */
static inline struct uet_net *uet_net(const struct net *net)
{
	return net_generic(net, uet_net_id);
}

/**
 * uet_cfg() - current configuration of a namespace
 * @un: the namespace's uet state
 *
 * Context: rcu_read_lock() held, or @un->cfg_lock held.
 * Return: the configuration, valid until the RCU read section ends.
 */
static inline const struct uet_config *uet_cfg(struct uet_net *un)
{
	return &rcu_dereference_check(un->cfg,
				      lockdep_is_held(&un->cfg_lock))->cfg;
}

/* Attribute policy of UET_CMD_CONFIG_SET, shared with KUnit. */
extern const struct nla_policy uet_nl_cfg_policy[UET_A_CFG_MAX + 1];

int uet_netlink_init(void);
void uet_netlink_exit(void);

#endif /* _UET_NET_H */
