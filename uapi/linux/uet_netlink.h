/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/uet.yaml */
/* YNL-GEN uapi header */

/*
 * Configuration and state of uet, the Ultra Ethernet Transport PDS over UDP,
 * per network namespace (netnsok): every command acts on the namespace of the
 * requesting socket. Reading needs no privilege; changing the configuration
 * needs CAP_NET_ADMIN over the namespace's user namespace (uns-admin-perm).
 * Every command is strictly validated: reserved header bits, unknown
 * attributes and attributes a request does not take are refused with an
 * extended ack.
 *
 * This is user API: attribute and command numbers never change meaning. New
 * attributes are appended at the end of their set only.
 *
 * Addresses are 16 bytes: an IPv6 address, or an IPv4 address as
 * ::ffff:a.b.c.d.
 *
 * uet: generated from Documentation/netlink/specs/uet.yaml by make regen.
 */
#ifndef _UAPI_LINUX_UET_NETLINK_H
#define _UAPI_LINUX_UET_NETLINK_H

#define UET_GENL_NAME		"uet"
#define UET_GENL_VERSION	1

/**
 * enum uet_spray_type - how the entropy value of each packet is chosen
 * @UET_SPRAY_NONE: one value (the creating PDC's local port) for a group's
 *   life
 * @UET_SPRAY_RR: UET NIC Default Packet Spraying, strict round robin over
 *   2^EntropyMaskBits ports from StartingPortOffset
 * @UET_SPRAY_ACTIVE: MRC NIC Default Packet Spraying, rotation over a random
 *   active set with trim marks, bad values and probes
 * @UET_SPRAY_REPS: Recycled Entropy Packet Spraying
 */
enum uet_spray_type {
	UET_SPRAY_NONE,
	UET_SPRAY_RR,
	UET_SPRAY_ACTIVE,
	UET_SPRAY_REPS,

	/* private: */
	/* private: */
	__UET_SPRAY_MAX,
	UET_SPRAY_MAX = (__UET_SPRAY_MAX - 1)
};

/**
 * enum uet_cc_type - the congestion control of a namespace's new initiator
 *   PDCs
 * @UET_CC_NONE: no window but the PSN window (256 packets in flight)
 * @UET_CC_NSCC: NSCC, network-signal-based congestion control: one window in
 *   bytes per PDC across its entropy values, from the ECN echo and the
 *   queueing delay reported by ACK_CC (Documentation/cc.rst)
 * @UET_CC_RCCC: RCCC, receiver credit: an initiator PDC sends beyond its first
 *   window only with the credit its target grants (CTRL CREDIT), which the
 *   target paces at its link rate over every PDC asking (CTRL CREDIT_REQ)
 * @UET_CC_NSCC_RCCC: NSCC and RCCC together: a packet needs room in the window
 *   and credit
 */
enum uet_cc_type {
	UET_CC_NONE,
	UET_CC_NSCC,
	UET_CC_RCCC,
	UET_CC_NSCC_RCCC,

	/* private: */
	/* private: */
	__UET_CC_MAX,
	UET_CC_MAX = (__UET_CC_MAX - 1)
};

/**
 * enum uet_reps_phase - where a REPS state is in its failure handling
 * @UET_REPS_NORMAL: values recycled from the cache, exploration when empty
 * @UET_REPS_FREEZING: a path failed; no exploration, the cache is replayed
 * @UET_REPS_WINDOW: freezing ended; every 2^REPSBufferSizeMaskBits-th packet
 *   of the exploration window explores
 */
enum uet_reps_phase {
	UET_REPS_NORMAL,
	UET_REPS_FREEZING,
	UET_REPS_WINDOW,
};

/**
 * enum uet_value_flags - flags of one entropy value of a spraying state
 * @UET_VALUE_F_MARKED: active: to be passed over once (trim feedback)
 * @UET_VALUE_F_BAD: active: assumed bad, out of the rotation, probed
 * @UET_VALUE_F_STALE: REPS: taken from the cache, kept only for replay while
 *   freezing
 */
enum uet_value_flags {
	UET_VALUE_F_MARKED = 1,
	UET_VALUE_F_BAD = 2,
	UET_VALUE_F_STALE = 4,
};

