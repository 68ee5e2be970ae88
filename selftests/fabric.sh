#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Topologies and helpers for the datapath selftests and the demo; sourced,
# it only defines them. Run as a script, it is the ECMP fabric selftest:
# a leaf-spine fabric of namespaces with four equal-cost paths, where
# spraying type none keeps a transfer on one path, rr, active and reps
# spread it over all four, and rr puts exactly its port range on the wire,
# in order.
#
#   h1 --- l1 ==== s1..s4 ==== l2 --- h2
#
# h1 10.1.1.1 fd01::1, h2 10.2.2.1 fd02::1; l1 and l2 hash flows on
# the L4 5-tuple, by a salted CRC-32 as a switch does (ecmp.bpf.c), so
# the UDP source port - the entropy value - chooses the spine.

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

UETPERF=${UETPERF:-${UET_ROOT:-$(dirname "${BASH_SOURCE[0]}")/..}/tools/uetperf/uetperf}
UETCTL=${UETCTL:-${UET_ROOT:-$(dirname "${BASH_SOURCE[0]}")/..}/tools/uetctl/uetctl}
UET_SPINES=4
UET_ECMP_BPF=${UET_ECMP_BPF:-$(dirname "${BASH_SOURCE[0]}")/ecmp.bpf.o}
# the leaves' multipath hash (uet_leaf_hash): crc or kernel
UET_FABRIC_HASH=${UET_FABRIC_HASH:-crc}
UET_ECMP_MAP=$(dirname "${BASH_SOURCE[0]}")/ecmp_map.py

# uet_ns_quiet NS: no IPv6 router solicitations or DAD chatter, so that
# interface counters count UET traffic.
uet_ns_quiet()
{
	ip netns exec "$1" sh -c '
		for k in accept_dad dad_transmits router_solicitations accept_ra; do
			sysctl -q -w net.ipv6.conf.default.$k=0
			sysctl -q -w net.ipv6.conf.all.$k=0
		done' >/dev/null 2>&1
}

# uet_link NS1 IF1 NS2 IF2 [MTU]: a veth pair between two namespaces, up.
uet_link()
{
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3" ||
		return 1
	if [ -n "${5:-}" ]; then
		ip -n "$1" link set "$2" mtu "$5"
		ip -n "$3" link set "$4" mtu "$5"
	fi
	ip -n "$1" link set "$2" up && ip -n "$3" link set "$4" up
}

# uet_addr NS IF ADDR4/LEN ADDR6/LEN
uet_addr()
{
	ip -n "$1" addr add "$3" dev "$2" &&
		ip -n "$1" addr add "$4" dev "$2" nodad
}

# uet_neigh_pin NS1 IF1 NS2 IF2: each end of a link knows the other's
# addresses for good (permanent neighbour entries).  Under TCG a next hop
# still resolving when a burst comes drops all its queue cannot hold:
# path_trim lost trimmed packets so (126 discards in one IPv6 run).
uet_neigh_pin()
{
	_uet_neigh_pin "$1" "$2" "$3" "$4" && _uet_neigh_pin "$3" "$4" "$1" "$2"
}

# _uet_neigh_pin NS IF PEER_NS PEER_IF: NS learns PEER_IF's addresses.
_uet_neigh_pin()
{
	local mac a

	mac=$(ip -n "$3" -br link show dev "$4" | awk '{ print $3 }')
	for a in $(ip -n "$3" -br addr show dev "$4" | cut -d' ' -f2- |
		   tr -s ' ' '\n' | grep /); do
		ip -n "$1" neigh replace "${a%/*}" lladdr "$mac" dev "$2" \
			nud permanent || return 1
	done
}

# uet_pair VAR_A VAR_B [MTU]: two namespaces joined by a veth pair,
# va 10.0.0.1 fd00::1 and vb 10.0.0.2 fd00::2.
uet_pair()
{
	local a b

	uet_netns_new "$1" && uet_netns_new "$2" || return 1
	a=${!1}
	b=${!2}
	uet_ns_quiet "$a"
	uet_ns_quiet "$b"
	uet_link "$a" va "$b" vb "${3:-}" &&
		uet_addr "$a" va 10.0.0.1/24 fd00::1/64 &&
		uet_addr "$b" vb 10.0.0.2/24 fd00::2/64
}

# uet_line VAR_A VAR_R VAR_B: three namespaces in a line, R routing between
# A and B: A a-r 10.0.1.1 fd01::1 -- r-a 10.0.1.2 fd01::2, R, r-b 10.0.2.2
# fd02::2 -- b-r 10.0.2.1 fd02::1, B; A's and B's default routes via R.
uet_line()
{
	local a r b

	uet_netns_new "$1" && uet_netns_new "$2" && uet_netns_new "$3" ||
		return 1
	a=${!1}
	r=${!2}
	b=${!3}
	uet_ns_quiet "$a"
	uet_ns_quiet "$r"
	uet_ns_quiet "$b"
	ip netns exec "$r" sysctl -q -w net.ipv4.ip_forward=1 \
		net.ipv6.conf.all.forwarding=1 >/dev/null || return 1
	uet_link "$a" a-r "$r" r-a && uet_link "$r" r-b "$b" b-r &&
		uet_addr "$a" a-r 10.0.1.1/24 fd01::1/64 &&
		uet_addr "$r" r-a 10.0.1.2/24 fd01::2/64 &&
		uet_addr "$r" r-b 10.0.2.2/24 fd02::2/64 &&
		uet_addr "$b" b-r 10.0.2.1/24 fd02::1/64 || return 1
	ip -n "$a" route add default via 10.0.1.2 &&
		ip -n "$a" -6 route add default via fd01::2 &&
		ip -n "$b" route add default via 10.0.2.2 &&
		ip -n "$b" -6 route add default via fd02::2
}

