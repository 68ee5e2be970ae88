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

# ynl NS OP...: the ynl CLI's own code (its library and JSON encoder) in
# NS, the spec checked against its schema as `cli.py --schema` does,
# running the OPs in turn in one process: loading and checking the spec
# is most of what a CLI run costs under TCG. OP is "do:NAME[:JSON]" or
# "dump:NAME[:JSON]"; one line out per OP, the JSON `cli.py --output-json`
# prints, or the error it prints.
ynl()
{
	local ns=$1

	shift
	ip netns exec "$ns" python3 -c '
import json, sys

sys.path.insert(0, sys.argv[1])
from cli import YnlEncoder
from lib import YnlFamily, NlError

ynl = YnlFamily(sys.argv[2], sys.argv[3])
for op in sys.argv[4:]:
    mode, name, text = (op.split(":", 2) + [""])[:3]
    attrs = json.loads(text) if text else {}
    try:
        if mode == "do":
            reply = ynl.do(name, attrs, None)
        else:
            reply = ynl.dump(name, attrs)
        print(json.dumps(reply, cls=YnlEncoder))
    except NlError as e:
        print(e)
    sys.stdout.flush()
' "$ynl_dir/tools/net/ynl" "$SPEC" \
		"$ynl_dir/Documentation/netlink/genetlink-legacy.yaml" "$@"
}

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
# how ynl (Python's ipaddress) prints A's address, ::ffff:10.0.0.1
peer=$(python3 -c 'import ipaddress; print(ipaddress.ip_address("::ffff:10.0.0.1"))')

# A: the configuration read, written, and the counters, in one ynl run.
want=$("$UETCTL" -j -n "$A" show | jq -r '"\(.spray) \(.entropy_bits) \(.mss) \(.udp_port) \(if .pdc_groups then 1 else 0 end) \(.rto_max_us) \(.dscp_trimmed)"')
ynl "$A" do:config-get \
	'do:config-set:{"spray": "active", "mss": 2048, "seed": 7}' \
	do:stats-get >"$out/a.json" 2>"$out/a.err"
[ -s "$out/a.err" ] && sed 's/^/# /' "$out/a.err"
sed -n 1p "$out/a.json" >"$out/cfg.json"
sed -n 3p "$out/a.json" >"$out/stats.json"
got=$(jq -r '"\(.spray) \(."entropy-mask-bits") \(.mss) \(."udp-port") \(."pdc-groups") \(."rto-max-us") \(."dscp-trimmed")"' "$out/cfg.json" 2>/dev/null)
uet_check_eq "$got" "$want" "ynl config-get reads what uetctl shows"

uet_check_eq "$("$UETCTL" -n "$A" show | awk '$1 == "spray" || $1 == "mss" || $1 == "seed" { printf "%s ", $2 }')" \
	"active 2048 7 " "ynl config-set is what uetctl then shows"

uet_check_eq "$(jq -r '.stat[].name' "$out/stats.json" | sort)" \
	"$(ip netns exec "$A" awk '{ print $1 }' /proc/net/uet_stat | sort)" \
	"ynl stats-get lists every counter by name"

"$UETCTL" -n "$A" set pdc-idle 60s >/dev/null
"$UETCTL" -n "$B" set pdc-idle 60s >/dev/null
uet_transfer "a small transfer" "$B" "$A" 10.0.0.2 2 -l 65536 -- -l 65536

# The target's PDC stays until it idles (60 s); the initiator's may close
# with its client, so the dumps are taken on the target side, in B; with
# a request attribute, only the destination asked for, or none.
v4hex=00000000000000000000ffff0a000001
ynl "$B" dump:dest-get dump:pdc-get "dump:dest-get:{\"addr\": \"$v4hex\"}" \
	'dump:dest-get:{"addr": "00000000000000000000ffff0a000009"}' \
	>"$out/b.json" 2>&1
sed -n 1p "$out/b.json" >"$out/dest.json"
sed -n 2p "$out/b.json" >"$out/pdc.json"
sed -n 3p "$out/b.json" >"$out/one.json"
sed -n 4p "$out/b.json" >"$out/none.json"
got=$(jq -r '.[] | "\(.addr) \(.npdcs) \(.pdc | if type == "array" then .[0] else . end) \(.spray.type)"' "$out/dest.json")
got+=" / $(jq -r '.[] | "\(.raddr) \(.role) \(.lid)"' "$out/pdc.json")"
lid=$("$UETCTL" -j -n "$B" pdc show | jq -r '.[0].lid')
uet_check_eq "$got" "$peer 1 $lid null / $peer target $lid" \
	"ynl dumps destinations and PDCs as uetctl lists them"

got="$(jq -r '[.[].addr] | join(",")' "$out/one.json") $(jq length "$out/none.json")"
[ "$got" = "$peer 0" ] || sed 's/^/# /' "$out/b.json"
uet_check_eq "$got" "$peer 0" "ynl dest-get with an address lists that destination only"

ktap_finished
