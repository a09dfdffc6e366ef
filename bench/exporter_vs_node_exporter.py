#!/usr/bin/env python3
"""One run comparing `rocekit exporter` with node_exporter's infiniband collector alone on the
same sysfs tree: median scrape latency over N scrapes (fresh HTTP connection each, alternating)
and resident memory (VmRSS, VmHWM) after the run.

Usage: bench/exporter_vs_node_exporter.py [TREE] [N] [ROCEKIT]
  TREE     a fixture tree (default testdata/sysroots/dgx-h100-8gpu-8nic when present, else
           testdata/sysroots/v100-2gpu-4nic-2numa)
  N        scrapes per exporter (default 200)
  ROCEKIT  the rocekit binary (default build/release/rocekit, else build/ci/rocekit: an
           optimised build, `cmake --preset ci && cmake --build --preset ci --target rocekit`)
node_exporter: prometheus-node-exporter --collector.disable-defaults --collector.infiniband
  --path.sysfs=TREE/sys. rocekit is measured twice: as deployed (--state-interval 60: counters
  every scrape, QoS/PCIe state and rules cached) and with --state-interval 0 (everything,
  rules included, on every scrape).
"""
import http.client
import os
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
default_tree = os.path.join(HERE, "testdata/sysroots/dgx-h100-8gpu-8nic")
if not os.path.isdir(default_tree):
    default_tree = os.path.join(HERE, "testdata/sysroots/v100-2gpu-4nic-2numa")
TREE = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else default_tree
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
ROCEKIT = sys.argv[3] if len(sys.argv) > 3 else next(
    (p for p in (os.path.join(HERE, "build/release/rocekit"), os.path.join(HERE, "build/ci/rocekit"))
     if os.path.exists(p)), os.path.join(HERE, "build/release/rocekit"))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def scrape(port):
    t0 = time.perf_counter()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("GET", "/metrics")
    r = c.getresponse()
    body = r.read()
    c.close()
    dt = time.perf_counter() - t0
    assert r.status == 200, r.status
    return dt, body


def start(argv, port):
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        try:
            scrape(port)
            return p
        except OSError:
            if time.monotonic() > deadline or p.poll() is not None:
                p.kill()
                raise SystemExit(f"could not start: {' '.join(argv)}")
            time.sleep(0.1)


def main():
    if not os.path.isdir(TREE):
        raise SystemExit(f"no tree {TREE}")
    procs = {}
    try:
        pn, pr, pr0 = free_port(), free_port(), free_port()
        procs["node_exporter infiniband"] = (start(
            ["prometheus-node-exporter", "--collector.disable-defaults", "--collector.infiniband",
             f"--path.sysfs={TREE}/sys", f"--web.listen-address=127.0.0.1:{pn}"], pn), pn)
        procs["rocekit exporter"] = (start(
            [ROCEKIT, "exporter", "--listen", f"127.0.0.1:{pr}", "--root", TREE], pr), pr)
        procs["rocekit exporter --state-interval 0"] = (start(
            [ROCEKIT, "exporter", "--listen", f"127.0.0.1:{pr0}", "--root", TREE,
             "--state-interval", "0"], pr0), pr0)
        times = {k: [] for k in procs}
        sizes = {}
        for k, (_, port) in procs.items():  # warm-up
            for _ in range(5):
                _, body = scrape(port)
            sizes[k] = (len(body), sum(1 for l in body.splitlines() if l and not l.startswith(b"#")))
        for _ in range(N):
            for k, (_, port) in procs.items():
                dt, _ = scrape(port)
                times[k].append(dt)
        print(f"tree: {os.path.relpath(TREE, HERE)}; {N} scrapes each, alternating; "
              f"machine: {os.cpu_count()} CPUs, {cpu()}, kernel {os.uname().release}, "
              f"load {os.getloadavg()[0]:.1f}")
        print("| exporter | median ms | p90 ms | VmRSS KiB | VmHWM KiB | samples | bytes |")
        print("|---|---|---|---|---|---|---|")
        res = {}
        for k, (p, _) in procs.items():
            t = sorted(times[k])
            med = statistics.median(t) * 1e3
            p90 = t[int(0.9 * (len(t) - 1))] * 1e3
            rss, hwm = status(p.pid, "VmRSS"), status(p.pid, "VmHWM")
            res[k] = (med, rss)
            print(f"| {k} | {med:.2f} | {p90:.2f} | {rss} | {hwm} | {sizes[k][1]} | {sizes[k][0]} |")
        ne = res["node_exporter infiniband"]
        for k in ("rocekit exporter", "rocekit exporter --state-interval 0"):
            print(f"{k}: latency {res[k][0] / ne[0]:.2f}x node_exporter, RSS {res[k][1] / ne[1]:.2f}x "
                  f"(target <= 0.5x each)")
    finally:
        for p, _ in procs.values():
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


def cpu():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "?"


if __name__ == "__main__":
    main()