/**
 * enum uet_pdc_role - which end of a PDC this is
 * @UET_PDC_ROLE_INITIATOR: sends the requests (data)
 * @UET_PDC_ROLE_TARGET: receives them and acknowledges
 */
enum uet_pdc_role {
	UET_PDC_ROLE_INITIATOR = 1,
	UET_PDC_ROLE_TARGET,
};

/**
 * enum uet_event_type - what a UET_CMD_EVENT notification reports
 * @UET_EVENT_UNSPEC: unused
 * @UET_EVENT_VALUE_BAD: active: a value left the rotation after a timeout
 * @UET_EVENT_VALUE_RESTORED: active: a probe answer brought a value back
 * @UET_EVENT_FREEZE_START: REPS: a destination started freezing
 * @UET_EVENT_FREEZE_END: REPS: its freezing ended
 * @UET_EVENT_PDC_OPEN: a PDC was opened
 * @UET_EVENT_PDC_CLOSE: a PDC was closed
 * @UET_EVENT_MSG_FAILED: a message was given up and reported to its sending
 *   socket
 * @UET_EVENT_VALUE_MARKED: active: a trim NACK marked a value, which the next
 *   packet to meet it passes over once
 */
enum uet_event_type {
	UET_EVENT_UNSPEC,
	UET_EVENT_VALUE_BAD,
	UET_EVENT_VALUE_RESTORED,
	UET_EVENT_FREEZE_START,
	UET_EVENT_FREEZE_END,
	UET_EVENT_PDC_OPEN,
	UET_EVENT_PDC_CLOSE,
	UET_EVENT_MSG_FAILED,
	UET_EVENT_VALUE_MARKED,

	/* private: */
	/* private: */
	__UET_EVENT_MAX,
	UET_EVENT_MAX = (__UET_EVENT_MAX - 1)
};

/**
 * enum uet_info_attr - attributes of UET_CMD_INFO_GET replies
 * @UET_A_INFO_UNSPEC: unused
 * @UET_A_INFO_VERSION: module version string (NUL-terminated)
 * @UET_A_INFO_GENL_VERSION: UET_GENL_VERSION of the running module (u32)
 * @UET_A_INFO_SPRAY_MAX: highest enum uet_spray_type it knows (u32)
 * @UET_A_INFO_CFG_MAX: highest UET_A_CFG_* attribute it knows (u32)
 */
enum uet_info_attr {
	UET_A_INFO_UNSPEC,
	UET_A_INFO_VERSION,
	UET_A_INFO_GENL_VERSION,
	UET_A_INFO_SPRAY_MAX,
	UET_A_INFO_CFG_MAX,

	/* private: */
	__UET_A_INFO_MAX,
	UET_A_INFO_MAX = (__UET_A_INFO_MAX - 1)
};

