/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: per-namespace configuration, its defaults, limits and derived values.
 *
 * Everything here is pure: no locking, no allocation, no networking, so the
 * same code runs in the module, in KUnit and in the userspace benchmark.
 */
#ifndef _UET_CONFIG_H
#define _UET_CONFIG_H

#include <linux/types.h>
#include <linux/uet_netlink.h>

struct netlink_ext_ack;

/* Limits of each attribute, shared by the netlink policy and KUnit. */
#define UET_ENTROPY_MASK_BITS_MAX	8
#define UET_ACTIVE_SET_SIZE_MAX		65536
#define UET_REPS_BUF_BITS_MAX		16
#define UET_EV_SET_SIZE_MIN		1
#define UET_EV_SET_SIZE_MAX		65536
#define UET_TIME_NS_MIN			1000U		/* 1 us */
#define UET_TIME_NS_MAX			1000000000U	/* 1 s */
#define UET_LINK_RATE_MBPS_MIN		1
#define UET_LINK_RATE_MBPS_MAX		1600000		/* 1.6 Tbit/s */
#define UET_BASE_RTT_NS_MIN		100
#define UET_BASE_RTT_NS_MAX		100000000	/* 100 ms */
#define UET_MSS_MIN			256
#define UET_MSS_MAX			16384
#define UET_PDC_IDLE_MS_MIN		1
#define UET_PDC_IDLE_MS_MAX		3600000
#define UET_RTO_US_MIN			10
#define UET_RTO_US_MAX			60000000
#define UET_MAX_RETX_MIN		1
#define UET_SACK_RETX_THRESH_MIN	1
#define UET_SACK_RETX_THRESH_MAX	1024
#define UET_DSCP_MAX			63
#define UET_RX_MEM_MIN			16
#define UET_RX_MEM_MAX			67108864	/* 256 GiB of pages */
#define UET_MSG_TIMEOUT_MS_MIN		100
#define UET_MSG_TIMEOUT_MS_MAX		3600000
#define UET_CHALLENGE_ACK_LIMIT_MAX	1000000
/*
 * A socket's buffers: at least the kernel's floor (SOCK_MIN_SNDBUF,
 * SOCK_MIN_RCVBUF: socket.c checks), at most what two of the largest
 * messages take (UET_MSG_MAX each).
 */
#define UET_SOCKBUF_MIN			8192
#define UET_SOCKBUF_MAX			134217728	/* 128 MiB */
/* Service_Time (16 bits of 128 ns) reports at most 8.39 ms held. */
#define UET_ACK_DELAY_US_MAX		8000
/* A burst fills at most one batch (UET_TX_BATCH_SEGS). */
#define UET_SPRAY_BURST_MIN		1
#define UET_SPRAY_BURST_MAX		64

/* Defaults that module parameters can change (see main.c). */
#define UET_DEFAULT_SPRAY		UET_SPRAY_RR
#define UET_DEFAULT_SPRAY_BURST		1
#define UET_DEFAULT_SUPERPACKETS	1
#define UET_DEFAULT_UDP_PORT		4793
#define UET_DEFAULT_START_PORT		256
#define UET_DEFAULT_ENTROPY_MASK_BITS	7
#define UET_DEFAULT_LINK_RATE_MBPS	400000
#define UET_DEFAULT_BASE_RTT_NS		6000
#define UET_DEFAULT_MSS			4096
/*
 * SO_SNDBUF and SO_RCVBUF of a new socket, as tcp_wmem[1] and tcp_rmem[1]
 * for TCP: a message must fit whole, so 16 MiB holds one of 8 MiB with
 * its bookkeeping (wmem_default and rmem_default would hold 200 KiB).
 */
#define UET_DEFAULT_SOCKBUF		16777216
/*
 * The REPS cache holds a whole PSN window (UET_PSN_WINDOW), not the
 * reference's 8: ACKs here cover 8 PSNs or more at once and a SACK gap
 * holds the window, so a smaller cache overflows and the next packets
 * explore, onto a failed path too (Documentation/spraying.rst).
 */
#define UET_DEFAULT_REPS_BUF_BITS	8

/* Bytes a data packet costs on the wire beyond its MSS, per reference NIC. */
#define UET_ACTIVE_PKT_OVERHEAD		60	/* MRC NIC active-set sizing */
#define UET_REPS_PKT_OVERHEAD		88	/* UET NIC REPS window */
#define UET_ACTIVE_SET_BDP_CAP		100

