// SPDX-License-Identifier: GPL-2.0
/*
 * trim.bpf.c: a trimming switch for the selftests' fabric.  A tc classifier
 * (clsact ingress or egress, direct-action) on a spine's interface that
 * cuts every Nth UET data packet to its headers, as a switch with a full
 * queue does: IP | UDP | PDS RUD request | SES standard request stay, the
 * payload goes, and the DSCP becomes the trimmed value so that the
 * receiver NACKs the packet at once.  IPv4 (without options) and IPv6
 * (without extension headers).
 *
 * The IP length, the IPv4 header checksum, the UDP length and the UDP
 * checksum are rewritten: uet refuses a zero UDP checksum and UDP drops a
 * wrong one.  The UDP checksum is computed in full over the trimmed
 * packet, which is right for every packet on the veth fabric (a
 * CHECKSUM_PARTIAL packet is not checked again on veth).
 *
 *   clang -O2 -g -target bpf -c trim.bpf.c -o trim.bpf.o	(tools/bpf.mk)
 *   tc qdisc add dev DEV clsact
 *   tc filter add dev DEV egress bpf direct-action obj trim.bpf.o sec tc
 *
 * Configuration (trim_cfg, key 0; zero fields take the defaults):
 *   every  trim the Nth, 2Nth... data packet seen here; 0 trims nothing
 *   dscp   DSCP of a trimmed packet (default 0x3f, uet's DSCP_TRIMMED)
 *   port   UDP destination port of UET (default 4793)
 *   limit  stop trimming once this many packets were trimmed; 0: never
 *          (packets racing on several CPUs may pass it by a few)
 * Counters (trim_stats, key 0): data packets seen, packets trimmed, bytes
 * cut.  selftests/fabric.sh's uet_trim_* helpers read and write both.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* IPv4 fragment bits (the kernel's net/ip.h, not in the UAPI) */
#define TRIM_IP_MF		0x2000
#define TRIM_IP_OFFSET		0x1fff
#define TRIM_DSCP_DEFAULT	0x3f
#define TRIM_PORT_DEFAULT	4793
/* PDS type (first byte, bits 7..3) of a RUD request */
#define TRIM_PDS_RUD_REQ	0x02
/* PDS RUD request (12 bytes) and SES standard request (44 bytes) */
#define TRIM_UET_HDR_LEN	56
#define TRIM_UDP_KEEP		(sizeof(struct udphdr) + TRIM_UET_HDR_LEN)

/**
 * struct trim_cfg - what to trim
 * @every: trim the Nth, 2Nth... data packet; 0: none
 * @dscp: DSCP of a trimmed packet; 0: TRIM_DSCP_DEFAULT
 * @port: UDP destination port of UET; 0: TRIM_PORT_DEFAULT
 * @limit: trim no more once @limit packets were trimmed; 0: no limit
 */
struct trim_cfg {
	__u32 every;
	__u32 dscp;
	__u32 port;
	__u32 limit;
};

/**
 * struct trim_stats - what was seen and done (atomic adds)
 * @seen: UET data packets seen, trimmed or not
 * @trimmed: packets trimmed
 * @bytes_cut: payload bytes removed
 */
struct trim_stats {
	__u64 seen;
	__u64 trimmed;
	__u64 bytes_cut;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct trim_cfg);
} trim_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct trim_stats);
} trim_stats SEC(".maps");

/* The IPv4 or IPv6 pseudo-header followed by what stays of UDP. */
struct trim_csum4 {
	__be32 saddr;
	__be32 daddr;
	__u8 zero;
	__u8 proto;
	__be16 len;
	__u8 udp[TRIM_UDP_KEEP];
};

struct trim_csum6 {
	struct in6_addr saddr;
	struct in6_addr daddr;
	__be32 len;
	__u8 zero[3];
	__u8 proto;
	__u8 udp[TRIM_UDP_KEEP];
};

static __u16 trim_fold(__s64 sum)
{
	__u32 s = (__u32)sum;

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (__u16)s;
}

/* The UDP checksum as it goes on the wire: never 0. */
static __u16 trim_udp_check(void *buf, __u32 len)
{
	__u16 c = ~trim_fold(bpf_csum_diff(NULL, 0, buf, len, 0));

	return c ? c : 0xffff;
}

/*
 * Is the UDP packet at @l4 a UET data packet, not yet trimmed, with a
 * payload?  Its UDP length must be the rest of the IP packet, @ulen.
 */
static bool trim_is_data(struct __sk_buff *skb, __u32 l4, __u32 ulen,
			 __u16 port)
{
	struct udphdr uh;
	__u8 type;

	if (bpf_skb_load_bytes(skb, l4, &uh, sizeof(uh)) ||
	    uh.dest != bpf_htons(port) || bpf_ntohs(uh.len) != ulen ||
	    ulen <= TRIM_UDP_KEEP ||
	    bpf_skb_load_bytes(skb, l4 + sizeof(uh), &type, 1))
		return false;
	return type >> 3 == TRIM_PDS_RUD_REQ;
}

/* Count the packet; true if it is the one in @every to trim. */
static bool trim_pick(struct trim_stats *st, __u32 every)
{
	__u64 n = __sync_fetch_and_add(&st->seen, 1) + 1;

	return every && n % every == 0;
}

/*
 * Rewrite the UDP length and checksum of the trimmed packet: @udp is the
 * end of the pseudo-header @ps of @ps_len bytes, addresses filled in.
 */
