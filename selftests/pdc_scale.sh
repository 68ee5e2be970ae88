#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# State at scale: A opens PDCs to 1000 destinations, each an address of B
# (a dummy device), from 16 source addresses (B admits at most 256 target
# PDCs per hashed source: one source would stop at that).
#
#   A  lo: 10.4.0.1 .. 10.4.0.16      B  d0: 10.3.0.1 .. 10.3.3.232
#      va 10.0.0.1 ------------------- vb 10.0.0.2
#      10.3.I.J/26 via 10.0.0.2 src 10.4.0.K;   10.4/16 via 10.0.0.1
#
# Reported: kernel memory per destination while its PDCs are open (the
# slab deltas, /proc/slabinfo active objects times object size, A's
# initiator and B's target side together, and the caches that grew most)
# and the time of a `uetctl pdc show` dump of the 1000 initiator PDCs.
# Checked: every message delivered, one initiator PDC per destination,
# the dump lists them all, and once every PDC closed uet's objects per
# destination are freed (Documentation/datapath.rst: after a close only
# the last PSN stays, in a fixed table).

. "$(dirname "$0")/fabric.sh"

API="python3 $(dirname "$0")/uet_api.py"
N=1000

ktap_header
ktap_plan 5

out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT

# slab_bytes: bytes of active slab objects, every cache.
slab_bytes()
{
	awk 'NR > 2 { s += $2 * $4 } END { printf "%d\n", s }' /proc/slabinfo
}

# slab_snap FILE: active bytes per cache into FILE.
slab_snap()
{
	awk 'NR > 2 { print $1, $2 * $4 }' /proc/slabinfo >"$1"
}

# grown BEFORE AFTER: the six caches grown most between two slab_snap
# files, in bytes per destination.
grown()
{
	sort "$1" >"$1.s"
	sort "$2" >"$2.s"
	join "$1.s" "$2.s" |
		awk -v n=$N '{ d = $3 - $2; if (d > 0) printf "%d %s\n", d / n, $1 }' |
		sort -rn | head -n 6 | sed 's/^/#   /'
}

# closed NS: no PDC of either role open in NS.
closed()
{
	[ "$(uet_stat "$1" pdc_active)" = 0 ]
}

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
ip -n "$B" link add d0 type dummy && ip -n "$B" link set d0 up ||
	echo "# cannot add the dummy device"
for ((i = 1; i <= N; i++)); do
	echo "address add 10.3.$((i / 256)).$((i % 256))/32 dev d0" >>"$out/b.batch"
done
# one source per /26 of destinations: 16 routes, 64 PDCs a source
for ((i = 0; i < 16; i++)); do
	echo "address add 10.4.0.$((i + 1))/32 dev lo" >>"$out/a.batch"
	echo "route add 10.3.$((i / 4)).$((i % 4 * 64))/26 via 10.0.0.2 src 10.4.0.$((i + 1))" \
		>>"$out/a.routes"
done
ip -n "$B" -batch "$out/b.batch" && ip -n "$A" -batch "$out/a.batch" &&
	ip -n "$A" -batch "$out/a.routes" &&
	ip -n "$B" route add 10.4.0.0/16 via 10.0.0.1 ||
	echo "# cannot add the addresses and routes"
"$UETCTL" -n "$A" set pdc-idle 60s >/dev/null || echo "# cannot configure A"
"$UETCTL" -n "$B" set pdc-idle 15s >/dev/null || echo "# cannot configure B"

# PDCs idle 60 s (B: 4 x 15 s): open while measured, closed soon after.
# the server counts the 10-byte messages as malformed: B's rx_messages
# is what is checked
uet_server "$B" "$out/s" -i 600 -l 64 || echo "# server did not start"
m0=$(uet_stat "$B" rx_messages)
slab_snap "$out/before"
b0=$(slab_bytes)
t0=$SECONDS
sent=$(ip netns exec "$A" $API fanout 1 10.3 $N 2>&1)
delivered()
{
	[ "$(($(uet_stat "$B" rx_messages) - m0))" -ge "$N" ] &&
		[ "$(uet_stat "$A" tx_messages)" = \
		  "$(uet_stat "$A" tx_messages_done)" ]
}
uet_wait_until 300 delivered
echo "# sent and delivered in $((SECONDS - t0)) s"
b1=$(slab_bytes)
slab_snap "$out/after"
uet_check_eq "$sent $(($(uet_stat "$B" rx_messages) - m0)) $(uet_stat "$A" tx_messages_failed)" \
	"$N none $N 0" "$N messages to $N destinations, each delivered"

per=$(((b1 - b0) / N))
echo "# kernel memory per destination, both sides, PDCs open: $per bytes (slab $b0 -> $b1)"
echo "# caches grown most (bytes per destination):"
grown "$out/before" "$out/after"

start=$(date +%s%N)
"$UETCTL" -j -n "$A" pdc show >"$out/dump"
ms=$((($(date +%s%N) - start) / 1000000))
echo "# uetctl pdc show of $N initiator PDCs: $ms ms"
uet_check_eq "$(jq '[.[] | select(.role == "initiator")] | length' "$out/dump")" \
	"$N" "the dump lists one initiator PDC per destination"
uet_check_eq "$(jq '[.[] | select(.role == "initiator") | .raddr] | unique | length' "$out/dump")" \
	"$N" "... each to its own destination"

kill "$UET_SERVER_PID" 2>/dev/null
wait "$UET_SERVER_PID" 2>/dev/null
if uet_wait_until 300 closed "$A" && uet_wait_until 300 closed "$B"; then
	ktap_ok "every PDC closed when idle"
else
	ktap_fail "every PDC closed when idle" \
		"A $(uet_stat "$A" pdc_active) B $(uet_stat "$B" pdc_active) open"
fi
# What stays: uet's own per-destination objects all freed (spraying state
# created = freed), and the slab within 2 KiB per destination of where it
# was, against about 14 KiB while open.  Slab figures also hold objects
# freed into per-CPU slabs and what the rest of the stack keeps of 1000
# new peers, so the bound catches a PDC's window ring (8 KiB) or route
# cache (4 KiB) kept, not a few bytes.
kept()
{
	[ $((($(slab_bytes) - b0) / N)) -le 2048 ]
}
uet_wait_until 30 kept
b2=$(slab_bytes)
slab_snap "$out/closed"
echo "# kept per destination after every PDC closed: $(((b2 - b0) / N)) bytes (slab $b2), grown most:"
grown "$out/before" "$out/closed"
uet_check_eq "$(uet_stat "$A" spray_created) $(($(uet_stat "$A" spray_freed) - $(uet_stat "$A" spray_created))) $([ $(((b2 - b0) / N)) -le 2048 ] && echo within)" \
	"$N 0 within" "after the close: every destination's state freed, slab within 2 KiB per destination"
ktap_finished
