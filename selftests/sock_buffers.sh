#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Socket buffers bound memory with no exception, and a new socket's come
# from its namespace (uetctl set sndbuf/rcvbuf), as TCP's come from
# tcp_wmem[1]/tcp_rmem[1]:
#
#   A (10.0.0.1) ---- veth ---- B (10.0.0.2)
#
#  - with the namespace's defaults an 8 MiB message, the largest the
#    selftests send, is delivered intact;
#  - a message whose charge can never fit SO_SNDBUF fails in sendmsg() at
#    once with EMSGSIZE, and so does one waiting for room when SO_SNDBUF
#    is lowered below it;
#  - a message larger than the receiver's SO_RCVBUF is refused for good:
#    the sender gets EMSGSIZE on its error queue, drop_too_big counts it,
#    the receiver gets nothing of it and the next message arrives;
#  - uetctl set sndbuf/rcvbuf changes what a new socket gets, and refuses
#    out-of-range values with the range;
#  - messages shorter than a page are charged their bytes, not a page
#    each: a 1 MiB SO_SNDBUF holds more than a thousand of 64 bytes, and
#    they go, with their socket, when their namespace does;
#  - a message that comes whole in one packet (1400 bytes at MTU 1500) is
#    kept as that packet until recvmsg() (rx_msg_kept), arrives intact,
#    and is held within SO_RCVBUF like any other: a receiver that reads
#    late refuses what does not fit (drop_rcvbuf) and gets all of it
#    once it reads; rx-mem goes back to 0;
#  - the packets of a 1 MiB message are kept as they came too
#    (rx_pkt_kept), and the message arrives intact; the sender writes the
#    pages of its done messages again (tx_pages_reused), and gives them
#    back once it has had nothing in flight for a second
#    (tx_pages_released).

. "$(dirname "$0")/fabric.sh"

BUF="python3 $(dirname "$0")/uet_sockbuf.py"
DEF=16777216		# the default sndbuf and rcvbuf

ktap_header
ktap_plan 27

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT

# moved NS BEFORE: print each counter of NS that moved since BEFORE.
moved()
{
	join <(sort <<<"$2") <(uet_stats "$1" | sort) |
		awk -v ns="$1" '$3 != $2 { print "# " ns ": " $1 " +" $3 - $2 }'
}

get()
{
	"$UETCTL" -n "$1" show | awk -v k="$2" '$1 == k { print $2 }'
}

uet_check_eq "$(get "$B" sndbuf) $(get "$B" rcvbuf)" "$DEF $DEF" \
	"sndbuf and rcvbuf of a new namespace"
uet_check_eq "$(ip netns exec "$B" $BUF bufs)" "$DEF $DEF" \
	"a new socket's SO_SNDBUF and SO_RCVBUF are the namespace's"

# 1. The defaults hold the largest message the selftests send.
uet_transfer "8 MiB messages with the default buffers, intact" "$B" "$A" \
	10.0.0.2 2 -l 8388608 -- -l 8388608

# 2. SO_SNDBUF 64 KiB (128 KiB charged): 1 MiB can never be sent.
uet_check_eq "$(ip netns exec "$A" $BUF sendbig 10.0.0.2 65536 1048576)" \
	"EMSGSIZE fast" "1 MiB over a 64 KiB SO_SNDBUF: EMSGSIZE at once"
uet_check_eq "$(ip netns exec "$A" $BUF sendbig 10.0.0.2 65536 65536)" \
	"ok fast" "64 KiB within a 64 KiB SO_SNDBUF is sent"

# 3. SO_RCVBUF 64 KiB (128 KiB reserved): 1 MiB is refused for good, the
# message after it arrives.
ip netns exec "$B" $BUF recv 100 65536 1 60 >"$out/r" 2>"$out/r.err" &
rcv=$!
uet_wait_until 60 grep -q ready "$out/r.err" || echo "# receiver not ready"
tb=$(uet_stat "$B" drop_too_big)
sa=$(uet_stats "$A")
sb=$(uet_stats "$B")
uet_mon_start "$A"
ip netns exec "$A" $BUF send 10.0.0.2 100 1048576 1000 >"$out/s" 2>"$out/s.err"
sed 's/^/# sender: /' "$out/s.err"
uet_check_eq "$(head -n 1 "$out/s")" "1048576 EMSGSIZE(1048576)" \
	"1 MiB over the receiver's 64 KiB SO_RCVBUF: EMSGSIZE on the error queue"
if [ "$(uet_stat "$B" drop_too_big)" -gt "$tb" ]; then
	ktap_ok "the refusal is counted in drop_too_big"
else
	ktap_fail "the refusal is counted in drop_too_big" \
		"drop_too_big $tb -> $(uet_stat "$B" drop_too_big)"
