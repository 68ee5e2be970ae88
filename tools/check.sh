#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: deps (only when something is missing), build, lint, a DKMS
# build and install, then the kernel matrix: uet.ko built for Debian 6.1
# and 6.12 and for the sanitizer kernel (KASAN, kmemleak, lockdep, UBSAN;
# tools/kernel/build-sanitizer, built once into the cache), KUnit on UML
# (KASAN, lockdep), the sanitizer VM proving that it catches a use after
# free and a leak, the receive-path selftests on the sanitizer kernel, the
# full selftest suite on Debian 6.1 and the smoke subset on Debian 6.12.
#
# UET_CHECK_SANITIZER=full runs the full suite on the sanitizer kernel too
# (3.5 to 10 times as long as on Debian 6.1 under TCG: not within the
# time make check is allowed). Every stage runs even after one failed (a
# stage whose input failed to build fails too). Ends with one line "N
# passed, N failed, N skipped" over the KUnit cases and the test points,
# where a failed stage without counts of its own counts as one failure.
# Exits non-zero on any failure.
#
# The VM stages run in two lanes at once: the Debian 6.1 suite, and at
# nice 10 the sanitizer kernel's stages, then Debian 6.12's. One TCG VM
# keeps about one of the two cores busy on average; the niced lane takes
# what the 6.1 VM leaves, so the 6.1 suite's timing is what it was alone.
# UET_CHECK_SERIAL=1 runs them one after another. Each stage's output is
# printed whole when its lane is done.

set -uo pipefail

