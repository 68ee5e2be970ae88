/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: what the rest of the module calls in the generic netlink family:
 * path and lifetime events for the "events" multicast group, and the
 * spraying-state listing shared with KUnit.
 */
#ifndef _UET_NETLINK_H
#define _UET_NETLINK_H

#include <linux/types.h>
#include <uet/kunit.h>
#include <uet/spray.h>

struct sk_buff;
struct uet_pdc;
struct uet_tx_msg;

/*
 * Values of a spraying state listed per netlink message at most: a dump
 * copies them out of the state in one snapshot, into its own buffer.
 */
#define UET_NL_VALUES_MAX	256

/* Engine results that are path events (enum uet_event_type). */
#define UET_NL_SPRAY_EVENTS	(UET_SPRAY_R_BAD | UET_SPRAY_R_RESTORE | \
				 UET_SPRAY_R_FREEZE | UET_SPRAY_R_THAW | \
				 UET_SPRAY_R_MARK)

#if UET_KUNIT_HOOKS
/* Static in netlink.c but for KUnit (VISIBLE_IF_KUNIT). */
int uet_nl_spray_put(struct sk_buff *skb, int type, struct uet_spray *s,
		     u32 first, struct uet_spray_value *buf, u32 *n);
#endif
void uet_nl_notify_pdc(const struct uet_pdc *pdc, bool open);
void uet_nl_notify_spray_events(const struct uet_pdc *pdc, u16 value,
				u32 result);
void uet_nl_notify_msg_failed(const struct uet_pdc *pdc,
			      const struct uet_tx_msg *m, int err);

/**
 * uet_nl_notify_spray() - report the path events of an engine call
 * @pdc: the PDC on whose behalf the engine was called
 * @value: the entropy value the call concerned
 * @result: the call's UET_SPRAY_R_* bits
 *
 * Most calls change nothing an operator watches: one bit test, inline.
 *
 * Context: any but hard IRQ, PDC lock allowed; does not sleep.
 */
static inline void uet_nl_notify_spray(const struct uet_pdc *pdc, u16 value,
				       u32 result)
{
	if (unlikely(result & UET_NL_SPRAY_EVENTS))
		uet_nl_notify_spray_events(pdc, value, result);
}

#endif /* _UET_NETLINK_H */