fi
next=$(sed -n 2p "$out/s")
uet_check_eq "$next" "1000 ok" "the next message is sent"
if [ "$next" != "1000 ok" ]; then
	moved "$A" "$sa"
	moved "$B" "$sb"
	"$UETCTL" -n "$A" pdc show | sed 's/^/# A pdc: /'
	"$UETCTL" -n "$B" pdc show | sed 's/^/# B pdc: /'
	sed 's/^/# A event: /' "$UET_MON/events"
fi
uet_mon_stop
wait "$rcv"
uet_check_eq "$(cat "$out/r")" "len 1000 ok" \
	"the receiver gets the next message, nothing of the refused one"

# 4. The namespace's sizes are what a new socket gets.
"$UETCTL" -n "$A" set sndbuf 1048576 rcvbuf 262144 >/dev/null
uet_check_eq "$(ip netns exec "$A" $BUF bufs)" "1048576 262144" \
	"uetctl set sndbuf/rcvbuf: a new socket gets them"
uet_check_eq "$(ip netns exec "$A" $BUF sendbig 10.0.0.2 0 1048576)" \
	"EMSGSIZE fast" "1 MiB over sndbuf 1 MiB (with its charge): EMSGSIZE"

# 7. Messages kept as their one packet, between B and a fresh C.
rx_mem_zero()
{
	[ "$(uet_stat "$1" rx_mem)" = 0 ]
}

# released C BEFORE N: C's idle sockets gave back N pages or more since
# tx_pages_released was BEFORE.
released()
{
	[ "$(uet_stat "$1" tx_pages_released)" -ge $(($2 + $3)) ]
}

three_lines()
{
	[ -f "$1" ] && [ "$(wc -l <"$1")" -ge 3 ]
}

# A sender that stays open with nothing in flight gives its page ring's
# pages back (UET_RING_IDLE, 1 s): at least the last 1 MiB message's 256.
idle_release()
{
	local r0 pid

	uet_server "$B" "$out/is" -n 3 -l 1048576 -i 60 ||
		{ ktap_fail "an idle sender gives its pages back" "no server"; return; }
	r0=$(uet_stat "$C" tx_pages_released)
	ip netns exec "$C" $BUF sendhold 10.0.1.2 100 30 1048576 1048576 \
		1048576 >"$out/ih" 2>"$out/ih.err" &
	pid=$!
	if ! uet_wait_until 60 three_lines "$out/ih" ||
	   [ "$(sort -u "$out/ih")" != "1048576 ok" ]; then
		ktap_fail "an idle sender gives its pages back" \
			"sender: $(tr '\n' ' ' <"$out/ih")"
	elif uet_wait_until 10 released "$C" "$r0" 256; then
		ktap_ok "an idle sender gives its pages back (tx_pages_released $(( $(uet_stat "$C" tx_pages_released) - r0 )))"
	else
		ktap_fail "an idle sender gives its pages back" \
			"tx_pages_released $(( $(uet_stat "$C" tx_pages_released) - r0 ))"
	fi
	kill "$pid" 2>/dev/null
	wait "$pid" "$UET_SERVER_PID" 2>/dev/null
}

