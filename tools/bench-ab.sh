#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-ab.sh OLD.ko NEW.ko: two builds of uet.ko side by side in one VM,
# each against the same TCP stream, run inside the VM:
#   tools/vm/vm-run --no-module -- tools/bench-ab.sh OLD.ko NEW.ko
#
# On one veth pair at MTU 1500 and 9000, each round measures one iperf3
# TCP stream, then one uetperf stream of 1 MiB messages with OLD loaded,
# then with NEW; rounds alternate the order of OLD and NEW. Prints every
# figure, with the CPU each run took per Gbit/s delivered (the vCPUs'
# sys + irq + softirq time from /proc/stat over the run, both namespaces,
# in busy vCPUs per Gbit/s), and, per MTU, the median over the rounds of
# uet/TCP for each build, of NEW/OLD, and of uet's CPU per byte over
# TCP's: ratios taken within a round cancel most of what a noisy machine
# does to absolute figures.
#
# Environment: BENCH_SECS (default 10), BENCH_ROUNDS (default 3),
# BENCH_SPRAY (the client's spraying type; default: the module's),
# BENCH_SET (more \`uetctl set\` arguments for the client, e.g.
# "spray-burst 32"),
# BENCH_CHECK (1: uetperf writes and checks every payload byte; default:
# only each message's header, uetperf -N, as iperf3 leaves its data alone).

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

secs=${BENCH_SECS:-10}
nchk=(-N)
[ "${BENCH_CHECK:-0}" = 1 ] && nchk=()
rounds=${BENCH_ROUNDS:-3}

# busy: the vCPUs' sys + irq + softirq jiffies and all their jiffies
busy()
{
	awk '$1 == "cpu" { print $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat
}

# per_gbit MBPS BUSY0 BUSY1: busy vCPUs per Gbit/s between two busy()
per_gbit()
{
	echo "$1 $2 $3" | awk -v n="$(nproc)" '{ d = $5 - $3
		printf "%.3f\n", ($1 > 0 && d > 0) ? ($4 - $2) / d * n * 1000 / $1 : 0 }'
}

# tcp NS_SERVER NS_CLIENT DST: iperf3 goodput at the receiver, Mbit/s, and
# its CPU per Gbit/s
tcp()
{
	local out b0 b1 g

	out=$(mktemp)
	ip netns exec "$1" iperf3 -s -1 -D -I "$out.pid" >/dev/null 2>&1
	uet_wait_until 10 test -s "$out.pid"
	b0=$(busy)
	ip netns exec "$2" iperf3 -c "$3" -t "$secs" -J >"$out" 2>/dev/null
	b1=$(busy)
	g=$(jq '.end.sum_received.bits_per_second / 1e6' "$out")
	echo "$g $(per_gbit "$g" "$b0" "$b1")"
	rm -f "$out" "$out.pid"
}

# uet KO NS_SERVER NS_CLIENT DST: uetperf goodput with KO loaded, Mbit/s,
# and its CPU per Gbit/s
uet()
{
	local out b0 b1 g

	insmod "$1" || return 1
	[ -z "$BENCH_SPRAY" ] ||
		"$UETCTL" -n "$3" set spray "$BENCH_SPRAY" >/dev/null || return 1
	# shellcheck disable=SC2086 # BENCH_SET is a list of arguments
	[ -z "$BENCH_SET" ] ||
		"$UETCTL" -n "$3" set $BENCH_SET >/dev/null || return 1
	out=$(mktemp -d)
	uet_server "$2" "$out/s" -i 5 -l 1048576 -R 33554432 "${nchk[@]}" || return 1
	b0=$(busy)
	ip netns exec "$3" "$UETPERF" -c "$4" -J -t "$secs" -l 1048576 \
		-S 16777216 "${nchk[@]}" >"$out/c" 2>"$out/c.err"
	b1=$(busy)
	kill "$UET_SERVER_PID" 2>/dev/null
	wait "$UET_SERVER_PID" 2>/dev/null
	g=$(uet_json "$out/s" goodput_mbps)
	echo "$g $(per_gbit "$g" "$b0" "$b1")"
	rm -rf "$out"
	rmmod uet
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
	local old=$1 new=$2 mtu r t a b tc ac bc f

	[ -f "$old" ] && [ -f "$new" ] || {
		echo "usage: bench-ab.sh OLD.ko NEW.ko" >&2
		exit 1
	}
	modprobe -a udp_tunnel ip6_udp_tunnel
	echo "uet A/B: $secs s per run, $rounds rounds; A=$old B=$new"
	echo "Mbit/s, and (busy vCPUs per Gbit/s)"
	f=$(mktemp -d)
	for mtu in 1500 9000; do
		: >"$f/a"
		: >"$f/b"
		: >"$f/ba"
		: >"$f/ac"
		: >"$f/bc"
		printf '%-6s %-6s %18s %18s %18s\n' MTU round "TCP" "A" "B"
		for r in $(seq 1 "$rounds"); do
			uet_pair A B "$mtu"
			read -r t tc <<<"$(tcp "$B" "$A" 10.0.0.2)"
			if [ $((r % 2)) = 1 ]; then
				read -r a ac <<<"$(uet "$old" "$B" "$A" 10.0.0.2)"
				read -r b bc <<<"$(uet "$new" "$B" "$A" 10.0.0.2)"
			else
				read -r b bc <<<"$(uet "$new" "$B" "$A" 10.0.0.2)"
				read -r a ac <<<"$(uet "$old" "$B" "$A" 10.0.0.2)"
			fi
			printf '%-6s %-6s %10.1f (%5.3f) %10.1f (%5.3f) %10.1f (%5.3f)\n' \
				"$mtu" "$r" "$t" "$tc" "$a" "$ac" "$b" "$bc"
			ratio "$a" "$t" >>"$f/a"
			ratio "$b" "$t" >>"$f/b"
			ratio "$b" "$a" >>"$f/ba"
			ratio "$ac" "$tc" >>"$f/ac"
			ratio "$bc" "$tc" >>"$f/bc"
			ip netns del "$A"
			ip netns del "$B"
		done
		echo "MTU $mtu medians: A/TCP $(median <"$f/a"), B/TCP $(median <"$f/b"), B/A $(median <"$f/ba");" \
			"CPU per byte A/TCP $(median <"$f/ac"), B/TCP $(median <"$f/bc")"
	done
	rm -rf "$f"
}

main "$@"
