#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh: run inside the VM by `make demo`. Builds a leaf-spine fabric of
# network namespaces (two hosts, two leaves, four spines, ECMP hashing on
# the UDP ports), sends the same transfer from h1 to h2 under each spraying
# type, and shows how many packets each of the four paths carried, as a
# table and as bars, with the transport's own counters.
#
# Environment: DEMO_MSGS (default 32) messages of DEMO_LEN bytes (default
# 1 MiB), DEMO_MTU (default 1500; jumbo frames forward slowly under TCG),
# DEMO_SPRAYS (default "none rr active reps").

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

msgs=${DEMO_MSGS:-32}
len=${DEMO_LEN:-1048576}
mtu=${DEMO_MTU:-1500}
sprays=${DEMO_SPRAYS:-none rr active reps}
width=40

die()
{
	echo "demo: $*" >&2
	exit 1
}

[ -x "$UETPERF" ] && [ -x "$UETCTL" ] || die "build the tools first (make)"
[ -d /sys/module/uet ] || die "uet is not loaded"

bar()
{
	local n=$1 max=$2 w=0

	[ "$max" -gt 0 ] && w=$(((n * width + max / 2) / max))
	printf '%*s' "$w" '' | tr ' ' '#'
	printf '%*s' $((width - w)) ''
}

uet_fabric_build "$mtu" || die "cannot build the fabric"
echo "uet demo: h1 -> h2 over 4 equal-cost paths (leaf-spine, MTU $mtu," \
	"ECMP on the 5-tuple); $msgs messages of $len bytes per spraying type"
echo

declare -A counts info
for spray in $sprays; do
	s1=$(uet_stats "$FAB_H1")
	s2=$(uet_stats "$FAB_H2")
	t0=$(date +%s.%N)
	c=$(uet_fabric_run "$spray" 4 "$msgs" "$len") ||
		echo "demo: the $spray transfer was not delivered whole" >&2
	t1=$(date +%s.%N)
	counts[$spray]=$c
	a1=$(uet_stats "$FAB_H1")
	a2=$(uet_stats "$FAB_H2")
	info[$spray]=$(printf 'sent %d, retransmitted %d (timeout %d, SACK %d, NACK %d), out of order at h2 %d; engine: explore %d recycle %d freeze %d bad %d; %.0f Mbit/s' \
		"$(uet_stats_delta "$s1" "$a1" tx_packets)" \
		$(( $(uet_stats_delta "$s1" "$a1" retx_timeout) + $(uet_stats_delta "$s1" "$a1" retx_sack) + $(uet_stats_delta "$s1" "$a1" retx_nack) )) \
		"$(uet_stats_delta "$s1" "$a1" retx_timeout)" "$(uet_stats_delta "$s1" "$a1" retx_sack)" \
		"$(uet_stats_delta "$s1" "$a1" retx_nack)" "$(uet_stats_delta "$s2" "$a2" rx_out_of_order)" \
		"$(uet_stats_delta "$s1" "$a1" reps_explore)" "$(uet_stats_delta "$s1" "$a1" reps_recycle)" \
		"$(uet_stats_delta "$s1" "$a1" reps_freeze)" "$(uet_stats_delta "$s1" "$a1" ev_bad)" \
		"$(echo "$msgs * $len * 8 / ($t1 - $t0) / 1000000" | bc -l)")
done

printf '%-8s %9s %9s %9s %9s %9s %14s\n' spray path1 path2 path3 path4 \
	total "busiest/fair"
for spray in $sprays; do
	read -r -a c <<<"${counts[$spray]}"
	total=0
	max=0
	for x in "${c[@]}"; do
		total=$((total + x))
		[ "$x" -gt "$max" ] && max=$x
	done
	ratio=0
	[ "$total" -gt 0 ] && ratio=$(echo "$max * ${#c[@]} / $total" | bc -l)
	printf '%-8s %9d %9d %9d %9d %9d %13.2fx\n' "$spray" "${c[@]}" \
		"$total" "$ratio"
done
echo

for spray in $sprays; do
	read -r -a c <<<"${counts[$spray]}"
	max=0
	for x in "${c[@]}"; do
		[ "$x" -gt "$max" ] && max=$x
	done
	for i in "${!c[@]}"; do
		label=
		[ "$i" = 0 ] && label=$spray
		printf '%-8s path%d |%s| %d\n' "$label" $((i + 1)) \
			"$(bar "${c[$i]}" "$max")" "${c[$i]}"
	done
	echo "         ${info[$spray]}"
	echo
done