/**
 * enum uet_cfg_attr - per-namespace configuration attributes
 * @UET_A_CFG_UNSPEC: unused
 * @UET_A_CFG_SPRAY: enum uet_spray_type (u8), default UET_SPRAY_RR
 * @UET_A_CFG_ENTROPY_MASK_BITS: EntropyMaskBits, 0..8 (u8), default 7
 * @UET_A_CFG_START_PORT: StartingPortOffset, 0..65535 (u16), default 256
 * @UET_A_CFG_ACTIVE_SET_SIZE: ActiveEVSetSize, 0..65536 (u32); 0 sizes the
 *   active set from the bandwidth-delay product; default 0
 * @UET_A_CFG_REPS_BUF_BITS: REPSBufferSizeMaskBits, 0..16 (u8), default 8
 * @UET_A_CFG_EV_SET_SIZE: EntropyValueSetSize, 1..65536 (u32), default 65536
 * @UET_A_CFG_FREEZE_TIMEOUT_NS: FreezingTimeout in ns (u32), default 100000
 * @UET_A_CFG_FAIL_DETECT_MULT: FailureDetectionRTTMultiplier, 0..255 (u8); 0
 *   disables early failure detection; default 3
 * @UET_A_CFG_PROBE_PERIOD_NS: ReliabilityProbePeriod in ns (u32), default
 *   150000
 * @UET_A_CFG_PDC_GROUPS: PDCGroupsEnabled, 0 or 1 (u8), default 1
 * @UET_A_CFG_LINK_RATE_MBPS: link rate for BDP sizing in Mbit/s (u32), default
 *   400000
 * @UET_A_CFG_BASE_RTT_NS: initial base RTT in ns (u32), default 6000
 * @UET_A_CFG_MSS: payload bytes per data packet (u32), default 4096
 * @UET_A_CFG_UDP_PORT: UDP destination port, 1..65535 (u16), default 4793
 * @UET_A_CFG_PDC_IDLE_MS: idle time after which a PDC closes, in ms (u32),
 *   default 1000
 * @UET_A_CFG_RTO_MIN_US: minimum retransmission timeout in us (u32), default
 *   1000
 * @UET_A_CFG_RTO_MAX_US: maximum retransmission timeout in us (u32), default
 *   200000; must not be below UET_A_CFG_RTO_MIN_US
 * @UET_A_CFG_MAX_RETX: retransmissions of one packet before its message is
 *   given up, once the peer has also been silent for 3 s; 1..255 (u8), default
 *   10
 * @UET_A_CFG_SEED: seed of the spraying PRNGs (u64); 0 draws a random seed for
 *   every spraying state; default 0
 * @UET_A_CFG_SACK_RETX_THRESH: a SACK gap this many PSNs deep is a loss,
 *   1..1024 (u16), default 16
 * @UET_A_CFG_PAD: padding for 64-bit attributes
 * @UET_A_CFG_DSCP_TRIMMED: DSCP_TRIMMED, the DSCP a switch gives a packet it
 *   trimmed; a data packet received with it is answered by a NACK, 0..63 (u8),
 *   default 63
 * @UET_A_CFG_UDP_CSUM_TX: 1 to send UDP checksums, 0 to send a zero checksum
 *   as UET 1.0 (section 3.5.10.1) does (u8), default 1
 * @UET_A_CFG_UDP_RX_ZERO_CSUM: 1 to accept packets with a zero UDP checksum
 *   (IPv4 and IPv6), as UET 1.0 requires; 0 to drop and count them
 *   (drop_no_checksum) (u8), default 1
 * @UET_A_CFG_RX_MEM: pages of received message data the namespace may hold at
 *   once, over all its sockets, as udp_mem does for UDP (u32), default 65536
 *   (256 MiB with 4 KiB pages); a packet that would go over is refused with a
 *   NACK (drop_rx_mem) and resent later
 * @UET_A_CFG_MSG_TIMEOUT_MS: a partially received message that gets no new
 *   byte for this long is discarded, its memory released and the rest of it
 *   refused (u32, ms), default 30000
 * @UET_A_CFG_CHALLENGE_ACK_LIMIT: challenge ACKs (the answer to a SYN with a
 *   live PDC's key outside its window) the namespace sends per second at most,
 *   as tcp_challenge_ack_limit does for TCP; each second's allowance is drawn
 *   at random between half of it and all of it, and a PDC answers at most one
 *   every 500 ms (u32), default 1000; 0 sends none
 * @UET_A_CFG_SNDBUF: SO_SNDBUF of a new AF_UET socket in bytes, as tcp_wmem[1]
 *   is for TCP (u32), default 16777216; setsockopt(SO_SNDBUF) overrides it. A
 *   message is charged whole until acknowledged: one whose charge is over the
 *   socket's SO_SNDBUF fails with EMSGSIZE
 * @UET_A_CFG_RCVBUF: SO_RCVBUF of a new AF_UET socket in bytes, as tcp_rmem[1]
 *   is for TCP (u32), default 16777216; setsockopt(SO_RCVBUF) overrides it. A
 *   message is reserved whole when it starts: one larger than the socket's
 *   SO_RCVBUF is refused for good (drop_too_big) and its sender gets EMSGSIZE
 * @UET_A_CFG_CC: enum uet_cc_type (u8), default UET_CC_NSCC_RCCC: the
 *   congestion control of PDCs created afterwards. With nscc, an initiator PDC
 *   keeps a congestion window and a target PDC reports what NSCC needs in
 *   every ACK (ACK_CC with its received bytes): set it on both ends. With
 *   rccc, a target paces the credit it grants at link-rate-mbps; a target
 *   answers credit requests whatever its own cc (unpaced unless it runs rccc)
 * @UET_A_CFG_CC_TARGET_QDELAY_NS: NSCC target queueing delay in ns (u32); 0
 *   derives it from base-rtt-ns (3/4 of it, as the UEC model does with
 *   trimming); default 0
 * @UET_A_CFG_ACK_DELAY_US: ACK coalescing (u32, us), default 0 (off). A target
 *   holds the ACK of a message's last packet that asked for none for up to
 *   this long, so that one ACK covers what arrives meanwhile; it reports the
 *   time held as Service_Time. An initiator asks for an ACK (AR) only when
 *   something waits for it (its first packet, a full window or congestion
 *   window, credit or send buffer half spent) and allows this much more before
 *   a packet without AR times out. Set it on both ends; it must be below
 *   rto-min-us
 * @UET_A_CFG_SPRAY_BURST: New data packets (u8) an initiator PDC sends in a
 *   row on one entropy value, default 1: each packet on the value its spraying
 *   type gives it, as UET sprays. With more, the spraying type chooses the
 *   value of a burst's first packet, and a burst ends where the window stops a
 *   push. A burst whose device carries UDP GSO of frag_list packets (veth
 *   does) leaves as one batch: IP, the qdisc and the device take it once, and
 *   so does the receiver's UDP. PDCs created afterwards take it;
 *   retransmissions go one by one, and reps ignores it (its recycling needs a
 *   step a packet)
 * @UET_A_CFG_SUPERPACKETS: 1 to let an initiator build a run of consecutive
 *   data packets of one message that leave on one route and entropy value (a
 *   burst, see spray-burst, or spray none) as one superpacket: one skb whose
 *   packets' headers sit between their payloads, segmented by GSO only where
 *   the packets must be cut (a device without UDP segmentation, say) and kept
 *   whole by a uet receiver that takes it (one unit of the message, no copy
 *   until recvmsg). 0 sends every batch as one packet per skb before
 *   segmentation, as before (u8), default 1. Only on devices with UDP GSO of
 *   frag_list packets (veth) and with udp-csum-tx 1; retransmissions always go
 *   alone. Takes effect for packets built afterwards
 */
