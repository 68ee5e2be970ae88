// SPDX-License-Identifier: GPL-2.0
/*
 * uet: debugfs, for developers.  /sys/kernel/debug/uet/<netns inode>/
 * holds, in plain text, a namespace's configuration, counters,
 * destinations with their spraying state, PDCs with their internals, and
 * the PSN memory of closed PDCs.  Operators get the same state, as ABI,
 * through netlink (uetctl); the layout here may change at any time.
 *
 * Each file is produced whole when opened (single_open): the tables are
 * walked under RCU, each PDC read under its own lock.  A walk that meets a
 * table resize starts over and may list entries twice.
 */
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <uet/debugfs.h>
#include <uet/msg.h>
#include <uet/net.h>
#include <uet/pdc.h>
#include <uet/spray.h>
#include <uet/stats.h>

/* Values fetched from a spraying state per call, from the stack. */
#define UET_DBG_VALUES	32
/* Entries shown per RCU read section of a table walk. */
#define UET_DBG_BATCH	64

static struct dentry *uet_debugfs_root;

static const char * const uet_dbg_spray_names[] = {
	[UET_SPRAY_NONE] = "none",
	[UET_SPRAY_RR] = "rr",
	[UET_SPRAY_ACTIVE] = "active",
	[UET_SPRAY_REPS] = "reps",
};

static const char * const uet_dbg_phase_names[] = {
	[UET_SPRAY_PHASE_NORMAL] = "normal",
	[UET_SPRAY_PHASE_FREEZING] = "freezing",
	[UET_SPRAY_PHASE_WINDOW] = "window",
};

static void uet_dbg_addr(struct seq_file *m, const struct in6_addr *a)
{
	if (ipv6_addr_v4mapped(a))
		seq_printf(m, "%pI4", &a->s6_addr32[3]);
	else
		seq_printf(m, "%pI6c", a);
}

static int uet_dbg_config_show(struct seq_file *m, void *v)
{
	struct uet_net *un = m->private;
	struct uet_config c;

	rcu_read_lock();
	c = *uet_cfg(un);
	rcu_read_unlock();
	seq_printf(m, "spray %s\n", uet_dbg_spray_names[c.spray]);
	seq_printf(m, "entropy_mask_bits %u\nstart_port %u\n",
		   c.entropy_mask_bits, c.start_port);
	seq_printf(m, "active_set_size %u (in use: %u)\n", c.active_set_size,
		   uet_config_active_set_size(&c));
	seq_printf(m, "reps_buf_bits %u\nev_set_size %u\n", c.reps_buf_bits,
		   c.ev_set_size);
	seq_printf(m, "reps_window %u\n", uet_config_reps_window(&c));
	seq_printf(m, "freeze_timeout_ns %u\nfail_detect_mult %u\n",
		   c.freeze_timeout_ns, c.fail_detect_mult);
	seq_printf(m, "probe_period_ns %u\npdc_groups %u\n",
		   c.probe_period_ns, c.pdc_groups);
	seq_printf(m, "link_rate_mbps %u\nbase_rtt_ns %u\nbdp_bytes %llu\n",
		   c.link_rate_mbps, c.base_rtt_ns,
		   uet_config_bdp_bytes(&c, c.base_rtt_ns));
	seq_printf(m, "mss %u\nudp_port %u (bound: %u)\npdc_idle_ms %u\n",
		   c.mss, c.udp_port, READ_ONCE(un->udp_port), c.pdc_idle_ms);
	seq_printf(m, "rto_min_us %u\nrto_max_us %u\nmax_retx %u\n",
		   c.rto_min_us, c.rto_max_us, c.max_retx);
	seq_printf(m, "seed %llu\nsack_retx_thresh %u\n", c.seed,
		   c.sack_retx_thresh);
	seq_printf(m, "ack_delay_us %u\n", c.ack_delay_us);
	seq_printf(m, "spray_burst %u\n", c.spray_burst);
	seq_printf(m, "superpackets %u\n", c.superpackets);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uet_dbg_config);

