#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the kernel build directory uet.ko is built against (and that the
# VM boots):
#   - KDIR from the environment, when set;
#   - else Debian's 6.1, the default kernel of Debian 12: the newest
#     /lib/modules/6.1.*/build by version sort;
#   - else the newest build directory of the other supported series, 6.12.
# The running kernel plays no part, so the choice is the same on every
# machine with the same packages. No ABI string is written down: Debian's
# metapackages move it.
#
# kdir.sh --all     the newest build directory of each supported series
#                   (6.1, then 6.12), one a line: the kernels uet is
#                   tested on. Prints nothing for a series not installed.
# kdir.sh --kver D  the kernel release build directory D builds.

set -uo pipefail

# The supported series, in order of preference.
series=(6.1 6.12)

# Print the newest /lib/modules/$1.*/build, or nothing.
newest()
{
	# 6.1.0-57-amd64 and 6.12.117+deb12-amd64: the "." after the series
	# keeps 6.1 from matching 6.12
	ls -d /lib/modules/"$1".*/build 2>/dev/null | sort -V | tail -n 1
}

case "${1:-}" in
--kver)
	case "$2" in
	/lib/modules/*/build) d=${2#/lib/modules/}; echo "${d%/build}" ;;
	*) make -s -C "$2" kernelrelease ;;
	esac
	exit 0
	;;
--all)
	for s in "${series[@]}"; do
		newest "$s"
	done
	exit 0
	;;
esac

if [ -n "${KDIR:-}" ]; then
	echo "$KDIR"
	exit 0
fi
for s in "${series[@]}"; do
	d=$(newest "$s")
	if [ -n "$d" ]; then
		echo "$d"
		exit 0
	fi
done
echo "/lib/modules/NONE/build"
echo "uet: no kernel headers for ${series[*]} under /lib/modules; run 'make deps'" >&2
exit 0
