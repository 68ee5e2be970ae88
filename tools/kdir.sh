#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel build directory to build uet.ko against: the running
# kernel's when it has one, else the newest installed /lib/modules/*/build.
# KDIR= in the environment wins. With --kver DIR, print the kernel
# release that DIR builds.
if [ "$1" = "--kver" ]; then
	case "$2" in
	/lib/modules/*/build) d=${2#/lib/modules/}; echo "${d%/build}" ;;
	*) make -s -C "$2" kernelrelease ;;
	esac
	exit 0
fi
if [ -n "${KDIR:-}" ]; then
	echo "$KDIR"
	exit 0
fi
run=/lib/modules/$(uname -r)/build
if [ -d "$run" ]; then
	echo "$run"
	exit 0
fi
best=$(ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1)
if [ -z "$best" ]; then
	echo "/lib/modules/NONE/build"
	echo "uet: no kernel headers under /lib/modules/*/build; run 'make deps'" >&2
	exit 0
fi
echo "$best"