enum uet_cfg_attr {
	UET_A_CFG_UNSPEC,
	UET_A_CFG_SPRAY,
	UET_A_CFG_ENTROPY_MASK_BITS,
	UET_A_CFG_START_PORT,
	UET_A_CFG_ACTIVE_SET_SIZE,
	UET_A_CFG_REPS_BUF_BITS,
	UET_A_CFG_EV_SET_SIZE,
	UET_A_CFG_FREEZE_TIMEOUT_NS,
	UET_A_CFG_FAIL_DETECT_MULT,
	UET_A_CFG_PROBE_PERIOD_NS,
	UET_A_CFG_PDC_GROUPS,
	UET_A_CFG_LINK_RATE_MBPS,
	UET_A_CFG_BASE_RTT_NS,
	UET_A_CFG_MSS,
	UET_A_CFG_UDP_PORT,
	UET_A_CFG_PDC_IDLE_MS,
	UET_A_CFG_RTO_MIN_US,
	UET_A_CFG_RTO_MAX_US,
	UET_A_CFG_MAX_RETX,
	UET_A_CFG_SEED,
	UET_A_CFG_SACK_RETX_THRESH,
	UET_A_CFG_PAD,
	UET_A_CFG_DSCP_TRIMMED,
	UET_A_CFG_UDP_CSUM_TX,
	UET_A_CFG_UDP_RX_ZERO_CSUM,
	UET_A_CFG_RX_MEM,
	UET_A_CFG_MSG_TIMEOUT_MS,
	UET_A_CFG_CHALLENGE_ACK_LIMIT,
	UET_A_CFG_SNDBUF,
	UET_A_CFG_RCVBUF,
	UET_A_CFG_CC,
	UET_A_CFG_CC_TARGET_QDELAY_NS,
	UET_A_CFG_ACK_DELAY_US,
	UET_A_CFG_SPRAY_BURST,
	UET_A_CFG_SUPERPACKETS,

	/* private: */
	__UET_A_CFG_MAX,
	UET_A_CFG_MAX = (__UET_A_CFG_MAX - 1)
};

