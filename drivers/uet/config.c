// SPDX-License-Identifier: GPL-2.0
/*
 * uet: configuration defaults, the rules that span attributes, and the
 * values derived from a configuration.
 *
 * Single attributes are range-checked by the netlink policy before they
 * get here; uet_config_validate() checks the whole configuration that a
 * change would produce, so a set either lands entirely or not at all.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/netlink.h>
#include <uet/config.h>
#include <uet/kunit.h>

/**
 * uet_config_init_defaults() - fill a configuration with the defaults
 * @cfg: configuration to fill
 *
 * The defaults are those of the reference UET NIC and of its worked
 * examples: 400 Gbit/s links, 6 us base RTT, MSS 4096.
 */
void uet_config_init_defaults(struct uet_config *cfg)
{
	*cfg = (struct uet_config) {
		.seed			= 0,
		.link_rate_mbps		= UET_DEFAULT_LINK_RATE_MBPS,
		.base_rtt_ns		= UET_DEFAULT_BASE_RTT_NS,
		.active_set_size	= 0,
		.ev_set_size		= 65536,
		.freeze_timeout_ns	= 100000,
		.probe_period_ns	= 150000,
		.pdc_idle_ms		= 1000,
		.rto_min_us		= 1000,
		.rto_max_us		= 200000,
		.mss			= UET_DEFAULT_MSS,
		.rx_mem			= 65536,
		.msg_timeout_ms		= 30000,
		.challenge_ack_limit	= 1000,
		.sndbuf			= UET_DEFAULT_SOCKBUF,
		.rcvbuf			= UET_DEFAULT_SOCKBUF,
		/* UET's profiles make both mandatory: the AI Full one's */
		.cc			= UET_CC_NSCC_RCCC,
		.start_port		= UET_DEFAULT_START_PORT,
		.udp_port		= UET_DEFAULT_UDP_PORT,
		.sack_retx_thresh	= 16,
		.spray			= UET_DEFAULT_SPRAY,
		.entropy_mask_bits	= UET_DEFAULT_ENTROPY_MASK_BITS,
		.reps_buf_bits		= UET_DEFAULT_REPS_BUF_BITS,
		.fail_detect_mult	= 3,
		.max_retx		= 10,
		.pdc_groups		= 1,
		.dscp_trimmed		= UET_DSCP_MAX,
		/*
		 * Checksums out, as the stack does, but accept a zero one:
		 * UET 1.0 sends and ignores the checksum (section 3.5.10.1).
		 */
		.udp_csum_tx		= 1,
		.udp_rx_zero_csum	= 1,
		.spray_burst		= UET_DEFAULT_SPRAY_BURST,
		.superpackets		= UET_DEFAULT_SUPERPACKETS,
	};
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_config_init_defaults);

/**
 * uet_config_validate() - check the rules that span attributes
 * @cfg: the complete configuration a change would produce
 * @extack: where to report the broken rule, may be NULL
 *
 * Return: 0 when @cfg may be published, -EINVAL otherwise.
 */
int uet_config_validate(const struct uet_config *cfg,
			struct netlink_ext_ack *extack)
{
	if (cfg->spray > UET_SPRAY_MAX || cfg->cc > UET_CC_MAX ||
	    cfg->entropy_mask_bits > UET_ENTROPY_MASK_BITS_MAX ||
	    cfg->reps_buf_bits > UET_REPS_BUF_BITS_MAX ||
	    cfg->ev_set_size < UET_EV_SET_SIZE_MIN ||
	    cfg->ev_set_size > UET_EV_SET_SIZE_MAX) {
		NL_SET_ERR_MSG(extack, "configuration value out of range");
		return -EINVAL;
	}
	/* The MRC NIC's active set must fit below port 65536; rr wraps. */
	if (cfg->spray == UET_SPRAY_ACTIVE &&
	    (u32)cfg->start_port + (1U << cfg->entropy_mask_bits) - 1 > 65535) {
		NL_SET_ERR_MSG(extack,
			       "spray active: start-port + 2^entropy-bits - 1 must not exceed 65535");
		return -EINVAL;
	}
	if (cfg->rto_min_us > cfg->rto_max_us) {
		NL_SET_ERR_MSG(extack, "rto-min must not exceed rto-max");
		return -EINVAL;
	}
	/* a held ACK must come back before its sender times out */
	if (cfg->ack_delay_us && cfg->ack_delay_us >= cfg->rto_min_us) {
		NL_SET_ERR_MSG(extack, "ack-delay must be below rto-min");
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_config_validate);

/**
 * uet_config_bdp_bytes() - bytes in flight in one bandwidth-delay product
 * @cfg: configuration giving the link rate
 * @base_rtt_ns: round-trip time to use, ns
 *
 * Return: link rate x @base_rtt_ns / 8, rounded down.
 */
u64 uet_config_bdp_bytes(const struct uet_config *cfg, u32 base_rtt_ns)
{
	/* Mbit/s x ns = 1e-3 bit; divide by 8000 to get bytes. */
	return div_u64((u64)cfg->link_rate_mbps * base_rtt_ns, 8000);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_config_bdp_bytes);

/**
 * uet_config_active_set_size() - size of an MRC NIC active set
 * @cfg: configuration
 *
 * ActiveEVSetSize when non-zero, else min(packets in one BDP, 100), where a
 * packet costs MSS + 60 bytes; then at least 1 and at most 2^EntropyMaskBits.
 *
 * Return: the number of entropy values in a new active set.
 */
u32 uet_config_active_set_size(const struct uet_config *cfg)
{
	u32 range = 1U << cfg->entropy_mask_bits;
	u64 n = cfg->active_set_size;

	if (!n) {
		n = div_u64(uet_config_bdp_bytes(cfg, cfg->base_rtt_ns),
			    cfg->mss + UET_ACTIVE_PKT_OVERHEAD);
		n = min_t(u64, n, UET_ACTIVE_SET_BDP_CAP);
	}
	return clamp_t(u64, n, 1, range);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_config_active_set_size);

/**
 * uet_config_reps_window() - packets in the REPS exploration window
 * @cfg: configuration
 *
 * Return: link rate x base RTT / 8 / (MSS + 88), rounded down.
 */
u32 uet_config_reps_window(const struct uet_config *cfg)
{
	return div_u64(uet_config_bdp_bytes(cfg, cfg->base_rtt_ns),
		       cfg->mss + UET_REPS_PKT_OVERHEAD);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_config_reps_window);
