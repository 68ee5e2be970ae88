// SPDX-License-Identifier: GPL-2.0
/*
 * uet: the PDC tables of a namespace.  PDCs are created on demand (an
 * initiator by sendmsg(), a target by the first SYN packet to arrive),
 * found under RCU by local id or by key, closed when idle or given up, and
 * freed by the namespace's work item.  Each remote address with a PDC to
 * or from it has a struct uet_dest, which holds the PDC group's spraying
 * state when PDC groups are on.  After a close, only the last PSN used
 * with the peer is kept, in a small fixed table.
 */
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <uet/kunit.h>
#include <uet/msg.h>
#include <uet/net.h>
#include <uet/netlink.h>
#include <uet/pdc.h>
#include <uet/route.h>
#include <uet/sock.h>
#include <uet/spray.h>
#include <uet/stats.h>
#include <uet/wire.h>

/* Bounds of the idle scan period, ms. */
#define UET_GC_MIN_MS		10
#define UET_GC_MAX_MS		1000
/* Attempts at drawing a free local PDC id. */
#define UET_LID_TRIES		16
/* Entropy values of spraying type none are drawn from here up. */
#define UET_OWN_PORT_MIN	49152

static const struct rhashtable_params uet_pdc_id_params = {
	.key_len	= sizeof(u16),
	.key_offset	= offsetof(struct uet_pdc, lid),
	.head_offset	= offsetof(struct uet_pdc, id_node),
	.automatic_shrinking = true,
};

static const struct rhashtable_params uet_pdc_key_params = {
	.key_len	= sizeof(struct uet_pdc_key),
	.key_offset	= offsetof(struct uet_pdc, key),
	.head_offset	= offsetof(struct uet_pdc, key_node),
	.automatic_shrinking = true,
};

static const struct rhashtable_params uet_dest_params = {
	.key_len	= sizeof(struct in6_addr),
	.key_offset	= offsetof(struct uet_dest, addr),
	.head_offset	= offsetof(struct uet_dest, node),
	.automatic_shrinking = true,
};

static u64 uet_addr_key(const struct in6_addr *a)
{
	const u32 *w = (const u32 *)a->s6_addr32;

	return ((u64)jhash2(w, 4, 0x75657430) << 32) | jhash2(w, 4, 0x75657431);
}

/**
 * uet_pdc_spray_key() - the PRNG key of a new spraying state
 * @un: the namespace
 * @a: the destination
 *
 * The destination, and the count of states the namespace made before:
 * each PDC group (or PDC, without groups) draws its own active set, order
 * and exploration, and one seed with one sequence of events still makes
 * the same draws.
 *
 * Context: @un->pdc_lock held.
 * Return: the key for uet_spray_create().
 */
VISIBLE_IF_KUNIT u64 uet_pdc_spray_key(struct uet_net *un,
				       const struct in6_addr *a)
{
	lockdep_assert_held(&un->pdc_lock);
	return uet_addr_key(a) ^ ++un->spray_seq;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_pdc_spray_key);

static struct uet_psn_memo *uet_psn_memo_slot(struct uet_net *un,
					      const struct in6_addr *peer)
{
	return &un->psn_memo[jhash2((const u32 *)peer->s6_addr32, 4, 0) %
			     UET_PSN_MEMO_SLOTS];
}

/*
 * A new start PSN: random, and at least 2^16 away (both ways round) from
 * the last PSN used with the peer, so that a late packet of the PDC that
 * closed cannot fall in the new PDC's window.  Caller holds pdc_lock.
 */
static u32 uet_psn_start(struct uet_net *un, const struct in6_addr *peer)
{
	const struct uet_psn_memo *m = uet_psn_memo_slot(un, peer);

	if (!m->valid || !ipv6_addr_equal(&m->peer, peer))
		return get_random_u32();
	return m->last + BIT(16) +
	       get_random_u32_below(U32_MAX - 2 * BIT(16) + 2);
}

static void uet_psn_remember(struct uet_net *un, const struct in6_addr *peer,
			     u32 last)
{
	struct uet_psn_memo *m = uet_psn_memo_slot(un, peer);

	m->peer = *peer;
	m->last = last;
	m->valid = true;
}

static void uet_tables_changed(struct uet_net *un)
{
	WRITE_ONCE(un->tables_gen, un->tables_gen + 1);
}

