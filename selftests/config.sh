#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-namespace configuration over generic netlink, through uetctl: defaults,
# text and JSON round trips, refusals with the kernel's message and nothing
# changed, privilege, isolation between namespaces, and unloading the
# module while namespaces with their own configuration are alive.

. "$(dirname "$0")/lib.sh"

UETCTL=${UETCTL:-uetctl}

# expect_fail NAME PATTERN CMD...: CMD fails and its stderr matches PATTERN.
expect_fail()
{
	local name=$1 pattern=$2 err

	shift 2
	if err=$("$@" 2>&1 >/dev/null); then
		ktap_fail "$name" "succeeded: $*"
	elif ! grep -qE -- "$pattern" <<<"$err"; then
		ktap_fail "$name" "message '$err' lacks /$pattern/"
	else
		ktap_ok "$name"
	fi
}

# get NS KEY: one value of `uetctl show` in namespace NS.
get()
{
	$UETCTL -n "$1" show | awk -v k="$2" '$1 == k { print $2 }'
}

ktap_header
ktap_plan 33

TMPDIR_CFG=$(mktemp -d)
trap 'rm -rf "$TMPDIR_CFG"; _uet_cleanup' EXIT

uet_netns_new ns1
uet_netns_new ns2

defaults="spray rr
entropy-bits 7
start-port 256
active-set-size 0
buffer-bits 8
ev-set-size 65536
freeze-timeout 100us
fail-detect-mult 3
probe-period 150us
pdc-groups on
link-rate 400gbit
base-rtt 6us
mss 4096
udp-port 4793
pdc-idle 1s
rto-min 1ms
rto-max 200ms
max-retx 10
seed 0
sack-retx-thresh 16
dscp-trimmed 63
udp-csum-tx on
udp-csum-rx-zero accept
rx-mem 65536
msg-timeout 30s
challenge-ack-limit 1000
sndbuf 16777216
rcvbuf 16777216
cc nscc+rccc
cc-target-qdelay 0ns
ack-delay 0ns
spray-burst 1
superpackets on"
uet_check_eq "$($UETCTL -n "$ns1" show)" "$defaults" "defaults of a new namespace"

$UETCTL -n "$ns1" set spray reps buffer-bits 4 freeze-timeout 200us \
	base-rtt 8us link-rate 100gbit pdc-groups off seed 42 rto-max 1s
uet_check_eq "$(get "$ns1" spray) $(get "$ns1" buffer-bits) $(get "$ns1" freeze-timeout) $(get "$ns1" base-rtt) $(get "$ns1" link-rate) $(get "$ns1" pdc-groups) $(get "$ns1" seed) $(get "$ns1" rto-max)" \
	"reps 4 200us 8us 100gbit off 42 1s" "set then show (text)"

uet_check_eq "$($UETCTL -j -n "$ns1" show | jq -c '[.spray, .buffer_bits, .freeze_timeout_ns, .base_rtt_ns, .link_rate_mbps, .pdc_groups, .seed, .rto_max_us]')" \
	'["reps",4,200000,8000,100000,false,42,1000000]' "set then show (JSON)"

before=$($UETCTL -n "$ns1" show)
expect_fail "out-of-range value refused with attribute and range" \
	"out of range.*entropy-bits.*0\.\.8" $UETCTL -n "$ns1" set entropy-bits 9
uet_check_eq "$($UETCTL -n "$ns1" show)" "$before" "refused value changed nothing"

expect_fail "one bad attribute refuses the whole set" "buffer-bits.*0\.\.16" \
	$UETCTL -n "$ns1" set spray active start-port 1000 buffer-bits 17
uet_check_eq "$($UETCTL -n "$ns1" show)" "$before" "partly bad set changed nothing"

expect_fail "active range must fit below 65536" "start-port.*65535" \
	$UETCTL -n "$ns1" set spray active start-port 65409
$UETCTL -n "$ns1" set spray active start-port 65408 entropy-bits 7
uet_check_eq "$(get "$ns1" spray) $(get "$ns1" start-port)" "active 65408" \
	"largest legal active offset at 7 bits accepted"
expect_fail "spray active with 8 bits at 65408 refused" "65535" \
	$UETCTL -n "$ns1" set entropy-bits 8

expect_fail "rto-min above rto-max refused" "rto-min" \
	$UETCTL -n "$ns1" set rto-min 2s rto-max 1s
expect_fail "ack-delay not below rto-min refused" "ack-delay must be below rto-min" \
	$UETCTL -n "$ns1" set ack-delay 1ms
$UETCTL -n "$ns1" set ack-delay 200us
uet_check_eq "$(get "$ns1" ack-delay) $($UETCTL -j -n "$ns1" show | jq .ack_delay_us)" \
	"200us 200" "ack-delay set and shown"
expect_fail "rto-min at or below ack-delay refused" "ack-delay must be below rto-min" \
	$UETCTL -n "$ns1" set rto-min 200us
$UETCTL -n "$ns1" set ack-delay 0
expect_fail "spray-burst 65 refused with its range" \
	"out of range.*spray-burst.*1\.\.64" $UETCTL -n "$ns1" set spray-burst 65
