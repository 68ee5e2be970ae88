#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A congested path on the leaf-spine fabric (selftests/fabric.sh): spine
# 2's link towards l2 is slow (tbf) behind an ECN-marking queue (fq_codel,
# CE above a 1 ms sojourn), the other three paths are not limited.
#
#  - the queue does mark: l2 receives CE packets from spine 2;
#  - reps recycles only values whose packets were not marked (the ACK's M
#    flag), so spine 2 carries a smaller share than each of the others;
#  - rr ignores the marks: spine 2 keeps the share its ports give it
#    without congestion.

. "$(dirname "$0")/fabric.sh"

SLOW=2			# the congested spine
RATE=${CONGEST_RATE:-4mbit}
MSGS=16
LEN=262144

# shares "COUNTS": each spine's per mille of the packets.
shares()
{
	local c=($1) x total=0 out=()

	for x in "${c[@]}"; do
		total=$((total + x))
	done
	for x in "${c[@]}"; do
		out+=($((total > 0 ? x * 1000 / total : 0)))
	done
	echo "${out[*]}"
}

# ce_count: CE-marked IPv4 packets l2 has received from the slow spine.
ce_count()
{
	tc -n "$FAB_L2" -s -j filter show dev l2-s$SLOW ingress |
		jq '[.[] | select(.options.actions) | .options.actions[0].stats.packets] | add // 0'
}

# run SPRAY: one transfer h1 -> h2; sets COUNTS and SHARES; one point.
run()
{
	if COUNTS=$(uet_fabric_run "$1" 4 $MSGS $LEN); then
		ktap_ok "$1: transfer complete$2"
	else
		ktap_fail "$1: transfer complete$2"
	fi
	SHARES=$(shares "$COUNTS")
	echo "# $1$2: per spine $COUNTS, per mille $SHARES"
}

ktap_header
ktap_plan 6
if ! uet_fabric_build; then
	echo "# cannot build the fabric"
	exit "$KSFT_FAIL"
fi

# rr's share of spine SLOW from its ports alone
run rr ", no congestion"
rr_base=$(echo "$SHARES" | cut -d' ' -f$SLOW)

ns=$(uet_spine_ns $SLOW)
tc -n "$ns" qdisc add dev s$SLOW-l2 root handle 1: tbf rate "$RATE" \
	burst 16kb limit 4mb &&
	tc -n "$ns" qdisc add dev s$SLOW-l2 parent 1:1 handle 10: fq_codel \
		ecn ce_threshold 1ms &&
	tc -n "$FAB_L2" qdisc add dev l2-s$SLOW clsact &&
	tc -n "$FAB_L2" filter add dev l2-s$SLOW ingress pref 1 protocol ip \
		u32 match u8 3 3 at 1 action continue || {
	echo "# cannot set up the congested path"
	exit "$KSFT_FAIL"
}

ce0=$(ce_count)
run reps ", spine $SLOW congested"
ce=$(($(ce_count) - ce0))
if [ "$ce" -gt 0 ]; then
	ktap_ok "reps: the congested path marks CE"
else
	ktap_fail "reps: the congested path marks CE" "no CE packet from spine $SLOW"
fi
s=($SHARES)
slow=${s[$((SLOW - 1))]}
ok=1
for i in "${!s[@]}"; do
	[ "$i" -eq $((SLOW - 1)) ] && continue
	[ "$slow" -lt "${s[$i]}" ] || ok=0
done
if [ "$ok" = 1 ]; then
	ktap_ok "reps: the congested path carries a smaller share than each other"
else
	ktap_fail "reps: the congested path carries a smaller share than each other" "per mille: $SHARES"
fi

run rr ", spine $SLOW congested"
s=($SHARES)
slow=${s[$((SLOW - 1))]}
if [ "$rr_base" -gt 0 ] && [ $((slow * 10)) -ge $((rr_base * 9)) ]; then
	ktap_ok "rr: the congested path keeps its share"
else
	ktap_fail "rr: the congested path keeps its share" "spine $SLOW: $slow per mille, $rr_base without congestion"
fi
ktap_finished
