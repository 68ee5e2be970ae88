// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/uet.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uet/netlink-gen.h>

#include <linux/uet_netlink.h>
#include <uet/config.h>

/* Integer value ranges */
static struct netlink_range_validation uet_a_cfg_start_port_range = {
	.max	= U16_MAX,
};

static struct netlink_range_validation uet_a_cfg_active_set_size_range = {
	.min	= 0ULL,
	.max	= UET_ACTIVE_SET_SIZE_MAX,
};

static struct netlink_range_validation uet_a_cfg_ev_set_size_range = {
	.min	= UET_EV_SET_SIZE_MIN,
	.max	= UET_EV_SET_SIZE_MAX,
};

static struct netlink_range_validation uet_a_cfg_freeze_timeout_ns_range = {
	.min	= UET_TIME_NS_MIN,
	.max	= UET_TIME_NS_MAX,
};

static struct netlink_range_validation uet_a_cfg_probe_period_ns_range = {
	.min	= UET_TIME_NS_MIN,
	.max	= UET_TIME_NS_MAX,
};

static struct netlink_range_validation uet_a_cfg_link_rate_mbps_range = {
	.min	= UET_LINK_RATE_MBPS_MIN,
	.max	= UET_LINK_RATE_MBPS_MAX,
};

static struct netlink_range_validation uet_a_cfg_base_rtt_ns_range = {
	.min	= UET_BASE_RTT_NS_MIN,
	.max	= UET_BASE_RTT_NS_MAX,
};

static struct netlink_range_validation uet_a_cfg_udp_port_range = {
	.min	= 1ULL,
	.max	= U16_MAX,
};

static struct netlink_range_validation uet_a_cfg_pdc_idle_ms_range = {
	.min	= UET_PDC_IDLE_MS_MIN,
	.max	= UET_PDC_IDLE_MS_MAX,
};

static struct netlink_range_validation uet_a_cfg_rto_min_us_range = {
	.min	= UET_RTO_US_MIN,
	.max	= UET_RTO_US_MAX,
};

static struct netlink_range_validation uet_a_cfg_rto_max_us_range = {
	.min	= UET_RTO_US_MIN,
	.max	= UET_RTO_US_MAX,
};

static struct netlink_range_validation uet_a_cfg_seed_range = {
	.min	= 0ULL,
	.max	= U64_MAX,
};

static struct netlink_range_validation uet_a_cfg_rx_mem_range = {
	.min	= UET_RX_MEM_MIN,
	.max	= UET_RX_MEM_MAX,
};

static struct netlink_range_validation uet_a_cfg_msg_timeout_ms_range = {
	.min	= UET_MSG_TIMEOUT_MS_MIN,
	.max	= UET_MSG_TIMEOUT_MS_MAX,
};

static struct netlink_range_validation uet_a_cfg_challenge_ack_limit_range = {
	.max	= UET_CHALLENGE_ACK_LIMIT_MAX,
};

static struct netlink_range_validation uet_a_cfg_sndbuf_range = {
	.min	= UET_SOCKBUF_MIN,
	.max	= UET_SOCKBUF_MAX,
};

static struct netlink_range_validation uet_a_cfg_rcvbuf_range = {
	.min	= UET_SOCKBUF_MIN,
	.max	= UET_SOCKBUF_MAX,
};

static struct netlink_range_validation uet_a_cfg_cc_target_qdelay_ns_range = {
	.min	= 0ULL,
	.max	= UET_TIME_NS_MAX,
};

static struct netlink_range_validation uet_a_job_id_range = {
	.max	= 16777215ULL,
};