# uet_stat NS NAME: a transport counter of the namespace.
uet_stat()
{
	ip netns exec "$1" awk -v n="$2" '$1 == n { print $2 }' /proc/net/uet_stat
}

# uet_no_pdc NS [PEER]: true when NS has no PDC (with PEER); a condition
# for uet_wait_until, which runs it anew each poll.
uet_no_pdc()
{
	[ -z "$("$UETCTL" -n "$1" pdc show ${2:+"$2"})" ]
}

# uet_no_pdcs NS...: true when none of the namespaces has a PDC, so that
# the next traffic between them starts new spraying states, of the
# spraying type set now (a state keeps the type it was created with).
uet_no_pdcs()
{
	local ns

	for ns in "$@"; do
		uet_no_pdc "$ns" || return 1
	done
}

# Bounded polls from one shell inside a namespace, as uet_wait_until but
# starting no process per poll but what reads the condition: under TCG a
# poll of a few processes every 0.1 s (sh, ip, awk; tc and jq) takes CPU
# from the very traffic it waits for. The 0.1 s pause is a read with a
# timeout on a FIFO no one writes (the VM has no /dev/fd for <(...)).
_UET_POLL='
	end=$((SECONDS + $1))
	fifo=${TMPDIR:-/tmp}/uet-poll.$$
	mkfifo "$fifo" && exec 3<>"$fifo" && rm -f "$fifo" || exit 2
	until cond "$@"; do
		[ "$SECONDS" -lt "$end" ] || exit 1
		read -r -t 0.1 -u 3
	done'

# uet_wait_stat TIMEOUT_S NS NAME GOAL: wait until the transport counter
# NAME of NS reaches GOAL (polled every 0.1 s, at most TIMEOUT_S seconds).
uet_wait_stat()
{
	ip netns exec "$2" bash -c '
		cond()
		{
			local n x v=0

			while read -r n x; do
				[ "$n" = "$2" ] && v=$x && break
			done </proc/net/uet_stat
			[ "$v" -ge "$3" ]
		}'"$_UET_POLL" uet_wait_stat "$1" "$3" "$4"
}

# uet_wait_tc_pkts TIMEOUT_S NS DEV PREF GOAL: wait until the actions of
# the ingress filters of DEV in NS with preference PREF have counted GOAL
# packets (polled every 0.1 s, at most TIMEOUT_S seconds).
uet_wait_tc_pkts()
{
	ip netns exec "$2" bash -c '
		cond()
		{
			local out n=0 re="Sent [0-9]+ bytes ([0-9]+) pkt"

			out=$(tc -s filter show dev "$2" ingress pref "$3")
			while [[ $out =~ $re ]]; do
				n=$((n + BASH_REMATCH[1]))
				out=${out#*"${BASH_REMATCH[0]}"}
			done
			[ "$n" -ge "$4" ]
		}'"$_UET_POLL" uet_wait_tc_pkts "$1" "$3" "$4" "$5"
}

# uet_server NS OUT ARGS...: start a uetperf server in the background,
# JSON summary to OUT; return once it is bound (UET_READY_WAIT seconds at
# most, default 60: on the sanitizer kernel beside another VM, starting
# one took more than 10). Sets UET_SERVER_PID.
uet_server()
{
	local ns=$1 out=$2

	shift 2
	: >"$out.err"
	ip netns exec "$ns" "$UETPERF" -s -J "$@" >"$out" 2>"$out.err" &
	UET_SERVER_PID=$!
	uet_wait_until "${UET_READY_WAIT:-60}" grep -q '^uetperf: ready' "$out.err"
}

# uet_json FILE KEY: a value of a uetperf JSON summary (empty if none).
uet_json()
{
	jq -r ".$2 // empty" "$1" 2>/dev/null | tail -n 1
}

# uet_check_transfer NAME SRV_OUT CLI_OUT N: one test point: the server
# got N messages, intact, none twice, and the client saw no error.
# Returns 1 when the point failed.
uet_check_transfer()
{
	local got err dup cerr cmsg

	got=$(uet_json "$2" messages)
	err=$(uet_json "$2" errors)
	dup=$(uet_json "$2" duplicates)
	cerr=$(uet_json "$3" errors)
	cmsg=$(uet_json "$3" messages)
	if [ "$got" = "$4" ] && [ "$err" = 0 ] && [ "$dup" = 0 ] &&
	   [ "$cerr" = 0 ] && [ "$cmsg" = "$4" ]; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "server got '$got' of $4 messages, errors '$err', duplicates '$dup'; client sent '$cmsg', errors '$cerr'"
		sed 's/^/# /' "$2.err" "$3" "$3.err" 2>/dev/null
		return 1
	fi
}

# uet_transfer NAME SNS CNS DST N SERVER_ARGS -- CLIENT_ARGS: run a server
# in SNS for N messages and a client in CNS sending N messages to DST,
# and check the result as one test point.
uet_transfer()
{
	local name=$1 sns=$2 cns=$3 dst=$4 n=$5 out sargs=() cargs=()

	shift 5
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		sargs+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	cargs=("$@")
	out=$(mktemp -d)
	if ! uet_server "$sns" "$out/s" -n "$n" -i 60 "${sargs[@]}"; then
		ktap_fail "$name" "server did not start"
		sed 's/^/# server: /' "$out/s.err"
		return
	fi
	ip netns exec "$cns" "$UETPERF" -c "$dst" -J -n "$n" "${cargs[@]}" \
		>"$out/c" 2>"$out/c.err"
	wait "$UET_SERVER_PID"
	uet_check_transfer "$name" "$out/s" "$out/c" "$n"
	rm -rf "$out"
}

# uet_leaf_hash NS DEV: the leaf NS chooses among its equal-cost paths for
# what comes in on DEV as a switch does, by a salted CRC-32 of the 5-tuple
# (ecmp.bpf.c), so that an aligned range of 2^k entropy values spreads
# evenly over a power-of-two number of paths.  UET_FABRIC_HASH=kernel
# leaves it to Linux's own hash of the 5-tuple (jhash, a random key per
# boot): the program then only clears the hash a local TCP socket's
# packet brings.
uet_leaf_hash()
{
	local sec

	case $UET_FABRIC_HASH in
	crc) sec=tc ;;
	kernel) sec=tc_clear ;;
	*) echo "# UET_FABRIC_HASH=$UET_FABRIC_HASH: crc or kernel" >&2
	   return 1 ;;
	esac
	tc -n "$1" qdisc add dev "$2" clsact &&
		tc -n "$1" filter add dev "$2" ingress bpf direct-action \
			obj "$UET_ECMP_BPF" sec "$sec" ||
		{ echo "# cannot attach $UET_ECMP_BPF to $2 (make bpf)" >&2
		  return 1; }
}

