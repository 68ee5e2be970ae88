#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test of the test system itself: the module is loaded, and network
# namespaces can be created and are gone after deletion.  Then socket(AF_UET)
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

ns1=
ns2=
uet_netns_new ns1
uet_netns_new ns2
uet_check_eq "$(ip netns list | grep -c -e "^$ns1\b" -e "^$ns2\b")" 2 \
	"two namespaces created"

ip netns del "$ns2"
if uet_wait_until 5 sh -c "! ip netns list | grep -q '^$ns2\b'"; then
	ktap_ok "namespace deleted"
else
	ktap_fail "namespace deleted" "$ns2 still listed after 5 s"
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
