#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send random and mutated PDS packets at a uet receiver, for fuzz.sh.

    uet_fuzz.py DST IFACE SRC[,SRC...] SECONDS SEED

For SECONDS, from the source addresses SRC (local addresses of this
namespace, on IFACE; DST is an IPv4 address), sends through a raw socket:
  - valid first packets of new PDCs (SYN) of multi-packet messages to
    endpoint 100 of job 1, and their later packets with one field
    corrupted (PDS type, flags, PSN, PDC ids, SES opcode, flags, message
    id, job, endpoint, offset, payload length, req_len, or a truncation),
    using the PDC id the receiver's answers name;
  - ACK, NACK and CTRL packets naming the PDCs seen on IFACE, corrupted
    likewise;
  - copies of the packets other senders send to DST (seen on IFACE),
    readdressed to endpoint 200, sent from SRC with a bit flipped, cut
    short or padded;
  - random bytes behind a random prologue.
Every UDP checksum is correct, so that the packets reach uet.  The same
SEED sends the same packet sequence (the receiver's answers, and so the
PDC ids learnt, depend on timing).  Prints the seed and what it sent.
"""
import random
import select
import socket
import struct
import sys
import time

from uet_inject import raw_udp

# EP: not uetperf's endpoint (100), so that no fuzz message reaches it
PORT, JOB, EP, REAL_EP = 4793, 1, 200, 100
RUD_REQ, ACK, ACK_CC, NACK, CTRL = 2, 7, 8, 10, 11
REQ_STD = 3
SYN, AR, RETX = 0x04, 0x08, 0x10
SOM, EOM = 1, 2
SEG = 1024


def prologue(ptype, nxt, flags):
    return struct.pack('!H', ((ptype & 31) << 11) | ((nxt & 15) << 7) |
                       (flags & 127))


class Pdc:
    """A PDC this fuzzer opened from one source address."""

    def __init__(self, rnd):
        self.lid = rnd.randrange(1, 65536)
        self.start = rnd.getrandbits(32)
        self.next = self.start
        self.rid = None
        self.msg_id = rnd.getrandbits(16)
        self.off = 0
        self.length = SEG * rnd.randrange(2, 40)


def data_fields(pdc, rnd):
    """The fields of the next data packet of pdc's current message."""
    off = pdc.off
    plen = min(SEG, pdc.length - off)
    syn = pdc.rid is None
    f = {
        'type': RUD_REQ, 'nh': REQ_STD,
        'flags': (SYN if syn else 0) | (AR if rnd.random() < .3 else 0),
        'psn': pdc.next, 'spdcid': pdc.lid,
        'dpdcid': ((pdc.next - pdc.start) & 0xfff) if syn else pdc.rid,
        'opcode': 5, 'sesf': (SOM if off == 0 else 0) |
        (EOM if off + plen == pdc.length else 0),
        'msg_id': pdc.msg_id, 'job': JOB, 'ep': EP, 'off': off,
        'plen': plen, 'req_len': pdc.length, 'payload': plen,
    }
    pdc.next = (pdc.next + 1) & 0xffffffff
    pdc.off += plen
    if pdc.off >= pdc.length:
        pdc.off = 0
        pdc.msg_id = (pdc.msg_id + 1) & 0xffff
        pdc.length = SEG * rnd.randrange(1, 40)
    return f


def data_packet(f, rnd):
    hdr_data = 0 if f['off'] == 0 and not f.get('hd') else \
        ((f['plen'] & 0x3fff) << 32) | (f['off'] & 0xffffffff)
    p = prologue(f['type'], f['nh'], f['flags']) + \
        struct.pack('!HIHH', 0, f['psn'] & 0xffffffff, f['spdcid'] & 0xffff,
                    f['dpdcid'] & 0xffff) + \
        struct.pack('!BBHIHHQIQQI', f['opcode'] & 0xff, f['sesf'] & 0xff,
                    f['msg_id'] & 0xffff, f['job'] & 0xffffffff,
                    f['ep'] & 0xffff, 0, 0, 7, 0, hdr_data,
                    f['req_len'] & 0xffffffff)
    return p + bytes(rnd.getrandbits(8) for _ in range(min(f['payload'],
                                                             64))) + \
        bytes(max(0, f['payload'] - 64))


