// SPDX-License-Identifier: GPL-2.0
/*
 * uet: the routes of a PDC's packets, cached per entropy value
 * (include/uet/route.h says why per value and why not per CPU).
 *
 * A value lives in one of two entries: its low bits (a round robin's or
 * an active set's values are consecutive ports, so up to 2^bits of them
 * never collide there) or a hash of it (REPS draws values at random).
 * When both are taken it takes the spare entry past them: the PDC's own
 * value, which control packets (RCCC's CREDIT_REQ, probes, CLOSE) keep
 * to, then stays beside a full rotation instead of evicting a value of it
 * at every control packet, two FIB lookups each time.  Where no route can
 * depend on the port, value 0 stands for every value (uet_route_cache_ev()).
 */
#include <linux/hash.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/xfrm.h>
#include <net/dst.h>
#include <net/net_namespace.h>
#if IS_ENABLED(CONFIG_IPV6)
#include <net/ip6_fib.h>
#include <net/ipv6.h>
#endif
#include <uet/config.h>
#include <uet/kunit.h>
#include <uet/route.h>

/**
 * uet_route_cache_slots() - entries of a new PDC's route cache
 * @cfg: the namespace's configuration
 *
 * As many as the spraying type uses values, within
 * 2^UET_ROUTE_BITS_MAX: one for none, 2^entropy-bits for rr and active,
 * the REPS cache's size for reps; the spare entry comes on top.  At 16
 * bytes an entry, 2 KiB and 16 bytes a PDC with the default 128 values.
 * A target's cache starts with one entry and grows to this once its peer
 * has answered (uet_rx_routes_grow()).  Too few entries cost FIB
 * lookups, never a wrong route.
 *
 * Return: a power of 2.
 */
u32 uet_route_cache_slots(const struct uet_config *cfg)
{
	u32 bits;

	switch (cfg->spray) {
	case UET_SPRAY_NONE:
		bits = 0;
		break;
	case UET_SPRAY_REPS:
		bits = max(cfg->reps_buf_bits, cfg->entropy_mask_bits);
		break;
	default:
		bits = cfg->entropy_mask_bits;
		break;
	}
	return 1U << min_t(u32, bits, UET_ROUTE_BITS_MAX);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_route_cache_slots);

/**
 * uet_route_slot() - an entry an entropy value may live in
 * @mask: entries - 1
 * @ev: the value
 * @way: 0 for its low bits, 1 for its hash
 *
 * Return: the entry's index.
 */
u32 uet_route_slot(u16 mask, u16 ev, unsigned int way)
{
	return (way ? hash_32(ev, 16) : ev) & mask;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_route_slot);

/**
 * uet_route_cache_alloc() - allocate an empty route cache
 * @slots: entries, a power of 2 up to 2^UET_ROUTE_BITS_MAX
 *	(uet_route_cache_slots()); the spare comes on top
 * @gfp: allocation flags of the PDC's allocation
 *
 * Return: the cache, or NULL when memory is short.
 */
struct uet_route_cache *uet_route_cache_alloc(u32 slots, gfp_t gfp)
{
	struct uet_route_cache *c;

	c = kzalloc(struct_size(c, ent, slots + 1), gfp);
	if (c)
		c->mask = slots - 1;
	return c;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_route_cache_alloc);

static void uet_route_ent_clear(struct uet_route_ent *e)
{
	dst_release(e->dst);
	e->dst = NULL;
}

/**
 * uet_route_cache_free() - release the routes of a cache and free it
 * @c: the cache, or NULL; nobody else may use it any more
 *
 * Context: any.
 */
void uet_route_cache_free(struct uet_route_cache *c)
{
	u32 i;

	if (!c)
		return;
	for (i = 0; i <= c->mask + 1; i++)
		uet_route_ent_clear(&c->ent[i]);
	kfree(c);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_route_cache_free);

/* The routes were looked up for another UDP port: forget them. */
static void uet_route_cache_port(struct uet_route_cache *c, u16 dport)
{
	u32 i;

	if (likely(c->dport == dport))
		return;
	for (i = 0; i <= c->mask + 1; i++)
		uet_route_ent_clear(&c->ent[i]);
	c->dport = dport;
}

/**
 * uet_route_port_free() - can no route in @net depend on the source port?
 * @net: the namespace
 * @v4: IPv4 routes; else IPv6
 *
 * Under multipath hash policy 0, Linux's default, a multipath route hashes
 * the addresses only; a route depends on the UDP source port only where
 * the hash includes L4 (policies 1 and 3), a routing rule matches ports
 * or the IP protocol (the count the FIB keeps for its own flow dissection
 * says whether one does) or an IPsec policy may select by port.  Without
 * any of those, every entropy value takes the route of any other, and one
 * lookup serves them all: REPS draws its values from 65,536, far more
 * than a cache of one entry a value holds.  Read per packet: each is one
 * load of a field that changes only when an administrator changes it.
 *
 * Return: true when every value of a PDC takes the same route.
 */
bool uet_route_port_free(const struct net *net, bool v4)
{
#ifdef CONFIG_XFRM
	if (READ_ONCE(net->xfrm.policy_count[XFRM_POLICY_OUT]))
		return false;
#endif
	if (v4) {
#ifdef CONFIG_IP_MULTIPLE_TABLES
		if (READ_ONCE(net->ipv4.fib_rules_require_fldissect))
			return false;
#endif
#ifdef CONFIG_IP_ROUTE_MULTIPATH
		if (READ_ONCE(net->ipv4.sysctl_fib_multipath_hash_policy))
			return false;
#endif
		return true;
	}
#if IS_ENABLED(CONFIG_IPV6)
#ifdef CONFIG_IPV6_MULTIPLE_TABLES
	if (READ_ONCE(net->ipv6.fib6_rules_require_fldissect))
		return false;
#endif
	return !ip6_multipath_hash_policy(net);
#else
	return true;
#endif
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_route_port_free);

