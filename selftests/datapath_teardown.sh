#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tearing things down in the middle of transfers: the receiving socket
# closed, the sending socket closed with messages in flight, the peer's
# namespace deleted, both namespaces deleted; then the module unloaded
# while namespaces with idle PDCs remain, and loaded again. Nothing leaks
# or crashes (the runner checks the kernel log) and every sender hears
# about what it lost.

. "$(dirname "$0")/fabric.sh"

ktap_header
ktap_plan 7

out=$(mktemp -d)

# busy NS: the namespace has delivered a few messages already.
busy()
{
	[ "$(uet_stat "$1" rx_messages)" -ge "$2" ]
}

# failed NS N: the namespace has given up more than N messages.
failed()
{
	[ "$(uet_stat "$1" tx_messages_failed)" -gt "$2" ]
}

# settled NS: every message sent is acknowledged or given up.
settled()
{
	local s=$(uet_stat "$1" tx_messages) d=$(uet_stat "$1" tx_messages_done)
	local f=$(uet_stat "$1" tx_messages_failed)

	[ "$s" -eq $((d + f)) ]
}

# settles NS: NS settles, while messages keep ending (done or given up)
# at least every 30 s, within 600 s.  Up to 8 MB may be in flight, which
# a slow kernel (KASAN under TCG: about 0.5 MB/s) takes longer than any
# fixed bound to deliver; what must not happen is that nothing ends.
settles()
{
	local ns=$1 n last=-1 idle=$((SECONDS + 30)) end=$((SECONDS + 600))

	until settled "$ns"; do
		n=$(($(uet_stat "$ns" tx_messages_done) + $(uet_stat "$ns" tx_messages_failed)))
		if [ "$n" -ne "$last" ]; then
			last=$n
			idle=$((SECONDS + 30))
		fi
		[ "$SECONDS" -lt "$idle" ] && [ "$SECONDS" -lt "$end" ] ||
			return 1
		sleep 0.1
	done
}

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }

# 1. The receiver closes its socket mid-transfer.
# The client sends until told to stop, once A has given a message up: a
# client that ran out of time first (a slow kernel) would prove nothing.
uet_server "$B" "$out/s1" -i 60 -l 1048576 -R 4194304
ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -J -t 120 -l 65536-1048576 \
	>"$out/c1" 2>"$out/c1.err" &
cli=$!
uet_wait_until 30 busy "$B" 3
f0=$(uet_stat "$A" tx_messages_failed)
kill -9 "$UET_SERVER_PID"
wait "$UET_SERVER_PID" 2>/dev/null
uet_wait_until 90 failed "$A" "$f0"
kill -INT "$cli" 2>/dev/null
if uet_wait_until 90 sh -c "! kill -0 $cli 2>/dev/null"; then
	wait "$cli"
	e=$(uet_json "$out/c1" errors)
	if [ "${e:-0}" -gt 0 ] && grep -q 'Connection refused' "$out/c1.err"; then
		ktap_ok "receiver closed: sender told its messages were refused"
	else
		ktap_fail "receiver closed: sender told its messages were refused" "errors '$e'"
	fi
else
	ktap_fail "receiver closed: sender told its messages were refused" "client still running"
	kill -9 "$cli"
fi

# 2. The sender closes its socket with messages in flight.
uet_server "$B" "$out/s2" -i 60 -l 1048576 -R 4194304
ip netns exec "$A" "$UETPERF" -c 10.0.0.2 -J -t 30 -l 1048576 -S 8388608 \
	>"$out/c2" 2>&1 &
cli=$!
uet_wait_until 30 busy "$B" 6
kill -9 "$cli"
wait "$cli" 2>/dev/null
if settles "$A"; then
	ktap_ok "sender closed: its messages in flight finish or are given up"
else
	ktap_fail "sender closed: its messages in flight finish or are given up" \
		"sent $(uet_stat "$A" tx_messages) done $(uet_stat "$A" tx_messages_done) failed $(uet_stat "$A" tx_messages_failed)"
fi
kill "$UET_SERVER_PID" 2>/dev/null
wait "$UET_SERVER_PID" 2>/dev/null

