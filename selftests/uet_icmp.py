#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sockets and forged ICMP errors for the ICMP selftest (rx_icmp.sh).

    uet_icmp.py listen SECONDS ADDR PORT [ADDR PORT...]
        bind a UDP socket to each ADDR:PORT with IP_RECVERR (IPV6_RECVERR
        for an IPv6 ADDR), print "ready" on stderr, then for SECONDS or
        until SIGTERM read their error queues; print "ADDR PORT ERRORS"
        for each
    uet_icmp.py bind ADDR PORT
        bind a UDP socket with SO_REUSEADDR and SO_REUSEPORT; print "ok"
        or the errno name
    uet_icmp.py bindrange ADDR LO HI
        bind a UDP socket to each port LO..HI in turn; print the errno
        names (or "ok") seen, sorted, without repeats
    uet_icmp.py forge DST QSRC QDST SPORT LID PSN MTU [QUOTE]
        send DST an ICMP "fragmentation needed" (ICMPv6 "packet too big"
        when DST is IPv6) with MTU, quoting a 1500-byte UDP packet from
        QSRC:SPORT to QDST:4793 that starts with a UET RUD request of PSN
        from PDC LID; QUOTE bytes of it after the IP header (default 64;
        8 quotes the UDP header only)
"""
import errno
import select
import signal
import socket
import struct
import sys
import time

from uet_inject import csum

PORT = 4793
IP_RECVERR, IPV6_RECVERR = 11, 25
RUD_REQ, REQ_STD = 2, 3


def fam(addr):
    return socket.AF_INET6 if ':' in addr else socket.AF_INET


def listen(seconds, pairs):
    socks = []
    for addr, port in pairs:
        s = socket.socket(fam(addr), socket.SOCK_DGRAM)
        if fam(addr) == socket.AF_INET6:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            s.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVERR, 1)
        else:
            s.setsockopt(socket.IPPROTO_IP, IP_RECVERR, 1)
        s.bind((addr, int(port)))
        s.setblocking(False)
        socks.append([s, addr, port, 0])
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    print('ready', file=sys.stderr, flush=True)
    end = time.time() + seconds
    while time.time() < end and not stop:
        try:
            r, _, _ = select.select([x[0] for x in socks], [], [], 0.1)
        except InterruptedError:
            continue
        for x in socks:
            if x[0] not in r:
                continue
            while True:
                try:
                    x[0].recvmsg(2048, 512, socket.MSG_ERRQUEUE)
                    x[3] += 1
                except BlockingIOError:
                    break
                except OSError:
                    break
            try:	# data, if any, is not what is counted
                x[0].recv(2048)
            except OSError:
                pass
    for x in socks:
        print(x[1], x[2], x[3], flush=True)


def try_bind(addr, port, reuse):
    s = socket.socket(fam(addr), socket.SOCK_DGRAM)
    if fam(addr) == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    if reuse:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        s.bind((addr, port))
        return 'ok'
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
    finally:
        s.close()


def forge(dst, qsrc, qdst, sport, lid, psn, mtu, quote):
    uet = struct.pack('!HhIHH', (RUD_REQ << 11) | (REQ_STD << 7), 0, psn,
                      lid, 0) + bytes(64)
    if fam(dst) == socket.AF_INET:
        ulen = 1500 - 20
        udp = struct.pack('!HHHH', sport, PORT, ulen, 0) + uet
        ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 1500, 0, 0x4000, 63,
                         socket.IPPROTO_UDP, 0, socket.inet_aton(qsrc),
                         socket.inet_aton(qdst))
        ip = ip[:10] + struct.pack('!H', csum(ip)) + ip[12:]
        body = ip + udp[:quote]
        icmp = struct.pack('!BBHHH', 3, 4, 0, 0, mtu) + body
        icmp = icmp[:2] + struct.pack('!H', csum(icmp)) + icmp[4:]
        r = socket.socket(socket.AF_INET, socket.SOCK_RAW,
                          socket.IPPROTO_ICMP)
        r.sendto(icmp, (dst, 0))
        return
    ulen = 1500 - 40
    udp = struct.pack('!HHHH', sport, PORT, ulen, 0) + uet
    ip6 = struct.pack('!IHBB', 6 << 28, ulen, socket.IPPROTO_UDP, 63) + \
        socket.inet_pton(socket.AF_INET6, qsrc) + \
        socket.inet_pton(socket.AF_INET6, qdst)
    # The kernel fills in an ICMPv6 raw socket's checksum.
    icmp6 = struct.pack('!BBHI', 2, 0, 0, mtu) + ip6 + udp[:quote]
    r = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
    r.sendto(icmp6, (dst, 0))


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == 'listen':
        listen(float(a[0]), list(zip(a[1::2], a[2::2])))
    elif cmd == 'bind':
        print(try_bind(a[0], int(a[1]), True))
    elif cmd == 'bindrange':
        seen = {try_bind(a[0], p, False)
                for p in range(int(a[1]), int(a[2]) + 1)}
        print(' '.join(sorted(seen)))
    elif cmd == 'forge':
        forge(a[0], a[1], a[2], int(a[3]), int(a[4]), int(a[5]), int(a[6]),
              int(a[7]) if len(a) > 7 else 64)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