/**
 * struct uet_config - configuration of one network namespace
 * @seed: spraying PRNG seed; 0 = a random seed for every spraying state
 * @link_rate_mbps: link rate for bandwidth-delay sizing, Mbit/s
 * @base_rtt_ns: initial base RTT, ns
 * @active_set_size: ActiveEVSetSize; 0 = from the bandwidth-delay product
 * @ev_set_size: EntropyValueSetSize, REPS explores [0, ev_set_size - 1]
 * @freeze_timeout_ns: REPS FreezingTimeout, ns
 * @probe_period_ns: ReliabilityProbePeriod, ns
 * @pdc_idle_ms: idle time after which a PDC is closed, ms
 * @rto_min_us: lower bound of the retransmission timeout, us
 * @rto_max_us: upper bound of the retransmission timeout, us
 * @mss: payload bytes of a full data packet
 * @start_port: StartingPortOffset
 * @udp_port: UDP destination port of every UET packet
 * @sack_retx_thresh: depth in PSNs at which a SACK gap counts as a loss
 * @spray: enum uet_spray_type
 * @entropy_mask_bits: EntropyMaskBits, 2^bits values in the rr/active range
 * @reps_buf_bits: REPSBufferSizeMaskBits, 2^bits entries in the REPS cache
 * @fail_detect_mult: FailureDetectionRTTMultiplier; 0 = off
 * @max_retx: retransmissions of one packet before the message is given up
 *	(once the target has also been silent for 3 s)
 * @pdc_groups: PDCGroupsEnabled, one spraying state per destination
 * @dscp_trimmed: DSCP_TRIMMED, the DSCP of a packet a switch trimmed
 * @udp_csum_tx: send UDP checksums (0: send zero, as UET 1.0 does)
 * @udp_rx_zero_csum: accept packets whose UDP checksum is zero
 * @rx_mem: pages of received message data the namespace may hold
 * @msg_timeout_ms: a partial message without progress this long is dropped
 * @challenge_ack_limit: challenge ACKs the namespace sends per second
 * @sndbuf: SO_SNDBUF of a new AF_UET socket, bytes
 * @rcvbuf: SO_RCVBUF of a new AF_UET socket, bytes
 * @cc_target_qdelay_ns: NSCC target queueing delay, ns; 0 = derived
 * @ack_delay_us: how long a target may hold an ACK nobody asked for, us;
 *	0 = off (an initiator then asks for one on every message's end)
 * @cc: enum uet_cc_type of PDCs created afterwards
 * @spray_burst: new data packets a PDC sends in a row on one entropy
 *	value (1: each on its own, as UET sprays)
 * @superpackets: an initiator builds a run of consecutive data packets on
 *	one route and entropy value as one superpacket (0: one skb a packet)
 *
 * An instance is immutable once published: the namespace holds an
 * RCU-protected pointer to it and a change publishes a new copy (see
 * struct uet_net), so no field needs a lock of its own.
 */
struct uet_config {
	u64 seed;
	u32 link_rate_mbps;
	u32 base_rtt_ns;
	u32 active_set_size;
	u32 ev_set_size;
	u32 freeze_timeout_ns;
	u32 probe_period_ns;
	u32 pdc_idle_ms;
	u32 rto_min_us;
	u32 rto_max_us;
	u32 mss;
	u32 rx_mem;
	u32 msg_timeout_ms;
	u32 challenge_ack_limit;
	u32 sndbuf;
	u32 rcvbuf;
	u32 cc_target_qdelay_ns;
	u32 ack_delay_us;
	u16 start_port;
	u16 udp_port;
	u16 sack_retx_thresh;
	u8 spray;
	u8 entropy_mask_bits;
	u8 reps_buf_bits;
	u8 fail_detect_mult;
	u8 max_retx;
	u8 pdc_groups;
	u8 dscp_trimmed;
	u8 udp_csum_tx;
	u8 udp_rx_zero_csum;
	u8 cc;
	u8 spray_burst;
	u8 superpackets;
};

void uet_config_init_defaults(struct uet_config *cfg);
int uet_config_validate(const struct uet_config *cfg,
			struct netlink_ext_ack *extack);
u64 uet_config_bdp_bytes(const struct uet_config *cfg, u32 base_rtt_ns);
u32 uet_config_active_set_size(const struct uet_config *cfg);
u32 uet_config_reps_window(const struct uet_config *cfg);

#endif /* _UET_CONFIG_H */