kept_cases()
{
	local k0 k1 d0 i

	uet_netns_new C || { ktap_fail "kept: setup" "no namespace"; return; }
	uet_ns_quiet "$C"
	uet_link "$C" vc "$B" vbc && uet_addr "$C" vc 10.0.1.1/24 fd01::1/64 &&
		uet_addr "$B" vbc 10.0.1.2/24 fd01::2/64 ||
		{ ktap_fail "kept: setup" "no link"; return; }
	k0=$(uet_stat "$B" rx_msg_kept)
	uet_transfer "200 messages of 1400 bytes, one packet each, intact" \
		"$B" "$C" 10.0.1.2 200 -l 1400 -- -l 1400
	k1=$(uet_stat "$B" rx_msg_kept)
	uet_check_eq "$((k1 - k0))" 200 \
		"each was kept as its packet (rx_msg_kept)"
	if uet_wait_until 10 rx_mem_zero "$B"; then
		ktap_ok "rx-mem is 0 once they are read"
	else
		ktap_fail "rx-mem is 0 once they are read" \
			"rx_mem $(uet_stat "$B" rx_mem)"
	fi

	k0=$(uet_stat "$B" rx_pkt_kept)
	p0=$(uet_stat "$B" rx_packets)
	r0=$(uet_stat "$C" tx_pages_reused)
	uet_transfer "20 messages of 1 MiB, intact" \
		"$B" "$C" 10.0.1.2 20 -l 1048576 -- -l 1048576
	k1=$(uet_stat "$B" rx_pkt_kept)
	p1=$(uet_stat "$B" rx_packets)
	r1=$(uet_stat "$C" tx_pages_reused)
	# Most, not all: a slow (sanitizer) VM resends more, and a copy
	# over the message's budget, or a superpacket taken apart, is copied.
	uet_check_eq "$(( (k1 - k0) * 2 >= p1 - p0 ))" 1 \
		"their packets were kept as they came (rx_pkt_kept $((k1 - k0)) of $((p1 - p0)))"
	uet_check_eq "$(( r1 > r0 ))" 1 \
		"the sender wrote pages of its done messages again (tx_pages_reused $((r1 - r0)))"
	idle_release

	# SO_RCVBUF 8 KiB (16 KiB): a few such messages at a time.
	d0=$(uet_stat "$B" drop_rcvbuf)
	k0=$(uet_stat "$B" rx_msg_kept)
	ip netns exec "$B" $BUF recv 101 8192 20 60 2 >"$out/k" 2>"$out/k.err" &
	rcv=$!
	uet_wait_until 60 grep -q ready "$out/k.err" || echo "# receiver not ready"
	ip netns exec "$C" $BUF send 10.0.1.2 101 \
		$(for i in $(seq 20); do echo 1400; done) >"$out/ks" 2>&1
	wait "$rcv"
	k1=$(uet_stat "$B" rx_msg_kept)
	uet_check_eq "$(sort "$out/k" | uniq -c | awk '{ print $1, $2, $3, $4 }'), kept $((k1 - k0))" \
		"20 len 1400 ok, kept 20" \
		"a receiver reading late gets all 20 kept messages intact"
	if [ "$(uet_stat "$B" drop_rcvbuf)" -gt "$d0" ]; then
		ktap_ok "kept messages beyond its SO_RCVBUF were refused meanwhile"
	else
		ktap_fail "kept messages beyond its SO_RCVBUF were refused meanwhile" \
			"drop_rcvbuf stayed $d0; sender: $(tr '\n' ' ' <"$out/ks")"
	fi
	if uet_wait_until 10 rx_mem_zero "$B"; then
		ktap_ok "rx-mem is 0 once the late receiver read them"
	else
		ktap_fail "rx-mem is 0 once the late receiver read them" \
			"rx_mem $(uet_stat "$B" rx_mem)"
	fi
}

expect_refused()
{
	local err

	if err=$("$UETCTL" -n "$A" set "$1" "$2" 2>&1 >/dev/null); then
		ktap_fail "$1 $2 refused" "accepted"
	elif ! grep -qE "out of range.*$1.*8192\.\.134217728" <<<"$err"; then
		ktap_fail "$1 $2 refused" "message '$err' lacks the range"
	else
		ktap_ok "$1 $2 refused with the range"
	fi
}
expect_refused sndbuf 4096
expect_refused rcvbuf 134217729
uet_check_eq "$(get "$A" sndbuf) $(get "$A" rcvbuf)" "1048576 262144" \
	"refused values changed nothing"

# 5. A sendmsg() waiting for room in SO_SNDBUF fails once SO_SNDBUF is
# lowered below its message, rather than wait for room that cannot come.
uet_check_eq "$(ip netns exec "$A" $BUF shrink 10.0.0.9 100000)" \
	"EMSGSIZE fast" "a waiting sendmsg() fails with EMSGSIZE when SO_SNDBUF drops below it"

# 6. Nothing answers 10.0.0.9: every message stays charged, and holds its
# socket, until it is given up (max-retx, then silence) or A goes. A slow
# (sanitizer) VM fills for longer than that: the messages given up
# meanwhile made room and are not held, so the filler counts what is
# charged (SIOCOUTQ) the moment it is refused.
base=$(cat /sys/module/uet/refcnt)
read -r n err held <<<"$(ip netns exec "$A" $BUF fill 10.0.0.9 64)"
if [ "$err" = EAGAIN ] && [ "$held" -ge 1024 ] && [ "$held" -le 16384 ]; then
	ktap_ok "sndbuf 1 MiB holds $held messages of 64 bytes ($n sent)"
else
	ktap_fail "sndbuf 1 MiB holds 1024..16384 messages of 64 bytes" \
		"$held held of $n sent, then $err"
fi
ip netns del "$A"
kept_cases
if uet_wait_until 60 sh -c "[ \$(cat /sys/module/uet/refcnt) -le $base ]"; then
	ktap_ok "the messages and their socket go with the namespace"
else
	ktap_fail "the messages and their socket go with the namespace" \
		"uet's refcnt $(cat /sys/module/uet/refcnt), $base before"
fi

ktap_finished
