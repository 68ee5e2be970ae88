#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Interoperability and API conformance: a peer sending UDP checksums of 0,
# as UET 1.0 does, is heard over IPv4 and IPv6, and dropped and counted
# with `udp-csum rx-zero drop`; `udp-csum tx off` puts 0 on the wire;
# the checksum of data packets whose payload is page fragments is right
# when the stack computes it in software (no tx offload); suet_scope_id
# must be zero; a message to an unroutable address fails at once; CTRL
# CLOSE leaves on an entropy value of the namespace's range.

. "$(dirname "$0")/fabric.sh"

API="python3 $(dirname "$0")/uet_api.py"
INJECT="python3 $(dirname "$0")/uet_inject.py"
# "zero-checksum", the payload uet_inject.py zerocsum sends
ZC_HEX=7a65726f2d636865636b73756d

ktap_header
ktap_plan 26

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT

# recv_start NS [TIMEOUT [FLAGS [COUNT]]]: an AF_UET receiver on endpoint
# 100 in NS for COUNT (1) messages, read with recv() FLAGS (0), or TIMEOUT
# (30) seconds; sets RECV_PID.
recv_start()
{
	: >"$out/recv.err"
	ip netns exec "$1" $API recv 100 "${2:-30}" "${3:-0}" "${4:-1}" \
		>"$out/recv" 2>"$out/recv.err" &
	RECV_PID=$!
	uet_wait_until 60 grep -q ready "$out/recv.err"
}

# --- zero UDP checksums on receive ---------------------------------------
for dst in 10.0.0.2 fd00::2; do
	recv_start "$B"
	ip netns exec "$A" $INJECT "$dst" zerocsum
	wait "$RECV_PID"
	uet_check_eq "$(cat "$out/recv")" "len 13 $ZC_HEX" \
		"zero-checksum message to $dst delivered intact"
done

"$UETCTL" -n "$B" set udp-csum rx-zero drop
d0=$(uet_stat "$B" drop_no_checksum)
recv_start "$B" 3
ip netns exec "$A" $INJECT 10.0.0.2 zerocsum
ip netns exec "$A" $INJECT fd00::2 zerocsum
wait "$RECV_PID"
uet_check_eq "$(cat "$out/recv") $(( $(uet_stat "$B" drop_no_checksum) - d0 ))" \
	"timeout 2" "rx-zero drop: both dropped and counted"
"$UETCTL" -n "$B" set udp-csum rx-zero accept

# --- what goes on the wire -----------------------------------------------
# capture_start: record B's incoming UET packets ("sport check type ctl").
capture_start()
{
	: >"$out/cap.err"
	ip netns exec "$B" $API capture vb "$1" >"$out/cap" 2>"$out/cap.err" &
	CAP_PID=$!
	uet_wait_until 60 grep -q ready "$out/cap.err"
}

for fam in 4 6; do
	dst=10.0.0.2
	[ $fam = 6 ] && dst=fd00::2
	"$UETCTL" -n "$A" set udp-csum tx off
	capture_start 30
	uet_transfer "IPv$fam transfer with udp-csum tx off" "$B" "$A" "$dst" 4 \
		-l 20000 -- -l 20000
	"$UETCTL" -n "$A" set udp-csum tx on
	uet_transfer "IPv$fam transfer with udp-csum tx on" "$B" "$A" "$dst" 4 \
		-l 20000 -- -l 20000
	kill "$CAP_PID" 2>/dev/null
	wait "$CAP_PID" 2>/dev/null
	# data packets (type 2) with checksum 0, then with one
	zero=$(awk '$3 == 2 && $2 == 0' "$out/cap" | wc -l)
	sum=$(awk '$3 == 2 && $2 != 0' "$out/cap" | wc -l)
	uet_check_eq "$([ "$zero" -ge 4 ] && [ "$sum" -ge 4 ] && echo yes)" yes \
		"IPv$fam: tx off sends checksum 0, tx on a checksum ($zero/$sum)"
done

# --- checksums computed in software ----------------------------------------
# Data packets carry their payload as page fragments. Without tx checksum
# offload (and so without scatter-gather) on A's link the stack linearizes
# each one and computes its UDP checksum in software, and B verifies it
# (veth passes CHECKSUM_NONE on): a wrong sum is dropped and counted.
csum_errors()
{
	ip netns exec "$B" nstat -az UdpInCsumErrors Udp6InCsumErrors |
		awk '/InCsumErrors/ { n += $2 } END { print n + 0 }'
}