/* UET_CMD_CONFIG_SET - do */
const struct nla_policy uet_config_set_nl_policy[UET_A_CFG_SUPERPACKETS + 1] = {
	[UET_A_CFG_SPRAY] = NLA_POLICY_MAX(NLA_U8, 3),
	[UET_A_CFG_ENTROPY_MASK_BITS] =
		NLA_POLICY_MAX(NLA_U8, UET_ENTROPY_MASK_BITS_MAX),
	[UET_A_CFG_START_PORT] =
		NLA_POLICY_FULL_RANGE(NLA_U16, &uet_a_cfg_start_port_range),
	[UET_A_CFG_ACTIVE_SET_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_active_set_size_range),
	[UET_A_CFG_REPS_BUF_BITS] =
		NLA_POLICY_MAX(NLA_U8, UET_REPS_BUF_BITS_MAX),
	[UET_A_CFG_EV_SET_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_ev_set_size_range),
	[UET_A_CFG_FREEZE_TIMEOUT_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_freeze_timeout_ns_range),
	[UET_A_CFG_FAIL_DETECT_MULT] = NLA_POLICY_MAX(NLA_U8, U8_MAX),
	[UET_A_CFG_PROBE_PERIOD_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_probe_period_ns_range),
	[UET_A_CFG_PDC_GROUPS] = NLA_POLICY_MAX(NLA_U8, 1),
	[UET_A_CFG_LINK_RATE_MBPS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_link_rate_mbps_range),
	[UET_A_CFG_BASE_RTT_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_base_rtt_ns_range),
	[UET_A_CFG_MSS] = NLA_POLICY_RANGE(NLA_U32, UET_MSS_MIN, UET_MSS_MAX),
	[UET_A_CFG_UDP_PORT] =
		NLA_POLICY_FULL_RANGE(NLA_U16, &uet_a_cfg_udp_port_range),
	[UET_A_CFG_PDC_IDLE_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_pdc_idle_ms_range),
	[UET_A_CFG_RTO_MIN_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_rto_min_us_range),
	[UET_A_CFG_RTO_MAX_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_rto_max_us_range),
	[UET_A_CFG_MAX_RETX] =
		NLA_POLICY_RANGE(NLA_U8, UET_MAX_RETX_MIN, U8_MAX),
	[UET_A_CFG_SEED] =
		NLA_POLICY_FULL_RANGE(NLA_U64, &uet_a_cfg_seed_range),
	[UET_A_CFG_SACK_RETX_THRESH] =
		NLA_POLICY_RANGE(NLA_U16, UET_SACK_RETX_THRESH_MIN, UET_SACK_RETX_THRESH_MAX),
	[UET_A_CFG_DSCP_TRIMMED] = NLA_POLICY_MAX(NLA_U8, UET_DSCP_MAX),
	[UET_A_CFG_UDP_CSUM_TX] = NLA_POLICY_MAX(NLA_U8, 1),
	[UET_A_CFG_UDP_RX_ZERO_CSUM] = NLA_POLICY_MAX(NLA_U8, 1),
	[UET_A_CFG_RX_MEM] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_rx_mem_range),
	[UET_A_CFG_MSG_TIMEOUT_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_msg_timeout_ms_range),
	[UET_A_CFG_CHALLENGE_ACK_LIMIT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_challenge_ack_limit_range),
	[UET_A_CFG_SNDBUF] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_sndbuf_range),
	[UET_A_CFG_RCVBUF] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_rcvbuf_range),
	[UET_A_CFG_CC] = NLA_POLICY_MAX(NLA_U8, 3),
	[UET_A_CFG_CC_TARGET_QDELAY_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_cfg_cc_target_qdelay_ns_range),
	[UET_A_CFG_ACK_DELAY_US] =
		NLA_POLICY_RANGE(NLA_U32, 0, UET_ACK_DELAY_US_MAX),
	[UET_A_CFG_SPRAY_BURST] =
		NLA_POLICY_RANGE(NLA_U8, UET_SPRAY_BURST_MIN, UET_SPRAY_BURST_MAX),
	[UET_A_CFG_SUPERPACKETS] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* UET_CMD_DEST_GET - dump */
const struct nla_policy uet_dest_get_nl_policy[UET_A_DEST_ADDR + 1] = {
	[UET_A_DEST_ADDR] = NLA_POLICY_EXACT_LEN(16),
};

/* UET_CMD_PDC_GET - dump */
const struct nla_policy uet_pdc_get_nl_policy[UET_A_PDC_RADDR + 1] = {
	[UET_A_PDC_RADDR] = NLA_POLICY_EXACT_LEN(16),
};

/* UET_CMD_JOB_ADD - do */
const struct nla_policy uet_job_add_nl_policy[UET_A_JOB_GID + 1] = {
	[UET_A_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_id_range),
	[UET_A_JOB_UID] = { .type = NLA_U32, },
	[UET_A_JOB_GID] = { .type = NLA_U32, },
};

/* UET_CMD_JOB_DEL - do */
const struct nla_policy uet_job_del_nl_policy[UET_A_JOB_ID + 1] = {
	[UET_A_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_id_range),
};

/* UET_CMD_JOB_GET - do */
const struct nla_policy uet_job_get_nl_policy[UET_A_JOB_ID + 1] = {
	[UET_A_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_id_range),
};
