#!/usr/bin/env python3
"""Robustness of `rocekit exporter --listen` on loopback (bounded load generator).

1,000 concurrent scrapes of /metrics; 20 slow clients sending their request headers one byte at
a time; 50 half-open clients (connect, send nothing) and 10 that stop in the middle of the
headers; 200 requests to bad paths (404). Asserts every scrape completes with 200 and a whole
exposition, bad paths get 404, stalled clients are disconnected by the server, the exporter is
still alive and serving, its RSS (VmRSS) grew by less than RSS_BOUND_KIB over the run, and
SIGTERM ends it with exit 0. Every wait is bounded; the exporter is always killed.
Usage: load_test.py ROCEKIT FIXTURE_ROOT
"""
import asyncio
import os
import signal
import socket
import subprocess
import sys
import time

ROCEKIT, ROOT = sys.argv[1], sys.argv[2]
RSS_BOUND_KIB = 32 * 1024  # growth allowed over the whole run (ASan quarantine off)
READ_TIMEOUT_S = 5  # the exporter's per-read timeout (ServerOptions::read_timeout_s)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def request(port, path, slow=False, timeout=120):
    async def go():
        r, w = await asyncio.open_connection("127.0.0.1", port)
        req = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
        if slow:
            for i in range(len(req)):
                w.write(req[i:i + 1])
                await w.drain()
                await asyncio.sleep(0.02)
        else:
            w.write(req)
            await w.drain()
        data = await r.read()
        w.close()
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
        body = data.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in data else b""
        return status, body
    return await asyncio.wait_for(go(), timeout)


async def stalled(port, partial, done):
    """Connects and sends nothing (half-open: with TCP_DEFER_ACCEPT the exporter never accepts
    it, so it never reaches its event loop; we close it once the burst is done) or half a
    request line (accepted: the exporter must hang up after its read timeout)."""
    r, w = await asyncio.open_connection("127.0.0.1", port)
    t0 = time.monotonic()
    if not partial:
        await done.wait()
        w.close()
        return b"held", time.monotonic() - t0
    w.write(b"GET /metrics HTTP/1.1\r\nHo")
    await w.drain()
    try:
        data = await asyncio.wait_for(r.read(), 120)
    except asyncio.TimeoutError:
        data = None
    w.close()
    return data, time.monotonic()


async def main(port, pid):
    results = {}
    # Half-open and partial clients first, so they hold connections during the burst.
    done = asyncio.Event()
    silent = [asyncio.create_task(stalled(port, False, done)) for _ in range(50)]
    partial = [asyncio.create_task(stalled(port, True, done)) for _ in range(10)]
    await asyncio.sleep(0.2)
    t0 = time.monotonic()
    burst = [request(port, "/metrics") for _ in range(1000)]
    slow = [request(port, "/metrics", slow=True) for _ in range(20)]
    bad = [request(port, p) for p in ["/nope", "/metrics/x", "/../etc/passwd", "/%00"] * 50]
    out = await asyncio.gather(*burst, *slow, *bad, return_exceptions=True)
    results["burst_s"] = time.monotonic() - t0
    errors = [o for o in out if isinstance(o, Exception)]
    assert not errors, f"{len(errors)} requests failed: {errors[:3]!r}"
    scrapes = out[:1020]
    for status, body in scrapes:
        assert status == 200, f"scrape status {status}"
        assert b"# TYPE rocekit_build_info gauge" in body and body.endswith(b"\n"), "partial exposition"
    for status, _ in out[1020:]:
        assert status == 404, f"bad path status {status}"
    done.set()
    burst_end = time.monotonic()
    await asyncio.gather(*silent)
    stalls = await asyncio.gather(*partial)
    # The event loop times all 10 stalled clients at once: each is dropped one read timeout after
    # its last byte (sent before the burst). The bound keeps generous slack for a loaded machine.
    bound = 3 * READ_TIMEOUT_S + 10
    for data, at in stalls:
        assert data is not None, "a client stalled mid-request was never disconnected"
        assert at - burst_end < bound, f"stalled client held {at - burst_end:.1f} s after the burst"
    results["max_stall_s"] = max(at - burst_end for _, at in stalls)
    status, body = await request(port, "/metrics")
    assert status == 200
    return results


def run():
    port = free_port()
    # Under AddressSanitizer freed memory sits in a 256 MiB quarantine and RSS only grows: turn
    # the quarantine off so VmRSS measures what the exporter holds (no effect on other builds).
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(x for x in [env.get("ASAN_OPTIONS", ""), "quarantine_size_mb=0",
                                               "thread_local_quarantine_size_kb=0"] if x)
    proc = subprocess.Popen([ROCEKIT, "exporter", "--listen", f"127.0.0.1:{port}", "--root", ROOT],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "exporter did not listen"
                assert proc.poll() is None, proc.stderr.read().decode()
                time.sleep(0.1)
        # Warm up (first scrape builds the state) before the baseline RSS.
        for _ in range(20):
            asyncio.run(request(port, "/metrics"))
        before = rss_kib(proc.pid)
        results = asyncio.run(asyncio.wait_for(main(port, proc.pid), 300))
        assert proc.poll() is None, "exporter died"
        after = rss_kib(proc.pid)
        print(f"ok: 1000 concurrent + 20 slow scrapes and 200 bad paths (404) while 50 half-open "
              f"clients were connected; 10 clients stalled mid-request dropped by the exporter "
              f"(the last {max(0.0, results['max_stall_s']):.1f} s after the burst ended); burst took {results['burst_s']:.1f} s")
        print(f"ok: VmRSS {before} KiB -> {after} KiB (growth {after - before} KiB, bound {RSS_BOUND_KIB} KiB)")
        assert after - before < RSS_BOUND_KIB, "RSS grew beyond the bound"
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=15)
        assert rc == 0, f"exit {rc} after SIGTERM"
        print("ok: SIGTERM -> exit 0")
        print("PASS")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    # The generator opens ~1,300 sockets: raise our own soft fd limit (the exporter's is its own).
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 4096), hard), hard))
    run()
