#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-failover.sh: what a path failure costs a fixed transfer, run
# inside the VM:
#	tools/vm/vm-run -- tools/bench-failover.sh
#
# The 4-path leaf-spine fabric with each spine's link towards h2 limited by
# tbf (BENCH_RATE each), so that the paths, not the CPU, are the
# bottleneck. A transfer of BENCH_MB MiB from h1 to h2 is timed twice: on
# the healthy fabric, and with spine 2 dropping every IP packet from a
# quarter of the healthy run's time on (and until the end). Reported per
# transport: both completion times, their ratio, and the packets sent onto
# the failed spine after the failure (counted by the drop filters at its
# ingress from l1, so only once the drop is in place).
#
#  TCP   4 flows of BENCH_MB/4 MiB, hashed by ECMP one per path (client
#        ports chosen with `ip route get`), each done when its receiver
#        confirms every byte; the flow on the failed path stalls (its hash
#        does not change on a retransmission timeout): it is given up
#        after BENCH_CAP x the healthy time.
#  uet   uetperf, BENCH_MB messages of 1 MiB, one socket, under rr,
#        active and reps. After each run with the failure, a line of
#        h1's path feedback counters for that run.
#
# Environment: BENCH_RATE (default 5mbit), BENCH_MB (default 16),
# BENCH_CAP (default 4), BENCH_SPRAYS (default "rr active reps"; an entry
# SPRAY:KEY=VALUE,... also sets uetctl's KEYs, which stay set for the
# entries after it, e.g. "reps reps:buffer-bits=3").

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

rate=${BENCH_RATE:-5mbit}
mb=${BENCH_MB:-16}
cap=${BENCH_CAP:-4}
sprays=${BENCH_SPRAYS:-rr active reps}
fail=2
tcp_flows=4
tcp_port=5201

die()
{
	echo "bench-failover: $*" >&2
	exit 1
}

now()
{
	echo "$EPOCHREALTIME"
}

# The failing spine's drops from l1, each counted by its own filter, so
# that only what was dropped is counted: uet data, uet probes, TCP.  They
# go in before uet_path_fail's, whose tc commands take seconds under TCG
# (what the spine counted before its drop was in place got through).
DROP_UET_DATA=97
DROP_UET_PROBE=98
DROP_TCP=99

# bench_fail: spine $fail drops everything, counting what h1 sends it.
bench_fail()
{
	local ns dev=s$fail-l1 uet="match u8 17 0xff at 9 match u16 4793 0xffff at 22"

	ns=$(uet_spine_ns $fail)
	tc -n "$ns" filter add dev $dev ingress pref $DROP_UET_DATA protocol ip \
		u32 $uet match u8 0x10 0xf8 at 28 action drop &&
	tc -n "$ns" filter add dev $dev ingress pref $DROP_TCP protocol ip \
		u32 match u8 6 0xff at 9 action drop &&
	tc -n "$ns" filter add dev $dev ingress pref $DROP_UET_PROBE \
		protocol ip u32 $uet match u16 0x5b00 0xff80 at 28 action drop &&
	uet_path_fail $fail
}

# bench_restore: spine $fail forwards again; its drop counters go.
bench_restore()
{
	local ns pref

	ns=$(uet_spine_ns $fail)
	for pref in $DROP_UET_DATA $DROP_UET_PROBE $DROP_TCP; do
		tc -n "$ns" filter del dev s$fail-l1 ingress pref $pref
	done
	uet_path_restore $fail
}

# dropped PREF: packets the failed spine's drop filter PREF counted.
dropped()
{
	tc -n "$(uet_spine_ns $fail)" -s -j filter show dev s$fail-l1 ingress |
		jq --argjson p "$1" '[.[] | select(.pref == $p and .options.actions) | .options.actions[0].stats.packets] | add // 0'
}

# fail_after SECS: in the background, fail the spine after SECS.
fail_after()
{
	(
		sleep "$1"
		bench_fail
	) &
	FAILER=$!
}

# spine_of NS SRC IIF DST PROTO SPORT DPORT: the spine (1..4) that leaf NS
# forwards the flow to, as the kernel hashes it now.
spine_of()
{
	ip -n "$1" route get "$4" from "$2" iif "$3" ipproto "$5" sport "$6" \
		dport "$7" |
		sed -n 's/.* via 10\.1[12]\.\([0-9]\)\.2 .*/\1/p'
}

