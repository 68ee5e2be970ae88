// SPDX-License-Identifier: GPL-2.0
/*
 * uet: module init and exit, and per-namespace setup and teardown.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <uet/net.h>

unsigned int uet_net_id __read_mostly;

static int __net_init uet_net_init(struct net *net)
{
	struct uet_net *un = uet_net(net);
	struct uet_cfg_rcu *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	uet_config_init_defaults(&c->cfg);
	un->net = net;
	mutex_init(&un->cfg_lock);
	RCU_INIT_POINTER(un->cfg, c);
	return 0;
}

static void __net_exit uet_net_exit(struct net *net)
{
	struct uet_net *un = uet_net(net);

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
	return 0;

err_pernet:
	unregister_pernet_subsys(&uet_net_ops);
	return err;
}

static void __exit uet_exit(void)
{
	uet_netlink_exit();
	unregister_pernet_subsys(&uet_net_ops);
}

module_init(uet_init);
module_exit(uet_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Ultra Ethernet Transport PDS over UDP with packet spraying");
MODULE_VERSION(UET_VERSION);
