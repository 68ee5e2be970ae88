#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Transport counters against what the test knows happened: a clean
# transfer (what one side sent, the other received), a namespace that
# sees nothing of another's traffic, a lossy and reordering path
# (retransmissions, out-of-order arrivals, reorder depth), trimmed packets
# (NACKs by code), `uetctl stats -w` deltas adding up, JSON that parses,
# /sys/kernel/uet/stats and the module parameters.

. "$(dirname "$0")/fabric.sh"

N=8
LEN=200000

# st NS NAME: one counter of NS, from `uetctl -j stats`.
st()
{
	"$UETCTL" -j -n "$1" stats | jq -r ".$2"
}

# snap NS FILE: every counter of NS, as JSON.
snap()
{
	"$UETCTL" -j -n "$1" stats >"$2"
}

# d FILE_BEFORE FILE_AFTER NAME: how much a counter grew.
d()
{
	echo $(( $(jq -r ".$3" "$2") - $(jq -r ".$3" "$1") ))
}

# xfer NAME N LEN: N messages of LEN bytes from A to B, as one test point.
xfer()
{
	uet_transfer "$1" "$B" "$A" 10.0.0.2 "$2" -l "$3" -R 33554432 -- \
		-l "$3"
}

ktap_header
ktap_plan 15

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
uet_netns_new C
for ns in "$A" "$B" "$C"; do
	"$UETCTL" -n "$ns" set pdc-idle 60s >/dev/null
done
out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT

# JSON: both parsers take it, and it names what the text lists.
"$UETCTL" -n "$A" stats | awk '{ print $1 }' | sort >"$out/names.txt"
if "$UETCTL" -j -n "$A" stats | python3 -c '
import json, sys
names = sorted(json.load(sys.stdin))
want = sorted(open(sys.argv[1]).read().split())
sys.exit(names != want)' "$out/names.txt" &&
   [ "$("$UETCTL" -j -n "$A" stats | jq 'keys | length')" = "$(wc -l <"$out/names.txt")" ]; then
	ktap_ok "stats JSON parses and names every counter"
else
	ktap_fail "stats JSON parses and names every counter"
fi

# A clean transfer: both ends count the same packets, bytes, messages.
snap "$A" "$out/a0"
snap "$B" "$out/b0"
snap "$C" "$out/c0"
xfer "clean transfer of $N messages" $N $LEN
snap "$A" "$out/a1"
snap "$B" "$out/b1"
snap "$C" "$out/c1"
got="$(d "$out/a0" "$out/a1" tx_messages) $(d "$out/a0" "$out/a1" tx_messages_done)"
got+=" $(d "$out/a0" "$out/a1" tx_bytes) $(d "$out/b0" "$out/b1" rx_messages)"
got+=" $(d "$out/b0" "$out/b1" rx_bytes)"
uet_check_eq "$got" "$N $N $((N * LEN)) $N $((N * LEN))" \
	"messages and bytes: sent, done, received"
tx=$(d "$out/a0" "$out/a1" tx_packets)
rx=$(d "$out/b0" "$out/b1" rx_packets)
if [ "$tx" -ge $((N * LEN / 4096)) ] && [ "$tx" = "$rx" ]; then
	ktap_ok "every packet sent was received once"
else
	ktap_fail "every packet sent was received once" "tx $tx rx $rx"
fi
got="$(d "$out/b0" "$out/b1" ack_tx)/$(d "$out/b0" "$out/b1" sack_tx)"
want="$(d "$out/a0" "$out/a1" ack_rx)/$(d "$out/a0" "$out/a1" sack_rx)"
if [ "${got%/*}" -gt 0 ] && [ "$got" = "$want" ]; then
	ktap_ok "ACKs and SACKs sent are the ones received"
else
	ktap_fail "ACKs and SACKs sent are the ones received" "sent $got received $want"
fi
uet_check_eq "$(jq -c 'del(.rx_reorder_depth_mean)' "$out/c1")" \
	"$(jq -c 'del(.rx_reorder_depth_mean)' "$out/c0")" \
	"another namespace's counters do not move"

# A lossy, reordering path: retransmissions, out-of-order arrivals.
ip netns exec "$A" tc qdisc add dev va root netem delay 2ms 1ms \
	distribution normal loss 3%
xfer "transfer over a lossy path" $N $LEN
ip netns exec "$A" tc qdisc del dev va root
snap "$A" "$out/a2"
snap "$B" "$out/b2"
retx=$(( $(d "$out/a1" "$out/a2" retx_timeout) +
	 $(d "$out/a1" "$out/a2" retx_sack) +
	 $(d "$out/a1" "$out/a2" retx_nack) ))
ooo=$(d "$out/b1" "$out/b2" rx_out_of_order)
sum=$(d "$out/b1" "$out/b2" rx_reorder_depth_sum)
max=$(jq -r .rx_reorder_depth_max "$out/b2")
mean=$(jq -r .rx_reorder_depth_mean "$out/b2")
echo "# lossy: $retx retransmissions, $ooo out of order, depth max $max mean $mean"
if [ "$retx" -gt 0 ] && [ "$ooo" -gt 0 ] && [ "$sum" -ge "$ooo" ] &&
   [ "$max" -ge 2 ] && [ "$max" -le 256 ] &&
   awk -v m="$mean" -v x="$max" 'BEGIN { exit !(m >= 1 && m <= x) }'; then
	ktap_ok "loss and reordering raise retransmissions and reorder depth"
else
	ktap_fail "loss and reordering raise retransmissions and reorder depth"
fi