static void uet_gc_kick(struct uet_net *un, unsigned long delay)
{
	if (!un->dying)
		mod_delayed_work(system_wq, &un->gc_work, delay);
}

/* Free a destination and its spraying state after readers are done. */
static void uet_dest_free_rcu(struct rcu_head *head)
{
	struct uet_dest *d = container_of(head, struct uet_dest, rcu);

	uet_spray_destroy(d->spray);
	kfree(d);
}

static void uet_dest_unlink(struct uet_net *un, struct uet_dest *d)
{
	rhashtable_remove_fast(&un->dests, &d->node, uet_dest_params);
	uet_tables_changed(un);
	if (d->spray)
		uet_stat_inc(un, UET_STAT_SPRAY_FREE);
	call_rcu(&d->rcu, uet_dest_free_rcu);
}

/* Take a reference on the destination of @pdc; caller holds pdc_lock. */
static int uet_dest_get(struct uet_net *un, struct uet_pdc *pdc,
			const struct uet_config *cfg)
{
	const struct in6_addr *addr = &pdc->key.raddr;
	struct uet_spray *spray;
	struct uet_dest *d;
	int err;

	d = rhashtable_lookup_fast(&un->dests, addr, uet_dest_params);
	if (!d) {
		d = kzalloc(sizeof(*d), GFP_ATOMIC | __GFP_NOWARN);
		if (!d)
			return -ENOMEM;
		d->addr = *addr;
		INIT_LIST_HEAD(&d->pdcs);
		err = rhashtable_insert_fast(&un->dests, &d->node,
					     uet_dest_params);
		if (err) {
			kfree(d);
			return err;
		}
		uet_tables_changed(un);
	}
	if (pdc->key.role == UET_PDC_INITIATOR && !d->spray) {
		spray = uet_spray_create(cfg, uet_pdc_spray_key(un, addr),
					 pdc->own_port, GFP_ATOMIC);
		if (!spray) {
			if (!d->refs)
				uet_dest_unlink(un, d);
			return -ENOMEM;
		}
		/* Readers under RCU see it whole or not at all. */
		smp_store_release(&d->spray, spray);
		uet_stat_inc(un, UET_STAT_SPRAY_CREATE);
	}
	d->refs++;
	list_add_tail_rcu(&pdc->dest_node, &d->pdcs);
	pdc->dest = d;
	pdc->spray = d->spray;
	return 0;
}

/*
 * The destination's prober is going: another initiator PDC of the group
 * takes over, so that bad values are still probed.  Caller holds pdc_lock.
 */
static void uet_dest_probe_handoff(struct uet_dest *d, struct uet_pdc *pdc)
{
	struct uet_pdc *o;

	if (READ_ONCE(d->prober) != pdc)
		return;
	WRITE_ONCE(d->prober, NULL);
	list_for_each_entry(o, &d->pdcs, dest_node)
		if (o != pdc && o->key.role == UET_PDC_INITIATOR &&
		    uet_tx_probe_kick(o))
			return;
}

/*
 * Drop a PDC's reference on its destination; the last one unlinks it,
 * and it goes with its spraying state after a grace period.  Caller holds
 * pdc_lock.
 */
static void uet_dest_put(struct uet_net *un, struct uet_pdc *pdc)
{
	struct uet_dest *d = pdc->dest;

	uet_dest_probe_handoff(d, pdc);
	list_del_rcu(&pdc->dest_node);
	if (!--d->refs)
		uet_dest_unlink(un, d);
}

static void uet_pdc_snapshot(struct uet_pdc *pdc, const struct uet_config *c)
{
	pdc->max_retx = c->max_retx;
	pdc->sack_thresh = c->sack_retx_thresh;
	pdc->mss = c->mss;
	pdc->rto_min_us = c->rto_min_us;
	pdc->rto_max_us = c->rto_max_us;
	pdc->idle_ms = c->pdc_idle_ms;
	pdc->base_rtt_ns = c->base_rtt_ns;
	pdc->probe_period_ns = c->probe_period_ns;
	pdc->link_rate_mbps = c->link_rate_mbps;
	pdc->cc_target_ns = c->cc_target_qdelay_ns;
	pdc->ack_delay_ns = c->ack_delay_us * NSEC_PER_USEC;
	pdc->cc = c->cc;
	pdc->spray_burst = c->spray_burst;
}