/**
 * enum uet_stats_attr - attributes of UET_CMD_STATS_GET replies
 * @UET_A_STATS_UNSPEC: unused
 * @UET_A_STATS_STAT: one counter (nested UET_A_STAT_*); repeated, once per
 *   counter, in a stable order
 *
 * Counters are named, not numbered, so that a new counter needs no change here
 * and an old uetctl prints it; a name never changes meaning.
 */
enum uet_stats_attr {
	UET_A_STATS_UNSPEC,
	UET_A_STATS_STAT,

	/* private: */
	__UET_A_STATS_MAX,
	UET_A_STATS_MAX = (__UET_A_STATS_MAX - 1)
};

/**
 * enum uet_stat_attr - attributes nested in UET_A_STATS_STAT
 * @UET_A_STAT_UNSPEC: unused
 * @UET_A_STAT_NAME: the counter's name, lower case (NUL-terminated), as in
 *   /sys/kernel/uet/stats/ and /proc/net/uet_stat
 * @UET_A_STAT_VALUE: its value (u64)
 * @UET_A_STAT_GAUGE: flag: a level (such as PDCs open now, or a maximum) that
 *   can go down; without it the counter only ever grows
 * @UET_A_STAT_PAD: padding for 64-bit attributes
 */
enum uet_stat_attr {
	UET_A_STAT_UNSPEC,
	UET_A_STAT_NAME,
	UET_A_STAT_VALUE,
	UET_A_STAT_GAUGE,
	UET_A_STAT_PAD,

	/* private: */
	__UET_A_STAT_MAX,
	UET_A_STAT_MAX = (__UET_A_STAT_MAX - 1)
};

/**
 * enum uet_spray_attr - a spraying state, nested in UET_A_DEST_SPRAY or
 *   UET_A_PDC_SPRAY; attributes that do not apply to its type are absent
 * @UET_A_SPRAY_UNSPEC: unused
 * @UET_A_SPRAY_TYPE: enum uet_spray_type (u8)
 * @UET_A_SPRAY_NEXT: none, rr: the value the next packet takes; active: the
 *   value the rotation considers next (u16)
 * @UET_A_SPRAY_NVALS: active: values in the active set; REPS: capacity of the
 *   cache (u32)
 * @UET_A_SPRAY_NBAD: active: values assumed bad (u32)
 * @UET_A_SPRAY_NMARKED: active: values marked to be passed over once (u32)
 * @UET_A_SPRAY_PROBE: active, with bad values: the value the next probe tests
 *   (u16)
 * @UET_A_SPRAY_PHASE: REPS: enum uet_reps_phase (u8)
 * @UET_A_SPRAY_CACHED: REPS: values in the cache (u32)
 * @UET_A_SPRAY_FILLED: REPS: cache slots ever written (u32)
 * @UET_A_SPRAY_WINDOW_LEFT: REPS: packets left in the exploration window (u32)
 * @UET_A_SPRAY_FROZEN_NS: REPS, while freezing: how long it has lasted, ns
 *   (u64)
 * @UET_A_SPRAY_VALUES_FIRST: index in the whole listing of the first
 *   UET_A_SPRAY_VALUE of this message (u32); a listing too long for one
 *   message continues in the next one, which repeats the owner's identifying
 *   attributes; each message's part is one snapshot
 * @UET_A_SPRAY_VALUE: one value (nested UET_A_VALUE_*); repeated. active: the
 *   rotation from the next value considered, then the bad values in probe
 *   order; REPS: the cache oldest first, then the stale slots
 * @UET_A_SPRAY_PAD: padding for 64-bit attributes
 */
enum uet_spray_attr {
	UET_A_SPRAY_UNSPEC,
	UET_A_SPRAY_TYPE,
	UET_A_SPRAY_NEXT,
	UET_A_SPRAY_NVALS,
	UET_A_SPRAY_NBAD,
	UET_A_SPRAY_NMARKED,
	UET_A_SPRAY_PROBE,
	UET_A_SPRAY_PHASE,
	UET_A_SPRAY_CACHED,
	UET_A_SPRAY_FILLED,
	UET_A_SPRAY_WINDOW_LEFT,
	UET_A_SPRAY_FROZEN_NS,
	UET_A_SPRAY_VALUES_FIRST,
	UET_A_SPRAY_VALUE,
	UET_A_SPRAY_PAD,

	/* private: */
	__UET_A_SPRAY_MAX,
	UET_A_SPRAY_MAX = (__UET_A_SPRAY_MAX - 1)
};

