#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: deps (only when something is missing), build, lint, KUnit and
# the selftests in a VM. Every stage runs even after one failed. Ends with
# one line "N passed, N failed, N skipped" over the KUnit cases and the
# selftest points, where a failed build or lint stage counts as one
# failure. Exits non-zero on any failure.

set -uo pipefail

root=$(cd "$(dirname "$(realpath "$0")")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export UET_KUNIT_COUNTS=$tmp/kunit.counts
export UET_SELFTEST_COUNTS=$tmp/selftests.counts

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
		summary+=("$(printf '%-10s ok     %5d s' "$name" $((SECONDS - start)))")
	else
		summary+=("$(printf '%-10s FAILED %5d s' "$name" $((SECONDS - start)))")
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

main()
{
	local rc

	cd "$root" || exit 1
	stage deps deps || failed=$((failed + 1))
	stage build make --no-print-directory all || failed=$((failed + 1))
	stage lint make --no-print-directory lint || failed=$((failed + 1))
	stage dkms "$root/tools/dkms-check.sh" || failed=$((failed + 1))
	stage kunit "$root/tools/kunit/run-kunit"
	rc=$?
	add_counts "$UET_KUNIT_COUNTS" "$rc"
	stage selftests "$root/tools/vm/run-selftests"
	rc=$?
	add_counts "$UET_SELFTEST_COUNTS" "$rc"

	echo "=== check: summary"
	printf '%s\n' "${summary[@]}"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}

main "$@"
