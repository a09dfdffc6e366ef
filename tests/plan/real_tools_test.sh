#!/bin/sh
# The argv of every golden plan (testdata/plans/*.json: action, read-back and undo) run through
# the real tools of this machine, on a veth pair in a network namespace this test creates:
# - ip: the MTU steps really run on the veth, and the plan's read-back regexes must match the
#   real `ip -o link show` output afterwards (undo too);
# - ethtool 6.1: every -C/-c/-A/-a argv must get past ethtool's parser (the veth then answers
#   "Operation not supported" from the kernel; a parser error is "unknown parameter ...");
# - iproute2 dcb: `dcb app replace ARGS` is run as `dcb app add ARGS`, which parses every
#   argument before writing (dcb/dcb_app.c dcb_cmd_app_add -> dcb_cmd_app_parse_add_del, then
#   dcb_app_add_del: "Attribute write: Operation not supported" on a veth). `replace`, `flush`,
#   `pfc set` and every `show` read the device first (dcb_cmd_app_replace/flush/show call
#   dcb_app_get, dcb_cmd_pfc_set dcb_get_attribute) and stop at "Attribute read", after the
#   options (-N, -j: getopt_long in dcb/dcb.c main) and the object and command were accepted;
#   their remaining arguments are checked against the parsers' grammar (dcb_pfc.c
#   dcb_pfc_parse_mapping_prio_pfc: PRIO 0..7 ":" on|off; dcb_app.c flush: selector names).
#   `dcb apptrust` must be refused by this iproute2 (6.1 < 6.2) as the reason no plan uses it;
# - setpci 3.9 -D (demo: no write) on a real PCI function: every setpci argv must parse; its
#   value:mask merge and "%04x" read format are checked on a real register.
# Skips (exit 0, reason on stdout) when not root, or without ip netns / the tools.
# Usage: real_tools_test.sh SOURCE_DIR
set -u
src=$1
if [ "$(id -u)" != 0 ]; then echo "SKIP: needs root to create a network namespace"; exit 0; fi
for t in ip dcb ethtool setpci lspci python3; do
  command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t not installed (apt install iproute2 ethtool pciutils)"; exit 0; }
done
NS=rk-plan-$$
cleanup() { ip netns del "$NS" 2>/dev/null; }
trap cleanup EXIT INT TERM
if ! ip netns add "$NS" 2>/dev/null; then echo "SKIP: ip netns add not permitted"; exit 0; fi
# A chroot whose / is not a mount point cannot enter it ("mount --make-rslave / failed").
if ! ip -n "$NS" link show lo >/dev/null 2>&1; then echo "SKIP: ip -n cannot enter the namespace (chroot?)"; exit 0; fi
ip -n "$NS" link add rkpa type veth peer name rkpb || exit 1
bdf=$(lspci -D -n | awk 'NR == 1 { print $1 }')
[ -n "$bdf" ] || { echo "SKIP: no PCI function (lspci)"; exit 0; }
NS=$NS BDF=$bdf python3 - "$src/testdata/plans" <<'PY'
import glob, json, os, re, shutil, subprocess, sys

ns, bdf = os.environ["NS"], os.environ["BDF"]
fails, counts = [], {}