def corrupt(f, rnd):
    """Corrupt one field of a data packet; return its name."""
    field = rnd.choice(['type', 'nh', 'flags', 'psn', 'spdcid', 'dpdcid',
                        'opcode', 'sesf', 'msg_id', 'job', 'ep', 'off',
                        'plen', 'req_len', 'payload', 'hd'])
    if field == 'type':
        f['type'] = rnd.randrange(32)
    elif field == 'nh':
        f['nh'] = rnd.randrange(16)
    elif field == 'flags':
        f['flags'] = rnd.randrange(128)
    elif field == 'psn':
        f['psn'] += rnd.choice([-1, 1, 255, 256, 257, 4096, -4096,
                                1 << 31, rnd.getrandbits(32)])
    elif field in ('spdcid', 'dpdcid', 'msg_id', 'ep'):
        f[field] = rnd.choice([0, 0xffff, f[field] ^ 1,
                               rnd.getrandbits(16)])
        if field == 'ep' and f['ep'] & 0xfff == REAL_EP:
            f['ep'] = 0
    elif field == 'opcode':
        f['opcode'] = rnd.randrange(256)
    elif field == 'sesf':
        f['sesf'] = rnd.randrange(256)
    elif field == 'job':
        f['job'] = rnd.choice([0, 2, 0xffffff, rnd.getrandbits(32)])
    elif field == 'off':
        f['off'] = rnd.choice([f['off'] + 1, f['req_len'],
                               f['req_len'] - 1, 0xffffffff,
                               rnd.getrandbits(32)])
        f['hd'] = True
    elif field == 'plen':
        f['plen'] = rnd.choice([0, 1, 0x3fff, f['plen'] + 1,
                                rnd.getrandbits(14)])
        f['hd'] = True
    elif field == 'req_len':
        f['req_len'] = rnd.choice([0, 1, f['off'], 0xffffffff,
                                   64 << 20, (64 << 20) + 1,
                                   rnd.getrandbits(32)])
    elif field == 'payload':
        f['payload'] = rnd.choice([0, 1, f['payload'] + 1,
                                   max(0, f['payload'] - 1), 1400])
    else:
        f['hd'] = True
    return field


def ctl_packet(rnd, ids):
    """An ACK, ACK_CC, NACK or CTRL naming PDC ids seen, one field odd."""
    spdcid, dpdcid, psn = ids
    t = rnd.choice([ACK, ACK_CC, NACK, CTRL, rnd.randrange(32)])
    psn = (psn + rnd.choice([0, 1, -1, 256, 1 << 31,
                             rnd.getrandbits(32)])) & 0xffffffff
    if rnd.random() < .5:
        spdcid, dpdcid = dpdcid, spdcid
    if rnd.random() < .3:
        spdcid = rnd.getrandbits(16)
    if t in (ACK, ACK_CC):
        p = prologue(t, 0, rnd.randrange(128)) + \
            struct.pack('!HIHH', rnd.getrandbits(16), psn, spdcid, dpdcid)
        if t == ACK_CC:
            p += struct.pack('!BBHQQ', rnd.randrange(256), rnd.randrange(256),
                             rnd.getrandbits(16), rnd.getrandbits(64),
                             rnd.getrandbits(64))
    elif t == NACK:
        p = prologue(t, 0, rnd.randrange(128)) + \
            struct.pack('!BBIHHI', rnd.choice([1, 2, 7, 10, 11, 0xff,
                                               rnd.randrange(256)]),
                        0, psn, spdcid, dpdcid, rnd.getrandbits(32))
    else:
        p = prologue(t, rnd.randrange(16), rnd.randrange(128)) + \
            struct.pack('!HIHHI', rnd.getrandbits(16), psn, spdcid, dpdcid,
                        rnd.getrandbits(32))
    return p


def mutate_bytes(p, rnd):
    """A copy of p with a byte changed, cut short, or padded."""
    p = bytearray(p)
    how = rnd.randrange(3)
    if how == 0 and p:
        i = rnd.randrange(min(len(p), 56))
        p[i] ^= 1 << rnd.randrange(8)
    elif how == 1:
        p = p[:rnd.randrange(len(p) + 1)]
    else:
        p += bytes(rnd.randrange(1, 64))
    return bytes(p)


