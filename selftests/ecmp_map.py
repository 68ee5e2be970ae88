#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The equal-cost path a leaf of the selftests' fabric picks for a UDP flow.

    ecmp_map.py SRC DST PATHS PORT...

Prints "PORT PATH" for each UDP source port PORT (destination port 4793)
from SRC to DST, IPv4 or IPv6, PATH being 1..PATHS in the order of the
route's next hops: the choice ecmp.bpf.c makes the leaf take (a salted
CRC-32 of the 5-tuple, folded, bit-reversed into skb->hash) and Linux's
hash-threshold then makes, the member whose share of the 31-bit hash
space holds hash >> 1.  `ip route get` cannot say it: the hash comes from
the tc program, which a route lookup does not run.
"""
import ipaddress
import struct
import sys
import zlib

SALT = 0x5ca1ab1e	# ecmp.bpf.c's ECMP_SALT, stored little-endian
UET_PORT = 4793


def bitrev32(x):
    return int(f"{x:032b}"[::-1], 2)


def skb_hash(src, dst, sport):
    key = (struct.pack("<I", SALT) + src.packed + dst.packed +
           struct.pack("!BHH", 17, sport, UET_PORT))
    crc = zlib.crc32(key)
    return bitrev32(crc ^ (crc >> 16))


def path(h, n):
    """fib_select_multipath(): the first next hop whose upper bound,
    round(k * 2^31 / n) - 1 for the k-th of n equal ones, holds h >> 1."""
    h >>= 1
    for k in range(1, n + 1):
        if h <= ((k << 31) + n // 2) // n - 1:
            return k
    return n


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src = ipaddress.ip_address(sys.argv[1])
    dst = ipaddress.ip_address(sys.argv[2])
    n = int(sys.argv[3])
    for p in sys.argv[4:]:
        print(p, path(skb_hash(src, dst, int(p)), n))


if __name__ == "__main__":
    main()
