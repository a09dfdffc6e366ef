#!/usr/bin/env python3
"""deploy/grafana/*.json: Grafana dashboards that ask only for what rocekit exporter emits.

Static (always): each dashboard parses, is Grafana's current JSON model (schemaVersion >= 36,
panels of type row/timeseries/stat/table with unique ids and non-overlapping gridPos), every
panel, target and query variable uses the `${datasource}` variable (no hard-coded datasource),
every `$variable` is defined, and every PromQL expression names only metrics of the exporter's
registry (the k_metrics table of src/rocekit/exporter/metrics.cpp, which Exposition::add
enforces) or series recorded by deploy/prometheus/*.yml. With promtool on PATH every expression
(variables substituted) must pass `promtool check rules` as a recording rule.

Real (with EXPORTER, and prometheus and promtool on PATH): two exporters on fixture trees
(dgx-h100-8gpu-8nic; cx4lx-4port with corpus `ethtool -S` captures) are scraped by Debian's
prometheus with the rocekit rule files loaded; every query of a panel whose description does not
start with "Needs events" returns data, every metric a dashboard names appears in a real scrape
unless only such panels use it, and the fleet drift rules name dgx's mlx5_5 (trust pcp where the
fleet's 11 other ports with a trust state have dscp) as unlike its fleet, and prometheus renders
RoceFleetSettingDrift's description (a query template) with the most common value.

Usage: dashboards_test.py SOURCE_DIR [EXPORTER]   (EXPORTER: rocekit-exporter or rocekit)
Prints "ok: ..." lines and PASS, or "FAIL: ..." and exits 1; "SKIP: ..." for a missing tool.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_testlib import free_port  # noqa: E402

PANEL_TYPES = {"row", "timeseries", "stat", "table"}
DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}
BUILTIN_VARS = {"__rate_interval", "__interval", "__range"}
NEEDS_EVENTS = "Needs events"
# PromQL words that are not metric names (functions are recognised by the "(" after them).
KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset",
            "and", "or", "unless", "inf", "nan", "atan2"}


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def registry(src):
    text = open(os.path.join(src, "src/rocekit/exporter/metrics.cpp")).read()
    names = set(re.findall(r'\{"(rocekit_[a-z0-9_]+)",\s*T::', text))
    if len(names) < 40:
        fail(f"found only {len(names)} metrics in metrics.cpp: has the k_metrics table changed shape?")
    return names


def recorded(src):
    names = set()
    d = os.path.join(src, "deploy/prometheus")
    for f in sorted(os.listdir(d)):
        if f.endswith(".yml") and not f.endswith(".test.yml"):
            names |= set(re.findall(r"^\s*- record:\s*(\S+)\s*$", open(os.path.join(d, f)).read(), re.M))
    return names


def substitute(expr, values):
    """Grafana variables to concrete values, as Grafana does before sending the query."""
    def rep(m):
        name = m.group(1) or m.group(2)
        return values.get(name, m.group(0))
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", rep, expr)


def metric_names(expr):
    """Metric names in a PromQL expression: identifiers outside strings, label matchers, range
    selectors and grouping clauses that are not functions or keywords."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)   # string literals
    e = re.sub(r"\{[^{}]*\}", " ", e)                # label matchers
    e = re.sub(r"\[[^\]]*\]", " ", e)                # range and subquery selectors
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    out = set()
    for m in re.finditer(r"(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?", e):
        word, call = m.group(1), m.group(2)
        if call or word.lower() in KEYWORDS or re.fullmatch(r"\d+[smhdwy]", word):
            continue
        out.add(word)
    return out


def panels_of(board):
    for p in board.get("panels", []):
        yield p
        for q in p.get("panels", []):  # collapsed rows keep their panels inside
            yield q


def queries_of(board):
    """(panel or variable title, description, expr) for every PromQL query of a dashboard."""
    for p in panels_of(board):
        for t in p.get("targets", []):
            yield p.get("title", ""), p.get("description", ""), t.get("expr", "")
    for v in board["templating"]["list"]:
        if v.get("type") == "query":
            q = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
            m = re.fullmatch(r"label_values\((.*),\s*\w+\)", q.strip())
            yield f"variable {v['name']}", "", m.group(1) if m else q


