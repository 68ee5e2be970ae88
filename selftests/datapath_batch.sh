#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Batches: data packets of one PDC in a row on one entropy value leave as
# one UDP GSO packet (tx_batch), which crosses veth and a router whole and
# which the receiver takes apart without copying (rx_batch). Payloads are
# checked end to end.
#  - rr with spray-burst 1 (the default): every packet goes alone;
#  - spray-burst 16, IPv6 and IPv4 through the router: the messages
#    arrive whole, bursts leave as batches and the receiver takes every
#    one that reaches it whole (none cut: rx_batch_cut);
#  - a qdisc on the router that cuts GSO packets (tbf, a burst smaller than
#    a batch) on a link without checksum offload: the receiver gets plain
#    packets whose UDP checksums it verifies, and the messages still
#    arrive whole;
#  - spray none: one value for the PDC, so its packets leave in batches at
#    spray-burst 1 too.
# Superpackets (the default): consecutive packets of one message in a
# batch share one skb (tx_super), which B keeps whole (rx_super), taking
# one apart (rx_super_apart) only where a retransmission of one of its
# PSNs came first (a timer that fired while the VM stalled); the qdisc
# that cuts batches cuts them into valid packets too; with superpackets
# off, batches remain.
#
#   A a-r 10.0.1.1 fd01::1 ---- r-a R r-b ---- b-r 10.0.2.1 .3 fd02::1 ::3 B

. "$(dirname "$0")/fabric.sh"

N=8
LEN=1048576

ktap_header
ktap_plan 17

uet_line A R B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
# a fresh PDC per case: each takes the settings of its creation
ip -n "$B" addr add 10.0.2.3/24 dev b-r &&
	ip -n "$B" addr add fd02::3/64 dev b-r nodad ||
	{ echo "# setup failed"; exit "$KSFT_FAIL"; }

# udp_csum_errors NS: UDP datagrams NS refused for their checksum.
udp_csum_errors()
{
	ip netns exec "$1" awk '$1 == "Udp:" && !h { for (i = 2; i <= NF; i++)
		if ($i == "InCsumErrors") c = i; h = 1; next }
		$1 == "Udp:" { print $c }' /proc/net/snmp
}

# retx NS: the packets NS retransmitted
retx()
{
	echo $(($(uet_stat "$1" retx_timeout) + $(uet_stat "$1" retx_sack) +
		$(uet_stat "$1" retx_nack) + $(uet_stat "$1" retx_pmtu)))
}

# batches NAME DST: a transfer of N messages of LEN bytes to DST, then
# the batches it made: "TX RX CUT SP KEPT APART RETX" (A's tx_batch, B's
# rx_batch and rx_batch_cut, A's tx_super, B's rx_super and
# rx_super_apart, A's retransmissions during it).
batches()
{
	local t0 r0 c0 s0 k0 a0 x0

	t0=$(uet_stat "$A" tx_batch)
	r0=$(uet_stat "$B" rx_batch)
	c0=$(uet_stat "$B" rx_batch_cut)
	s0=$(uet_stat "$A" tx_super)
	k0=$(uet_stat "$B" rx_super)
	a0=$(uet_stat "$B" rx_super_apart)
	x0=$(retx "$A")
	uet_transfer "$1" "$B" "$A" "$2" $N -l $LEN -R 33554432 -- -l $LEN
	echo "$(($(uet_stat "$A" tx_batch) - t0))" \
		"$(($(uet_stat "$B" rx_batch) - r0))" \
		"$(($(uet_stat "$B" rx_batch_cut) - c0))" \
		"$(($(uet_stat "$A" tx_super) - s0))" \
		"$(($(uet_stat "$B" rx_super) - k0))" \
		"$(($(uet_stat "$B" rx_super_apart) - a0))" \
		"$(($(retx "$A") - x0))" >"$OUT"
}

OUT=$(mktemp)
trap 'rm -f "$OUT"; _uet_cleanup' EXIT