root=$(cd "$(dirname "$(realpath "$0")")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export UET_KUNIT_COUNTS=$tmp/kunit.counts
cache=${UET_CACHE:-$HOME/.cache/uet}
# the selftests every Debian kernel runs
smoke=(smoke datapath_basic fabric config)
# the selftests of the receive path, on the sanitizer kernel: what hostile
# packets and local users can reach
sanitized=(smoke rx_hostile rx_admission fuzz datapath_batch sock_buffers
	datapath_netem)

passed=0
failed=0
skipped=0
summary=()

# stage NAME CMD...: run CMD, time it, remember the outcome.
stage()
{
	local name=$1 start rc

	shift
	echo "=== check: $name"
	start=$SECONDS
	"$@"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		summary+=("$(printf '%-18s ok     %5d s' "$name" $((SECONDS - start)))")
	else
		summary+=("$(printf '%-18s FAILED %5d s' "$name" $((SECONDS - start)))")
	fi
	echo "=== check: $name exited $rc after $((SECONDS - start)) s"
	return "$rc"
}

# add_counts FILE STAGE_RC: add a runner's "passed failed skipped"; a
# failed stage without counts is one failure.
add_counts()
{
	local p=0 f=0 s=0

	if [ -s "$1" ]; then
		read -r p f s <"$1"
	fi
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

deps()
{
	"$root/tools/install-deps.sh" --check >/dev/null ||
		"$root/tools/install-deps.sh"
}

# Print the newest Debian build directory of series $1 (6.1, 6.12).
debian_kdir()
{
	ls -d /lib/modules/"$1".*/build 2>/dev/null | sort -V | tail -n 1
}

# build_ko NAME KDIR [ARGS...]: build uet.ko for KDIR into the cache and
# remember its path in ko_NAME.
build_ko()
{
	local name=$1 kdir=$2 ko

	shift 2
	[ -n "$kdir" ] || { echo "check: no kernel build directory" >&2; return 1; }
	ko=$("$root/tools/kbuild.sh" "$kdir" "$cache/build-$name" "$@") || return 1
	printf -v "ko_${name//./_}" '%s' "$ko"
}

sanitizer_kernel()
{
	sankdir=$("$root/tools/kernel/build-sanitizer")
}

# selftests NAME KERNEL KO [SCRIPT...]: the selftests on one kernel.
selftests()
{
	local name=$1 kernel=$2 ko=$3 rc

	shift 3
	if [ -z "$ko" ]; then
		echo "check: no uet.ko for $kernel" >&2
		rc=1
	else
		UET_SELFTEST_COUNTS=$tmp/$name.counts \
			"$root/tools/vm/run-selftests" --kernel "$kernel" --ko "$ko" "$@"
		rc=$?
	fi
	add_counts "$tmp/$name.counts" "$rc"
	return "$rc"
}

# kunit RUNNER: the sanitizer VM's (run-kunit) or UML's (run-kunit-uml).
kunit()
{
	local rc

	"$1"
	rc=$?
	add_counts "$UET_KUNIT_COUNTS" "$rc"
	return "$rc"
}

prove()
{
	local rc

	UET_PROVE_COUNTS=$tmp/prove.counts "$root/tools/vm/prove-sanitizers"
	rc=$?
	add_counts "$tmp/prove.counts" "$rc"
	return "$rc"
}

# The sanitizer kernel's stages, then Debian 6.12's subset.
sanitizer_lane()
{
	stage prove-sanitizers prove
	if [ "${UET_CHECK_SANITIZER:-}" = full ]; then
		stage selftests-sanitizer selftests sanitizer sanitizer \
			"$ko_sanitizer"
	else
		stage selftests-sanitizer selftests sanitizer sanitizer \
			"$ko_sanitizer" "${sanitized[@]}"
	fi
	stage selftests-6.12 selftests 6.12 debian-6.12 "$ko_6_12" "${smoke[@]}"
}

debian_lane()
{
	stage selftests-6.1 selftests 6.1 debian-6.1 "$ko_6_1"
}

# lane NAME NICE FUNC: run FUNC's stages in the background at niceness
# NICE, their output to $tmp/lane-NAME.log, what they count to
# $tmp/lane-NAME.counts and .summary for lane_report.
lane()
{
	local name=$1 prio=$2 fn=$3

	(
		renice -n "$prio" -p "$BASHPID" >/dev/null
		passed=0 failed=0 skipped=0 summary=()
		"$fn" >"$tmp/lane-$name.log" 2>&1
		echo "$passed $failed $skipped" >"$tmp/lane-$name.counts"
		printf '%s\n' "${summary[@]}" >"$tmp/lane-$name.summary"
		echo "=== check: lane $name done"
	) &
}

# lane_report NAME: print a lane's output and add what it counted.
lane_report()
{
	local name=$1 p f s

	cat "$tmp/lane-$name.log"
	if ! read -r p f s <"$tmp/lane-$name.counts" 2>/dev/null; then
		echo "check: lane $name ended without its counts" >&2
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	mapfile -t -O "${#summary[@]}" summary <"$tmp/lane-$name.summary"
}

# The failed test points of the VM lanes, each with its reason, once more
# at the end: a CI log that keeps only its head and tail still names them.
failed_points()
{
	local f

	for f in "$tmp"/lane-*.log; do
		[ -f "$f" ] || continue
		grep -E '^# [A-Za-z0-9_.-]+\.sh: (not ok |# |report: )' "$f" |
			sed "s/^/$(basename "$f" .log): /"
	done
}

main()
{
	local ko_6_1="" ko_6_12="" ko_sanitizer="" sankdir=""

	cd "$root" || exit 1
	stage deps deps || failed=$((failed + 1))
	stage build make --no-print-directory all || failed=$((failed + 1))
	stage lint make --no-print-directory lint || failed=$((failed + 1))
	stage dkms "$root/tools/dkms-check.sh" || failed=$((failed + 1))
	stage build-6.1 build_ko 6.1 "$(debian_kdir 6.1)" ||
		failed=$((failed + 1))
	stage build-6.12 build_ko 6.12 "$(debian_kdir 6.12)" ||
		failed=$((failed + 1))
	stage sanitizer-kernel sanitizer_kernel || failed=$((failed + 1))
	stage build-sanitizer build_ko sanitizer "$sankdir" W=1 ||
		failed=$((failed + 1))
	stage kunit kunit "$root/tools/kunit/run-kunit-uml"
	if [ "${UET_CHECK_SERIAL:-0}" = 1 ]; then
		sanitizer_lane
		debian_lane
	else
		echo "=== check: the VM stages, in two lanes"
		lane debian 0 debian_lane
		lane sanitizer 10 sanitizer_lane
		wait
		lane_report sanitizer
		lane_report debian
	fi

	failed_points
	echo "=== check: summary"
	printf '%s\n' "${summary[@]}"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}

main "$@"
