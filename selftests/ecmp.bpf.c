// SPDX-License-Identifier: GPL-2.0
/*
 * ecmp.bpf.c: make a leaf of the selftests' fabric hash a flow's headers,
 * as a switch does.  Linux's multipath routing (fib_multipath_hash_policy
 * 1) takes a forwarded packet's skb->hash when it holds an L4 hash, and a
 * TCP packet carries its socket's random txhash across the veth into the
 * leaf's namespace: the path would then depend on the socket, not on the
 * 5-tuple, and would change on every retransmission timeout (txhash
 * rethink).  Invalidating the hash at the leaf's ingress from the host
 * makes the leaf hash the 5-tuple, so that tools/bench-failover.sh's TCP
 * flows stay on the path their ports choose, as on a real fabric.
 *
 *   tc filter add dev DEV ingress bpf direct-action obj ecmp.bpf.o sec tc
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int uet_ecmp_l4(struct __sk_buff *skb)
{
	bpf_set_hash_invalid(skb);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
