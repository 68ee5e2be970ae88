#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""AF_UET system calls and a raw packet capture, for the interop selftest.

    uet_api.py sendto SRC DST [SCOPE [LEN]]
                                        bind to SRC (job 1, any endpoint),
                                        send LEN (10) bytes to DST
                                        endpoint 100 with suet_scope_id
                                        SCOPE (0); prints
                                        "ok" or the errno name
    uet_api.py bind ADDR SCOPE          bind with suet_scope_id SCOPE
    uet_api.py recv EP TIMEOUT [FLAGS [COUNT]]
                                        bind endpoint EP of job 1, print
                                        the first COUNT (1) messages
                                        received (hex), read with recv()
                                        FLAGS (0), or "timeout"
    uet_api.py sendmmsg SRC DST COUNT   bind to SRC, send COUNT messages of
                                        10 bytes to DST endpoint 100 in one
                                        sendmmsg(); print how many went or
                                        the errno name
    uet_api.py efault SRC DST           bind to SRC, sendto() DST endpoint
                                        100 from an unmapped buffer; print
                                        the errno name
    uet_api.py twice DST [DST2]         from one socket bound to any
                                        address, send 10 bytes to DST
                                        endpoint 100, then to DST2 (DST)
                                        once a line comes on stdin; print
                                        "ok" or the errno name for each
    uet_api.py sink EP SECONDS          bind endpoint EP of job 1, read
                                        and discard messages for SECONDS,
                                        print how many
    uet_api.py capture IF SECONDS       print "sport check type ctl psn" for
                                        every UDP packet to port 4793
                                        seen on IF (IPv4 and IPv6)
    uet_api.py fanout JOB NET COUNT     send 10 bytes to endpoint 100 of
                                        COUNT addresses from NET.0.1 on
                                        (NET: two octets, "10.1"), each
                                        opening a PDC, from sockets bound
                                        in JOB; print how many were sent
                                        and the errno name of the first
                                        refusal ("none")

