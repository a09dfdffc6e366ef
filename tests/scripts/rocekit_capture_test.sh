#!/bin/sh
# Test of scripts/rocekit-capture (POSIX sh). Usage: sh rocekit_capture_test.sh [path-to-script]
# Exits 0 when every check passes; prints each failed check and exits 1 otherwise.
#   1. shellcheck -s sh is clean (skipped with a message when shellcheck is missing)
#   2. a run on this machine exits 0 and, with no RDMA devices, logs the "no RDMA devices" note
#   3. a fake sysroot (ROCEKIT_SYSROOT) plus a PATH of stand-in tools: file names, 3-line headers,
#      byte-exact bodies, read-only argv of every stand-in, missing/failed/skipped/timeout log
#      lines, no write under the sysroot, --all-netdevs, the mlxconfig/flint fallback, -z, and
#      refusal of a non-empty output directory or an existing tarball.
set -u

here=$(cd "$(dirname "$0")" && pwd)
SCRIPT=${1:-$here/../../scripts/rocekit-capture}
[ -f "$SCRIPT" ] || { echo "FAIL: script not found: $SCRIPT"; exit 1; }
SH=${ROCEKIT_TEST_SH:-$(command -v sh)}   # the shell that runs the script under test
TAB=$(printf '\t')
# The script's own version (VERSION=, stamped with the build's version when installed).
VER=$(sed -n 's/^VERSION=//p' "$SCRIPT")
VER_RE=$(printf '%s' "$VER" | sed 's/[.+]/\\&/g')