# uet_fabric_build [MTU]: the leaf-spine fabric; sets FAB_H1 FAB_H2 FAB_L1
# FAB_L2 and FAB_S (array of the spines' namespaces).
uet_fabric_build()
{
	local mtu=${1:-} i nh4l1=() nh4l2=() nh6l1=() nh6l2=() ns

	uet_netns_new FAB_H1 && uet_netns_new FAB_H2 &&
		uet_netns_new FAB_L1 && uet_netns_new FAB_L2 || return 1
	FAB_S=()
	for i in $(seq 1 $UET_SPINES); do
		uet_netns_new ns || return 1
		FAB_S+=("$ns")
	done
	for ns in "$FAB_H1" "$FAB_H2" "$FAB_L1" "$FAB_L2" "${FAB_S[@]}"; do
		uet_ns_quiet "$ns"
	done
	for ns in "$FAB_L1" "$FAB_L2" "${FAB_S[@]}"; do
		ip netns exec "$ns" sysctl -q -w net.ipv4.ip_forward=1 \
			net.ipv6.conf.all.forwarding=1 >/dev/null
	done
	for ns in "$FAB_L1" "$FAB_L2"; do
		ip netns exec "$ns" sysctl -q -w \
			net.ipv4.fib_multipath_hash_policy=1 \
			net.ipv6.fib_multipath_hash_policy=1 >/dev/null
	done

	uet_link "$FAB_H1" h1-l1 "$FAB_L1" l1-h1 "$mtu" &&
		uet_addr "$FAB_H1" h1-l1 10.1.1.1/24 fd01::1/64 &&
		uet_addr "$FAB_L1" l1-h1 10.1.1.254/24 fd01::254/64 &&
		uet_neigh_pin "$FAB_H1" h1-l1 "$FAB_L1" l1-h1 &&
		uet_leaf_hash "$FAB_L1" l1-h1 || return 1
	uet_link "$FAB_H2" h2-l2 "$FAB_L2" l2-h2 "$mtu" &&
		uet_addr "$FAB_H2" h2-l2 10.2.2.1/24 fd02::1/64 &&
		uet_addr "$FAB_L2" l2-h2 10.2.2.254/24 fd02::254/64 &&
		uet_neigh_pin "$FAB_H2" h2-l2 "$FAB_L2" l2-h2 &&
		uet_leaf_hash "$FAB_L2" l2-h2 || return 1
	ip -n "$FAB_H1" route add default via 10.1.1.254
	ip -n "$FAB_H1" -6 route add default via fd01::254
	ip -n "$FAB_H2" route add default via 10.2.2.254
	ip -n "$FAB_H2" -6 route add default via fd02::254

	for i in $(seq 1 $UET_SPINES); do
		ns=${FAB_S[$((i - 1))]}
		uet_link "$FAB_L1" l1-s$i "$ns" s$i-l1 "$mtu" &&
			uet_addr "$FAB_L1" l1-s$i 10.11.$i.1/24 fd11:$i::1/64 &&
			uet_addr "$ns" s$i-l1 10.11.$i.2/24 fd11:$i::2/64 &&
			uet_neigh_pin "$FAB_L1" l1-s$i "$ns" s$i-l1 ||
			return 1
		uet_link "$FAB_L2" l2-s$i "$ns" s$i-l2 "$mtu" &&
			uet_addr "$FAB_L2" l2-s$i 10.12.$i.1/24 fd12:$i::1/64 &&
			uet_addr "$ns" s$i-l2 10.12.$i.2/24 fd12:$i::2/64 &&
			uet_neigh_pin "$FAB_L2" l2-s$i "$ns" s$i-l2 ||
			return 1
		ip -n "$ns" route add 10.1.1.0/24 via 10.11.$i.1
		ip -n "$ns" route add 10.2.2.0/24 via 10.12.$i.1
		ip -n "$ns" -6 route add fd01::/64 via fd11:$i::1
		ip -n "$ns" -6 route add fd02::/64 via fd12:$i::1
		nh4l1+=(nexthop via 10.11.$i.2)
		nh4l2+=(nexthop via 10.12.$i.2)
		nh6l1+=(nexthop via fd11:$i::2)
		nh6l2+=(nexthop via fd12:$i::2)
	done
	ip -n "$FAB_L1" route add 10.2.2.0/24 "${nh4l1[@]}" &&
		ip -n "$FAB_L2" route add 10.1.1.0/24 "${nh4l2[@]}" &&
		ip -n "$FAB_L1" -6 route add fd02::/64 "${nh6l1[@]}" &&
		ip -n "$FAB_L2" -6 route add fd01::/64 "${nh6l2[@]}"
}

