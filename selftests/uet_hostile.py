#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hand-made messages that try to break reassembly, for rx_hostile.sh.

    uet_hostile.py DST CASE

Every packet goes from a plain UDP socket to DST (IPv4) port 4793, job 1,
endpoint 200, each case on a PDC of its own (every packet a SYN, which
needs no answer to be taken). CASE is one of:
  overlap    a 32768-byte message: SOM with 16320 bytes, the same SOM
             again, 128 bytes across its end, then the last 64 bytes:
             counted by bytes it would be complete with 16 KiB unwritten
  unaligned  a packet at offset 100 of a 1000-byte message
  bigreq     the first 1024 bytes of a message of 64 MiB
  stale      the next 1024 bytes of bigreq's message
  reuse      bigreq's message id again, at a later PSN: a 5-byte message
             "hello"
  replace    the second half of an 8 KiB message, then its id again at a
             later PSN with another length: a 5-byte message "world"
  rxmem      the first 50 pages (4096 bytes each) of a 1 MiB message
"""
import socket
import sys

from uet_inject import AR, PORT, SYN, req, ses

EP = 200


class Pdc:
    """An initiator PDC of this injector: every packet a SYN."""

    def __init__(self, spdcid, start):
        self.spdcid = spdcid
        self.start = start
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    def send(self, dst, psn, length, off, payload, msg_id=1):
        pkt = req(psn, self.spdcid, (psn - self.start) & 0xfff, SYN | AR) + \
            ses(length, EP, msg_id=msg_id, off=off, plen=len(payload)) + \
            payload
        self.sock.sendto(pkt, (dst, PORT))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    dst, case = sys.argv[1], sys.argv[2]
    if case == 'overlap':
        p = Pdc(0x6101, 7000)
        p.send(dst, 7000, 32768, 0, b'A' * 16320)
        p.send(dst, 7001, 32768, 0, b'B' * 16320)
        p.send(dst, 7002, 32768, 16256, b'C' * 128)
        p.send(dst, 7003, 32768, 32704, b'D' * 64)
    elif case == 'unaligned':
        Pdc(0x6102, 8000).send(dst, 8000, 1000, 100, b'E' * 100)
    elif case in ('bigreq', 'stale', 'reuse'):
        p = Pdc(0x6103, 9000)
        if case == 'bigreq':
            p.send(dst, 9000, 64 << 20, 0, b'F' * 1024)
        elif case == 'stale':
            p.send(dst, 9001, 64 << 20, 1024, b'G' * 1024)
        else:
            p.send(dst, 9002, 5, 0, b'hello')
    elif case == 'replace':
        p = Pdc(0x6105, 11000)
        p.send(dst, 11000, 8192, 4096, b'I' * 4096, msg_id=3)
        p.send(dst, 11001, 5, 0, b'world', msg_id=3)
    elif case == 'rxmem':
        p = Pdc(0x6104, 10000)
        for i in range(50):
            p.send(dst, 10000 + i, 1 << 20, i * 4096, b'H' * 4096, msg_id=7)
    else:
        sys.exit('uet_hostile.py: unknown case ' + case)


if __name__ == '__main__':
    main()
