#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the uet selftests: KTAP output in the kselftest manner, network
# namespaces that are deleted on exit, and bounded polling. Source it:
#
#	. "$(dirname "$0")/lib.sh"
#	ktap_header
#	ktap_plan 2
#	uet_netns_new ns1
#	uet_check_eq "$(ip -n "$ns1" -o link | wc -l)" 1 "only lo in a new netns"
#	...
#	ktap_finished

readonly KSFT_PASS=0
readonly KSFT_FAIL=1
readonly KSFT_SKIP=4

_ktap_n=0
_ktap_plan=0
_ktap_pass=0
_ktap_fail=0
_ktap_skip=0
_uet_netns=()

ktap_header()
{
	echo "TAP version 13"
}

# ktap_plan N: the number of test points this script reports.
ktap_plan()
{
	_ktap_plan=$1
	echo "1..$1"
}

ktap_ok()
{
	_ktap_n=$((_ktap_n + 1))
	_ktap_pass=$((_ktap_pass + 1))
	echo "ok $_ktap_n $1"
}

# ktap_fail NAME [WHY]
ktap_fail()
{
	_ktap_n=$((_ktap_n + 1))
	_ktap_fail=$((_ktap_fail + 1))
	[ -n "${2:-}" ] && echo "# $1: $2"
	echo "not ok $_ktap_n $1"
}

# ktap_skip NAME WHY
ktap_skip()
{
	_ktap_n=$((_ktap_n + 1))
	_ktap_skip=$((_ktap_skip + 1))
	echo "ok $_ktap_n $1 # SKIP $2"
}

# ktap_finished: print the totals and exit with the kselftest code. Fewer
# or more points than planned is a failure.
ktap_finished()
{
	if [ "$_ktap_n" -ne "$_ktap_plan" ]; then
		echo "# planned $_ktap_plan tests but ran $_ktap_n"
		_ktap_fail=$((_ktap_fail + 1))
	fi
	echo "# Totals: pass:$_ktap_pass fail:$_ktap_fail xfail:0 xpass:0 skip:$_ktap_skip error:0"
	[ "$_ktap_fail" -eq 0 ] || exit "$KSFT_FAIL"
	[ "$_ktap_pass" -gt 0 ] || [ "$_ktap_skip" -eq 0 ] || exit "$KSFT_SKIP"
	exit "$KSFT_PASS"
}

# uet_check_eq GOT WANT NAME: one test point, passing when GOT equals WANT.
uet_check_eq()
{
	if [ "$1" = "$2" ]; then
		ktap_ok "$3"
	else
		ktap_fail "$3" "got '$1', want '$2'"
	fi
}

# uet_wait_until TIMEOUT_S CMD...: run CMD every 0.1 s until it succeeds
# (return 0) or TIMEOUT_S seconds have passed (return 1).
uet_wait_until()
{
	local end=$((SECONDS + $1))

	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# uet_netns_new VAR: create a namespace with a unique name, bring its lo up,
# store the name in VAR and delete the namespace when the script exits.
uet_netns_new()
{
	local name

	name=uet-$$-${#_uet_netns[@]}-$RANDOM
	ip netns add "$name" || return 1
	_uet_netns+=("$name")
	ip -n "$name" link set lo up || return 1
	printf -v "$1" '%s' "$name"
}

_uet_cleanup()
{
	local ns

	for ns in "${_uet_netns[@]}"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
}
trap _uet_cleanup EXIT
