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
# Environment: BENCH_LENS (default "64 4096"), BENCH_COUNT (default 2000),
# BENCH_ROUNDS (default 5), BENCH_CPU (default 0).

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

RRPERF=${RRPERF:-$root/tools/rrperf/rrperf}
lens=${BENCH_LENS:-64 4096}
count=${BENCH_COUNT:-2000}
rounds=${BENCH_ROUNDS:-5}
cpu=${BENCH_CPU-0}
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
	uet)	srv=("$UETPERF" -s -r -l "$5"); cli=("$UETPERF" -r) ;;
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
	local all=(udp tcp uet)

	modprobe -a udp_tunnel ip6_udp_tunnel 2>/dev/null
	echo "uet latency: ping-pong of $count messages per run, $rounds rounds, on vCPU ${cpu:-any}"
	uet_pair A B || exit 1
	for len in $lens; do
		for p in udp tcp uet; do
			: >"$tmp/$p.p50"
			: >"$tmp/$p.p99"
		done
		: >"$tmp/r.udp"
		: >"$tmp/r.tcp"
		printf '%-6s %-6s %17s %17s %17s\n' bytes round \
			"UDP p50/p99 us" "TCP p50/p99 us" "uet p50/p99 us"
		for r in $(seq 1 "$rounds"); do
			order=()
			for i in 0 1 2; do
				order+=("${all[(i + r - 1) % 3]}")
			done
			for p in "${order[@]}"; do
				res=$(rr "$p" "$B" "$A" 10.0.0.2 "$len")
				p50[$p]=${res% *}
				p99[$p]=${res#* }
				echo "${p50[$p]}" >>"$tmp/$p.p50"
				echo "${p99[$p]}" >>"$tmp/$p.p99"
			done
			printf '%-6s %-6s %8.1f/%-8.1f %8.1f/%-8.1f %8.1f/%-8.1f\n' \
				"$len" "$r" "${p50[udp]}" "${p99[udp]}" \
				"${p50[tcp]}" "${p99[tcp]}" \
				"${p50[uet]}" "${p99[uet]}"
			ratio "${p50[uet]}" "${p50[udp]}" >>"$tmp/r.udp"
			ratio "${p50[uet]}" "${p50[tcp]}" >>"$tmp/r.tcp"
		done
		printf '%-6s %-6s %8.1f/%-8.1f %8.1f/%-8.1f %8.1f/%-8.1f\n' \
			"$len" median \
			"$(median <"$tmp/udp.p50")" "$(median <"$tmp/udp.p99")" \
			"$(median <"$tmp/tcp.p50")" "$(median <"$tmp/tcp.p99")" \
			"$(median <"$tmp/uet.p50")" "$(median <"$tmp/uet.p99")"
		echo "$len bytes, medians of p50 ratios: uet/UDP $(median <"$tmp/r.udp"), uet/TCP $(median <"$tmp/r.tcp")"
	done
	rm -rf "$tmp"
}

main "$@"
