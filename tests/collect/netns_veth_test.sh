#!/bin/sh
# rocekit collect against a real kernel: a veth pair in a network namespace this test creates,
# created with 4 rx/tx queues, set to 3 with ETHTOOL_SCHANNELS, MTU 9000 through rtnetlink (`ip`). Asserts the values the collector
# read back (sysfs mtu/operstate, channels by ethtool netlink and by the SIOCETHTOOL fallback,
# statistics, dcbnl answer).
# Skips (exit 0, reason on stdout) when not root or when `ip netns` is not permitted here.
# Usage: netns_veth_test.sh <rocekit binary>
set -u
ROCEKIT=$1
if [ "$(id -u)" != 0 ]; then echo "SKIP: needs root to create a network namespace"; exit 0; fi
command -v ip >/dev/null 2>&1 || { echo "SKIP: iproute2 'ip' not installed"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 (to read the JSON) not installed"; exit 0; }
NS=rk-test-$$
OUT=$(mktemp -d)
cleanup() { ip netns del "$NS" 2>/dev/null; rm -rf "$OUT"; }
trap cleanup EXIT INT TERM
if ! ip netns add "$NS" 2>"$OUT/err"; then echo "SKIP: ip netns add not permitted: $(cat "$OUT/err")"; exit 0; fi
# In a chroot whose / is not a mount point, `ip -n` cannot enter the namespace ("mount
# --make-rslave / failed"): the environment, not rocekit.
if ! ip -n "$NS" link show lo >/dev/null 2>"$OUT/err"; then echo "SKIP: ip -n cannot enter the namespace: $(cat "$OUT/err")"; exit 0; fi
set -e
ip -n "$NS" link add rkva numtxqueues 4 numrxqueues 4 type veth peer name rkvb numtxqueues 2 numrxqueues 2
ip -n "$NS" link set rkva mtu 9000
ip -n "$NS" link set rkvb mtu 9000
ip -n "$NS" link set rkva up
ip -n "$NS" link set rkvb up
# Change rkva's queues at run time (ETHTOOL_SCHANNELS rx 3 tx 3; the ethtool binary may be absent),
# so the collector must read the kernel's current value, not the creation parameters.
ip netns exec "$NS" python3 - <<'PY'
import ctypes, fcntl, socket, struct
ch = ctypes.create_string_buffer(struct.pack("9I", 0x3d, 0, 0, 0, 0, 3, 3, 0, 0))  # ETHTOOL_SCHANNELS
ifr = struct.pack("16sP", b"rkva", ctypes.addressof(ch)) + bytes(16)
fcntl.ioctl(socket.socket(socket.AF_INET, socket.SOCK_DGRAM), 0x8946, ifr)  # SIOCETHTOOL
PY
set +e
ip netns exec "$NS" "$ROCEKIT" collect --netdev rkva --netdev rkvb -o "$OUT/snap.json" 2>"$OUT/stderr"
rc=$?
cat "$OUT/stderr"
[ "$rc" = 0 ] || { echo "FAIL: rocekit collect exited $rc"; exit 1; }
# The same with the ioctl fallback forced (what a kernel without ethtool netlink gets).
ip netns exec "$NS" "$ROCEKIT" collect --netdev rkva --netdev rkvb --ethtool-ioctl -o "$OUT/snap-ioctl.json" 2>"$OUT/stderr"
rc=$?
[ "$rc" = 0 ] || { cat "$OUT/stderr"; echo "FAIL: rocekit collect --ethtool-ioctl exited $rc"; exit 1; }
python3 - "$OUT/snap.json" "$OUT/snap-ioctl.json" <<'PY'
import json, sys
snap = json.load(open(sys.argv[1]))
ioctl = {n["name"]: n for n in json.load(open(sys.argv[2]))["netdevs"]}
nd = {n["name"]: n for n in snap["netdevs"]}
fails = []
def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond: fails.append(what)
check(set(nd) == {"rkva", "rkvb"}, "netdevs in the namespace are exactly rkva, rkvb: %s" % sorted(nd))
a, b = nd.get("rkva", {}), nd.get("rkvb", {})
check(a.get("mtu_bytes", {}).get("value") == 9000, "rkva mtu_bytes 9000 from sysfs")
check(a.get("mtu_bytes", {}).get("source", {}).get("file") == "/sys/class/net/rkva/mtu", "rkva mtu evidence path")
check(a.get("operstate", {}).get("value") == "up", "rkva operstate up (peer up)")
ch = a.get("channels", {}).get("value") or {}
check(ch.get("rx") == 3 and ch.get("tx") == 3, "rkva channels rx 3 tx 3 (set at run time): %s" % ch)
chb = b.get("channels", {}).get("value") or {}
check(chb.get("rx") == 2 and chb.get("tx") == 2, "rkvb channels rx 2 tx 2: %s" % chb)
src = a.get("channels", {}).get("source", {}).get("file", "")
# ethtool netlink exists since kernel 5.6; older kernels fall back to the ioctl with a note.
nl = src == "ethtool netlink ETHTOOL_MSG_CHANNELS_GET rkva"
check(nl or (src == "ioctl SIOCETHTOOL ETHTOOL_GCHANNELS rkva" and "ethtool netlink" in " ".join(a["channels"].get("notes", []))),
      "rkva channels evidence: %s" % src)
ia = ioctl.get("rkva", {}).get("channels", {})
check(ia.get("value") == a.get("channels", {}).get("value"), "--ethtool-ioctl gives the same channels: %s" % ia.get("value"))
check(ia.get("source", {}).get("file") == "ioctl SIOCETHTOOL ETHTOOL_GCHANNELS rkva", "--ethtool-ioctl evidence: %s" % ia.get("source"))
check("ethtool netlink: not used (--ethtool-ioctl); read with the ioctl" in ia.get("notes", []), "--ethtool-ioctl note: %s" % ia.get("notes"))
drv = a.get("driver", {}).get("value") or {}
check(drv.get("driver") == "veth", "rkva driver veth via ETHTOOL_GDRVINFO: %s" % drv)
st = a.get("stats", {}).get("value") or {}
check("peer_ifindex" in st, "rkva ethtool -S has peer_ifindex (%d counters)" % len(st))
q = a.get("qos", {})
check(q.get("value") is None and "dcbnl EOPNOTSUPP" in q.get("reason", ""), "rkva qos unknown: %s" % q.get("reason"))
sys.exit(1 if fails else 0)
PY
