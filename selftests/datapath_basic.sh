#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# AF_UET messages from 1 byte to 8 MiB over IPv4 and IPv6, contents
# verified; many messages at once from several sockets to several
# destinations; a message to nobody and a message to an unreachable host
# reported back to the sender; a refused SYN's PSN filled once the target
# names a PDC; the counters agree.

. "$(dirname "$0")/fabric.sh"

SIZES="1 23 24 1416 1417 65536 1048576 8388608"

ktap_header
ktap_plan 27

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

# uetperf -N (the benchmarks' mode) writes and checks headers only: the
# messages still arrive whole and once, and a server that checks every
# byte refuses them (their checksum is 0).
uet_transfer "uetperf -N: 1 MiB messages, headers checked" "$B" "$A" \
	10.0.0.2 4 -l 1048576 -R 16777216 -N -- -l 1048576 -N
out=$(mktemp -d)
uet_server "$B" "$out/s" -n 2 -i 60 -l 70000
ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -J -n 2 -l 70000 -N \
	>"$out/c" 2>"$out/c.err"
wait "$UET_SERVER_PID"
uet_check_eq "$(uet_json "$out/s" messages)/$(uet_json "$out/s" errors)" \
	"2/2" "a checking server counts uetperf -N's messages as errors"
rm -rf "$out"

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

# A SYN to an unbound endpoint is refused by a target that keeps no PDC
# for it: the refused PSN's NOP waits until a PDC of the target is named
# (sent before, it could name none and was resent until max-retx gave the
# PDC up, failing every message queued on it meanwhile).  The next message
# goes on the same PDC, names the target's PDC, and the NOP fills the PSN.
pdc_field() # NS DST FIELD: FIELD of NS's PDC with DST
{
	"$UETCTL" -n "$1" pdc show "$2" |
		awk -v f="$3" '{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }'
}

filled()
{
	[ "$(pdc_field "$A" 10.0.0.3 next-psn)" = "$(pdc_field "$A" 10.0.0.3 ack-psn)" ]
}

BUF="python3 $(dirname "$0")/uet_sockbuf.py"
"$UETCTL" -n "$A" set pdc-idle 60s >/dev/null
uet_wait_until 15 uet_no_pdc "$A" 10.0.0.3 ||
	echo "# A still has a PDC with C"
m0=$(uet_stats "$A")
r=$(ip netns exec "$A" $BUF send 10.0.0.3 999 1000 2>/dev/null)
m1=$(uet_stats "$A")
id=$(pdc_field "$A" 10.0.0.3 pdc)
uet_check_eq "$r, resent $(uet_stats_delta "$m0" "$m1" retx_nack)+$(uet_stats_delta "$m0" "$m1" retx_timeout), pdc ${id:+kept}" \
	"1000 ECONNREFUSED(1000), resent 0+0, pdc kept" \
	"a refused SYN: reported, its PSN not resent, the PDC kept"
ip netns exec "$C" $BUF recv 100 0 1 30 >"$out/n" 2>"$out/n.err" &
rcv=$!
uet_wait_until 60 grep -q ready "$out/n.err" || echo "# receiver not ready"
r=$(ip netns exec "$A" $BUF send 10.0.0.3 100 1000 2>/dev/null)
wait "$rcv"
uet_check_eq "$r, $(cat "$out/n"), pdc $(pdc_field "$A" 10.0.0.3 pdc)" \
	"1000 ok, len 1000 ok, pdc $id" \
	"the next message goes on the same PDC and arrives"
if uet_wait_until 10 filled; then
	ktap_ok "the refused PSN is filled"
else
	ktap_fail "the refused PSN is filled" "$("$UETCTL" -n "$A" pdc show 10.0.0.3)"
fi
# With nothing left but such a PSN, a PDC closes once idle.
"$UETCTL" -n "$A" set pdc-idle 1s >/dev/null
uet_wait_until 15 uet_no_pdc "$A" 10.0.0.2 ||
	echo "# A still has a PDC with B"
ip netns exec "$A" $BUF send 10.0.0.2 999 1000 >/dev/null 2>&1
if uet_wait_until 15 uet_no_pdc "$A" 10.0.0.2; then
	ktap_ok "a PDC left with a refused SYN's PSN closes when idle"
else
	ktap_fail "a PDC left with a refused SYN's PSN closes when idle" \
		"$("$UETCTL" -n "$A" pdc show 10.0.0.2)"
fi

# Counters: what A sent is what B and C delivered.
done_a=$(uet_stat "$A" tx_messages_done)
rx=$(( $(uet_stat "$B" rx_messages) + $(uet_stat "$C" rx_messages) ))
uet_check_eq "$done_a" "$rx" "messages acknowledged = messages delivered"
rm -rf "$out"

ktap_finished
