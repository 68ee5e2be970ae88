#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Netlink dumps of destinations and PDCs: 2000 destinations (many dump
# messages' worth) listed each once, the PDCs likewise,
# filters, the strict request policies with their extended acks, one
# destination whose REPS cache needs several messages put back together,
# a PDC's own spraying state, and debugfs agreeing with netlink.

. "$(dirname "$0")/fabric.sh"

NDEST=2000

ktap_header
ktap_plan 14

out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT

# A small generic netlink client for what uetctl hides: how many dump
# parts (datagrams) came, what each message held, and extended acks.
# Numbers are those of uapi/linux/uet_netlink.h, which never change.
cat >"$out/nl.py" <<'EOF'
import json, socket, struct, sys

NETLINK_GENERIC, NETLINK_EXT_ACK, NETLINK_CAP_ACK, SOL_NETLINK = 16, 11, 10, 270
NLMSG_ERROR, NLMSG_DONE, NLM_F_DUMP_INTR = 2, 3, 0x10
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 1, 4, 0x300
SPRAY_NESTS = {5: 4, 6: 21}		# cmd: its UET_A_*_SPRAY
A_SPRAY_VALUES_FIRST, A_SPRAY_VALUE = 12, 13

def attr(t, data):
    n = 4 + len(data)
    return struct.pack('HH', n, t) + data + b'\0' * (-n % 4)

def attrs(b):
    while len(b) >= 4:
        n, t = struct.unpack('HH', b[:4])
        yield t & 0x3fff, b[4:n]
        b = b[(n + 3) & ~3:]

sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
sk.bind((0, 0))
sk.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
sk.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
seq = 0

def send(family, flags, cmd, payload):
    global seq
    seq += 1
    body = struct.pack('BBH', cmd, 1, 0) + payload
    sk.send(struct.pack('IHHII', 16 + len(body), family, flags, seq, 0) + body)

def replies():
    """Yield (part, type, flags, payload) until DONE or an error."""
    part = 0
    while True:
        data = sk.recv(1 << 20)
        part += 1
        while len(data) >= 16:
            n, typ, flags, _, _ = struct.unpack('IHHII', data[:16])
            yield part, typ, flags, data[16:n]
            if typ in (NLMSG_DONE, NLMSG_ERROR):
                return
            data = data[(n + 3) & ~3:]

def error(typ, payload):
    if typ != NLMSG_ERROR:
        return 0, ''
    err = -struct.unpack('i', payload[:4])[0]
    msg = ''
    for t, v in attrs(payload[20:]):
        if t == 1:
            msg = v.rstrip(b'\0').decode()
    return err, msg

send(0x10, NLM_F_REQUEST | NLM_F_ACK, 3, attr(2, b'uet\0'))	# GETFAMILY
fam = None
for _, typ, _, p in replies():
    if typ == NLMSG_ERROR and error(typ, p)[0]:
        sys.exit('no uet family')
    for t, v in attrs(p[4:]) if typ == 0x10 else ():
        if t == 1:
            fam = struct.unpack('H', v[:2])[0]

mode, cmd = sys.argv[1], int(sys.argv[2])
payload = b''
for a in sys.argv[3:]:
    t, hexdata = a.split(':')
    payload += attr(int(t), bytes.fromhex(hexdata))
def run():
    if mode == 'do':
        send(fam, NLM_F_REQUEST | NLM_F_ACK, cmd, payload)
    else:
        send(fam, NLM_F_REQUEST | NLM_F_DUMP, cmd, payload)
    return replies()

# A dump the kernel flags as interrupted by changes is tried again.
for tries in range(5):
    res = {'parts': 0, 'msgs': 0, 'intr': False, 'error': 0, 'extack': '',
           'keys': [], 'firsts': [], 'nvals': []}
    for part, typ, flags, p in run():
        res['parts'] = part
        if flags & NLM_F_DUMP_INTR:
            res['intr'] = True
        if typ in (NLMSG_DONE, NLMSG_ERROR):
            res['error'], res['extack'] = error(typ, p)
            break
        res['msgs'] += 1
        top = dict(attrs(p[4:]))
        res['keys'].append(top.get(1, b'').hex())
        nest = top.get(SPRAY_NESTS.get(cmd, 0), b'')
        inner = list(attrs(nest))
        first = [struct.unpack('I', v[:4])[0] for t, v in inner
                 if t == A_SPRAY_VALUES_FIRST]
        res['firsts'].append(first[0] if first else 0)
        res['nvals'].append(sum(1 for t, _ in inner if t == A_SPRAY_VALUE))
    if not res['intr']:
        break
res['tries'] = tries + 1
print(json.dumps(res))
EOF

# nl NS ARGS...: the client in NS.
nl()
{
	local ns=$1

	shift
	ip netns exec "$ns" python3 "$out/nl.py" "$@"
}

# v4hex ADDR: an IPv4 address as the 16 bytes the family takes, in hex.
v4hex()
{
	local IFS=.

	# shellcheck disable=SC2086
	printf '00000000000000000000ffff%02x%02x%02x%02x' $1
}