ip netns exec "$A" ethtool -K va tx off >/dev/null 2>&1
offload=$(ip netns exec "$A" ethtool -k va | awk '/^tx-checksumming:/ { print $2 }')
for fam in 4 6; do
	dst=10.0.0.2
	[ $fam = 6 ] && dst=fd00::2
	e0=$(csum_errors)
	uet_transfer "IPv$fam transfer, checksums computed in software" "$B" \
		"$A" "$dst" 4 -l 100000 -- -l 100000
	uet_check_eq "$(($(csum_errors) - e0)) errors, offload $offload" \
		"0 errors, offload off" \
		"IPv$fam software checksums over page fragments verified by the receiver"
done
ip netns exec "$A" ethtool -K va tx on >/dev/null 2>&1

# --- suet_scope_id ---------------------------------------------------------
uet_check_eq "$(ip netns exec "$A" $API bind 10.0.0.1 1)" EINVAL \
	"bind() with a non-zero suet_scope_id refused"
uet_check_eq "$(ip netns exec "$A" $API sendto 10.0.0.1 10.0.0.2 1)" EINVAL \
	"sendto() with a non-zero suet_scope_id refused"
uet_check_eq "$(ip netns exec "$A" $API bind 10.0.0.1 0)" ok \
	"bind() with suet_scope_id 0 works"

# --- no route: the call fails --------------------------------------------
ip -n "$A" route add unreachable 10.98.0.0/16
uet_check_eq "$(ip netns exec "$A" $API sendto 10.0.0.1 10.99.0.1) $(ip netns exec "$A" $API sendto '' 10.99.0.1)" \
	"ENETUNREACH ENETUNREACH" "sendto() to an unroutable IPv4 address fails"
uet_check_eq "$(ip netns exec "$A" $API sendto 10.0.0.1 10.98.0.1)" EHOSTUNREACH \
	"sendto() through an unreachable route fails with EHOSTUNREACH"
uet_check_eq "$(ip netns exec "$A" $API sendto fd00::1 fd99::1)" ENETUNREACH \
	"sendto() to an unroutable IPv6 address fails"
uet_check_eq "$(ip netns exec "$A" $API sendto 10.0.0.1 10.0.0.2)" ok \
	"sendto() to a routable address still works"

# --- a zero-length message arrives as an empty message, as uet(7) says ---
recv_start "$B"
ip netns exec "$A" $API sendto 10.0.0.1 10.0.0.2 0 0 >/dev/null
wait "$RECV_PID"
uet_check_eq "$(cat "$out/recv")" "len 0 " "a zero-length message is delivered empty"

# --- flags the kernel adds: sendmmsg()'s MSG_BATCH, MSG_CMSG_CLOEXEC ---
recv_start "$B" 30 0x40000000 2
uet_check_eq "$(ip netns exec "$A" $API sendmmsg 10.0.0.1 10.0.0.2 2)" 2 \
	"sendmmsg() of two messages sends both"
wait "$RECV_PID"
uet_check_eq "$(grep -c '^len 10 ' "$out/recv")" 2 \
	"both delivered, read with MSG_CMSG_CLOEXEC"
uet_check_eq "$(ip netns exec "$A" $API efault 10.0.0.1 10.0.0.2)" EFAULT \
	"sendto() from an unmapped buffer fails with EFAULT"

# --- CTRL CLOSE's source port --------------------------------------------
# The PDC closes 200 ms after its last packet; its CLOSE is to leave on an
# entropy value of rr's range, 256..383, as the data did.
"$UETCTL" -n "$A" set spray rr start-port 256 entropy-bits 7 pdc-idle 200ms
pdcs_gone() { [ "$(uet_stat "$A" pdc_active)" = 0 ]; }
uet_wait_until 10 pdcs_gone
capture_start 20
uet_transfer "transfer before the close" "$B" "$A" 10.0.0.2 2 -l 9000 -- -l 9000
uet_wait_until 15 awk '$3 == 11 && $4 == 4 { f = 1 } END { exit !f }' "$out/cap"
kill "$CAP_PID" 2>/dev/null
wait "$CAP_PID" 2>/dev/null
close_sport=$(awk '$3 == 11 && $4 == 4 { print $1; exit }' "$out/cap")
# the value of the highest PSN's last transmission, which is what the
# PDC keeps: a retransmission of a lower PSN may come after it
last_data=$(awk '$3 == 2 { d = ($5 - max) % 4294967296; if (d < 0) d += 4294967296
		if (!n++ || d < 2147483648) { max = $5; s = $1 } }
		END { print s }' "$out/cap")
uet_check_eq "$([ -n "$close_sport" ] && [ "$close_sport" -ge 256 ] &&
		[ "$close_sport" -le 383 ] && echo in-range)/$close_sport" \
	"in-range/$last_data" "CLOSE leaves on the last data packet's entropy value"

ktap_finished
