#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-collective.sh: a permutation collective over the leaf-spine
# fabric, run inside the VM:
#   tools/vm/vm-run -- tools/bench-collective.sh
#
# N hosts under leaf l1 each send S bytes to a distinct host under leaf l2,
# all at the same moment (host k to host k), over 4 spines whose links
# towards l2 are limited by tbf to BENCH_RATE each. The figure is the
# slowest pair's completion time over the ideal, the total bytes over the
# 4 paths' capacity: a collective waits for its slowest member. Compared:
#  - TCP (tools/rrperf bulk mode), one flow per pair, the leaves hashing
#    each flow onto one spine;
#  - MPTCP (mptcpize run rrperf), 4 subflows per pair from 4 source
#    addresses, each hashed onto a spine;
#  - uet under each spraying type, 1 MiB messages.
# Before that, 16 parallel TCP flows (iperf3) check that the paths, not the
# CPU, are the bottleneck at this rate (their goodput over the aggregate).
#
# Every sender starts up first (exec, socket; TCP and MPTCP connect, and
# MPTCP opens its subflows), then waits for a line on its standard input,
# one FIFO for all (-G); the clock starts when the lines are written, so
# that the pairs start together and the processes' start-up under TCG
# (0.3-0.5 s for 8 senders) is not counted. Each receiver's end is
# stamped when its server exits.
#
# For uet, the last column is the senders' retransmission timeouts in the
# run (retx_timeout summed), where a slow run's time goes.
#
# Environment: BENCH_NS (default "4 8"), BENCH_SIZES in MiB (default
# "8 64"), BENCH_RATE (default 20mbit), BENCH_TRANSPORTS (default "tcp
# mptcp none rr active reps"), BENCH_SECS for the TCP check (default 10),
# BENCH_MTU (every link's; default 1500, where uet's packets carry 1407
# bytes; at 9000 uet sends at its default mss, 4096), BENCH_UET_SET
# (uetctl set arguments for every host, e.g. "cc none"; default none).

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

ns_list=${BENCH_NS:-4 8}
sizes=${BENCH_SIZES:-8 64}
rate=${BENCH_RATE:-20mbit}
mtu=${BENCH_MTU:-}
uet_set=${BENCH_UET_SET:-}
transports=${BENCH_TRANSPORTS:-tcp mptcp none rr active reps}
secs=${BENCH_SECS:-10}
RRPERF=${RRPERF:-$root/tools/rrperf/rrperf}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; _uet_cleanup' EXIT

# rate_bps RATE: tc's "20mbit" in bit/s
rate_bps()
{
	echo "$1" | awk '{ v = $1 + 0; u = tolower($1); sub(/^[0-9.]+/, "", u)
		m = u ~ /^g/ ? 1e9 : u ~ /^m/ ? 1e6 : u ~ /^k/ ? 1e3 : 1
		printf "%d", v * m }'
}

now_ns()
{
	date +%s%N
}

# tcp_listening NS: an iperf3 server listens in NS
tcp_listening()
{
	ip netns exec "$1" ss -Hltn 'sport = :5201' 2>/dev/null | grep -q .
}

# gated K NS CMD...: run the sender CMD (with -G) in NS, the start FIFO as
# its standard input (held open by the caller on fd 3, so that opening it
# never blocks); its stderr, where it says it waits, goes to ready.K
gated()
{
	local k=$1 ns=$2

	shift 2
	ip netns exec "$ns" "$@" <"$tmp/go" >/dev/null 2>"$tmp/ready.$k" &
}

# all_ready N: N senders wait at the start
all_ready()
{
	[ "$(grep -l ': waiting' "$tmp"/ready.* 2>/dev/null | wc -l)" -ge "$1" ]
}

# stamped K NS CMD...: run server CMD in NS, stderr to err.K; its end time
# goes to end.K
stamped()
{
	local k=$1 ns=$2

	shift 2
	: >"$tmp/end.$k.err"
	# shellcheck disable=SC2016 # the inner shell's arguments
	ip netns exec "$ns" sh -c '"$@" >/dev/null 2>"$0.err"; date +%s%N >"$0"' \
		"$tmp/end.$k" "$@" &
}

# mptcp_setup N: 4 subflows per pair, one from each of 4 addresses of the
# sender, and every receiver accepting them
mptcp_setup()
{
	local k ns a

	for k in $(seq 1 "$1"); do
		ns=${FAB_LEFT[$((k - 1))]}
		ip netns exec "$ns" sysctl -q -w net.mptcp.enabled=1
		ip -n "$ns" mptcp limits set subflows 4 add_addr_accepted 4
		for a in 2 3 4; do
			ip -n "$ns" addr add "10.1.$k.$a/24" dev uplink
			ip -n "$ns" mptcp endpoint add "10.1.$k.$a" dev uplink subflow
		done
		ns=${FAB_RIGHT[$((k - 1))]}
		ip netns exec "$ns" sysctl -q -w net.mptcp.enabled=1
		ip -n "$ns" mptcp limits set subflows 4 add_addr_accepted 4
	done
}

