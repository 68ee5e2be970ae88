// SPDX-License-Identifier: GPL-2.0
/*
 * ecmp.bpf.c: make a leaf of the selftests' fabric choose among equal-cost
 * paths as a datacenter switch does, by a CRC-32 of the flow's 5-tuple
 * with a salt (the MRC and UET NIC models' default switch hash,
 * crc32WithSalt), folded (its upper half XORed onto its lower half, as
 * switches fold a wide hash), the member being the hash modulo the member
 * count.  Unfolded, the CRC's low two bits depend on no bit of the source
 * port but the lowest two: TCP's even ephemeral ports would share two
 * paths.
 *
 * A tc classifier (clsact ingress, direct-action) on a leaf's ports from
 * its hosts.  Linux's multipath routing (fib_multipath_hash_policy 1)
 * takes a forwarded packet's skb->hash when it holds an L4 hash and picks
 * the member whose share of the hash space holds hash >> 1, so from the
 * top bits: the program sets the bit-reversed hash, whose top bits are
 * the hash's low bits, and a power-of-two member count then picks by
 * hash % members.  The difference to Linux's own hash matters:
 *  - CRC-32 is linear over GF(2), so the 2^k consecutive source ports of
 *    an aligned entropy range (uet's rr: ports 256 to 383 by default)
 *    land exactly 2^k / members on each member, as on a switch; Linux's
 *    jhash with its random per-boot key spreads them unevenly (28-31% of
 *    128 values on one of four paths in this project's benchmarks); the
 *    fold keeps that, being linear too;
 *  - a TCP packet carries its socket's random txhash across the veth into
 *    the leaf's namespace, and Linux would route by that hash, which
 *    changes on every retransmission timeout; the 5-tuple is the flow.
 * TCP and UDP over IPv4 (without options: the header's length is read) and
 * IPv6 (the next header must be TCP or UDP); any other packet has its hash
 * cleared, so that Linux hashes it itself.  Section tc_clear only clears
 * every packet's hash: Linux's own hash of the 5-tuple, not a TCP
 * socket's.
 *
 *   tc filter add dev DEV ingress bpf direct-action obj ecmp.bpf.o sec tc
 */
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
#define ECMP_IP_MF		0x2000
#define ECMP_IP_OFFSET		0x1fff
/* CRC-32 (IEEE 802.3), reflected, as zlib's crc32() */
#define ECMP_CRC_POLY		0xedb88320
#define ECMP_SALT		0x5ca1ab1e

/**
 * struct ecmp_key - what the hash covers, in this order
 * @salt: the switch's salt
 * @saddr: source address (IPv4: the first 4 bytes)
 * @daddr: destination address (IPv4: the first 4 bytes)
 * @proto: IPPROTO_TCP or IPPROTO_UDP
 * @ports: source and destination port, in network order
 */
struct ecmp_key {
	__u32 salt;
	__u8 saddr[16];
	__u8 daddr[16];
	__u8 proto;
	__u16 ports[2];
};

static __always_inline __u32 ecmp_crc(__u32 crc, const __u8 *p, int len)
{
	int i, b;

#pragma unroll
	for (i = 0; i < len; i++) {
		crc ^= p[i];
#pragma unroll
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (ECMP_CRC_POLY & -(crc & 1));
	}
	return crc;
}

static __always_inline __u32 ecmp_bitrev(__u32 x)
{
	x = ((x >> 1) & 0x55555555) | ((x & 0x55555555) << 1);
	x = ((x >> 2) & 0x33333333) | ((x & 0x33333333) << 2);
	x = ((x >> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
	x = ((x >> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
	return (x >> 16) | (x << 16);
}

/* The hash of the 5-tuple in @k, whose addresses are @alen bytes long. */
static __always_inline __u32 ecmp_hash(const struct ecmp_key *k, int alen)
{
	__u32 crc = ~0U;

	crc = ecmp_crc(crc, (const __u8 *)&k->salt, sizeof(k->salt));
	crc = ecmp_crc(crc, k->saddr, alen);
	crc = ecmp_crc(crc, k->daddr, alen);
	crc = ecmp_crc(crc, &k->proto, 1);
	crc = ecmp_crc(crc, (const __u8 *)k->ports, sizeof(k->ports));
	crc = ~crc;
	return ecmp_bitrev(crc ^ (crc >> 16));
}

SEC("tc")
int uet_ecmp_crc(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct ecmp_key k = { .salt = ECMP_SALT };
	struct ipv6hdr *ip6;
	struct iphdr *ip;
	void *l4;
	int alen;

	if ((void *)(eth + 1) > end)
		goto other;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		ip = (void *)(eth + 1);
		if ((void *)(ip + 1) > end || ip->ihl < 5 ||
		    (ip->frag_off & bpf_htons(ECMP_IP_MF | ECMP_IP_OFFSET)))
			goto other;
		k.proto = ip->protocol;
		__builtin_memcpy(k.saddr, &ip->saddr, 4);
		__builtin_memcpy(k.daddr, &ip->daddr, 4);
		l4 = (void *)ip + ip->ihl * 4;
		alen = 4;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		ip6 = (void *)(eth + 1);
		if ((void *)(ip6 + 1) > end)
			goto other;
		k.proto = ip6->nexthdr;
		__builtin_memcpy(k.saddr, &ip6->saddr, 16);
		__builtin_memcpy(k.daddr, &ip6->daddr, 16);
		l4 = ip6 + 1;
		alen = 16;
	} else {
		goto other;
	}
	if (k.proto != IPPROTO_TCP && k.proto != IPPROTO_UDP)
		goto other;
	/* TCP's ports sit where UDP's do */
	if (l4 + sizeof(struct udphdr) > end)
		goto other;
	k.ports[0] = ((struct udphdr *)l4)->source;
	k.ports[1] = ((struct udphdr *)l4)->dest;
	/* a constant length each, so that the CRC's loops unroll */
	bpf_set_hash(skb, alen == 4 ? ecmp_hash(&k, 4) : ecmp_hash(&k, 16));
	return TC_ACT_OK;
other:
	bpf_set_hash_invalid(skb);
	return TC_ACT_OK;
}

/* Linux's own hash of the 5-tuple for every packet (UET_FABRIC_HASH=kernel) */
SEC("tc_clear")
int uet_ecmp_clear(struct __sk_buff *skb)
{
	bpf_set_hash_invalid(skb);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
