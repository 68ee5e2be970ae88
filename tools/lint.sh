#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh [KDIR...]: the kernel's own checks over uet's kernel code.
#  1. For each kernel (the KDIRs given; else every supported one that
#     tools/kdir.sh --all finds, Debian's 6.1 and 6.12, and KDIR from the
#     environment when it is another one), a clean build of
#     uet.ko with W=1 and sparse on every file (C=2), plus the KUnit test
#     objects, through tools/kbuild.sh in a scratch directory of its own,
#     so neither the checkout's objects nor the other kernel's are
#     touched. Any compiler warning or error, sparse report or modpost
#     warning fails. (Debian's headers compile clean under W=1 and
#     sparse, so nothing here is filtered.)
#  2. Once: checkpatch.pl --strict over every .c and .h under drivers/,
#     include/ and uapi/; any ERROR, WARNING or CHECK fails.
#  3. Once: kernel-doc -Wall over the same files but the trace event
#     headers (kernel-doc reads a DEFINE_EVENT's comment as a function
#     whose arguments all need a line); any warning fails.
# checkpatch and kernel-doc run while the first build does.

set -uo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$(realpath "$0")")/.." && pwd)

# Build uet.ko and the test objects for kernel $1 in scratch dir $2;
# print the findings.
build_check()
{
	local kdir=$1 work=$2 log=$2.log rc tests

	"$root/tools/kbuild.sh" "$kdir" "$work" W=1 C=2 >/dev/null 2>"$log"
	rc=$?
	# the suites are built into UML by KUnit; here only compiled, since
	# Debian's kernels have no KUnit to link them against
	tests=$(cd "$work" 2>/dev/null && ls drivers/uet/tests/*.c 2>/dev/null | sed 's/\.c$/.o/')
	if [ "$rc" -eq 0 ] && [ -n "$tests" ]; then
		# shellcheck disable=SC2086
		make -C "$kdir" M="$work" CONFIG_UET=m CONFIG_UET_KUNIT_TEST=m \
			W=1 C=2 -j"$(nproc)" $tests >>"$log" 2>&1 || rc=1
	fi
	sed -i "s|$work|$root|g" "$log"
	grep -E -i '(warning|error)[:!]|undefined!' "$log"
	[ "$rc" -eq 0 ] || { echo "make failed:"; grep -v '^  [A-Z]' "$log"; }
	return "$rc"
}

# Our kernel sources, one a line: all, or with --no-trace all but the
# trace event headers.
sources()
{
	if [ "${1:-}" = --no-trace ]; then
		find drivers include uapi -name '*.[ch]' ! -name '*.mod.c' \
			! -path 'include/trace/events/*'
	else
		find drivers include uapi -name '*.[ch]' ! -name '*.mod.c'
	fi | LC_ALL=C sort
}

# Files checkpatch.pl reads with some types ignored, and why:
#  - trace event headers: TRACE_EVENT() bodies are written as every
#    upstream trace header is, lines ending in '(' and macro-aligned
#    arguments;
#  - compat.h: the one place that tests LINUX_VERSION_CODE, with the
#    version on the right as <linux/version.h> users do;
#  - kunit.h: the export macro is empty when the suites are not a module,
#    as EXPORT_SYMBOL_IF_KUNIT() is in <kunit/visibility.h>.
checkpatch_ignores=(
	"include/trace/events/*.h"	OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT
	include/uet/compat.h		LINUX_VERSION_CODE,CONSTANT_COMPARISON
	include/uet/kunit.h		MACRO_ARG_UNUSED
)

# checkpatch.pl and kernel-doc over our sources; print the findings.
doc_check()
{
	local ksrc all files i glob some

	ksrc=$("$root/tools/ksrc.sh") || { echo "error: no kernel source"; return 1; }
	cd "$root" || return 1
	all=$(sources)
	files=$all
	{
		for ((i = 0; i < ${#checkpatch_ignores[@]}; i += 2)); do
			glob=${checkpatch_ignores[i]}
			# shellcheck disable=SC2053
			some=$(echo "$all" | while read -r f; do [[ $f == $glob ]] && echo "$f"; done)
			[ -n "$some" ] || continue
			files=$(echo "$files" | grep -vxF "$some")
			# shellcheck disable=SC2086
			"$ksrc/scripts/checkpatch.pl" --strict --no-tree --terse \
				--show-types --ignore "${checkpatch_ignores[i + 1]}" -f $some
		done
		# shellcheck disable=SC2086
		[ -z "$files" ] || "$ksrc/scripts/checkpatch.pl" --strict \
			--no-tree --terse --show-types -f $files
	} | grep -E ': (ERROR|WARNING|CHECK):'
	# shellcheck disable=SC2046
	"$ksrc/scripts/kernel-doc" -none -Wall $(sources --no-trace) 2>&1 |
		grep -E 'warning|error'
}

# Print the number of non-empty lines of $1.
count_lines()
{
	if [ -z "$1" ]; then
		echo 0
	else
		echo "$1" | grep -c .
	fi
}

main()
{
	local kdirs kdir out rc n total=0 i=0 doc_n

	if [ $# -gt 0 ]; then
		kdirs=("$@")
	else
		mapfile -t kdirs < <("$root/tools/kdir.sh" --all)
		# /lib/modules/*/build are links: compare where they lead
		if [ -n "${KDIR:-}" ] && ! realpath -m "${kdirs[@]}" |
			grep -qxF "$(realpath -m "$KDIR")"; then
			kdirs+=("$KDIR")
		fi
	fi
	[ "${#kdirs[@]}" -gt 0 ] || { echo "lint: no kernel headers; run 'make deps'" >&2; exit 1; }
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT

	doc_check >"$work/doc.out" &
	for kdir in "${kdirs[@]}"; do
		i=$((i + 1))
		echo "lint: W=1 C=2 build against $kdir"
		[ -d "$kdir" ] || { echo "lint: no KDIR $kdir"; total=$((total + 1)); continue; }
		out=$(build_check "$kdir" "$work/k$i")
		rc=$?
		n=$(count_lines "$out")
		# a failed build with nothing matched still counts
		[ "$rc" -eq 0 ] || [ "$n" -gt 0 ] || n=1
		[ -z "$out" ] || echo "$out"
		total=$((total + n))
	done
	wait

	echo "lint: checkpatch.pl --strict, kernel-doc -Wall"
	out=$(cat "$work/doc.out")
	doc_n=$(count_lines "$out")
	[ -z "$out" ] || echo "$out"

	echo "lint: builds (${#kdirs[@]} kernels): $total findings, checkpatch and kernel-doc: $doc_n findings"
	[ "$total" -eq 0 ] && [ "$doc_n" -eq 0 ]
}

main "$@"
