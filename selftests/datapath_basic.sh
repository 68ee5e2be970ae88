#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# AF_UET messages from 1 byte to 8 MiB over IPv4 and IPv6, contents
# verified; many messages at once from several sockets to several
# destinations; a message to nobody and a message to an unreachable host
# reported back to the sender; the counters agree.

. "$(dirname "$0")/fabric.sh"

SIZES="1 23 24 1416 1417 65536 1048576 8388608"

ktap_header
ktap_plan 21

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
# a third namespace on B's link, a second destination
uet_netns_new C
uet_ns_quiet "$C"
ip -n "$B" link add br0 type bridge
ip -n "$B" link set br0 up
ip -n "$B" addr flush dev vb
ip -n "$B" link set vb master br0
uet_addr "$B" br0 10.0.0.2/24 fd00::2/64
uet_link "$B" vc "$C" vc0
ip -n "$B" link set vc master br0
uet_addr "$C" vc0 10.0.0.3/24 fd00::3/64

for fam in 4 6; do
	dst=10.0.0.2
	[ $fam = 6 ] && dst=fd00::2
	for len in $SIZES; do
		n=4
		[ "$len" -ge 1048576 ] && n=2
		uet_transfer "IPv$fam $len-byte messages" "$B" "$A" "$dst" $n \
			-l "$len" -R 16777216 -- -l "$len"
	done
done

# Several sockets, several destinations, many messages in flight.
out=$(mktemp -d)
uet_server "$B" "$out/b" -n 200 -i 60 -l 100000 && b=$UET_SERVER_PID
uet_server "$C" "$out/c" -n 200 -i 60 -l 100000 && c=$UET_SERVER_PID
ip netns exec "$A" "$UETPERF" -c 10.0.0.2,fd00::3 -J -n 100 -P 4 \
	-l 1-100000 >"$out/a" 2>"$out/a.err"
wait "$b" "$c"
got=$(( $(uet_json "$out/b" messages) + $(uet_json "$out/c" messages) ))
bad=$(( $(uet_json "$out/b" errors) + $(uet_json "$out/c" errors) +
	$(uet_json "$out/b" duplicates) + $(uet_json "$out/c" duplicates) +
	$(uet_json "$out/a" errors) ))
if [ "$got/$bad" != 400/0 ]; then
	for f in b c a; do
		echo "# $f: messages $(uet_json "$out/$f" messages) errors $(uet_json "$out/$f" errors) duplicates $(uet_json "$out/$f" duplicates)"
	done
	sort "$out/a.err" | uniq -c | head -5 | sed 's/^/# sender: /'
	ip netns exec "$A" cat /proc/net/uet_stat | grep -E 'retx|give|fail|timeout' | tr '\n' ' ' | sed 's/^/# A: /'
	echo
fi
uet_check_eq "$got/$bad" "400/0" \
	"4 sockets to 2 destinations, 400 messages, all intact once"
uet_check_eq "$(uet_json "$out/b" streams)/$(uet_json "$out/c" streams)" \
	"4/4" "every socket reached both destinations"

# Nobody bound at the destination: the sender hears ECONNREFUSED.
ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -p 999 -J -n 3 -l 5000 \
	>"$out/r" 2>"$out/r.err"
uet_check_eq "$(uet_json "$out/r" errors)/$(grep -c 'Connection refused' "$out/r.err")" \
	"3/3" "messages to an unbound endpoint are reported refused"

# A host that never answers: retransmissions run out, ETIMEDOUT.
ip netns exec "$A" "$UETPERF" -c 10.0.0.99 -J -n 1 -l 3000 \
	>"$out/t" 2>"$out/t.err"
uet_check_eq "$(uet_json "$out/t" errors)/$(grep -c -e 'timed out' -e 'No route' "$out/t.err")" \
	"1/1" "a message to a silent host is given up and reported"

# Counters: what A sent is what B and C delivered.
done_a=$(uet_stat "$A" tx_messages_done)
rx=$(( $(uet_stat "$B" rx_messages) + $(uet_stat "$C" rx_messages) ))
uet_check_eq "$done_a" "$rx" "messages acknowledged = messages delivered"
rm -rf "$out"

ktap_finished