def run(argv):
    p = subprocess.run(["ip", "netns", "exec", ns] + argv, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def ok(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL", what)


def ere(regex):
    # The plans' POSIX EREs use [[:space:]]; Python's re has \s.
    return re.compile(regex.replace("[[:space:]]", r"\s"))


def readback_matches(out, regexes):
    lines = out.splitlines()
    return all(any(ere(r).search(l) for l in lines) for r in regexes)


PFC_MAP = re.compile(r"^[0-7]:(on|off)$")
DSCP_MAP = re.compile(r"^([0-9]|[1-5][0-9]|6[0-3]):[0-7]$")


def dcb(argv, where):
    args = argv[1:]
    opts = []
    while args and args[0].startswith("-"):
        opts.append(args.pop(0))
    ok(all(o in ("-N", "-j") for o in opts), f"{where}: dcb options {opts}")
    ok(args[:1] != ["apptrust"], f"{where}: dcb apptrust (mlx5 has no dcbnl_setapptrust; iproute2 6.1 no object)")
    obj, verb = args[0], args[1]
    ok(args[2:4] == ["dev", "rkpa"], f"{where}: dcb {obj} {verb} needs 'dev NAME': {args}")
    if verb == "show":
        ok("-N" in opts or "-j" in opts, f"{where}: dcb show without -N or -j prints DSCP names (AF31:3)")
    rest = args[4:]
    if obj == "app" and verb in ("replace", "add"):
        # The same parser as add (dcb_cmd_app_parse_add_del): run it as `add`, which parses
        # every argument before it touches the device.
        rc, out, err = run(["dcb"] + opts + ["app", "add", "dev", "rkpa"] + rest)
        ok("Attribute write: Operation not supported" in err, f"{where}: dcb app add {rest[:3]}...: {err.strip()}")
        ok(rest[:1] == ["dscp-prio"] and all(DSCP_MAP.match(e) for e in rest[1:]), f"{where}: dscp-prio map {rest}")
        counts["dcb parsed by the binary"] = counts.get("dcb parsed by the binary", 0) + 1
        return
    rc, out, err = run(["dcb"] + opts + [obj, verb, "dev", "rkpa"] + rest)
    ok("Attribute read: Operation not supported" in err, f"{where}: dcb {' '.join(opts + [obj, verb])}: {err.strip()}")
    if obj == "pfc" and verb == "set":
        ok(rest[:1] == ["prio-pfc"] and len(rest) == 9 and all(PFC_MAP.match(e) for e in rest[1:]),
           f"{where}: prio-pfc map {rest}")
    elif obj == "pfc" and verb == "show":
        ok(rest == ["prio-pfc"], f"{where}: pfc show {rest}")
    elif obj == "app" and verb in ("flush", "show"):
        ok(rest == ["dscp-prio"], f"{where}: app {verb} {rest}")
    else:
        ok(False, f"{where}: dcb {obj} {verb} is not a form rocekit emits")
    counts["dcb read-first, grammar from source"] = counts.get("dcb read-first, grammar from source", 0) + 1


def ethtool(argv, where):
    rc, out, err = run(argv)
    parsed = rc == 0 or "Operation not supported" in err or "exceeds maximum" in err
    ok(parsed and "unknown parameter" not in err and "bad command line" not in err,
       f"{where}: {argv}: rc {rc}: {err.strip()}")
    counts["ethtool"] = counts.get("ethtool", 0) + 1


def setpci(argv, where):
    ok(argv[1:3] == ["-s", "rkpa"] or argv[1] == "-s", f"{where}: setpci form {argv}")
    real = ["setpci", "-D", "-s", bdf] + argv[3:]
    p = subprocess.run(real, capture_output=True, text=True)
    # Parsed: it ran (rc 0) or looked the PCIe capability up on a function that has none.
    ok(p.returncode == 0 or "Capability 0010 not found" in p.stderr, f"{where}: {real}: {p.stderr.strip()}")
    counts["setpci -D"] = counts.get("setpci -D", 0) + 1


def mstflint(argv, where):
    # Debian's mstflint 4.21.0: the query forms run for real and get as far as opening the image
    # or the device (there is none here): "-E- Cannot open Image: FILE." / "-E- Cannot open
    # Device: BDF." (flint/subcommands.cpp). The burn is never run, only its form checked.
    if argv[-1] == "burn":
        ok(len(argv) == 7 and argv[1] == "-d" and argv[3] == "-i" and argv[5] == "-y", f"{where}: burn form {argv}")
        counts["mstflint burn (form)"] = counts.get("mstflint burn (form)", 0) + 1
        return
    if shutil.which("mstflint") is None:
        counts["mstflint (not installed)"] = counts.get("mstflint (not installed)", 0) + 1
        return
    p = subprocess.run(argv, capture_output=True, text=True)
    out = p.stdout + p.stderr
    ok(argv[-1] == "query" and ("-E- Cannot open Image: " + argv[2] in out or "-E- Cannot open Device: " + argv[2] in out),
       f"{where}: {argv}: rc {p.returncode}: {out.strip()}")
    counts["mstflint query"] = counts.get("mstflint query", 0) + 1


def check(argv, where):
    tool = argv[0]
    if tool == "dcb":
        dcb(argv, where)
    elif tool == "ethtool":
        ethtool(argv, where)
    elif tool == "setpci":
        setpci(argv, where)
    elif tool == "ip":
        rc, out, err = run(argv)
        ok(rc == 0, f"{where}: {argv}: {err.strip()}")
        counts["ip"] = counts.get("ip", 0) + 1
    elif tool in ("mlnx_qos", "mstconfig", "mlxconfig"):
        counts[tool + " (stand-in)"] = counts.get(tool + " (stand-in)", 0) + 1
    elif tool == "mstflint":
        mstflint(argv, where)
    else:
        ok(False, f"{where}: unknown tool {tool}")


plans = sorted(glob.glob(sys.argv[1] + "/*.json"))
ok(len(plans) >= 5, f"golden plans found: {len(plans)}")
for path in plans:
    name = os.path.basename(path)
    for i, a in enumerate(json.load(open(path))["actions"], 1):
        subject = a["subject"]
        sub = lambda v: ["rkpa" if w == subject else w for w in v]
        where = f"{name} step {i} ({a['rule']})"
        undo = a.get("undo", {})
        # In order: the step, its read-back, the undo, the read-back again. ip really runs on the
        # veth, so its read-back regexes must match the real output after each.
        for key, argv, regexes in (("argv", a.get("argv"), a.get("check_regex")),
                                   ("undo", undo.get("argv"), undo.get("check_regex"))):
            if not argv:
                continue
            check(sub(argv), f"{where} {key}")
            if a.get("check_argv"):
                check(sub(a["check_argv"]), f"{where} {key} read-back")
                if argv[0] == "ip":
                    rc, out, err = run(sub(a["check_argv"]))
                    ok(readback_matches(out, regexes), f"{where}: {key} read-back {regexes} vs {out!r}")
                    counts["ip read-backs matched"] = counts.get("ip read-backs matched", 0) + 1

# Why no plan uses it: this iproute2 has no apptrust object.
rc, out, err = run(["dcb", "apptrust", "show", "dev", "rkpa"])
ver = subprocess.run(["dcb", "-V"], capture_output=True, text=True).stdout.strip()
if "iproute2-6.0" in ver or "iproute2-6.1" in ver or "iproute2-5." in ver:
    ok('Object "apptrust" is unknown' in err, f"dcb apptrust on {ver}: {err.strip()}")
# setpci's value:mask merge and "%04x" read format on a real register (-D: no write).
p = subprocess.run(["setpci", "-D", "-v", "-s", bdf, "COMMAND.w=5000:7000"], capture_output=True, text=True)
m = re.search(r"@04 ([0-9a-f]{4})->\(5000:7000\)->([0-9a-f]{4})", p.stdout)
ok(m is not None and int(m.group(2), 16) == (int(m.group(1), 16) & ~0x7000) | 0x5000,
   f"setpci -D -v masked merge: {p.stdout.strip()} {p.stderr.strip()}")
p = subprocess.run(["setpci", "-s", bdf, "COMMAND.w"], capture_output=True, text=True)
ok(re.fullmatch(r"[0-9a-f]{4}\n", p.stdout) is not None, f"setpci read format: {p.stdout!r}")
# The plans' MaxReadReq read-back regex is of that format.
ok(re.fullmatch(r"^[5d][0-9a-f]{3}$", "5937") and not re.fullmatch(r"^[5d][0-9a-f]{3}$", "2937"), "MRRS regex")
print("checked:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
for need in ("ip", "ethtool", "dcb parsed by the binary", "setpci -D"):
    ok(counts.get(need, 0) > 0, f"no {need} argv checked")
sys.exit(1 if fails else 0)
PY
