#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Strict netlink on every command of the "uet" family: an attribute a
# request does not take (any, on the get commands), an unknown attribute,
# a reserved genetlink header byte or an unexpected netlink flag is refused
# with EINVAL and an extended ack, and changes nothing. Raw messages, since
# uetctl and ynl only send what the spec allows.

. "$(dirname "$0")/lib.sh"

UETCTL=${UETCTL:-uetctl}

ktap_header
ktap_plan 8

out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT

# nl.py CMD [--flags N] [--reserved N] [TYPE:HEX]...: one request (NLM_F_ACK
# added); prints the errno of its ack and whether it had a message.
cat >"$out/nl.py" <<'PY'
import argparse, socket, struct

NETLINK_GENERIC, NETLINK_EXT_ACK, NETLINK_CAP_ACK, SOL_NETLINK = 16, 11, 10, 270
NLMSG_ERROR, NLM_F_REQUEST, NLM_F_ACK = 2, 1, 4

p = argparse.ArgumentParser()
p.add_argument('cmd', type=int)
p.add_argument('--flags', type=lambda x: int(x, 0), default=0)
p.add_argument('--reserved', type=int, default=0)
p.add_argument('attrs', nargs='*')
a = p.parse_args()

def attr(t, data):
    n = 4 + len(data)
    return struct.pack('HH', n, t) + data + b'\0' * (-n % 4)

def attrs(b):
    while len(b) >= 4:
        n, t = struct.unpack('HH', b[:4])
        yield t & 0x3fff, b[4:n]
        b = b[(n + 3) & ~3:]

sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
sk.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
sk.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)

def request(family, cmd, flags, reserved, payload):
    body = struct.pack('BBH', cmd, 1, reserved) + payload
    sk.send(struct.pack('IHHII', 16 + len(body), family,
                        NLM_F_REQUEST | NLM_F_ACK | flags, 1, 0) + body)
    replies = []
    while True:
        data = sk.recv(65536)
        while len(data) >= 16:
            n, typ, _, _, _ = struct.unpack('IHHII', data[:16])
            if typ == NLMSG_ERROR:
                err = -struct.unpack('i', data[16:20])[0]
                msg = [v for t, v in attrs(data[36:n]) if t == 1]
                return err, msg, replies
            replies.append(data[20:n])
            data = data[(n + 3) & ~3:]

err, _, rep = request(0x10, 3, 0, 0, attr(2, b'uet\0'))	# CTRL GETFAMILY
family = [struct.unpack('H', v[:2])[0] for t, v in attrs(rep[0]) if t == 1][0]
payload = b''.join(attr(int(t), bytes.fromhex(h))
                   for t, h in (x.split(':') for x in a.attrs))
err, msg, _ = request(family, a.cmd, a.flags, a.reserved, payload)
print(err, msg[0].rstrip(b'\0').decode() if msg else '-')
PY

uet_netns_new ns || { echo "# setup failed"; exit "$KSFT_FAIL"; }

# req POINT WANT CMD ARGS...: one test point: the request's errno is WANT
# and, when refused, it came with a message.
req()
{
	local name=$1 want=$2 got err msg

	shift 2
	got=$(ip netns exec "$ns" python3 "$out/nl.py" "$@" 2>&1)
	err=${got%% *}
	msg=${got#* }
	if [ "$err" = "$want" ] && { [ "$want" = 0 ] || [ "$msg" != - ]; }; then
		ktap_ok "$name"
		[ "$want" = 0 ] || echo "# $name: $msg"
	else
		ktap_fail "$name" "got '$got', want errno $want with a message"
	fi
}

# Command numbers and attributes of uapi/linux/uet_netlink.h.
INFO_GET=1 CONFIG_GET=2 CONFIG_SET=3 STATS_GET=4
before=$($UETCTL -n "$ns" show)

req "config-get without attributes answers" 0 $CONFIG_GET
req "config-get refuses an attribute (UET_A_CFG_SPRAY)" 22 $CONFIG_GET 1:00
req "info-get refuses an unknown attribute" 22 $INFO_GET 99:00000000
req "stats-get refuses an attribute" 22 $STATS_GET 1:00000000
req "a reserved genetlink header byte is refused" 22 $CONFIG_GET --reserved 1
req "an unexpected netlink flag (0x200) is refused" 22 $CONFIG_GET --flags 0x200
req "config-set refuses an unknown attribute" 22 $CONFIG_SET 1:03 200:00
uet_check_eq "$($UETCTL -n "$ns" show)" "$before" "the refused requests changed nothing"

ktap_finished
