/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: the spraying engine -- which entropy value (UDP source port) each
 * data packet and retransmission of a PDC group takes, and how path
 * feedback changes that choice.  One state per PDC group: per destination
 * with PDC groups on, per PDC with them off.
 *
 * The engine is pure: it allocates only in uet_spray_create(), reads no
 * clock (callers pass the time), and every per-packet call is O(1) under
 * the state's own lock; the dump calls cost what they list.  It builds
 * unchanged in userspace (tools/spraybench).  Documentation/spraying.rst
 * describes the policies and the cases the references leave open.
 */
#ifndef _UET_SPRAY_H
#define _UET_SPRAY_H

#include <linux/bits.h>
#include <linux/types.h>
#include <uet/config.h>

struct uet_spray;

/**
 * enum uet_spray_event - path feedback about one transmission
 * @UET_SPRAY_EV_ACK: acknowledged (cumulative ACK or SACK), no ECN echo
 * @UET_SPRAY_EV_ACK_ECN: acknowledged with the ECN echo (M flag)
 * @UET_SPRAY_EV_NACK_TRIM: NACK for a packet trimmed on the way
 * @UET_SPRAY_EV_NACK_TRIM_LAST_HOP: NACK for a packet trimmed on the last hop
 * @UET_SPRAY_EV_NACK: any other NACK (PSN out of range, no resources, ...)
 * @UET_SPRAY_EV_SACK_LOSS: a loss found from a SACK gap
 * @UET_SPRAY_EV_TIMEOUT: retransmission timeout of a packet sent on the value
 * @UET_SPRAY_EV_EARLY_DEADLINE: early failure detection deadline passed
 * @UET_SPRAY_EV_PROBE_RESP: a probe sent on the value was answered
 *
 * The caller reports at most one of ACK, ACK_ECN, NACK* for each
 * transmission: a value whose packet was already NACKed is discarded and
 * must not be recycled by a later ACK of the same transmission.
 */
enum uet_spray_event {
	UET_SPRAY_EV_ACK,
	UET_SPRAY_EV_ACK_ECN,
	UET_SPRAY_EV_NACK_TRIM,
	UET_SPRAY_EV_NACK_TRIM_LAST_HOP,
	UET_SPRAY_EV_NACK,
	UET_SPRAY_EV_SACK_LOSS,
	UET_SPRAY_EV_TIMEOUT,
	UET_SPRAY_EV_EARLY_DEADLINE,
	UET_SPRAY_EV_PROBE_RESP,
};

/* What uet_spray_next() and uet_spray_feedback() did, for counters/events. */
#define UET_SPRAY_R_EXPLORE	BIT(0)	/* REPS drew a random value */
#define UET_SPRAY_R_RECYCLE	BIT(1)	/* REPS cached the value */
#define UET_SPRAY_R_DISCARD	BIT(2)	/* REPS dropped the value */
#define UET_SPRAY_R_FREEZE	BIT(3)	/* REPS started freezing */
#define UET_SPRAY_R_THAW	BIT(4)	/* REPS stopped freezing */
#define UET_SPRAY_R_MARK	BIT(5)	/* active: value marked to skip once */
#define UET_SPRAY_R_BAD		BIT(6)	/* active: value left the rotation */
#define UET_SPRAY_R_RESTORE	BIT(7)	/* active: value back in rotation */
#define UET_SPRAY_R_REPLAY	BIT(8)	/* REPS froze: reused a taken entry */
#define UET_SPRAY_R_SKIP	BIT(9)	/* active: passed a marked value over */
#define UET_SPRAY_R_ALL_BAD	BIT(10)	/* active: every value bad, used anyway */

/**
 * enum uet_spray_phase - where REPS is in its failure handling
 * @UET_SPRAY_PHASE_NORMAL: reuse cached values, explore when the cache is empty
 * @UET_SPRAY_PHASE_FREEZING: a path failed; no exploration once a value was
 *	ever cached, the empty cache replays its entries
 * @UET_SPRAY_PHASE_WINDOW: freezing ended; every 2^REPSBufferSizeMaskBits-th
 *	packet counted back from the end of the window explores
 */
enum uet_spray_phase {
	UET_SPRAY_PHASE_NORMAL,
	UET_SPRAY_PHASE_FREEZING,
	UET_SPRAY_PHASE_WINDOW,
};

/**
 * struct uet_spray_info - a snapshot of one state, for dumps and tests
 * @type: enum uet_spray_type
 * @phase: REPS: enum uet_spray_phase; 0 for the other types
 * @next: none, rr: the value the next packet takes; active: the value the
 *	rotation considers next; REPS: unused (0)
 * @nvals: active: values in the active set; REPS: capacity of the cache
 * @nbad: active: values assumed bad (out of the rotation)
 * @nmarked: active: values marked to be passed over once
 * @probe: active: the value the next probe tests, when @nbad > 0
 * @cached: REPS: values in the cache
 * @filled: REPS: cache slots ever written (what freezing can replay)
 * @window_left: REPS: packets left in the exploration window
 * @freeze_start_ns: REPS: when freezing began, while freezing
 */
struct uet_spray_info {
	u8 type;
	u8 phase;
	u16 next;
	u32 nvals;
	u32 nbad;
	u32 nmarked;
	u32 probe;
	u32 cached;
	u32 filled;
	u32 window_left;
	u64 freeze_start_ns;
};

/* Flags of struct uet_spray_value. */
#define UET_SPRAY_VF_MARKED	BIT(0)	/* active: to be passed over once */
#define UET_SPRAY_VF_BAD	BIT(1)	/* active: out of the rotation */
#define UET_SPRAY_VF_STALE	BIT(2)	/* REPS: taken, kept for replay */

/**
 * struct uet_spray_value - one value of an active set or a REPS cache
 * @value: the entropy value
 * @flags: UET_SPRAY_VF_*
 */
struct uet_spray_value {
	u16 value;
	u16 flags;
};

struct uet_spray *uet_spray_create(const struct uet_config *cfg, u64 key,
				   u16 own_port, gfp_t gfp);
void uet_spray_destroy(struct uet_spray *s);
u16 uet_spray_next(struct uet_spray *s, u32 *result);
u32 uet_spray_feedback(struct uet_spray *s, enum uet_spray_event ev,
		       u16 value, u64 now_ns);
bool uet_spray_probe_next(struct uet_spray *s, u16 *value);
u64 uet_spray_early_deadline_ns(const struct uet_spray *s, u32 base_rtt_ns);
u8 uet_spray_type(const struct uet_spray *s);
void uet_spray_get_info(struct uet_spray *s, struct uet_spray_info *info);
u32 uet_spray_get_values(struct uet_spray *s, u32 first,
			 struct uet_spray_value *out, u32 max);

#endif /* _UET_SPRAY_H */
