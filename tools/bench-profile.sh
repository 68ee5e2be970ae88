#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-profile.sh KO [MTU]: where one uet stream spends the CPU, run
# inside the VM:
#   tools/vm/vm-run --no-module -- tools/bench-profile.sh KO 1500
#
# Loads KO, sends 1 MiB messages over one veth pair at MTU (default
# 1500) as tools/bench-ab.sh does, records every CPU with perf for the
# middle of the transfer and prints the goodput, how busy the vCPUs were
# (/proc/stat: user, system, irq and softirq over all, both namespaces),
# the ACKs per data packet, and the kernel symbols that took at least
# 0.2% of the samples, self time. Under TCG perf has only cpu-clock,
# whose samples land mostly in the idle loop (session 10: 95% there, where /proc/stat
# counted the vCPUs 77% busy): read the symbols' order, not the idle
# share.
#
# Environment: BENCH_SECS (default 10), BENCH_SPRAY (the client's spraying
# type; default: the module's), BENCH_SET (more \`uetctl set\` arguments
# for the client, e.g. "spray-burst 32"), BENCH_CHECK (1: uetperf writes and checks
# every payload byte; default: only each message's header, uetperf -N).

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

secs=${BENCH_SECS:-10}
nchk=(-N)
[ "${BENCH_CHECK:-0}" = 1 ] && nchk=()

# busy: jiffies the vCPUs worked and idled, so far.
busy()
{
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat
}

main()
{
	local ko=$1 mtu=${2:-1500} out b0 i0 b1 i1

	[ -f "$ko" ] || { echo "usage: bench-profile.sh KO [MTU]" >&2; exit 1; }
	modprobe -a udp_tunnel ip6_udp_tunnel
	insmod "$ko" || exit 1
	uet_pair A B "$mtu"
	[ -z "$BENCH_SPRAY" ] ||
		"$UETCTL" -n "$A" set spray "$BENCH_SPRAY" >/dev/null || exit 1
	# shellcheck disable=SC2086 # BENCH_SET is a list of arguments
	[ -z "$BENCH_SET" ] ||
		"$UETCTL" -n "$A" set $BENCH_SET >/dev/null || exit 1
	out=$(mktemp -d)
	uet_server "$B" "$out/s" -i 5 -l 1048576 -R 33554432 "${nchk[@]}" || exit 1
	ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -J -t "$secs" -l 1048576 \
		-S 16777216 "${nchk[@]}" >"$out/c" 2>"$out/c.err" &
	sleep 2
	read -r b0 i0 <<<"$(busy)"
	perf record -a -o "$out/perf.data" -- sleep $((secs - 4)) 2>/dev/null
	read -r b1 i1 <<<"$(busy)"
	wait $!
	kill "$UET_SERVER_PID" 2>/dev/null
	wait "$UET_SERVER_PID" 2>/dev/null
	echo "$ko at MTU $mtu: $(uet_json "$out/s" goodput_mbps) Mbit/s"
	echo "vCPUs busy: $((100 * (b1 - b0) / (b1 - b0 + i1 - i0)))%"
	# shellcheck disable=SC2016 # awk's fields
	echo "ACKs per data packet: $(ip netns exec "$B" awk '$1 == "ack_tx" { a = $2 } $1 == "rx_packets" { p = $2 } END { if (p) printf "%.3f", a / p }' /proc/net/uet_stat)"
	perf report -i "$out/perf.data" --no-children --sort sym \
		--percent-limit 0.2 --stdio 2>/dev/null | grep -v '^#' | grep .
	rm -rf "$out"
	rmmod uet
}

main "$@"
