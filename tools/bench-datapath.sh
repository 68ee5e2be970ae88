#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-datapath.sh: goodput of uet against TCP, run inside the VM:
#   tools/vm/vm-run -- tools/bench-datapath.sh
#
# 1. One veth pair: one uetperf stream against one iperf3 TCP stream, at
#    MTU 1500 and 9000.
# 2. The 4-path leaf-spine fabric with each spine's link towards h2 limited
#    by tbf, so that the paths and not the CPU are the bottleneck: iperf3
#    with 4 TCP streams (ECMP hashes each flow onto one path) against
#    uetperf under each spraying type, at each MTU of BENCH_FABRIC_MTUS.
#    At MTU 1500 uet's packets carry 1407 bytes of payload (its default
#    mss, 4096, needs a larger MTU), so headers take 7% of the links; at
#    9000 uet sends at its default mss. Each run also gives the share of
#    the bytes each spine carried, which shows how evenly a type spread
#    its packets over the paths.
# Prints goodputs and their ratios; absolute figures depend on the machine.
#
# Environment: BENCH_SECS (default 10), BENCH_RATE (tbf rate per spine,
# default 50mbit), BENCH_FABRIC_MTUS (default "1500 9000"), BENCH_SET
# (more \`uetctl set\` arguments for the sending host, e.g. "spray-burst
# 16"), BENCH_FABRIC_SETS (settings to run each spraying type under on the
# fabric, in turn, separated by commas, e.g. "spray-burst 1,spray-burst
# 16"; default: one run each, under BENCH_SET alone), BENCH_CHECK
# (1: uetperf writes and checks every payload byte; default: only each
# message's header, uetperf -N, as iperf3 leaves its data alone).

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

secs=${BENCH_SECS:-10}
nchk=(-N)
[ "${BENCH_CHECK:-0}" = 1 ] && nchk=()
rate=${BENCH_RATE:-50mbit}
fabric_mtus=${BENCH_FABRIC_MTUS:-1500 9000}

# tcp NS_SERVER NS_CLIENT DST STREAMS: iperf3 goodput at the receiver, Mbit/s
tcp()
{
	local out

	out=$(mktemp)
	ip netns exec "$1" iperf3 -s -1 -D -I "$out.pid" >/dev/null 2>&1
	uet_wait_until 10 test -s "$out.pid"
	ip netns exec "$2" iperf3 -c "$3" -t "$secs" -P "$4" -J >"$out" 2>/dev/null
	jq '.end.sum_received.bits_per_second / 1e6' "$out"
	rm -f "$out" "$out.pid"
}

# uet NS_SERVER NS_CLIENT DST STREAMS LEN: uetperf goodput at the receiver
uet()
{
	local out

	out=$(mktemp -d)
	uet_server "$1" "$out/s" -i 5 -l "$5" -R 33554432 "${nchk[@]}" || return 1
	ip netns exec "$2" "$UETPERF" -c "$3" -J -t "$secs" -P "$4" -l "$5" \
		-S 16777216 "${nchk[@]}" >"$out/c" 2>"$out/c.err"
	kill "$UET_SERVER_PID" 2>/dev/null
	wait "$UET_SERVER_PID" 2>/dev/null
	uet_json "$out/s" goodput_mbps
	rm -rf "$out"
}

# spine_bytes: the bytes each spine has sent towards l2 so far
spine_bytes()
{
	local i

	for i in $(seq 1 "$UET_SPINES"); do
		ip netns exec "${FAB_S[$((i - 1))]}" \
			cat "/sys/class/net/s$i-l2/statistics/tx_bytes"
	done | tr '\n' ' '
}

# shares "BEFORE" "AFTER": each spine's share of the bytes sent between
# two spine_bytes, in percent
shares()
{
	echo "$1" "$2" | awk '{
		n = NF / 2
		for (i = 1; i <= n; i++) {
			d[i] = $(i + n) - $i
			t += d[i]
		}
		for (i = 1; i <= n; i++)
			printf "%s%.0f", (i > 1) ? "/" : "", t ? 100 * d[i] / t : 0
	}'
}

# sender_set NS: BENCH_SET on the sending namespace
sender_set()
{
	# shellcheck disable=SC2086 # BENCH_SET is a list of arguments
	[ -z "${BENCH_SET:-}" ] || "$UETCTL" -n "$1" set $BENCH_SET >/dev/null
}

ratio()
{
	echo "$1 $2" | awk '{ printf "%.2f", ($2 > 0) ? $1 / $2 : 0 }'
}

echo "uet datapath benchmark, $secs s per run"
echo
echo "1. one veth pair, one stream"
printf '%-6s %12s %12s %10s\n' MTU "TCP Mbit/s" "uet Mbit/s" "uet/TCP"
for mtu in 1500 9000; do
	uet_pair A B "$mtu"
	sender_set "$A"
	t=$(tcp "$B" "$A" 10.0.0.2 1)
	u=$(uet "$B" "$A" 10.0.0.2 1 1048576)
	printf '%-6s %12.1f %12.1f %10s\n' "$mtu" "$t" "$u" "$(ratio "$u" "$t")"
	ip netns del "$A"
	ip netns del "$B"
done

echo
# fabric MTU: TCP and every spraying type on a fresh fabric
fabric()
{
	local mtu=$1 i t u b0 b1 spray set sets

	uet_fabric_build "$mtu" || return 1
	sender_set "$FAB_H1"
	for i in $(seq 1 "$UET_SPINES"); do
		ip netns exec "${FAB_S[$((i - 1))]}" tc qdisc add dev s$i-l2 \
			root tbf rate "$rate" burst 64kb latency 100ms
	done
	printf '%-6s %-12s %10s %8s %16s\n' MTU "" Mbit/s "x TCP" \
		"spine shares %"
	b0=$(spine_bytes)
	t=$(tcp "$FAB_H2" "$FAB_H1" 10.2.2.1 4)
	b1=$(spine_bytes)
	printf '%-6s %-12s %10.1f %8s %16s\n' "$mtu" "TCP ECMP" "$t" 1.00 \
		"$(shares "$b0" "$b1")"
	for spray in none rr active reps; do
		IFS=, read -r -a sets <<<"${BENCH_FABRIC_SETS:-}"
		[ ${#sets[@]} -gt 0 ] || sets=("")
		for set in "${sets[@]}"; do
			# the last run's PDCs gone: a new spraying state
			uet_wait_until 30 uet_no_pdcs "$FAB_H1" "$FAB_H2"
			# shellcheck disable=SC2086 # a list of arguments
			"$UETCTL" -n "$FAB_H1" set spray "$spray" $set >/dev/null
			b0=$(spine_bytes)
			u=$(uet "$FAB_H2" "$FAB_H1" 10.2.2.1 4 1048576)
			b1=$(spine_bytes)
			printf '%-6s %-12s %10.1f %8s %16s %s\n' "$mtu" \
				"uet $spray" "$u" "$(ratio "$u" "$t")" \
				"$(shares "$b0" "$b1")" "$set"
		done
	done
	for i in "$FAB_H1" "$FAB_H2" "$FAB_L1" "$FAB_L2" "${FAB_S[@]}"; do
		ip netns del "$i"
	done
}

echo "2. leaf-spine fabric, 4 paths of $rate each (tbf), 4 streams"
for mtu in $fabric_mtus; do
	fabric "$mtu"
done