/**
 * uet_pdc_alloc() - allocate a PDC, not yet published
 * @un: the namespace
 * @key: its key
 * @gfp: GFP_KERNEL_ACCOUNT (sendmsg()) or GFP_ATOMIC | __GFP_NOWARN (receive)
 *
 * Return: the PDC, or NULL.
 */
struct uet_pdc *uet_pdc_alloc(struct uet_net *un,
			      const struct uet_pdc_key *key, gfp_t gfp)
{
	struct uet_pdc *pdc;
	u32 slots;

	pdc = kzalloc(sizeof(*pdc), gfp);
	if (!pdc)
		return NULL;
	pdc->key = *key;
	pdc->un = un;
	spin_lock_init(&pdc->lock);
	INIT_LIST_HEAD(&pdc->reap_node);
	INIT_LIST_HEAD(&pdc->age_node);
	INIT_LIST_HEAD(&pdc->dest_node);
	pdc->own_port = UET_OWN_PORT_MIN +
			get_random_u32_below(65536 - UET_OWN_PORT_MIN);
	pdc->last_active = jiffies;
	/*
	 * A target opens for a peer not yet verified: its cache starts with
	 * one entry, so that what a SYN can make it hold stays small, and
	 * grows once the peer has answered (uet_rx_routes_grow()).
	 */
	slots = 1;
	if (key->role == UET_PDC_INITIATOR) {
		rcu_read_lock();
		slots = uet_route_cache_slots(uet_cfg(un));
		rcu_read_unlock();
	}
	pdc->routes = uet_route_cache_alloc(slots, gfp);
	if (!pdc->routes) {
		kfree(pdc);
		return NULL;
	}
	if (key->role == UET_PDC_TARGET) {
		uet_rx_pdc_init(pdc);
		return pdc;
	}
	pdc->tx.ring = kvcalloc(UET_PSN_WINDOW, sizeof(*pdc->tx.ring), gfp);
	if (!pdc->tx.ring) {
		uet_route_cache_free(pdc->routes);
		kfree(pdc);
		return NULL;
	}
	uet_tx_pdc_init(pdc);
	return pdc;
}

/**
 * uet_pdc_free_unused() - free a PDC that was never published
 * @pdc: the PDC, or NULL
 */
void uet_pdc_free_unused(struct uet_pdc *pdc)
{
	if (!pdc)
		return;
	if (pdc->key.role == UET_PDC_INITIATOR)
		kvfree(pdc->tx.ring);
	uet_route_cache_free(pdc->routes);
	kfree(pdc);
}

static atomic_t *uet_pdc_count(struct uet_net *un, u8 role)
{
	return role == UET_PDC_INITIATOR ? &un->n_initiator : &un->n_target;
}

/*
 * Draw a local id nobody uses.  Ids and keys are only inserted under
 * uet_net.pdc_lock, which the caller holds: a free id stays free.
 */
static int uet_pdc_pick_lid(struct uet_net *un, struct uet_pdc *pdc)
{
	int i;

	for (i = 0; i < UET_LID_TRIES; i++) {
		pdc->lid = get_random_u16() ?: 1;
		if (!rhashtable_lookup_fast(&un->pdc_by_id, &pdc->lid,
					    uet_pdc_id_params))
			return 0;
	}
	return -EBUSY;
}

/* Unlink @pdc from the tables, which a dump in progress must learn. */
static void uet_pdc_unlink_ids(struct uet_net *un, struct uet_pdc *pdc)
{
	list_del_init(&pdc->age_node);
	rhashtable_remove_fast(&un->pdc_by_id, &pdc->id_node,
			       uet_pdc_id_params);
	rhashtable_remove_fast(&un->pdc_by_key, &pdc->key_node,
			       uet_pdc_key_params);
	uet_tables_changed(un);
}

/* Give @pdc its group's (or its own) spraying state; nothing is published. */
static int uet_pdc_attach(struct uet_net *un, struct uet_pdc *pdc,
			  const struct uet_config *cfg)
{
	if (cfg->pdc_groups)
		return uet_dest_get(un, pdc, cfg);
	if (pdc->key.role != UET_PDC_INITIATOR)
		return 0;
	pdc->spray = uet_spray_create(cfg,
				      uet_pdc_spray_key(un, &pdc->key.raddr),
				      pdc->own_port, GFP_ATOMIC);
	if (!pdc->spray)
		return -ENOMEM;
	uet_stat_inc(un, UET_STAT_SPRAY_CREATE);
	return 0;
}

