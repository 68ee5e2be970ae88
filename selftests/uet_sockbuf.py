#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""AF_UET socket buffers, for the sock_buffers selftest.

    uet_sockbuf.py bufs                 print SO_SNDBUF and SO_RCVBUF of a
                                        new socket
    uet_sockbuf.py sendbig DST SNDBUF LEN
                                        with SO_SNDBUF set to SNDBUF (0:
                                        left as it is), send LEN bytes to
                                        DST endpoint 100; print "ok" or the
                                        errno name, and "fast" when the
                                        call returned within 10 s, half
                                        its SO_SNDTIMEO (a stalled TCG VM
                                        can take a second over any call)
    uet_sockbuf.py recv EP RCVBUF COUNT TIMEOUT [LATE]
                                        bind endpoint EP (SO_RCVBUF set to
                                        RCVBUF first, 0: left as it is);
                                        print "len N ok|bad" for each of
                                        the first COUNT messages received
                                        within TIMEOUT s, then "timeout"
                                        if fewer came; with LATE, start
                                        reading only LATE s after "ready"
    uet_sockbuf.py fill DST LEN         send LEN-byte messages to DST
                                        endpoint 100 without waiting until
                                        one is refused; print how many
                                        went, the errno name and how many
                                        were still charged then (SIOCOUTQ
                                        over the first one's charge)
    uet_sockbuf.py shrink DST LEN       fill SO_SNDBUF with LEN-byte
                                        messages to DST endpoint 100, block
                                        in one more (SO_SNDTIMEO 20 s) and,
                                        once it waits, lower SO_SNDBUF below
                                        it from another thread; print "ok"
                                        or the errno name of that call, and
                                        "fast" when it returned within 10 s
                                        of the change
    uet_sockbuf.py send DST EP LEN...   send the messages in turn from one
                                        socket, each only once the one
                                        before is acknowledged or given up
                                        (SIOCOUTQ 0, within 30 s); print
                                        "LEN ok" or "LEN ERRNO" for each,
                                        from the error queue
    uet_sockbuf.py sendhold DST EP HOLD LEN...
                                        as send, then keep the socket open
                                        and idle for HOLD s (or until
                                        killed)

Every message is job 1; its bytes are a pattern of its length, which the
receiver checks.
"""
import ctypes
import errno
import fcntl
import select
import socket
import struct
import os
import sys
import threading
import time

from uet_api import AF_UET, SOCK_RDM, check, libc, sockaddr

SOL_UET, UET_CMSG_MSG_ERR, SIOCOUTQ = 300, 1, 0x5411


def pattern(length):
    block = bytes((i * 7 + length) & 0xff for i in range(251))
    return (block * (length // 251 + 1))[:length]


def new_socket():
    return socket.socket(AF_UET, SOCK_RDM)


def cmd_bufs():
    s = new_socket()
    print(s.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF),
          s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF))


def errname(e):
    return errno.errorcode.get(e, str(e))


def sendto(s, dst, ep, data, flags=0):
    buf = ctypes.create_string_buffer(data, len(data))
    n = libc.sendto(s.fileno(), buf, len(data), socket.MSG_NOSIGNAL | flags,
                    sockaddr(dst, ep), 32)
    return 'ok' if n == len(data) else errname(ctypes.get_errno())


def cmd_sendbig(dst, sndbuf, length):
    s = new_socket()
    if sndbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                 struct.pack('ll', 20, 0))
    data = pattern(length)
    t = time.monotonic()
    r = sendto(s, dst, 100, data)
    print(r, 'fast' if time.monotonic() - t < 10 else 'slow')


def cmd_fill(dst, length):
    s = new_socket()
    buf = ctypes.create_string_buffer(pattern(length), length)
    addr = sockaddr(dst, 100)
    sent = unit = 0
    while sent < 1 << 20:
        if libc.sendto(s.fileno(), buf, length,
                       socket.MSG_NOSIGNAL | socket.MSG_DONTWAIT,
                       addr, 32) != length:
            break
        sent += 1
        if sent == 1:
            unit = outq(s)
    err = errname(ctypes.get_errno())
    # read at once: a slow VM gives the first messages up meanwhile
    print(sent, err, outq(s) // unit if unit else 0)


def sleeping_in(tid, fns, timeout):
    """Wait until thread tid sleeps in one of the kernel functions fns."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with open('/proc/self/task/%d/wchan' % tid) as f:
            if f.read() in fns:
                return True
        time.sleep(0.05)
    return False


def cmd_shrink(dst, length):
    s = new_socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                 struct.pack('ll', 20, 0))
    data = pattern(length)
    while sendto(s, dst, 100, data, socket.MSG_DONTWAIT) == 'ok':
        pass
    changed = []

    def shrink(tid):
        if sleeping_in(tid, ('wait_woken', 'uet_wait_sndbuf', 'uet_sendmsg'),
                       10):
            changed.append(time.monotonic())
            s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)

    th = threading.Thread(target=shrink, args=(threading.get_native_id(),))
    th.start()
    r = sendto(s, dst, 100, data)
    th.join()
    fast = changed and time.monotonic() - changed[0] < 10
    print(r, 'fast' if fast else 'slow')


