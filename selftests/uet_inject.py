#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send hand-made UET packets at a uet receiver, for the bad-input selftest.

    uet_inject.py DST CASE [COUNT]

DST is an IPv4 address; packets go to UDP port 4793. CASE is one of:
  truncated     1-byte UDP payloads
  garbage       random bytes with a PDS type no one defines (31)
  types         PDS types uet does not handle (UUD, RUDI, ACK_CCX, NACK_CCX,
                RUD_CC), and a SES opcode it does not handle (READ)
  nopdc         data, ACK, NACK and CTRL packets to a PDC id that is not open
  badlen        data whose SES payload length disagrees with the packet
  window        a SYN to endpoint 100, then a PSN 1000 past it, then the
                SYN again
  trimmed       a data packet cut to its headers, DSCP_TRIMMED (0x3f)
  synflood      COUNT SYNs to endpoint 100 from as many forged sources in
                10.99.0.0/16,
                through a raw socket
  zerocsum      a one-packet message "zero-checksum" to endpoint 100 with
                a UDP checksum of 0, as UET 1.0 sends it; DST may be IPv6
  unbound       COUNT SYNs to endpoint 777, which nobody binds
  srcflood      COUNT SYNs to endpoint 100 on as many PDCs, from SRC (the
                UET_SRC environment variable), none with the PDC's first
                PSN: PDCs that never take a packet in order
  spoofflood    the same from COUNT forged sources in 10.99.0.0/16
  blindsyn      a SYN opening PDC 0x5151 to endpoint 100, then SYNs with
                its key and another start PSN: COUNT outside its window
  bcast         COUNT SYNs to the broadcast address DST and to 224.0.0.1
  v4mapped      COUNT SYNs over IPv6 to DST (an IPv6 address) from the
                IPv4-mapped source ::ffff:10.0.0.1, through a raw socket
  sendmem       not a packet: an AF_UET socket with SO_SNDBUF 64 KiB sends
                a 9 MiB message to endpoint 100 of DST, then shuts down
                for writing and sends 10 bytes; prints both errno names
  forged        ACKs, ACK_CCs and NACKs (spdcid 0 and UET_RID) for PSNs
                never sent, to the initiator PDC id COUNT at DST
  chflood       COUNT PDCs opened by a one-packet message to endpoint
                100, then UET_ROUNDS (1) rounds, UET_GAP (0) seconds apart,
                of one SYN per PDC with its key outside its window; prints
                the seconds from the first of those SYNs to the last, and
                how many answers this namespace's uet counted (the
                challenge ACKs come back to port 4793 of this host, where
                no PDC knows them: drop_unknown_pdc)
