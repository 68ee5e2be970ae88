#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NSCC (uetctl set cc nscc) on a slow link: A's side of the veth is limited
# to 50 Mbit/s (tbf) in front of a short queue (fq_codel, 20 packets) that
# marks ECN CE above 1 ms of sojourn and drops beyond its limit.
#
#  - with cc none a PDC sends its 256 PSNs at once: the short queue drops
#    and the sender retransmits;
#  - with cc nscc the same transfer completes, the window uetctl pdc show
#    reports stays within its bounds, and fewer packets are retransmitted
#    than with cc none;
#  - then, with 10% loss in place of the queue, a transfer completes and
#    NSCC has both increased and decreased its window (counters
#    nscc_inc_* and nscc_md, nscc_loss_dec, nscc_trim_dec,
#    nscc_quick_adapt).

. "$(dirname "$0")/fabric.sh"

RATE=50mbit
MSGS=${CC_MSGS:-2}
LEN=131072
MSS=1024
# What the window counts of a full packet: payload + UET, UDP and a
# nominal IP header (UET_CC_PKT_OVERHEAD, 104 bytes).
PKT=$((MSS + 104))

ktap_header
ktap_plan 7

# slow NS: A's side of the veth in NS at $RATE, a 20-packet marking queue.
slow()
{
	ip netns exec "$1" tc qdisc add dev va root handle 1: tbf rate $RATE \
		burst 16kb limit 4mb &&
		ip netns exec "$1" tc qdisc add dev va parent 1:1 handle 10: \
			fq_codel limit 20 ecn ce_threshold 1ms
}

# One pair of namespaces per setting: a PDC keeps the cc it started with.
if ! uet_pair A B || ! uet_pair C D; then
	echo "# setup failed"
	exit "$KSFT_FAIL"
fi
if ! slow "$A" || ! slow "$C"; then
	for i in 1 2 3 4 5 6 7; do
		ktap_skip "case $i" "tbf or fq_codel not available"
	done
	ktap_finished
	exit
fi

# base-rtt 2ms: the window's upper bound, 1.5 x 50 Mbit/s x 2 ms, is some
# 18 kB, within the 20-packet queue.  C and D run NSCC: the target
# reports received bytes only when it runs NSCC too.
for ns in "$A" "$B" "$C" "$D"; do
	"$UETCTL" -n "$ns" set mss $MSS link-rate $RATE base-rtt 2ms \
		>/dev/null || {
		echo "# uetctl set failed"
		exit "$KSFT_FAIL"
	}
done
for ns in "$A" "$B"; do
	"$UETCTL" -n "$ns" set cc none >/dev/null || {
		echo "# uetctl set cc none failed"
		exit "$KSFT_FAIL"
	}
done
for ns in "$C" "$D"; do
	"$UETCTL" -n "$ns" set cc nscc pdc-idle 60s >/dev/null || {
		echo "# uetctl set cc nscc failed"
		exit "$KSFT_FAIL"
	}
done

# retx NS: packets NS retransmitted (timeout, SACK gap, NACK).
retx()
{
	echo $(( $(uet_stat "$1" retx_timeout) + $(uet_stat "$1" retx_sack) +
		 $(uet_stat "$1" retx_nack) ))
}

# nscc ACTION...: the sum of C's counters nscc_ACTION.
nscc()
{
	local s=0 n

	for n in "$@"; do
		s=$((s + $(uet_stat "$C" "nscc_$n")))
	done
	echo "$s"
}

# run NAME SNS CNS [N]: a transfer of N (default MSGS) messages CNS -> SNS
# over the slow link; sets RETX (its retransmissions).
run()
{
	local r0

	r0=$(retx "$3")
	uet_transfer "$1: transfer complete" "$2" "$3" 10.0.0.2 "${4:-$MSGS}" \
		-l $LEN -- -l $LEN
	RETX=$(( $(retx "$3") - r0 ))
}

# cwnd_now: the cwnd of C's initiator PDCs, as uetctl pdc show has it.
cwnd_now()
{
	"$UETCTL" -n "$C" pdc show 2>/dev/null | awk '
		$3 == "initiator" {
			for (i = 4; i < NF; i++)
				if ($i == "cwnd")
					print $(i + 1)
		}'
}

