#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package that building, linting, testing and the demo
# need. Idempotent and fast when everything is present: dpkg-query decides,
# and apt-get runs only for what is missing.
#
# To add a dependency, add it to UET_DEPS below (one package a line).
# With --check, only report what is missing (exit 1 if anything is).

set -euo pipefail

UET_DEPS=(
	# toolchain and kernel build
	build-essential
	bc
	bison
	flex
	libelf-dev
	libssl-dev
	pkg-config
	python3
	sparse
	# the kernels uet is built and tested for (tools/kdir.sh --all):
	# Debian 12's default 6.1 and 6.12 (Debian 13's, in bookworm too);
	# metapackages, so image and headers move together
	linux-image-amd64
	linux-headers-amd64
	linux-image-6.12-amd64
	linux-headers-6.12-amd64
	# kernel source (tools/ksrc.sh takes the newest): KUnit on UML,
	# checkpatch.pl, kernel-doc, ynl, the sanitizer kernel
	linux-source-6.12
	xz-utils
	# the netlink spec: ynl-gen-c.py and the ynl CLI of 6.12's
	# tools/net/ynl (make regen, selftests/netlink_ynl.sh)
	python3-yaml
	python3-jsonschema
	# make dkms-check
	dkms
	# uetctl
	libnl-3-dev
	libnl-genl-3-dev
	# the VM
	qemu-system-x86
	busybox-static
	kmod
	cpio
	# tests and demo
	iproute2
	iperf3
	# tools/bench-collective.sh: MPTCP through mptcpize
	mptcpd
	ethtool
	jq
	tcpdump
	valgrind
	util-linux
	procps
	# tools/plot-cc: cwnd traces and fairness samples as SVG or PNG
	gnuplot-nox
	# tracepoints seen by the usual tools (selftests/observe_trace.sh)
	linux-perf
	trace-cmd
	bpftrace
	# the trimming switch of the test fabric (selftests/trim.bpf.c); the
	# build passes the multiarch asm headers itself, no gcc-multilib
	clang
	llvm
	libbpf-dev
	bpftool
)

# Print the packages of UET_DEPS that are not fully installed.
missing_pkgs()
{
	local ok

	# one dpkg-query for all: unknown names go to stderr, not to $ok
	ok=$(dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' \
		"${UET_DEPS[@]}" 2>/dev/null | awk '/^ii /{sub(/:.*/, "", $2); print $2}') || true
	printf '%s\n' "${UET_DEPS[@]}" | grep -vxF -f <(echo "$ok") || true
}

# Every installed image must have its own headers (a pair), else an
# older headers package would build a module the VM kernel refuses. Print
# the headers packages missing.
missing_headers()
{
	local img kver

	for img in /boot/vmlinuz-*; do
		[ -e "$img" ] || continue
		kver=${img#/boot/vmlinuz-}
		[ -d "/lib/modules/$kver/build" ] || echo "linux-headers-$kver"
	done
}

main()
{
	local missing

	missing=$(missing_pkgs)
	missing+=$'\n'$(missing_headers)
	missing=$(echo "$missing" | sed '/^$/d' | tr '\n' ' ')
	if [ -z "$missing" ]; then
		echo "uet: all dependencies present"
		return 0
	fi
	if [ "${1:-}" = "--check" ]; then
		echo "uet: missing: $missing"
		return 1
	fi
	echo "uet: installing: $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q $missing </dev/null
	# a freshly installed image pulls no headers of its own: pair them now
	missing=$(missing_headers)
	if [ -n "$missing" ]; then
		# shellcheck disable=SC2086
		apt-get install -y -q $missing </dev/null
	fi
	echo "uet: dependencies installed"
}

main "$@"
