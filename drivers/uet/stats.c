// SPDX-License-Identifier: GPL-2.0
/*
 * uet: per-namespace counters: per-CPU storage, summed on read.
 */
#include <linux/kobject.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <net/net_namespace.h>
#include <uet/kunit.h>
#include <uet/net.h>
#include <uet/spray.h>
#include <uet/stats.h>

/* Names for dumps: stable, lower case, as in /sys/.../statistics. */
const char * const uet_stat_names[UET_STAT_MAX] = {
	[UET_STAT_TX_PKTS]		= "tx_packets",
	[UET_STAT_TX_BYTES]		= "tx_bytes",
	[UET_STAT_RETX_TIMEOUT]		= "retx_timeout",
	[UET_STAT_RETX_SACK]		= "retx_sack",
	[UET_STAT_RETX_NACK]		= "retx_nack",
	[UET_STAT_TX_MSGS]		= "tx_messages",
	[UET_STAT_TX_MSGS_DONE]		= "tx_messages_done",
	[UET_STAT_TX_MSGS_FAILED]	= "tx_messages_failed",
	[UET_STAT_TX_NOROUTE]		= "tx_no_route",
	[UET_STAT_TX_NOMEM]		= "tx_no_memory",
	[UET_STAT_RX_PKTS]		= "rx_packets",
	[UET_STAT_RX_BYTES]		= "rx_bytes",
	[UET_STAT_RX_MSGS]		= "rx_messages",
	[UET_STAT_RX_OOO]		= "rx_out_of_order",
	[UET_STAT_ACK_TX]		= "ack_tx",
	[UET_STAT_SACK_TX]		= "sack_tx",
	[UET_STAT_ACK_RX]		= "ack_rx",
	[UET_STAT_SACK_RX]		= "sack_rx",
	[UET_STAT_NACK_TX]		= "nack_tx",
	[UET_STAT_NACK_RX]		= "nack_rx",
	[UET_STAT_NACK_RX_TRIMMED]	= "nack_rx_trimmed",
	[UET_STAT_NACK_RX_NORES]	= "nack_rx_no_resource",
	[UET_STAT_NACK_RX_OOR]		= "nack_rx_out_of_window",
	[UET_STAT_NACK_RX_FATAL]	= "nack_rx_fatal",
	[UET_STAT_TRIMMED_RX]		= "trimmed_rx",
	[UET_STAT_PROBE_TX]		= "probe_tx",
	[UET_STAT_PROBE_RX]		= "probe_rx",
	[UET_STAT_PROBE_ACK_RX]		= "probe_ack_rx",
	[UET_STAT_PDC_OPEN]		= "pdc_opened",
	[UET_STAT_PDC_CLOSE]		= "pdc_closed",
	[UET_STAT_SPRAY_CREATE]		= "spray_created",
	[UET_STAT_SPRAY_FREE]		= "spray_freed",
	[UET_STAT_EV_MARK]		= "ev_marked",
	[UET_STAT_EV_BAD]		= "ev_bad",
	[UET_STAT_EV_RESTORE]		= "ev_restored",
	[UET_STAT_REPS_FREEZE]		= "reps_freeze",
	[UET_STAT_REPS_THAW]		= "reps_thaw",
	[UET_STAT_REPS_EXPLORE]		= "reps_explore",
	[UET_STAT_REPS_RECYCLE]		= "reps_recycle",
	[UET_STAT_REPS_DISCARD]		= "reps_discard",
	[UET_STAT_DROP_MALFORMED]	= "drop_malformed",
	[UET_STAT_DROP_UNKNOWN_TYPE]	= "drop_unknown_type",
	[UET_STAT_DROP_UNKNOWN_PDC]	= "drop_unknown_pdc",
	[UET_STAT_DROP_WINDOW]		= "drop_out_of_window",
	[UET_STAT_DROP_DUP]		= "drop_duplicate",
	[UET_STAT_DROP_NOMEM]		= "drop_no_memory",
	[UET_STAT_DROP_RCVBUF]		= "drop_rcvbuf",
	[UET_STAT_DROP_NO_ENDPOINT]	= "drop_no_endpoint",
	[UET_STAT_DROP_PDC_LIMIT]	= "drop_pdc_limit",
	[UET_STAT_DROP_POLICY]		= "drop_policy",
	[UET_STAT_DROP_CSUM]		= "drop_no_checksum",
	[UET_STAT_RX_REORDER_SUM]	= "rx_reorder_depth_sum",
	[UET_STAT_RX_REORDER_MAX]	= "rx_reorder_depth_max",
	[UET_STAT_PDC_OPEN_NOW]		= "pdc_active",
	[UET_STAT_NACK_TX_TRIMMED]	= "nack_tx_trimmed",
	[UET_STAT_EVENTS_LOST]		= "events_lost",
	[UET_STAT_REPS_REPLAY]		= "reps_replay",
	[UET_STAT_DROP_SRC_LIMIT]	= "drop_src_limit",
	[UET_STAT_PDC_EVICT]		= "pdc_evicted",
	[UET_STAT_DROP_SYN_CHALLENGE]	= "drop_syn_challenged",
	[UET_STAT_DROP_ACK_UNSENT]	= "drop_ack_unsent",
	[UET_STAT_DROP_NACK_UNSENT]	= "drop_nack_unsent",
	[UET_STAT_DROP_NOT_HOST]	= "drop_not_host",
	[UET_STAT_DROP_V4MAPPED]	= "drop_v4mapped",
	[UET_STAT_RX_MEM]		= "rx_mem",
	[UET_STAT_DROP_RX_MEM]		= "drop_rx_mem",
	[UET_STAT_DROP_OVERLAP]		= "drop_overlap",
	[UET_STAT_DROP_UNALIGNED]	= "drop_unaligned",
	[UET_STAT_DROP_DISCARDED]	= "drop_discarded",
	[UET_STAT_RX_MSG_TIMEOUT]	= "rx_msg_timeout",
	[UET_STAT_RX_MSG_REUSED]	= "rx_msg_reused",
	[UET_STAT_ICMP_RX]		= "icmp_rx",
	[UET_STAT_ICMP_UNMATCHED]	= "icmp_unmatched",
	[UET_STAT_PMTU_UPDATE]		= "pmtu_update",
	[UET_STAT_RETX_PMTU]		= "retx_pmtu",
	[UET_STAT_CHALLENGE_ACK]	= "challenge_ack",
	[UET_STAT_CHALLENGE_ACK_SKIPPED]	= "challenge_ack_skipped",
	[UET_STAT_TX_ROUTE_LOOKUP]	= "tx_route_lookups",
	[UET_STAT_DROP_TOO_BIG]		= "drop_too_big",
	[UET_STAT_NSCC_PROP_INC]	= "nscc_inc_prop",
	[UET_STAT_NSCC_FAST_INC]	= "nscc_inc_fast",
	[UET_STAT_NSCC_FAIR_INC]	= "nscc_inc_fair",
	[UET_STAT_NSCC_HOLD]	= "nscc_hold",
	[UET_STAT_NSCC_MULT_DEC]	= "nscc_md",
	[UET_STAT_NSCC_MD_WAIT]	= "nscc_md_wait",
	[UET_STAT_NSCC_QUICK_ADAPT]	= "nscc_quick_adapt",
	[UET_STAT_NSCC_QA_IGNORE]	= "nscc_qa_ignore",
	[UET_STAT_NSCC_TRIM_DEC]	= "nscc_trim_dec",
	[UET_STAT_NSCC_TIMEOUT_DEC]	= "nscc_loss_dec",
	[UET_STAT_RCCC_REQ_TX]		= "rccc_req_tx",
	[UET_STAT_RCCC_REQ_RX]		= "rccc_req_rx",
	[UET_STAT_RCCC_CREDIT_TX]	= "rccc_credit_tx",
	[UET_STAT_RCCC_CREDIT_RX]	= "rccc_credit_rx",
	[UET_STAT_RCCC_WAIT]		= "rccc_wait",
	[UET_STAT_RETX_SPURIOUS]	= "retx_spurious",
	[UET_STAT_ACK_HELD]		= "ack_held",
	[UET_STAT_EV_SKIP]		= "ev_skipped",
	[UET_STAT_RX_MSG_KEPT]		= "rx_msg_kept",
	[UET_STAT_TX_BATCH]		= "tx_batch",
	[UET_STAT_RX_BATCH]		= "rx_batch",
	[UET_STAT_RX_BATCH_CUT]		= "rx_batch_cut",
	[UET_STAT_RX_PKT_KEPT]		= "rx_pkt_kept",
	[UET_STAT_TX_PAGES_REUSED]	= "tx_pages_reused",
	[UET_STAT_TX_PAGES_RELEASED]	= "tx_pages_released",
	[UET_STAT_RCCC_LOST]		= "rccc_credit_lost",
	[UET_STAT_TX_SUPER]		= "tx_super",
	[UET_STAT_TX_SUPER_SEGS]	= "tx_super_segs",
	[UET_STAT_RX_SUPER]		= "rx_super",
	[UET_STAT_RX_SUPER_SEGS]	= "rx_super_segs",
	[UET_STAT_RX_SUPER_APART]	= "rx_super_apart",
	[UET_STAT_TX_TIMER_LATE]	= "tx_timer_late",
};