# _uet_wide_host NS LEAF K NET [MTU]: host NS's link "uplink" to LEAF's
# "hK", 10.NET.K.1/24 with LEAF at .254 and its default route.
_uet_wide_host()
{
	local ns=$1 leaf=$2 k=$3 net=$4 mtu=${5:-}

	uet_ns_quiet "$ns"
	ip link add uplink netns "$ns" type veth peer name "h$k" \
		netns "$leaf" || return 1
	if [ -n "$mtu" ]; then
		ip -n "$ns" link set uplink mtu "$mtu" &&
			ip -n "$leaf" link set "h$k" mtu "$mtu" || return 1
	fi
	ip -n "$ns" link set uplink up &&
		ip -n "$leaf" link set "h$k" up &&
		ip -n "$ns" addr add "10.$net.$k.1/24" dev uplink &&
		ip -n "$leaf" addr add "10.$net.$k.254/24" dev "h$k" &&
		ip -n "$ns" route add default via "10.$net.$k.254" &&
		uet_leaf_hash "$leaf" "h$k"
}

# uet_fabric_wide N [MTU]: the leaf-spine fabric with N hosts under each leaf,
# IPv4 only (tools/bench-collective.sh). Sets FAB_L1 FAB_L2 FAB_S, and
# FAB_LEFT and FAB_RIGHT (arrays of the hosts' namespaces):
#
#   left k 10.1.k.1 -- l1 ==== s1..s4 ==== l2 -- right k 10.2.k.1
#
# Each host's link is on 10.1.k.0/24 (10.2.k.0/24), its leaf at .254.
uet_fabric_wide()
{
	local n=$1 mtu=${2:-} i k ns nh1=() nh2=()

	uet_netns_new FAB_L1 && uet_netns_new FAB_L2 || return 1
	FAB_S=()
	FAB_LEFT=()
	FAB_RIGHT=()
	for i in $(seq 1 $UET_SPINES); do
		uet_netns_new ns || return 1
		FAB_S+=("$ns")
	done
	for k in $(seq 1 "$n"); do
		uet_netns_new ns || return 1
		FAB_LEFT+=("$ns")
		uet_netns_new ns || return 1
		FAB_RIGHT+=("$ns")
	done
	for ns in "$FAB_L1" "$FAB_L2" "${FAB_S[@]}"; do
		uet_ns_quiet "$ns"
		ip netns exec "$ns" sysctl -q -w net.ipv4.ip_forward=1 \
			net.ipv4.fib_multipath_hash_policy=1 >/dev/null
	done
	for k in $(seq 1 "$n"); do
		_uet_wide_host "${FAB_LEFT[$((k - 1))]}" "$FAB_L1" "$k" 1 \
			"$mtu" &&
			_uet_wide_host "${FAB_RIGHT[$((k - 1))]}" "$FAB_L2" \
				"$k" 2 "$mtu" ||
			return 1
	done
	for i in $(seq 1 $UET_SPINES); do
		ns=${FAB_S[$((i - 1))]}
		uet_link "$FAB_L1" "l1-s$i" "$ns" "s$i-l1" "$mtu" &&
			ip -n "$FAB_L1" addr add "10.11.$i.1/24" dev "l1-s$i" &&
			ip -n "$ns" addr add "10.11.$i.2/24" dev "s$i-l1" &&
			uet_link "$FAB_L2" "l2-s$i" "$ns" "s$i-l2" "$mtu" &&
			ip -n "$FAB_L2" addr add "10.12.$i.1/24" dev "l2-s$i" &&
			ip -n "$ns" addr add "10.12.$i.2/24" dev "s$i-l2" &&
			ip -n "$ns" route add 10.1.0.0/16 via "10.11.$i.1" &&
			ip -n "$ns" route add 10.2.0.0/16 via "10.12.$i.1" ||
			return 1
		nh1+=(nexthop via "10.11.$i.2")
		nh2+=(nexthop via "10.12.$i.2")
	done
	ip -n "$FAB_L1" route add 10.2.0.0/16 "${nh1[@]}" &&
		ip -n "$FAB_L2" route add 10.1.0.0/16 "${nh2[@]}"
}

# uet_fabric_counts: packets each spine received from l1 (h1 -> h2 data),
# one number per spine on one line.
uet_fabric_counts()
{
	local i out=()

	for i in $(seq 1 $UET_SPINES); do
		out+=("$(ip -n "${FAB_S[$((i - 1))]}" -j -s link show s$i-l1 |
			 jq '.[0].stats64.rx.packets')")
	done
	echo "${out[*]}"
}

# uet_fabric_delta "BEFORE" "AFTER": per-spine differences.
uet_fabric_delta()
{
	local b=($1) a=($2) i out=()

	for i in "${!a[@]}"; do
		out+=($((a[i] - b[i])))
	done
	echo "${out[*]}"
}