/*
 * Make a whole PDC findable: by key last, since a sender that finds it by
 * key uses it at once.  The key and id were seen free under pdc_lock, so
 * only the tables' own allocations can fail here; the PDC then dies at
 * once and is freed like any other.  Caller holds pdc_lock.
 */
static void uet_pdc_link_ids(struct uet_net *un, struct uet_pdc *pdc)
{
	int err;

	err = rhashtable_lookup_insert_fast(&un->pdc_by_id, &pdc->id_node,
					    uet_pdc_id_params);
	if (!err) {
		err = rhashtable_lookup_insert_fast(&un->pdc_by_key,
						    &pdc->key_node,
						    uet_pdc_key_params);
		if (!err)
			return;
		rhashtable_remove_fast(&un->pdc_by_id, &pdc->id_node,
				       uet_pdc_id_params);
	}
	/* Lock order: uet_net.pdc_lock, then uet_pdc.lock. */
	spin_lock(&pdc->lock);
	pdc->dead = true;
	spin_unlock(&pdc->lock);
	pdc->unlinked = true;
	list_del_init(&pdc->age_node);
	list_add_tail(&pdc->reap_node, &un->reap);
	uet_gc_kick(un, 0);
}

/*
 * The PDC's slot of uet_net.src_open (target: its peer's address) or
 * uet_net.user_open (initiator: the user opening it, in sendmsg()).
 */
static u16 uet_pdc_slot(struct uet_net *un, const struct uet_pdc *pdc)
{
	u32 uid;

	if (pdc->key.role == UET_PDC_TARGET)
		return jhash2((const u32 *)pdc->key.raddr.s6_addr32, 4,
			      un->src_seed) % UET_SRC_SLOTS;
	uid = from_kuid_munged(&init_user_ns, current_fsuid());
	return jhash_1word(uid, un->src_seed) % UET_SRC_SLOTS;
}

/* The count of PDCs of @pdc's slot. */
static u16 *uet_pdc_slot_count(struct uet_net *un, const struct uet_pdc *pdc)
{
	return pdc->key.role == UET_PDC_TARGET ? &un->src_open[pdc->slot] :
						 &un->user_open[pdc->slot];
}

/*
 * The target table is full: close the oldest target PDC that never took
 * a packet in order (its first PSN never came: a SYN flood's, or one
 * opened by a lost connection attempt), so that a new one can open.  The
 * PDCs looked at that did take one go to the back of the list, so that
 * the next search looks at others: O(1), and every PDC is looked at in
 * turn.  Caller holds pdc_lock.
 *
 * Return: true when a PDC was evicted.
 */
static bool uet_pdc_evict(struct uet_net *un)
{
	struct uet_pdc *pdc;
	int i;

	for (i = 0; i < UET_PDC_EVICT_SCAN && !list_empty(&un->targets); i++) {
		pdc = list_first_entry(&un->targets, struct uet_pdc, age_node);
		if (READ_ONCE(pdc->rx.took)) {
			list_move_tail(&pdc->age_node, &un->targets);
			continue;
		}
		/* Lock order: uet_net.pdc_lock, then uet_pdc.lock. */
		spin_lock(&pdc->lock);
		pdc->dead = true;
		spin_unlock(&pdc->lock);
		pdc->unlinked = true;
		uet_pdc_unlink_ids(un, pdc);
		list_add_tail(&pdc->reap_node, &un->reap);
		uet_gc_kick(un, 0);
		uet_stat_inc(un, UET_STAT_PDC_EVICT);
		return true;
	}
	return false;
}

/*
 * May a target PDC from @pdc's peer open?  Each source (slot) holds at
 * most UET_PDC_SRC_MAX; a full table makes room by eviction, and PDCs
 * evicted but not yet freed may take the count up to twice UET_PDC_MAX.
 * Caller holds pdc_lock.
 *
 * Return: 0, -EDQUOT over the source's limit, -ENOBUFS.
 */
static int uet_pdc_target_admit(struct uet_net *un, struct uet_pdc *pdc)
{
	int n = atomic_read(&un->n_target);

	if (un->src_open[pdc->slot] >= UET_PDC_SRC_MAX)
		return -EDQUOT;
	if (n < UET_PDC_MAX)
		return 0;
	if (n < 2 * UET_PDC_MAX && uet_pdc_evict(un))
		return 0;
	return -ENOBUFS;
}

