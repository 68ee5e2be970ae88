/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: tracepoints of the "uet" trace system.
 *
 * Every event takes scalars only, so a tracepoint costs a predictable
 * branch when disabled and its format never depends on internal layouts.
 * `perf record -e 'uet:*'`, trace-cmd and bpftrace read them as usual.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM uet

#if !defined(_UET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _UET_TRACE_H

#include <linux/tracepoint.h>
#include <uet/spray.h>

/**
 * uet_data_tx - a data packet sent or retransmitted
 * @pdc: local PDC id
 * @psn: its packet sequence number
 * @ev: entropy value (UDP source port) it was sent on
 * @len: payload bytes
 * @retx: true for a retransmission
 */
TRACE_EVENT(uet_data_tx,
	TP_PROTO(u16 pdc, u32 psn, u16 ev, u32 len, bool retx),
	TP_ARGS(pdc, psn, ev, len, retx),
	TP_STRUCT__entry(
		__field(u32, psn)
		__field(u32, len)
		__field(u16, pdc)
		__field(u16, ev)
		__field(bool, retx)
	),
	TP_fast_assign(
		__entry->psn = psn;
		__entry->len = len;
		__entry->pdc = pdc;
		__entry->ev = ev;
		__entry->retx = retx;
	),
	TP_printk("pdc=%u psn=%u ev=%u len=%u retx=%d", __entry->pdc,
		  __entry->psn, __entry->ev, __entry->len, __entry->retx)
);

/**
 * uet_pkt_rx - a request (data or CTRL) that reached its target PDC
 * @pdc: the target's local PDC id
 * @psn: its PSN
 * @sport: its UDP source port: the entropy value it came on
 * @type: PDS type, UET_PDS_RUD_REQ or UET_PDS_CTRL
 * @len: payload bytes (0 for CTRL)
 *
 * Traced before the duplicate and window checks: a duplicate shows too.
 */
TRACE_EVENT(uet_pkt_rx,
	TP_PROTO(u16 pdc, u32 psn, u16 sport, u8 type, u32 len),
	TP_ARGS(pdc, psn, sport, type, len),
	TP_STRUCT__entry(
		__field(u32, psn)
		__field(u32, len)
		__field(u16, pdc)
		__field(u16, sport)
		__field(u8, type)
	),
	TP_fast_assign(
		__entry->psn = psn;
		__entry->len = len;
		__entry->pdc = pdc;
		__entry->sport = sport;
		__entry->type = type;
	),
	TP_printk("pdc=%u psn=%u sport=%u type=%u len=%u", __entry->pdc,
		  __entry->psn, __entry->sport, __entry->type, __entry->len)
);

DECLARE_EVENT_CLASS(uet_ack_class,
	TP_PROTO(u16 pdc, u32 cack_psn, u32 psn, u16 ev, bool sack, bool ecn),
	TP_ARGS(pdc, cack_psn, psn, ev, sack, ecn),
	TP_STRUCT__entry(
		__field(u32, cack_psn)
		__field(u32, psn)
		__field(u16, pdc)
		__field(u16, ev)
		__field(bool, sack)
		__field(bool, ecn)
	),
	TP_fast_assign(
		__entry->cack_psn = cack_psn;
		__entry->psn = psn;
		__entry->pdc = pdc;
		__entry->ev = ev;
		__entry->sack = sack;
		__entry->ecn = ecn;
	),
	TP_printk("pdc=%u cack_psn=%u psn=%u ev=%u sack=%d ecn=%d",
		  __entry->pdc, __entry->cack_psn, __entry->psn, __entry->ev,
		  __entry->sack, __entry->ecn)
);

/**
 * uet_ack_tx - an ACK sent; @ev is the value of the packet that drew it
 *
 * @psn is the PSN of the packet that drew it; @sack: it has a SACK
 * bitmap; @ecn: it echoes an ECN mark (M).  Probe answers are ACKs too.
 */
DEFINE_EVENT(uet_ack_class, uet_ack_tx,
	TP_PROTO(u16 pdc, u32 cack_psn, u32 psn, u16 ev, bool sack, bool ecn),
	TP_ARGS(pdc, cack_psn, psn, ev, sack, ecn));

/**
 * uet_ack_rx - an ACK received; @ev is the value it carries back
 *
 * Probe answers are traced as uet_probe_answered instead.
 */
DEFINE_EVENT(uet_ack_class, uet_ack_rx,
	TP_PROTO(u16 pdc, u32 cack_psn, u32 psn, u16 ev, bool sack, bool ecn),
	TP_ARGS(pdc, cack_psn, psn, ev, sack, ecn));

