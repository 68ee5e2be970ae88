#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test of the test system itself: the module is loaded, and network
# namespaces can be created and are gone after deletion.

. "$(dirname "$0")/lib.sh"

ktap_header
ktap_plan 3

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

ktap_finished