# uet_fabric_run SPRAY FAMILY N LEN: set the spraying type on h1, send N
# messages of LEN bytes from h1 to h2 over IPv4 or IPv6 ("4" or "6"), and
# print the packets each spine carried. Returns non-zero if the transfer
# was not delivered whole.
uet_fabric_run()
{
	local spray=$1 fam=$2 n=$3 len=$4 dst=10.2.2.1 before out rc

	[ "$fam" = 6 ] && dst=fd02::1
	"$UETCTL" -n "$FAB_H1" set spray "$spray" >/dev/null || return 1
	out=$(mktemp -d)
	uet_server "$FAB_H2" "$out/s" -n "$n" -i 60 -l "$len" -R 4194304 ||
		return 1
	before=$(uet_fabric_counts)
	ip netns exec "$FAB_H1" "$UETPERF" -c "$dst" -J -n "$n" -l "$len" \
		-S 16777216 >"$out/c" 2>"$out/c.err"
	wait "$UET_SERVER_PID"
	rc=$?
	[ "$(uet_json "$out/s" messages)" = "$n" ] &&
		[ "$(uet_json "$out/s" errors)" = 0 ] || rc=1
	uet_fabric_delta "$before" "$(uet_fabric_counts)"
	rm -rf "$out"
	return $rc
}

