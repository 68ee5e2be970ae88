#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Admission before state, input and feedback hygiene, with hand-made
# packets (selftests/uet_inject.py) from A to B:
#  - a SYN to an endpoint nobody binds opens no PDC;
#  - a SYN flood from one source stops at that source's limit, and one
#    from thousands of forged sources is evicted by a new PDC: in both,
#    another source opens a PDC and delivers its messages intact;
#  - a SYN with a live PDC's key outside its window is challenged, and
#    the PDC stays;
#  - broadcast, multicast and IPv4-mapped sources are dropped;
#  - ACKs and NACKs for PSNs never sent change nothing and are counted;
#  - SO_SNDBUF bounds a message; shutdown(SHUT_WR) stops sending.

. "$(dirname "$0")/fabric.sh"

INJECT="python3 $(dirname "$0")/uet_inject.py"

ktap_header
ktap_plan 15

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
ip -n "$A" addr add 10.0.0.3/24 dev va
ip -n "$A" addr add 10.0.0.4/24 dev va
ip -n "$B" route add 10.99.0.0/16 via 10.0.0.1
# B's PDCs outlive the script: part 6 checks that its initiator PDC is
# still there after the forged feedback, minutes later on the sanitizer
# kernel
"$UETCTL" -n "$B" set pdc-idle 600s >/dev/null
out=$(mktemp -d)
uet_server "$B" "$out/s" -i 600 || echo "# server did not start"
srv=$UET_SERVER_PID

# inject CASE [COUNT]: from A to B.
inject()
{
	ip netns exec "$A" $INJECT 10.0.0.2 "$@"
}

# grew NS COUNTER BEFORE DELTA: COUNTER of NS is at least BEFORE + DELTA.
grew()
{
	[ "$(uet_stat "$1" "$2")" -ge $(($3 + $4)) ]
}

# expect_grow NAME NS COUNTER BEFORE DELTA: one test point.
expect_grow()
{
	if uet_wait_until 10 grew "$2" "$3" "$4" "$5"; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "$3 went from $4 to $(uet_stat "$2" "$3"), want +$5"
	fi
}

# 1. No state for an unbound endpoint.
opened=$(uet_stat "$B" pdc_opened)
ne=$(uet_stat "$B" drop_no_endpoint)
inject unbound 20 || echo "# injector failed"
expect_grow "SYNs to an unbound endpoint: drop_no_endpoint" "$B" \
	drop_no_endpoint "$ne" 20
uet_check_eq "$(uet_stat "$B" pdc_opened) $("$UETCTL" -j -n "$B" pdc show | jq length)" \
	"$opened 0" "SYNs to an unbound endpoint opened no PDC"

# 2. One source floods: its limit, and another source is served.
sl=$(uet_stat "$B" drop_src_limit)
UET_SRC=10.0.0.3 inject srcflood 2000 || echo "# injector failed"
expect_grow "a flood from one source stops at its limit: drop_src_limit" \
	"$B" drop_src_limit "$sl" $((2000 - 256))
# B counts target PDCs per slot of a seeded hash of the source (256
# slots), so in one boot of 256 10.0.0.1 shares the flooder's slot and is
# refused with it.  The point is about a source in another slot: one
# message from 10.0.0.1 refused at the limit moves it to 10.0.0.4.
src=10.0.0.1
sl=$(uet_stat "$B" drop_src_limit)
if ! ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -B "$src" -n 1 -l 100 \
	>/dev/null 2>&1 && [ "$(uet_stat "$B" drop_src_limit)" -gt "$sl" ]; then
	echo "# $src shares 10.0.0.3's slot at B; sending from 10.0.0.4"
	src=10.0.0.4
fi
uet_transfer "another source delivers while one floods" "$B" "$A" \
	10.0.0.2 50 -e 101 -l 100000 -- -B "$src" -p 101 -l 1-100000

# 3. Forged sources fill the table: PDCs that never took a packet go.
ev=$(uet_stat "$B" pdc_evicted)
inject spoofflood 5000 || echo "# injector failed"
uet_transfer "a new source delivers with the table full of a flood" "$B" \
	"$A" 10.0.0.2 50 -e 102 -l 100000 -- -p 102 -l 1-100000
expect_grow "the flood's PDCs were evicted for it: pdc_evicted" "$B" \
	pdc_evicted "$ev" 1

# 4. Blind SYNs with a live PDC's key: challenged, the PDC stays.
ch=$(uet_stat "$B" drop_syn_challenged)
opened=$(uet_stat "$B" pdc_opened)
rx=$(uet_stat "$B" rx_packets)
inject blindsyn 5 || echo "# injector failed"
expect_grow "blind SYNs outside the window: drop_syn_challenged" "$B" \
	drop_syn_challenged "$ch" 5
uet_wait_until 10 grew "$B" rx_packets "$rx" 2
uet_check_eq "$(($(uet_stat "$B" pdc_opened) - opened)) $(($(uet_stat "$B" rx_packets) - rx))" \
	"1 2" "the live PDC stays and takes its next PSN"

# 5. Only unicast to this host, no IPv4-mapped source.
nh=$(uet_stat "$B" drop_not_host)
ip netns exec "$A" $INJECT 10.0.0.255 bcast 3 || echo "# injector failed"
expect_grow "broadcast and multicast: drop_not_host" "$B" drop_not_host \
	"$nh" 6
vm=$(uet_stat "$B" drop_v4mapped)
ip netns exec "$A" $INJECT fd00::2 v4mapped 3 || echo "# injector failed"
expect_grow "IPv4-mapped source over IPv6: drop_v4mapped" "$B" \
	drop_v4mapped "$vm" 3

# 6. Feedback for PSNs never sent changes nothing.  B opens an initiator
# PDC to A, which delivers a message; then A forges ACKs and NACKs to it.
uet_transfer "B sends to A" "$A" "$B" 10.0.0.1 1 -e 103 -l 1000 -- \
	-p 103 -l 1000
pdc=$("$UETCTL" -j -n "$B" pdc show | jq -c '.[] | select(.role == "initiator")' | head -n 1)
lid=$(echo "$pdc" | jq -r .lid)
rid=$(echo "$pdc" | jq -r .rid)
au=$(uet_stat "$B" drop_ack_unsent)
nu=$(uet_stat "$B" drop_nack_unsent)
ack=$(uet_stat "$B" ack_rx)
nack=$(uet_stat "$B" nack_rx)
UET_RID=${rid:-1} ip netns exec "$A" $INJECT 10.0.0.2 forged "${lid:-1}" ||
	echo "# injector failed"
expect_grow "ACKs for PSNs never sent: drop_ack_unsent" "$B" \
	drop_ack_unsent "$au" 4
expect_grow "NACKs for PSNs never sent: drop_nack_unsent" "$B" \
	drop_nack_unsent "$nu" 8
uet_check_eq "$(($(uet_stat "$B" ack_rx) - ack)) $(($(uet_stat "$B" nack_rx) - nack)) $("$UETCTL" -j -n "$B" pdc show | jq '[.[] | select(.role == "initiator")] | length')" \
	"0 0 1" "forged feedback is not counted as feedback and closes nothing"

# 7. The send budget, and shutdown(SHUT_WR).
uet_check_eq "$(ip netns exec "$A" $INJECT 10.0.0.2 sendmem 2>&1)" \
	"EMSGSIZE EPIPE" "9 MiB over a 64 KiB SO_SNDBUF: EMSGSIZE; after SHUT_WR: EPIPE"

kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null
rm -rf "$out"
ktap_finished