/*
 * Publish a new PDC: give it a local id, its group (or own) spraying
 * state and, for an initiator, its start PSN, then link it.  -EEXIST when
 * another PDC with its key got in first; on any error nothing of @pdc was
 * published and the caller frees it.
 */
static int uet_pdc_insert(struct uet_net *un, struct uet_pdc *pdc)
{
	atomic_t *count = uet_pdc_count(un, pdc->key.role);
	const struct uet_config *cfg;
	bool admin = false;
	int err;

	/* The per-user limit keeps users apart; the administrator has none. */
	if (pdc->key.role == UET_PDC_INITIATOR)
		admin = ns_capable_noaudit(un->net->user_ns, CAP_NET_ADMIN);
	rcu_read_lock();
	cfg = uet_cfg(un);
	uet_pdc_snapshot(pdc, cfg);

	spin_lock_bh(&un->pdc_lock);
	err = -ENETDOWN;
	if (un->dying)
		goto out;
	err = -EEXIST;
	if (rhashtable_lookup_fast(&un->pdc_by_key, &pdc->key,
				   uet_pdc_key_params))
		goto out;
	pdc->slot = uet_pdc_slot(un, pdc);
	if (pdc->key.role == UET_PDC_TARGET)
		err = uet_pdc_target_admit(un, pdc);
	else if (!admin && un->user_open[pdc->slot] >= UET_PDC_USER_MAX)
		err = -EDQUOT;
	else
		err = atomic_read(count) >= UET_PDC_MAX ? -ENOBUFS : 0;
	if (err)
		goto out;
	err = uet_pdc_pick_lid(un, pdc);
	if (!err)
		err = uet_pdc_attach(un, pdc, cfg);
	if (err)
		goto out;
	if (pdc->key.role == UET_PDC_INITIATOR)
		uet_tx_pdc_start(pdc, uet_psn_start(un, &pdc->key.raddr));
	atomic_inc(count);
	(*uet_pdc_slot_count(un, pdc))++;
	if (pdc->key.role == UET_PDC_TARGET)
		list_add_tail(&pdc->age_node, &un->targets);
	uet_stat_inc(un, UET_STAT_PDC_OPEN);
	uet_pdc_link_ids(un, pdc);
	uet_tables_changed(un);
	/*
	 * Under the lock that closing the PDC needs first: its close event
	 * (uet_pdc_free()) cannot come before this one.
	 */
	uet_nl_notify_pdc(pdc, true);
out:
	spin_unlock_bh(&un->pdc_lock);
	rcu_read_unlock();
	return err;
}

/**
 * uet_pdc_key_init() - build the key of a PDC
 * @key: filled in, padding zeroed
 * @laddr: local address (IPv4 as v4-mapped IPv6)
 * @raddr: remote address
 * @job: job id
 * @rpdcid: the initiator's PDC id for a target; 0 for an initiator
 * @role: UET_PDC_INITIATOR or UET_PDC_TARGET
 */
void uet_pdc_key_init(struct uet_pdc_key *key, const struct in6_addr *laddr,
		      const struct in6_addr *raddr, u32 job, u16 rpdcid,
		      u8 role)
{
	memset(key, 0, sizeof(*key));
	key->laddr = *laddr;
	key->raddr = *raddr;
	key->job = job;
	key->rpdcid = rpdcid;
	key->role = role;
	key->mode = UET_PDS_RUD_REQ;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_pdc_key_init);

/**
 * uet_pdc_initiator_get() - the initiator PDC with a key, created if need be
 * @un: the namespace
 * @key: the PDC's key
 * @spare: a PDC allocated by uet_pdc_alloc() for @key, or NULL; taken
 *	(and set to NULL) when it is the one published
 *
 * Context: sendmsg(): the PDC counts against the limit of current's
 * fsuid (UET_PDC_USER_MAX), which CAP_NET_ADMIN over the namespace
 * does not have; rcu_read_lock() held; the PDC returned stays
 * allocated until rcu_read_unlock(), and is in use once locked and seen
 * not dead.
 * Return: the PDC, or ERR_PTR(-EAGAIN) when a spare is needed,
 * ERR_PTR(-ENOBUFS) over the namespace's or the user's limit, or another
 * ERR_PTR() from publishing it.
 */
