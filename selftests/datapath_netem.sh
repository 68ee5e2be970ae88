#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability over a bad link: with netem loss (1% and 10%), reordering,
# duplication and corruption on both directions of the path, every
# message is delivered exactly once and intact, over IPv4 and IPv6.
# 100 messages of up to 200 kB (150 at 1% loss) are some 7,000 data
# packets a case: tens to hundreds of each impairment.  And a message
# lost whole in a black hole is resent at once when the link heals; one
# sent into a dead link fails, and the next ones arrive once it heals.

. "$(dirname "$0")/fabric.sh"

ktap_header
ktap_plan 14


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

# bg_one LEN: a server in B for one message of LEN bytes, which waits as
# long as a black hole may last, and a client in A sending it, in the
# background (for uet_bg_check).
bg_one()
{
	UET_BG_OUT=$(mktemp -d)
	uet_server "$B" "$UET_BG_OUT/s" -n 1 -i 120 -l "$1" || return 1
	UET_BG_SERVER=$UET_SERVER_PID
	ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -J -n 1 -l "$1" \
		>"$UET_BG_OUT/c" 2>"$UET_BG_OUT/c.err" &
	UET_BG_PID=$!
}

# outage NAME POINT CMD...: one 200 kB message from A, about 140 packets,
# sent into an outage that CMD starts, which ends once A's PDC has timed
# out once; then NAME's transfer point and POINT: the PDC timed out in the
# outage and at most OUTAGE_AFTER times after it, where a timeout a packet
# would be about 140.  Not none: the timeout's resent packet may be lost
# once more while the link heals (two commands), and with another VM on
# the host (make check's two lanes) there were 3 and 4 after, in 2 of 4
# runs of session 42's module too (not traced; a few resent packets
# dropped by the busy VM's backlog would do it).
OUTAGE_AFTER=8
outage()
{
	local name=$1 point=$2 tx0 tx1 to0 to1 to2 r0 r2

	shift 2
	# a slow VM's outage may outlast the default's give-up
	"$UETCTL" -n "$A" set max-retx 255 >/dev/null
	"$@"
	tx0=$(uet_stat "$A" tx_packets)
	to0=$(uet_stat "$A" retx_timeout)
	r0=$(uet_stat "$A" retx_sack)
	if bg_one 200000; then
		uet_wait_stat 60 "$A" retx_timeout $((to0 + 1))
		tx1=$(uet_stat "$A" tx_packets)
		netem delay 0ms
		to1=$(uet_stat "$A" retx_timeout)
		wait "$UET_BG_PID"
		wait "$UET_BG_SERVER"
		to2=$(uet_stat "$A" retx_timeout)
		r2=$(uet_stat "$A" retx_sack)
		echo "# $name: $((tx1 - tx0)) packets sent in the outage; PDC timeouts $((to1 - to0)) in it, $((to2 - to1)) after it; resent as lost otherwise $((r2 - r0))"
		uet_bg_check "$name: transfer complete"
		if [ $((tx1 - tx0)) -gt 2 ] && [ $((to1 - to0)) -ge 1 ] &&
		   [ $((to2 - to1)) -le $OUTAGE_AFTER ]; then
			ktap_ok "$name: $point"
		else
			ktap_fail "$name: $point" "$((tx1 - tx0)) packets sent in the outage, PDC timeouts $((to1 - to0)) in it and $((to2 - to1)) after it"
		fi
	else
		netem delay 0ms
		ktap_fail "$name: transfer complete" "server did not start"
		ktap_fail "$name: $point" "no transfer"
	fi
	"$UETCTL" -n "$A" set max-retx 10 >/dev/null
}

# A window lost whole: every packet of the message sent while the link
# drops everything both ways.  Nothing is left to send that could be
# acknowledged after them: the ACK of the oldest one, which the timeout
# resent, is the first news, and it is for a packet sent after all the
# others, so they are resent then, at once.  Resent by a timeout each,
# they would take one timeout a packet (datapath_probe once waited
# minutes on 239 of them).
outage "IPv4 a window lost whole" "resent after one timeout" netem loss 100%

# The way back dead: every packet of the message arrives, and every ACK
# is lost.  The first ACK after the link heals, for the resent oldest
# packet, acknowledges them all: no more timeouts (a packet the VM's
# backlog dropped is resent as lost).
outage "IPv4 every ACK of a message lost" "no timeouts once the ACKs come" \
	ip netns exec "$B" tc qdisc replace dev vb root netem loss 100%

# A link down for good: a message sent into it is given up once a packet
# was resent max-retx times and nothing came back for 3 s (the client
# reads an error, the PDC closes); once the link works again, the next
# messages to the same destination arrive.
link_down()
{
	local name="IPv4 a message into a dead link" out cerr t0=$SECONDS

	netem loss 100%
	out=$(mktemp -d)
	timeout 120 ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -J -n 1 -l 20000 \
		>"$out/c" 2>"$out/c.err"
	cerr=$(uet_json "$out/c" errors)
	echo "# $name: the client's error after $((SECONDS - t0)) s: $(grep -m1 -i 'error\|timed' "$out/c.err")"
	if [ "$cerr" = 1 ]; then
		ktap_ok "$name: given up, the sender told"
	else
		ktap_fail "$name: given up, the sender told" "client errors '$cerr'"
	fi
	rm -rf "$out"
	netem delay 0ms
	uet_transfer "$name: the next messages arrive once it works" "$B" "$A" \
		10.0.0.2 5 -l 200000 -- -l 200000
}
link_down

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