DECLARE_EVENT_CLASS(uet_nack_class,
	TP_PROTO(u16 pdc, u32 psn, u8 code, u16 ev),
	TP_ARGS(pdc, psn, code, ev),
	TP_STRUCT__entry(
		__field(u32, psn)
		__field(u16, pdc)
		__field(u16, ev)
		__field(u8, code)
	),
	TP_fast_assign(
		__entry->psn = psn;
		__entry->pdc = pdc;
		__entry->ev = ev;
		__entry->code = code;
	),
	TP_printk("pdc=%u psn=%u code=%u ev=%u", __entry->pdc, __entry->psn,
		  __entry->code, __entry->ev)
);

/**
 * uet_nack_tx - a NACK sent
 */
DEFINE_EVENT(uet_nack_class, uet_nack_tx,
	TP_PROTO(u16 pdc, u32 psn, u8 code, u16 ev),
	TP_ARGS(pdc, psn, code, ev));

/**
 * uet_nack_rx - a NACK received
 */
DEFINE_EVENT(uet_nack_class, uet_nack_rx,
	TP_PROTO(u16 pdc, u32 psn, u8 code, u16 ev),
	TP_ARGS(pdc, psn, code, ev));

/**
 * uet_probe_tx - a probe sent on a value assumed bad
 * @pdc: the prober's local PDC id
 * @ev: the value probed
 * @seq: the probe's opaque value
 */
TRACE_EVENT(uet_probe_tx,
	TP_PROTO(u16 pdc, u16 ev, u16 seq),
	TP_ARGS(pdc, ev, seq),
	TP_STRUCT__entry(
		__field(u16, pdc)
		__field(u16, ev)
		__field(u16, seq)
	),
	TP_fast_assign(
		__entry->pdc = pdc;
		__entry->ev = ev;
		__entry->seq = seq;
	),
	TP_printk("pdc=%u ev=%u seq=%u", __entry->pdc, __entry->ev,
		  __entry->seq)
);

/**
 * uet_probe_answered - a probe's answer received
 * @pdc: the prober's local PDC id
 * @ev: the value probed (the answer's UDP source port)
 * @seq: the opaque value the answer echoes
 * @rtt_ns: round trip less @service_ns; 0 when the probe's send time is
 *	no longer known (a late or repeated answer)
 * @service_ns: the target's time between the probe and its answer
 */
TRACE_EVENT(uet_probe_answered,
	TP_PROTO(u16 pdc, u16 ev, u16 seq, u64 rtt_ns, u32 service_ns),
	TP_ARGS(pdc, ev, seq, rtt_ns, service_ns),
	TP_STRUCT__entry(
		__field(u64, rtt_ns)
		__field(u32, service_ns)
		__field(u16, pdc)
		__field(u16, ev)
		__field(u16, seq)
	),
	TP_fast_assign(
		__entry->rtt_ns = rtt_ns;
		__entry->service_ns = service_ns;
		__entry->pdc = pdc;
		__entry->ev = ev;
		__entry->seq = seq;
	),
	TP_printk("pdc=%u ev=%u seq=%u rtt_ns=%llu service_ns=%u",
		  __entry->pdc, __entry->ev, __entry->seq, __entry->rtt_ns,
		  __entry->service_ns)
);

/**
 * uet_spray - a spraying engine decision or feedback that changed state
 *	(called only when the engine reports something)
 * @pdc: local PDC id on whose behalf the engine was called
 * @ev: the entropy value concerned
 * @result: UET_SPRAY_R_* bits (explore, recycle, freeze, ...)
 */
TRACE_EVENT(uet_spray,
	TP_PROTO(u16 pdc, u16 ev, u32 result),
	TP_ARGS(pdc, ev, result),
	TP_STRUCT__entry(
		__field(u32, result)
		__field(u16, pdc)
		__field(u16, ev)
	),
	TP_fast_assign(
		__entry->result = result;
		__entry->pdc = pdc;
		__entry->ev = ev;
	),
	TP_printk("pdc=%u ev=%u result=%s", __entry->pdc, __entry->ev,
		  __print_flags(__entry->result, "|",
				{ UET_SPRAY_R_EXPLORE, "explore" },
				{ UET_SPRAY_R_RECYCLE, "recycle" },
				{ UET_SPRAY_R_DISCARD, "discard" },
				{ UET_SPRAY_R_FREEZE, "freeze" },
				{ UET_SPRAY_R_THAW, "thaw" },
				{ UET_SPRAY_R_MARK, "mark" },
				{ UET_SPRAY_R_BAD, "bad" },
				{ UET_SPRAY_R_RESTORE, "restore" },
				{ UET_SPRAY_R_REPLAY, "replay" },
				{ UET_SPRAY_R_SKIP, "skip" },
				{ UET_SPRAY_R_ALL_BAD, "all-bad" }))
);

#endif /* _UET_TRACE_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