Python's socket module cannot build a struct sockaddr_uet, so the calls go
through libc with ctypes.
"""
import ctypes
import errno
import os
import select
import socket
import struct
import sys
import time

AF_UET, SOCK_RDM, JOB, PORT = 19, 4, 1, 4793
UET_SINK_BUF, MSG_DONTWAIT = 1 << 20, 0x40
libc = ctypes.CDLL(None, use_errno=True)


def sockaddr(addr, ep, scope=0, job=JOB):
    """struct sockaddr_uet for addr ('' = AF_UNSPEC)."""
    if not addr:
        fam, raw = 0, bytes(16)
    elif ':' in addr:
        fam, raw = socket.AF_INET6, socket.inet_pton(socket.AF_INET6, addr)
    else:
        fam, raw = socket.AF_INET, socket.inet_aton(addr) + bytes(12)
    return ctypes.create_string_buffer(
        struct.pack('=HHIHHI', AF_UET, fam, job, ep, 0, scope) + raw, 32)


def check(rc):
    if rc < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return rc


def uet_socket():
    return check(libc.socket(AF_UET, SOCK_RDM, 0))


def result(fn):
    try:
        fn()
        print('ok')
    except OSError as e:
        print(errno.errorcode.get(e.errno, str(e.errno)))


def cmd_sendto(src, dst, scope=0, length=10):
    fd = uet_socket()
    check(libc.bind(fd, sockaddr(src, 0), 32))
    data = b'0123456789' * (length // 10) + b'0123456789'[:length % 10]
    result(lambda: check(libc.sendto(fd, data, len(data), 0,
                                     sockaddr(dst, 100, scope), 32)))


def cmd_bind(addr, scope):
    fd = uet_socket()
    result(lambda: check(libc.bind(fd, sockaddr(addr, 0, scope), 32)))


def cmd_recv(ep, timeout, flags=0, count=1):
    fd = uet_socket()
    check(libc.bind(fd, sockaddr('', ep), 32))
    print('ready', file=sys.stderr, flush=True)
    buf = ctypes.create_string_buffer(65536)
    for _ in range(count):
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            print('timeout')
            return
        n = libc.recv(fd, buf, len(buf), flags)
        if n < 0:
            print(errno.errorcode.get(ctypes.get_errno(), 'errno'))
            return
        print('len %d %s' % (n, buf.raw[:n].hex()))


class Iovec(ctypes.Structure):
    _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]


class Msghdr(ctypes.Structure):
    _fields_ = [('name', ctypes.c_void_p), ('namelen', ctypes.c_uint32),
                ('iov', ctypes.POINTER(Iovec)), ('iovlen', ctypes.c_size_t),
                ('control', ctypes.c_void_p),
                ('controllen', ctypes.c_size_t), ('flags', ctypes.c_int)]


class Mmsghdr(ctypes.Structure):
    _fields_ = [('hdr', Msghdr), ('len', ctypes.c_uint)]


def cmd_sendmmsg(src, dst, count):
    fd = uet_socket()
    check(libc.bind(fd, sockaddr(src, 0), 32))
    addr, data = sockaddr(dst, 100), ctypes.create_string_buffer(b'0123456789')
    iov = Iovec(ctypes.cast(data, ctypes.c_void_p), 10)
    msgs = (Mmsghdr * count)()
    for m in msgs:
        m.hdr.name = ctypes.cast(addr, ctypes.c_void_p)
        m.hdr.namelen = 32
        m.hdr.iov = ctypes.pointer(iov)
        m.hdr.iovlen = 1
    n = libc.sendmmsg(fd, msgs, count, 0)
    print(n if n >= 0 else errno.errorcode.get(ctypes.get_errno(), 'errno'))


def cmd_efault(src, dst):
    fd = uet_socket()
    check(libc.bind(fd, sockaddr(src, 0), 32))
    result(lambda: check(libc.sendto(fd, ctypes.c_void_p(1), 100, 0,
                                     sockaddr(dst, 100), 32)))


def cmd_twice(dst, dst2):
    fd = uet_socket()
    check(libc.bind(fd, sockaddr('', 0), 32))
    for i, to in enumerate((dst, dst2)):
        if i:
            sys.stdin.readline()
        result(lambda: check(libc.sendto(fd, b'0123456789', 10, 0,
                                         sockaddr(to, 100), 32)))
        sys.stdout.flush()


def cmd_sink(ep, seconds):
    fd = uet_socket()
    check(libc.bind(fd, sockaddr('', ep), 32))
    print('ready', file=sys.stderr, flush=True)
    buf = ctypes.create_string_buffer(UET_SINK_BUF)
    end, n = time.time() + seconds, 0
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r and libc.recv(fd, buf, len(buf), MSG_DONTWAIT) >= 0:
            n += 1
    print(n)


def cmd_capture(ifname, seconds):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((ifname, 0))
    print('ready', file=sys.stderr, flush=True)
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([s], [], [], 0.1)
        if not r:
            continue
        f, addr = s.recvfrom(65536)
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        proto = struct.unpack('!H', f[12:14])[0]
        if proto == 0x0800 and f[23] == socket.IPPROTO_UDP:
            udp = f[14 + (f[14] & 15) * 4:]
        elif proto == 0x86dd and f[20] == socket.IPPROTO_UDP:
            udp = f[54:]
        else:
            continue
        sport, dport, _, ck = struct.unpack('!HHHH', udp[:8])
        if dport != PORT or len(udp) < 10:
            continue
        pro = struct.unpack('!H', udp[8:10])[0]
        psn = struct.unpack('!I', udp[12:16])[0] if len(udp) >= 16 else 0
        print('%d %d %d %d %d' % (sport, ck, pro >> 11, (pro >> 7) & 15, psn),
              flush=True)


def cmd_fanout(job, net, count):
    """A message to each of count addresses; a socket holds what its
    SO_SNDBUF takes (the peers never answer), then the next one goes on."""
    fd, sent, err = -1, 0, 'none'
    while sent < count:
        if fd < 0:
            fd = uet_socket()
            check(libc.bind(fd, sockaddr('', 0, job=job), 32))
        dst = '%s.%d.%d' % (net, (sent + 1) // 256, (sent + 1) % 256)
        if libc.sendto(fd, b'0123456789', 10, MSG_DONTWAIT,
                       sockaddr(dst, 100, job=job), 32) == 10:
            sent += 1
            continue
        e = ctypes.get_errno()
        if e != errno.EAGAIN:
            err = errno.errorcode.get(e, str(e))
            break
        fd = -1		# full: keep it open, its messages queued
    print(sent, err)


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == 'sendto':
        cmd_sendto(a[0], a[1], int(a[2]) if len(a) > 2 else 0,
                   int(a[3]) if len(a) > 3 else 10)
    elif cmd == 'bind':
        cmd_bind(a[0], int(a[1]))
    elif cmd == 'recv':
        cmd_recv(int(a[0]), float(a[1]), int(a[2], 0) if len(a) > 2 else 0,
                 int(a[3]) if len(a) > 3 else 1)
    elif cmd == 'sendmmsg':
        cmd_sendmmsg(a[0], a[1], int(a[2]))
    elif cmd == 'efault':
        cmd_efault(a[0], a[1])
    elif cmd == 'twice':
        cmd_twice(a[0], a[1] if len(a) > 1 else a[0])
    elif cmd == 'sink':
        cmd_sink(int(a[0]), float(a[1]))
    elif cmd == 'capture':
        cmd_capture(a[0], float(a[1]))
    elif cmd == 'fanout':
        cmd_fanout(int(a[0]), a[1], int(a[2]))
    else:
        sys.exit('uet_api.py: unknown command ' + cmd)


if __name__ == '__main__':
    main()
