#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ICMP errors about the packets uet sends (Documentation/datapath.rst,
# "ICMP errors"), with a real router: A -- R -- B, R's link to B of MTU
# 1280, so that R answers A's 1500-byte packets with "fragmentation
# needed" (ICMPv6 "packet too big").
#  - uet claims the errors (icmp_rx), lowers the PDC's path MTU to 1280
#    (pmtu_update, uetctl pdc show), resends the packets lost at once
#    (retx_pmtu), and transfers of large messages complete, IPv4 and IPv6;
#    a second transfer draws no error: the packets fit;
#  - sockets on another address or another port than the entropy value
#    get none of the errors; a socket bound to the wildcard on the
#    entropy value itself does, as documented, and the transfer still
#    completes on the route's MTU (IPv4);
#  - forged errors that name no packet in flight change nothing
#    (icmp_unmatched), nor do quotes too short to name one;
#  - no socket binds the UET port, even with SO_REUSEADDR/SO_REUSEPORT,
#    and an unprivileged user binds no value of the default entropy range.

. "$(dirname "$0")/fabric.sh"

ICMP="python3 $(dirname "$0")/uet_icmp.py"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
LEN=262144
N=8

ktap_header
ktap_plan 14

uet_line A R B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
ip -n "$A" addr add 10.0.1.3/24 dev a-r
ip -n "$B" addr add 10.0.3.1/24 dev b-r
ip -n "$R" route add 10.0.3.0/24 via 10.0.2.1
ip -n "$R" link set r-b mtu 1280
ip -n "$B" link set b-r mtu 1280
# Neighbours resolved first: a first window queued behind ARP or ND
# overflows the queue, and its losses are no part of this test.
resolved()
{
	[ "$(ip -n "$A" neigh show dev a-r | grep -c lladdr)" -ge 2 ] &&
		[ "$(ip -n "$R" neigh show dev r-b | grep -c lladdr)" -ge 2 ]
}
for d in 10.0.2.1 fd02::1; do
	ip netns exec "$A" bash -c "echo >/dev/udp/$d/9" 2>/dev/null
done
uet_wait_until 10 resolved || echo "# neighbours not resolved"
# One entropy value, 300, for the IPv4 part; PDCs stay open to be shown.
"$UETCTL" -n "$A" set spray rr entropy-bits 0 start-port 300 pdc-idle 600s \
	>/dev/null || echo "# cannot configure A"
"$UETCTL" -n "$B" set pdc-idle 600s >/dev/null || echo "# cannot configure B"
out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT

# delta NAME BEFORE: how much A's counter NAME moved since BEFORE
# (uet_stats output).
delta()
{
	uet_stats_delta "$2" "$(uet_stats "$A")" "$1"
}

# pmtu DST: the path MTU of A's initiator PDC to DST, "none" if unset.
pmtu()
{
	"$UETCTL" -j -n "$A" pdc show | jq -r --arg d "$1" \
		'[.[] | select(.role == "initiator" and .raddr == $d)][0].pmtu // "none"'
}

# xfer NAME DST N: a transfer from A to B's DST of N messages of LEN, as
# one test point (B's receive buffer holds them all: this is no test of
# receive memory); prints B's refusals and A's retransmissions.
xfer()
{
	local a0 b0 a1 b1 n d=""

	a0=$(uet_stats "$A")
	b0=$(uet_stats "$B")
	uet_transfer "$1" "$B" "$A" "$2" "$3" -l $LEN -R 33554432 -- -l $LEN
	a1=$(uet_stats "$A")
	b1=$(uet_stats "$B")
	for n in retx_timeout retx_sack retx_nack retx_pmtu nack_rx; do
		d+=" $n +$(uet_stats_delta "$a0" "$a1" $n)"
	done
	d+=" | B:"
	for n in drop_rcvbuf drop_rx_mem drop_discarded drop_overlap \
		 drop_unaligned drop_duplicate drop_unknown_pdc; do
		d+=" $n +$(uet_stats_delta "$b0" "$b1" $n)"
	done
	echo "# A:$d"
}

# stop_listen: stop the listener; it prints what it counted.
stop_listen()
{
	kill "$LPID" 2>/dev/null
	wait "$LPID" 2>/dev/null
}

# listen SECONDS ADDR PORT...: A's error-queue listener in the background,
# its output in $out/listen; sets LPID.
listen()
{
	: >"$out/listen.err"
	ip netns exec "$A" $ICMP listen "$@" >"$out/listen" \
		2>"$out/listen.err" &
	LPID=$!
	# python starts slowly on the sanitizer kernel
	uet_wait_until 60 grep -q ready "$out/listen.err"
}

# check_claimed FAM BEFORE: one test point: A claimed errors, lowered a
# path MTU and resent at once.
check_claimed()
{
	local ic pu rp um

	ic=$(delta icmp_rx "$2")
	pu=$(delta pmtu_update "$2")
	rp=$(delta retx_pmtu "$2")
	um=$(delta icmp_unmatched "$2")
	echo "# IPv$1: icmp_rx +$ic pmtu_update +$pu retx_pmtu +$rp icmp_unmatched +$um"
	if [ "$ic" -gt 0 ] && [ "$pu" -ge 1 ] && [ "$rp" -gt 0 ]; then
		ktap_ok "IPv$1: errors claimed by uet, path MTU lowered, packets lost resent at once"
	else
		ktap_fail "IPv$1: errors claimed by uet, path MTU lowered, packets lost resent at once" \
			"icmp_rx +$ic pmtu_update +$pu retx_pmtu +$rp"
	fi
}

