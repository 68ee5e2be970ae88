#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test: the module is loaded, a new network namespace gets uet's
# per-namespace state, and deleting the namespace frees it.  Then socket(AF_UET)
# with the module unloaded loads it: the kernel asks its modprobe helper for
# "net-pf-19", pointed here at a stand-in that loads the uet.ko under test
# when that name is one of its aliases.

. "$(dirname "$0")/lib.sh"

ktap_header
ktap_plan 4

if [ -d /sys/module/uet ]; then
	ktap_ok "uet module loaded"
else
	ktap_fail "uet module loaded" "no /sys/module/uet"
fi

# uet_ns_dir NS: uet's debugfs directory of namespace NS (its inode).
uet_ns_dir()
{
	echo "/sys/kernel/debug/uet/$(stat -L -c %i "/run/netns/$1")"
}

# A new namespace gets uet's per-namespace state (its pernet init ran):
# its own counters and its own debugfs directory.
ns1=
ns2=
uet_netns_new ns1
uet_netns_new ns2
d1=$(uet_ns_dir "$ns1")
d2=$(uet_ns_dir "$ns2")
if ip netns exec "$ns1" test -r /proc/net/uet_stat &&
	ip netns exec "$ns2" test -r /proc/net/uet_stat &&
	[ "$d1" != "$d2" ] && [ -d "$d1" ] && [ -d "$d2" ]; then
	ktap_ok "new namespaces get uet state"
else
	ktap_fail "new namespaces get uet state" "no /proc/net/uet_stat, $d1 or $d2"
fi

# Deleting a namespace runs uet's pernet exit, which removes the directory.
ip netns del "$ns2"
if uet_wait_until 10 sh -c "[ ! -e '$d2' ]" && [ -d "$d1" ]; then
	ktap_ok "deleted namespace's uet state freed"
else
	ktap_fail "deleted namespace's uet state freed" "$d2 still there after 10 s"
fi

autoload()
{
	local helper old rc=1

	helper=$(mktemp)
	cat >"$helper" <<-EOF
	#!/bin/sh
	for a; do case \$a in -*) ;; *) name=\$a ;; esac; done
	modinfo -F alias "$UET_KO" | grep -qx "\$name" && exec insmod "$UET_KO"
	exit 1
	EOF
	chmod +x "$helper"
	old=$(cat /proc/sys/kernel/modprobe)
	if rmmod uet; then
		echo "$helper" >/proc/sys/kernel/modprobe
		python3 -c 'import socket; socket.socket(19, socket.SOCK_RDM).close()' &&
			[ -d /sys/module/uet ] && rc=0
		echo "$old" >/proc/sys/kernel/modprobe
		[ -d /sys/module/uet ] || insmod "$UET_KO"
	fi
	rm -f "$helper"
	return $rc
}

if [ -z "${UET_KO:-}" ]; then
	ktap_skip "socket(AF_UET) loads the module (net-pf-19)" "no UET_KO"
elif autoload; then
	ktap_ok "socket(AF_UET) loads the module (net-pf-19)"
else
	ktap_fail "socket(AF_UET) loads the module (net-pf-19)"
fi

ktap_finished
