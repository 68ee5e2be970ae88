// SPDX-License-Identifier: GPL-2.0
/*
 * uet: module init and exit, and per-namespace setup and teardown.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <uet/debugfs.h>
#include <uet/job.h>
#include <uet/kunit.h>
#include <uet/net.h>
#include <uet/pdc.h>
#include <uet/sock.h>
#include <uet/stats.h>

unsigned int uet_net_id __read_mostly;
EXPORT_SYMBOL_IF_UET_KUNIT(uet_net_id);

/*
 * The configuration every new namespace starts from.  Read-only once
 * loaded: a running namespace is changed over netlink (uetctl set).
 */
static u8 spray = UET_DEFAULT_SPRAY;

static const char * const uet_spray_names[] = {
	[UET_SPRAY_NONE] = "none",
	[UET_SPRAY_RR] = "rr",
	[UET_SPRAY_ACTIVE] = "active",
	[UET_SPRAY_REPS] = "reps",
};

static int uet_param_spray_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(uet_spray_names, val);

	if (i < 0)
		return -EINVAL;
	spray = i;
	return 0;
}

static int uet_param_spray_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", uet_spray_names[spray]);
}

static const struct kernel_param_ops uet_param_spray_ops = {
	.set	= uet_param_spray_set,
	.get	= uet_param_spray_get,
};
module_param_cb(spray, &uet_param_spray_ops, NULL, 0444);
MODULE_PARM_DESC(spray, "default spraying type: none, rr, active or reps");

static bool pdc_groups = true;
module_param(pdc_groups, bool, 0444);
MODULE_PARM_DESC(pdc_groups, "default PDCGroupsEnabled: one spraying state per destination");

static ushort udp_port = UET_DEFAULT_UDP_PORT;
module_param(udp_port, ushort, 0444);
MODULE_PARM_DESC(udp_port, "default UDP destination port of UET");

static ushort start_port = UET_DEFAULT_START_PORT;
module_param(start_port, ushort, 0444);
MODULE_PARM_DESC(start_port, "default StartingPortOffset of the rr/active range");

static unsigned char entropy_bits = UET_DEFAULT_ENTROPY_MASK_BITS;
module_param(entropy_bits, byte, 0444);
MODULE_PARM_DESC(entropy_bits, "default EntropyMaskBits (0..8)");

static uint link_rate_mbps = UET_DEFAULT_LINK_RATE_MBPS;
module_param(link_rate_mbps, uint, 0444);
MODULE_PARM_DESC(link_rate_mbps, "default link rate for BDP sizing, Mbit/s");

static uint base_rtt_ns = UET_DEFAULT_BASE_RTT_NS;
module_param(base_rtt_ns, uint, 0444);
MODULE_PARM_DESC(base_rtt_ns, "default initial base RTT, ns");

static uint mss = UET_DEFAULT_MSS;
module_param(mss, uint, 0444);
MODULE_PARM_DESC(mss, "default payload bytes per data packet");

static void uet_config_from_params(struct uet_config *c)
{
	uet_config_init_defaults(c);
	c->spray = spray;
	c->pdc_groups = pdc_groups;
	c->udp_port = udp_port;
	c->start_port = start_port;
	c->entropy_mask_bits = entropy_bits;
	c->link_rate_mbps = link_rate_mbps;
	c->base_rtt_ns = base_rtt_ns;
	c->mss = mss;
}

/* The parameters obey the limits netlink enforces on the same values. */
static int uet_params_check(void)
{
	struct uet_config c;

	uet_config_from_params(&c);
	if (!udp_port ||
	    mss < UET_MSS_MIN || mss > UET_MSS_MAX ||
	    base_rtt_ns < UET_BASE_RTT_NS_MIN ||
	    base_rtt_ns > UET_BASE_RTT_NS_MAX ||
	    link_rate_mbps < UET_LINK_RATE_MBPS_MIN ||
	    link_rate_mbps > UET_LINK_RATE_MBPS_MAX ||
	    uet_config_validate(&c, NULL)) {
		pr_err("uet: module parameter out of range (see modinfo uet)\n");
		return -EINVAL;
	}
	return 0;
}

static int __net_init uet_net_init(struct net *net)
{
	struct uet_net *un = uet_net(net);
	struct uet_cfg_rcu *c;
	int err;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	uet_config_from_params(&c->cfg);
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
	uet_debugfs_net_init(un);
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

	uet_debugfs_net_exit(un);
	uet_udp_close(un);
	uet_pdc_net_exit(un);
	uet_stats_exit(un);
	/* No reader is left: the namespace is past its last user. */
	kfree(rcu_dereference_protected(un->cfg, true));
	RCU_INIT_POINTER(un->cfg, NULL);
}

/*
 * Registered as a device, not a subsystem, so that a namespace's uet goes
 * before its devices do: the UDP sockets and PDCs hold routes (a multicast
 * packet's early demux caches its input route, on lo, in the socket's
 * sk_rx_dst), and netdev_run_todo() would wait for them forever before
 * the exit of a subsystem could run.
 */
static struct pernet_operations uet_net_ops = {
	.init	= uet_net_init,
	.exit	= uet_net_exit,
	.id	= &uet_net_id,
	.size	= sizeof(struct uet_net),
};

static int __init uet_init(void)
{
	int err;

	err = uet_params_check();
	if (err)
		return err;
	uet_debugfs_init();
	err = register_pernet_device(&uet_net_ops);
	if (err)
		goto err_debugfs;
	err = uet_stats_sysfs_init();
	if (err)
		goto err_pernet;
	err = uet_job_init();
	if (err)
		goto err_sysfs;
	err = uet_netlink_init();
	if (err)
		goto err_job;
	err = uet_af_init();
	if (err)
		goto err_netlink;
	return 0;

err_netlink:
	uet_netlink_exit();
err_job:
	uet_job_exit();
err_sysfs:
	uet_stats_sysfs_exit();
err_pernet:
	unregister_pernet_device(&uet_net_ops);
err_debugfs:
	uet_debugfs_exit();
	return err;
}

static void __exit uet_exit(void)
{
	uet_af_exit();
	uet_netlink_exit();
	uet_job_exit();
	uet_stats_sysfs_exit();
	unregister_pernet_device(&uet_net_ops);
	uet_debugfs_exit();
	/* Destinations are freed by RCU callbacks in this module. */
	rcu_barrier();
}

module_init(uet_init);
module_exit(uet_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Ultra Ethernet Transport PDS over UDP with packet spraying");
MODULE_VERSION(UET_VERSION);