struct uet_pdc *uet_pdc_initiator_get(struct uet_net *un,
				      const struct uet_pdc_key *key,
				      struct uet_pdc **spare)
{
	struct uet_pdc *pdc;
	int err;

	pdc = rhashtable_lookup(&un->pdc_by_key, key, uet_pdc_key_params);
	if (pdc)
		return pdc;
	if (!*spare)
		return ERR_PTR(-EAGAIN);
	err = uet_pdc_insert(un, *spare);
	if (err == -EDQUOT)	/* the user's limit: sendmsg() says ENOBUFS */
		err = -ENOBUFS;
	if (err)
		return ERR_PTR(err == -EEXIST ? -EAGAIN : err);
	pdc = *spare;
	*spare = NULL;
	return pdc;
}

/**
 * uet_pdc_target_find() - the target PDC with a key
 * @un: the namespace
 * @key: the key: a SYN's addresses, job and initiator PDC id
 *
 * Context: rcu_read_lock() held; as uet_pdc_initiator_get().
 * Return: the PDC, or NULL.
 */
struct uet_pdc *uet_pdc_target_find(struct uet_net *un,
				    const struct uet_pdc_key *key)
{
	return rhashtable_lookup(&un->pdc_by_key, key, uet_pdc_key_params);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_pdc_target_find);

/**
 * uet_pdc_target_get() - the target PDC with a key, created if need be
 * @un: the namespace
 * @key: the SYN packet's addresses, job and initiator PDC id
 * @start_psn: the initiator's start PSN, from the packet
 *
 * The caller has checked that the packet may open a PDC.  Of two SYNs
 * racing to open it, the second finds the first's PDC, whose start PSN
 * may differ from @start_psn: the caller checks.
 *
 * Context: softirq, rcu_read_lock() held; as uet_pdc_initiator_get().
 * Return: the PDC, or ERR_PTR(-EDQUOT) over the source's limit,
 * ERR_PTR(-ENOBUFS) over the namespace's, or ERR_PTR(-ENOMEM).
 */
struct uet_pdc *uet_pdc_target_get(struct uet_net *un,
				   const struct uet_pdc_key *key,
				   u32 start_psn)
{
	struct uet_pdc *pdc;
	int err;

	pdc = uet_pdc_target_find(un, key);
	if (pdc)
		return pdc;
	pdc = uet_pdc_alloc(un, key, GFP_ATOMIC | __GFP_NOWARN);
	if (!pdc)
		return ERR_PTR(-ENOMEM);
	pdc->rx.start_psn = start_psn;
	pdc->rx.epsn = start_psn;
	err = uet_pdc_insert(un, pdc);
	if (!err)
		return pdc;
	uet_pdc_free_unused(pdc);
	if (err == -EEXIST) {
		/* Lost a race: the winner was linked under pdc_lock. */
		pdc = uet_pdc_target_find(un, key);
		return pdc ?: ERR_PTR(-ENOMEM);
	}
	return ERR_PTR(err == -ENOBUFS || err == -EDQUOT ? err : -ENOMEM);
}

static void uet_pdc_count_tx(const struct uet_pdc_tx *tx,
			     struct uet_pdc_counts *c)
{
	const struct uet_tx_slot *s;
	const struct uet_tx_msg *m;
	u32 psn;

	for (psn = tx->snd_una; psn != tx->snd_nxt; psn++) {
		s = &tx->ring[psn % UET_PSN_WINDOW];
		if (!s->msg)
			continue;
		c->out++;
		c->retx += s->retx ? 1 : 0;
		c->held += s->flags & UET_SLOT_HOLD ? 1 : 0;
	}
	list_for_each_entry(m, &tx->msgs, node)
		c->msgs++;
	list_for_each_entry(m, &tx->sendq, sq_node)
		c->queued++;
}

static void uet_pdc_count_rx(const struct uet_pdc_rx *rx,
			     struct uet_pdc_counts *c)
{
	const struct uet_rx_msg *m;
	unsigned int i;

	/* Bits past the next expected PSN: received out of order. */
	for (i = 0; i < ARRAY_SIZE(rx->bitmap); i++)
		c->out += hweight64(rx->bitmap[i]);
	hash_for_each(rx->msgs, i, m, hnode)
		c->msgs++;
}

/**
 * uet_pdc_counts_get() - count what a PDC holds, for netlink and debugfs dumps
 * @pdc: the PDC, its lock held
 * @c: filled in
 *
 * Walks at most UET_PSN_WINDOW slots and the PDC's message lists: for
 * dumps, never for the datapath.
 */