# 2000 destinations behind a dummy device: packets to them go nowhere,
# so each PDC keeps its one message in flight until its third timeout of
# 60 s (the first is 10 x rto-min, capped by rto-max), 3 minutes on: the
# checks that need every PDC open come first (opening the 2000 took 107 s
# on a loaded machine), the rest of the test runs while the timeouts are
# awaited.
uet_netns_new A
"$UETCTL" -n "$A" set rto-min 30s rto-max 60s max-retx 2 pdc-idle 60s \
	>/dev/null
ip -n "$A" link add d0 type dummy
ip -n "$A" link set d0 up
ip -n "$A" addr add 10.200.0.1/16 dev d0
for i in $(seq 0 $((NDEST - 1))); do
	echo "10.200.$((i / 250)).$((i % 250 + 2))"
done >"$out/addrs"
# uetperf takes 64 destinations at most: one client per 64, each left
# waiting for its messages once it has sent them.
# All clients start at once, so that every PDC is open well before the
# first ones time out, however slow the VM.
split -l 64 "$out/addrs" "$out/batch."
for b in "$out"/batch.*; do
	ip netns exec "$A" timeout 300 "$UETPERF" -c "$(paste -sd, "$b")" \
		-n "$(wc -l <"$b")" -l 1 -S 4194304 -J >/dev/null 2>&1 &
done
uet_wait_until 120 sh -c "[ \$($UETCTL -j -n $A stats | jq .pdc_active) -ge $NDEST ]"
if [ "$("$UETCTL" -j -n "$A" stats | jq .pdc_active)" -ge $NDEST ]; then
	ktap_ok "$NDEST PDCs opened"
else
	ktap_fail "$NDEST PDCs opened" "$("$UETCTL" -j -n "$A" stats | jq .pdc_active) open"
fi

"$UETCTL" -j -n "$A" dest show >"$out/dests.json"
got=$(jq -r '.[].addr' "$out/dests.json" | sort)
if [ "$got" = "$(sort "$out/addrs")" ] &&
   [ "$(jq '[.[] | select(.npdcs == 1 and (.pdcs | length) == 1)] | length' "$out/dests.json")" = $NDEST ]; then
	ktap_ok "dest dump lists every destination once"
else
	ktap_fail "dest dump lists every destination once" "$(echo "$got" | wc -l) listed, $(echo "$got" | uniq | wc -l) distinct"
fi

nl "$A" dump 5 >"$out/raw.json"
uet_check_eq "$(jq -r '"\(.parts > 1) \(.msgs) \(.keys | unique | length) \(.intr) \(.error)"' "$out/raw.json")" \
	"true $NDEST $NDEST false 0" "the dump took several parts, one message per destination"

"$UETCTL" -j -n "$A" pdc show >"$out/pdcs.json"
lids=$(jq -r '.[].lid' "$out/pdcs.json" | sort -n)
if [ "$(echo "$lids" | uniq | wc -l)" = $NDEST ] &&
   [ "$lids" = "$(jq -r '.[].pdcs[]' "$out/dests.json" | sort -n)" ] &&
   [ "$(jq -r '.[].raddr' "$out/pdcs.json" | sort)" = "$(sort "$out/addrs")" ]; then
	ktap_ok "pdc dump lists every PDC once, as the destinations name them"
else
	ktap_fail "pdc dump lists every PDC once, as the destinations name them" "$(echo "$lids" | wc -l) listed"
fi

one=10.200.5.7
got="$("$UETCTL" -j -n "$A" dest show $one | jq -r '[.[].addr] | join(",")')"
got+=" $("$UETCTL" -j -n "$A" pdc show $one | jq -r '[.[].raddr] | join(",")')"
got+=" $("$UETCTL" -j -n "$A" dest show 10.201.0.1 | jq length)"
uet_check_eq "$got" "$one $one 0" "dest show ADDR and pdc show ADDR list that peer only"

# A well-formed filtered dump, while every PDC is still open.
one_dump=$(nl "$A" dump 5 1:"$(v4hex $one)" | jq -r '"\(.error) \(.msgs)"')

# debugfs lists the same PDCs as netlink.
mount | grep -q ' /sys/kernel/debug ' ||
	mount -t debugfs none /sys/kernel/debug
inum=$(ip netns exec "$A" stat -L -c %i /proc/self/ns/net)
got=$(awk '!/^#/ { print $1 }' /sys/kernel/debug/uet/"$inum"/pdcs | sort -n)
if [ "$got" = "$lids" ]; then
	ktap_ok "debugfs lists the PDCs netlink lists"
else
	ktap_fail "debugfs lists the PDCs netlink lists" "$(echo "$got" | wc -l) against $(echo "$lids" | wc -l)"
fi