# run T N MIB: the collective once; prints the slowest completion in s
run()
{
	local t=$1 n=$2 mib=$3 k rns lns pre=() t0 last e

	rm -f "$tmp"/end.* "$tmp"/ready.* "$tmp/go"
	mkfifo "$tmp/go"
	exec 3<>"$tmp/go"
	[ "$t" = mptcp ] && pre=(mptcpize run)
	for k in $(seq 1 "$n"); do
		rns=${FAB_RIGHT[$((k - 1))]}
		case $t in
		tcp|mptcp)
			stamped "$k" "$rns" "${pre[@]}" "$RRPERF" -s -T -k -1
			uet_wait_until 20 tcp_listening "$rns" || return 1
			;;
		*)
			stamped "$k" "$rns" "$UETPERF" -s -n "$mib" \
				-l 1048576 -i 120 -R 33554432
			uet_wait_until 20 grep -q '^uetperf: ready' \
				"$tmp/end.$k.err" || return 1
			;;
		esac
	done
	for k in $(seq 1 "$n"); do
		lns=${FAB_LEFT[$((k - 1))]}
		case $t in
		tcp|mptcp)
			gated "$k" "$lns" "${pre[@]}" "$RRPERF" -c "10.2.$k.1" \
				-T -b "$((mib * 1048576))" -G
			;;
		*)
			# a new spraying state, of this type, for each pair
			uet_wait_until 30 uet_no_pdcs "$lns" \
				"${FAB_RIGHT[$((k - 1))]}" || return 1
			"$UETCTL" -n "$lns" set spray "$t" >/dev/null
			gated "$k" "$lns" "$UETPERF" -c "10.2.$k.1" -n "$mib" \
				-l 1048576 -S 16777216 -G
			;;
		esac
	done
	uet_wait_until 30 all_ready "$n" || return 1
	t0=$(now_ns)
	for k in $(seq 1 "$n"); do
		echo >&3
	done
	wait
	exec 3>&-
	last=0
	for k in $(seq 1 "$n"); do
		[ -s "$tmp/end.$k" ] || return 1
		e=$(cat "$tmp/end.$k")
		[ "$e" -gt "$last" ] && last=$e
	done
	echo "$(((last - t0) / 1000000))" | awk '{ printf "%.2f", $1 / 1000 }'
}

# senders_stat N NAME: a uet counter summed over the first N senders
senders_stat()
{
	local k v=0

	for k in $(seq 1 "$1"); do
		v=$((v + $(uet_stat "${FAB_LEFT[$((k - 1))]}" "$2")))
	done
	echo "$v"
}

# tcp16: goodput of 16 TCP flows from the first pair, over the aggregate
tcp16()
{
	local out=$tmp/tcp16 rns=${FAB_RIGHT[0]}

	ip netns exec "$rns" iperf3 -s -1 -D -I "$out.pid" >/dev/null 2>&1
	uet_wait_until 20 tcp_listening "$rns"
	ip netns exec "${FAB_LEFT[0]}" iperf3 -c 10.2.1.1 -t "$secs" -P 16 -J \
		>"$out" 2>/dev/null
	jq '.end.sum_received.bits_per_second' "$out"
}

bps=$(rate_bps "$rate")
echo "collective benchmark: $UET_SPINES paths of $rate each (tbf), MTU ${mtu:-1500}, permutation l1 -> l2${uet_set:+, uet: $uet_set}"
for n in $ns_list; do
	_uet_cleanup
	_uet_netns=()
	uet_fabric_wide "$n" "$mtu" ||
		{ echo "cannot build the fabric"; exit 1; }
	for i in $(seq 1 $UET_SPINES); do
		ip netns exec "${FAB_S[$((i - 1))]}" tc qdisc add dev "s$i-l2" \
			root tbf rate "$rate" burst 64kb latency 100ms
	done
	for k in $(seq 1 "$n"); do
		"$UETCTL" -n "${FAB_RIGHT[$((k - 1))]}" set rcvbuf 67108864 \
			>/dev/null
	done
	if [ -n "$uet_set" ]; then
		for ns in "${FAB_LEFT[@]}" "${FAB_RIGHT[@]}"; do
			# shellcheck disable=SC2086
			"$UETCTL" -n "$ns" set $uet_set >/dev/null ||
				{ echo "uetctl set $uet_set refused"; exit 1; }
		done
	fi
	mptcp_setup "$n" >/dev/null 2>&1
	echo
	echo "N = $n: 16 TCP flows reach $(tcp16 | awk -v c="$bps" \
		'{ printf "%.2f", $1 / (4 * c) }') of the aggregate"
	printf '%-4s %8s %-10s %10s %10s %8s %9s\n' N MiB transport \
		"slowest s" "ideal s" "x ideal" timeouts
	for mib in $sizes; do
		ideal=$(awk -v n="$n" -v m="$mib" -v c="$bps" \
			'BEGIN { printf "%.2f", n * m * 1048576 * 8 / (4 * c) }')
		for t in $transports; do
			to=$(senders_stat "$n" retx_timeout)
			s=$(run "$t" "$n" "$mib") || s=fail
			case $t in
			tcp|mptcp) to=- ;;
			*) to=$(($(senders_stat "$n" retx_timeout) - to)) ;;
			esac
			printf '%-4s %8s %-10s %10s %10s %8s %9s\n' "$n" \
				"$mib" "$t" "$s" "$ideal" "$(echo "$s $ideal" |
				awk '$1 != "fail" { printf "%.2f", $1 / $2 }')" \
				"$to"
		done
	done
done