# tcp_ports FIRST: a client port (FIRST or above) for each TCP flow such
# that flow i goes through spine i + 1 both ways (data and ACKs): one flow
# per path, the best per-flow ECMP can do, and exactly one flow on the
# failing path.
tcp_ports()
{
	local i port=$1

	TCP_CPORTS=()
	for i in $(seq 0 $((tcp_flows - 1))); do
		while [ "$(spine_of "$FAB_L1" 10.1.1.1 l1-h1 10.2.2.1 tcp $port \
			   $((tcp_port + i)))" != $((i + 1)) ] ||
		      [ "$(spine_of "$FAB_L2" 10.2.2.1 l2-h2 10.1.1.1 tcp \
			   $((tcp_port + i)) $port)" != $((i + 1)) ]; do
			port=$((port + 1))
			[ $port -lt $(($1 + 10000)) ] ||
				die "no client port for flow $i"
		done
		TCP_CPORTS+=("$port")
		port=$((port + 1))
	done
}

# A TCP sink for tcp_run: accepts one connection on each port given,
# reads until the sender closes, then answers one byte, so that a sender
# knows its bytes were delivered (iperf3 -n stops when they are written).
TCP_SINK='
import socket, sys, threading
def serve(port):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(1)
    c, _ = ls.accept()
    while c.recv(1 << 20):
        pass
    c.sendall(b"k")
    c.close()
ts = [threading.Thread(target=serve, args=(int(p),)) for p in sys.argv[1:]]
for t in ts:
    t.start()
print("ready", flush=True)
for t in ts:
    t.join()
'

# ... and the sender: from client port $1 to port $2, $3 bytes.
TCP_SOURCE='
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind(("10.1.1.1", int(sys.argv[1])))
s.connect(("10.2.2.1", int(sys.argv[2])))
buf = bytes(1 << 16)
left = int(sys.argv[3])
while left > 0:
    left -= s.send(buf[:min(left, len(buf))])
s.shutdown(socket.SHUT_WR)
sys.exit(0 if s.recv(1) == b"k" else 1)
'

# tcp_run FAIL_AT: the TCP transfer; prints "SECONDS STALLED" (seconds
# until the last flow's bytes were all delivered, or until the limit
# TCP_LIMIT; the flows given up).
tcp_run()
{
	local fail_at=$1 i t0 t1 stalled=0 out pids=() sink ports=()

	out=$(mktemp -d)
	for i in $(seq 0 $((tcp_flows - 1))); do
		ports+=($((tcp_port + i)))
	done
	# other ports with the failure: the healthy run's are in TIME_WAIT
	tcp_ports $([ -n "$fail_at" ] && echo 30000 || echo 20000)
	ip netns exec "$FAB_H2" python3 -c "$TCP_SINK" "${ports[@]}" \
		>"$out/sink" 2>&1 &
	sink=$!
	uet_wait_until 20 grep -q ready "$out/sink"
	[ -n "$fail_at" ] && fail_after "$fail_at"
	t0=$(now)
	for i in $(seq 0 $((tcp_flows - 1))); do
		(
			timeout "${TCP_LIMIT:-600}" ip netns exec "$FAB_H1" \
				python3 -c "$TCP_SOURCE" "${TCP_CPORTS[$i]}" \
				"${ports[$i]}" $((mb * 1048576 / tcp_flows)) \
				>/dev/null 2>&1
			echo $? >"$out/rc$i"
		) &
		pids+=($!)
	done
	wait "${pids[@]}"
	t1=$(now)
	for i in $(seq 0 $((tcp_flows - 1))); do
		[ "$(cat "$out/rc$i")" = 0 ] || stalled=$((stalled + 1))
	done
	kill "$sink" 2>/dev/null
	wait "$sink" 2>/dev/null
	[ -n "$fail_at" ] && wait "$FAILER"
	rm -rf "$out"
	echo "$(echo "$t1 - $t0" | bc -l) $stalled"
}

# uet_set SPRAY[:KEY=VALUE,...]: h1's spraying type and settings.
uet_set()
{
	local spray=${1%%:*} kv=() arg

	if [ "$spray" != "$1" ]; then
		for arg in $(echo "${1#*:}" | tr , ' '); do
			kv+=("${arg%%=*}" "${arg#*=}")
		done
	fi
	# the last run's PDCs gone: a new spraying state of this type
	uet_wait_until 30 uet_no_pdcs "$FAB_H1" "$FAB_H2" || return 1
	"$UETCTL" -n "$FAB_H1" set spray "$spray" "${kv[@]}" >/dev/null
}