/**
 * uet_stat_is_gauge() - whether a counter is a level rather than a count
 * @s: the counter
 *
 * Return: true for the counters that can go down or are maxima, which
 * per-second deltas must not show as rates.
 */
bool uet_stat_is_gauge(enum uet_stat s)
{
	return s == UET_STAT_RX_REORDER_MAX || s == UET_STAT_PDC_OPEN_NOW ||
	       s == UET_STAT_RX_MEM;
}

/* /proc/net/uet_stat: "name value" lines, the namespace's counters. */
static int uet_stats_show(struct seq_file *seq, void *v)
{
	struct uet_net *un = uet_net(seq_file_single_net(seq));
	u64 sum[UET_STAT_MAX];
	int i;

	uet_stats_read(un, sum);
	for (i = 0; i < UET_STAT_MAX; i++)
		seq_printf(seq, "%s %llu\n", uet_stat_names[i], sum[i]);
	return 0;
}

/**
 * uet_stats_init() - allocate a namespace's counters, its rx_mem count and
 *	their proc file
 * @un: the namespace
 *
 * Return: 0 or -ENOMEM.
 */
int uet_stats_init(struct uet_net *un)
{
	un->stats = alloc_percpu(struct uet_stats);
	if (!un->stats)
		return -ENOMEM;
	if (percpu_counter_init(&un->rx_mem, 0, GFP_KERNEL))
		goto err_stats;
	if (IS_ENABLED(CONFIG_PROC_FS) &&
	    !proc_create_net_single("uet_stat", 0444, un->net->proc_net,
				    uet_stats_show, NULL))
		goto err_rx_mem;
	return 0;

err_rx_mem:
	percpu_counter_destroy(&un->rx_mem);
err_stats:
	free_percpu(un->stats);
	un->stats = NULL;
	return -ENOMEM;
}

