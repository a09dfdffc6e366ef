#!/usr/bin/env python3
"""rocekit exporter under two kinds of abuse, on loopback, bounded in count and time.

1. Out of descriptors: the exporter runs with RLIMIT_NOFILE 64 and 80 clients hold connections
   with half a request. accept() then fails with EMFILE; the exporter must pause accepting
   instead of spinning (it used to make ~70,000 failing accept4 calls in 3 s): its CPU time over
   3 s must stay under 1 s, and once the clients leave a scrape works again.
2. Busy keep-alive clients: 70 connections each pipelining 50 GET / every 10 ms. After 64 accepts
   the exporter pauses accepting; it must resume within its 50 ms timer even though the loop is
   never idle, so a new client is answered (it used to time out).

Usage: abuse_test.py ROCEKIT TREE
"""
import os
import resource
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_testlib import free_port  # noqa: E402

ROCEKIT, TREE = sys.argv[1], sys.argv[2]


def start(port, nofile=None):
    def limit():
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    p = subprocess.Popen([ROCEKIT, "exporter", "--listen", "127.0.0.1:%d" % port, "--root", TREE],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=limit)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return p
        except OSError:
            if time.monotonic() > deadline or p.poll() is not None:
                p.kill()
                sys.exit("FAIL: exporter did not start")
            time.sleep(0.1)


def get(port, path="/metrics", timeout=10):
    c = socket.create_connection(("127.0.0.1", port), timeout)
    c.settimeout(timeout)
    c.sendall(b"GET " + path.encode() + b" HTTP/1.0\r\n\r\n")
    data = b""
    while True:
        d = c.recv(65536)
        if not d:
            break
        data += d
    c.close()
    return data


def ok(reply):
    """A 200 status line (HTTP/1.0 or 1.1)."""
    return reply.startswith(b"HTTP/1.") and reply[8:13] == b" 200 "


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def emfile():
    port = free_port()
    p = start(port, nofile=64)
    try:
        assert ok(get(port)), "first scrape"
        held = []
        for _ in range(80):
            try:
                c = socket.create_connection(("127.0.0.1", port), 2)
                c.sendall(b"GET /metrics HTTP/1.1\r\n")  # half a request: the connection stays
                held.append(c)
            except OSError:
                break
        time.sleep(0.5)
        before = cpu_seconds(p.pid)
        time.sleep(3)
        used = cpu_seconds(p.pid) - before
        for c in held:
            c.close()
        assert used < 1.0, "exporter used %.2f CPU-s in 3 s while out of descriptors (spinning on accept)" % used
        deadline = time.monotonic() + 20
        while True:
            try:
                if ok(get(port, timeout=5)):
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "no scrape after the clients left"
            time.sleep(0.5)
        print("ok: out of descriptors: %.2f CPU-s in 3 s with %d connections held, scrapes work again" % (used, len(held)))
    finally:
        p.kill()
        p.wait()


def busy_keepalive():
    port = free_port()
    p = start(port)
    stop = threading.Event()

    def hammer():
        try:
            c = socket.create_connection(("127.0.0.1", port), 5)
        except OSError:
            return
        c.settimeout(1)
        req = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" * 50

        def drain():
            while not stop.is_set():
                try:
                    if not c.recv(1 << 20):
                        break
                except socket.timeout:
                    continue
                except OSError:
                    break
        t = threading.Thread(target=drain, daemon=True)
        t.start()
        end = time.monotonic() + 30
        while not stop.is_set() and time.monotonic() < end:
            try:
                c.sendall(req)
            except OSError:
                break
            time.sleep(0.01)
        c.close()

    threads = [threading.Thread(target=hammer, daemon=True) for _ in range(70)]
    try:
        for t in threads:
            t.start()
        time.sleep(1)
        for trial in range(3):
            t0 = time.monotonic()
            try:
                reply = get(port, "/", timeout=8)
            except OSError as e:
                raise AssertionError("new client %d not served while 70 keep-alive clients were busy: %s" % (trial, e))
            assert ok(reply), reply[:40]
            print("ok: new client %d served in %.2f s beside 70 busy keep-alive clients" % (trial, time.monotonic() - t0))
    finally:
        stop.set()
        for t in threads:
            t.join(5)
        p.kill()
        p.wait()


emfile()
busy_keepalive()
print("PASS")
