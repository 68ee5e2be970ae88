#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sender's own ECMP choice and its route cache. The sender reaches
# the receiver over four equal-cost links and hashes on the L4 5-tuple
# (fib_multipath_hash_policy=1), so each entropy value (UDP source port)
# picks its link in the sender's FIB. Per family:
#  - an rr transfer uses every link;
#  - every value went out on exactly the link `ip route get ... sport`
#    names for it: the routes are cached per value, not per destination;
#  - the FIB was consulted about once per value, not once per packet, by
#    A for its data; B, whose FIB hashes addresses only (policy 0) and
#    has one route to A, about once in all for its ACKs, which leave on
#    the values of the packets that drew them;
#  - after the route changes (one link taken out of the multipath route)
#    the next transfer, on the same PDC, uses no cached route through
#    the link taken out;
#  - once A's hash leaves the ports out too (policy 0), its next
#    transfer on the same PDC, after a route change, takes one route for
#    all its values: a handful of lookups, not one per value;
#  - a socket bound to the wildcard address keeps the route that chose
#    its source address, and leaves from the new source once the route
#    names another; one that sends to IPv4 and then IPv6 picks each
#    family's source.
#
#   A 10.9.0.1 fd09::1 (lo) ==== a1..a4 / b1..b4 ==== B 10.9.0.2 fd09::2 (lo)

. "$(dirname "$0")/fabric.sh"

LINKS=4
# 3 MiB in messages of 9 packets: B acknowledges each message's end at
# once (no ack-delay), so that its ACKs outnumber the 128 values
N=256
LEN=12288

ktap_header
ktap_plan 14
API="python3 $(dirname "$0")/uet_api.py"

setup()
{
	local i nh4=() nh6=()

	uet_netns_new A && uet_netns_new B || return 1
	uet_ns_quiet "$A"
	uet_ns_quiet "$B"
	ip netns exec "$A" sysctl -q -w net.ipv4.fib_multipath_hash_policy=1 \
		net.ipv6.fib_multipath_hash_policy=1 >/dev/null || return 1
	ip netns exec "$B" sh -c 'for k in all default; do
		sysctl -q -w net.ipv4.conf.$k.rp_filter=0; done' >/dev/null
	ip -n "$A" addr add 10.9.0.1/32 dev lo &&
		ip -n "$A" addr add fd09::1/128 dev lo &&
		ip -n "$B" addr add 10.9.0.2/32 dev lo &&
		ip -n "$B" addr add fd09::2/128 dev lo || return 1
	for i in $(seq 1 $LINKS); do
		uet_link "$A" a$i "$B" b$i &&
			uet_addr "$A" a$i 10.20.$i.1/24 fd20:$i::1/64 &&
			uet_addr "$B" b$i 10.20.$i.2/24 fd20:$i::2/64 ||
			return 1
		nh4+=(nexthop via 10.20.$i.2 dev a$i)
		nh6+=(nexthop via fd20:$i::2 dev a$i)
	done
	NH4=("${nh4[@]}")
	NH6=("${nh6[@]}")
	ip -n "$A" route add 10.9.0.2/32 src 10.9.0.1 "${nh4[@]}" &&
		ip -n "$A" -6 route add fd09::2/128 src fd09::1 "${nh6[@]}" &&
		ip -n "$B" route add 10.9.0.1/32 via 10.20.1.1 &&
		ip -n "$B" -6 route add fd09::1/128 via fd20:1::1 || return 1
	# one PDC per family for the whole test: its cache outlives the
	# route change
	"$UETCTL" -n "$A" set spray rr pdc-idle 600s >/dev/null &&
		"$UETCTL" -n "$B" set pdc-idle 600s >/dev/null
}