static int uet_dbg_stats_show(struct seq_file *m, void *v)
{
	struct uet_net *un = m->private;
	u64 sum[UET_STAT_MAX];
	int i;

	uet_stats_read(un, sum);
	for (i = 0; i < UET_STAT_MAX; i++)
		seq_printf(m, "%s %llu\n", uet_stat_names[i], sum[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uet_dbg_stats);

/* The summary of a spraying state, then its values with their flags. */
static void uet_dbg_spray(struct seq_file *m, struct uet_spray *s)
{
	struct uet_spray_value vals[UET_DBG_VALUES];
	struct uet_spray_info info;
	u32 first = 0, n, i;

	uet_spray_get_info(s, &info);
	seq_printf(m, " spray=%s next=%u", uet_dbg_spray_names[info.type],
		   info.next);
	if (info.type == UET_SPRAY_ACTIVE) {
		seq_printf(m, " nvals=%u nbad=%u nmarked=%u", info.nvals,
			   info.nbad, info.nmarked);
		if (info.nbad)
			seq_printf(m, " probe=%u", info.probe);
	} else if (info.type == UET_SPRAY_REPS) {
		seq_printf(m, " phase=%s cap=%u cached=%u filled=%u window_left=%u",
			   uet_dbg_phase_names[info.phase], info.nvals,
			   info.cached, info.filled, info.window_left);
		if (info.phase == UET_SPRAY_PHASE_FREEZING)
			seq_printf(m, " frozen_ns=%llu",
				   ktime_get_ns() - info.freeze_start_ns);
	}
	seq_puts(m, "\n  values:");
	do {
		n = uet_spray_get_values(s, first, vals, UET_DBG_VALUES);
		for (i = 0; i < n; i++)
			seq_printf(m, " %u%s%s%s", vals[i].value,
				   vals[i].flags & UET_SPRAY_VF_MARKED ? "m" : "",
				   vals[i].flags & UET_SPRAY_VF_BAD ? "b" : "",
				   vals[i].flags & UET_SPRAY_VF_STALE ? "s" : "");
		first += n;
	} while (n == UET_DBG_VALUES);
}

/*
 * Walk @ht under RCU, calling @show for each entry, which stays allocated
 * meanwhile (entries are freed through RCU).  Every UET_DBG_BATCH entries
 * the walk leaves its RCU read section, so that thousands of entries do
 * not hold up grace periods.  Context: process.
 */
static void uet_dbg_walk(struct seq_file *m, struct rhashtable *ht,
			 void (*show)(struct seq_file *m, void *obj))
{
	struct rhashtable_iter iter;
	unsigned int n = 0;
	void *obj;

	rhashtable_walk_enter(ht, &iter);
	rhashtable_walk_start(&iter);
	while ((obj = rhashtable_walk_next(&iter))) {
		if (obj == ERR_PTR(-EAGAIN)) {
			seq_puts(m, "# table resized: the walk starts over\n");
			continue;
		}
		if (IS_ERR(obj))
			break;
		show(m, obj);
		if (++n % UET_DBG_BATCH)
			continue;
		rhashtable_walk_stop(&iter);
		cond_resched();
		rhashtable_walk_start(&iter);
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
}

static void uet_dbg_dest(struct seq_file *m, void *obj)
{
	struct uet_dest *d = obj;
	struct uet_spray *spray;
	struct uet_pdc *pdc;
	char sep = '=';

	uet_dbg_addr(m, &d->addr);
	seq_printf(m, " refs=%u pdcs", READ_ONCE(d->refs));
	list_for_each_entry_rcu(pdc, &d->pdcs, dest_node) {
		seq_printf(m, "%c%u", sep, pdc->lid);
		sep = ',';
	}
	/* Pairs with the release that publishes it set up (pdc.c). */
	spray = smp_load_acquire(&d->spray);
	if (spray)
		uet_dbg_spray(m, spray);
	seq_putc(m, '\n');
}

static int uet_dbg_dests_show(struct seq_file *m, void *v)
{
	struct uet_net *un = m->private;

	seq_puts(m, "# address refs pdcs spraying-state\n");
	seq_puts(m, "#   values: m marked, b bad, s stale (REPS replay)\n");
	uet_dbg_walk(m, &un->dests, uet_dbg_dest);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uet_dbg_dests);

static s64 uet_dbg_in(u64 when, u64 now)
{
	return when ? (s64)(when - now) : 0;
}

static void uet_dbg_pdc_tx(struct seq_file *m, struct uet_pdc *pdc)
{
	const struct uet_pdc_tx *tx = &pdc->tx;
	u64 now = ktime_get_ns();
	struct uet_pdc_counts c;

	uet_pdc_counts_get(pdc, &c);
	seq_printf(m, " start=%u una=%u nxt=%u high_acked=%u ed_psn=%u",
		   tx->start_psn, tx->snd_una, tx->snd_nxt, tx->high_acked,
		   tx->ed_psn);
	seq_printf(m, " out=%u retx=%u hold=%u msgs=%u sendq=%u txq=%u",
		   c.out, c.retx, c.held, c.msgs, c.queued,
		   skb_queue_len(&tx->txq));
	seq_printf(m, " srtt_us=%u rttvar_us=%u rto_us=%u", tx->srtt_us,
		   tx->rttvar_us, tx->rto_us);
	if (tx->min_rtt_ns != U64_MAX)
		seq_printf(m, " min_rtt_ns=%llu", tx->min_rtt_ns);
	if (tx->pmtu)
		seq_printf(m, " pmtu=%u", tx->pmtu);
	if (uet_pdc_nscc(pdc))
		seq_printf(m, " cwnd=%u cc_in_flight=%lld cc_action=%u cc_base_rtt_ns=%u cc_avg_delay_ns=%u",
			   tx->nscc.cwnd, tx->nscc.in_flight,
			   tx->nscc.last_action, tx->nscc.base_rtt_ns,
			   uet_nscc_avg_delay_ns(&tx->nscc));
	if (uet_pdc_rccc(pdc))
		seq_printf(m, " credit=%d credit_queued=%u credit_grant=%u credit_waiting=%d",
			   (s32)(tx->rccc.init + tx->rccc.grant -
				 tx->rccc.sent), tx->rccc.queued,
			   tx->rccc.grant, tx->rccc.waiting);
	seq_printf(m, " rto_in_ns=%lld probe_in_ns=%lld",
		   uet_dbg_in(tx->rto_at, now), uet_dbg_in(tx->probe_at, now));
	seq_printf(m, " next_msg_id=%u probe_id=%u syn=%d busy=%d err=%d",
		   tx->next_msg_id, tx->probe_id, tx->syn, tx->xmit_busy,
		   tx->last_err);
	if (!pdc->dest && pdc->spray)
		uet_dbg_spray(m, pdc->spray);
}

static void uet_dbg_pdc_rx(struct seq_file *m, struct uet_pdc *pdc)
{
	const struct uet_pdc_rx *rx = &pdc->rx;
	struct uet_pdc_counts c;

	uet_pdc_counts_get(pdc, &c);
	seq_printf(m, " start=%u epsn=%u held=%u since_ack=%u partial_msgs=%u",
		   rx->start_psn, rx->epsn, c.out, rx->since_ack, c.msgs);
	/* what an initiator asked, and got, whatever our cc */
	seq_printf(m, " credit_req=%u credit_grant=%u credit_held=%u",
		   rx->rccc_req, rx->rccc_grant, rx->rccc_held);
}

static void uet_dbg_pdc(struct seq_file *m, void *obj)
{
	struct uet_pdc *pdc = obj;
	const struct uet_pdc_key *k = &pdc->key;

	spin_lock_bh(&pdc->lock);
	seq_printf(m, "%u %s rid=%u ", pdc->lid,
		   k->role == UET_PDC_INITIATOR ? "initiator" : "target",
		   pdc->rid);
	uet_dbg_addr(m, &k->laddr);
	seq_puts(m, " -> ");
	uet_dbg_addr(m, &k->raddr);
	seq_printf(m, " job=%u dead=%d idle_ms=%u mss=%u", k->job, pdc->dead,
		   jiffies_to_msecs(jiffies - pdc->last_active), pdc->mss);
	/* A dead PDC may have released its state already. */
	if (!pdc->dead) {
		if (k->role == UET_PDC_INITIATOR)
			uet_dbg_pdc_tx(m, pdc);
		else
			uet_dbg_pdc_rx(m, pdc);
	}
	spin_unlock_bh(&pdc->lock);
	seq_putc(m, '\n');
}

static int uet_dbg_pdcs_show(struct seq_file *m, void *v)
{
	struct uet_net *un = m->private;

	seq_printf(m, "# %d initiators, %d targets; lid role rid local -> remote ...\n",
		   atomic_read(&un->n_initiator), atomic_read(&un->n_target));
	uet_dbg_walk(m, &un->pdc_by_id, uet_dbg_pdc);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uet_dbg_pdcs);

static int uet_dbg_psn_memo_show(struct seq_file *m, void *v)
{
	struct uet_net *un = m->private;
	struct uet_psn_memo memo;
	int i;

	seq_puts(m, "# slot peer last-psn: kept after a PDC closes\n");
	for (i = 0; i < UET_PSN_MEMO_SLOTS; i++) {
		spin_lock_bh(&un->pdc_lock);
		memo = un->psn_memo[i];
		spin_unlock_bh(&un->pdc_lock);
		if (!memo.valid)
			continue;
		seq_printf(m, "%d ", i);
		uet_dbg_addr(m, &memo.peer);
		seq_printf(m, " %u\n", memo.last);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uet_dbg_psn_memo);

/**
 * uet_debugfs_net_init() - create a namespace's debugfs directory
 * @un: the namespace
 *
 * Failures are not errors: debugfs is optional, and its functions accept
 * the error pointers they return.
 *
 * Context: process (pernet init).
 */
void uet_debugfs_net_init(struct uet_net *un)
{
	char name[16];

	snprintf(name, sizeof(name), "%u", un->net->ns.inum);
	un->debugfs = debugfs_create_dir(name, uet_debugfs_root);
	debugfs_create_file("config", 0444, un->debugfs, un,
			    &uet_dbg_config_fops);
	debugfs_create_file("stats", 0444, un->debugfs, un,
			    &uet_dbg_stats_fops);
	debugfs_create_file("dests", 0444, un->debugfs, un,
			    &uet_dbg_dests_fops);
	debugfs_create_file("pdcs", 0444, un->debugfs, un,
			    &uet_dbg_pdcs_fops);
	debugfs_create_file("psn_memo", 0444, un->debugfs, un,
			    &uet_dbg_psn_memo_fops);
}

/**
 * uet_debugfs_net_exit() - remove a namespace's debugfs directory
 * @un: the namespace
 *
 * Waits for the readers of its files, so it must come before the state
 * they show is torn down.
 *
 * Context: process (pernet exit).
 */
void uet_debugfs_net_exit(struct uet_net *un)
{
	debugfs_remove_recursive(un->debugfs);
	un->debugfs = NULL;
}

/**
 * uet_debugfs_init() - create /sys/kernel/debug/uet
 *
 * Context: module init, before any namespace is set up.
 */
void uet_debugfs_init(void)
{
	uet_debugfs_root = debugfs_create_dir("uet", NULL);
}

/**
 * uet_debugfs_exit() - remove /sys/kernel/debug/uet
 *
 * Context: module exit, after every namespace's directory is gone.
 */
void uet_debugfs_exit(void)
{
	debugfs_remove_recursive(uet_debugfs_root);
	uet_debugfs_root = NULL;
}