/**
 * uet_stats_exit() - remove a namespace's counters
 * @un: the namespace
 */
void uet_stats_exit(struct uet_net *un)
{
	remove_proc_entry("uet_stat", un->net->proc_net);
	WARN_ON_ONCE(percpu_counter_sum(&un->rx_mem));
	percpu_counter_destroy(&un->rx_mem);
	free_percpu(un->stats);
	un->stats = NULL;
}

/**
 * uet_stats_read() - sum a namespace's counters over every CPU
 * @un: the namespace
 * @sum: UET_STAT_MAX values, overwritten
 *
 * Each counter is read without stopping its writers: the sum is a
 * snapshot that may lag by the events counted while it was taken.
 */
void uet_stats_read(struct uet_net *un, u64 *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(*sum) * UET_STAT_MAX);
	for_each_possible_cpu(cpu) {
		const struct uet_stats *s = per_cpu_ptr(un->stats, cpu);

		for (i = 0; i < UET_STAT_MAX; i++) {
			u64 v = READ_ONCE(s->c[i]);

			if (i == UET_STAT_RX_REORDER_MAX)
				sum[i] = max(sum[i], v);
			else
				sum[i] += v;
		}
	}
	sum[UET_STAT_PDC_OPEN_NOW] = atomic_read(&un->n_initiator) +
				     atomic_read(&un->n_target);
	sum[UET_STAT_RX_MEM] = percpu_counter_sum_positive(&un->rx_mem);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_stats_read);