# capture_start DIR: record the UET packets A sends on every link (B's
# ACKs come back on a1).
capture_start()
{
	local i

	CAP_PIDS=()
	for i in $(seq 1 $LINKS); do
		ip netns exec "$A" tcpdump -i a$i -Q out -nn -s 96 -w "$1/a$i.pcap" \
			udp dst port 4793 2>"$1/a$i.err" &
		CAP_PIDS+=($!)
	done
	for i in $(seq 1 $LINKS); do
		uet_wait_until 10 grep -q listening "$1/a$i.err" || return 1
	done
}

capture_stop()
{
	sleep 0.5
	kill "${CAP_PIDS[@]}" 2>/dev/null
	wait "${CAP_PIDS[@]}" 2>/dev/null
}

# sports DIR I: the UDP source ports of the captured data on link I, one
# per line, with repeats.
sports()
{
	tcpdump -r "$1/a$2.pcap" -nn 2>/dev/null |
		sed -n 's/.* IP6\{0,1\} [0-9a-f.:]*\.\([0-9]*\) > .*/\1/p'
}

# transfer DST: N messages of LEN bytes from A to B; fails unless every
# one arrived intact.
transfer()
{
	local out rc=0

	out=$(mktemp -d)
	uet_server "$B" "$out/s" -n $N -i 60 -l $LEN -R 8388608 || return 1
	ip netns exec "$A" "$UETPERF" -c "$1" -J -n $N -l $LEN -S 8388608 \
		>"$out/c" 2>"$out/c.err"
	wait "$UET_SERVER_PID" || rc=1
	[ "$(uet_json "$out/s" messages)" = $N ] &&
		[ "$(uet_json "$out/s" errors)" = 0 ] &&
		[ "$(uet_json "$out/c" errors)" = 0 ] || rc=1
	rm -rf "$out"
	return $rc
}

