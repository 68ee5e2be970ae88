// SPDX-License-Identifier: GPL-2.0
/*
 * uet: the spraying engine.
 *
 * A struct uet_spray belongs to one PDC group.  It says which entropy value
 * (UDP source port) the next data packet or retransmission takes, and folds
 * path feedback into that choice.  Four policies:
 *
 *   none    the local port of the PDC that created the group, always;
 *   rr      UET NIC Default Packet Spraying: a strict round robin;
 *   active  MRC NIC Default Packet Spraying: a rotation over a random active
 *           set, with trim marks, values assumed bad, and probes;
 *   reps    Recycled Entropy Packet Spraying: a FIFO of values acknowledged
 *           clean, freezing after a failure, then an exploration window.
 *
 * Locking: what changes after creation is under the state's own spinlock,
 * taken with the _bh variants because callers run both in process context
 * and in softirq.  It is a leaf lock: nothing is taken under it.  What
 * uet_spray_create() sets once is read without it.
 *
 * Documentation/spraying.rst gives the layout, its size, and what the
 * engine does where the reference documents leave a case open.
 */
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <uet/config.h>
#include <uet/kunit.h>
#include <uet/spray.h>

/* A marked value is replaced by one of the next this many on the ring. */
#define UET_SPRAY_SKIP_MAX	7

#define UET_SPRAY_GOLDEN	0x9e3779b97f4a7c15ULL

/* Flags of struct uet_spray_aval. */
#define UET_SPRAY_AV_IN		BIT(0)	/* in the active set */
#define UET_SPRAY_AV_MARK	BIT(1)	/* pass over once */
#define UET_SPRAY_AV_BAD	BIT(2)	/* on the bad ring, probed */

/**
 * struct uet_spray_rr - a strict round robin
 * @start: StartingPortOffset
 * @mask: 2^EntropyMaskBits - 1
 * @pos: offset from @start of the next value; under uet_spray.lock
 */
struct uet_spray_rr {
	u16 start;
	u16 mask;
	u16 pos;
};

/**
 * struct uet_spray_aval - one offset of an active set's range
 * @next: the following offset on the ring this value is on
 * @prev: the preceding offset on the ring this value is on
 * @flags: UET_SPRAY_AV_*
 *
 * The array is indexed by offset from StartingPortOffset, so feedback finds
 * its value in O(1).  Members of the set are on exactly one of two circular
 * lists: the usable ring (the rotation, in the order drawn at creation) or
 * the bad ring (the probe order).  Offsets outside the set have no flags.
 * Every field is under uet_spray.lock.
 */
struct uet_spray_aval {
	u8 next;
	u8 prev;
	u8 flags;
};

/**
 * struct uet_spray_active - a rotation over an active set
 * @start: StartingPortOffset
 * @mask: 2^EntropyMaskBits - 1
 * @nvals: values in the active set, 1 to 2^EntropyMaskBits
 * @nbad: values on the bad ring; under uet_spray.lock
 * @cur: offset the next packet considers, on the usable ring, or on the bad
 *	ring when every value is bad; under uet_spray.lock
 * @probe: offset the next probe tests, on the bad ring when @nbad > 0;
 *	under uet_spray.lock
 */
struct uet_spray_active {
	u16 start;
	u16 mask;
	u16 nvals;
	u16 nbad;
	u8 cur;
	u8 probe;
};

/**
 * struct uet_spray_reps - Recycled Entropy Packet Spraying
 * @rng: PRNG state of the exploration draws; under uet_spray.lock
 * @freeze_start_ns: when freezing began; under uet_spray.lock
 * @ev_set_size: EntropyValueSetSize: exploration draws from [0, this)
 * @freeze_ns: FreezingTimeout, ns
 * @window: packets in an exploration window
 * @window_left: packets left in the current window; under uet_spray.lock
 * @count: values in the cache; under uet_spray.lock
 * @filled: slots ever written, at most the capacity; under uet_spray.lock
 * @head: slot of the oldest cached value; under uet_spray.lock
 * @replay: slot the next replay takes while freezing; under uet_spray.lock
 * @mask: capacity of the cache - 1 (the capacity is 2^REPSBufferSizeMaskBits)
 * @mult: FailureDetectionRTTMultiplier
 * @phase: enum uet_spray_phase; under uet_spray.lock
 *
 * Slots are written in order, so the slots ever written are a prefix of the
 * cache until it has been filled once: [0, @filled).
 */