batches "rr, spray-burst 1: IPv4 messages intact" 10.0.2.1
read -r tx rx cut sp kept apart re <"$OUT"
uet_check_eq "$tx/$rx/$cut/$sp" "0/0/0/0" "spray-burst 1: every packet went alone"

"$UETCTL" -n "$A" set spray-burst 16 >/dev/null
uet_check_eq "$("$UETCTL" -j -n "$A" show | jq .spray_burst)" 16 \
	"spray-burst set and shown"

for dst in fd02::3 10.0.2.3; do
	batches "spray-burst 16: messages to $dst intact through a router" \
		"$dst"
	read -r tx rx cut sp kept apart re <"$OUT"
	if [ "$tx" -gt 0 ] && [ "$rx" -gt 0 ] && [ "$rx" -le "$tx" ] &&
	   [ "$cut" = 0 ]; then
		ktap_ok "to $dst: bursts left as batches, taken whole (tx $tx, rx $rx)"
	else
		ktap_fail "to $dst: bursts left as batches, taken whole" \
			"tx_batch $tx, rx_batch $rx, rx_batch_cut $cut"
	fi
	if [ "$sp" -gt 0 ] && [ "$kept" -gt 0 ] &&
	   [ $((kept + apart)) -le "$sp" ] && [ "$apart" -le "$re" ]; then
		ktap_ok "to $dst: superpackets kept whole (tx $sp, rx $kept, apart $apart, retransmitted $re)"
	else
		ktap_fail "to $dst: superpackets kept whole" \
			"tx_super $sp, rx_super $kept, rx_super_apart $apart, retransmitted $re"
	fi
done

# tbf cuts a GSO packet larger than its burst into the packets it was
# built from (2000 bytes: any batch, two packets or more); the same PDC
# as before (10.0.2.3), spray-burst 16. Without checksum offload on r-b
# the cut computes each packet's UDP checksum and B verifies it.
ip netns exec "$R" ethtool -K r-b tx off >/dev/null 2>&1
uet_check_eq "$(ip netns exec "$R" ethtool -k r-b |
	awk '/^tx-checksumming:/ { print $2 }')" off \
	"checksum offload off on the router's way to B"
tc -n "$R" qdisc add dev r-b root tbf rate 10gbit burst 2000 latency 100ms
e0=$(udp_csum_errors "$B")
batches "a qdisc that cuts batches: messages intact" 10.0.2.3
read -r tx rx cut sp kept apart re <"$OUT"
drops=$(tc -s -n "$R" qdisc show dev r-b |
	awk '/dropped/ { sub(",", "", $7); print $7; exit }')
uet_check_eq "$((tx > 0))/$((sp > 0))/$rx/$kept/$cut/$drops" "1/1/0/0/0/0" \
	"the cut batches and superpackets reached B as plain packets, none dropped (tx_batch $tx, tx_super $sp)"
uet_check_eq "$(($(udp_csum_errors "$B") - e0))" 0 \
	"no UDP checksum error at B"
tc -n "$R" qdisc del dev r-b root
ip netns exec "$R" ethtool -K r-b tx on >/dev/null 2>&1

"$UETCTL" -n "$A" set spray none spray-burst 1 >/dev/null
batches "spray none: messages intact" fd02::1
read -r tx rx cut sp kept apart re <"$OUT"
uet_check_eq "$((tx > 0))/$((rx > 0))/$cut/$((sp > 0))/$((kept > 0))/$((apart <= re))" \
	"1/1/0/1/1/1" \
	"spray none: batches of superpackets, kept whole (tx $tx, rx $rx, tx_super $sp, rx_super $kept, apart $apart, retransmitted $re)"

"$UETCTL" -n "$A" set superpackets off >/dev/null
batches "superpackets off: messages intact" fd02::1
read -r tx rx cut sp kept apart re <"$OUT"
uet_check_eq "$((tx > 0))/$((rx > 0))/$cut/$sp/$kept" "1/1/0/0/0" \
	"superpackets off: batches of plain packets (tx $tx, rx $rx)"

ktap_finished
