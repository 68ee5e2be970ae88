#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo (runs inside the VM through tools/vm/vm-run): two namespaces
# with their own spraying configuration, set and read back with uetctl.
set -euo pipefail

red=uet-demo-red
blue=uet-demo-blue
cleanup()
{
	ip netns del "$red" 2>/dev/null || true
	ip netns del "$blue" 2>/dev/null || true
}
trap cleanup EXIT

run()
{
	echo "# $*"
	"$@"
	echo
}

ip netns add "$red"
ip netns add "$blue"
run uetctl info
run uetctl -n "$red" set spray reps buffer-bits 4 freeze-timeout 200us
run uetctl -n "$blue" set spray active entropy-bits 8 start-port 1024
run uetctl -n "$red" show
run uetctl -j -n "$blue" show
echo "# a refused change names the attribute and its range:"
uetctl -n "$blue" set entropy-bits 9 || true