# cwnd_samples FLAG: until FLAG exists (at most 200 samples), print the
# cwnd of C's initiator PDCs.  Under TCG most of a transfer's time goes
# in starting the programs: expect few samples.
cwnd_samples()
{
	local i

	for i in $(seq 200); do
		[ -e "$1" ] && break
		cwnd_now
		sleep 0.05
	done
}

# --- cc none: the whole PSN window into a 20-packet queue ---------------
t0=$SECONDS
run "cc none" "$B" "$A"
echo "# cc none took $((SECONDS - t0)) s"
t0=$SECONDS
retx_none=$RETX
echo "# cc none: $retx_none retransmissions"

# --- cc nscc -------------------------------------------------------------
inc0=$(nscc inc_prop inc_fast inc_fair)
dec0=$(nscc md quick_adapt trim_dec loss_dec)
out=$(mktemp)
cwnd_samples "$out.done" >"$out" &
sampler=$!
run "cc nscc" "$D" "$C"
echo "# cc nscc took $((SECONDS - t0)) s"
retx_nscc=$RETX
touch "$out.done"
wait "$sampler"
# and once more after it: C's PDC stays open (pdc-idle 60s)
cwnd_now >>"$out"
echo "# cc nscc: $retx_nscc retransmissions"

# --- cc nscc with 10% loss: one message, some 13 packets lost -----------
# The queue above may not build up under TCG (the window stays small),
# so losses are what makes the window shrink for sure.
t0=$SECONDS
ip netns exec "$C" tc qdisc del dev va parent 1:1 handle 10: &&
	ip netns exec "$C" tc qdisc add dev va parent 1:1 handle 20: \
		netem loss 10% || echo "# netem loss not available"
run "cc nscc, 10% loss" "$D" "$C" 1
echo "# cc nscc with loss took $((SECONDS - t0)) s"
inc=$(( $(nscc inc_prop inc_fast inc_fair) - inc0 ))
dec=$(( $(nscc md quick_adapt trim_dec loss_dec) - dec0 ))
echo "# cc nscc: increases $inc, decreases $dec (md $(nscc md), quick adapt $(nscc quick_adapt), trim $(nscc trim_dec), loss $(nscc loss_dec), hold $(nscc hold), md wait $(nscc md_wait))"

if [ "$inc" -gt 0 ] && [ "$dec" -gt 0 ]; then
	ktap_ok "cc nscc: window increased ($inc) and decreased ($dec)"
else
	ktap_fail "cc nscc: window increased and decreased" "increases $inc decreases $dec"
fi

# 1.5 x 50 Mbit/s x 2 ms = 18750 bytes, at least two packets.
max=$(( 50 * 2000 * 3 / 16 ))
[ "$max" -lt $((2 * PKT)) ] && max=$((2 * PKT))
n=$(grep -c . "$out")
bad=$(awk -v lo=$PKT -v hi=$max '$1 < lo || $1 > hi' "$out" | head -n 3)
if [ "$n" -gt 0 ] && [ -z "$bad" ]; then
	ktap_ok "cc nscc: cwnd within [$PKT, $max] ($n samples, $(sort -n "$out" | head -n 1)..$(sort -n "$out" | tail -n 1))"
else
	ktap_fail "cc nscc: cwnd within [$PKT, $max]" "$n samples, out of bounds: $bad"
fi
rm -f "$out" "$out.done"

if [ "$retx_nscc" -lt "$retx_none" ]; then
	ktap_ok "cc nscc retransmits less than cc none ($retx_nscc < $retx_none)"
else
	ktap_fail "cc nscc retransmits less than cc none" "$retx_nscc >= $retx_none"
fi

# uetctl shows each setting back (the default is config.sh's to check).
cc=$("$UETCTL" -n "$C" -j show | jq -r .cc)
def=$("$UETCTL" -n "$A" -j show | jq -r .cc)
uet_check_eq "$cc $def" "nscc none" "uetctl shows cc nscc and cc none as set"

ktap_finished
