// SPDX-License-Identifier: GPL-2.0
/*
 * uet: module init and exit, and per-namespace setup and teardown.
 */
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <uet/net.h>
#include <uet/pdc.h>
#include <uet/sock.h>
#include <uet/stats.h>

unsigned int uet_net_id __read_mostly;

static int __net_init uet_net_init(struct net *net)
{
	struct uet_net *un = uet_net(net);
	struct uet_cfg_rcu *c;
	int err;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	uet_config_init_defaults(&c->cfg);
	un->net = net;
	mutex_init(&un->cfg_lock);
	RCU_INIT_POINTER(un->cfg, c);

	err = uet_stats_init(un);
	if (err)
		goto err_cfg;
	uet_sock_net_init(un);
	err = uet_pdc_net_init(un);
	if (err)
		goto err_stats;
	err = uet_udp_open(un, c->cfg.udp_port);
	if (err)
		goto err_pdc;
	return 0;

err_pdc:
	uet_pdc_net_exit(un);
err_stats:
	uet_stats_exit(un);
err_cfg:
	RCU_INIT_POINTER(un->cfg, NULL);
	kfree(c);
	return err;
}

static void __net_exit uet_net_exit(struct net *net)
{
	struct uet_net *un = uet_net(net);

	uet_udp_close(un);
	uet_pdc_net_exit(un);
	uet_stats_exit(un);
	/* No reader is left: the namespace is past its last user. */
	kfree(rcu_dereference_protected(un->cfg, true));
	RCU_INIT_POINTER(un->cfg, NULL);
}

static struct pernet_operations uet_net_ops = {
	.init	= uet_net_init,
	.exit	= uet_net_exit,
	.id	= &uet_net_id,
	.size	= sizeof(struct uet_net),
};

static int __init uet_init(void)
{
	int err;

	err = register_pernet_subsys(&uet_net_ops);
	if (err)
		return err;
	err = uet_netlink_init();
	if (err)
		goto err_pernet;
	err = uet_af_init();
	if (err)
		goto err_netlink;
	return 0;

err_netlink:
	uet_netlink_exit();
err_pernet:
	unregister_pernet_subsys(&uet_net_ops);
	return err;
}

static void __exit uet_exit(void)
{
	uet_af_exit();
	uet_netlink_exit();
	unregister_pernet_subsys(&uet_net_ops);
	/* Destinations are freed by RCU callbacks in this module. */
	rcu_barrier();
}

module_init(uet_init);
module_exit(uet_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Ultra Ethernet Transport PDS over UDP with packet spraying");
MODULE_VERSION(UET_VERSION);