/*
 * /sys/kernel/uet/stats/<name>: the initial namespace's counters, one value
 * per file, as /sys/class/net/<dev>/statistics does for a device.  Each
 * file's attribute sits at its counter's index in uet_stats_attrs.
 */
static struct kobject *uet_kobj;
static struct kobj_attribute uet_stats_attrs[UET_STAT_MAX];
static struct attribute *uet_stats_attr_list[UET_STAT_MAX + 1];

static const struct attribute_group uet_stats_group = {
	.name	= "stats",
	.attrs	= uet_stats_attr_list,
};

static ssize_t uet_stats_attr_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	u64 sum[UET_STAT_MAX];

	uet_stats_read(uet_net(&init_net), sum);
	return sysfs_emit(buf, "%llu\n", sum[attr - uet_stats_attrs]);
}

/**
 * uet_stats_sysfs_init() - create /sys/kernel/uet/stats
 *
 * Context: module init, after the initial namespace's counters exist.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int uet_stats_sysfs_init(void)
{
	int i, err;

	for (i = 0; i < UET_STAT_MAX; i++) {
		sysfs_attr_init(&uet_stats_attrs[i].attr);
		uet_stats_attrs[i].attr.name = uet_stat_names[i];
		uet_stats_attrs[i].attr.mode = 0444;
		uet_stats_attrs[i].show = uet_stats_attr_show;
		uet_stats_attr_list[i] = &uet_stats_attrs[i].attr;
	}
	uet_kobj = kobject_create_and_add("uet", kernel_kobj);
	if (!uet_kobj)
		return -ENOMEM;
	err = sysfs_create_group(uet_kobj, &uet_stats_group);
	if (err) {
		kobject_put(uet_kobj);
		uet_kobj = NULL;
	}
	return err;
}

/**
 * uet_stats_sysfs_exit() - remove /sys/kernel/uet
 *
 * Context: module exit; waits for readers of the files.
 */
void uet_stats_sysfs_exit(void)
{
	sysfs_remove_group(uet_kobj, &uet_stats_group);
	kobject_put(uet_kobj);
	uet_kobj = NULL;
}

/**
 * uet_stats_spray() - count what a spraying engine call reports
 * @un: the namespace
 * @result: UET_SPRAY_R_* bits
 */
void uet_stats_spray(struct uet_net *un, u32 result)
{
	static const struct {
		u32 bit;
		enum uet_stat stat;
	} map[] = {
		{ UET_SPRAY_R_EXPLORE,	UET_STAT_REPS_EXPLORE },
		{ UET_SPRAY_R_REPLAY,	UET_STAT_REPS_REPLAY },
		{ UET_SPRAY_R_RECYCLE,	UET_STAT_REPS_RECYCLE },
		{ UET_SPRAY_R_DISCARD,	UET_STAT_REPS_DISCARD },
		{ UET_SPRAY_R_FREEZE,	UET_STAT_REPS_FREEZE },
		{ UET_SPRAY_R_THAW,	UET_STAT_REPS_THAW },
		{ UET_SPRAY_R_MARK,	UET_STAT_EV_MARK },
		{ UET_SPRAY_R_BAD,	UET_STAT_EV_BAD },
		{ UET_SPRAY_R_RESTORE,	UET_STAT_EV_RESTORE },
		{ UET_SPRAY_R_SKIP,	UET_STAT_EV_SKIP },
	};
	int i;

	for (i = 0; result && i < ARRAY_SIZE(map); i++)
		if (result & map[i].bit)
			uet_stat_inc(un, map[i].stat);
}