static int trim_udp_fix(struct __sk_buff *skb, __u32 l4, void *ps,
			__u32 ps_len, __u8 *udp)
{
	struct udphdr *uh = (struct udphdr *)udp;

	if (bpf_skb_load_bytes(skb, l4, udp, TRIM_UDP_KEEP))
		return -1;
	uh->len = bpf_htons(TRIM_UDP_KEEP);
	uh->check = 0;
	uh->check = trim_udp_check(ps, ps_len);
	return bpf_skb_store_bytes(skb, l4, udp, sizeof(*uh), 0);
}

static int trim_done(struct trim_stats *st, __u32 cut)
{
	__sync_fetch_and_add(&st->trimmed, 1);
	__sync_fetch_and_add(&st->bytes_cut, cut);
	return TC_ACT_OK;
}

static int trim_ipv4(struct __sk_buff *skb, const struct trim_cfg *cfg,
		     struct trim_stats *st)
{
	const __u32 l3 = ETH_HLEN, l4 = l3 + sizeof(struct iphdr);
	struct trim_csum4 ps = {};
	struct iphdr iph;
	__u32 len;

	if (bpf_skb_load_bytes(skb, l3, &iph, sizeof(iph)) ||
	    iph.version != 4 || iph.ihl != 5 || iph.protocol != IPPROTO_UDP ||
	    (iph.frag_off & bpf_htons(TRIM_IP_MF | TRIM_IP_OFFSET)) ||
	    iph.tos >> 2 == cfg->dscp)
		return TC_ACT_OK;
	len = bpf_ntohs(iph.tot_len);
	if (len < sizeof(iph) ||
	    !trim_is_data(skb, l4, len - sizeof(iph), cfg->port) ||
	    !trim_pick(st, cfg->every))
		return TC_ACT_OK;
	if (bpf_skb_change_tail(skb, l4 + TRIM_UDP_KEEP, 0))
		return TC_ACT_OK;

	iph.tos = cfg->dscp << 2 | (iph.tos & 0x3);
	iph.tot_len = bpf_htons(sizeof(iph) + TRIM_UDP_KEEP);
	iph.check = 0;
	iph.check = ~trim_fold(bpf_csum_diff(NULL, 0, (void *)&iph,
					     sizeof(iph), 0));
	if (bpf_skb_store_bytes(skb, l3, &iph, sizeof(iph), 0))
		return TC_ACT_SHOT;

	ps.saddr = iph.saddr;
	ps.daddr = iph.daddr;
	ps.proto = IPPROTO_UDP;
	ps.len = bpf_htons(TRIM_UDP_KEEP);
	if (trim_udp_fix(skb, l4, &ps, sizeof(ps), ps.udp))
		return TC_ACT_SHOT;
	return trim_done(st, len - sizeof(iph) - TRIM_UDP_KEEP);
}

static int trim_ipv6(struct __sk_buff *skb, const struct trim_cfg *cfg,
		     struct trim_stats *st)
{
	const __u32 l3 = ETH_HLEN, l4 = l3 + sizeof(struct ipv6hdr);
	struct trim_csum6 ps = {};
	struct ipv6hdr ip6h;
	__u8 dscp;
	__u32 len;

	if (bpf_skb_load_bytes(skb, l3, &ip6h, sizeof(ip6h)) ||
	    ip6h.version != 6 || ip6h.nexthdr != IPPROTO_UDP)
		return TC_ACT_OK;
	/* traffic class: priority (4 bits), then flow_lbl[0] bits 7..4 */
	dscp = (ip6h.priority << 2) | (ip6h.flow_lbl[0] >> 6);
	len = bpf_ntohs(ip6h.payload_len);
	if (dscp == cfg->dscp || !trim_is_data(skb, l4, len, cfg->port) ||
	    !trim_pick(st, cfg->every))
		return TC_ACT_OK;
	if (bpf_skb_change_tail(skb, l4 + TRIM_UDP_KEEP, 0))
		return TC_ACT_OK;

	ip6h.priority = cfg->dscp >> 2;
	ip6h.flow_lbl[0] = (cfg->dscp & 0x3) << 6 | (ip6h.flow_lbl[0] & 0x3f);
	ip6h.payload_len = bpf_htons(TRIM_UDP_KEEP);
	if (bpf_skb_store_bytes(skb, l3, &ip6h, sizeof(ip6h), 0))
		return TC_ACT_SHOT;

	ps.saddr = ip6h.saddr;
	ps.daddr = ip6h.daddr;
	ps.len = bpf_htonl(TRIM_UDP_KEEP);
	ps.proto = IPPROTO_UDP;
	if (trim_udp_fix(skb, l4, &ps, sizeof(ps), ps.udp))
		return TC_ACT_SHOT;
	return trim_done(st, len - TRIM_UDP_KEEP);
}

SEC("tc")
int uet_trim(struct __sk_buff *skb)
{
	struct trim_cfg cfg = {}, *c;
	struct trim_stats *st;
	__u32 key = 0;

	c = bpf_map_lookup_elem(&trim_cfg, &key);
	st = bpf_map_lookup_elem(&trim_stats, &key);
	if (!c || !st || skb->gso_size)
		return TC_ACT_OK;
	cfg.every = c->every;
	if (c->limit && st->trimmed >= c->limit)
		cfg.every = 0;
	cfg.dscp = c->dscp ? c->dscp & 0x3f : TRIM_DSCP_DEFAULT;
	cfg.port = c->port ? c->port & 0xffff : TRIM_PORT_DEFAULT;
	if (skb->protocol == bpf_htons(ETH_P_IP))
		return trim_ipv4(skb, &cfg, st);
	if (skb->protocol == bpf_htons(ETH_P_IPV6))
		return trim_ipv6(skb, &cfg, st);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
