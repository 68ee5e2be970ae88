/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * uet: Ultra Ethernet Transport PDS over UDP -- generic netlink interface.
 *
 * The family is per network namespace (netnsok): every command acts on the
 * namespace of the requesting socket.  Reading needs no privilege; changing
 * the configuration needs CAP_NET_ADMIN over the namespace's user namespace.
 *
 * This is user API: attribute and command numbers never change meaning.
 * New attributes are appended before the __UET_A_*_MAX sentinels only.
 * Documentation/netlink/uet.yaml describes the family in full.
 */
#ifndef _UAPI_LINUX_UET_NETLINK_H
#define _UAPI_LINUX_UET_NETLINK_H

#define UET_GENL_NAME		"uet"
#define UET_GENL_VERSION	1

/**
 * enum uet_spray_type - how the entropy value of each packet is chosen
 * @UET_SPRAY_NONE: one value (the creating PDC's local port) for a group's life
 * @UET_SPRAY_RR: UET NIC Default Packet Spraying, strict round robin over
 *	2^EntropyMaskBits ports from StartingPortOffset
 * @UET_SPRAY_ACTIVE: MRC NIC Default Packet Spraying, rotation over a random
 *	active set with trim marks, bad values and probes
 * @UET_SPRAY_REPS: Recycled Entropy Packet Spraying
 */
enum uet_spray_type {
	UET_SPRAY_NONE,
	UET_SPRAY_RR,
	UET_SPRAY_ACTIVE,
	UET_SPRAY_REPS,

	/* private: */
	__UET_SPRAY_MAX,
	UET_SPRAY_MAX = __UET_SPRAY_MAX - 1,
};

/**
 * enum uet_cmd - generic netlink commands of the "uet" family
 * @UET_CMD_UNSPEC: unused
 * @UET_CMD_INFO_GET: module and interface version (UET_A_INFO_*)
 * @UET_CMD_CONFIG_GET: the namespace's configuration (UET_A_CFG_*)
 * @UET_CMD_CONFIG_SET: set any subset of UET_A_CFG_*; all or nothing
 */
enum uet_cmd {
	UET_CMD_UNSPEC,
	UET_CMD_INFO_GET,
	UET_CMD_CONFIG_GET,
	UET_CMD_CONFIG_SET,

	/* private: */
	__UET_CMD_MAX,
	UET_CMD_MAX = __UET_CMD_MAX - 1,
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
	UET_A_INFO_MAX = __UET_A_INFO_MAX - 1,
};

/**
 * enum uet_cfg_attr - per-namespace configuration attributes
 * @UET_A_CFG_UNSPEC: unused
 * @UET_A_CFG_SPRAY: enum uet_spray_type (u8), default UET_SPRAY_RR
 * @UET_A_CFG_ENTROPY_MASK_BITS: EntropyMaskBits, 0..8 (u8), default 7
 * @UET_A_CFG_START_PORT: StartingPortOffset, 0..65535 (u16), default 256
 * @UET_A_CFG_ACTIVE_SET_SIZE: ActiveEVSetSize, 0..65536 (u32); 0 sizes the
 *	active set from the bandwidth-delay product; default 0
 * @UET_A_CFG_REPS_BUF_BITS: REPSBufferSizeMaskBits, 0..16 (u8), default 3
 * @UET_A_CFG_EV_SET_SIZE: EntropyValueSetSize, 1..65536 (u32), default 65536
 * @UET_A_CFG_FREEZE_TIMEOUT_NS: FreezingTimeout in ns (u32), default 100000
 * @UET_A_CFG_FAIL_DETECT_MULT: FailureDetectionRTTMultiplier, 0..255 (u8);
 *	0 disables early failure detection; default 3
 * @UET_A_CFG_PROBE_PERIOD_NS: ReliabilityProbePeriod in ns (u32),
 *	default 150000
 * @UET_A_CFG_PDC_GROUPS: PDCGroupsEnabled, 0 or 1 (u8), default 1
 * @UET_A_CFG_LINK_RATE_MBPS: link rate for BDP sizing in Mbit/s (u32),
 *	default 400000
 * @UET_A_CFG_BASE_RTT_NS: initial base RTT in ns (u32), default 6000
 * @UET_A_CFG_MSS: payload bytes per data packet (u32), default 4096
 * @UET_A_CFG_UDP_PORT: UDP destination port, 1..65535 (u16), default 4793
 * @UET_A_CFG_PDC_IDLE_MS: idle time after which a PDC closes, in ms (u32),
 *	default 1000
 * @UET_A_CFG_RTO_MIN_US: minimum retransmission timeout in us (u32),
 *	default 1000
 * @UET_A_CFG_RTO_MAX_US: maximum retransmission timeout in us (u32),
 *	default 200000; must not be below UET_A_CFG_RTO_MIN_US
 * @UET_A_CFG_MAX_RETX: retransmissions of one packet before its message is
 *	given up, 1..255 (u8), default 10
 * @UET_A_CFG_SEED: seed of the spraying PRNGs (u64); 0 draws a random seed
 *	for every spraying state; default 0
 * @UET_A_CFG_SACK_RETX_THRESH: a SACK gap this many PSNs deep is a loss,
 *	1..1024 (u16), default 16
 * @UET_A_CFG_PAD: padding for 64-bit attributes
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

	/* private: */
	__UET_A_CFG_MAX,
	UET_A_CFG_MAX = __UET_A_CFG_MAX - 1,
};

#endif /* _UAPI_LINUX_UET_NETLINK_H */
