#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# RCCC (uetctl set cc rccc), the receiver's credit, in an incast: four
# senders send at once to one receiver through a switch whose port towards
# the receiver is limited to 50 Mbit/s (tbf) in front of a short queue
# (fq_codel, 20 packets, CE above 1 ms of sojourn, drops beyond its limit).
# Each case builds the topology afresh, since a PDC keeps the cc it
# started with:
#
#  +----------+
#  | $S1      |  s 10.0.0.11 --- p1 -+
#  +----------+                      |    +------------------------------+
#  | $S2      |  s 10.0.0.12 --- p2 -+    | $W                           |
#  +----------+                      +----|- br0                         |
#  | $S3      |  s 10.0.0.13 --- p3 -+    |   pr: tbf 50mbit             |
#  +----------+                      |    |       + fq_codel limit 20 ecn |
#  | $S4      |  s 10.0.0.14 --- p4 -+    |         ce_threshold 1ms     |
#  +----------+                           |       (or netem loss 5%)     |
#                                         +--------------|---------------+
#                                                        pr
#                                                        |
#                                          +-------------|------------+
#                                          | $R          r 10.0.0.1   |
#                                          +--------------------------+
#
# Every namespace: mss 1024, link-rate 50mbit, base-rtt 1ms, so that a
# sender's initial credit (one BDP, 6250 bytes) is small against its
# transfer.
#
#  - cc none: the four PDCs send their 256 PSNs at once into the short
#    queue; the transfers complete and the senders' retransmissions are
#    counted;
#  - cc rccc: the receiver paces its grants at 50 Mbit/s; the transfers
#    complete, the receiver took requests and sent CREDITs, every sender
#    asked, was granted and waited for credit, and the senders retransmit
#    less than under cc none;
#  - cc rccc with 5% loss both ways on the receiver's link (in place of
#    the queue): CREDIT_REQs and CREDITs are lost too, and the transfers
#    still complete;
#  - a sender with cc rccc towards a receiver with cc none: the receiver
#    grants unpaced, and the transfer completes;
#  - uetctl shows rccc and nscc+rccc back.

. "$(dirname "$0")/fabric.sh"

RATE=50mbit
MSGS=${CC_MSGS:-2}
LEN=131072
MSS=1024
NSEND=4
RADDR=10.0.0.1

ktap_header
ktap_plan 9

# incast CC: the topology above, every end with cc CC; sets W, R and S
# (the senders' namespaces). Few processes: under TCG each costs.
incast()
{
	local i ns t0=$SECONDS cmds

	uet_netns_new W && uet_netns_new R || return 1
	S=()
	for i in $(seq $NSEND); do
		uet_netns_new ns || return 1
		S+=("$ns")
	done
	cmds="link add br0 type bridge
link set br0 up
link add pr type veth peer name r netns $R
link set pr master br0
link set pr up"
	for i in $(seq $NSEND); do
		cmds+="
link add p$i type veth peer name s netns ${S[i - 1]}
link set p$i master br0
link set p$i up"
	done
	ip -n "$W" -batch - <<<"$cmds" || return 1
	ip -n "$R" -batch - <<-EOF || return 1
		link set r up
		addr add $RADDR/24 dev r
		addr add fd00::1/64 dev r nodad
	EOF
	for i in $(seq $NSEND); do
		ip -n "${S[i - 1]}" -batch - <<-EOF || return 1
			link set s up
			addr add 10.0.0.$((10 + i))/24 dev s
			addr add fd00::$((10 + i))/64 dev s nodad
		EOF
	done
	for ns in "$R" "${S[@]}"; do
		"$UETCTL" -n "$ns" set mss $MSS link-rate $RATE base-rtt 1ms \
			cc "$1" >/dev/null || return 1
	done
	echo "# topology built in $((SECONDS - t0)) s"
}

# bottleneck QDISC...: W's port towards R at $RATE, QDISC behind it.
bottleneck()
{
	ip netns exec "$W" tc qdisc add dev pr root handle 1: tbf rate $RATE \
		burst 16kb limit 4mb &&
		ip netns exec "$W" tc qdisc add dev pr parent 1:1 handle 10: "$@"
}