def check_static(src, path, known):
    name = os.path.basename(path)
    board = json.load(open(path))
    if not isinstance(board.get("schemaVersion"), int) or board["schemaVersion"] < 36:
        fail(f"{name}: schemaVersion {board.get('schemaVersion')} is not Grafana's current model (>= 36)")
    for key in ("uid", "title", "panels", "templating"):
        if not board.get(key):
            fail(f"{name}: no {key}")
    if "__inputs" in board:
        fail(f"{name}: __inputs (an export for sharing) pins a datasource; use the ${{datasource}} variable")
    variables = {v["name"]: v for v in board["templating"]["list"]}
    ds = [v for v in variables.values() if v.get("type") == "datasource"]
    if len(ds) != 1 or ds[0]["name"] != "datasource" or ds[0].get("query") != "prometheus":
        fail(f"{name}: needs one datasource variable named 'datasource' of type prometheus, has {ds}")
    for v in variables.values():
        if v.get("type") == "query" and v.get("datasource") != DATASOURCE:
            fail(f"{name}: variable {v['name']} datasource is {v.get('datasource')}, not {DATASOURCE}")
    ids, cells = set(), {}
    for p in panels_of(board):
        title = p.get("title", "?")
        if p.get("type") not in PANEL_TYPES:
            fail(f"{name}: panel '{title}' has type {p.get('type')}, not one of {sorted(PANEL_TYPES)}")
        if p.get("id") in ids:
            fail(f"{name}: panel id {p.get('id')} used twice")
        ids.add(p.get("id"))
        g = p.get("gridPos", {})
        if g.get("x", 0) + g.get("w", 0) > 24 or g.get("w", 0) < 1 or g.get("h", 0) < 1:
            fail(f"{name}: panel '{title}' gridPos {g} is outside the 24-column grid")
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                if (x, y) in cells:
                    fail(f"{name}: panels '{cells[(x, y)]}' and '{title}' overlap at {x},{y}")
                cells[(x, y)] = title
        if p["type"] == "row":
            continue
        if p.get("datasource") != DATASOURCE:
            fail(f"{name}: panel '{title}' datasource is {p.get('datasource')}, not {DATASOURCE}")
        if not p.get("description"):
            fail(f"{name}: panel '{title}' has no description")
        if not p.get("targets"):
            fail(f"{name}: panel '{title}' has no query")
        for t in p["targets"]:
            if t.get("datasource") != DATASOURCE:
                fail(f"{name}: a query of '{title}' uses datasource {t.get('datasource')}, not {DATASOURCE}")
    text = json.dumps(board)
    for var in set(re.findall(r"\$\{?(\w+)", text)):
        if var not in variables and var not in BUILTIN_VARS:
            fail(f"{name}: ${var} is used but not defined")
    exprs = []
    for title, _, expr in queries_of(board):
        if not expr.strip():
            fail(f"{name}: '{title}' has an empty query")
        used = metric_names(expr)
        unknown = used - known
        if unknown:
            fail(f"{name}: '{title}' queries {sorted(unknown)}, which neither the exporter (metrics.cpp) "
                 f"nor deploy/prometheus/*.yml defines: {expr}")
        if not used & known:
            fail(f"{name}: '{title}' names no metric: {expr}")
        exprs.append((title, expr))
    print(f"ok: {name}: {len(ids)} panels, {len(exprs)} queries, datasource ${{datasource}}, metrics all "
          f"known ({len({m for _, e in exprs for m in metric_names(e)})} distinct)")
    return board, exprs


def promtool_parse(boards):
    if not shutil.which("promtool"):
        print("SKIP: promtool not installed (apt-get install prometheus): expressions not parsed")
        return
    values = {"job": "rocekit", "instance": "h1:9857", "netdev": ".*", "datasource": "prometheus",
              "__rate_interval": "1m", "__interval": "15s", "__range": "1h"}
    with tempfile.TemporaryDirectory() as tmp:
        rules, n = ["groups:", "  - name: dashboards", "    rules:"], 0
        for _, exprs in boards:
            for _, expr in exprs:
                n += 1
                rules += [f"      - record: dashboard:query:{n}", "        expr: " + json.dumps(substitute(expr, values))]
        path = os.path.join(tmp, "dashboard-queries.yml")
        open(path, "w").write("\n".join(rules) + "\n")
        r = subprocess.run(["promtool", "check", "rules", path], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"promtool check rules rejects a dashboard query:\n{r.stdout}{r.stderr}")
    print(f"ok: promtool check rules parses all {n} dashboard queries")


