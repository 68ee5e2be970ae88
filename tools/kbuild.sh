#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kbuild.sh KDIR OUTDIR [MAKE_ARGS...]: build uet.ko for one kernel in a
# directory of its own, and print the module's path on stdout.
#
#   KDIR       any kernel build directory make -C accepts: Debian's
#              /lib/modules/RELEASE/build, a full source tree, or an O=
#              output directory of a kernel built from source.
#   OUTDIR     where the build happens: Kbuild, drivers/, include/ and
#              uapi/ are copied there (only what changed, so a rebuild
#              is incremental) and built with M=OUTDIR. One OUTDIR per
#              kernel: the checkout's own tree is never built in, so
#              builds for different kernels never share objects. An
#              OUTDIR last used with another KDIR is emptied first.
#   MAKE_ARGS  passed to make as they are, after M= and CONFIG_UET=m:
#              W=1, C=2, CONFIG_UET_KUNIT_TEST=m (then uet_kunit.ko is
#              built next to uet.ko, in OUTDIR/drivers/uet/), -j1, ...
#              Without a -j, make runs with -j$(nproc).
#
# make's output goes to stderr; stdout is only the absolute path of
# uet.ko, so `ko=$(tools/kbuild.sh "$kdir" "$dir")` works. Exits with
# make's status when the build fails.
#
# Example: tools/kbuild.sh /lib/modules/6.12.117+deb12-amd64/build \
#              /tmp/uet-6.12 W=1 C=1

set -euo pipefail

root=$(cd "$(dirname "$(realpath "$0")")/.." && pwd)

usage()
{
	echo "usage: $0 KDIR OUTDIR [MAKE_ARGS...]" >&2
	exit 2
}

main()
{
	local kdir out arg jobs

	[ $# -ge 2 ] || usage
	kdir=$(realpath -e "$1") || { echo "kbuild: no KDIR $1" >&2; exit 1; }
	[ -f "$kdir/Makefile" ] || { echo "kbuild: $kdir is no kernel build directory" >&2; exit 1; }
	mkdir -p "$2"
	out=$(realpath "$2")
	shift 2
	case "$out/" in
	"$root"/*) echo "kbuild: OUTDIR must be outside the checkout" >&2; exit 1 ;;
	esac

	# objects of another kernel would be linked in: start afresh
	if [ -f "$out/.uet-kdir" ] && [ "$(cat "$out/.uet-kdir")" != "$kdir" ]; then
		find "$out" -mindepth 1 -delete
	fi
	echo "$kdir" >"$out/.uet-kdir"
	# --delete drops sources removed from the checkout; objects stay.
	# Only a file whose content changed is copied, and it gets a new
	# mtime: another checkout's older file must still rebuild its object.
	rsync -rlp --checksum --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
		--exclude='*.mod' --exclude='*.mod.c' --exclude='*.a' \
		--exclude='modules.order' --exclude='Module.symvers' \
		--exclude='.*.d' \
		"$root/drivers" "$root/include" "$root/uapi" "$out/"
	cmp -s "$root/Kbuild" "$out/Kbuild" || cp "$root/Kbuild" "$out/Kbuild"

	jobs=-j$(nproc)
	for arg in "$@"; do
		case "$arg" in
		-j*|--jobs*) jobs= ;;
		esac
	done
	# shellcheck disable=SC2086
	make -C "$kdir" M="$out" CONFIG_UET=m $jobs "$@" modules >&2
	echo "$out/drivers/uet/uet.ko"
}

main "$@"