# check_paths FAM DIR: every value went out on one link only, the one
# the FIB gives it, and every link carried some.
check_paths()
{
	local fam=$1 dir=$2 i p bad=0 dup=0 idle=0 vals=0 dst=10.9.0.2
	local src=10.9.0.1 got ports links
	declare -A link_of

	[ "$fam" = 6 ] && dst=fd09::2 && src=fd09::1
	for i in $(seq 1 $LINKS); do
		got=$(sports "$dir" $i | sort -un)
		[ -n "$got" ] || idle=$((idle + 1))
		for p in $got; do
			if [ -n "${link_of[$p]:-}" ]; then
				dup=$((dup + 1))
				continue
			fi
			link_of[$p]=a$i
			vals=$((vals + 1))
		done
	done
	# the FIB's link for every value, all looked up by one `ip -batch`
	# rather than one `ip` per value, 128 processes under TCG; a value whose
	# answer is missing counts as bad
	declare -A fib_of
	ports=("${!link_of[@]}")
	links=($(for p in "${ports[@]}"; do
			echo "route get $dst from $src ipproto udp sport $p dport 4793"
		 done | ip -n "$A" -$fam -batch - 2>/dev/null |
		 sed -n 's/.* dev \(a[0-9]*\) .*/\1/p'))
	if [ ${#links[@]} = ${#ports[@]} ]; then
		for i in "${!ports[@]}"; do
			fib_of[${ports[$i]}]=${links[$i]}
		done
	fi
	for p in "${ports[@]}"; do
		[ "${fib_of[$p]:-}" = "${link_of[$p]}" ] || bad=$((bad + 1))
	done
	if [ $vals -ge 128 ] && [ $idle = 0 ] && [ $dup = 0 ] && [ $bad = 0 ]; then
		ktap_ok "IPv$fam every value on its own link, the one the FIB hashes it to"
	else
		ktap_fail "IPv$fam every value on its own link, the one the FIB hashes it to" \
			"$vals values; $idle links unused; $dup values on two links; $bad not on their FIB link"
	fi
}

# src_change FAM: one socket of A bound to any address sends to B, the
# route to B then names a new source address, and the socket sends again:
# B must see that message come from the new address.
src_change()
{
	local fam=$1 dst=10.9.0.2 new=10.9.0.3 out rcv snd want

	[ "$fam" = 6 ] && dst=fd09::2 && new=fd09::3
	out=$(mktemp -d)
	mkfifo "$out/go"
	ip -n "$A" addr add "$new" dev lo &&
		ip -n "$B" route add "$new" via "$(b_gw "$fam")" ||
		echo "# could not add $new"
	ip netns exec "$B" $API recv 100 20 0 2 >"$out/recv" 2>"$out/recv.err" &
	rcv=$!
	uet_wait_until 60 grep -q ready "$out/recv.err" || echo "# receiver not ready"
	ip netns exec "$A" $API twice "$dst" <"$out/go" >"$out/send" 2>&1 &
	snd=$!
	exec 7>"$out/go"
	uet_wait_until 10 grep -q . "$out/send" || echo "# first send did not return"
	# the three links left after link 4 was taken out (5 words each)
	if [ "$fam" = 4 ]; then
		ip -n "$A" route replace 10.9.0.2/32 src "$new" "${NH4[@]:0:15}"
	else
		ip -n "$A" -6 route del fd09::2/128
		ip -n "$A" -6 route add fd09::2/128 src "$new" "${NH6[@]:0:15}"
	fi
	echo >&7
	exec 7>&-
	wait "$snd"
	wait "$rcv"
	want="$dst -> $new "
	if [ "$(tr '\n' ' ' <"$out/send")" = "ok ok " ] &&
	   [ "$(grep -c '^len 10 ' "$out/recv")" = 2 ] &&
	   "$UETCTL" -n "$B" pdc show | grep -qF -- "$want"; then
		ktap_ok "IPv$fam a wildcard socket's next message leaves from the source its route names now"
	else
		ktap_fail "IPv$fam a wildcard socket's next message leaves from the source its route names now" \
			"send: $(tr '\n' ' ' <"$out/send"); recv: $(tr '\n' ' ' <"$out/recv"); B's PDCs: $("$UETCTL" -n "$B" pdc show | tr '\n' ';')"
	fi
	rm -rf "$out"
}

# One socket of A bound to any address sends to B over IPv4, then over
# IPv6: the second message must not take the first one's source.
two_families()
{
	local out rcv

	out=$(mktemp -d)
	ip netns exec "$B" $API recv 100 20 0 2 >"$out/recv" 2>"$out/recv.err" &
	rcv=$!
	uet_wait_until 60 grep -q ready "$out/recv.err" || echo "# receiver not ready"
	echo | ip netns exec "$A" $API twice 10.9.0.2 fd09::2 >"$out/send" 2>&1
	wait "$rcv"
	if [ "$(tr '\n' ' ' <"$out/send")" = "ok ok " ] &&
	   [ "$(grep -c '^len 10 ' "$out/recv")" = 2 ]; then
		ktap_ok "a wildcard socket sends to IPv4 then IPv6, each from its family's source"
	else
		ktap_fail "a wildcard socket sends to IPv4 then IPv6, each from its family's source" \
			"send: $(tr '\n' ' ' <"$out/send"); recv: $(tr '\n' ' ' <"$out/recv")"
	fi
	rm -rf "$out"
}

# b_gw FAM: B's next hop towards A
b_gw()
{
	if [ "$1" = 4 ]; then echo 10.20.1.1; else echo fd20:1::1; fi
}

if ! setup; then
	echo "# setup failed"
	exit "$KSFT_FAIL"
fi

for fam in 4 6; do
	dst=10.9.0.2
	[ $fam = 6 ] && dst=fd09::2
	cap=$(mktemp -d)

	l0=$(uet_stat "$A" tx_route_lookups)
	p0=$(uet_stat "$A" tx_packets)
	bl0=$(uet_stat "$B" tx_route_lookups)
	ba0=$(uet_stat "$B" ack_tx)
	capture_start "$cap" || echo "# capture did not start"
	transfer "$dst"
	rc=$?
	capture_stop
	if [ $rc = 0 ]; then
		ktap_ok "IPv$fam transfer over four equal-cost links"
	else
		ktap_fail "IPv$fam transfer over four equal-cost links"
	fi
	check_paths $fam "$cap"

	# 128 rr values, a route each; a probe or a CLOSE may add a few
	lookups=$(($(uet_stat "$A" tx_route_lookups) - l0))
	pkts=$(($(uet_stat "$A" tx_packets) - p0))
	if [ "$pkts" -ge 1000 ] && [ "$lookups" -le 160 ]; then
		ktap_ok "IPv$fam routes cached: $lookups FIB lookups for $pkts packets"
	else
		ktap_fail "IPv$fam routes cached" "$lookups FIB lookups for $pkts packets"
	fi

	# an ACK per message and per 32 packets, on A's 128 values; B's hash
	# leaves the ports out, so one route serves them all
	lookups=$(($(uet_stat "$B" tx_route_lookups) - bl0))
	acks=$(($(uet_stat "$B" ack_tx) - ba0))
	if [ "$acks" -ge 200 ] && [ "$lookups" -le 4 ]; then
		ktap_ok "IPv$fam ACK routes cached: $lookups FIB lookups for $acks ACKs"
	else
		ktap_fail "IPv$fam ACK routes cached" "$lookups FIB lookups for $acks ACKs"
	fi

	# Take link 4 out: the cached routes through it must go.
	if [ $fam = 4 ]; then
		ip -n "$A" route replace 10.9.0.2/32 src 10.9.0.1 "${NH4[@]:0:15}"
	else
		ip -n "$A" -6 route del fd09::2/128
		ip -n "$A" -6 route add fd09::2/128 src fd09::1 "${NH6[@]:0:15}"
	fi
	opened=$(uet_stat "$A" pdc_opened)
	rm -f "$cap"/*.pcap "$cap"/*.err
	capture_start "$cap" || echo "# capture did not start"
	transfer "$dst"
	rc=$?
	capture_stop
	on4=$(sports "$cap" 4 | wc -l)
	used=$(for i in 1 2 3; do sports "$cap" $i; done | wc -l)
	if [ $rc = 0 ] && [ "$on4" = 0 ] && [ "$used" -gt 0 ] &&
	   [ "$(uet_stat "$A" pdc_opened)" = "$opened" ]; then
		ktap_ok "IPv$fam route change: the same PDC leaves the link taken out"
	else
		ktap_fail "IPv$fam route change: the same PDC leaves the link taken out" \
			"transfer rc $rc; $on4 packets on a4, $used on a1-a3; PDCs opened $opened -> $(uet_stat "$A" pdc_opened)"
	fi
	rm -rf "$cap"
done

# A's hash without the ports, and link 4 back (which invalidates every
# cached route): the same PDC's next transfer looks its one route up about
# once, where a route per value would cost a lookup per value again.
ip netns exec "$A" sysctl -q -w net.ipv4.fib_multipath_hash_policy=0 >/dev/null
ip -n "$A" route replace 10.9.0.2/32 src 10.9.0.1 "${NH4[@]}"
l0=$(uet_stat "$A" tx_route_lookups)
p0=$(uet_stat "$A" tx_packets)
transfer 10.9.0.2
rc=$?
lookups=$(($(uet_stat "$A" tx_route_lookups) - l0))
pkts=$(($(uet_stat "$A" tx_packets) - p0))
if [ $rc = 0 ] && [ "$pkts" -ge 1000 ] && [ "$lookups" -le 4 ]; then
	ktap_ok "hash without ports: one route for every value, $lookups FIB lookups for $pkts packets"
else
	ktap_fail "hash without ports: one route for every value" \
		"transfer rc $rc; $lookups FIB lookups for $pkts packets"
fi

two_families
for fam in 4 6; do
	src_change $fam
done

ktap_finished