# ------------------------------------------------------------------ against real prometheus


def http_json(url, params=None):
    if params:
        url += "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=3) as r:
        return json.load(r)


def wait(what, probe, timeout=60):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = probe()
            if last:
                return last
        except Exception as e:  # not up yet
            last = e
        time.sleep(0.5)
    fail(f"{what} (last: {last!r})")


def check_real(src, exporter, boards):
    for tool in ("prometheus", "promtool"):
        if not shutil.which(tool):
            print(f"SKIP: {tool} not installed: dashboards not run against a real prometheus")
            return
    tmp = tempfile.mkdtemp()
    procs = []
    try:
        run = [exporter] if os.path.basename(exporter) == "rocekit-exporter" else [exporter, "exporter"]
        corpus = os.path.join(src, "testdata/corpus/ethtool_S")
        stats = os.path.join(tmp, "ethtool")
        os.mkdir(stats)
        # cx4lx-4port's netdevs eth01..eth03 get real mlx5 ethtool -S captures (per-priority
        # bytes and discards, 802.3x global pause, port discards).
        for netdev, capture in (("eth01", "lore-xdp-regression-mlx5-k5.15.txt"),
                                ("eth02", "cn-notes-cx4lx-grep-discards.txt"),
                                ("eth03", "cn-notes-cx4lx-grep-pause-tx-global-pause.txt")):
            shutil.copy(os.path.join(corpus, capture), os.path.join(stats, f"ethtool_S@{netdev}.txt"))
        hosts = {}
        for tree in ("dgx-h100-8gpu-8nic", "cx4lx-4port"):
            port = free_port()
            log = open(os.path.join(tmp, f"{tree}.log"), "w")
            procs.append(subprocess.Popen(run + ["--listen", f"127.0.0.1:{port}", "--root",
                                                 os.path.join(src, "testdata/sysroots", tree),
                                                 "--ethtool-stats-dir", stats, "--state-interval", "10s"],
                                                stdout=log, stderr=subprocess.STDOUT))
            hosts[tree] = f"127.0.0.1:{port}"
        scraped = set()
        for tree, target in hosts.items():
            text = wait(f"exporter on {tree} did not answer",
                        lambda: urllib.request.urlopen(f"http://{target}/metrics", timeout=2).read().decode())
            scraped |= {line.split("{")[0].split(" ")[0] for line in text.splitlines() if line and line[0] != "#"}
        pport = free_port()
        config = os.path.join(tmp, "prometheus.yml")
        rule_files = [os.path.join(src, "deploy/prometheus", f) for f in ("rocekit-rules.yml", "rocekit-fleet-rules.yml")]
        open(config, "w").write(
            "global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}\n"
            f"rule_files: {json.dumps(rule_files)}\n"
            "scrape_configs:\n  - job_name: rocekit\n    static_configs:\n"
            f"      - targets: {json.dumps(list(hosts.values()))}\n")
        procs.append(subprocess.Popen(["prometheus", f"--config.file={config}", f"--storage.tsdb.path={tmp}/data",
                                       f"--web.listen-address=127.0.0.1:{pport}"],
                                      stdout=open(os.path.join(tmp, "prom.log"), "w"), stderr=subprocess.STDOUT))
        api = f"http://127.0.0.1:{pport}/api/v1/query"

        def query(q):
            r = http_json(api, {"query": q})
            if r.get("status") != "success":
                fail(f"prometheus rejected {q}: {r}")
            return r["data"]["result"]

        # Two scrapes of both hosts (rates need two samples) and the drift rules evaluated.
        wait("prometheus has not scraped both exporters twice",
             lambda: query("count(count_over_time(rocekit_build_info[1m]) >= 3) == 2"))
        wait("rocekit:setting:deviating never appeared", lambda: query("rocekit:setting:deviating"))
        time.sleep(2)

        # Every query of a panel that does not need events returns data, for one host or another.
        empty_ok, checked, problems = set(), 0, []
        for name, exprs in boards:
            board = json.load(open(name))
            for title, desc, expr in queries_of(board):
                needs_events = desc.startswith(NEEDS_EVENTS)
                got = False
                for target in hosts.values():
                    values = {"job": "rocekit", "instance": target, "netdev": ".*", "__rate_interval": "1m",
                              "__interval": "15s", "__range": "1h"}
                    if query(substitute(expr, values)):
                        got = True
                        break
                checked += 1
                if needs_events:
                    empty_ok |= metric_names(expr)
                elif not got:
                    problems.append(f"{os.path.basename(name)}: '{title}' returns no data from the fixture fleet "
                                    f"and its description does not say it needs events: {expr}")
        if problems:
            fail("\n  ".join(problems))
        print(f"ok: {checked} dashboard queries run against prometheus scraping 2 fixture-tree exporters; "
              f"all return data except those of panels marked '{NEEDS_EVENTS}'")

        # Metric names: those the dashboards use appear in a real scrape, or only in event panels.
        used = {m for _, exprs in boards for _, e in exprs for m in metric_names(e) if m.startswith("rocekit_")}
        missing = used - scraped
        unexplained = {m for m in missing if m not in empty_ok or any(
            m in metric_names(e) and not d.startswith(NEEDS_EVENTS)
            for name, _ in boards for _, d, e in queries_of(json.load(open(name))))}
        if unexplained:
            fail(f"dashboards use {sorted(unexplained)}, which no fixture scrape has, in panels not marked '{NEEDS_EVENTS}'")
        print(f"ok: {len(used - missing)} of {len(used)} exporter metrics the dashboards use are in a real scrape; "
              f"the other {len(missing)} only in '{NEEDS_EVENTS}' panels: {', '.join(sorted(missing))}")

        # The fleet drift rules on real expositions: dgx's mlx5_5 (enp94s0np0) trusts pcp where the
        # other 11 ports with a trust state trust dscp (cx4lx-4port has no qos sysfs).
        dgx = hosts["dgx-h100-8gpu-8nic"]
        trust = query('rocekit:setting:deviating{setting="trust"}')
        got = sorted((r["metric"]["instance"], r["metric"]["device"], r["metric"]["value"]) for r in trust)
        if got != [(dgx, "mlx5_5", "pcp")]:
            fail(f"trust drift on the fixture fleet is {got}, expected only {dgx} mlx5_5 pcp")
        most = query('rocekit:setting_value:ports{setting="trust"}')
        counts = sorted((r["metric"]["value"], r["value"][1]) for r in most)
        print(f"ok: rocekit:setting:deviating{{setting=trust}} on real scrapes = {got} (ports per value {counts})")

        def trust_alert():
            for a in http_json(f"http://127.0.0.1:{pport}/api/v1/alerts")["data"]["alerts"]:
                lab = a["labels"]
                if lab.get("alertname") == "RoceFleetSettingDrift" and lab.get("setting") == "trust":
                    return a
        alert = wait("RoceFleetSettingDrift for trust is not pending", trust_alert, timeout=30)
        want = "the most common value is dscp (11 ports)"
        if alert["labels"].get("device") != "mlx5_5" or want not in alert["annotations"].get("description", ""):
            fail(f"RoceFleetSettingDrift for trust is {alert}, expected mlx5_5 and '{want}'")
        print(f"ok: /api/v1/alerts RoceFleetSettingDrift{{setting=trust,device=mlx5_5}} {alert['state']}: "
              f"{alert['annotations']['summary']}")
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__)
        sys.exit(2)
    src = os.path.abspath(sys.argv[1])
    known = registry(src) | recorded(src)
    gdir = os.path.join(src, "deploy/grafana")
    paths = sorted(os.path.join(gdir, f) for f in os.listdir(gdir) if f.endswith(".json"))
    if len(paths) < 2:
        fail(f"expected the host and fleet dashboards in {gdir}, found {paths}")
    boards = []
    for path in paths:
        _, exprs = check_static(src, path, known)
        boards.append((path, exprs))
    promtool_parse(boards)
    if len(sys.argv) == 3:
        check_real(src, sys.argv[2], boards)
    else:
        print("SKIP: no exporter given: dashboards not run against a real prometheus")
    print("PASS")


if __name__ == "__main__":
    main()
