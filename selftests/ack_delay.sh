#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ACK coalescing (ack-delay). Without it, every message's end asks for an
# ACK and gets one at once. With it on both ends, a message's end asks
# only when something waits for its ACK, and the target holds the ACK of
# one that did not ask for up to ack-delay: a stream of small messages is
# acknowledged every 8 packets or once per delay, and a ping-pong's ACKs
# cover several round trips each. Every message still arrives once,
# intact, and the counters (ack_tx, ack_held) say how. On the way: the
# sender, bound to any address, looks its source address up once, not
# once per message (tx_route_lookups).
#
#   A va 10.0.0.1 fd00::1 ---- vb 10.0.0.2 fd00::2 B

. "$(dirname "$0")/fabric.sh"

N=300
RT=200

ktap_header
ktap_plan 7

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }

# stream NAME JOB: N messages of 64 bytes from A to B on job JOB (a PDC
# of its own, made with the configuration of the moment)
stream()
{
	uet_transfer "$1" "$B" "$A" 10.0.0.2 "$N" -j "$2" -l 64 -- -j "$2" -l 64
}

# pingpong NAME JOB: RT round trips of 64 bytes between A and B
pingpong()
{
	local out srv

	out=$(mktemp -d)
	: >"$out/s.err"
	ip netns exec "$B" "$UETPERF" -s -r -j "$2" -l 64 >/dev/null \
		2>"$out/s.err" &
	srv=$!
	uet_wait_until 60 grep -q '^uetperf: ready' "$out/s.err"
	ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -r -j "$2" -J -n "$RT" \
		-l 64 >"$out/c" 2>"$out/c.err"
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	if [ "$(uet_json "$out/c" errors)/$(uet_json "$out/c" rtt_count)" = "0/$RT" ]; then
		ktap_ok "$1"
		P50=$(uet_json "$out/c" rtt_p50_us)
		echo "# p50 $P50 us"
	else
		ktap_fail "$1" "round trips '$(uet_json "$out/c" rtt_count)' of $RT, errors '$(uet_json "$out/c" errors)'"
		sed 's/^/# /' "$out/s.err" "$out/c.err"
	fi
	rm -rf "$out"
}

# 1: off, the default: one ACK per message
b0=$(uet_stat "$B" ack_tx)
l0=$(uet_stat "$A" tx_route_lookups)
stream "ack-delay off: $N small messages" 1
b1=$(uet_stat "$B" ack_tx)
[ $((b1 - b0)) -ge $N ] && ktap_ok "ack-delay off: one ACK per message ($((b1 - b0)))" ||
	ktap_fail "ack-delay off: one ACK per message" "B sent $((b1 - b0)) ACKs for $N messages"
# a route per rr value (128) and one source address lookup
lookups=$(($(uet_stat "$A" tx_route_lookups) - l0))
[ $lookups -lt $((N / 2)) ] &&
	ktap_ok "a wildcard sender's source address is looked up once ($lookups FIB lookups for $N messages)" ||
	ktap_fail "a wildcard sender's source address is looked up once" "$lookups FIB lookups for $N messages"

# 2: on both ends; an rto-min well above it, for the VM's stalls
AD_MS=4
for ns in "$A" "$B"; do
	"$UETCTL" -n "$ns" set rto-min 50ms ack-delay ${AD_MS}ms >/dev/null
done
h0=$(uet_stat "$B" ack_held)
stream "ack-delay on: $N small messages" 2
b2=$(uet_stat "$B" ack_tx)
h1=$(uet_stat "$B" ack_held)
acks=$((b2 - b1))
if [ $acks -le $((N / 4)) ] && [ $((h1 - h0)) -ge 1 ]; then
	ktap_ok "ack-delay on: ACKs every 8 packets or held ($acks, $((h1 - h0)) held)"
else
	ktap_fail "ack-delay on: ACKs every 8 packets or held" \
		"B sent $acks ACKs for $N messages, $((h1 - h0)) held"
fi

# 3: a ping-pong, each end's ACKs covering several round trips
a2=$(uet_stat "$A" ack_tx)
ha=$(uet_stat "$A" ack_held)
pingpong "ack-delay on: $RT round trips" 3
a3=$(uet_stat "$A" ack_tx)
b3=$(uet_stat "$B" ack_tx)
# An ACK held AD_MS covers several round trips only if they are a
# quarter of it or less: beside two other VMs a round trip took 7 ms.
if awk -v p="${P50:-0}" -v ad=$AD_MS 'BEGIN { exit !(p > ad * 1000 / 4) }'; then
	ktap_skip "ack-delay on: a ping-pong's ACKs cover several round trips" \
		"round trips of $P50 us at p50, too slow for an ack-delay of $AD_MS ms"
elif [ $((a3 - a2)) -le $((RT / 2)) ] && [ $((b3 - b2)) -le $((RT / 2)) ] &&
   [ $(($(uet_stat "$A" ack_held) - ha)) -ge 1 ]; then
	ktap_ok "ack-delay on: a ping-pong's ACKs cover several round trips (A $((a3 - a2)), B $((b3 - b2)))"
else
	ktap_fail "ack-delay on: a ping-pong's ACKs cover several round trips" \
		"A sent $((a3 - a2)) ACKs, B $((b3 - b2)), for $RT messages each way"
fi
echo "# timeouts: A $(uet_stat "$A" retx_timeout) B $(uet_stat "$B" retx_timeout)"

ktap_finished