# counters BEFORE AFTER: what h1's path feedback counters did in between.
counters()
{
	local c out=""

	for c in retx_timeout retx_sack ev_bad ev_restored probe_tx \
		 reps_freeze reps_thaw reps_explore reps_replay; do
		out+=" $c +$(uet_stats_delta "$1" "$2" "$c")"
	done
	echo "#$out"
}

# uet_run SPRAY FAIL_AT: the uet transfer; prints "SECONDS ERRORS".
uet_run()
{
	local fail_at=$2 out n=$mb

	uet_set "$1" || return 1
	[ -n "$fail_at" ] && STATS0=$(uet_stats "$FAB_H1")
	out=$(mktemp -d)
	uet_server "$FAB_H2" "$out/s" -n "$n" -i 60 -l 1048576 -R 33554432 ||
		return 1
	[ -n "$fail_at" ] && fail_after "$fail_at"
	ip netns exec "$FAB_H1" "$UETPERF" -c 10.2.2.1 -J -n "$n" -l 1048576 \
		-S 16777216 >"$out/c" 2>"$out/c.err"
	wait "$UET_SERVER_PID"
	[ -n "$fail_at" ] && wait "$FAILER"
	[ -n "$fail_at" ] &&
		counters "$STATS0" "$(uet_stats "$FAB_H1")" >"$COUNTERS_FILE"
	echo "$(uet_json "$out/c" elapsed) $(($(uet_json "$out/c" errors) + $(uet_json "$out/s" errors) + n - $(uet_json "$out/s" messages)))"
	rm -rf "$out"
}

# measure NAME CMD...: CMD without and with the failure; prints a row.
measure()
{
	local name=$1 r0 r1 data probes tcp note0 note1 note="" ratio

	shift
	# (no process substitution: the VM has no /dev/fd)
	read -r r0 note0 <<<"$("$@" "")"
	COUNTERS_FILE=$(mktemp)
	read -r r1 note1 <<<"$(TCP_LIMIT=$(echo "$r0 * $cap + 1" | bc -l | cut -d. -f1) \
		"$@" "$(echo "$r0 / 4" | bc -l)")"
	data=$(dropped $DROP_UET_DATA)
	probes=$(dropped $DROP_UET_PROBE)
	tcp=$(dropped $DROP_TCP)
	bench_restore
	ratio=$(echo "$r0 $r1" | awk '{ printf "%.2f", ($1 > 0) ? $2 / $1 : 0 }')
	case "$name" in
	TCP*)
		[ "${note1:-0}" -gt 0 ] && {
			ratio=">$ratio"
			note="$note1 of $tcp_flows flows stalled, given up"
		}
		printf '%-14s %9.2f %11.2f %8s %10s %8s  %s\n' "$name" "$r0" \
			"$r1" "$ratio" "$tcp" - "$note"
		;;
	*)
		[ "${note0:-0}" -gt 0 ] || [ "${note1:-0}" -gt 0 ] &&
			note="errors/missing: $note0 healthy, $note1 failed"
		printf '%-14s %9.2f %11.2f %8s %10s %8s  %s\n' "$name" "$r0" \
			"$r1" "$ratio" "$data" "$probes" "$note"
		cat "$COUNTERS_FILE"
		;;
	esac
	rm -f "$COUNTERS_FILE"
}

[ -x "$UETPERF" ] && [ -x "$UETCTL" ] || die "build the tools first (make)"
uet_fabric_build || die "cannot build the fabric"
for i in $(seq 1 $UET_SPINES); do
	ip netns exec "$(uet_spine_ns "$i")" tc qdisc add dev s$i-l2 root \
		tbf rate "$rate" burst 64kb latency 100ms || die "tbf"
done
tc -n "$(uet_spine_ns $fail)" qdisc add dev s$fail-l1 clsact ||
	die "clsact for the drop counters"
echo "uet failover benchmark: $mb MiB h1 -> h2 over 4 paths of $rate" \
	"(tbf); spine $fail fails after 1/4 of the healthy time"
echo
printf '%-14s %9s %11s %8s %10s %8s\n' "" "healthy s" "w/ failure s" \
	ratio "onto failed" probes
measure "TCP ECMP x$tcp_flows" tcp_run
for spray in $sprays; do
	measure "uet $spray" uet_run "$spray"
done
echo
echo "onto failed: packets (TCP segments; uet data) the failed spine dropped" \
	"from h1's side; probes: uet CTRL PROBEs it dropped"