/**
 * enum uet_value_attr - one entropy value, nested in UET_A_SPRAY_VALUE
 * @UET_A_VALUE_UNSPEC: unused
 * @UET_A_VALUE_VALUE: the entropy value, a UDP source port (u16)
 * @UET_A_VALUE_FLAGS: enum uet_value_flags (u32)
 */
enum uet_value_attr {
	UET_A_VALUE_UNSPEC,
	UET_A_VALUE_VALUE,
	UET_A_VALUE_FLAGS,

	/* private: */
	__UET_A_VALUE_MAX,
	UET_A_VALUE_MAX = (__UET_A_VALUE_MAX - 1)
};

/**
 * enum uet_dest_attr - attributes of UET_CMD_DEST_GET
 * @UET_A_DEST_UNSPEC: unused
 * @UET_A_DEST_ADDR: the remote address, 16 bytes: an IPv6 address, or an IPv4
 *   address as ::ffff:a.b.c.d. In a request: only this destination
 * @UET_A_DEST_NPDCS: PDCs open to or from it (u32)
 * @UET_A_DEST_PDC: local id of one of those PDCs (u16); repeated
 * @UET_A_DEST_SPRAY: the PDC group's spraying state (nested UET_A_SPRAY_*);
 *   absent while no initiator PDC has made one, or with PDC groups off (each
 *   PDC then has its own, see UET_A_PDC_SPRAY)
 */
enum uet_dest_attr {
	UET_A_DEST_UNSPEC,
	UET_A_DEST_ADDR,
	UET_A_DEST_NPDCS,
	UET_A_DEST_PDC,
	UET_A_DEST_SPRAY,

	/* private: */
	__UET_A_DEST_MAX,
	UET_A_DEST_MAX = (__UET_A_DEST_MAX - 1)
};

/**
 * enum uet_pdc_attr - attributes of UET_CMD_PDC_GET
 * @UET_A_PDC_UNSPEC: unused
 * @UET_A_PDC_LID: local PDC id (u16)
 * @UET_A_PDC_RID: remote PDC id, 0 while not known yet (u16)
 * @UET_A_PDC_ROLE: enum uet_pdc_role (u8)
 * @UET_A_PDC_LADDR: local address, as UET_A_DEST_ADDR
 * @UET_A_PDC_RADDR: remote address, as UET_A_DEST_ADDR. In a request: only the
 *   PDCs with this peer
 * @UET_A_PDC_JOB: job id (u32)
 * @UET_A_PDC_START_PSN: first PSN (u32)
 * @UET_A_PDC_NEXT_PSN: initiator: next PSN to send; target: next PSN expected,
 *   every PSN before it received (u32)
 * @UET_A_PDC_ACK_PSN: initiator: oldest PSN not yet acknowledged (u32)
 * @UET_A_PDC_WINDOW: PSNs the PDC may have in flight (u32)
 * @UET_A_PDC_OUTSTANDING: initiator: packets sent and not yet acknowledged;
 *   target: PSNs received beyond the next expected one, held out of order
 *   (u32)
 * @UET_A_PDC_MSGS: initiator: messages not yet done; target: messages partly
 *   received (u32)
 * @UET_A_PDC_SRTT_US: initiator: smoothed RTT, us; 0 before the first sample
 *   (u32)
 * @UET_A_PDC_RTTVAR_US: initiator: RTT variation, us (u32)
 * @UET_A_PDC_RTO_US: initiator: current retransmission timeout, us (u32)
 * @UET_A_PDC_BASE_RTT_NS: initiator: base RTT in use: the lowest RTT measured,
 *   or the configured one before any (u32, ns)
 * @UET_A_PDC_MIN_RTT_NS: initiator: lowest RTT measured, absent before the
 *   first sample (u32, ns, saturated)
 * @UET_A_PDC_IDLE_MS: time since the last packet sent or received, ms (u32)
 * @UET_A_PDC_SYN: flag: initiator: the target has not answered yet
 * @UET_A_PDC_SPRAY: initiator with PDC groups off: its own spraying state
 *   (nested UET_A_SPRAY_*); with groups on see UET_A_DEST_SPRAY
 * @UET_A_PDC_PMTU: initiator: the path MTU an ICMP error reported for one of
 *   its data packets, the lowest so far; its packets are cut to fit it on
 *   every path (u32, bytes of IP packet); absent until an error did
 * @UET_A_PDC_CWND: initiator with NSCC: congestion window (u32, bytes of
 *   packets as counted on the wire: UDP length + 40); absent with cc none
 * @UET_A_PDC_CC_IN_FLIGHT: initiator with NSCC: bytes sent and not yet
 *   reported received (s32); may be briefly negative, since the receiver's
 *   count is rounded up to 256 bytes and ACKs reorder
 * @UET_A_PDC_CC_ACTION: initiator with NSCC: what the last NSCC update did
 *   (u8): 0 none, 1 proportional increase, 2 fast increase, 3 fair increase, 4
 *   hold, 5 multiplicative decrease, 6 decrease waiting, 7 quick adapt, 8 ECN
 *   ignored after quick adapt, 9 trim decrease, 10 loss decrease
 * @UET_A_PDC_CC_CREDIT: initiator with RCCC: credit left in payload bytes, the
 *   initial credit plus what the target granted less what was sent (s32; a
 *   packet may take it below 0); absent without RCCC
 */