# 3. The receiver's namespace disappears mid-transfer.
uet_netns_new C
uet_netns_new D
uet_link "$C" vc "$D" vd && uet_addr "$C" vc 10.1.0.1/24 fd01::1/64 &&
	uet_addr "$D" vd 10.1.0.2/24 fd01::2/64
uet_server "$D" "$out/s3" -i 60 -l 1048576 -R 4194304
ip netns exec "$C" "$UETPERF" -c 10.1.0.2 -J -t 120 -l 1048576 \
	>"$out/c3" 2>"$out/c3.err" &
cli=$!
uet_wait_until 30 busy "$D" 2
f0=$(uet_stat "$C" tx_messages_failed)
kill -9 "$UET_SERVER_PID"
wait "$UET_SERVER_PID" 2>/dev/null
ip netns del "$D"
uet_wait_until 90 failed "$C" "$f0"
kill -INT "$cli" 2>/dev/null
if uet_wait_until 90 sh -c "! kill -0 $cli 2>/dev/null"; then
	wait "$cli"
	e=$(uet_json "$out/c3" errors)
	if [ "${e:-0}" -gt 0 ]; then
		ktap_ok "peer namespace deleted: sender told its messages were given up"
	else
		ktap_fail "peer namespace deleted: sender told its messages were given up" "errors '$e'"
	fi
else
	ktap_fail "peer namespace deleted: sender told its messages were given up" "client still running"
	kill -9 "$cli"
fi

# 4. Both namespaces go while a transfer runs.
uet_netns_new E
uet_netns_new F
uet_link "$E" ve1 "$F" vf1 && uet_addr "$E" ve1 10.2.0.1/24 fd02::1/64 &&
	uet_addr "$F" vf1 10.2.0.2/24 fd02::2/64
uet_server "$F" "$out/s4" -i 60 -l 1048576 -R 4194304
ip netns exec "$E" "$UETPERF" -c 10.2.0.2 -J -P 4 -t 30 -l 1048576 \
	>/dev/null 2>&1 &
flowing=0
uet_wait_until 30 busy "$F" 4 && flowing=1
ip netns pids "$E" | xargs -r kill -9
ip netns pids "$F" | xargs -r kill -9
ip netns del "$E"
ip netns del "$F"
wait 2>/dev/null
uet_check_eq "$flowing" 1 "both namespaces deleted mid-transfer"

# 5. Once every socket is gone, the module can be unloaded, although
# namespaces A and C remain with their PDCs.
ip netns pids "$A" | xargs -r kill -9
ip netns pids "$B" | xargs -r kill -9
ip netns pids "$C" | xargs -r kill -9
if uet_wait_until 60 sh -c '[ "$(cat /sys/module/uet/refcnt)" = 0 ]'; then
	ktap_ok "every socket freed after the transfers ended"
else
	ktap_fail "every socket freed after the transfers ended" \
		"module refcount $(cat /sys/module/uet/refcnt)"
fi
unloaded=0
if rmmod uet && uet_wait_until 10 sh -c '[ ! -d /sys/module/uet ]'; then
	unloaded=1
	ktap_ok "module unloaded with namespaces and PDCs alive"
else
	ktap_fail "module unloaded with namespaces and PDCs alive"
fi
# loaded again: only a module that really went away counts, and the new
# one must serve the namespaces that outlived the old one
if [ "$unloaded" = 1 ] &&
	insmod "${UET_KO:-$UET_ROOT/drivers/uet/uet.ko}" &&
	[ -d /sys/module/uet ] &&
	[ -n "$(uet_stat "$A" tx_messages)" ] &&
	[ "$(uet_stat "$A" tx_messages)" -eq 0 ]; then
	ktap_ok "module loaded again"
else
	ktap_fail "module loaded again" "unloaded=$unloaded, /sys/module/uet $(ls -d /sys/module/uet 2>&1)"
	[ -d /sys/module/uet ] || insmod "${UET_KO:-$UET_ROOT/drivers/uet/uet.ko}"
fi

rm -rf "$out"
ktap_finished