$UETCTL -n "$ns1" set superpackets off
uet_check_eq "$(get "$ns1" superpackets) $($UETCTL -j -n "$ns1" show | jq .superpackets)" \
	"off false" "superpackets off set and shown"
expect_fail "superpackets takes on|off" "invalid value" \
	$UETCTL -n "$ns1" set superpackets 2

expect_fail "unprivileged set gets EPERM" "not permitted" \
	ip netns exec "$ns2" setpriv --reuid=65534 --regid=65534 --clear-groups \
	$UETCTL set spray none
uet_check_eq "$(ip netns exec "$ns2" setpriv --reuid=65534 --regid=65534 --clear-groups $UETCTL show | head -n 1)" \
	"spray rr" "unprivileged show works"

# A kernel without user namespaces (the sanitizer kernel's config) has
# no owner to test.
if unshare -Ur true 2>/dev/null; then
	uet_check_eq "$(unshare -Urn sh -c "$UETCTL set spray none && $UETCTL show" | head -n 1)" \
		"spray none" "owner of a user namespace configures its own netns"
else
	ktap_skip "owner of a user namespace configures its own netns" \
		"no user namespaces (CONFIG_USER_NS)"
fi

$UETCTL -n "$ns2" set spray none mss 1024
uet_check_eq "$(get "$ns1" spray) $(get "$ns2" spray) $(get "$ns2" mss) $($UETCTL show | head -n 1)" \
	"active none 1024 spray rr" "namespaces keep their own configuration"

expect_fail "unknown key refused by uetctl" "unknown key" \
	$UETCTL -n "$ns2" set colour blue

uet_check_eq "$($UETCTL -j info | jq -r .genl_version)" "1" "info reports the interface version"

# Times in h and min, as uetctl(8) writes the ranges; "m" is ambiguous.
$UETCTL -n "$ns2" set pdc-idle 1h rto-max 1min
uet_check_eq "$(get "$ns2" pdc-idle) $(get "$ns2" rto-max) $($UETCTL -j -n "$ns2" show | jq -c '[.pdc_idle_ms, .rto_max_us]')" \
	"1h 1min [3600000,60000000]" "times in h and min set and shown"
expect_fail "pdc-idle range printed in units uetctl takes" "pdc-idle.*1ms\.\.1h" \
	$UETCTL -n "$ns2" set pdc-idle 2h
expect_fail "'m' is not a unit" "invalid value" $UETCTL -n "$ns2" set pdc-idle 5m
$UETCTL -n "$ns2" set pdc-idle 1s rto-max 200ms

# UDP checksums: the grouped form and the plain keys, text and JSON.
$UETCTL -n "$ns2" set udp-csum tx off rx-zero drop
uet_check_eq "$(get "$ns2" udp-csum-tx) $(get "$ns2" udp-csum-rx-zero) $($UETCTL -j -n "$ns2" show | jq -c '[.udp_csum_tx, .udp_csum_rx_zero]')" \
	'off drop [false,"drop"]' "udp-csum tx off rx-zero drop"
$UETCTL -n "$ns2" set udp-csum-tx on udp-csum rx-zero accept
uet_check_eq "$(get "$ns2" udp-csum-tx) $(get "$ns2" udp-csum-rx-zero)" \
	"on accept" "udp-csum keys back on"
expect_fail "udp-csum rx-zero takes accept|drop" "invalid value" \
	$UETCTL -n "$ns2" set udp-csum rx-zero maybe

# udp-port moves the namespace's UDP sockets; a port already taken is
# refused and leaves the old one bound.
udp_bound()
{
	ip netns exec "$1" ss -Hunl "sport = :$2" | wc -l
}
$UETCTL -n "$ns2" set udp-port 6000
uet_check_eq "$(udp_bound "$ns2" 6000) $(udp_bound "$ns2" 4793) $(get "$ns2" udp-port)" \
	"2 0 6000" "udp-port rebinds the namespace's sockets"
# (the holder is killed below, or ends after 30 s by itself; no `sleep`
# feeding it, which would keep this script's output open 30 s)
ip netns exec "$ns2" python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 7000))
print("bound", flush=True)
time.sleep(30)' >"$TMPDIR_CFG/holder" &
holder=$!
uet_wait_until 10 grep -q bound "$TMPDIR_CFG/holder"
expect_fail "a taken udp-port is refused with a message" "cannot bind" \
	$UETCTL -n "$ns2" set udp-port 7000 mss 2048
kill "$holder" 2>/dev/null
uet_check_eq "$(udp_bound "$ns2" 6000) $(get "$ns2" udp-port) $(get "$ns2" mss)" \
	"2 6000 1024" "the refused set changed nothing"

# Unload with two configured namespaces alive, then load again: the
# namespaces come back with the defaults and nothing leaked (the VM runner
# checks the kernel log).
if [ -n "${UET_KO:-}" ] && rmmod uet && insmod "$UET_KO"; then
	uet_check_eq "$($UETCTL -n "$ns1" show)" "$defaults" \
		"unload and reload with namespaces alive"
else
	ktap_fail "unload and reload with namespaces alive" "rmmod/insmod failed"
fi

ktap_finished