void uet_pdc_counts_get(const struct uet_pdc *pdc, struct uet_pdc_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (pdc->key.role == UET_PDC_INITIATOR)
		uet_pdc_count_tx(&pdc->tx, c);
	else
		uet_pdc_count_rx(&pdc->rx, c);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_pdc_counts_get);

/**
 * uet_pdc_find() - the PDC a packet addressed by PDC id belongs to
 * @un: the namespace
 * @lid: the packet's destination PDC id
 * @role: the role that PDC must have here
 * @raddr: the packet's source address, which must be the PDC's peer
 * @laddr: the packet's destination address, which must be the PDC's own
 *
 * Context: rcu_read_lock() held; as uet_pdc_initiator_get().
 * Return: the PDC, or NULL.
 */
struct uet_pdc *uet_pdc_find(struct uet_net *un, u16 lid, u8 role,
			     const struct in6_addr *raddr,
			     const struct in6_addr *laddr)
{
	struct uet_pdc *pdc;

	pdc = rhashtable_lookup(&un->pdc_by_id, &lid, uet_pdc_id_params);
	if (!pdc || pdc->key.role != role ||
	    !ipv6_addr_equal(&pdc->key.raddr, raddr) ||
	    !ipv6_addr_equal(&pdc->key.laddr, laddr))
		return NULL;
	return pdc;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_pdc_find);

/**
 * uet_pdc_kill() - take a dead PDC out of the tables and have it freed
 * @pdc: the PDC, marked dead under its lock
 *
 * Idempotent.
 *
 * Context: any but hard irq; in the RCU read section that found @pdc, or
 * in @pdc's timer callback.
 */
void uet_pdc_kill(struct uet_pdc *pdc)
{
	struct uet_net *un = pdc->un;

	spin_lock_bh(&un->pdc_lock);
	if (!pdc->unlinked) {
		pdc->unlinked = true;
		uet_pdc_unlink_ids(un, pdc);
		list_add_tail(&pdc->reap_node, &un->reap);
		uet_gc_kick(un, 0);
	}
	spin_unlock_bh(&un->pdc_lock);
}

/**
 * uet_pdc_unlock() - release a PDC's lock; close it if it died meanwhile
 * @pdc: the PDC, locked
 *
 * Context: as uet_pdc_kill().
 */
void uet_pdc_unlock(struct uet_pdc *pdc)
	__releases(&pdc->lock)
{
	bool dead = pdc->dead;

	spin_unlock_bh(&pdc->lock);
	if (dead)
		uet_pdc_kill(pdc);
}

/* Free an unlinked PDC: stop its timer, release what it holds. */
static void uet_pdc_free(struct uet_net *un, struct uet_pdc *pdc)
{
	u8 role = pdc->key.role;

	uet_nl_notify_pdc(pdc, false);
	if (role == UET_PDC_INITIATOR)
		uet_tx_pdc_release(pdc);
	else
		uet_rx_pdc_release(pdc);
	uet_tx_routes_release(pdc);

	spin_lock_bh(&un->pdc_lock);
	if (role == UET_PDC_INITIATOR)
		uet_psn_remember(un, &pdc->key.raddr, pdc->tx.snd_nxt - 1);
	(*uet_pdc_slot_count(un, pdc))--;
	list_del_init(&pdc->age_node);
	if (pdc->dest)
		uet_dest_put(un, pdc);
	atomic_dec(uet_pdc_count(un, role));
	spin_unlock_bh(&un->pdc_lock);

	if (!pdc->dest && pdc->spray) {
		uet_spray_destroy(pdc->spray);
		uet_stat_inc(un, UET_STAT_SPRAY_FREE);
	}
	uet_stat_inc(un, UET_STAT_PDC_CLOSE);
	kfree_rcu(pdc, rcu);
}

static void uet_pdc_reap(struct uet_net *un)
{
	struct uet_pdc *pdc, *tmp;
	LIST_HEAD(list);

	spin_lock_bh(&un->pdc_lock);
	list_splice_init(&un->reap, &list);
	spin_unlock_bh(&un->pdc_lock);
	list_for_each_entry_safe(pdc, tmp, &list, reap_node)
		uet_pdc_free(un, pdc);
}

