#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reassembly and receive memory against a hostile sender, with hand-made
# messages (selftests/uet_hostile.py) from A to endpoint 200 of B:
#
#   A (10.0.0.1) ---- veth ---- B (10.0.0.2, endpoint 200 bound)
#
#  - packets rewriting bytes of their message (a second SOM, an overlap)
#    are dropped, and a message with bytes no packet wrote is never
#    delivered;
#  - a packet off the 64-byte granule is dropped;
#  - a packet claiming a 64 MiB message costs one page, not 64 MiB;
#  - a partial message without progress for msg-timeout is discarded and
#    its memory released; its next packet is refused with a fatal NACK;
#    its id reused later starts a new message, delivered intact;
#  - a partial message whose id starts a new message is discarded at once;
#  - the namespace's rx-mem bounds the pages held, and the refused packets
#    are counted.

. "$(dirname "$0")/fabric.sh"

HOSTILE="python3 $(dirname "$0")/uet_hostile.py"
API="python3 $(dirname "$0")/uet_api.py"

ktap_header
ktap_plan 15

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
# rcvbuf: endpoint 200 can reserve bigreq's 64 MiB, which is then held
# to one page by what arrives, not refused for its size.
"$UETCTL" -n "$B" set pdc-idle 60s msg-timeout 60s rcvbuf 134217728 >/dev/null
out=$(mktemp -d)
# the job's endpoint 200, up before anything is sent to it
uet_server "$B" "$out/s" -i 300 || echo "# server did not start"
srv=$UET_SERVER_PID

# the first message endpoint 200 receives, in $out/recv
ip netns exec "$B" $API recv 200 600 >"$out/recv" 2>"$out/recv.err" &
rcv=$!
uet_wait_until 60 grep -q ready "$out/recv.err" || echo "# receiver not ready"

hostile()
{
	ip netns exec "$A" $HOSTILE 10.0.0.2 "$1" || echo "# injector failed: $1"
}

grew()
{
	[ "$(uet_stat "$B" "$1")" -ge $(($2 + $3)) ]
}

# expect_grow NAME COUNTER BEFORE DELTA: one test point.
expect_grow()
{
	if uet_wait_until 10 grew "$2" "$3" "$4"; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "$2 went from $3 to $(uet_stat "$B" "$2"), want +$4; $(drops)"
	fi
}

# the namespace's non-zero drop and NACK counters, for a failure's note
drops()
{
	ip netns exec "$B" awk '($1 ~ /^drop_|^nack_|^rx_m/) && $2 { printf "%s=%s ", $1, $2 }' \
		/proc/net/uet_stat
}

stat_is()
{
	[ "$(uet_stat "$B" "$1")" -eq "$2" ]
}

# 1. Bytes written twice: a second SOM, an overlap.
ov=$(uet_stat "$B" drop_overlap)
msgs=$(uet_stat "$B" rx_messages)
hostile overlap
expect_grow "a second SOM and an overlap: drop_overlap" drop_overlap "$ov" 2
uet_check_eq "$(uet_stat "$B" rx_messages)" "$msgs" \
	"a message with unwritten bytes is not delivered"

# 2. Off the granule.
un=$(uet_stat "$B" drop_unaligned)
hostile unaligned
expect_grow "a packet off the 64-byte granule: drop_unaligned" \
	drop_unaligned "$un" 1

# 3. No progress for msg-timeout: the overlap's message is discarded and
# its pages released.
to=$(uet_stat "$B" rx_msg_timeout)
"$UETCTL" -n "$B" set msg-timeout 500ms >/dev/null
expect_grow "a partial message without progress times out: rx_msg_timeout" \
	rx_msg_timeout "$to" 1
if uet_wait_until 10 stat_is rx_mem 0; then
	ktap_ok "its memory is released"
else
	ktap_fail "its memory is released" "rx_mem $(uet_stat "$B" rx_mem); $(drops)"
fi

# 4. 64 MiB claimed, 1 KiB sent: one page, then discarded in turn.
"$UETCTL" -n "$B" set msg-timeout 60s >/dev/null
hostile bigreq
if uet_wait_until 10 stat_is rx_mem 1; then
	ktap_ok "a packet of a 64 MiB message holds one page"
else
	ktap_fail "a packet of a 64 MiB message holds one page" \
		"rx_mem $(uet_stat "$B" rx_mem); $(drops)"
fi
to=$(uet_stat "$B" rx_msg_timeout)
"$UETCTL" -n "$B" set msg-timeout 500ms >/dev/null
uet_wait_until 10 grew rx_msg_timeout "$to" 1 || echo "# bigreq did not time out"

# 5. The rest of it is refused for good.
ds=$(uet_stat "$B" drop_discarded)
nk=$(uet_stat "$B" nack_tx)
hostile stale
expect_grow "the next packet of a discarded message: drop_discarded" \
	drop_discarded "$ds" 1
expect_grow "... answered with a NACK" nack_tx "$nk" 1

# 6. The id used again: a new message, delivered intact, and the first
# message endpoint 200 received (none of the above was).
msgs=$(uet_stat "$B" rx_messages)
hostile reuse
expect_grow "the message id used again starts a new message" \
	rx_messages "$msgs" 1
wait "$rcv"
want="len 5 $(printf hello | od -An -tx1 | tr -d ' \n')"
if [ "$(cat "$out/recv")" = "$want" ]; then
	ktap_ok "the first message delivered is the intact one"
else
	ktap_fail "the first message delivered is the intact one" \
		"got '$(cat "$out/recv")', want '$want'; $(drops)"
fi

# 7. A partial message whose id starts a new message goes at once.
ip netns exec "$B" $API recv 200 600 >"$out/recv2" 2>"$out/recv2.err" &
rcv=$!
uet_wait_until 60 grep -q ready "$out/recv2.err" || echo "# receiver not ready"
ru=$(uet_stat "$B" rx_msg_reused)
hostile replace
expect_grow "a partial message whose id is used again: rx_msg_reused" \
	rx_msg_reused "$ru" 1
wait "$rcv"
want="len 5 $(printf world | od -An -tx1 | tr -d ' \n')"
if [ "$(cat "$out/recv2")" = "$want" ]; then
	ktap_ok "... and the new message is delivered intact"
else
	ktap_fail "... and the new message is delivered intact" \
		"got '$(cat "$out/recv2")', want '$want'; $(drops)"
fi

# 8. rx-mem bounds what the namespace holds.
"$UETCTL" -n "$B" set rx-mem 16 msg-timeout 30s >/dev/null
ip netns exec "$B" $API recv 200 600 >"$out/recv3" 2>"$out/recv3.err" &
rcv=$!
uet_wait_until 60 grep -q ready "$out/recv3.err" || echo "# receiver not ready"
rm=$(uet_stat "$B" drop_rx_mem)
hostile rxmem
expect_grow "pages beyond rx-mem are refused: drop_rx_mem" drop_rx_mem "$rm" 34
uet_check_eq "$(( $(uet_stat "$B" rx_mem) <= 16 ))" 1 \
	"rx_mem stays within rx-mem ($(uet_stat "$B" rx_mem) of 16 pages)"
kill "$rcv" "$srv" 2>/dev/null
wait 2>/dev/null

# 9. Nothing held once the socket is gone.
if uet_wait_until 10 stat_is rx_mem 0; then
	ktap_ok "no page held after the receiver closed"
else
	ktap_fail "no page held after the receiver closed" "rx_mem $(uet_stat "$B" rx_mem)"
fi

ktap_finished
