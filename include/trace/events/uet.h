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

/**
 * uet_cc - an NSCC update of an initiator PDC's window
 *
 * @cwnd and @in_flight after the update (bytes); @delay the queueing
 * delay it used (ns; 0 for a trim or loss); @ecn the ECN echo; @action an
 * enum uet_nscc_action.
 */
TRACE_EVENT(uet_cc,
	TP_PROTO(u16 pdc, u32 cwnd, s64 in_flight, u32 delay, bool ecn,
		 u8 action),
	TP_ARGS(pdc, cwnd, in_flight, delay, ecn, action),
	TP_STRUCT__entry(
		__field(s64, in_flight)
		__field(u32, cwnd)
		__field(u32, delay)
		__field(u16, pdc)
		__field(bool, ecn)
		__field(u8, action)
	),
	TP_fast_assign(
		__entry->in_flight = in_flight;
		__entry->cwnd = cwnd;
		__entry->delay = delay;
		__entry->pdc = pdc;
		__entry->ecn = ecn;
		__entry->action = action;
	),
	TP_printk("pdc=%u cwnd=%u in_flight=%lld delay=%u ecn=%d action=%s",
		  __entry->pdc, __entry->cwnd, __entry->in_flight,
		  __entry->delay, __entry->ecn,
		  __print_symbolic(__entry->action,
				   { 0, "none" }, { 1, "inc_prop" },
				   { 2, "inc_fast" }, { 3, "inc_fair" },
				   { 4, "hold" }, { 5, "md" }, { 6, "md_wait" },
				   { 7, "quick_adapt" }, { 8, "qa_ignore" },
				   { 9, "trim_dec" }, { 10, "loss_dec" }))
);

#endif /* _UET_TRACE_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
