#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-latency.sh: message round trips of uet against UDP and TCP, run
# inside the VM:
#   tools/vm/vm-run -- tools/bench-latency.sh
#
# On one veth pair between two namespaces, for each message length, each
# round runs a ping-pong of BENCH_COUNT messages over UDP and over TCP
# (tools/rrperf, TCP_NODELAY) and over uet (uetperf -r), the order of the
# three rotating from round to round. Prints every round's p50 and p99
# round-trip times and, per length, the median over the rounds of each
# figure and of the ratios uet/UDP and uet/TCP of p50 taken within a
# round: ratios within a round cancel most of what a noisy machine does
# to absolute figures.
#
# Both ends run on vCPU BENCH_CPU (default 0; empty: anywhere): under TCG
# on a shared host, waking the other vCPU waits until the host schedules
# its thread, which can add milliseconds to a round trip; on one vCPU a
# round trip is context switches and softirqs only, for every transport.
#
# With BENCH_ACK_DELAY (default 4ms; empty: not run), uet runs a second
# time as "uet-ad", on a veth pair of its own (namespaces C and D) whose
# ends set ack-delay to it (and rto-min to BENCH_ACK_RTO_MIN, default 50ms,
# which must stay above it): its ACKs leave the round trip and each covers
# several. Its ratio to UDP is printed too.
#
# BENCH_MTU (default 1500) is the veth pairs' MTU: at 1500 a 4 KiB message
# is three uet packets against UDP's one datagram in three IP fragments; at
# 9000 it is one packet for every transport.
#
# Environment: BENCH_LENS (default "64 4096"), BENCH_COUNT (default 2000),
# BENCH_ROUNDS (default 5), BENCH_CPU (default 0), BENCH_ACK_DELAY,
# BENCH_ACK_RTO_MIN, BENCH_MTU.

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

RRPERF=${RRPERF:-$root/tools/rrperf/rrperf}
lens=${BENCH_LENS:-64 4096}
count=${BENCH_COUNT:-2000}
rounds=${BENCH_ROUNDS:-5}
cpu=${BENCH_CPU-0}
ack_delay=${BENCH_ACK_DELAY-4ms}
ack_rto_min=${BENCH_ACK_RTO_MIN:-50ms}
mtu=${BENCH_MTU:-1500}
pin=()
[ -n "$cpu" ] && pin=(taskset -c "$cpu")
tmp=$(mktemp -d)

# rr PROTO NS_SERVER NS_CLIENT DST LEN: "p50 p99" of a ping-pong, us
rr()
{
	local proto=$1 out=$tmp/$1 pid srv cli

	case $proto in
	udp)	srv=("$RRPERF" -s -u); cli=("$RRPERF" -u) ;;
	tcp)	srv=("$RRPERF" -s -T); cli=("$RRPERF" -T) ;;
	uet|uet-ad) srv=("$UETPERF" -s -r -l "$5"); cli=("$UETPERF" -r) ;;
	esac
	: >"$out.s.err"
	ip netns exec "$2" "${pin[@]}" "${srv[@]}" >/dev/null 2>"$out.s.err" &
	pid=$!
	uet_wait_until 10 grep -q 'ready' "$out.s.err"
	ip netns exec "$3" "${pin[@]}" "${cli[@]}" -c "$4" -J -n "$count" \
		-l "$5" >"$out" 2>"$out.err"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ "$(uet_json "$out" errors)" != 0 ] ||
	   [ "$(uet_json "$out" rtt_count)" != "$count" ]; then
		echo "bench-latency: $proto $5 bytes failed:" >&2
		cat "$out.err" >&2
		echo "0 0"
		return 1
	fi
	echo "$(uet_json "$out" rtt_p50_us) $(uet_json "$out" rtt_p99_us)"
}

# median of the numbers on stdin
median()
{
	sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'
}

ratio()
{
	echo "$1 $2" | awk '{ printf "%.3f\n", ($2 > 0) ? $1 / $2 : 0 }'
}

main()
{
	local len r i p order res
	local -A p50 p99
	local all=(udp tcp uet) ns

	modprobe -a udp_tunnel ip6_udp_tunnel 2>/dev/null
	echo "uet latency: ping-pong of $count messages per run, $rounds rounds, on vCPU ${cpu:-any}, MTU $mtu"
	uet_pair A B "$mtu" || exit 1
	p50[uet-ad]=0
	p99[uet-ad]=0
	if [ -n "$ack_delay" ]; then
		all+=(uet-ad)
		uet_pair C D "$mtu" || exit 1
		for ns in "$C" "$D"; do
			"$UETCTL" -n "$ns" set rto-min "$ack_rto_min" \
				ack-delay "$ack_delay" >/dev/null || exit 1
		done
		echo "uet-ad: ack-delay $ack_delay, rto-min $ack_rto_min"
	fi
	for len in $lens; do
		for p in udp tcp uet uet-ad; do
			: >"$tmp/$p.p50"
			: >"$tmp/$p.p99"
		done
		: >"$tmp/r.udp"
		: >"$tmp/r.tcp"
		: >"$tmp/r.ad"
		printf '%-6s %-6s %17s %17s %17s %17s\n' bytes round \
			"UDP p50/p99 us" "TCP p50/p99 us" "uet p50/p99 us" \
			"uet-ad p50/p99 us"
		for r in $(seq 1 "$rounds"); do
			order=()
			for i in "${!all[@]}"; do
				order+=("${all[(i + r - 1) % ${#all[@]}]}")
			done
			for p in "${order[@]}"; do
				if [ "$p" = uet-ad ]; then
					res=$(rr "$p" "$D" "$C" 10.0.0.2 "$len")
				else
					res=$(rr "$p" "$B" "$A" 10.0.0.2 "$len")
				fi
				p50[$p]=${res% *}
				p99[$p]=${res#* }
				echo "${p50[$p]}" >>"$tmp/$p.p50"
				echo "${p99[$p]}" >>"$tmp/$p.p99"
			done
			printf '%-6s %-6s %8.1f/%-8.1f %8.1f/%-8.1f %8.1f/%-8.1f %8.1f/%-8.1f\n' \
				"$len" "$r" "${p50[udp]}" "${p99[udp]}" \
				"${p50[tcp]}" "${p99[tcp]}" \
				"${p50[uet]}" "${p99[uet]}" \
				"${p50[uet-ad]}" "${p99[uet-ad]}"
			ratio "${p50[uet]}" "${p50[udp]}" >>"$tmp/r.udp"
			ratio "${p50[uet]}" "${p50[tcp]}" >>"$tmp/r.tcp"
			ratio "${p50[uet-ad]}" "${p50[udp]}" >>"$tmp/r.ad"
		done
		printf '%-6s %-6s %8.1f/%-8.1f %8.1f/%-8.1f %8.1f/%-8.1f %8.1f/%-8.1f\n' \
			"$len" median \
			"$(median <"$tmp/udp.p50")" "$(median <"$tmp/udp.p99")" \
			"$(median <"$tmp/tcp.p50")" "$(median <"$tmp/tcp.p99")" \
			"$(median <"$tmp/uet.p50")" "$(median <"$tmp/uet.p99")" \
			"$(median <"$tmp/uet-ad.p50")" "$(median <"$tmp/uet-ad.p99")"
		echo "$len bytes, medians of p50 ratios: uet/UDP $(median <"$tmp/r.udp"), uet/TCP $(median <"$tmp/r.tcp"), uet-ad/UDP $(median <"$tmp/r.ad")"
	done
	rm -rf "$tmp"
}

main "$@"