enum uet_pdc_attr {
	UET_A_PDC_UNSPEC,
	UET_A_PDC_LID,
	UET_A_PDC_RID,
	UET_A_PDC_ROLE,
	UET_A_PDC_LADDR,
	UET_A_PDC_RADDR,
	UET_A_PDC_JOB,
	UET_A_PDC_START_PSN,
	UET_A_PDC_NEXT_PSN,
	UET_A_PDC_ACK_PSN,
	UET_A_PDC_WINDOW,
	UET_A_PDC_OUTSTANDING,
	UET_A_PDC_MSGS,
	UET_A_PDC_SRTT_US,
	UET_A_PDC_RTTVAR_US,
	UET_A_PDC_RTO_US,
	UET_A_PDC_BASE_RTT_NS,
	UET_A_PDC_MIN_RTT_NS,
	UET_A_PDC_IDLE_MS,
	UET_A_PDC_SYN,
	UET_A_PDC_SPRAY,
	UET_A_PDC_PMTU,
	UET_A_PDC_CWND,
	UET_A_PDC_CC_IN_FLIGHT,
	UET_A_PDC_CC_ACTION,
	UET_A_PDC_CC_CREDIT,

	/* private: */
	__UET_A_PDC_MAX,
	UET_A_PDC_MAX = (__UET_A_PDC_MAX - 1)
};

/**
 * enum uet_event_attr - attributes of UET_CMD_EVENT notifications
 * @UET_A_EVENT_UNSPEC: unused
 * @UET_A_EVENT_TYPE: enum uet_event_type (u8)
 * @UET_A_EVENT_RADDR: the remote address, as UET_A_DEST_ADDR
 * @UET_A_EVENT_LADDR: the local address, as UET_A_DEST_ADDR
 * @UET_A_EVENT_PDC: local id of the PDC concerned (u16)
 * @UET_A_EVENT_ROLE: its enum uet_pdc_role (u8)
 * @UET_A_EVENT_JOB: its job id (u32)
 * @UET_A_EVENT_VALUE: the entropy value concerned (u16)
 * @UET_A_EVENT_ERRNO: why a message was given up, a positive errno (u32)
 * @UET_A_EVENT_MSG_SEQ: the message's number on its socket, as in struct
 *   uet_msg_err (u32)
 * @UET_A_EVENT_MSG_LEN: the message's length in bytes (u32)
 * @UET_A_EVENT_TIME_NS: CLOCK_MONOTONIC time of the event, ns (u64)
 * @UET_A_EVENT_PAD: padding for 64-bit attributes
 */
enum uet_event_attr {
	UET_A_EVENT_UNSPEC,
	UET_A_EVENT_TYPE,
	UET_A_EVENT_RADDR,
	UET_A_EVENT_LADDR,
	UET_A_EVENT_PDC,
	UET_A_EVENT_ROLE,
	UET_A_EVENT_JOB,
	UET_A_EVENT_VALUE,
	UET_A_EVENT_ERRNO,
	UET_A_EVENT_MSG_SEQ,
	UET_A_EVENT_MSG_LEN,
	UET_A_EVENT_TIME_NS,
	UET_A_EVENT_PAD,