/* Mark @pdc dead if it has been idle long enough (or @all). */
static bool uet_pdc_expire(struct uet_pdc *pdc, unsigned long now, bool all)
{
	unsigned long idle;
	bool dead, busy;

	spin_lock_bh(&pdc->lock);
	if (!pdc->dead) {
		idle = msecs_to_jiffies(pdc->idle_ms);
		busy = false;
		if (pdc->key.role == UET_PDC_TARGET) {
			uet_rx_pdc_gc(pdc);
			idle *= UET_TARGET_IDLE_MULT;
		} else {
			busy = !uet_tx_quiet(pdc);
		}
		if (all || (!busy && time_after(now, pdc->last_active + idle)))
			pdc->dead = true;
	}
	dead = pdc->dead;
	spin_unlock_bh(&pdc->lock);
	return dead;
}

/* Close idle PDCs (every PDC with @all). */
static void uet_pdc_scan(struct uet_net *un, bool all)
{
	unsigned long now = jiffies;
	struct rhashtable_iter iter;
	struct uet_pdc *pdc;

	rhashtable_walk_enter(&un->pdc_by_id, &iter);
	rhashtable_walk_start(&iter);
	while ((pdc = rhashtable_walk_next(&iter))) {
		if (IS_ERR(pdc)) {
			if (PTR_ERR(pdc) == -EAGAIN)
				continue;
			break;
		}
		if (uet_pdc_expire(pdc, now, all))
			uet_pdc_kill(pdc);
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
}

static void uet_pdc_gc_work(struct work_struct *work)
{
	struct uet_net *un = container_of(to_delayed_work(work),
					  struct uet_net, gc_work);
	u32 period;

	uet_pdc_reap(un);
	uet_pdc_scan(un, false);
	uet_pdc_reap(un);

	rcu_read_lock();
	period = clamp_t(u32, uet_cfg(un)->pdc_idle_ms / 2, UET_GC_MIN_MS,
			 UET_GC_MAX_MS);
	rcu_read_unlock();
	spin_lock_bh(&un->pdc_lock);
	if (!un->dying)
		queue_delayed_work(system_wq, &un->gc_work,
				   msecs_to_jiffies(period));
	spin_unlock_bh(&un->pdc_lock);
}

/**
 * uet_pdc_net_init() - set up a namespace's PDC and destination tables
 * @un: the namespace
 *
 * Return: 0 or -ENOMEM.
 */
int uet_pdc_net_init(struct uet_net *un)
{
	int err;

	spin_lock_init(&un->pdc_lock);
	INIT_LIST_HEAD(&un->reap);
	INIT_LIST_HEAD(&un->targets);
	un->src_seed = get_random_u32();
	atomic_set(&un->n_initiator, 0);
	atomic_set(&un->n_target, 0);
	INIT_DELAYED_WORK(&un->gc_work, uet_pdc_gc_work);
	uet_rccc_net_init(un);

	err = rhashtable_init(&un->pdc_by_id, &uet_pdc_id_params);
	if (err)
		return err;
	err = rhashtable_init(&un->pdc_by_key, &uet_pdc_key_params);
	if (err)
		goto err_id;
	err = rhashtable_init(&un->dests, &uet_dest_params);
	if (err)
		goto err_key;
	queue_delayed_work(system_wq, &un->gc_work,
			   msecs_to_jiffies(UET_GC_MAX_MS));
	return 0;

err_key:
	rhashtable_destroy(&un->pdc_by_key);
err_id:
	rhashtable_destroy(&un->pdc_by_id);
	return err;
}

/**
 * uet_pdc_net_exit() - close and free every PDC of a namespace
 * @un: the namespace, whose UDP sockets are closed already
 *
 * Context: process; no AF_UET socket of the namespace is left.
 */
void uet_pdc_net_exit(struct uet_net *un)
{
	spin_lock_bh(&un->pdc_lock);
	un->dying = true;
	spin_unlock_bh(&un->pdc_lock);
	cancel_delayed_work_sync(&un->gc_work);

	uet_pdc_scan(un, true);
	uet_pdc_reap(un);

	WARN_ON(atomic_read(&un->n_initiator) || atomic_read(&un->n_target));
	uet_rccc_net_exit(un);
	rhashtable_destroy(&un->dests);
	rhashtable_destroy(&un->pdc_by_key);
	rhashtable_destroy(&un->pdc_by_id);
}
