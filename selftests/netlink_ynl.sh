#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own netlink client, ynl (tools/net/ynl/cli.py of Linux
# 6.12), drives the family from its spec, Documentation/netlink/specs/
# uet.yaml, beside uetctl: configuration read and written (and uetctl
# seeing the change), counters, and dumps of destinations and PDCs after a
# transfer. A spec that does not match what the module sends fails here.
# The kernel tree is the one tools/ksrc.sh extracts (make regen and make
# lint need it too); without it every point is skipped, saying so.

. "$(dirname "$0")/fabric.sh"

SPEC=$UET_ROOT/Documentation/netlink/specs/uet.yaml
POINTS=6

ktap_header
ktap_plan $POINTS

# The 6.12 tree: KSRC, else where tools/ksrc.sh extracts it (the VM's HOME
# is not the host's: root's cache is looked at too).
ynl_dir=
for d in "${KSRC:-}" "${UET_CACHE:-$HOME/.cache/uet}"/linux-source-* \
	 ~root/.cache/uet/linux-source-*; do
	if [ -f "$d/tools/net/ynl/cli.py" ]; then
		ynl_dir=$d
		break
	fi
done
if [ -z "$ynl_dir" ] || ! python3 -c 'import yaml, jsonschema' 2>/dev/null; then
	for i in $(seq $POINTS); do
		ktap_skip "ynl point $i" "no kernel tree with tools/net/ynl (run tools/ksrc.sh) or no python3-yaml/jsonschema"
	done
	ktap_finished
fi
echo "# ynl of $ynl_dir"

out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT

# ynl NS ARGS...: the ynl CLI in NS, JSON out.
ynl()
{
	local ns=$1

	shift
	ip netns exec "$ns" python3 "$ynl_dir/tools/net/ynl/cli.py" \
		--spec "$SPEC" \
		--schema "$ynl_dir/Documentation/netlink/genetlink-legacy.yaml" \
		--output-json "$@"
}

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
# how ynl (Python's ipaddress) prints A's address, ::ffff:10.0.0.1
peer=$(python3 -c 'import ipaddress; print(ipaddress.ip_address("::ffff:10.0.0.1"))')

ynl "$A" --do config-get >"$out/cfg.json" 2>"$out/cfg.err"
got=$(jq -r '"\(.spray) \(."entropy-mask-bits") \(.mss) \(."udp-port") \(."pdc-groups") \(."rto-max-us") \(."dscp-trimmed")"' "$out/cfg.json" 2>/dev/null)
want=$("$UETCTL" -j -n "$A" show | jq -r '"\(.spray) \(.entropy_bits) \(.mss) \(.udp_port) \(if .pdc_groups then 1 else 0 end) \(.rto_max_us) \(.dscp_trimmed)"')
uet_check_eq "$got" "$want" "ynl config-get reads what uetctl shows"
[ -s "$out/cfg.err" ] && sed 's/^/# /' "$out/cfg.err"

ynl "$A" --do config-set --json '{"spray": "active", "mss": 2048, "seed": 7}' >/dev/null
uet_check_eq "$("$UETCTL" -n "$A" show | awk '$1 == "spray" || $1 == "mss" || $1 == "seed" { printf "%s ", $2 }')" \
	"active 2048 7 " "ynl config-set is what uetctl then shows"

ynl "$A" --do stats-get >"$out/stats.json"
uet_check_eq "$(jq -r '.stat[].name' "$out/stats.json" | sort)" \
	"$(ip netns exec "$A" awk '{ print $1 }' /proc/net/uet_stat | sort)" \
	"ynl stats-get lists every counter by name"

"$UETCTL" -n "$A" set pdc-idle 60s >/dev/null
"$UETCTL" -n "$B" set pdc-idle 60s >/dev/null
uet_transfer "a small transfer" "$B" "$A" 10.0.0.2 2 -l 65536 -- -l 65536

# The target's PDC stays until it idles (60 s); the initiator's may close
# with its client, so the dumps are taken on the target side, in B.
ynl "$B" --dump dest-get >"$out/dest.json"
ynl "$B" --dump pdc-get >"$out/pdc.json"
got=$(jq -r '.[] | "\(.addr) \(.npdcs) \(.pdc | if type == "array" then .[0] else . end) \(.spray.type)"' "$out/dest.json")
got+=" / $(jq -r '.[] | "\(.raddr) \(.role) \(.lid)"' "$out/pdc.json")"
lid=$("$UETCTL" -j -n "$B" pdc show | jq -r '.[0].lid')
uet_check_eq "$got" "$peer 1 $lid null / $peer target $lid" \
	"ynl dumps destinations and PDCs as uetctl lists them"

# A request attribute: only the destination asked for, or none.
v4hex=00000000000000000000ffff0a000001
ynl "$B" --dump dest-get --json "{\"addr\": \"$v4hex\"}" >"$out/one.json" 2>&1
ynl "$B" --dump dest-get --json '{"addr": "00000000000000000000ffff0a000009"}' \
	>"$out/none.json" 2>&1
got="$(jq -r '[.[].addr] | join(",")' "$out/one.json") $(jq length "$out/none.json")"
[ "$got" = "$peer 0" ] || sed 's/^/# /' "$out/one.json" "$out/none.json"
uet_check_eq "$got" "$peer 0" "ynl dest-get with an address lists that destination only"

ktap_finished