struct uet_spray_reps {
	u64 rng;
	u64 freeze_start_ns;
	u32 ev_set_size;
	u32 freeze_ns;
	u32 window;
	u32 window_left;
	u32 count;
	u32 filled;
	u16 head;
	u16 replay;
	u16 mask;
	u8 mult;
	u8 phase;
};

/**
 * struct uet_spray - the spraying state of one PDC group
 * @lock: protects what the policy changes after creation; leaf lock, _bh
 * @type: enum uet_spray_type, set at creation
 * @port: none: the value of every packet, set at creation
 * @rr: rr: the round robin
 * @act: active: the rotation and its counts
 * @reps: reps: the cache, freezing and the exploration window
 * @cache: reps: 2^REPSBufferSizeMaskBits cached values; under @lock
 * @av: active: the 2^EntropyMaskBits offsets of the range; under @lock
 *
 * Allocated with exactly the flexible array its policy needs.
 */
struct uet_spray {
	spinlock_t lock;	/* leaf lock, taken with _bh */
	u8 type;
	union {
		u16 port;
		struct uet_spray_rr rr;
		struct uet_spray_active act;
		struct uet_spray_reps reps;
	};
	union {
		DECLARE_FLEX_ARRAY(u16, cache);
		DECLARE_FLEX_ARRAY(struct uet_spray_aval, av);
	};
};