FAILS=0
CHECKS=0
fail() { printf 'FAIL: %s\n' "$*"; FAILS=$((FAILS + 1)); }
check() { # check DESCRIPTION COMMAND...: run COMMAND, count a failure when it fails
    _d=$1; shift
    CHECKS=$((CHECKS + 1))
    "$@" || fail "$_d"
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/rocekit-capture-test.XXXXXX") || { echo "FAIL: mktemp"; exit 1; }
[ -n "${KEEP_TMP:-}" ] && echo "keeping $TMP" || trap 'rm -rf "$TMP"' EXIT
trap 'rm -rf "$TMP"; exit 130' INT TERM HUP

has_line() { grep -F -x -q -e "$2" "$1"; }           # has_line FILE EXACT-LINE
file_has() { grep -F -q -e "$2" "$1"; }              # file_has FILE FIXED-STRING
exists() { [ -f "$1" ]; }
absent() { [ ! -e "$1" ]; }
body_is() { tail -n +4 "$1" | cmp -s - "$2"; }       # body_is FILE EXPECTED-FILE (byte for byte)
header_cmd_is() { [ "$(sed -n "1s/^# source: rocekit-capture $VER_RE on [^ ]* at [^ ]*: //p" "$1")" = "$2" ]; }
rc_is() { [ "$1" = "$2" ]; }
rc_not() { [ "$1" != "$2" ]; }

# Every capture file starts with the three header lines.
headers_ok() { # headers_ok DIR
    _ok=0 _n=0
    for _f in "$1"/*.txt; do
        [ -f "$_f" ] || continue
        _n=$((_n + 1))
        if ! sed -n 1p "$_f" | grep -E -q "^# source: rocekit-capture $VER_RE on [^ ]+ at [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z: .+\$" ||
           ! sed -n 2p "$_f" | grep -E -q '^# notes: exit status [0-9]+(;.*| \(timed out.*)?$' ||
           [ "$(sed -n 3p "$_f")" != "# ---" ]; then
            printf '  bad header in %s:\n' "$_f"; sed -n '1,3p' "$_f" | sed 's/^/    /'
            _ok=1
        fi
    done
    return $_ok
}
log_start_ok() { # the log's first three lines
    sed -n 1p "$1" | grep -q '^hostname: .' &&
    sed -n 2p "$1" | grep -E -q '^started: [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' &&
    [ "$(sed -n 3p "$1")" = "version: $VER" ]
}
log_lines_ok() { # every later line: note<TAB>text or status<TAB>tool<TAB>target<TAB>command
    sed -n '4,$p' "$1" | grep -E -v -q \
        -e "^note${TAB}." \
        -e "^(ok|missing|failed\([0-9]+\)|skipped\([^${TAB}]+\))${TAB}[A-Za-z0-9_]+${TAB}[^${TAB}]+${TAB}.+$" && return 1
    return 0
}
no_tmp_left() { for _t in "$1"/.rocekit-capture-tmp*; do [ -e "$_t" ] && return 1; done; return 0; }

# calls_only TOOL ERE: the stand-in TOOL was called at least once, and every call matched ERE.
calls_only() {
    grep "^$1 " "$CALLS" >"$TMP/calls.sel" || grep -x "$1" "$CALLS" >"$TMP/calls.sel" ||
        { echo "  $1 was never called"; return 1; }
    if grep -E -v -x -e "$2" "$TMP/calls.sel" >"$TMP/calls.bad"; then
        echo "  unexpected $1 calls:"; sed 's/^/    /' "$TMP/calls.bad"; return 1
    fi
    return 0
}
never_called() { ! grep -E -q "^$1( |$)" "$CALLS"; }

# ---- 1. shellcheck -----------------------------------------------------------------------------
if command -v shellcheck >/dev/null 2>&1; then
    check "shellcheck -s sh $SCRIPT reports warnings (output above)" shellcheck -s sh "$SCRIPT"
else
    echo "SKIP: shellcheck not installed; lint check not run"
fi

# ---- 2. run on this machine --------------------------------------------------------------------
ROCEKIT_CAPTURE_TIMEOUT=5 "$SH" "$SCRIPT" -o "$TMP/real" >"$TMP/real.err" 2>&1
rc=$?
check "run on this machine exits 0 (got $rc): $(cat "$TMP/real.err")" rc_is "$rc" 0
check "run on this machine writes rocekit-capture.log" exists "$TMP/real/rocekit-capture.log"
if [ -f "$TMP/real/rocekit-capture.log" ]; then
    check "real log starts with hostname/started/version" log_start_ok "$TMP/real/rocekit-capture.log"
    check "real log lines are well formed" log_lines_ok "$TMP/real/rocekit-capture.log"
    if [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
        echo "SKIP: this machine has RDMA devices; the 'no RDMA devices' note is not expected"
    else
        check "real log has the no-RDMA note" has_line "$TMP/real/rocekit-capture.log" \
            "note${TAB}no RDMA devices found under /sys/class/infiniband"
    fi
fi
check "real run capture headers" headers_ok "$TMP/real"
check "real run leaves no temp dir" no_tmp_left "$TMP/real"

# ---- 3. fake sysroot and stand-in tools --------------------------------------------------------
R=$TMP/root
S=$R/sys
P0=$S/devices/pci0000:00/0000:00:01.0/0000:01:00.0      # mlx5_0 + ens6 (real kernel layout)
P1=$S/devices/pci0001:00/0001:00:02.0/0001:02:00.0      # mlx5_1, no netdev, no counters
P5=$S/devices/pci0000:00/0000:00:05.0                   # eth9: a netdev without RDMA
mkdir -p "$P0/infiniband/mlx5_0/ports/1/hw_counters" "$P0/infiniband/mlx5_0/ports/1/counters" \
    "$P0/net/ens6/ecn/roce_np/enable" "$P0/net/ens6/ecn/roce_rp/enable" "$P1" "$P5/net/eth9" \
    "$S/devices/virtual/net/lo" "$P5/virtio3/net/eth8" \
    "$S/class/infiniband/mlx5_1" "$S/class/net" \
    "$S/kernel/config/rdma_cm/mlx5_0/ports/1" "$S/kernel/mm/memory_peers/nv_mem" \
    "$S/module/nvidia_peermem/parameters"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/infiniband/mlx5_0 "$S/class/infiniband/mlx5_0"
ln -s ../../../0000:01:00.0 "$P0/infiniband/mlx5_0/device"
ln -s ../../../devices/pci0001:00/0001:00:02.0/0001:02:00.0 "$S/class/infiniband/mlx5_1/device"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/net/ens6 "$S/class/net/ens6"
ln -s ../../../0000:01:00.0 "$P0/net/ens6/device"
ln -s ../../devices/pci0000:00/0000:00:05.0/net/eth9 "$S/class/net/eth9"
ln -s ../../../0000:00:05.0 "$P5/net/eth9/device"
ln -s ../../devices/pci0000:00/0000:00:05.0/virtio3/net/eth8 "$S/class/net/eth8"
ln -s ../../../virtio3 "$P5/virtio3/net/eth8/device"
ln -s ../../devices/virtual/net/lo "$S/class/net/lo"
for p in 0 1 2 4 5 6 7; do echo 0 >"$P0/net/ens6/ecn/roce_np/enable/$p"; echo 0 >"$P0/net/ens6/ecn/roce_rp/enable/$p"; done
echo 1 >"$P0/net/ens6/ecn/roce_np/enable/3"; echo 1 >"$P0/net/ens6/ecn/roce_rp/enable/3"
echo 48 >"$P0/net/ens6/ecn/roce_np/cnp_dscp"
echo 5 >"$P0/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent"
echo 10 >"$P0/infiniband/mlx5_0/ports/1/hw_counters/lifespan"
echo 1234 >"$P0/infiniband/mlx5_0/ports/1/counters/port_rcv_data"
echo "RoCE v2" >"$S/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode"
echo 1.3 >"$S/kernel/mm/memory_peers/nv_mem/version"
echo 535.104.05 >"$S/module/nvidia_peermem/version"
echo live >"$S/module/nvidia_peermem/initstate"
snapshot() { (cd "$R" && find . | LC_ALL=C sort && find . -type f -exec cat {} +) >"$1"; }
snapshot "$TMP/root.before"

# Stand-in tools: each records "name args..." in $FAKE_CALLS, then prints a known output.
FAKEBIN=$TMP/fakebin
UTILBIN=$TMP/utilbin
mkdir -p "$FAKEBIN" "$UTILBIN"
fake() { # fake NAME [BODY]
    {
        echo '#!/bin/sh'
        echo "printf '%s\\n' \"$1 \$*\" >>\"\$FAKE_CALLS\""
        if [ $# -ge 2 ]; then printf '%s\n' "$2"; else echo "printf 'fake $1 output: %s\\n' \"\$*\""; fi
    } >"$FAKEBIN/$1"
    chmod +x "$FAKEBIN/$1"
}
for t in ethtool mlnx_qos ibv_devinfo mstconfig devlink rdma ibdev2netdev lsmod ip \
         mlxconfig flint setpci cma_roce_mode; do
    fake "$t"
done
# ethtool -i: TABs, trailing spaces, blank line, to check the byte-for-byte copy.
fake ethtool 'if [ "$1" = -i ]; then printf "driver: mlx5_core\nfirmware-version: 22.39.1002 (MT_0000000359)\n\tindented \n\nbus-info: 0000:01:00.0\n"; else printf "fake ethtool output: %s\n" "$*"; fi'
fake show_gids 'printf "DEV\tPORT\tINDEX\tGID\nmlx5_0\t1\t3\tfe80::1\tv2\tens6"'   # no final newline
fake mstflint 'echo "-E- Cannot open Device: $2. No such file or directory" >&2; exit 1'
# mstlink --port_type PCIE: the first lines of a real mlxlink PCIe query (testdata/corpus/mlxlink_pcie).
fake mstlink 'printf "\nOperational Info\n----------------\nDepth, pcie index, node          : 0, 0, 0\nLink Speed Active (Enabled)        : 16G-Gen 4 (16G-Gen 4)\nLink Width Active (Enabled)        : 16X (16X)\n"'
fake lspci 'if [ "$2" = -D ]; then printf "0000:00:01.0 PCI bridge: Intel Corporation Device 352a\n0000:01:00.0 Ethernet controller: Mellanox Technologies MT2892 Family [ConnectX-6 Dx]\n"; else printf "%s Ethernet controller: Mellanox Technologies MT2892 Family [ConnectX-6 Dx]\n\tCapabilities: <access denied>\n" "$3"; fi'
fake nvidia-smi 'sleep 5; echo late'
fake dmesg 'printf "[    1.0] mlx5_core 0000:01:00.0: firmware version: 22.39.1002\n[    2.0] usb 1-1: new high-speed USB device\n[    3.0] mlx5_core 0000:01:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)\n"'
# Only the basic utilities the script needs, so that no real RDMA/NIC tool is found by accident.
# (Searched on PATH by hand: "command -v" names shell builtins instead of their files.)
findexe() {
    _IFS=$IFS; IFS=:
    for _d in $PATH; do
        [ -n "$_d" ] && [ -f "$_d/$1" ] && [ -x "$_d/$1" ] && { IFS=$_IFS; printf '%s' "$_d/$1"; return 0; }
    done
    IFS=$_IFS; return 1
}
for u in sh cat grep date uname hostname id mkdir rm ls sed tr cut tar gzip timeout sleep; do
    p=$(findexe "$u") && ln -s "$p" "$UTILBIN/$u"
done
for u in sh cat grep date uname id mkdir rm ls sed tr cut tar gzip; do
    [ -e "$UTILBIN/$u" ] || fail "basic utility $u not found on this machine"
done
HAVE_TIMEOUT=0
[ -e "$UTILBIN/timeout" ] && [ -e "$UTILBIN/sleep" ] && HAVE_TIMEOUT=1

CALLS=$TMP/calls
: >"$CALLS"
runfake() { # runfake BIN-DIR ARGS...: run the script against the fake sysroot
    _bin=$1; shift
    env PATH="$_bin:$UTILBIN" ROCEKIT_SYSROOT="$R" FAKE_CALLS="$CALLS" ROCEKIT_CAPTURE_TIMEOUT=2 \
        "$SH" "$SCRIPT" "$@"
}

O=$TMP/fake
runfake "$FAKEBIN" -o "$O" >"$TMP/fake.err" 2>&1
rc=$?
check "fake run exits 0 (got $rc): $(cat "$TMP/fake.err")" rc_is "$rc" 0
LOG=$O/rocekit-capture.log
[ -f "$LOG" ] || { fail "fake run wrote no log"; : >"$LOG.missing"; LOG=$LOG.missing; }

for f in ethtool@ens6 ethtool_i@ens6 ethtool_c@ens6 ethtool_l@ens6 ethtool_g@ens6 ethtool_a@ens6 \
         ethtool_S@ens6 mlnx_qos@ens6 sysfs_ecn@ens6 ip_link@ens6 \
         ibv_devinfo@mlx5_0 ibv_devinfo@mlx5_1 sysfs_hw_counters@mlx5_0 sysfs_counters@mlx5_0 \
         cma_roce_mode@mlx5_0 \
         lspci_vvv@0000:01:00.0 mlxconfig_q@0000:01:00.0 flint_q@0000:01:00.0 devlink_dev_info@0000:01:00.0 \
         devlink_dev_eswitch@0000:01:00.0 \
         lspci_vvv@0001:02:00.0 mlxconfig_q@0001:02:00.0 flint_q@0001:02:00.0 devlink_dev_info@0001:02:00.0 \
         mlxlink_pcie@0000:01:00.0 mlxlink_pcie@0001:02:00.0 \
         show_gids ibdev2netdev rdma_link rdma_statistic lsmod dmesg sysfs_peermem; do
    check "expected capture file $f.txt" exists "$O/$f.txt"
done
[ "$HAVE_TIMEOUT" = 1 ] && check "timed-out nvidia_smi_topo.txt still written" exists "$O/nvidia_smi_topo.txt"
for f in mst_status ethtool@eth9 ethtool@eth8 ethtool@lo cma_roce_mode@mlx5_1 sysfs_hw_counters@mlx5_1 \
         lspci_vvv@0000:00:05.0; do
    check "no capture file $f.txt expected" absent "$O/$f.txt"
done
check "fake run capture headers" headers_ok "$O"
check "fake run leaves no temp dir" no_tmp_left "$O"
check "fake log starts with hostname/started/version" log_start_ok "$LOG"
check "fake log lines are well formed" log_lines_ok "$LOG"
check "no 'no RDMA devices' note with two fake devices" eval '! file_has "$LOG" "no RDMA devices"'

# Header commands and bodies.
check "mlnx_qos header command" header_cmd_is "$O/mlnx_qos@ens6.txt" "mlnx_qos -i ens6"
check "ethtool -S header command" header_cmd_is "$O/ethtool_S@ens6.txt" "ethtool -S ens6"
check "lspci header command" header_cmd_is "$O/lspci_vvv@0000:01:00.0.txt" "lspci -vvv -s 0000:01:00.0"
check "mstconfig header command" header_cmd_is "$O/mlxconfig_q@0000:01:00.0.txt" "mstconfig -d 0000:01:00.0 -e q"
check "devlink header command" header_cmd_is "$O/devlink_dev_info@0001:02:00.0.txt" "devlink dev info pci/0001:02:00.0"
check "devlink eswitch header command" header_cmd_is "$O/devlink_dev_eswitch@0001:02:00.0.txt" "devlink dev eswitch show pci/0001:02:00.0"
check "ip_link header command" header_cmd_is "$O/ip_link@ens6.txt" "ip -s -s link show dev ens6"
check "sysfs_ecn header command" header_cmd_is "$O/sysfs_ecn@ens6.txt" "grep -r -H . $S/class/net/ens6/ecn"
check "cma_roce_mode header is cat of the configfs file" header_cmd_is "$O/cma_roce_mode@mlx5_0.txt" \
    "cat $S/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode"
check "dmesg header shows the filter" header_cmd_is "$O/dmesg.txt" "dmesg | grep -E 'mlx5|PCIe bandwidth|iommu|Kernel command line'"
printf 'driver: mlx5_core\nfirmware-version: 22.39.1002 (MT_0000000359)\n\tindented \n\nbus-info: 0000:01:00.0\n' >"$TMP/exp"
check "ethtool -i body is byte for byte" body_is "$O/ethtool_i@ens6.txt" "$TMP/exp"
printf 'DEV\tPORT\tINDEX\tGID\nmlx5_0\t1\t3\tfe80::1\tv2\tens6' >"$TMP/exp"
check "show_gids body is byte for byte (no final newline)" body_is "$O/show_gids.txt" "$TMP/exp"
printf 'RoCE v2\n' >"$TMP/exp"
check "cma_roce_mode body is the configfs value" body_is "$O/cma_roce_mode@mlx5_0.txt" "$TMP/exp"
printf '[    1.0] mlx5_core 0000:01:00.0: firmware version: 22.39.1002\n[    3.0] mlx5_core 0000:01:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)\n' >"$TMP/exp"
check "dmesg body keeps only mlx5/PCIe bandwidth lines" body_is "$O/dmesg.txt" "$TMP/exp"
check "sysfs_ecn has np enable 3" has_line "$O/sysfs_ecn@ens6.txt" "$S/class/net/ens6/ecn/roce_np/enable/3:1"
check "sysfs_ecn has cnp_dscp" has_line "$O/sysfs_ecn@ens6.txt" "$S/class/net/ens6/ecn/roce_np/cnp_dscp:48"
check "hw_counters has np_cnp_sent" has_line "$O/sysfs_hw_counters@mlx5_0.txt" \
    "$S/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:5"
check "counters has port_rcv_data" file_has "$O/sysfs_counters@mlx5_0.txt" "counters/port_rcv_data:1234"
check "sysfs_peermem lists nv_mem" has_line "$O/sysfs_peermem.txt" "nv_mem"
check "sysfs_peermem has the module version" has_line "$O/sysfs_peermem.txt" "$S/module/nvidia_peermem/version:535.104.05"
check "failed mstflint: notes carry exit status and first stderr line" has_line "$O/flint_q@0000:01:00.0.txt" \
    "# notes: exit status 1; stderr: -E- Cannot open Device: 0000:01:00.0. No such file or directory"
if [ "$(id -u)" != 0 ]; then
    check "lspci notes say non-root hides VPD/capabilities" file_has "$O/lspci_vvv@0000:01:00.0.txt" "not run as root"
fi

# Log lines.
check "log: ok ethtool_i" has_line "$LOG" "ok${TAB}ethtool_i${TAB}ens6${TAB}ethtool -i ens6"
check "log: ok mlnx_qos" has_line "$LOG" "ok${TAB}mlnx_qos${TAB}ens6${TAB}mlnx_qos -i ens6"
check "log: failed(1) flint_q" has_line "$LOG" "failed(1)${TAB}flint_q${TAB}0000:01:00.0${TAB}mstflint -d 0000:01:00.0 q"
check "log: host-wide target is -" has_line "$LOG" "ok${TAB}rdma_link${TAB}-${TAB}rdma link show"
if (PATH="$FAKEBIN:$UTILBIN:/usr/local/sbin:/usr/sbin:/sbin"; command -v mst >/dev/null 2>&1); then
    echo "SKIP: an 'mst' is installed in an sbin directory here; the 'missing' check for it is not run"
else
    check "log: mst missing" has_line "$LOG" "missing${TAB}mst_status${TAB}-${TAB}mst status -v"
fi
check "log: cma_roce_mode@mlx5_1 skipped (no configfs entry)" \
    grep -E -q "^skipped\(no configfs entry[^${TAB}]*\)${TAB}cma_roce_mode${TAB}mlx5_1${TAB}" "$LOG"
check "log: hw_counters@mlx5_1 skipped" grep -E -q "^skipped\([^${TAB}]+\)${TAB}sysfs_hw_counters${TAB}mlx5_1${TAB}" "$LOG"
if [ "$HAVE_TIMEOUT" = 1 ]; then
    check "log: hanging nvidia-smi is cut by timeout" has_line "$LOG" "failed(124)${TAB}nvidia_smi_topo${TAB}-${TAB}nvidia-smi -L; nvidia-smi topo -m"
    check "timed-out capture notes say so" file_has "$O/nvidia_smi_topo.txt" "# notes: exit status 124 (timed out after 2 s)"
else
    echo "SKIP: timeout(1) not installed; time-limit check not run"
fi

# Stand-ins were called only with read forms.
BDF_RE='(0000:01:00\.0|0001:02:00\.0|0000:00:05\.0)'
READ_FORMS="ethtool (-[iclgaS] )?(ens6|eth9|eth8)|mlnx_qos -i (ens6|eth9|eth8)|(mstconfig|mlxconfig) -d $BDF_RE -e q"
READ_FORMS="$READ_FORMS|(mstflint|flint) -d $BDF_RE q|(mstlink|mlxlink) -d $BDF_RE --port_type PCIE|lspci -vvv -s $BDF_RE|lspci -vvv -D -A linux-sysfs -O sysfs\.path=[^ ]*/sys/bus/pci|devlink dev info pci/$BDF_RE|devlink dev eswitch show pci/$BDF_RE|devlink port show"
READ_FORMS="$READ_FORMS|ibv_devinfo -v -d mlx5_[01]|rdma (link|statistic) show|ip -s -s link show dev (ens6|eth9|eth8)"
READ_FORMS="$READ_FORMS|ibdev2netdev -v|nvidia-smi -L|nvidia-smi topo -m|show_gids |lsmod |dmesg "
check "ethtool: read flags only" calls_only ethtool 'ethtool (-[iclgaS] )?ens6'
check "mlnx_qos: exactly -i <if>" calls_only mlnx_qos 'mlnx_qos -i ens6'
check "mstconfig: -d <BDF> -e q only" calls_only mstconfig 'mstconfig -d (0000:01:00\.0|0001:02:00\.0) -e q'
check "mstflint: -d <BDF> q only" calls_only mstflint 'mstflint -d (0000:01:00\.0|0001:02:00\.0) q'
check "mstlink: -d <BDF> --port_type PCIE only" calls_only mstlink 'mstlink -d (0000:01:00\.0|0001:02:00\.0) --port_type PCIE'
check "mstlink header command" header_cmd_is "$O/mlxlink_pcie@0000:01:00.0.txt" "mstlink -d 0000:01:00.0 --port_type PCIE"
check "mstlink output copied" has_line "$O/mlxlink_pcie@0000:01:00.0.txt" "Link Width Active (Enabled)        : 16X (16X)"
check "lspci: -vvv -s <BDF>, and the whole tree of the sysroot" calls_only lspci 'lspci -vvv (-s (0000:01:00\.0|0001:02:00\.0)|-D -A linux-sysfs -O sysfs\.path=[^ ]*/sys/bus/pci)'
check "devlink: dev info, dev eswitch show and port show only" calls_only devlink 'devlink (dev (info|eswitch show) pci/(0000:01:00\.0|0001:02:00\.0)|port show)'
check "ibv_devinfo: -v -d <dev>" calls_only ibv_devinfo 'ibv_devinfo -v -d mlx5_[01]'
check "rdma: link/statistic show only" calls_only rdma 'rdma (link show|statistic show)'
check "ip: link show only" calls_only ip 'ip -s -s link show dev ens6'
check "ibdev2netdev: -v" calls_only ibdev2netdev 'ibdev2netdev -v'
check "nvidia-smi: -L and topo -m only" calls_only nvidia-smi 'nvidia-smi (-L|topo -m)'
check "setpci never called" never_called setpci
check "cma_roce_mode never called" never_called cma_roce_mode
check "mlxconfig/flint/mlxlink not used when mstconfig/mstflint/mstlink exist" never_called '(mlxconfig|flint|mlxlink)'
check "every stand-in call is one of the read forms above" eval '! grep -E -v -x -e "$READ_FORMS" "$CALLS"'
check "no set/reset word in any call" eval '! grep -E -q -e " (set|s|reset|r|set_system_conf|-y|--yes)( |$)" "$CALLS"'
snapshot "$TMP/root.after"
check "nothing under the fake sysroot was changed" cmp -s "$TMP/root.before" "$TMP/root.after"

# --all-netdevs into an existing empty directory, with only mlxconfig/flint installed.
FAKEBIN2=$TMP/fakebin2
mkdir -p "$FAKEBIN2"
for t in "$FAKEBIN"/*; do
    case ${t##*/} in mstconfig|mstflint|mstlink|nvidia-smi) ;; *) ln -s "$t" "$FAKEBIN2/${t##*/}" ;; esac
done
: >"$CALLS"
mkdir "$TMP/all"
runfake "$FAKEBIN2" --all-netdevs -o "$TMP/all" >"$TMP/all.err" 2>&1
rc=$?
check "--all-netdevs run into an empty existing dir exits 0 (got $rc): $(cat "$TMP/all.err")" rc_is "$rc" 0
check "--all-netdevs captures eth9" exists "$TMP/all/ethtool@eth9.txt"
check "--all-netdevs captures non-PCI eth8" exists "$TMP/all/ethtool_i@eth8.txt"
check "--all-netdevs skips lo (no device link)" absent "$TMP/all/ethtool@lo.txt"
check "--all-netdevs: lspci of eth9's function" exists "$TMP/all/lspci_vvv@0000:00:05.0.txt"
check "--all-netdevs: note for non-PCI eth8" file_has "$TMP/all/rocekit-capture.log" "eth8: device link is not a PCI function"
check "fallback mlxconfig: -d <BDF> -e q only" calls_only mlxconfig 'mlxconfig -d (0000:01:00\.0|0001:02:00\.0|0000:00:05\.0) -e q'
check "fallback flint: -d <BDF> q only" calls_only flint 'flint -d (0000:01:00\.0|0001:02:00\.0|0000:00:05\.0) q'
check "fallback header command" header_cmd_is "$TMP/all/mlxconfig_q@0000:00:05.0.txt" "mlxconfig -d 0000:00:05.0 -e q"
check "nvidia-smi missing in the second PATH" has_line "$TMP/all/rocekit-capture.log" \
    "missing${TAB}nvidia_smi_topo${TAB}-${TAB}nvidia-smi -L; nvidia-smi topo -m"
check "neither mstlink nor mlxlink: mlxlink_pcie missing" has_line "$TMP/all/rocekit-capture.log" \
    "missing${TAB}mlxlink_pcie${TAB}0000:01:00.0${TAB}mlxlink -d 0000:01:00.0 --port_type PCIE"

# -z: DIR.tar.gz lists the capture files and the log.
mkdir "$TMP/z"
runfake "$FAKEBIN2" -z -o "$TMP/z/cap" >"$TMP/z.err" 2>&1
rc=$?
check "-z run exits 0 (got $rc): $(cat "$TMP/z.err")" rc_is "$rc" 0
check "-z writes DIR.tar.gz" exists "$TMP/z/cap.tar.gz"
if [ -f "$TMP/z/cap.tar.gz" ]; then
    tar -tzf "$TMP/z/cap.tar.gz" | sed -e 's|^\./||' -e 's|/$||' | grep -v -x cap | LC_ALL=C sort >"$TMP/z.list"
    (cd "$TMP/z" && ls cap | sed 's|^|cap/|' | LC_ALL=C sort) >"$TMP/z.files"
    check "tarball lists exactly the directory's files" cmp -s "$TMP/z.list" "$TMP/z.files"
    check "tarball has ethtool_i@ens6.txt" has_line "$TMP/z.list" "cap/ethtool_i@ens6.txt"
    check "tarball has the log" has_line "$TMP/z.list" "cap/rocekit-capture.log"
fi
mkdir "$TMP/z2"
: >"$TMP/z2/cap.tar.gz"
runfake "$FAKEBIN2" -z -o "$TMP/z2/cap" >"$TMP/z2.err" 2>&1
rc=$?
check "-z with an existing tarball is refused (rc $rc)" rc_not "$rc" 0
check "-z refusal created no directory" absent "$TMP/z2/cap"

# A non-empty output directory is never overwritten.
cksum "$LOG" >"$TMP/log.sum"
runfake "$FAKEBIN" -o "$O" >"$TMP/again.err" 2>&1
rc=$?
check "existing non-empty -o dir is refused (rc $rc)" rc_not "$rc" 0
check "refusal message names the directory" file_has "$TMP/again.err" "not empty"
cksum "$LOG" | cmp -s - "$TMP/log.sum" || fail "refused run changed the existing log"
: >"$TMP/plainfile"
runfake "$FAKEBIN" -o "$TMP/plainfile" >/dev/null 2>&1
rc=$?
check "-o naming an existing file is refused (rc $rc)" rc_not "$rc" 0

# All later runs (--all-netdevs, -z, refusals) also used read forms only and wrote nothing to /sys.
check "later runs: every stand-in call is a read form" eval '! grep -E -v -x -e "$READ_FORMS" "$CALLS"'
check "later runs: setpci, cma_roce_mode, mst never called" eval '! grep -E -q "^(setpci|cma_roce_mode|mst)( |$)" "$CALLS"'
snapshot "$TMP/root.after"
check "later runs: nothing under the fake sysroot was changed" cmp -s "$TMP/root.before" "$TMP/root.after"

# Options.
"$SH" "$SCRIPT" -h >"$TMP/help" 2>&1
rc=$?
check "-h exits 0" rc_is "$rc" 0
check "-h prints usage" file_has "$TMP/help" "Usage: rocekit-capture"
"$SH" "$SCRIPT" --bogus -o "$TMP/bogus" >/dev/null 2>&1
rc=$?
check "unknown option exits 2 (got $rc)" rc_is "$rc" 2
check "unknown option creates nothing" absent "$TMP/bogus"

if [ "$FAILS" -gt 0 ]; then
    printf 'rocekit_capture_test: %d of %d checks FAILED\n' "$FAILS" "$CHECKS"
    exit 1
fi
printf 'rocekit_capture_test: all %d checks passed\n' "$CHECKS"
exit 0