"""
import random
import socket
import struct
import sys

PORT = 4793
JOB = 1
RUD_REQ, ACK, NACK, CTRL = 2, 7, 10, 11
REQ_STD = 3
SYN, AR = 0x04, 0x08


def prologue(ptype, nxt, flags):
    return struct.pack('!H', (ptype << 11) | (nxt << 7) | flags)


def req(psn, spdcid, dpdcid, flags, ptype=RUD_REQ):
    return prologue(ptype, REQ_STD, flags) + \
        struct.pack('!hIHH', 0, psn, spdcid, dpdcid)


def ses(length, dst_ep, msg_id=1, off=0, plen=0, opcode=5):
    som = off == 0
    flags = (1 if som else 0) | (2 if off + plen == length else 0)
    hdr_data = 0 if som else (plen << 32) | off
    return struct.pack('!BBHIHHQIQQI', opcode, flags, msg_id, JOB, dst_ep, 0,
                       0, 7, 0, hdr_data, length)


def syn(psn, start, spdcid, dst_ep=777, payload=b'x'):
    """A one-packet message on a new PDC whose first PSN is start."""
    return req(psn, spdcid, (psn - start) & 0xfff, SYN | AR) + \
        ses(len(payload), dst_ep, plen=len(payload)) + payload


def csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def raw_udp(src, dst, sport, payload):
    """An IPv4/UDP packet with a correct UDP checksum."""
    ulen = 8 + len(payload)
    pseudo = socket.inet_aton(src) + socket.inet_aton(dst) + \
        struct.pack('!BBH', 0, socket.IPPROTO_UDP, ulen)
    udp = struct.pack('!HHHH', sport, PORT, ulen, 0) + payload
    c = csum(pseudo + udp) or 0xffff
    udp = udp[:6] + struct.pack('!H', c) + udp[8:]
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + ulen, 0, 0, 64,
                     socket.IPPROTO_UDP, 0, socket.inet_aton(src),
                     socket.inet_aton(dst))
    return ip + udp


def zero_csum_send(dst, payload):
    """Send payload to dst:PORT in UDP with a zero checksum (raw socket)."""
    fam = socket.AF_INET6 if ':' in dst else socket.AF_INET
    probe = socket.socket(fam, socket.SOCK_DGRAM)
    probe.connect((dst, PORT))
    src = probe.getsockname()[0]
    udp = struct.pack('!HHHH', 4000, PORT, 8 + len(payload), 0) + payload
    if fam == socket.AF_INET6:
        # No IPV6_CHECKSUM: the kernel sends the UDP header as it is.
        r = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_UDP)
        r.sendto(udp, (dst, 0))
        return
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0, 64,
                     socket.IPPROTO_UDP, 0, socket.inet_aton(src),
                     socket.inet_aton(dst))
    r = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_RAW)
    r.sendto(ip + udp, (dst, 0))
def flood(send_raw, dst, count, src):
    """SYNs on count PDCs, each missing its first PSN, to endpoint 100."""
    rnd = random.Random(4794)
    for i in range(count):
        start = rnd.getrandbits(32)
        send_raw(src(i), 2000 + i % 60000,
                 req((start + 1) & 0xffffffff, 1 + i % 65000, 1, SYN) +
                 ses(1, 100, plen=1) + b'z')


def ip6_udp(src, dst, payload):
    """An IPv6/UDP packet with a correct UDP checksum."""
    s6, d6 = socket.inet_pton(socket.AF_INET6, src), \
        socket.inet_pton(socket.AF_INET6, dst)
    ulen = 8 + len(payload)
    pseudo = s6 + d6 + struct.pack('!IxxxB', ulen, socket.IPPROTO_UDP)
    udp = struct.pack('!HHHH', 3333, PORT, ulen, 0) + payload
    c = csum(pseudo + udp) or 0xffff
    udp = udp[:6] + struct.pack('!H', c) + udp[8:]
    return struct.pack('!IHBB', 6 << 28, ulen, socket.IPPROTO_UDP, 64) + \
        s6 + d6 + udp


def uet_send(fd, dst, data):
    """sendto() on an AF_UET socket; the errno name, or 'OK'."""
    import ctypes
    import errno
    libc = ctypes.CDLL(None, use_errno=True)
    sa = struct.pack('=HHIHHI', 19, socket.AF_INET, JOB, 100, 0, 0) + \
        socket.inet_aton(dst) + bytes(12)
    buf = ctypes.create_string_buffer(data, len(data))
    n = libc.sendto(fd, buf, len(data), socket.MSG_NOSIGNAL, sa, len(sa))
    return 'OK' if n == len(data) else errno.errorcode[ctypes.get_errno()]


def sendmem(dst):
    """SO_SNDBUF bounds a message; SHUT_WR stops sending."""
    s = socket.socket(19, socket.SOCK_RDM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                 struct.pack('ll', 2, 0))
    big = uet_send(s.fileno(), dst, bytes(9 << 20))
    s.shutdown(socket.SHUT_WR)
    print(big, uet_send(s.fileno(), dst, b'0123456789'))


def extra(case, dst, count):
    """The admission and feedback cases; False for an unknown case."""
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if case == 'unbound':
        for i in range(count):
            u.sendto(syn(300 + i, 300 + i, 0x7000 + i), (dst, PORT))
    elif case == 'srcflood':
        import os
        v = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        v.bind((os.environ['UET_SRC'], 0))
        flood(lambda s, p, b: v.sendto(b, (dst, PORT)), dst, count,
              lambda i: None)
    elif case == 'spoofflood':
        r = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        flood(lambda s, p, b: r.sendto(raw_udp(s, dst, p, b), (dst, 0)),
              dst, count,
              lambda i: '10.99.%d.%d' % (i // 250, 1 + i % 250))
    elif case == 'blindsyn':
        u.sendto(syn(5000, 5000, 0x5151, dst_ep=100), (dst, PORT))
        for i in range(count):
            start = 0x40000000 + i * 4096
            u.sendto(syn(start, start, 0x5151, dst_ep=100), (dst, PORT))
        # The live PDC still takes its next PSN.
        u.sendto(syn(5001, 5000, 0x5151, dst_ep=100), (dst, PORT))
    elif case == 'bcast':
        u.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        u.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
                     socket.inet_aton('10.0.0.1'))
        for i in range(count):
            u.sendto(syn(400 + i, 400 + i, 0x7100 + i, dst_ep=100),
                     (dst, PORT))
            u.sendto(syn(400 + i, 400 + i, 0x7200 + i, dst_ep=100),
                     ('224.0.0.1', PORT))
    elif case == 'v4mapped':
        r = socket.socket(socket.AF_INET6, socket.SOCK_RAW,
                          socket.IPPROTO_RAW)
        for i in range(count):
            r.sendto(ip6_udp('::ffff:10.0.0.1', dst,
                             syn(600 + i, 600 + i, 0x7300 + i, dst_ep=100)),
                     (dst, 0))
    elif case == 'sendmem':
        sendmem(dst)
    elif case == 'forged':
        import os
        lid, rid = count, int(os.environ['UET_RID'])
        for psn in (0x7fff0000, 0x12345678):
            u.sendto(prologue(ACK, 0, 0) +
                     struct.pack('!hIHH', 0, psn, rid, lid), (dst, PORT))
            u.sendto(prologue(8, 0, 0) +
                     struct.pack('!hIHHBBHQQ', 0, psn, rid, lid, 0, 0, 0,
                                 0xff, 0), (dst, PORT))
            for spdcid in (0, rid):
                for code in (1, 0xff):
                    u.sendto(prologue(NACK, 0, 0) +
                             struct.pack('!BBIHHI', code, 0, psn, spdcid,
                                         lid, 0), (dst, PORT))
    elif case == 'chflood':
        chflood(u, dst, count)
    else:
        return False
    return True


def unknown_pdc():
    """This namespace's drop_unknown_pdc counter."""
    with open('/proc/net/uet_stat', encoding='ascii') as f:
        for line in f:
            name, value = line.split()
            if name == 'drop_unknown_pdc':
                return int(value)
    return 0


