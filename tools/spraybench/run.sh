#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build spraybench and print, as markdown tables for the README:
#   1. bytes of a spraying state per policy;
#   2. instructions per decision (uet_spray_next) and per feedback event
#      (uet_spray_feedback), counted by callgrind over N calls of each;
#   3. the hottest path's load over the ideal for N flows of M packets over
#      P equal-cost paths: ECMP per flow versus each policy.
#
# Usage: tools/spraybench/run.sh [N calls, default 100000] [trials, 200]

set -euo pipefail

here=$(cd "$(dirname "$(realpath "$0")")" && pwd)
calls=${1:-100000}
trials=${2:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v valgrind >/dev/null ||
	{ echo "run.sh: valgrind is missing (make deps)" >&2; exit 1; }
make -s -C "$here" >&2

# Instructions executed inside function $2 (callees included) for policy $1.
count()
{
	local out=$tmp/cg.$1.$2

	valgrind -q --tool=callgrind --toggle-collect="$2" \
		--callgrind-out-file="$out" \
		"$here/spraybench" count "$1" "$calls" >/dev/null
	awk '/^summary:/ { print $2 }' "$out"
}

echo "### Size of a spraying state (4-byte lock, no lock debugging)"
echo
"$here/spraybench" size
echo
echo "### Instructions per call (callgrind, $calls calls, gcc -O2)"
echo
echo "Each packet is ACKed 8 packets later; every 16th ACK has the ECN echo,"
echo "every 32nd packet is trimmed instead, every 4096th times out and its"
echo "probe is answered 64 packets later. The lock is a 4-byte test-and-set"
echo "(one atomic exchange, one release store)."
echo
echo "| policy | per decision | per feedback event |"
echo "|---|---|---|"
for p in none rr active reps; do
	n=$(count "$p" uet_spray_next)
	f=$(count "$p" uet_spray_feedback)
	awk -v p="$p" -v n="$n" -v f="$f" -v c="$calls" \
		'BEGIN { printf "| %s | %.1f | %.1f |\n", p, n / c, f / c }'
done
echo
echo "### Hottest path's load / ideal (mean of $trials trials)"
echo
echo "One switch hashes (salt, src addr, dst addr, src port, dst port, proto)"
echo "with CRC32 and takes it modulo the paths; the salt is new each trial."
echo "ECMP per flow: each flow one random source port. Policies: each flow"
echo "one state, ports from the engine at the defaults; under reps every"
echo "packet is ACKed clean one BDP (71 packets) after it is sent."
echo
"$here/spraybench" stats "$trials"
echo
echo "rr's 1.000 on 4 and 8 paths is exact, not luck: CRC32 is affine over"
echo "GF(2), so its low bits split 2^k consecutive, aligned ports evenly."
