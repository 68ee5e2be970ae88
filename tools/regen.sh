#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# regen.sh [--check]: generate the "uet" generic netlink family's C from
# its spec, Documentation/netlink/specs/uet.yaml, with the kernel's
# ynl-gen-c.py (tools/net/ynl of the tree tools/ksrc.sh gives, KSRC= to
# choose; Debian's linux-source-6.12 has it), through tools/ynl_gen.py:
#   uapi/linux/uet_netlink.h          the uapi header (enums, names, docs)
#   drivers/uet/netlink-gen.c         the request policies and ranges
#   include/uet/netlink-gen.h         their declarations
# The spec is validated against the kernel's genetlink-legacy schema on
# the way. Before a header is replaced, tools/ynl_check.py compiles a
# program printing every name of the committed one (git HEAD) against the
# new one: a name lost or a value changed stops regen (uapi is forever).
# It also checks that the spec's limits (consts with a header) are the
# values of include/uet/config.h.
#
# With --check, nothing is written: the outputs are generated aside and
# any difference from the checkout fails (make lint runs this).
#
# To add an attribute (say a u32 "foo" to the configuration):
#  1. append it to its attribute set in the spec (never between existing
#     ones: numbers are uapi), with type, doc and checks (every request
#     integer has a range: min/max, a const of uet/config.h or u32-max),
#     and add it to the request/reply lists of the operations that carry
#     it (config-get's reply is the anchor &cfg-all, config-set reuses it);
#  2. make regen; commit the spec with the regenerated files;
#  3. use UET_A_CFG_FOO in drivers/uet/netlink.c (for the configuration:
#     one line in uet_nl_fields[]) and in tools/uetctl.
# To add a command: append it to operations.list with its doc, attribute
# set, do/dump and request/reply lists; make regen; then add its entry to
# the ops table uet_nl_ops[] in drivers/uet/netlink.c with the generated
# policy (uet_<op>_nl_policy) and its maxattr, or no policy when its
# request takes no attribute (genetlink then refuses any). The ops table
# is hand-written because ynl-gen-c.py's needs Linux 6.2 (genl_split_ops)
# and the module builds on 6.1 too.

set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$(realpath "$0")")/.." && pwd)
spec=Documentation/netlink/specs/uet.yaml
check=0
[ "${1:-}" = --check ] && check=1

ksrc=$("$root/tools/ksrc.sh")
if [ ! -f "$ksrc/tools/net/ynl/ynl-gen-c.py" ]; then
	echo "regen: $ksrc has no tools/net/ynl; install linux-source-6.12 ('make deps')" >&2
	exit 1
fi

cd "$root"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# gen MODE KIND FILE: generate FILE (its name in the checkout) into $out.
gen()
{
	mkdir -p "$out/$(dirname "$3")"
	python3 tools/ynl_gen.py "$ksrc" --mode "$1" "--$2" --spec "$spec" \
		--hdr-include uet/netlink-gen.h -o "$out/$3"
}

gen uapi header uapi/linux/uet_netlink.h
gen kernel header include/uet/netlink-gen.h
gen kernel source drivers/uet/netlink-gen.c
files="uapi/linux/uet_netlink.h include/uet/netlink-gen.h drivers/uet/netlink-gen.c"

python3 tools/ynl_check.py consts "$spec" "$root" >/dev/null
if git rev-parse -q --verify HEAD:uapi/linux/uet_netlink.h >/dev/null 2>&1; then
	git show HEAD:uapi/linux/uet_netlink.h >"$out/committed.h"
	python3 tools/ynl_check.py abi "$out/committed.h" \
		"$out/uapi/linux/uet_netlink.h" >/dev/null
fi

rc=0
for f in $files; do
	if cmp -s "$out/$f" "$f"; then
		continue
	fi
	if [ "$check" = 1 ]; then
		echo "regen: $f is not what $spec generates; run 'make regen'" >&2
		diff -u "$f" "$out/$f" >&2 || true
		rc=1
	else
		cp "$out/$f" "$f"
		echo "regen: wrote $f"
	fi
done
exit "$rc"
