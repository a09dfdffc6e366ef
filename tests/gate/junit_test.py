#!/usr/bin/env python3
"""`rocekit check --format junit` read by a real JUnit consumer (Debian's python3-junitparser):
on bundles with different outcomes, the suite's tests/failures/skipped equal the counts of
`--format json` for the same input (not_applicable left out), every failing finding is a
<failure> of its severity carrying its evidence and fix, every unknown a <skipped> with its
reason; `--format verdict` is one line of at most 200 bytes with check's exit code; and a
hostile hostname still gives well-formed XML.

Usage: junit_test.py ROCEKIT SOURCE_DIR. Skips when junitparser is not installed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

try:
    import junitparser
except ImportError:
    # Debian's package is for Debian's python3; a python3 earlier on PATH (pyenv, venv) lacks it.
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    print("SKIP: python3-junitparser not installed (apt-get install python3-junitparser)")
    sys.exit(0)

RK, SRC = sys.argv[1], sys.argv[2]
BUNDLES = {
    # bundle: check's exit code
    "roce-server-8dev-trust-pcp-pfc-off": 1,  # failures at error
    "netarbiter-eth4-qos-healthy": 0,  # passes and unknowns
    "cx7-vf-lspci-not-applicable": 3,  # nothing judged: unknowns and not applicable
    "homelab-host01-cx4lx-fw14.32": 0,  # a warning failure below --fail-on error
}
errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)


def run(*args):
    p = subprocess.run([RK, "check", *args], capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def case_outcome(tc):
    kinds = [type(r).__name__ for r in tc.result]
    return kinds[0] if kinds else "pass"


for bundle, want_rc in BUNDLES.items():
    path = os.path.join(SRC, "testdata", "hosts", bundle)
    rc, out, err = run(path, "--format", "json")
    report = json.loads(out)
    s = report["summary"]
    check(rc == want_rc, f"{bundle}: json exit {rc}, wanted {want_rc}")

    with tempfile.NamedTemporaryFile(suffix=".xml", delete=False) as f:
        xml_path = f.name
    jrc, _, jerr = run(path, "--format", "junit", "-o", xml_path)
    check(jrc == rc, f"{bundle}: junit exit {jrc}, json exit {rc}")
    xml = junitparser.JUnitXml.fromfile(xml_path)
    suites = list(xml)
    check(len(suites) == 1, f"{bundle}: {len(suites)} testsuites, wanted 1")
    suite = suites[0]
    want_tests = s["pass"] + s["fail"] + s["unknown"]
    check(suite.name == (report["hostname"] or path), f"{bundle}: suite name {suite.name!r}")
    check(suite.tests == want_tests, f"{bundle}: tests={suite.tests}, json has {want_tests}")
    check(suite.failures == s["fail"], f"{bundle}: failures={suite.failures}, json fail={s['fail']}")
    check(suite.skipped == s["unknown"], f"{bundle}: skipped={suite.skipped}, json unknown={s['unknown']}")
    check(suite.errors == 0, f"{bundle}: errors={suite.errors}")
    # The counts junitparser derives from the testcases themselves, not only the attributes.
    cases = list(suite)
    counted = {"pass": 0, "Failure": 0, "Skipped": 0}
    for tc in cases:
        counted[case_outcome(tc)] = counted.get(case_outcome(tc), 0) + 1
    check(len(cases) == want_tests, f"{bundle}: {len(cases)} testcases, wanted {want_tests}")
    check(counted["Failure"] == s["fail"], f"{bundle}: {counted['Failure']} <failure>, wanted {s['fail']}")
    check(counted["Skipped"] == s["unknown"], f"{bundle}: {counted['Skipped']} <skipped>, wanted {s['unknown']}")
    check(counted["pass"] == s["pass"], f"{bundle}: {counted['pass']} passing cases, wanted {s['pass']}")
    props = {p.name: p.value for p in suite.properties()}
    check(props.get("not_applicable") == str(s["not_applicable"]), f"{bundle}: properties {props}")
    check(props.get("verdict") == report["verdict"], f"{bundle}: verdict property {props.get('verdict')}")
    # Each failing finding: its testcase, severity as the type, message, evidence and fix.
    by_name = {tc.name: tc for tc in cases}
    for fd in report["findings"]:
        name = f"{fd['rule']} {fd['subject']}"
        if fd["outcome"] == "not_applicable":
            check(name not in by_name or by_name[name].result, f"{bundle}: n/a {name} listed as a pass")
            continue
        tc = by_name.get(name)
        if tc is None:
            errors.append(f"{bundle}: no testcase {name!r}")
            continue
        check(tc.classname == "rocekit." + fd["rule"].split(".")[0], f"{bundle}: {name} classname {tc.classname}")
        if fd["outcome"] == "fail":
            r = tc.result[0]
            check(isinstance(r, junitparser.Failure), f"{bundle}: {name} is not a failure")
            check(r.type == fd["severity"], f"{bundle}: {name} type {r.type}, severity {fd['severity']}")
            check(r.message == fd["message"], f"{bundle}: {name} message differs")
            for c in fd["remediation"]["commands"]:
                check("$ " + c in (r.text or ""), f"{bundle}: {name}: fix {c!r} not in the failure text")
            for e in fd["evidence"]:
                check(e["file"] in (r.text or ""), f"{bundle}: {name}: evidence {e['file']} not in the failure text")
        elif fd["outcome"] == "unknown":
            r = tc.result[0]
            check(isinstance(r, junitparser.Skipped), f"{bundle}: {name} is not skipped")
            check(r.message == fd["message"], f"{bundle}: {name} skipped message differs")
    os.unlink(xml_path)

    vrc, vout, _ = run(path, "--format", "verdict")
    line = vout.decode()
    check(vrc == rc, f"{bundle}: verdict exit {vrc}, json exit {rc}")
    check(line.endswith("\n") and line.count("\n") == 1, f"{bundle}: verdict is not one line: {line!r}")
    check(len(vout) <= 201, f"{bundle}: verdict is {len(vout)} bytes")
    prefix = {0: "OK: ", 1: "FAIL: ", 3: "UNKNOWN: "}[want_rc]
    check(line.startswith(prefix), f"{bundle}: verdict {line!r} does not start with {prefix!r}")
    print(f"{bundle}: exit {rc}, tests={suite.tests} failures={suite.failures} skipped={suite.skipped} "
          f"(n/a {s['not_applicable']}); verdict: {line.strip()}")

# The most severe failure first in the verdict; "+K more" counts the others.
rc, out, _ = run(os.path.join(SRC, "testdata/hosts/roce-server-8dev-trust-pcp-pfc-off"), "--format", "json")
fails = [f for f in json.loads(out)["findings"] if f["outcome"] == "fail"]
order = {"critical": 3, "error": 2, "warning": 1, "info": 0}
top = max(fails, key=lambda f: order[f["severity"]])
_, vout, _ = run(os.path.join(SRC, "testdata/hosts/roce-server-8dev-trust-pcp-pfc-off"), "--format", "verdict")
line = vout.decode().strip()
check(line.startswith(f"FAIL: {top['rule']} {top['subject']} "), f"verdict {line!r} does not start with {top['rule']}")
shown = line.count("; ") + 1 - (1 if "more" in line.rsplit("; ", 1)[-1] else 0)
more = int(line.rsplit("+", 1)[1].split()[0]) if line.endswith(" more") else 0
check(shown + more == len(fails), f"verdict {line!r}: {shown} shown + {more} more != {len(fails)} failures")

# A hostile hostname (markup, quotes, control characters; bytes that are not UTF-8 are in
# tests/render/gate_test.cpp, a snapshot cannot hold them): the
# document stays well-formed and junitparser reads the name back.
tmp = tempfile.mkdtemp()
try:
    src = os.path.join(SRC, "testdata/hosts/netarbiter-eth4-qos-healthy")
    snap = os.path.join(tmp, "snap.json")
    subprocess.run([RK, "snapshot", src, "-o", snap], check=True)
    with open(snap) as f:
        j = json.load(f)
    j["hostname"] = 'gpu<1>&"x\x01\x1b[31m'
    with open(snap, "w") as f:
        json.dump(j, f)
    rc, out, err = run(snap, "--format", "junit")
    try:
        root = ET.fromstring(out)
        name = root.find("testsuite").get("name")
        check(name.startswith('gpu<1>&"x\\x01\\x1b[31m'), f"hostile hostname read back as {name!r}")
    except ET.ParseError as e:
        errors.append(f"hostile hostname: not well-formed XML: {e}")
    rc, vout, _ = run(snap, "--format", "verdict")
    check(b"\x1b" not in vout and vout.count(b"\n") == 1, f"hostile hostname verdict {vout!r}")
finally:
    shutil.rmtree(tmp)

if errors:
    print("\n".join("FAIL: " + e for e in errors))
    sys.exit(1)
print("PASS: junit output read by junitparser with the json counts")
