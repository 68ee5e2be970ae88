/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: per-network-namespace state.
 *
 * Lock order (outermost first):
 *   uet_net.cfg_lock (mutex, process context: configuration changes)
 *   lock_sock() of an AF_UET socket (process context: bind, sendmsg)
 *   uet_net.pdc_lock, uet_net.ep_lock (spinlocks, _bh; never nested)
 *   uet_pdc.lock (spinlock, _bh: one PDC's state)
 *   the spraying state's lock; uet_sock.rxq_lock; sk_error_queue.lock;
 *   uet_page_ring.lock
 * Readers of the configuration take no lock: rcu_dereference(un->cfg).
 * Readers of the PDC, destination and endpoint tables take no lock either:
 * they look up under RCU and then take the object's own lock.
 * Documentation/datapath.rst explains who takes which and why.
 */
#ifndef _UET_NET_H
#define _UET_NET_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/percpu_counter.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/netns/generic.h>
#include <uet/config.h>
#include <uet/kunit.h>
#include <uet/rccc.h>

/**
 * struct uet_cfg_rcu - a published configuration and its deferred free
 * @cfg: the configuration, immutable once published
 * @rcu: frees the copy after the readers that might still see it
 */
struct uet_cfg_rcu {
	struct uet_config cfg;
	struct rcu_head rcu;
};

/* Endpoint hash: 2^8 buckets of (job, endpoint) -> socket. */
#define UET_EP_HASH_BITS	8
/* Slots remembering the last PSN used with a peer after its PDC closed. */
#define UET_PSN_MEMO_SLOTS	128
/* Slots (source address hashes) counting the target PDCs each source opened. */
#define UET_SRC_SLOTS		256

struct dentry;
struct sk_buff;
struct sock;
struct socket;
struct uet_stats;

/**
 * struct uet_psn_memo - the last PSN used with one peer, kept after close
 * @peer: the peer's address (IPv4 as v4-mapped IPv6)
 * @last: the last PSN a closed PDC to @peer sent
 * @valid: @peer and @last are set
 */
struct uet_psn_memo {
	struct in6_addr peer;
	u32 last;
	bool valid;
};

/**
 * struct uet_net - what uet keeps for one network namespace
 * @net: the namespace (not refcounted: we live and die with it)
 * @cfg: current configuration; written under @cfg_lock, read under RCU
 * @cfg_lock: serialises configuration changes
 * @sock4: kernel UDP socket receiving UET over IPv4; written under
 *	@cfg_lock, read under RCU
 * @sock6: the same for IPv6; NULL when IPv6 is off
 * @udp_port: the port @sock4 and @sock6 are bound to; under @cfg_lock
 * @stats: per-CPU counters (struct uet_stats)
 * @rx_mem: pages held by messages being received or waiting for
 *	recvmsg(), bounded by the configuration's rx_mem (per-CPU batches,
 *	so that the per-packet path writes no shared cache line)
 * @ep_lock: serialises changes of @ep_hash
 * @ep_hash: bound sockets by (job, endpoint); readers under RCU
 * @pdc_lock: serialises insertion into and removal from @pdc_by_id,
 *	@pdc_by_key and @dests, @reap, @psn_memo, and destination refcounts
 * @pdc_by_id: every PDC by its local PDC id; readers under RCU
 * @pdc_by_key: every PDC by struct uet_pdc_key; readers under RCU
 * @dests: PDC groups (struct uet_dest) by remote address; under @pdc_lock
 * @reap: PDCs unlinked from the tables and waiting for @gc_work to free
 *	them; under @pdc_lock
 * @n_initiator: initiator PDCs open (bounded by UET_PDC_MAX)
 * @n_target: target PDCs open (bounded by UET_PDC_MAX)
 * @psn_memo: last PSN used with recent peers; under @pdc_lock
 * @targets: linked target PDCs (uet_pdc.age_node), oldest first, where a
 *	SYN finding the table full looks for one to evict; under @pdc_lock
 * @src_open: target PDCs not yet freed, per slot of source address hash,
 *	bounded by UET_PDC_SRC_MAX; under @pdc_lock
 * @src_seed: random seed of the @src_open hash, so that a remote host
 *	cannot pick addresses that share a slot with its victim's
 * @user_open: initiator PDCs not yet freed, per slot of the hash of the
 *	uid that opened them, bounded by UET_PDC_USER_MAX; under @pdc_lock
 * @tables_gen: bumped under @pdc_lock whenever a PDC or destination
 *	enters or leaves the tables, so that a multi-part dump can tell
 *	that they changed under it (read with READ_ONCE())
 * @spray_seq: spraying states made so far, mixed into the PRNG key of the
 *	next one; under @pdc_lock
 * @rccc: the credit pacer of the namespace's RCCC targets
 * @gc_work: closes idle PDCs and frees reaped ones
 * @dying: the namespace is going away: no new PDC, no rescheduled work
 * @debugfs: the namespace's directory under /sys/kernel/debug/uet; set at
 *	init and exit only
 * @challenge_sec: the second (jiffies / HZ) @challenge_left is for;
 *	moved on with cmpxchg() by the first challenge of a new second
 * @challenge_left: challenge ACKs the namespace may still send in
 *	@challenge_sec (atomic; only a challenge writes either field, never
 *	a packet of a healthy transfer)
 * @test_xmit: KUnit only: takes every packet the namespace would send,
 *	with its route, in place of IP (see uet_test_xmit()); set by the
 *	suites before the namespace sends anything, NULL otherwise
 */
struct uet_net {
	struct net *net;
	struct uet_cfg_rcu __rcu *cfg;
	struct mutex cfg_lock;		/* serialises configuration changes */

	struct socket __rcu *sock4;
	struct socket __rcu *sock6;
	u16 udp_port;
	struct uet_stats __percpu *stats;
	struct percpu_counter rx_mem;

	spinlock_t ep_lock;		/* protects ep_hash changes */
	DECLARE_HASHTABLE(ep_hash, UET_EP_HASH_BITS);

	spinlock_t pdc_lock;		/* see kernel-doc above */
	struct rhashtable pdc_by_id;
	struct rhashtable pdc_by_key;
	struct rhashtable dests;
	struct list_head reap;
	atomic_t n_initiator;
	atomic_t n_target;
	struct uet_psn_memo psn_memo[UET_PSN_MEMO_SLOTS];
	struct list_head targets;
	u16 src_open[UET_SRC_SLOTS];
	u32 src_seed;
	u16 user_open[UET_SRC_SLOTS];
	unsigned int tables_gen;
	u64 spray_seq;
	struct uet_rccc_pacer rccc;
	struct delayed_work gc_work;
	bool dying;
	struct dentry *debugfs;
	u32 challenge_sec;
	atomic_t challenge_left;
#if UET_KUNIT_HOOKS
	void (*test_xmit)(struct uet_net *un, struct sk_buff *skb);
#endif
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

int uet_netlink_init(void);
void uet_netlink_exit(void);

int uet_udp_open(struct uet_net *un, u16 port);
void uet_udp_close(struct uet_net *un);
int uet_udp_rebind(struct uet_net *un, u16 port);

#if UET_KUNIT_HOOKS
int uet_encap_rcv(struct sock *sk, struct sk_buff *skb);
#endif

/**
 * uet_test_xmit() - hand a packet to the KUnit suites instead of IP
 * @un: the namespace sending it
 * @skb: the packet (struct uet_skb_cb set, its route held or NULL)
 *
 * The suites capture what a namespace of theirs sends, to check the ACKs,
 * NACKs and data the state machines emit.  Without KUnit this is false
 * and costs nothing.
 *
 * Return: true when the suites took @skb and its route.
 */
static inline bool uet_test_xmit(struct uet_net *un, struct sk_buff *skb)
{
#if UET_KUNIT_HOOKS
	void (*xmit)(struct uet_net *un, struct sk_buff *skb);

	xmit = READ_ONCE(un->test_xmit);
	if (xmit) {
		xmit(un, skb);
		return true;
	}
#endif
	return false;
}

#endif /* _UET_NET_H */
