#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input from a raw socket: truncated and garbage payloads, PDS types
# uet does not handle, unknown PDC ids, inconsistent lengths, PSNs outside
# the window, a trimmed packet and a SYN flood from thousands of forged
# sources. Nothing crashes, each drop is counted under its reason, the
# flood's state is bounded and freed, and good traffic still flows.

. "$(dirname "$0")/fabric.sh"

INJECT="python3 $(dirname "$0")/uet_inject.py"
FLOOD=5000

ktap_header
ktap_plan 12

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
# Answers to the forged sources go to A, which drops them.
ip -n "$B" route add 10.99.0.0/16 via 10.0.0.1
out=$(mktemp -d)
uet_server "$B" "$out/s" -i 300 || echo "# server did not start"
srv=$UET_SERVER_PID

# expect NAME CASE COUNTER DELTA [COUNT]: inject CASE, then COUNTER of B
# must grow by at least DELTA.
expect()
{
	local name=$1 case=$2 counter=$3 delta=$4 before

	before=$(uet_stat "$B" "$counter")
	ip netns exec "$A" $INJECT 10.0.0.2 "$case" ${5:-} ||
		{ ktap_fail "$name" "injector failed"; return; }
	if uet_wait_until 10 test_grew "$counter" "$before" "$delta"; then
		ktap_ok "$name"
	else
		ktap_fail "$name" "$counter went from $before to $(uet_stat "$B" "$counter"), want +$delta"
	fi
}

test_grew()
{
	[ "$(uet_stat "$B" "$1")" -ge $(($2 + $3)) ]
}

expect "truncated payloads: drop_malformed" truncated drop_malformed 10
expect "garbage: drop_unknown_type" garbage drop_unknown_type 10
expect "unhandled PDS types and SES opcode: drop_unknown_type" types \
	drop_unknown_type 6
expect "packets to a PDC that is not open: drop_unknown_pdc" nopdc \
	drop_unknown_pdc 13
expect "inconsistent lengths: drop_malformed" badlen drop_malformed 10
expect "PSN beyond the window: drop_out_of_window" window \
	drop_out_of_window 1
uet_check_eq "$(uet_stat "$B" drop_duplicate)" 1 \
	"PSN already received: drop_duplicate"
expect "trimmed packet answered with a NACK" trimmed trimmed_rx 1

# SYN flood: PDCs up to the namespace's limit; beyond it, each SYN evicts
# a PDC that never took its first PSN (its message refused for want of
# receive buffer) or is dropped.
# The flood's PDCs (which copy pdc-idle when opened; a target closes after
# four times it) must not idle out while a slow injector still floods: on
# the sanitizer kernel under TCG, 5000 SYNs have taken more than 20 s.
"$UETCTL" -n "$B" set pdc-idle 15s >/dev/null
opened=$(uet_stat "$B" pdc_opened)
evicted=$(uet_stat "$B" pdc_evicted)
limit=$(uet_stat "$B" drop_pdc_limit)
ip netns exec "$A" $INJECT 10.0.0.2 synflood "$FLOOD" || echo "# injector failed"
flood_beyond()
{
	[ $(( $(uet_stat "$B" pdc_evicted) + $(uet_stat "$B" drop_pdc_limit) -
	      evicted - limit )) -ge $((FLOOD - 4096)) ]
}
if uet_wait_until 10 flood_beyond; then
	ktap_ok "SYN flood beyond the PDC limit: pdc_evicted or drop_pdc_limit"
else
	ktap_fail "SYN flood beyond the PDC limit: pdc_evicted or drop_pdc_limit" "evicted $(uet_stat "$B" pdc_evicted), drop_pdc_limit $(uet_stat "$B" drop_pdc_limit)"
fi
uet_check_eq "$(( $(uet_stat "$B" pdc_opened) - opened - ($(uet_stat "$B" pdc_evicted) - evicted) <= 4096 ))" 1 \
	"SYN flood held at most the PDC limit open"

# The flood's PDCs close once idle: the state does not outlive it.
"$UETCTL" -n "$B" set pdc-idle 50ms >/dev/null
if uet_wait_until 150 sh -c "[ \$(ip netns exec $B awk '\$1 == \"pdc_opened\" { o = \$2 } \$1 == \"pdc_closed\" { c = \$2 } END { print o - c }' /proc/net/uet_stat) -eq 0 ]"; then
	ktap_ok "every PDC of the flood closed when idle"
else
	ktap_fail "every PDC of the flood closed when idle" "opened $(uet_stat "$B" pdc_opened) closed $(uet_stat "$B" pdc_closed)"
fi
"$UETCTL" -n "$B" set pdc-idle 1s >/dev/null

# Good traffic still flows.
uet_transfer "messages still delivered after the bad input" "$B" "$A" \
	10.0.0.2 50 -e 101 -l 100000 -- -p 101 -l 1-100000

kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null
rm -rf "$out"
ktap_finished
