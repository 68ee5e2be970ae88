#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What ends a PDC and what limits opening them, on A -- R -- B:
#  - trims are congestion, not loss: with max-retx 2, a one-packet
#    message that the trimming switch (selftests/trim.bpf.c, on R's link to
#    B) cuts 20 times in a row is NACKed, resent and delivered, and its PDC
#    stays open; a packet really lost is given up after max-retx as before;
#  - an unprivileged user opens at most 1024 initiator PDCs in a
#    namespace (Documentation/datapath.rst): sendmsg() opening the 1025th
#    fails with ENOBUFS; root (CAP_NET_ADMIN) opens more.

. "$(dirname "$0")/fabric.sh"

API="python3 $(dirname "$0")/uet_api.py"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
TRIMS=20

ktap_header
ktap_plan 7

uet_line A R B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
"$UETCTL" -n "$A" set max-retx 2 pdc-idle 60s >/dev/null ||
	echo "# cannot configure A"

# 1. Trims in a row beyond max-retx.
if ! uet_trim_add "$R" r-b 0 || ! uet_trim_set "$R" r-b 1 0 $TRIMS; then
	echo "# cannot attach the trimming switch"
fi
s0=$(uet_stats "$A")
uet_transfer "max-retx 2: a message trimmed $TRIMS times in a row arrives" \
	"$B" "$A" 10.0.2.1 1 -l 1000 -- -l 1000
s1=$(uet_stats "$A")
trimmed=$(uet_trim_stat "$R" r-b trimmed)
uet_check_eq "$trimmed $(uet_stats_delta "$s0" "$s1" nack_rx_trimmed) $(uet_stats_delta "$s0" "$s1" retx_nack)" \
	"$TRIMS $TRIMS $TRIMS" "each trim NACKed and resent at once"
uet_check_eq "$(uet_stats_delta "$s0" "$s1" pdc_opened) $(uet_stats_delta "$s0" "$s1" pdc_closed) $(uet_stats_delta "$s0" "$s1" tx_messages_failed) $("$UETCTL" -j -n "$A" pdc show | jq '[.[] | select(.role == "initiator")] | length')" \
	"1 0 0 1" "the PDC survives: one opened, none closed, no message failed"

# A packet really lost still counts: every packet dropped, the message is
# given up after max-retx.
uet_trim_set "$R" r-b 0 >/dev/null
tc -n "$R" qdisc add dev r-b root netem loss 100% ||
	echo "# cannot add netem"
ip netns exec "$A" timeout 30 "$UETPERF" -c 10.0.2.1 -J -n 1 -l 1000 \
	>"/tmp/pdc_limits.$$" 2>/dev/null
uet_check_eq "$(uet_json "/tmp/pdc_limits.$$" errors)" 1 \
	"a packet lost max-retx + 1 times gives its message up"
rm -f "/tmp/pdc_limits.$$"
tc -n "$R" qdisc del dev r-b root

# 2. The per-user limit of initiator PDCs, in a namespace of its own (users
# share 256 hashed slots: root's PDCs could count in nobody's).  Nothing
# answers (the gateway never resolves): the PDCs stay open about 20 s,
# resending slowly, then give their messages up.
uet_pair C D || echo "# setup failed"
"$UETCTL" -n "$C" set max-retx 6 rto-max 4s rto-min 100ms pdc-idle 600s \
	>/dev/null || echo "# cannot configure C"
"$UETCTL" -n "$C" job add 5 uid 65534 || echo "# cannot add job 5"
ip -n "$C" route add 10.1.0.0/16 via 10.0.0.99
ip -n "$C" route add 10.2.0.0/16 via 10.0.0.99
uet_check_eq "$(ip netns exec "$C" "${NOBODY[@]}" $API fanout 5 10.1 1100 2>&1)" \
	"1024 ENOBUFS" "nobody opens 1024 PDCs; opening the 1025th fails with ENOBUFS"
uet_check_eq "$(ip netns exec "$C" $API fanout 5 10.2 1100 2>&1)" \
	"1100 none" "root is not limited to 1024"
# Their messages keep the closed sockets, and so the module, until then.
none_open()
{
	[ "$(uet_stat "$C" pdc_active)" = 0 ]
}
if uet_wait_until 120 none_open; then
	ktap_ok "every message to nowhere given up, every PDC closed"
else
	ktap_fail "every message to nowhere given up, every PDC closed" \
		"$(uet_stat "$C" pdc_active) PDCs still open"
fi
ktap_finished
