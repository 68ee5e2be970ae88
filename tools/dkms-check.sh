#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make dkms-check: does this checkout build and install through DKMS for
# every supported kernel installed (tools/kdir.sh --all: Debian's 6.1 and
# 6.12)? Runs `dkms add`, then `dkms build` and `dkms install` for each
# kernel, all in a throwaway directory: --sourcetree, --dkmstree and
# --installtree point into it, depmod is skipped and the signing key dkms
# would create lives there too, so the machine's DKMS state, /usr/src and
# /lib/modules are left as they were. Fails when any step fails, with
# dkms's make.log.
#
# dkms-check.sh [KERNELRELEASE...] checks those kernels instead.

set -uo pipefail

root=$(cd "$(dirname "$(realpath "$0")")/.." && pwd)
tmp=

die()
{
	echo "dkms-check: $*" >&2
	exit 1
}

main()
{
	local ver src kvers kver rc=0 opts ko

	command -v dkms >/dev/null || die "no dkms; run 'make deps'"
	if [ $# -gt 0 ]; then
		kvers=("$@")
	else
		mapfile -t kvers < <("$root/tools/kdir.sh" --all |
			while read -r d; do "$root/tools/kdir.sh" --kver "$d"; done)
	fi
	[ "${#kvers[@]}" -gt 0 ] || die "no kernel headers; run 'make deps'"

	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# dkms makes a signing key when it finds none: not in /var/lib/dkms
	export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$root/dkms.conf")
	src=$tmp/src/uet-$ver
	mkdir -p "$src" "$tmp/dkms" "$tmp/install"
	cp -r "$root/dkms.conf" "$root/Kbuild" "$root/drivers" "$root/include" \
		"$root/uapi" "$src/"
	find "$src" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' \
		-o -name '*.mod' -o -name '*.mod.c' \) -delete
	opts=(--sourcetree "$tmp/src" --dkmstree "$tmp/dkms"
	      --installtree "$tmp/install" --no-depmod)

	dkms add -m uet -v "$ver" "${opts[@]}" >"$tmp/add.log" 2>&1 ||
		{ cat "$tmp/add.log"; die "dkms add failed"; }
	for kver in "${kvers[@]}"; do
		echo "dkms-check: $kver"
		# dkms installs only into a kernel's existing module tree
		mkdir -p "$tmp/install/$kver"
		if ! dkms build -m uet -v "$ver" -k "$kver" "${opts[@]}" \
			>"$tmp/build.log" 2>&1; then
			cat "$tmp/build.log"
			cat "$tmp/dkms/uet/$ver/build/make.log" 2>/dev/null
			echo "dkms-check: $kver: dkms build FAILED"
			rc=1
			continue
		fi
		if ! dkms install -m uet -v "$ver" -k "$kver" "${opts[@]}" \
			>"$tmp/install.log" 2>&1; then
			cat "$tmp/install.log"
			echo "dkms-check: $kver: dkms install FAILED"
			rc=1
			continue
		fi
		ko=$(find "$tmp/install/$kver" -name 'uet.ko*' | head -n 1)
		if [ -z "$ko" ] ||
			[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" != "$kver" ]; then
			echo "dkms-check: $kver: no uet.ko for $kver installed"
			rc=1
			continue
		fi
		echo "dkms-check: $kver: built and installed (${ko#"$tmp/install/"})"
	done
	dkms status -m uet "${opts[@]}"
	return "$rc"
}

main "$@"