/* splitmix64's finaliser: a bijection in which every input bit counts. */
static u64 uet_spray_mix(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A splitmix64 draw scaled to [0, @bound) by a multiply and a shift. */
static u32 uet_spray_rand(u64 *rng, u32 bound)
{
	*rng += UET_SPRAY_GOLDEN;
	return ((uet_spray_mix(*rng) >> 32) * bound) >> 32;
}

/* Same namespace seed and key, same draws; seed 0: a fresh one. */
static u64 uet_spray_seed(const struct uet_config *cfg, u64 key)
{
	if (!cfg->seed)
		return get_random_u64();
	return uet_spray_mix(cfg->seed ^ uet_spray_mix(key + UET_SPRAY_GOLDEN));
}

static void uet_spray_ring_del(struct uet_spray_aval *av, u8 off)
{
	av[av[off].prev].next = av[off].next;
	av[av[off].next].prev = av[off].prev;
}

/* Put @off on @at's ring just before @at: last in that ring's turn. */
static void uet_spray_ring_add_before(struct uet_spray_aval *av, u8 at, u8 off)
{
	u8 prev = av[at].prev;

	av[off].next = at;
	av[off].prev = prev;
	av[prev].next = off;
	av[at].prev = off;
}

static void uet_spray_ring_init(struct uet_spray_aval *av, u8 off)
{
	av[off].next = off;
	av[off].prev = off;
}

/*
 * The first nvals steps of a Fisher-Yates shuffle of the range give a
 * random subset in a random order; the rotation starts at a random member.
 */
static void uet_spray_active_init(struct uet_spray *s,
				  const struct uet_config *cfg, u64 rng)
{
	struct uet_spray_active *a = &s->act;
	u8 perm[1U << UET_ENTROPY_MASK_BITS_MAX];
	u32 range = 1U << cfg->entropy_mask_bits;
	u32 n = uet_config_active_set_size(cfg);
	u32 i, j;

	a->start = cfg->start_port;
	a->mask = range - 1;
	a->nvals = n;
	for (i = 0; i < range; i++)
		perm[i] = i;
	for (i = 0; i < n; i++) {
		j = i + uet_spray_rand(&rng, range - i);
		swap(perm[i], perm[j]);
	}
	for (i = 0; i < n; i++) {
		struct uet_spray_aval *v = &s->av[perm[i]];

		v->next = perm[i + 1 < n ? i + 1 : 0];
		v->prev = perm[i ? i - 1 : n - 1];
		v->flags = UET_SPRAY_AV_IN;
	}
	a->cur = perm[uet_spray_rand(&rng, n)];
}

static void uet_spray_reps_init(struct uet_spray *s,
				const struct uet_config *cfg, u64 rng)
{
	struct uet_spray_reps *r = &s->reps;

	r->rng = rng;
	r->ev_set_size = cfg->ev_set_size;
	r->freeze_ns = cfg->freeze_timeout_ns;
	r->window = uet_config_reps_window(cfg);
	r->mask = (1U << cfg->reps_buf_bits) - 1;
	r->mult = cfg->fail_detect_mult;
	r->phase = UET_SPRAY_PHASE_NORMAL;
}

/* Bytes of a state of @cfg's policy, flexible array included. */
static size_t uet_spray_size(const struct uet_config *cfg)
{
	struct uet_spray *s;

	switch (cfg->spray) {
	case UET_SPRAY_ACTIVE:
		return struct_size(s, av, 1U << cfg->entropy_mask_bits);
	case UET_SPRAY_REPS:
		return struct_size(s, cache, 1U << cfg->reps_buf_bits);
	default:
		return sizeof(*s);
	}
}

/**
 * uet_spray_create() - a new spraying state, for a new PDC group
 * @cfg: the namespace's configuration; every value needed is copied
 * @key: identifies the state (its destination, and which of the
 *	namespace's states it is); mixed into the seed of the PRNG
 * @own_port: local UDP port of the PDC that creates the group (none)
 * @gfp: allocation flags
 *
 * The PRNG is seeded from @cfg->seed and @key, so the same configuration
 * and key make the same draws; a zero @cfg->seed means a random seed for
 * every state.  Under active the active set is drawn here.
 *
 * Context: any; may sleep if @gfp allows.
 * Return: the state, or NULL if @cfg is invalid or memory is short.
 */
struct uet_spray *uet_spray_create(const struct uet_config *cfg, u64 key,
				   u16 own_port, gfp_t gfp)
{
	struct uet_spray *s;

	if (uet_config_validate(cfg, NULL))
		return NULL;
	s = kvzalloc(uet_spray_size(cfg), gfp);
	if (!s)
		return NULL;
	spin_lock_init(&s->lock);
	s->type = cfg->spray;
	switch (cfg->spray) {
	case UET_SPRAY_NONE:
		s->port = own_port;
		break;
	case UET_SPRAY_RR:
		s->rr.start = cfg->start_port;
		s->rr.mask = (1U << cfg->entropy_mask_bits) - 1;
		break;
	case UET_SPRAY_ACTIVE:
		uet_spray_active_init(s, cfg, uet_spray_seed(cfg, key));
		break;
	case UET_SPRAY_REPS:
		uet_spray_reps_init(s, cfg, uet_spray_seed(cfg, key));
		break;
	}
	return s;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_spray_create);

/**
 * uet_spray_destroy() - free a spraying state
 * @s: the state, or NULL
 *
 * No other user of @s may remain: callers that look states up under RCU
 * free them after a grace period.
 *
 * Context: process context that may sleep, or softirq / bottom halves
 * disabled (a large REPS cache may be vmalloc()ed, and vfree() defers there).
 */
void uet_spray_destroy(struct uet_spray *s)
{
	kvfree(s);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_spray_destroy);

static u16 uet_spray_rr_next(struct uet_spray_rr *rr)
{
	u16 v = rr->start + rr->pos;

	rr->pos = (rr->pos + 1) & rr->mask;
	return v;
}

/*
 * @off is marked: clear its mark and take the first unmarked value of the
 * (at most 7) that follow it on the usable ring, or @off itself if there
 * is none.  Marks met on the way stay: only the first one is cleared.
 */
static u8 uet_spray_active_skip(struct uet_spray *s, u8 off, u32 *res)
{
	u8 j = off;
	int k;

	s->av[off].flags &= ~UET_SPRAY_AV_MARK;
	for (k = 0; k < UET_SPRAY_SKIP_MAX; k++) {
		j = s->av[j].next;
		if (j == off)
			break;
		if (!(s->av[j].flags & UET_SPRAY_AV_MARK)) {
			*res |= UET_SPRAY_R_SKIP;
			return j;
		}
	}
	return off;
}

static u16 uet_spray_active_next(struct uet_spray *s, u32 *res)
{
	struct uet_spray_active *a = &s->act;
	u8 off = a->cur;

	/* All bad: @cur walks the bad ring, where nothing is marked. */
	if (unlikely(a->nbad == a->nvals))
		*res |= UET_SPRAY_R_ALL_BAD;
	else if (s->av[off].flags & UET_SPRAY_AV_MARK)
		off = uet_spray_active_skip(s, off, res);
	a->cur = s->av[off].next;
	return a->start + off;
}

/* Explore: a random value in [0, EntropyValueSetSize - 1]. */
static u16 uet_spray_reps_explore(struct uet_spray_reps *r, u32 *res)
{
	*res |= UET_SPRAY_R_EXPLORE;
	return uet_spray_rand(&r->rng, r->ev_set_size);
}

/*
 * Count one packet of the exploration window.  Packet i of W (from 1)
 * explores when (W - i) is a multiple of the cache size, and W - i is what
 * is left after this one.
 */
static bool uet_spray_reps_window_step(struct uet_spray_reps *r)
{
	r->window_left--;
	if (!r->window_left)
		r->phase = UET_SPRAY_PHASE_NORMAL;
	return !(r->window_left & r->mask);
}

static u16 uet_spray_reps_next(struct uet_spray *s, u32 *res)
{
	struct uet_spray_reps *r = &s->reps;
	u16 v;

	if (r->phase == UET_SPRAY_PHASE_WINDOW && uet_spray_reps_window_step(r))
		return uet_spray_reps_explore(r, res);
	if (r->count) {
		v = s->cache[r->head];
		r->head = (r->head + 1) & r->mask;
		r->count--;
		return v;
	}
	/* Frozen with an empty cache: the slots ever written, in turn. */
	if (r->phase == UET_SPRAY_PHASE_FREEZING && r->filled) {
		u32 next = r->replay + 1;

		v = s->cache[r->replay];
		r->replay = next < r->filled ? next : 0;
		*res |= UET_SPRAY_R_REPLAY;
		return v;
	}
	return uet_spray_reps_explore(r, res);
}

/**
 * uet_spray_next() - the entropy value of the next packet
 * @s: the group's state
 * @result: set to UET_SPRAY_R_* bits saying what was done; may be NULL
 *
 * For every data packet and every retransmission: each call is one step of
 * the policy.
 *
 * Context: any but hard IRQ; takes @s's lock (_bh).  O(1), no allocation.
 * Return: the value, to be sent as the UDP source port.
 */
u16 uet_spray_next(struct uet_spray *s, u32 *result)
{
	u32 res = 0;
	u16 v;

	if (s->type == UET_SPRAY_NONE) {
		v = s->port;
	} else {
		spin_lock_bh(&s->lock);
		if (s->type == UET_SPRAY_RR)
			v = uet_spray_rr_next(&s->rr);
		else if (s->type == UET_SPRAY_ACTIVE)
			v = uet_spray_active_next(s, &res);
		else
			v = uet_spray_reps_next(s, &res);
		spin_unlock_bh(&s->lock);
	}
	if (result)
		*result = res;
	return v;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_spray_next);

/* A timeout: @off leaves the rotation for the end of the probe order. */
static void uet_spray_active_fail(struct uet_spray *s, u8 off)
{
	struct uet_spray_active *a = &s->act;

	if (a->cur == off)
		a->cur = s->av[off].next;
	uet_spray_ring_del(s->av, off);
	s->av[off].flags = UET_SPRAY_AV_IN | UET_SPRAY_AV_BAD;
	if (a->nbad) {
		uet_spray_ring_add_before(s->av, a->probe, off);
	} else {
		uet_spray_ring_init(s->av, off);
		a->probe = off;
	}
	a->nbad++;
	/* The last usable value went: rotate over them all, oldest first. */
	if (a->nbad == a->nvals)
		a->cur = a->probe;
}

/* A probe answered: @off rejoins the rotation, last in the current turn. */
static void uet_spray_active_restore(struct uet_spray *s, u8 off)
{
	struct uet_spray_active *a = &s->act;
	bool all_bad = a->nbad == a->nvals;

	if (a->probe == off)
		a->probe = s->av[off].next;
	uet_spray_ring_del(s->av, off);
	a->nbad--;
	s->av[off].flags = UET_SPRAY_AV_IN;
	if (all_bad) {
		uet_spray_ring_init(s->av, off);
		a->cur = off;
	} else {
		uet_spray_ring_add_before(s->av, a->cur, off);
	}
}

static u32 uet_spray_active_feedback(struct uet_spray *s,
				     enum uet_spray_event ev, u16 value)
{
	struct uet_spray_active *a = &s->act;
	u16 off = value - a->start;
	u8 flags;

	if (off > a->mask)
		return 0;
	flags = s->av[off].flags;
	if (!(flags & UET_SPRAY_AV_IN))
		return 0;
	switch (ev) {
	case UET_SPRAY_EV_NACK_TRIM:
		if (flags & (UET_SPRAY_AV_MARK | UET_SPRAY_AV_BAD))
			return 0;
		s->av[off].flags |= UET_SPRAY_AV_MARK;
		return UET_SPRAY_R_MARK;
	case UET_SPRAY_EV_TIMEOUT:
		if (flags & UET_SPRAY_AV_BAD)
			return 0;
		uet_spray_active_fail(s, off);
		return UET_SPRAY_R_BAD;
	case UET_SPRAY_EV_PROBE_RESP:
		if (!(flags & UET_SPRAY_AV_BAD))
			return 0;
		uet_spray_active_restore(s, off);
		return UET_SPRAY_R_RESTORE;
	default:
		return 0;
	}
}

/* A timeout or an early deadline: freeze, unless freezing or exploring. */
static u32 uet_spray_reps_freeze(struct uet_spray_reps *r, u64 now_ns)
{
	if (r->phase != UET_SPRAY_PHASE_NORMAL)
		return 0;
	r->phase = UET_SPRAY_PHASE_FREEZING;
	r->freeze_start_ns = now_ns;
	return UET_SPRAY_R_FREEZE;
}

/* A clean ACK: cache @value, over the oldest when full; maybe thaw. */
static u32 uet_spray_reps_recycle(struct uet_spray *s, u16 value, u64 now_ns)
{
	struct uet_spray_reps *r = &s->reps;
	u32 cap = (u32)r->mask + 1;

	s->cache[(r->head + r->count) & r->mask] = value;
	if (r->count == cap)
		r->head = (r->head + 1) & r->mask;
	else
		r->count++;
	if (r->filled < cap)
		r->filled++;
	if (r->phase != UET_SPRAY_PHASE_FREEZING ||
	    (s64)(now_ns - r->freeze_start_ns) < (s64)r->freeze_ns)
		return UET_SPRAY_R_RECYCLE;
	r->window_left = r->window;
	r->phase = r->window ? UET_SPRAY_PHASE_WINDOW : UET_SPRAY_PHASE_NORMAL;
	return UET_SPRAY_R_RECYCLE | UET_SPRAY_R_THAW;
}

static u32 uet_spray_reps_feedback(struct uet_spray *s,
				   enum uet_spray_event ev, u16 value,
				   u64 now_ns)
{
	struct uet_spray_reps *r = &s->reps;

	switch (ev) {
	case UET_SPRAY_EV_ACK:
		return uet_spray_reps_recycle(s, value, now_ns);
	case UET_SPRAY_EV_ACK_ECN:
	case UET_SPRAY_EV_NACK_TRIM:
	case UET_SPRAY_EV_NACK_TRIM_LAST_HOP:
	case UET_SPRAY_EV_NACK:
	case UET_SPRAY_EV_SACK_LOSS:
		return UET_SPRAY_R_DISCARD;
	case UET_SPRAY_EV_TIMEOUT:
		return uet_spray_reps_freeze(r, now_ns);
	case UET_SPRAY_EV_EARLY_DEADLINE:
		/* No deadline is armed with the multiplier at 0. */
		return r->mult ? uet_spray_reps_freeze(r, now_ns) : 0;
	default:
		return 0;
	}
}

/**
 * uet_spray_feedback() - fold path feedback about one transmission in
 * @s: the group's state
 * @ev: what happened to the transmission
 * @value: the entropy value the transmission was sent on
 * @now_ns: the time, ns, of a clock that never goes back (ktime_get_ns())
 *
 * none and rr ignore feedback.  active ignores values outside its active
 * set.  The engine keeps no record of what is in flight: the caller reports
 * the value it sent for a PSN, at most one of ACK, ACK_ECN and NACK* per
 * transmission.
 *
 * Context: any but hard IRQ; takes @s's lock (_bh).  O(1), no allocation.
 * Return: UET_SPRAY_R_* bits saying what changed.
 */
u32 uet_spray_feedback(struct uet_spray *s, enum uet_spray_event ev,
		       u16 value, u64 now_ns)
{
	u32 res;

	if (s->type != UET_SPRAY_ACTIVE && s->type != UET_SPRAY_REPS)
		return 0;
	spin_lock_bh(&s->lock);
	if (s->type == UET_SPRAY_ACTIVE)
		res = uet_spray_active_feedback(s, ev, value);
	else
		res = uet_spray_reps_feedback(s, ev, value, now_ns);
	spin_unlock_bh(&s->lock);
	return res;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_spray_feedback);

/**
 * uet_spray_probe_next() - the bad value the next probe tests
 * @s: the group's state
 * @value: set to the value when there is one
 *
 * Called once every ReliabilityProbePeriod: the bad values are taken in
 * turn, so with k of them each is probed once every k periods.
 *
 * Context: any but hard IRQ; takes @s's lock (_bh).  O(1).
 * Return: true and @value set when a value is assumed bad (active only).
 */
bool uet_spray_probe_next(struct uet_spray *s, u16 *value)
{
	struct uet_spray_active *a = &s->act;
	bool found = false;

	if (s->type != UET_SPRAY_ACTIVE)
		return false;
	spin_lock_bh(&s->lock);
	if (a->nbad) {
		*value = a->start + a->probe;
		a->probe = s->av[a->probe].next;
		found = true;
	}
	spin_unlock_bh(&s->lock);
	return found;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_spray_probe_next);

/**
 * uet_spray_early_deadline_ns() - time after a send to report a failure
 * @s: the group's state
 * @base_rtt_ns: the base RTT congestion control keeps now
 *
 * Context: any; reads only what creation set.
 * Return: FailureDetectionRTTMultiplier x @base_rtt_ns under REPS; 0 when
 * early failure detection is off (multiplier 0, or another policy).
 */
u64 uet_spray_early_deadline_ns(const struct uet_spray *s, u32 base_rtt_ns)
{
	if (s->type != UET_SPRAY_REPS)
		return 0;
	return (u64)s->reps.mult * base_rtt_ns;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_spray_early_deadline_ns);

/**
 * uet_spray_type() - the policy of a state
 * @s: the state
 *
 * Return: enum uet_spray_type, fixed at creation.
 */
u8 uet_spray_type(const struct uet_spray *s)
{
	return s->type;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_spray_type);

static void uet_spray_active_info(struct uet_spray *s,
				  struct uet_spray_info *info)
{
	struct uet_spray_active *a = &s->act;
	u32 i, nuse = a->nvals - a->nbad;
	u8 off = a->cur;

	info->next = a->start + a->cur;
	info->nvals = a->nvals;
	info->nbad = a->nbad;
	if (a->nbad)
		info->probe = a->start + a->probe;
	for (i = 0; i < nuse; i++, off = s->av[off].next)
		if (s->av[off].flags & UET_SPRAY_AV_MARK)
			info->nmarked++;
}

static void uet_spray_reps_info(struct uet_spray *s,
				struct uet_spray_info *info)
{
	struct uet_spray_reps *r = &s->reps;

	info->phase = r->phase;
	info->nvals = (u32)r->mask + 1;
	info->cached = r->count;
	info->filled = r->filled;
	info->window_left = r->window_left;
	if (r->phase == UET_SPRAY_PHASE_FREEZING)
		info->freeze_start_ns = r->freeze_start_ns;
}

/**
 * uet_spray_get_info() - a consistent snapshot of a state
 * @s: the state
 * @info: filled in; fields that do not apply to the policy are 0
 *
 * Context: any but hard IRQ; takes @s's lock (_bh).  O(active set size).
 */
void uet_spray_get_info(struct uet_spray *s, struct uet_spray_info *info)
{
	memset(info, 0, sizeof(*info));
	info->type = s->type;
	if (s->type == UET_SPRAY_NONE) {
		info->next = s->port;
		return;
	}
	spin_lock_bh(&s->lock);
	if (s->type == UET_SPRAY_RR)
		info->next = s->rr.start + s->rr.pos;
	else if (s->type == UET_SPRAY_ACTIVE)
		uet_spray_active_info(s, info);
	else
		uet_spray_reps_info(s, info);
	spin_unlock_bh(&s->lock);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_spray_get_info);

/**
 * struct uet_spray_dump - where uet_spray_get_values() writes
 * @out: the caller's array
 * @first: index, in the whole listing, of the first value to write
 * @max: room in @out
 * @idx: index of the next value listed
 * @n: values written
 */
struct uet_spray_dump {
	struct uet_spray_value *out;
	u32 first;
	u32 max;
	u32 idx;
	u32 n;
};

/* List @count values of the ring through @off, flagged @flags. */
static void uet_spray_dump_ring(struct uet_spray *s, struct uet_spray_dump *d,
				u8 off, u32 count, u16 flags)
{
	struct uet_spray_value *v;
	u32 i;

	for (i = 0; i < count && d->n < d->max; i++, off = s->av[off].next) {
		if (d->idx++ < d->first)
			continue;
		v = &d->out[d->n++];
		v->value = s->act.start + off;
		v->flags = flags;
		if (s->av[off].flags & UET_SPRAY_AV_MARK)
			v->flags |= UET_SPRAY_VF_MARKED;
	}
}

static void uet_spray_active_values(struct uet_spray *s,
				    struct uet_spray_dump *d)
{
	struct uet_spray_active *a = &s->act;

	/* With every value bad, @cur is on the bad ring: list that once. */
	if (a->nbad < a->nvals)
		uet_spray_dump_ring(s, d, a->cur, a->nvals - a->nbad, 0);
	if (a->nbad)
		uet_spray_dump_ring(s, d, a->probe, a->nbad, UET_SPRAY_VF_BAD);
}

/* Cached values oldest first, then the stale slots oldest first. */
static void uet_spray_reps_values(struct uet_spray *s,
				  struct uet_spray_dump *d)
{
	struct uet_spray_reps *r = &s->reps;
	u32 tail = (r->head + r->count) & r->mask;
	struct uet_spray_value *v;
	u32 k;

	for (k = d->first; k < r->filled && d->n < d->max; k++) {
		v = &d->out[d->n++];
		if (k < r->count) {
			v->value = s->cache[(r->head + k) & r->mask];
			v->flags = 0;
		} else {
			v->value = s->cache[(tail + k - r->count) % r->filled];
			v->flags = UET_SPRAY_VF_STALE;
		}
	}
}

/**
 * uet_spray_get_values() - list the values of a state, for a dump
 * @s: the state
 * @first: index of the first value to list, to resume a dump
 * @out: where to write
 * @max: room in @out
 *
 * active: the rotation from the next value considered, then the bad values
 * in probe order (UET_SPRAY_VF_BAD), marks as UET_SPRAY_VF_MARKED.  REPS:
 * the cache oldest first, then the slots taken but kept for replay
 * (UET_SPRAY_VF_STALE), oldest first.  none and rr list nothing: their
 * next value is in struct uet_spray_info.
 *
 * Context: any but hard IRQ; takes @s's lock (_bh).  O(@first + @max).
 * Return: the number of values written; fewer than @max at the end.
 */
u32 uet_spray_get_values(struct uet_spray *s, u32 first,
			 struct uet_spray_value *out, u32 max)
{
	struct uet_spray_dump d = { .out = out, .first = first, .max = max };

	if (s->type != UET_SPRAY_ACTIVE && s->type != UET_SPRAY_REPS)
		return 0;
	spin_lock_bh(&s->lock);
	if (s->type == UET_SPRAY_ACTIVE)
		uet_spray_active_values(s, &d);
	else
		uet_spray_reps_values(s, &d);
	spin_unlock_bh(&s->lock);
	return d.n;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_spray_get_values);