# Trimmed packets: the data packets A sends on one entropy value get
# DSCP_TRIMMED on the way; B NACKs each, A resends each.
ev=$(( $("$UETCTL" -j -n "$A" show | jq .start_port) + 5 ))
ip netns exec "$A" tc qdisc add dev va clsact
ip netns exec "$A" tc filter add dev va egress protocol ip prio 1 u32 \
	match ip protocol 17 0xff match ip sport $ev 0xffff \
	match ip dport 4793 0xffff \
	action pedit ex munge ip dsfield set 0xfc pipe action csum ip
xfer "transfer with trimmed packets" $N $LEN
trims=$(ip netns exec "$A" tc -s -j filter show dev va egress |
	jq '[.[] | .options.actions[]? | select(.kind == "pedit") |
	     .stats.packets] | add // 0')
ip netns exec "$A" tc qdisc del dev va clsact
snap "$A" "$out/a3"
snap "$B" "$out/b3"
got="$(d "$out/b2" "$out/b3" trimmed_rx) $(d "$out/b2" "$out/b3" nack_tx_trimmed)"
got+=" $(d "$out/a2" "$out/a3" nack_rx_trimmed) $(d "$out/a2" "$out/a3" nack_rx)"
echo "# $trims packets trimmed on the way"
if [ "$trims" -gt 0 ] &&
   [ "$got" = "$trims $trims $trims $(d "$out/b2" "$out/b3" nack_tx)" ] &&
   [ "$(d "$out/a2" "$out/a3" retx_nack)" -ge "$trims" ]; then
	ktap_ok "each trimmed packet is counted, NACKed and resent"
else
	ktap_fail "each trimmed packet is counted, NACKed and resent" "trimmed/nack_tx_trimmed/nack_rx_trimmed/nack_rx: $got"
fi

# stats -w: the intervals' deltas add up to the change, gauges apart.
# The messages go to an endpoint nobody bound: each ends at once with the
# target's NACK, and uetperf stops at the first error a send returns,
# which may come before all 20 went (14 did in one make check): the
# count is what was sent, at least one.
snap "$A" "$out/a4"
"$UETCTL" -j -n "$A" stats -w 1 -c 4 >"$out/w" &
w=$!
ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -p 999 -J -n 20 -l 3000 \
	>/dev/null 2>&1
wait "$w"
snap "$A" "$out/a5"
lines=$(wc -l <"$out/w")
sum=$(jq -s '[.[].deltas.tx_messages // 0] | add' "$out/w")
bad=$(jq -s '[.[] | .gauges | keys[] |
	       select(. != "pdc_active" and . != "rx_reorder_depth_max")] |
	     length' "$out/w")
if [ "$lines" = 4 ] && [ "$sum" = "$(d "$out/a4" "$out/a5" tx_messages)" ] &&
   [ "$sum" -ge 1 ] && [ "$sum" -le 20 ] && [ "$bad" = 0 ]; then
	ktap_ok "stats -w: per-interval deltas add up"
else
	ktap_fail "stats -w: per-interval deltas add up" "$lines lines, tx_messages deltas sum $sum, $bad unknown gauges"
	sed 's/^/# /' "$out/w"
fi
"$UETCTL" -n "$A" stats -w 1 -c 1 >"$out/wt"
uet_check_eq "$(head -n 1 "$out/wt" | cut -d: -f1)/$(wc -l <"$out/wt")" \
	"interval 1/2" "stats -w: an idle interval says so"

# /sys/kernel/uet/stats: the initial namespace's counters, one per file.
ip link set lo up
names=$(ls /sys/kernel/uet/stats 2>/dev/null | sort)
uet_check_eq "$names" "$("$UETCTL" stats | awk '$1 != "rx_reorder_depth_mean" { print $1 }' | sort)" \
	"/sys/kernel/uet/stats has a file per counter"
before=$(cat /sys/kernel/uet/stats/tx_messages_done)
"$UETPERF" -s -J -n 3 -i 30 -l 5000 -B 127.0.0.1 >"$out/ls" 2>"$out/ls.err" &
s=$!
uet_wait_until 10 grep -q '^uetperf: ready' "$out/ls.err"
"$UETPERF" -c 127.0.0.1 -J -n 3 -l 5000 >/dev/null 2>&1
wait "$s"
# at rest once its PDCs closed (after the default pdc-idle and 4 times it)
uet_wait_until 20 sh -c '[ "$(cat /sys/kernel/uet/stats/pdc_active)" = 0 ]'
after=$(cat /sys/kernel/uet/stats/tx_messages_done)
# every file against one reading of the counters (at rest, they do not
# move), not a uetctl and a jq per file
"$UETCTL" -j stats | jq -r 'to_entries[] | "\(.key) \(.value)"' >"$out/want"
for f in /sys/kernel/uet/stats/*; do
	read -r v <"$f"
	echo "${f##*/} $v"
done >"$out/got"
mismatch=$(awk 'NR == FNR { w[$1] = $2; next }
		!($1 in w) || w[$1] != $2 { m++ }
		END { print m + 0 }' "$out/want" "$out/got")
uet_check_eq "$((after - before))/$mismatch" "3/0" \
	"/sys/kernel/uet/stats follows the initial namespace's traffic"

# Module parameters: the configuration a new namespace starts with.
p=/sys/module/uet/parameters
got="$(cat $p/spray) $(cat $p/entropy_bits) $(cat $p/start_port)"
got+=" $(cat $p/udp_port) $(cat $p/mss) $(tr YN 10 <$p/pdc_groups)"
want=$("$UETCTL" -j -n "$C" show | jq -r '"\(.spray) \(.entropy_bits) \(.start_port) \(.udp_port) \(.mss) \(if .pdc_groups then 1 else 0 end)"')
uet_check_eq "$got" "$want" "module parameters show a new namespace's defaults"

ktap_finished