# cnt NS NAME...: the sum of these counters of NS (0 for one it lacks).
cnt()
{
	ip netns exec "$1" awk -v names="${*:2}" '
		BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) w[a[i]] }
		$1 in w { s += $2 }
		END { print s + 0 }' /proc/net/uet_stat
}

# retx NS...: packets these namespaces retransmitted (timeout, SACK gap,
# NACK).
retx()
{
	local s=0 ns

	for ns in "$@"; do
		s=$((s + $(cnt "$ns" retx_timeout retx_sack retx_nack)))
	done
	echo "$s"
}

# counters NAME NS: print NS's RCCC and retransmission counters.
counters()
{
	echo "# $1:$(ip netns exec "$2" awk '
		$1 ~ /^(rccc_|retx_(timeout|sack|nack)$)/ { printf " %s %s", $1, $2 }
		' /proc/net/uet_stat)"
}

# counters_incast: print the receiver's and every sender's counters.
counters_incast()
{
	local i

	counters receiver "$R"
	for i in $(seq $NSEND); do
		counters "sender $i" "${S[i - 1]}"
	done
}

# run NAME N: each sender sends N messages of LEN bytes to one server in
# R, all at once; one test point: the server got all of them, intact and
# once, and no sender saw an error.
run()
{
	local name=$1 n=$2 out i pids=() got err dup bad='' t0=$SECONDS

	out=$(mktemp -d)
	if ! uet_server "$R" "$out/s" -n $((n * NSEND)) -i 60 -l $LEN; then
		ktap_fail "$name" "server did not start"
		sed 's/^/# server: /' "$out/s.err"
		rm -rf "$out"
		return
	fi
	for i in $(seq $NSEND); do
		ip netns exec "${S[i - 1]}" "$UETPERF" -c $RADDR -J -n "$n" \
			-l $LEN >"$out/c$i" 2>"$out/c$i.err" &
		pids+=($!)
	done
	wait "${pids[@]}"
	wait "$UET_SERVER_PID"
	echo "# $name took $((SECONDS - t0)) s"
	got=$(uet_json "$out/s" messages)
	err=$(uet_json "$out/s" errors)
	dup=$(uet_json "$out/s" duplicates)
	[ "$got/$err/$dup" = "$((n * NSEND))/0/0" ] ||
		bad="server got '$got' of $((n * NSEND)) messages, errors '$err', duplicates '$dup'"
	for i in $(seq $NSEND); do
		[ "$(uet_json "$out/c$i" messages)/$(uet_json "$out/c$i" errors)" = "$n/0" ] ||
			bad+="${bad:+; }sender $i sent '$(uet_json "$out/c$i" messages)', errors '$(uet_json "$out/c$i" errors)'"
	done
	if [ -z "$bad" ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name" "$bad"
		sed 's/^/# /' "$out/s.err" "$out"/c*.err 2>/dev/null | sort | uniq -c | head -n 10
		counters_incast
	fi
	rm -rf "$out"
}

# skip_rest FROM WHY: skip points FROM..9 and finish.
skip_rest()
{
	local i

	for i in $(seq "$1" 9); do
		ktap_skip "case $i" "$2"
	done
	ktap_finished
}

# --- cc none ---------------------------------------------------------------
if ! incast none; then
	echo "# setup failed"
	exit "$KSFT_FAIL"
fi
if ! bottleneck fq_codel limit 20 ecn ce_threshold 1ms; then
	skip_rest 1 "tbf or fq_codel not available"
fi
run "cc none: $NSEND senders, $MSGS messages each, complete" "$MSGS"
retx_none=$(retx "${S[@]}")
echo "# cc none: the senders retransmitted $retx_none packets"

# --- cc rccc ---------------------------------------------------------------
incast rccc || { echo "# setup failed"; exit "$KSFT_FAIL"; }
bottleneck fq_codel limit 20 ecn ce_threshold 1ms || exit "$KSFT_FAIL"
run "cc rccc: $NSEND senders, $MSGS messages each, complete" "$MSGS"
retx_rccc=$(retx "${S[@]}")
echo "# cc rccc: the senders retransmitted $retx_rccc packets"
counters_incast

req_rx=$(cnt "$R" rccc_req_rx)
credit_tx=$(cnt "$R" rccc_credit_tx)
if [ "$req_rx" -gt 0 ] && [ "$credit_tx" -gt 0 ]; then
	ktap_ok "cc rccc: the receiver took requests ($req_rx) and granted credit ($credit_tx)"
else
	ktap_fail "cc rccc: the receiver took requests and granted credit" \
		"rccc_req_rx $req_rx rccc_credit_tx $credit_tx"
fi

bad=''
for i in $(seq $NSEND); do
	# rccc_req_tx, rccc_credit_rx and rccc_wait, one line each
	[ "$(ip netns exec "${S[i - 1]}" awk '
		$1 ~ /^rccc_(req_tx|credit_rx|wait)$/ { print ($2 > 0) }
		' /proc/net/uet_stat | sort -u)" = 1 ] ||
		bad+=" sender $i:$(cnt "${S[i - 1]}" rccc_req_tx) requests, $(cnt "${S[i - 1]}" rccc_credit_rx) grants, $(cnt "${S[i - 1]}" rccc_wait) waits;"
done
if [ -z "$bad" ]; then
	ktap_ok "cc rccc: every sender asked, got credit and waited for it"
else
	ktap_fail "cc rccc: every sender asked, got credit and waited for it" "$bad"
fi

if [ "$retx_rccc" -lt "$retx_none" ]; then
	ktap_ok "cc rccc retransmits less than cc none ($retx_rccc < $retx_none)"
else
	ktap_fail "cc rccc retransmits less than cc none" \
		"$retx_rccc >= $retx_none"
fi

# --- cc rccc, 5% loss both ways on the receiver's link ----------------------
incast rccc || { echo "# setup failed"; exit "$KSFT_FAIL"; }
if ! bottleneck netem loss 5% ||
   ! ip netns exec "$R" tc qdisc add dev r root netem loss 5%; then
	echo "# netem loss not available"
	exit "$KSFT_FAIL"
fi
run "cc rccc, 5% loss: $NSEND senders, 1 message each, complete" 1
counters_incast

# --- a sender with rccc, a receiver without ----------------------------------
uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
"$UETCTL" -n "$A" set mss $MSS link-rate $RATE base-rtt 1ms cc rccc \
	>/dev/null || exit "$KSFT_FAIL"
"$UETCTL" -n "$B" set mss $MSS link-rate $RATE base-rtt 1ms >/dev/null ||
	exit "$KSFT_FAIL"
t0=$SECONDS
uet_transfer "cc rccc towards cc none: transfer complete" "$B" "$A" \
	10.0.0.2 "$MSGS" -l $LEN -- -l $LEN
echo "# cc rccc towards cc none took $((SECONDS - t0)) s"
counters "receiver (cc none)" "$B"
counters "sender (cc rccc)" "$A"
credit_tx=$(cnt "$B" rccc_credit_tx)
credit_rx=$(cnt "$A" rccc_credit_rx)
if [ "$credit_tx" -gt 0 ] && [ "$credit_rx" -gt 0 ]; then
	ktap_ok "cc none grants credit unpaced ($credit_tx CREDITs, $credit_rx taken)"
else
	ktap_fail "cc none grants credit unpaced" \
		"receiver rccc_credit_tx $credit_tx, sender rccc_credit_rx $credit_rx"
fi

# --- uetctl shows the new values back ----------------------------------------
got=''
for cc in rccc nscc+rccc; do
	"$UETCTL" -n "$B" set cc "$cc" >/dev/null || got+=" set $cc failed"
	got+=" $("$UETCTL" -n "$B" -j show | jq -r .cc)"
	got+=" $("$UETCTL" -n "$B" show | awk '$1 == "cc" { print $2 }')"
done
uet_check_eq "$got" " rccc rccc nscc+rccc nscc+rccc" \
	"uetctl sets and shows cc rccc and nscc+rccc"

echo "# took $SECONDS s in all"
ktap_finished
