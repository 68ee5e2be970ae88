/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: the routes of a PDC's packets, cached per entropy value.
 *
 * A packet's route may depend on its UDP source port, the entropy value:
 * with fib_multipath_hash_policy 1 each value may take its own next hop,
 * and that is what spraying is for.  So the cache is per (PDC, value), not
 * per destination: each PDC keeps the route each of its values last took,
 * and in the steady state a packet costs no FIB lookup.  Where nothing in
 * the namespace lets a route depend on the port (Linux's default hash of
 * the addresses alone, no rule or IPsec policy on ports), one entry holds
 * the route of every value: REPS, which draws its values from all 65,536,
 * would otherwise miss on most packets.
 *
 * Only the PDC's lock serialises a PDC's cache, so one copy of each route
 * is enough where dst_cache keeps one per CPU for lockless users: at
 * thousands of PDCs with up to 256 values each, per-CPU copies would
 * multiply the memory by the number of CPUs for nothing.  An entry is
 * used while dst_check() accepts it, as a socket's cached route is: a
 * route change (IPv4 generation id, IPv6 serial number), a PMTU exception
 * or a device going down make the next packet on that value look its
 * route up again.
 */
#ifndef _UET_ROUTE_H
#define _UET_ROUTE_H

#include <linux/types.h>

struct dst_entry;
struct uet_config;

/* Entries of a cache: 2^entropy-bits at most (rr, active). */
#define UET_ROUTE_BITS_MAX	8

/**
 * struct uet_route_ent - the route one entropy value last took
 * @dst: the route, held by the cache; NULL when the entry is empty
 * @cookie: IPv6: the route's serial number for dst_check(); IPv4: 0
 * @ev: the entropy value (UDP source port) it was looked up with
 */
struct uet_route_ent {
	struct dst_entry *dst;
	u32 cookie;
	u16 ev;
};

/**
 * struct uet_route_cache - a PDC's routes by entropy value
 * @dport: the UDP destination port the routes were looked up with (the
 *	multipath hash may include it); a change empties the cache
 * @any: the routes were looked up while no route depended on the source
 *	port: one entry, under value 0, serves every value
 *	(uet_route_cache_ev()); a change empties the cache
 * @mask: entries - 1, a power of 2 minus 1, not counting the spare
 * @ent: the entries, @mask + 2 of them: a value lives in one of two,
 *	uet_route_slot(), or in the last, the spare, when both are taken
 *
 * Allocated with the PDC, freed in process context when it is freed;
 * every field under the PDC's lock (uet_pdc.lock).
 */
struct uet_route_cache {
	u16 dport;
	u16 mask;
	bool any;
	struct uet_route_ent ent[];
};

struct net;

u32 uet_route_cache_slots(const struct uet_config *cfg);
bool uet_route_port_free(const struct net *net, bool v4);
u16 uet_route_cache_ev(struct uet_route_cache *c, bool any, u16 ev);
u32 uet_route_slot(u16 mask, u16 ev, unsigned int way);
struct uet_route_cache *uet_route_cache_alloc(u32 slots, gfp_t gfp);
void uet_route_cache_free(struct uet_route_cache *c);
struct uet_route_cache *uet_route_cache_resize(struct uet_route_cache *c,
					       u32 slots, gfp_t gfp);
struct dst_entry *uet_route_cache_get(struct uet_route_cache *c, u16 ev,
				      u16 dport);
void uet_route_cache_set(struct uet_route_cache *c, u16 ev, u16 dport,
			 struct dst_entry *dst);
u32 uet_route_cookie(struct dst_entry *dst);

#endif /* _UET_ROUTE_H */