# 1. IPv4, with error-queue sockets on another address and another port.
listen 600 10.0.1.3 300 0.0.0.0 301 || echo "# listener did not start"
s0=$(uet_stats "$A")
xfer "IPv4: $N messages of $LEN through a hop of MTU 1280" 10.0.2.1 $N
check_claimed 4 "$s0"
uet_check_eq "$(pmtu 10.0.2.1)" 1280 "IPv4: the PDC's path MTU is 1280"
s1=$(uet_stats "$A")
xfer "IPv4: a second transfer" 10.0.2.1 $N
uet_check_eq "$(delta icmp_rx "$s1")" 0 "IPv4: its packets fit: no error"
stop_listen
uet_check_eq "$(awk '{ print $3 }' "$out/listen" | tr '\n' ' ')" "0 0 " \
	"sockets on another address or port than the entropy value get no error"

# 2. What is documented as not guaranteed: a socket bound to the wildcard
# on the entropy value takes the errors about packets sent from it, and
# uet does not see them.  The route's MTU (which the kernel lowers for
# any UDP error) still lets the transfer complete.
listen 600 0.0.0.0 300 || echo "# listener did not start"
s2=$(uet_stats "$A")
xfer "IPv4: a transfer to a new destination, the entropy value bound by another socket" \
	10.0.3.1 2
stop_listen
got=$(awk '{ print $3 }' "$out/listen")
echo "# the socket on 0.0.0.0:300 got ${got:-?} errors, uet's icmp_rx +$(delta icmp_rx "$s2")"
if [ "${got:-0}" -gt 0 ] && [ "$(delta icmp_rx "$s2")" = 0 ]; then
	ktap_ok "documented limit: a socket bound to the entropy value takes its errors, uet sees none"
else
	ktap_fail "documented limit: a socket bound to the entropy value takes its errors, uet sees none" \
		"socket got '${got}', icmp_rx +$(delta icmp_rx "$s2")"
fi

# 3. IPv6, the default entropy range.
"$UETCTL" -n "$A" set entropy-bits 7 start-port 256 >/dev/null
s3=$(uet_stats "$A")
xfer "IPv6: $N messages of $LEN through a hop of MTU 1280" fd02::1 $N
check_claimed 6 "$s3"
uet_check_eq "$(pmtu fd02::1)" 1280 "IPv6: the PDC's path MTU is 1280"

# 4. Forged errors: from R, quoting the live IPv4 PDC with a PSN not in
# flight, an unknown PDC, and only the UDP header.
lid=$("$UETCTL" -j -n "$A" pdc show | jq -r \
	'[.[] | select(.role == "initiator" and .raddr == "10.0.2.1")][0].lid // empty')
[ -n "$lid" ] || echo "# A has no PDC to 10.0.2.1 any more"
p4=$(pmtu 10.0.2.1)
s4=$(uet_stats "$A")
ip netns exec "$R" $ICMP forge 10.0.1.1 10.0.1.1 10.0.2.1 300 "${lid:-1}" 12345 600
ip netns exec "$R" $ICMP forge 10.0.1.1 10.0.1.1 10.0.2.1 300 4242 12345 600
ip netns exec "$R" $ICMP forge 10.0.1.1 10.0.1.1 10.0.2.1 300 "${lid:-1}" 12345 600 8
ip netns exec "$R" $ICMP forge fd01::1 fd01::1 fd02::1 300 4243 12345 1280
all_seen()
{
	[ "$(delta icmp_unmatched "$s4")" -ge 4 ]
}
uet_wait_until 5 all_seen
uet_check_eq "$(delta icmp_rx "$s4") $(delta icmp_unmatched "$s4") $(delta pmtu_update "$s4") $(delta retx_pmtu "$s4") $(pmtu 10.0.2.1)" \
	"4 4 0 0 $p4" "forged errors naming no packet in flight: claimed, counted unmatched, nothing changed"

# 5. The UET port is uet's alone; the default entropy range is privileged.
binds=""
for a in 0.0.0.0 10.0.1.1 :: fd01::1; do
	binds+="$(ip netns exec "$A" $ICMP bind $a 4793) "
done
uet_check_eq "$binds" "EADDRINUSE EADDRINUSE EADDRINUSE EADDRINUSE " \
	"no socket binds the UET port, with SO_REUSEADDR and SO_REUSEPORT"
uet_check_eq "$(ip netns exec "$A" "${NOBODY[@]}" $ICMP bindrange 0.0.0.0 256 383) $(ip netns exec "$A" "${NOBODY[@]}" $ICMP bindrange :: 256 383)" \
	"EACCES EACCES" "an unprivileged user binds no value of the default entropy range"
ktap_finished