# Strict request policies, refusals with a message (these need no PDC).
got="$(nl "$A" dump 5 1:0a000001 | jq -r '"\(.error) \(.extack != "")"')"
got+=" $(nl "$A" dump 6 3:00 | jq -r .error)"
got+=" $(nl "$A" do 4 1:00000000 | jq -r .error)"
got+=" $(nl "$A" do 4 | jq -r .error)"
got+=" $one_dump"
uet_check_eq "$got" "34 true 22 22 0 0 1" \
	"malformed and unknown request attributes are refused, with a message"

# One destination whose REPS cache takes several messages.
uet_pair R S || { echo "# setup failed"; exit "$KSFT_FAIL"; }
"$UETCTL" -n "$R" set spray reps buffer-bits 10 pdc-idle 60s >/dev/null
"$UETCTL" -n "$S" set pdc-idle 60s >/dev/null
uet_transfer "REPS transfer" "$S" "$R" 10.0.0.2 8 -l 1048576 \
	-R 33554432 -- -l 1048576
"$UETCTL" -j -n "$R" dest show 10.0.0.2 >"$out/reps.json"
nl "$R" dump 5 1:"$(v4hex 10.0.0.2)" >"$out/reps.raw"
filled=$(jq '.[0].spray.filled' "$out/reps.json")
echo "# REPS cache: $filled slots filled, per message: $(jq -c .nvals "$out/reps.raw")"
if [ "$filled" -gt 256 ] &&
   jq -e --argjson f "$filled" '.msgs > 1 and
	(.keys | unique | length) == 1 and
	([.nvals[]] | add) == $f and
	([range(0; .msgs) as $i | .firsts[$i] ==
	  ([.nvals[0:$i][]] | add // 0)] | all)' "$out/reps.raw" >/dev/null; then
	ktap_ok "a REPS cache too large for one message continues in the next"
else
	ktap_fail "a REPS cache too large for one message continues in the next"
	sed 's/^/# /' "$out/reps.raw"
fi

# uetctl puts the pieces together; debugfs has the same listing.
inum=$(ip netns exec "$R" stat -L -c %i /proc/self/ns/net)
dbg=$(awk '/^10\.0\.0\.2 /{ f = 1; next } f && /values:/{ sub(/.*values: */, ""); print; exit }' \
	/sys/kernel/debug/uet/"$inum"/dests)
nl_vals=$(jq -r '[.[0].spray.values[] |
	"\(.value)\(if (.flags | index("stale")) then "s" else "" end)"] |
	join(" ")' "$out/reps.json")
if [ "$(jq '.[0].spray.values | length' "$out/reps.json")" = "$filled" ] &&
   [ "$nl_vals" = "$dbg" ]; then
	ktap_ok "uetctl merges the pieces; debugfs lists the same values"
else
	ktap_fail "uetctl merges the pieces; debugfs lists the same values" "netlink: ${nl_vals:0:80}... debugfs: ${dbg:0:80}..."
fi

# PDC groups off: each PDC shows its own spraying state.
uet_pair P Q || { echo "# setup failed"; exit "$KSFT_FAIL"; }
"$UETCTL" -n "$P" set spray active pdc-groups off pdc-idle 60s >/dev/null
uet_transfer "transfer with PDC groups off" "$Q" "$P" 10.0.0.2 2 \
	-l 65536 -- -l 65536
got=$("$UETCTL" -j -n "$P" pdc show |
	jq -r '.[0] | "\(.spray.type) \(.spray.values | length) \(.spray.nvals)"')
got+=" $("$UETCTL" -j -n "$P" dest show | jq '[.[] | select(.spray)] | length')"
uet_check_eq "$got" "active 72 72 0" "a PDC's own spraying state is in the PDC dump"

# The messages are given up in the end, and their PDCs closed: nothing
# is left to hold the namespace once the test is over.  Meanwhile dumps
# run while PDCs and destinations go: an entry is never listed twice
# unless uetctl warns that the tables kept changing.
dumps=0
dups=0
end=$((SECONDS + 300))
while [ "$("$UETCTL" -j -n "$A" stats | jq .pdc_active)" != 0 ] &&
      [ $SECONDS -lt $end ]; do
	"$UETCTL" -j -n "$A" dest show >"$out/churn.json" 2>"$out/churn.err"
	dumps=$((dumps + 1))
	if ! grep -q Warning "$out/churn.err" &&
	   [ "$(jq '[.[].addr] | length' "$out/churn.json")" != \
	     "$(jq '[.[].addr] | unique | length' "$out/churn.json")" ]; then
		dups=$((dups + 1))
	fi
done
echo "# $dumps dumps while the PDCs closed"
uet_check_eq "$dups" 0 "dumps while PDCs close list no destination twice"
if [ "$("$UETCTL" -j -n "$A" stats | jq .pdc_active)" = 0 ]; then
	uet_check_eq "$("$UETCTL" -j -n "$A" stats | jq .tx_messages_failed)" \
		$NDEST "every message given up, every PDC closed"
else
	ktap_fail "every message given up, every PDC closed" "$("$UETCTL" -j -n "$A" stats | jq .pdc_active) still open"
fi

ktap_finished