/**
 * uet_route_cache_ev() - the value a packet's route is cached under
 * @c: the cache
 * @any: every value takes the same route (uet_route_port_free())
 * @ev: the packet's entropy value
 *
 * With @any, value 0 stands for all of them; a change of @any empties the
 * cache, so that a route looked up for all values is never taken for the
 * route of value 0 alone, nor the other way round.
 *
 * Context: the owning PDC's lock held.
 * Return: the value to get and set the route under.
 */
u16 uet_route_cache_ev(struct uet_route_cache *c, bool any, u16 ev)
{
	u32 i;

	if (unlikely(c->any != any)) {
		for (i = 0; i <= c->mask + 1; i++)
			uet_route_ent_clear(&c->ent[i]);
		c->any = any;
	}
	return any ? 0 : ev;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_route_cache_ev);

/* The entry a value takes when both of its own are taken. */
static struct uet_route_ent *uet_route_spare(struct uet_route_cache *c)
{
	return &c->ent[c->mask + 1];
}

/*
 * The entry that holds @ev's route, or NULL.  With @place, *@place is set
 * to where a route of @ev goes: the entry that holds one, else a free
 * entry of its own, else the spare.
 */
static struct uet_route_ent *uet_route_find(struct uet_route_cache *c,
					    u16 ev,
					    struct uet_route_ent **place)
{
	struct uet_route_ent *e, *spare = uet_route_spare(c), *free = NULL;
	unsigned int way;

	for (way = 0; way < 2; way++) {
		e = &c->ent[uet_route_slot(c->mask, ev, way)];
		if (e->dst && e->ev == ev)
			break;
		if (!e->dst && !free)
			free = e;
		e = NULL;
	}
	if (!e && spare->dst && spare->ev == ev)
		e = spare;
	if (place)
		*place = e ?: free ?: spare;
	return e;
}

/**
 * uet_route_cache_get() - the cached route of an entropy value
 * @c: the cache
 * @ev: the value (UDP source port)
 * @dport: the UDP destination port the packet goes to
 *
 * An entry that dst_check() refuses (the route changed) is emptied.
 *
 * Context: the owning PDC's lock held.
 * Return: the route with a reference for the caller, or NULL when the
 * value has none cached: look it up and uet_route_cache_set() it.
 */
struct dst_entry *uet_route_cache_get(struct uet_route_cache *c, u16 ev,
				      u16 dport)
{
	struct uet_route_ent *e;

	uet_route_cache_port(c, dport);
	e = uet_route_find(c, ev, NULL);
	if (!e)
		return NULL;
	if (!dst_check(e->dst, e->cookie)) {
		uet_route_ent_clear(e);
		return NULL;
	}
	dst_hold(e->dst);
	return e->dst;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_route_cache_get);

/**
 * uet_route_cache_resize() - a cache of another size with the same routes
 * @c: the cache; freed when the new one is returned
 * @slots: entries of the new cache, a power of 2 up to
 *	2^UET_ROUTE_BITS_MAX
 * @gfp: allocation flags
 *
 * The routes move with their references; one that finds both its entries
 * and the spare taken in the new cache is released.
 *
 * Context: the owning PDC's lock held.
 * Return: the new cache, or NULL when memory is short (@c unchanged).
 */
struct uet_route_cache *uet_route_cache_resize(struct uet_route_cache *c,
					       u32 slots, gfp_t gfp)
{
	struct uet_route_cache *n;
	u32 i;

	n = uet_route_cache_alloc(slots, gfp);
	if (!n)
		return NULL;
	n->dport = c->dport;
	n->any = c->any;
	for (i = 0; i <= c->mask + 1; i++) {
		struct uet_route_ent *e = &c->ent[i], *t;

		if (!e->dst)
			continue;
		uet_route_find(n, e->ev, &t);
		if (t->dst) {
			uet_route_ent_clear(e);
			continue;
		}
		*t = *e;
		e->dst = NULL;
	}
	kfree(c);
	return n;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_route_cache_resize);

/**
 * uet_route_cookie() - what dst_check() needs to tell a route still stands
 * @dst: the route
 *
 * Return: the IPv6 route's cookie; 0 for IPv4, whose routes carry their
 * generation themselves.
 */
u32 uet_route_cookie(struct dst_entry *dst)
{
#if IS_ENABLED(CONFIG_IPV6)
	if (dst->ops->family == AF_INET6)
		return rt6_get_cookie(container_of(dst, struct rt6_info, dst));
#endif
	return 0;
}

/**
 * uet_route_cache_set() - cache the route an entropy value took
 * @c: the cache
 * @ev: the value
 * @dport: the UDP destination port it was looked up with
 * @dst: the route just looked up; the cache takes a reference of its own
 *
 * Over the value's own route if it has one, else into its first entry
 * when it is free, else its second, else over the spare: the value
 * evicted from the spare is looked up again when next used.
 *
 * Context: the owning PDC's lock held.
 */
void uet_route_cache_set(struct uet_route_cache *c, u16 ev, u16 dport,
			 struct dst_entry *dst)
{
	struct uet_route_ent *e;

	uet_route_cache_port(c, dport);
	uet_route_find(c, ev, &e);
	uet_route_ent_clear(e);
	dst_hold(dst);
	e->dst = dst;
	e->cookie = uet_route_cookie(dst);
	e->ev = ev;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_route_cache_set);
