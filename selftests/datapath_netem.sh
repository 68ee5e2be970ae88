#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability over a bad link: with netem loss (1% and 10%), reordering,
# duplication and corruption on both directions of the path, every
# message is delivered exactly once and intact, over IPv4 and IPv6.
# 100 messages of up to 200 kB (150 at 1% loss) are some 7,000 data
# packets a case: tens to hundreds of each impairment.  And a message
# lost whole in a black hole is resent at once when the link heals.

. "$(dirname "$0")/fabric.sh"

ktap_header
ktap_plan 10


uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }

# netem ARGS...: the same impairment on both ends of the link.
netem()
{
	ip netns exec "$A" tc qdisc replace dev va root netem "$@" &&
		ip netns exec "$B" tc qdisc replace dev vb root netem "$@"
}

# case NAME FAMILY N NETEM-ARGS...
case_run()
{
	local name=$1 fam=$2 n=$3 dst=10.0.0.2 before t0=$SECONDS

	shift 3
	[ "$fam" = 6 ] && dst=fd00::2
	if ! netem "$@"; then
		ktap_skip "$name" "netem $* not available"
		return
	fi
	before=$(uet_stat "$A" retx_timeout)
	uet_transfer "$name" "$B" "$A" "$dst" "$n" -l 200000 -- -l 1-200000
	echo "# $name: retransmissions timeout $(( $(uet_stat "$A" retx_timeout) - before )), sack $(uet_stat "$A" retx_sack), nack $(uet_stat "$A" retx_nack); $((SECONDS - t0)) s"
}

case_run "IPv4 loss 1%" 4 150 loss 1%
case_run "IPv4 loss 10%" 4 100 loss 10%
case_run "IPv6 loss 10%" 6 100 loss 10%
case_run "IPv4 reordering" 4 100 delay 2ms reorder 25% 50%
case_run "IPv4 duplication 10%" 4 100 duplicate 10%
case_run "IPv6 corruption 2%" 6 100 corrupt 2%
case_run "IPv4 loss, reordering, duplication, corruption" 4 100 \
	delay 1ms reorder 20% 50% loss 5% duplicate 5% corrupt 1%

# A window lost whole: one message of 200 kB, about 140 packets, all
# sent while the link drops everything both ways, until A's PDC has timed
# out once.  Nothing is left to send that could be acknowledged after
# them: the ACK of the oldest one, which the timeout resent, is the first
# news, and it is for a packet sent after all the others, so they are
# resent then, at once.  Resent by a timeout each, they would take one
# timeout a packet (datapath_probe once waited minutes on 239 of them).
window_lost()
{
	local name="IPv4 a window lost whole" tx0 tx1 to0 to1 to2

	netem loss 100%
	tx0=$(uet_stat "$A" tx_packets)
	to0=$(uet_stat "$A" retx_timeout)
	if ! uet_bg_transfer "$B" "$A" 10.0.0.2 200000 -n 1; then
		ktap_fail "$name: transfer complete" "server did not start"
		ktap_fail "$name: resent after one timeout" "no transfer"
		return
	fi
	uet_wait_stat 60 "$A" retx_timeout $((to0 + 1))
	tx1=$(uet_stat "$A" tx_packets)
	netem delay 0ms
	to1=$(uet_stat "$A" retx_timeout)
	wait "$UET_BG_PID"
	wait "$UET_BG_SERVER"
	to2=$(uet_stat "$A" retx_timeout)
	echo "# $name: $((tx1 - tx0)) packets sent into the black hole; PDC timeouts $((to1 - to0)) in it, $((to2 - to1)) after it"
	uet_bg_check "$name: transfer complete"
	# the timeout's resent packet may be lost too, once
	if [ $((tx1 - tx0)) -gt 2 ] && [ $((to1 - to0)) -ge 1 ] &&
	   [ $((to2 - to1)) -le 2 ]; then
		ktap_ok "$name: resent after one timeout"
	else
		ktap_fail "$name: resent after one timeout" "$((tx1 - tx0)) packets lost, PDC timeouts $((to1 - to0)) during the loss and $((to2 - to1)) after it"
	fi
}
window_lost

# The receiver saw duplicates and dropped them; the sender retransmitted.
dups=$(uet_stat "$B" drop_duplicate)
retx=$(( $(uet_stat "$A" retx_timeout) + $(uet_stat "$A" retx_sack) ))
if [ "${dups:-0}" -gt 0 ] && [ "$retx" -gt 0 ]; then
	ktap_ok "duplicates suppressed ($dups), losses repaired ($retx retransmissions)"
else
	ktap_fail "duplicates suppressed, losses repaired" "duplicates $dups retransmissions $retx"
fi
netem delay 0ms

ktap_finished
