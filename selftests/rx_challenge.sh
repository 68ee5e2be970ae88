#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Challenge ACKs are rate limited, as TCP's (tcp_challenge_ack_limit): a
# SYN with a live PDC's key outside its window is answered by an ACK of
# the live state at most once per PDC every 500 ms, and at most
# challenge-ack-limit times a second per namespace; the rest are counted
# (challenge_ack_skipped) and dropped (drop_syn_challenged) all the same.
# The answers are counted where they arrive too: A's uet, which knows no
# PDC of the injector's, counts each one in drop_unknown_pdc.

. "$(dirname "$0")/fabric.sh"

INJECT="python3 $(dirname "$0")/uet_inject.py"
API="python3 $(dirname "$0")/uet_api.py"

ktap_header
ktap_plan 6

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
"$UETCTL" -n "$B" set pdc-idle 60s >/dev/null || echo "# cannot configure B"
out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT
ip netns exec "$B" $API sink 100 600 >/dev/null 2>"$out/sink.err" &
uet_wait_until 60 grep -q ready "$out/sink.err" || echo "# sink did not start"

uet_check_eq "$("$UETCTL" -j -n "$B" show | jq .challenge_ack_limit)" 1000 \
	"challenge-ack-limit is 1000 by default"

# flood N ROUNDS GAP: blind SYNs at N live PDCs of B; sets SECS (how long
# the flood took), SEEN (answers A counted), SENT and SKIPPED (B's
# challenge_ack and challenge_ack_skipped deltas) and DROPPED (B's
# drop_syn_challenged delta).
flood()
{
	local s0 s1 r

	s0=$(uet_stats "$B")
	r=$(UET_ROUNDS=$2 UET_GAP=$3 ip netns exec "$A" $INJECT 10.0.0.2 \
		chflood "$1")
	s1=$(uet_stats "$B")
	read -r SECS SEEN <<<"$r"
	SENT=$(uet_stats_delta "$s0" "$s1" challenge_ack)
	SKIPPED=$(uet_stats_delta "$s0" "$s1" challenge_ack_skipped)
	DROPPED=$(uet_stats_delta "$s0" "$s1" drop_syn_challenged)
	echo "# $1 PDCs x $2 rounds in ${SECS}s: challenge_ack +$SENT, skipped +$SKIPPED, drop_syn_challenged +$DROPPED, A saw $SEEN"
}

# within NAME MAX: one test point: every blind SYN dropped, at least one
# and at most MAX challenges sent, the others skipped, and A saw exactly
# the ones sent.
within()
{
	local total=$((DROPPED))

	if [ "$SENT" -ge 1 ] && [ "$SENT" -le "$2" ] &&
	   [ $((SENT + SKIPPED)) = "$total" ] && [ "$SEEN" = "$SENT" ]; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "sent $SENT (at most $2), skipped $SKIPPED, dropped $total, A saw $SEEN"
	fi
}

# 1. One PDC, 50 blind SYNs at once: one answer per 500 ms.
flood 1 50 0
uet_check_eq "$DROPPED" 50 "50 blind SYNs at one PDC dropped"
within "one PDC answers at most one challenge per 500 ms" \
	$((1 + $(awk -v s="$SECS" 'BEGIN { print int(s * 2) }')))

# 2. 200 PDCs, 5 rounds 0.6 s apart (each PDC may answer each round):
# the namespace's limit, 20 a second, bounds the answers.
"$UETCTL" -n "$B" set challenge-ack-limit 20 >/dev/null
flood 200 5 0.6
uet_check_eq "$DROPPED" 1000 "1000 blind SYNs at 200 PDCs dropped"
within "at most challenge-ack-limit (20) challenges a second" \
	$((20 * ($(awk -v s="$SECS" 'BEGIN { print int(s) }') + 2)))

# 3. A limit of 0 sends none.
"$UETCTL" -n "$B" set challenge-ack-limit 0 >/dev/null
flood 10 3 0.6
uet_check_eq "$SENT $SKIPPED $SEEN" "0 30 0" "challenge-ack-limit 0: no challenge ACK"
ktap_finished