class Sniffer:
    """PDC ids and packets seen on the interface, both directions."""

    def __init__(self, iface):
        # ETH_P_ALL: a protocol tap does not see outgoing packets
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                               socket.htons(3))
        self.s.bind((iface, 0))
        self.s.setblocking(False)
        self.ids = []
        self.real = []

    def poll(self, dst, srcs, pdcs):
        for _ in range(64):
            try:
                f = self.s.recv(65536)
            except BlockingIOError:
                return
            ip = f[14:]
            if f[12:14] != b'\x08\x00' or len(ip) < 40 or \
                    ip[9] != socket.IPPROTO_UDP:
                continue
            udp = ip[(ip[0] & 15) * 4:]
            src = socket.inet_ntoa(ip[12:16])
            dport = struct.unpack('!H', udp[2:4])[0]
            pds = udp[8:]
            if dport != PORT or len(pds) < 12:
                continue
            t = pds[0] >> 3
            psn, sid, did = struct.unpack('!IHH', pds[4:12])
            self.ids.append((sid, did, psn))
            del self.ids[:-256]
            if src == dst:
                # an answer to one of our PDCs: learn the receiver's id
                to = socket.inet_ntoa(ip[16:20])
                pdc = pdcs.get(to)
                if pdc and t in (ACK, ACK_CC, NACK) and did == pdc.lid:
                    pdc.rid = sid
            elif src not in srcs and t == RUD_REQ and len(pds) >= 56:
                # to the fuzz endpoint: a copy must not reach uetperf
                self.real.append(pds[:20] + struct.pack('!H', EP) +
                                 pds[22:1500])
                del self.real[:-64]


def main():
    dst, iface, srcs = sys.argv[1], sys.argv[2], sys.argv[3].split(',')
    seconds, seed = float(sys.argv[4]), int(sys.argv[5])
    print('uet_fuzz: seed %d, %gs, %d sources' % (seed, seconds, len(srcs)),
          flush=True)
    rnd = random.Random(seed)
    raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    sniff = Sniffer(iface)
    pdcs = {}
    sent = {}
    end = time.time() + seconds
    n = 0
    while time.time() < end:
        sniff.poll(dst, srcs, pdcs)
        src = rnd.choice(srcs)
        what = rnd.choices(['syn', 'data', 'ctl', 'real', 'random'],
                           [1, 8, 3, 2, 1])[0]
        pdc = pdcs.get(src)
        if what == 'syn' or (what == 'data' and not pdc):
            pdc = pdcs[src] = Pdc(rnd)
            what = 'syn'
            p = data_packet(data_fields(pdc, rnd), rnd)
        elif what == 'data':
            f = data_fields(pdc, rnd)
            if rnd.random() < .5:
                what = 'data:' + corrupt(f, rnd)
            p = data_packet(f, rnd)
        elif what == 'ctl':
            ids = rnd.choice(sniff.ids) if sniff.ids else \
                (rnd.getrandbits(16), rnd.getrandbits(16), 0)
            p = ctl_packet(rnd, ids)
        elif what == 'real' and sniff.real:
            p = mutate_bytes(rnd.choice(sniff.real), rnd)
        else:
            what = 'random'
            p = prologue(rnd.randrange(32), rnd.randrange(16),
                         rnd.randrange(128)) + \
                bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(80)))
        if rnd.random() < .05:
            p = p[:rnd.randrange(len(p) + 1)]
        try:
            raw.sendto(raw_udp(src, dst, rnd.randrange(1024, 65536), p),
                       (dst, 0))
        except OSError:
            pass
        kind = what.split(':')[0]
        sent[kind] = sent.get(kind, 0) + 1
        n += 1
        if n % 64 == 0:
            time.sleep(0.002)
    print('uet_fuzz: sent %d packets: %s' %
          (n, ' '.join('%s=%d' % kv for kv in sorted(sent.items()))))


if __name__ == '__main__':
    main()