def chflood(u, dst, count):
    """Blind SYNs at COUNT live PDCs; the challenges that came back."""
    import os
    import time
    rounds = int(os.environ.get('UET_ROUNDS', '1'))
    gap = float(os.environ.get('UET_GAP', '0'))
    for i in range(count):
        u.sendto(syn(7000 + i * 16, 7000 + i * 16, 0x6000 + i, dst_ep=100),
                 (dst, PORT))
    time.sleep(1)
    before = unknown_pdc()
    t0 = time.monotonic()
    for r in range(rounds):
        if r:
            time.sleep(gap)
        for i in range(count):
            start = 0x40000000 + r * 0x100000 + i * 4096
            u.sendto(syn(start, start, 0x6000 + i, dst_ep=100), (dst, PORT))
    t1 = time.monotonic()
    time.sleep(1)
    print('%.3f %d' % (t1 - t0, unknown_pdc() - before))


def main():
    dst, case = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    rnd = random.Random(4793)
    if case == 'zerocsum':
        psn = rnd.getrandbits(32)
        zero_csum_send(dst, syn(psn, psn, 0x7777, dst_ep=100,
                                payload=b'zero-checksum'))
        return
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    def send(p):
        u.sendto(p, (dst, PORT))

    if case == 'truncated':
        for _ in range(count):
            send(b'\x10')
    elif case == 'garbage':
        for _ in range(count):
            send(prologue(31, 0, 0) + bytes(rnd.getrandbits(8)
                                            for _ in range(62)))
    elif case == 'types':
        for t in (6, 4, 9, 12, 13):
            send(prologue(t, 0, 0) + bytes(30))
        send(req(5, 0x1111, 0, SYN) + ses(1, 100, opcode=2) + b'x')
    elif case == 'nopdc':
        for i in range(count):
            send(req(100 + i, 0x2222, 0x4242, AR) +
                 ses(1000, 100, off=10, plen=1) + b'x')
        send(prologue(ACK, 0, 0) + struct.pack('!hIHH', 0, 5, 0x2222, 0x4242))
        send(prologue(NACK, 0, 0) + struct.pack('!BBIHHI', 1, 0, 5, 0x2222,
                                                0x4242, 0))
        send(prologue(CTRL, 4, 0) + struct.pack('!HIHHI', 0, 5, 0x2222,
                                                0x4242, 0))
    elif case == 'badlen':
        for i in range(count):
            send(req(200 + i, 0x3333, 0, SYN) +
                 ses(5000, 100, off=1000, plen=500) + b'y' * 10)
    elif case == 'window':
        ok = syn(1000, 1000, 0x5555, dst_ep=100, payload=bytes([31]))
        send(ok)
        send(syn(2000, 1000, 0x5555, dst_ep=100, payload=bytes([31])))
        send(ok)
    elif case == 'trimmed':
        u.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, 0x3f << 2)
        send(req(42, 0x6666, 0, SYN | AR) + ses(4096, 100, plen=4096))
    elif case == 'synflood':
        r = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        for i in range(count):
            src = '10.99.%d.%d' % (i // 250, 1 + i % 250)
            psn = rnd.getrandbits(32)
            r.sendto(raw_udp(src, dst, 1024 + i % 60000,
                             syn(psn, psn, 1 + i % 65000, dst_ep=100)),
                     (dst, 0))
    elif not extra(case, dst, count):
        sys.exit('uet_inject.py: unknown case ' + case)


if __name__ == '__main__':
    main()