def cmd_recv(ep, rcvbuf, count, timeout, late=0.0):
    s = new_socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    check(libc.bind(s.fileno(), sockaddr('', ep), 32))
    print('ready', file=sys.stderr, flush=True)
    end = time.monotonic() + timeout
    time.sleep(late)
    buf = ctypes.create_string_buffer(64 << 20)
    while count:
        left = end - time.monotonic()
        r, _, _ = select.select([s], [], [], max(left, 0))
        if not r:
            print('timeout', flush=True)
            return
        n = check(libc.recv(s.fileno(), buf, len(buf), 0))
        ok = buf.raw[:n] == pattern(n)
        print('len %d %s' % (n, 'ok' if ok else 'bad'), flush=True)
        count -= 1


def outq(s):
    return struct.unpack('i', fcntl.ioctl(s, SIOCOUTQ, bytes(4)))[0]


def cmd_send(dst, ep, lengths, hold=0.0):
    s = new_socket()
    for length in lengths:
        t0 = time.monotonic()
        r = sendto(s, dst, ep, pattern(length))
        end = time.monotonic() + 30
        while r == 'ok' and outq(s) and time.monotonic() < end:
            time.sleep(0.05)
        if r == 'ok' and outq(s):
            r = 'pending'
        err = recv_err(s)
        if err:
            r = '%s(%d)' % (errname(err[0]), err[1])
        print(length, r, flush=True)
        print('%d: %s after %.2f s' % (length, r, time.monotonic() - t0),
              file=sys.stderr, flush=True)
    time.sleep(hold)


class MsgHdr(ctypes.Structure):
    _fields_ = [('name', ctypes.c_void_p), ('namelen', ctypes.c_uint32),
                ('iov', ctypes.c_void_p), ('iovlen', ctypes.c_size_t),
                ('control', ctypes.c_void_p), ('controllen', ctypes.c_size_t),
                ('flags', ctypes.c_int)]


def recv_err(s):
    """(errno, length) of the first record on the error queue, or None.
    Python's recvmsg() cannot take an AF_UET address: through libc."""
    ctl = ctypes.create_string_buffer(512)
    m = MsgHdr(None, 0, None, 0, ctypes.cast(ctl, ctypes.c_void_p), 512, 0)
    if libc.recvmsg(s.fileno(), ctypes.byref(m),
                    socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT) < 0:
        return None
    raw, off = ctl.raw[:m.controllen], 0
    while off + 16 <= len(raw):
        clen, level, kind = struct.unpack('=Qii', raw[off:off + 16])
        if level == SOL_UET and kind == UET_CMSG_MSG_ERR:
            e, _, elen = struct.unpack('=III', raw[off + 16:off + 28])
            return e, elen
        off += (clen + 7) & ~7
    return None


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == 'bufs':
        cmd_bufs()
    elif cmd == 'sendbig':
        cmd_sendbig(a[0], int(a[1]), int(a[2]))
    elif cmd == 'fill':
        cmd_fill(a[0], int(a[1]))
    elif cmd == 'recv':
        cmd_recv(int(a[0]), int(a[1]), int(a[2]), float(a[3]),
                 float(a[4]) if len(a) > 4 else 0.0)
    elif cmd == 'shrink':
        cmd_shrink(a[0], int(a[1]))
    elif cmd == 'send':
        cmd_send(a[0], int(a[1]), [int(x) for x in a[2:]])
    elif cmd == 'sendhold':
        cmd_send(a[0], int(a[1]), [int(x) for x in a[3:]], float(a[2]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