# uet_share_check NAME SPRAY "COUNTS": one test point on how the packets
# spread: none keeps >= 99% on one path; the others use every path and
# none above twice its fair share; rr, whose aligned range the leaves'
# CRC spreads evenly (uet_leaf_hash), keeps every path within 5% of it.
uet_share_check()
{
	local name=$1 spray=$2 c=($3) total=0 max=0 min=-1 x

	for x in "${c[@]}"; do
		total=$((total + x))
		[ "$x" -gt "$max" ] && max=$x
		{ [ "$min" -lt 0 ] || [ "$x" -lt "$min" ]; } && min=$x
	done
	if [ "$total" -eq 0 ]; then
		ktap_fail "$name" "no packet on any spine"
	elif [ "$spray" = none ]; then
		if [ $((max * 100)) -ge $((total * 99)) ]; then
			ktap_ok "$name"
		else
			ktap_fail "$name" "per spine: ${c[*]}: busiest has $((max * 100 / total))%"
		fi
	elif [ "$spray" = rr ] && [ "$UET_FABRIC_HASH" = crc ]; then
		if [ $((min * ${#c[@]} * 100)) -ge $((total * 95)) ] &&
		   [ $((max * ${#c[@]} * 100)) -le $((total * 105)) ]; then
			ktap_ok "$name"
		else
			ktap_fail "$name" "per spine: ${c[*]}: not within 5% of $((total / ${#c[@]})) each"
		fi
	elif [ "$min" -gt 0 ] && [ $((max * ${#c[@]})) -le $((2 * total)) ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name" "per spine: ${c[*]} (fair share $((total / ${#c[@]})))"
	fi
}

# uet_rr_wire_check NAME: capture the UDP source ports of h1's data
# packets (PDS type RUD_REQ, 2, in the prologue's top 5 bits: control
# packets such as RCCC's CREDIT_REQ keep to the PDC's own value) and check
# they are StartingPortOffset.. in strict rotation and cover exactly the
# configured range.
uet_rr_wire_check()
{
	local name=$1 out start bits n ports bad

	out=$(mktemp -d)
	"$UETCTL" -n "$FAB_H1" set spray rr >/dev/null
	start=$("$UETCTL" -j -n "$FAB_H1" show | jq .start_port)
	bits=$("$UETCTL" -j -n "$FAB_H1" show | jq .entropy_bits)
	n=$((1 << bits))
	ip netns exec "$FAB_H1" tcpdump -i h1-l1 -nn -l -c $((3 * n)) \
		"udp dst port 4793 and src host 10.1.1.1 and udp[8] >> 3 = 2" \
		>"$out/cap" 2>/dev/null &
	uet_wait_until 10 sh -c "ip netns exec $FAB_H1 ss -f link -p 2>/dev/null | grep -q tcpdump || [ -s $out/cap ]"
	uet_fabric_run rr 4 4 1048576 >/dev/null
	uet_wait_until 20 sh -c "[ \$(wc -l <$out/cap) -ge $((3 * n)) ]"
	kill %tcpdump 2>/dev/null
	ports=$(sed -n 's/.*IP 10\.1\.1\.1\.\([0-9]*\) > .*/\1/p' "$out/cap")
	bad=$(echo "$ports" | awk -v s="$start" -v n="$n" '
		NR > 1 && $1 != s + (prev - s + 1) % n { bad++ }
		{ prev = $1; seen[$1] = 1 }
		END {
			for (p = s; p < s + n; p++) if (!seen[p % 65536]) bad++
			for (p in seen) if ((p - s + 65536) % 65536 >= n) bad++
			print bad + 0
		}')
	if [ "$(echo "$ports" | wc -l)" -ge $((3 * n)) ] && [ "$bad" = 0 ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name" "$(echo "$ports" | wc -l) ports captured, $bad out of rotation or range $start+$n"
	fi
	rm -rf "$out"
}

uet_fabric_main()
{
	local spray fam counts

	ktap_header
	ktap_plan 9
	if ! uet_fabric_build; then
		echo "# cannot build the fabric"
		exit "$KSFT_FAIL"
	fi
	for fam in 4 6; do
		for spray in none rr active reps; do
			counts=$(uet_fabric_run "$spray" "$fam" 32 262144) ||
				echo "# transfer with $spray over IPv$fam incomplete"
			echo "# IPv$fam $spray per spine: $counts"
			uet_share_check "IPv$fam $spray spread" "$spray" "$counts"
		done
	done
	uet_rr_wire_check "rr wire ports rotate over the configured range"
	ktap_finished
}

# --- path feedback helpers ---
# For selftests/path_*.sh and tools/bench-failover.sh: per spine, UET
# packets counted by PDS type, a path that drops every IP packet, and the
# trimming switch (selftests/trim.bpf.o, built by tools/bpf.mk).

UET_TRIM_OBJ=${UET_TRIM_OBJ:-$(dirname "${BASH_SOURCE[0]}")/trim.bpf.o}

# uet_spine_ns I: the namespace of spine I (1..UET_SPINES).
uet_spine_ns()
{
	echo "${FAB_S[$(($1 - 1))]}"
}

# uet_pds_count_add I: count what spine I receives from l1 (h1 -> h2) by
# PDS type, IPv4 and IPv6: data (RUD requests) and CTRL PROBEs, before any
# drop of uet_path_fail.
uet_pds_count_add()
{
	local ns dev=s$1-l1

	ns=$(uet_spine_ns "$1")
	tc -n "$ns" qdisc add dev "$dev" clsact 2>/dev/null
	# first byte: PDS type << 3; a probe's prologue is 0x5b00 (CTRL, PROBE)
	tc -n "$ns" filter add dev "$dev" ingress pref 1 protocol ip u32 \
		match u8 17 0xff at 9 match u16 4793 0xffff at 22 \
		match u8 0x10 0xf8 at 28 action continue &&
	tc -n "$ns" filter add dev "$dev" ingress pref 2 protocol ip u32 \
		match u8 17 0xff at 9 match u16 4793 0xffff at 22 \
		match u16 0x5b00 0xff80 at 28 action continue &&
	tc -n "$ns" filter add dev "$dev" ingress pref 3 protocol ipv6 u32 \
		match u8 17 0xff at 6 match u16 4793 0xffff at 42 \
		match u8 0x10 0xf8 at 48 action continue &&
	tc -n "$ns" filter add dev "$dev" ingress pref 4 protocol ipv6 u32 \
		match u16 0x5b00 0xff80 at 48 match u8 17 0xff at 6 \
		match u16 4793 0xffff at 42 action continue
}

# uet_pds_counts I: "DATA PROBES" spine I has counted so far.
uet_pds_counts()
{
	tc -n "$(uet_spine_ns "$1")" -s -j filter show dev "s$1-l1" ingress |
		jq -r '[.[] | select(.options.actions) |
			{p: .pref, n: .options.actions[0].stats.packets}] |
			[(map(select(.p == 1 or .p == 3) | .n) | add // 0),
			 (map(select(.p == 2 or .p == 4) | .n) | add // 0)] |
			"\(.[0]) \(.[1])"'
}

# uet_pds_counts_all: the data packets of every spine, then the probes of
# every spine: "D1 D2 D3 D4 P1 P2 P3 P4".
uet_pds_counts_all()
{
	local i d=() p=() x

	for i in $(seq 1 $UET_SPINES); do
		x=($(uet_pds_counts "$i"))
		d+=("${x[0]}")
		p+=("${x[1]}")
	done
	echo "${d[*]} ${p[*]}"
}

# uet_path_fail I: spine I drops every IP packet it receives, both ways,
# but ARP and ICMPv6 (neighbour discovery), so that l1 and l2 keep
# sending to it and uet_pds_counts sees what reaches it.
uet_path_fail()
{
	local ns dev

	ns=$(uet_spine_ns "$1")
	for dev in "s$1-l1" "s$1-l2"; do
		tc -n "$ns" qdisc add dev "$dev" clsact 2>/dev/null
		tc -n "$ns" filter add dev "$dev" ingress pref 100 protocol ip \
			matchall action drop &&
		tc -n "$ns" filter add dev "$dev" ingress pref 101 \
			protocol ipv6 u32 match u8 58 0xff at 6 action pass &&
		tc -n "$ns" filter add dev "$dev" ingress pref 102 \
			protocol ipv6 matchall action drop || return 1
	done
}

# uet_path_restore I: spine I forwards again.
uet_path_restore()
{
	local ns dev pref

	ns=$(uet_spine_ns "$1")
	for dev in "s$1-l1" "s$1-l2"; do
		for pref in 100 101 102; do
			tc -n "$ns" filter del dev "$dev" ingress pref $pref ||
				return 1
		done
	done
}

# uet_trim_add NS DEV EVERY: the trimming switch on DEV's egress, cutting
# every EVERY-th UET data packet to its headers.
uet_trim_add()
{
	local ns=$1 dev=$2

	[ -f "$UET_TRIM_OBJ" ] || { echo "# no $UET_TRIM_OBJ (make bpf)"; return 1; }
	tc -n "$ns" qdisc add dev "$dev" clsact 2>/dev/null
	tc -n "$ns" filter add dev "$dev" egress pref 1 bpf direct-action \
		obj "$UET_TRIM_OBJ" sec tc || return 1
	uet_trim_set "$ns" "$dev" "$3"
}

# uet_trim_map NS DEV NAME: the id of the trimmer's map NAME (trim_cfg,
# trim_stats) on DEV's egress.
uet_trim_map()
{
	local prog id

	prog=$(tc -n "$1" -j filter show dev "$2" egress |
	       jq '.[] | select(.options.prog) | .options.prog.id' | head -n 1)
	[ -n "$prog" ] || return 1
	for id in $(bpftool -j prog show id "$prog" | jq '.map_ids[]'); do
		if [ "$(bpftool -j map show id "$id" | jq -r .name)" = "$3" ]; then
			echo "$id"
			return 0
		fi
	done
	return 1
}

# uet_trim_set NS DEV EVERY [DSCP [LIMIT]]: trim every EVERY-th data
# packet (0: none), remarked to DSCP (default or 0: the trimmer's, 0x3f),
# until LIMIT packets were trimmed (default or 0: no limit).
uet_trim_set()
{
	local id e=$3 d=${4:-0} l=${5:-0}

	id=$(uet_trim_map "$1" "$2" trim_cfg) || return 1
	# struct trim_cfg { every, dscp, port, limit }, little-endian
	bpftool map update id "$id" key 0 0 0 0 value \
		$((e & 255)) $((e >> 8 & 255)) $((e >> 16 & 255)) $((e >> 24)) \
		"$d" 0 0 0 0 0 0 0 \
		$((l & 255)) $((l >> 8 & 255)) $((l >> 16 & 255)) $((l >> 24))
}

# uet_trim_stat NS DEV FIELD: the trimmer's counter FIELD (seen, trimmed,
# bytes_cut).
uet_trim_stat()
{
	local id

	id=$(uet_trim_map "$1" "$2" trim_stats) || return 1
	bpftool -j map dump id "$id" | jq ".[0].formatted.value.$3"
}

# uet_ev_spine V [FAM]: the spine (1..UET_SPINES) that l1 sends h1's UET
# packets with source port (entropy value) V to h2 through, IPv4 or IPv6,
# under UET_FABRIC_HASH=kernel (Linux's hash, which a route lookup runs).
uet_ev_spine()
{
	local src=10.1.1.1 dst=10.2.2.1 re='10\.11\.\([0-9]*\)\.2'

	if [ "${2:-4}" = 6 ]; then
		src=fd01::1
		dst=fd02::1
		re='fd11:\([0-9]*\)::2'
	fi
	ip -n "$FAB_L1" route get "$dst" from "$src" iif l1-h1 ipproto udp \
		sport "$1" dport 4793 | sed -n "s/.* via $re .*/\\1/p"
}

# uet_dest_values NS DST FLAG: the entropy values of NS's spraying state
# for DST (uetctl dest show) that carry FLAG (bad, marked, stale), or
# with FLAG "all" every value listed; one a line.
uet_dest_values()
{
	"$UETCTL" -j -n "$1" dest show "$2" 2>/dev/null |
		jq -r --arg f "$3" '.. | .values? // empty | .[] |
			select($f == "all" or (.flags | index($f))) | .value'
}

# --- path events ---
# A background `uetctl -j monitor` in one namespace, for the path
# selftests: the events multicast group says which values went bad or
# came back and when freezing started and ended. Events can be lost (the
# kernel's events_lost counter, or the listener's socket overrunning):
# uet_mon_lost says so, so that a test can tell a missing event from a
# lost one.

# uet_mon_start NS: start the monitor in NS, listening when this returns;
# sets UET_MON (its directory: "events", one JSON object a line, and
# "err"), UET_MON_PID and UET_MON_NS. lib.sh's cleanup ends it with NS.
uet_mon_start()
{
	UET_MON=$(mktemp -d)
	UET_MON_NS=$1
	UET_MON_LOST0=$(uet_stat "$1" events_lost)
	"$UETCTL" -j -n "$1" monitor >"$UET_MON/events" 2>"$UET_MON/err" &
	UET_MON_PID=$!
	uet_wait_until 10 grep -q 'monitoring events' "$UET_MON/err"
}

# uet_mon_stop: end the monitor and delete what it wrote.
uet_mon_stop()
{
	kill "$UET_MON_PID" 2>/dev/null
	wait "$UET_MON_PID" 2>/dev/null
	rm -rf "$UET_MON"
}

# uet_mon_mark: the number of whole lines (events) printed so far, a
# position for uet_mon_values.
uet_mon_mark()
{
	wc -l <"$UET_MON/events"
}

# uet_mon_values TYPE [FROM [TO]]: the values the events of TYPE (value-bad,
# value-restored, freeze-start, freeze-end) name, one a line, in order,
# from events FROM+1..TO (default: all whole lines so far).
uet_mon_values()
{
	local to=${3:-$(uet_mon_mark)}

	head -n "$to" "$UET_MON/events" | tail -n +$((${2:-0} + 1)) |
		jq -r --arg t "$1" 'select(.event == $t) | .value'
}

# uet_mon_count TYPE [FROM [TO]]: how many events of TYPE, as above.
uet_mon_count()
{
	uet_mon_values "$@" | wc -l
}

# uet_mon_bad_at [TO]: the values bad after event TO (default: the last
# whole one): those whose last value-bad or value-restored event is
# value-bad.
uet_mon_bad_at()
{
	head -n "${1:-$(uet_mon_mark)}" "$UET_MON/events" |
		jq -rs 'reduce (.[] | select(.event == "value-bad" or
					    .event == "value-restored")) as $e
			({}; .["\($e.value)"] = $e.event) |
			to_entries[] | select(.value == "value-bad") | .key'
}

# uet_mon_lost: non-zero if events were lost since the monitor started:
# how much the namespace's events_lost counter moved, plus one per
# overrun of the monitor's socket (each may have lost several).
uet_mon_lost()
{
	echo $(($(uet_stat "$UET_MON_NS" events_lost) - UET_MON_LOST0 +
		$(grep -c 'events lost' "$UET_MON/err")))
}

_uet_mon_has()
{
	[ "$(uet_mon_count "$1" "${3:-0}")" -ge "$2" ]
}

# uet_mon_wait TYPE N [FROM]: wait (at most 10 s) until the monitor has
# printed N events of TYPE after event FROM: the kernel counts a path
# event before it sends it.
uet_mon_wait()
{
	uet_wait_until 10 _uet_mon_has "$@"
}

# uet_ev_spines VALUE...: "VALUE SPINE" lines, the spine l1 sends h1's
# UET packets with each source port VALUE to h2 through (IPv4), all
# computed by one ecmp_map.py (with UET_FABRIC_HASH=kernel: looked up by
# one `ip -batch`): the path tests classify many values while a transfer
# loads the VM, where each process started costs.
uet_ev_spines()
{
	local v i spines vals=("$@")

	[ $# -gt 0 ] || return 0
	if [ "$UET_FABRIC_HASH" = crc ]; then
		python3 "$UET_ECMP_MAP" 10.1.1.1 10.2.2.1 $UET_SPINES "$@"
		return
	fi
	spines=($(for v in "$@"; do
			echo "route get 10.2.2.1 from 10.1.1.1 iif l1-h1 ipproto udp sport $v dport 4793"
		  done | ip -n "$FAB_L1" -batch - |
		  sed -n 's/.* via 10\.11\.\([0-9]*\)\.2 .*/\1/p'))
	if [ ${#spines[@]} -ne $# ]; then
		for v in "$@"; do
			echo "$v $(uet_ev_spine "$v")"
		done
		return
	fi
	for i in "${!vals[@]}"; do
		echo "${vals[$i]} ${spines[$i]}"
	done
}

# uet_ev_spine_map: set UET_EV_MAP to the uet_ev_spines of every entropy
# value of h1's configured range (uetctl show), the one rr and active use.
uet_ev_spine_map()
{
	local start n

	start=$("$UETCTL" -j -n "$FAB_H1" show | jq .start_port)
	n=$((1 << $("$UETCTL" -j -n "$FAB_H1" show | jq .entropy_bits)))
	UET_EV_MAP=$(uet_ev_spines $(seq "$start" $((start + n - 1))))
	[ "$(echo "$UET_EV_MAP" | grep -c ' [0-9]')" = "$n" ]
}

# _uet_ev_map MAP AWK_PROGRAM: run the program over stdin with sp[VALUE]
# the spine of each value in MAP.
_uet_ev_map()
{
	UET_EV_MAP=$1 awk "$2"'
		BEGIN {
			n = split(ENVIRON["UET_EV_MAP"], l, "\n")
			for (k = 1; k <= n; k++) {
				split(l[k], f, " ")
				sp[f[1]] = f[2]
			}
		}'
}

# uet_values_on I [off]: of the values read one a line, the distinct ones
# that go through spine I (with "off": through another); the values
# UET_EV_MAP lacks (REPS explores all 65536) are looked up at once.
uet_values_on()
{
	local vals more

	vals=$(grep . | sort -nu)
	more=$(uet_ev_spines $(_uet_ev_map "$UET_EV_MAP" '!($1 in sp)' <<<"$vals"))
	_uet_ev_map "$UET_EV_MAP
$more" '
		NF && ((sp[$1] == '"$1"') != ("'"${2:-}"'" != "")) { print $1 }' <<<"$vals"
}

# uet_stats NS: all transport counters of NS as "name value" lines.
uet_stats()
{
	ip netns exec "$1" cat /proc/net/uet_stat
}

# uet_stats_delta "BEFORE" "AFTER" NAME: how much counter NAME moved.
uet_stats_delta()
{
	local b a

	b=$(awk -v n="$3" '$1 == n { print $2 }' <<<"$1")
	a=$(awk -v n="$3" '$1 == n { print $2 }' <<<"$2")
	echo $((${a:-0} - ${b:-0}))
}

# uet_bg_transfer SNS CNS DST LEN CLIENT_ARGS...: a uetperf server in SNS
# for messages of up to LEN bytes (it exits 5 s after the last message)
# and a client in CNS sending messages of LEN bytes to DST in the
# background; sets UET_BG_OUT (directory of their JSON summaries) and
# UET_BG_PID (the client). Stop the client early with uet_bg_stop.
uet_bg_transfer()
{
	local sns=$1 cns=$2 dst=$3 len=$4

	shift 4
	UET_BG_OUT=$(mktemp -d)
	uet_server "$sns" "$UET_BG_OUT/s" -i 5 -l "$len" -R 33554432 ||
		return 1
	UET_BG_SERVER=$UET_SERVER_PID
	ip netns exec "$cns" "$UETPERF" -c "$dst" -J -l "$len" -S 4194304 \
		"$@" >"$UET_BG_OUT/c" 2>"$UET_BG_OUT/c.err" &
	UET_BG_PID=$!
}

# uet_bg_stop: stop the client (it drains what it sent), wait for the
# server to see nothing more.
uet_bg_stop()
{
	kill -TERM "$UET_BG_PID" 2>/dev/null
	wait "$UET_BG_PID"
	wait "$UET_BG_SERVER"
}

# uet_bg_check NAME: one test point: every message the client sent
# arrived once and intact, and neither side saw an error.
uet_bg_check()
{
	uet_check_transfer "$1" "$UET_BG_OUT/s" "$UET_BG_OUT/c" \
		"$(uet_json "$UET_BG_OUT/c" messages)"
	rm -rf "$UET_BG_OUT"
}

[ "${BASH_SOURCE[0]}" = "$0" ] && uet_fabric_main