	/* private: */
	__UET_A_EVENT_MAX,
	UET_A_EVENT_MAX = (__UET_A_EVENT_MAX - 1)
};

/**
 * enum uet_job_attr - attributes of UET_CMD_JOB_*. A job with neither user nor
 *   group is for CAP_NET_ADMIN only, which may bind any job, created or not.
 * @UET_A_JOB_UNSPEC: unused
 * @UET_A_JOB_ID: job id, 0..UET_JOB_MAX (u32)
 * @UET_A_JOB_UID: the user who may bind endpoints in the job, as seen in the
 *   requester's user namespace (u32); absent: no user
 * @UET_A_JOB_GID: the group whose members may bind endpoints in the job (u32);
 *   absent: no group
 */
enum uet_job_attr {
	UET_A_JOB_UNSPEC,
	UET_A_JOB_ID,
	UET_A_JOB_UID,
	UET_A_JOB_GID,

	/* private: */
	__UET_A_JOB_MAX,
	UET_A_JOB_MAX = (__UET_A_JOB_MAX - 1)
};

/**
 * enum uet_cmd - generic netlink commands of the "uet" family
 * @UET_CMD_UNSPEC: unused
 * @UET_CMD_INFO_GET: module and interface version (UET_A_INFO_*)
 * @UET_CMD_CONFIG_GET: the namespace's configuration (UET_A_CFG_*)
 * @UET_CMD_CONFIG_SET: set any subset of UET_A_CFG_*; all or nothing: a
 *   request with one refused attribute changes nothing. Rules spanning
 *   attributes (spray active: start-port + 2^entropy-mask-bits - 1 <= 65535;
 *   rto-min-us <= rto-max-us; ack-delay-us < rto-min-us) are checked against
 *   the result.
 * @UET_CMD_STATS_GET: the namespace's transport counters, summed over the CPUs
 *   (UET_A_STATS_*): one reply of named counters
 * @UET_CMD_DEST_GET: dump of the destinations with PDCs to or from them, each
 *   with its PDCs and its group's spraying state (UET_A_DEST_*);
 *   UET_A_DEST_ADDR in the request limits it to one address. A dump may take
 *   many messages, and one destination too (see UET_A_SPRAY_VALUES_FIRST).
 *   Destinations that come or go meanwhile may be missed or listed twice; such
 *   a dump is flagged NLM_F_DUMP_INTR.
 * @UET_CMD_PDC_GET: dump of the open PDCs (UET_A_PDC_*), as UET_CMD_DEST_GET
 *   dumps; UET_A_PDC_RADDR in the request limits it to the PDCs with one peer
 * @UET_CMD_EVENT: a path or lifetime event (UET_A_EVENT_*), sent to the
 *   "events" group of the namespace where it happened; never a request. Sent
 *   with GFP_ATOMIC from the datapath; one that cannot be allocated is counted
 *   (nl_events_lost).
 * @UET_CMD_JOB_ADD: create the job UET_A_JOB_ID, bindable by the user
 *   UET_A_JOB_UID and/or the group UET_A_JOB_GID (needs CAP_NET_ADMIN); a job
 *   cannot be changed; at most 4096 per namespace
 * @UET_CMD_JOB_DEL: delete the job UET_A_JOB_ID (needs CAP_NET_ADMIN); sockets
 *   bound in it stay bound
 * @UET_CMD_JOB_GET: the job UET_A_JOB_ID, or dump of all jobs in id order
 *   (UET_A_JOB_*)
 */
enum uet_cmd {
	UET_CMD_UNSPEC,
	UET_CMD_INFO_GET,
	UET_CMD_CONFIG_GET,
	UET_CMD_CONFIG_SET,
	UET_CMD_STATS_GET,
	UET_CMD_DEST_GET,
	UET_CMD_PDC_GET,
	UET_CMD_EVENT,
	UET_CMD_JOB_ADD,
	UET_CMD_JOB_DEL,
	UET_CMD_JOB_GET,

	/* private: */
	__UET_CMD_MAX,
	UET_CMD_MAX = (__UET_CMD_MAX - 1)
};

#define UET_MCGRP_EVENTS	"events"

#endif /* _UAPI_LINUX_UET_NETLINK_H */
