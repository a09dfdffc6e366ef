#!/usr/bin/env python3
"""Builds testdata/fleet/multihost/: four host captures of one Multi-Host ConnectX-7.

Every file is a real corpus capture, copied with its source header; what is changed is said in
each file's `# notes:` line and in README.md. Rerun after changing a source capture.
"""
import os, re, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
TD = os.path.dirname(HERE)
OUT = os.path.join(HERE, "multihost")

def read(rel):
    with open(os.path.join(TD, rel)) as f:
        return f.read()

def split(text):
    head, body = text.split("# ---\n", 1)
    return head, body

def write(host, name, head_lines, body):
    d = os.path.join(OUT, host)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        f.write("".join(head_lines) + "# ---\n" + body)

qos_src = "hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt"
devlink_src = "corpus/misc/devlink-dev-info-cx7-2pf-function-uid.txt"
ethtool_src = "corpus/ethtool_i/homelab-host01-cx4lx-inbox-6.8-pve.txt"
nv_src = "corpus/mlxconfig/ocp-nno-cx7-q-egrep-sriov.txt"

if os.path.isdir(OUT):
    shutil.rmtree(OUT)

qos_head, qos_body = split(read(qos_src))
dl_head, dl_body = split(read(devlink_src))
# Only the first PF's block: each host of a Multi-Host NIC sees its own PF at 0000:08:00.0
# (a separate PCI hierarchy per host). function.uid is dropped: its per-host form on a
# Multi-Host board is not in the corpus.
pf0 = dl_body.split("auxiliary/mlx5_core.eth.0:")[0]
pf0 = "".join(l for l in pf0.splitlines(True) if "function.uid" not in l)
eth_head, eth_body = split(read(ethtool_src))
eth_body = eth_body.replace("firmware-version: 14.32.1900 (MT_2420110034)",
                            "firmware-version: 28.41.1000 (MT_0000000894)")
eth_body = eth_body.replace("bus-info: 0000:01:00.0", "bus-info: 0000:08:00.0")
nv_head, nv_body = split(read(nv_src))

for host in ["host-a", "host-b", "host-c", "host-d"]:
    body = qos_body
    note = "# notes: copied unchanged from testdata/" + qos_src + " (healthy: trust dscp, PFC on priority 3 only).\n"
    if host == "host-c":
        # The one injected difference: PFC off on every priority on this host's PF.
        body = re.sub(r"(enabled\s+)0   0   0   1   0   0   0   0", r"\g<1>0   0   0   0   0   0   0   0", body)
        assert body != qos_body
        note = "# notes: testdata/" + qos_src + " with the PFC enabled row changed to all 0 (the injected multi-host difference).\n"
    write(host, "mlnx_qos@eth4.txt", [qos_head.splitlines(True)[0], note], body)
    write(host, "devlink_dev_info.txt",
          [dl_head.splitlines(True)[0],
           "# notes: the pci/0000:08:00.0 block of testdata/" + devlink_src +
           " (board.serial_number MT0000XZ00AA shared by the four hosts of one Multi-Host ConnectX-7), function.uid line removed.\n"],
          pf0)
    write(host, "ethtool_i@eth4.txt",
          [eth_head.splitlines(True)[0],
           "# notes: testdata/" + ethtool_src + " with firmware-version and bus-info changed to the ConnectX-7 PF of devlink_dev_info.txt (28.41.1000, MT_0000000894, 0000:08:00.0).\n"],
          eth_body)
    if host in ("host-a", "host-b"):
        write(host, "mlxconfig_q@0000:08:00.0.txt",
              [nv_head.splitlines(True)[0],
               "# notes: copied unchanged from testdata/" + nv_src + " (NUM_OF_VFS 8, SRIOV_EN True(1), LINK_TYPE_P1 ETH(2)); the same NV configuration read from two hosts of the one physical NIC.\n"],
              nv_body)
