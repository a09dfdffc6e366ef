#!/usr/bin/env python3
"""Builds the fixture trees under testdata/sysroots/ from real captures (see README.md).

Every value written here is read from a capture in testdata/hosts/ or testdata/corpus/ when
the capture has it; values the captures lack are listed in README.md ("inferred"). Run from
anywhere: `python3 testdata/sysroots/make_sysroots.py`; it rewrites the trees it owns.
"""
import os
import re
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)
HOSTS = os.path.join(TESTDATA, "hosts")
CORPUS = os.path.join(TESTDATA, "corpus")


def body(path):
    """Capture text without the '# ... # ---' header."""
    text = open(path, encoding="utf-8").read()
    if "\n# ---\n" in text:
        text = text.split("\n# ---\n", 1)[1]
    return text


def write(root, rel, content):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(p, mode) as f:
        f.write(content if isinstance(content, bytes) or content.endswith("\n") or content == ""
                else content + "\n")


def link(root, rel, target_rel):
    """Relative symlink at root/rel pointing to root/target_rel (as sysfs does)."""
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    os.makedirs(os.path.join(root, target_rel), exist_ok=True)
    if os.path.islink(p):
        return
    # As the kernel writes them: up to the target's parent, then the target's name, so a link
    # to an ancestor ("net/eth0/device") reads "../../../0000:2f:00.0", not "../..".
    t = os.path.join(root, target_rel)
    os.symlink(os.path.join(os.path.relpath(os.path.dirname(t), os.path.dirname(p)), os.path.basename(t)), p)


def pcie_config(vendor, device, mps_cap, mps, mrrs, cap_speed, cap_width, sta_speed, sta_width,
                class_code=0x020000, port_type=0x0, acs_ctl=None, buses=None, relaxed_ordering=True,
                ats=None):
    """256 bytes of config space: a PM capability at 0x40, the PCIe capability at 0x60.
    port_type: PCIe capability device/port type (0 endpoint, 4 root port, 5 switch upstream,
    6 switch downstream); types 4-6 get a type-1 (bridge) header, with `buses` (primary,
    secondary, subordinate) at 0x18. With `acs_ctl`, 4096 bytes (as root reads them) with an ACS
    extended capability at 0x100: capability 0x005f (SrcValid TransBlk ReqRedir CmpltRedir
    UpstreamFwd DirectTrans, a PEX switch port's set) and control `acs_ctl`. DevCtl has Enable
    Relaxed Ordering (bit 4) set unless `relaxed_ordering` is False, as Linux leaves it on hosts
    without a root-port erratum. With `ats` (True: Enable+, False: Enable-), 4096 bytes with an
    ATS extended capability (ID 0x000f, pciutils lib/header.h PCI_EXT_CAP_ID_ATS): capability
    register 0 (Invalidate Queue Depth 0), control bit 15 Enable (PCI_ATS_CTRL_ENABLE 0x8000)."""
    c = bytearray(4096 if acs_ctl is not None or ats is not None else 256)
    code = {128: 0, 256: 1, 512: 2, 1024: 3, 2048: 4, 4096: 5}
    gen = {2.5: 1, 5: 2, 8: 3, 16: 4, 32: 5, 64: 6}
    struct.pack_into("<HHHH", c, 0, vendor, device, 0x0006, 0x0010)  # status: capability list
    c[0x09], c[0x0a], c[0x0b] = class_code & 0xff, (class_code >> 8) & 0xff, class_code >> 16
    if port_type in (4, 5, 6):
        c[0x0e] = 0x01  # header type 1: PCI-to-PCI bridge
        if buses:
            c[0x18], c[0x19], c[0x1a] = buses
    if acs_ctl is not None:
        nxt = 0x140 if ats is not None else 0
        struct.pack_into("<IHH", c, 0x100, 0x000d | (1 << 16) | (nxt << 20), 0x005f, acs_ctl)  # ACS v1
    if ats is not None:
        at = 0x140 if acs_ctl is not None else 0x100
        struct.pack_into("<IHH", c, at, 0x000f | (1 << 16), 0x0000, 0x8000 if ats else 0x0000)  # ATS v1, end
    c[0x34] = 0x40
    c[0x40], c[0x41] = 0x01, 0x60  # power management -> next 0x60
    c[0x60], c[0x61] = 0x10, 0x00  # PCI Express, end of list
    struct.pack_into("<H", c, 0x62, 0x0002 | (port_type << 4))  # PCIe cap version 2, port type
    struct.pack_into("<I", c, 0x64, code[mps_cap])
    struct.pack_into("<H", c, 0x68, (code[mps] << 5) | (code[mrrs] << 12) | 0x000f | (0x0010 if relaxed_ordering else 0))
    struct.pack_into("<I", c, 0x6c, gen[cap_speed] | (cap_width << 4))
    struct.pack_into("<H", c, 0x72, gen[sta_speed] | (sta_width << 4))
    return bytes(c)


def pci_sysfs_extras(root, dev):
    """irq and resource, as every sysfs PCI device has them: pciutils' linux-sysfs access method
    reads both, so `lspci -A linux-sysfs -O sysfs.path=<root>/sys/bus/pci` can list the tree."""
    write(root, f"{dev}/irq", "0")
    write(root, f"{dev}/resource", "\n".join(["0x0000000000000000 0x0000000000000000 0x0000000000000000"] * 13))


def pci_vpd(product, fields):
    """VPD bytes as a card's EEPROM holds them: ID string (0x82), VPD-R (0x90) with `fields`
    (keyword -> text) and an RV checksum byte plus one reserved byte, then the end tag (0x78)."""
    name = product.encode()
    out = bytearray([0x82, len(name) & 0xff, len(name) >> 8]) + name
    ro = bytearray()
    for k, v in fields.items():
        ro += k.encode() + bytes([len(v)]) + v.encode()
    ro_len = len(ro) + 3 + 2  # + "RV", length, checksum and one reserved byte
    out += bytes([0x90, ro_len & 0xff, ro_len >> 8]) + ro + b"RV" + bytes([2])
    out.append((-sum(out)) & 0xff)  # bytes 0..checksum sum to zero
    out += b"\x00" + bytes([0x78])
    return bytes(out)


class Host:
    def __init__(self, name):
        self.root = os.path.join(HERE, name)
        shutil.rmtree(self.root, ignore_errors=True)
        os.makedirs(self.root)

    def pci(self, bdf, vendor, device, driver=None, numa=None, config=None, parent=None):
        domain = bdf[:4]
        # Default: behind one root port of host bridge pci<domain>:00.
        dev = f"{parent or f'sys/devices/pci{domain}:00/{domain}:00:01.0'}/{bdf}"
        write(self.root, f"{dev}/vendor", f"0x{vendor:04x}")
        write(self.root, f"{dev}/device", f"0x{device:04x}")
        if numa is not None:
            write(self.root, f"{dev}/numa_node", str(numa))
        if driver:
            # A real driver directory holds bind/unbind/uevent; one file keeps it in git.
            write(self.root, f"sys/bus/pci/drivers/{driver}/uevent", "DRIVER=" + driver)
            link(self.root, f"{dev}/driver", f"sys/bus/pci/drivers/{driver}")
            link(self.root, f"sys/module/{driver}/drivers/pci:{driver}", f"sys/bus/pci/drivers/{driver}")
        if config is not None:
            write(self.root, f"{dev}/config", config)
        pci_sysfs_extras(self.root, dev)
        link(self.root, f"sys/bus/pci/devices/{bdf}", dev)
        return dev

    def netdev(self, dev, name, attrs):
        nd = f"{dev}/net/{name}"
        for k, v in attrs.items():
            write(self.root, f"{nd}/{k}", v)
        link(self.root, f"{nd}/device", dev)
        link(self.root, f"sys/class/net/{name}", nd)

    def ibdev(self, dev, name, attrs, ports):
        d = f"{dev}/infiniband/{name}"
        for k, v in attrs.items():
            write(self.root, f"{d}/{k}", v)
        for num, files in ports.items():
            for k, v in files.items():
                write(self.root, f"{d}/ports/{num}/{k}", v)
        link(self.root, f"{d}/device", dev)
        link(self.root, f"sys/class/infiniband/{name}", d)

    def text(self, rel, content):
        write(self.root, rel, content)


def ibv_devinfo(path):
    """hca_id blocks of `ibv_devinfo`: {name: {key: value, 'ports': {n: {key: value}}}}."""
    devs, cur, port = {}, None, None
    for line in body(path).splitlines():
        m = re.match(r"hca_id:\s*(\S+)", line)
        if m:
            cur = devs.setdefault(m.group(1), {"ports": {}})
            port = None
            continue
        m = re.match(r"\s+port:\s*(\d+)", line)
        if m and cur is not None:
            port = cur["ports"].setdefault(int(m.group(1)), {})
            continue
        m = re.match(r"\s+(\w+):\s*(.*\S)", line)
        if m and cur is not None:
            (port if port is not None else cur)[m.group(1)] = m.group(2)
    return devs


def ibdev2netdev(path):
    out = {}
    for line in body(path).splitlines():
        m = re.match(r"(\S+) port (\d+) ==> (\S+) \((Up|Down)\)", line)
        if m:
            out[m.group(1)] = (int(m.group(2)), m.group(3), m.group(4))
    return out


STATE = {"PORT_ACTIVE": "4: ACTIVE", "PORT_DOWN": "1: DOWN", "PORT_INIT": "2: INIT"}
PHYS = {"PORT_ACTIVE": "5: LinkUp", "PORT_DOWN": "3: Disabled"}


def rdma_host(name, bundle, bdfs, pci_device, netdev_mtu, gids=None, hw_counters=None,
              driver_version=None):
    h = Host(name)
    if driver_version:
        h.text("sys/module/mlx5_core/version", driver_version)
    devinfo = ibv_devinfo(os.path.join(HOSTS, bundle, "ibv_devinfo.txt"))
    links = ibdev2netdev(os.path.join(HOSTS, bundle, "ibdev2netdev.txt"))
    for ib, info in devinfo.items():
        port_num, nd, updown = links[ib]
        dev = h.pci(bdfs[ib], 0x15b3, pci_device, driver="mlx5_core")
        h.netdev(dev, nd, {"mtu": str(netdev_mtu(ib, info)), "operstate": updown.lower(),
                           "carrier": "1" if updown == "Up" else "0"})
        attrs = {"fw_ver": info["fw_ver"], "board_id": info["board_id"],
                 "hca_type": "MT" + info["vendor_part_id"], "node_type": "1: CA",
                 "node_guid": info["node_guid"], "sys_image_guid": info["sys_image_guid"]}
        ports = {}
        for pn, p in info["ports"].items():
            st = p["state"].split()[0]
            files = {"state": STATE[st], "phys_state": PHYS.get(st, "3: Disabled"),
                     "link_layer": p["link_layer"]}
            for i, (gid, typ, gnd) in enumerate((gids or {}).get((ib, pn), [])):
                files[f"gids/{i}"] = gid
                files[f"gid_attrs/types/{i}"] = typ
                files[f"gid_attrs/ndevs/{i}"] = gnd
            used = len((gids or {}).get((ib, pn), []))
            for i in range(used, max(used, 4) + 4):  # unused table entries read as zero
                files[f"gids/{i}"] = "0000:0000:0000:0000:0000:0000:0000:0000"
            for k, v in (hw_counters or {}).get(ib, {}).items():
                files[f"hw_counters/{k}"] = v
            ports[pn] = files
        h.ibdev(dev, ib, attrs, ports)
    return h


def show_gids(path):
    out = {}
    for line in body(path).splitlines():
        f = line.split()
        if len(f) >= 6 and f[0].startswith("mlx5") and f[2].isdigit():
            ver, nd = f[-2], f[-1]
            out.setdefault((f[0], int(f[1])), []).append(
                (f[3], "RoCE v2" if ver == "v2" else "IB/RoCE v1", nd))
    return out


def counters_file(path):
    out = {}
    for line in body(path).splitlines():
        m = re.match(r"(\w+):\s*(\d+)$", line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def rdma_statistic(path):
    out = {}
    for line in body(path).splitlines():
        f = line.split()
        if len(f) > 2 and f[0] == "link":
            dev = f[1].split("/")[0]
            out[dev] = dict(zip(f[2::2], f[3::2]))
    return out


def ttar_files(src, strip):
    """The files of a ttar archive (prometheus/procfs format): {path without `strip`: content}."""
    lines = body(src).split("\n")
    files, i = {}, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("Directory: "):
            files.setdefault(line[11:].replace(strip, "", 1) + "/", None)
        elif line.startswith("Path: "):
            rel = line[6:].replace(strip, "", 1)
            n = int(lines[i + 1].split(": ")[1])
            content = lines[i + 2:i + 2 + n]
            i += 1 + n
            data = "\n".join(content)
            files[rel] = data[:-3] if data.endswith("EOF") else data + "\n"
        elif line.startswith("SymlinkTo: "):
            raise SystemExit("symlinks in ttar not supported")
        i += 1
    return files


def ttar(src, root, strip):
    """Extracts a ttar archive (prometheus/procfs format) under root, dropping `strip`."""
    for rel, data in ttar_files(src, strip).items():
        if data is None:
            os.makedirs(os.path.join(root, rel), exist_ok=True)
        else:
            write(root, rel, data)


# DGX H100 layout (reference/catalog.md §4 "GPU server platforms"): 8 x H100 SXM (0x2330), 8 x
# single-port ConnectX-7 (0x1021) for the compute fabric, one NIC per GPU, GPUs 0-3 with their
# NICs on CPU0 / NUMA node 0 and GPUs 4-7 on CPU1 / node 1, plus 2 x dual-port ConnectX-7 for
# storage. Bus numbers are those of DGX H100 nodes (ibp24s0 ... ibp220s0, storage ibp41s0f0/1 and
# ibp170s0f0/1, so mlx5_0,3,4,5,6,9,10,11 are the compute NICs); each GPU/NIC pair sits on its own
# host bridge behind one PCIe switch (nvidia-smi: PIX within the pair, NODE within the socket,
# SYS across). Everything not in a capture is listed in README.md.
DGX_PAIRS = [  # (host bridge bus, NIC bus, GPU bus, NUMA node): NIC on switch port 0, GPU on port 3
    (0x15, 0x18, 0x1b, 0), (0x3d, 0x40, 0x43, 0), (0x4c, 0x4f, 0x52, 0), (0x5b, 0x5e, 0x61, 0),
    (0x97, 0x9a, 0x9d, 1), (0xbd, 0xc0, 0xc3, 1), (0xcb, 0xce, 0xd1, 1), (0xd9, 0xdc, 0xdf, 1)]
DGX_STORAGE = [(0x28, 0x29, 0), (0xa9, 0xaa, 1)]  # (host bridge bus, NIC bus, NUMA node)
DGX_CPULIST = {0: "0-55,112-167", 1: "56-111,168-223"}  # 2 x Xeon 8480C, 56 cores, 2 threads
DGX_FW = "28.43.1014"        # corpus/flint/ocp-nno-cx7-flint-q-28.43.txt (ConnectX-7)
DGX_BOARD = "MT_0000001244"  # the same capture's PSID
DGX_BAD_QOS = "mlx5_5"       # trust pcp, PFC off, MTU 1500 (GPU3's NIC)
DGX_BAD_MRRS = "mlx5_10"     # MaxReadReq 512 (GPU6's NIC)
DGX_NO_RO = "mlx5_6"         # relaxed ordering off (GPU4's NIC)


DGX_ACS_SWITCH = 2          # the PCIe switch of GPU2 and mlx5_4: ACS redirect on at its downstream ports
ACS_REDIRECT_ON = 0x001d    # SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+ (what Linux sets with an IOMMU)


DGX_NO_ATS = "mlx5_3"       # ATS off (ATSCtl Enable-; GPU1's NIC): the IOMMU translates at the root complex
DGX_CMDLINE = ("BOOT_IMAGE=/boot/vmlinuz-5.15.0-1053-nvidia root=UUID=2f5fb668-5b04-4469-9731-f83447e7f283 ro "
               "intel_iommu=on console=tty0 console=ttyS0,115200n8")
DGX_GROUP_TYPE = "DMA"      # every IOMMU group's default domain: translated (intel_iommu=on, no iommu=pt)


DGX_LOW_MPS_SWITCH = 5      # GPU5 / mlx5_9's switch: upstream port MaxPayload 128 (the NIC's is 256)
DGX_X8_SWITCH = 7           # GPU7 / mlx5_11's switch: upstream port trained x8 of x16


def bridge(h, path, bdf, vendor, device, port_type, numa, acs_ctl=0, buses=None, mps=256, sta_width=16):
    """A PCIe bridge (root port, switch upstream/downstream port) at `path` (its sysfs dir)."""
    write(h.root, f"{path}/vendor", f"0x{vendor:04x}")
    write(h.root, f"{path}/device", f"0x{device:04x}")
    write(h.root, f"{path}/class", "0x060400")
    write(h.root, f"{path}/numa_node", str(numa))
    write(h.root, f"{path}/config", pcie_config(vendor, device, 512, mps, 512, 32, 16, 32, sta_width,
                                               class_code=0x060400, port_type=port_type,
                                               acs_ctl=acs_ctl, buses=buses))
    pci_sysfs_extras(h.root, path)
    link(h.root, f"sys/bus/pci/devices/{bdf}", path)


def iommu_groups(h, groups):
    """/sys/kernel/iommu_groups/<n>/{devices/<bdf> -> device, type} and each device's
    iommu_group link back (drivers/iommu/iommu.c iommu_group_add_device()); `groups` is a list
    of device directory lists, numbered from 0 in order."""
    for n, devs in enumerate(groups):
        g = f"sys/kernel/iommu_groups/{n}"
        write(h.root, f"{g}/type", DGX_GROUP_TYPE)
        for dev in devs:
            link(h.root, f"{g}/devices/{os.path.basename(dev)}", dev)
            link(h.root, f"{dev}/iommu_group", g)


def dgx_h100():
    h = Host("dgx-h100-8gpu-8nic")
    sysfs = os.path.join(CORPUS, "sysfs")
    hw_ok = counters_file(os.path.join(sysfs, "cn-notes-show_counters-mlx5_0-cx4lx.txt"))
    hw_congested = counters_file(os.path.join(sysfs, "cn-notes-show_counters-mlx5_bond_0-congested.txt"))
    pma = {k.split("/")[-1]: v for k, v in ttar_files(os.path.join(sysfs, "procfs-fixture-mlx5_0-ttar.txt"),
                                                      "fixtures/").items()
           if "/ports/1/counters/" in k and v is not None}
    ecn = {k.split("/ecn/", 1)[1]: v for k, v in ttar_files(os.path.join(sysfs, "procfs-fixture-eth0-ecn-ttar.txt"),
                                                           "fixtures/").items()
           if v is not None and "/enable/" not in k}
    qos_ok = body(os.path.join(HOSTS, "netarbiter-eth4-qos-healthy", "mlnx_qos@eth4.txt"))
    qos_bad = body(os.path.join(CORPUS, "mlnx_qos", "cn-notes-client-ens14f0-pcp-pfc-off.txt"))

    def qos_files(text):
        """/sys/class/net/<if>/qos/{trust,dscp2prio,pfc}: the MLNX_OFED driver prints the
        mlnx_qos blocks there."""
        trust = re.search(r"^Priority trust state: .*$", text, re.M).group(0)
        d = re.search(r"^dscp2prio mapping:\n(?:\s+prio:.*\n)+", text, re.M)
        pfc = re.search(r"^PFC configuration:\n\s+priority.*\n\s+enabled.*\n", text, re.M)
        out = {"trust": trust, "pfc": pfc.group(0)}
        # trust pcp (the bad NIC's capture has no dscp2prio block): the driver's default map.
        out["dscp2prio"] = d.group(0) if d else re.search(r"^dscp2prio mapping:\n(?:\s+prio:.*\n)+",
                                                          qos_ok, re.M).group(0)
        return out

    for node, cpus in DGX_CPULIST.items():
        write(h.root, f"sys/devices/system/node/node{node}/cpulist", cpus)
    h.text("proc/sys/kernel/hostname", "dgx-h100-01")
    h.text("proc/cmdline", DGX_CMDLINE)
    groups = []  # IOMMU groups, each a list of device directories
    h.text("sys/module/mlx5_core/version", "23.10-3.2.2")
    h.text("sys/module/nvidia/version", "550.144.03")
    h.text("sys/module/nvidia_peermem/version", "550.144.03")
    h.text("sys/kernel/mm/memory_peers/nv_mem/version", "1.3")
    h.text("proc/modules", "nvidia_peermem 16384 0 - Live 0x0000000000000000\n"
                           "nvidia 56123392 1 nvidia_peermem, Live 0x0000000000000000\n"
                           "rdma_cm 139264 1 rdma_ucm, Live 0x0000000000000000\n"
                           "mlx5_ib 483328 0 - Live 0x0000000000000000\n"
                           "ib_core 442368 4 rdma_cm,mlx5_ib,nvidia_peermem,ib_uverbs, Live 0x0000000000000000\n"
                           "mlx5_core 2404352 1 mlx5_ib, Live 0x0000000000000000")

    nics = []  # (bus, function, numa, parent dir, rail/ip index, ports per card)
    for i, (hb, nic_bus, gpu_bus, node) in enumerate(DGX_PAIRS):
        root_port = f"sys/devices/pci0000:{hb:02x}/0000:{hb:02x}:01.0"
        up = f"{root_port}/0000:{hb + 1:02x}:00.0"
        # Root ports keep ACS on (above the switch it does not touch GPU <-> NIC traffic).
        bridge(h, root_port, f"0000:{hb:02x}:01.0", 0x8086, 0x352a, 4, node,  # Sapphire Rapids root port
               acs_ctl=ACS_REDIRECT_ON, buses=(hb, hb + 1, gpu_bus))
        groups += [[root_port], [up]]
        bridge(h, up, f"0000:{hb + 1:02x}:00.0", 0x1000, 0xc030, 5, node,      # Broadcom PEX890xx switch
               buses=(hb + 1, hb + 2, gpu_bus), mps=128 if i == DGX_LOW_MPS_SWITCH else 256,
               sta_width=8 if i == DGX_X8_SWITCH else 16)
        for port, bus in ((0, nic_bus), (3, gpu_bus)):
            bridge(h, f"{up}/0000:{hb + 2:02x}:{port:02x}.0", f"0000:{hb + 2:02x}:{port:02x}.0",
                   0x1000, 0xc030, 6, node, acs_ctl=ACS_REDIRECT_ON if i == DGX_ACS_SWITCH else 0,
                   buses=(hb + 2, bus, bus))
        gpu_parent = f"{up}/0000:{hb + 2:02x}:03.0"
        gdev = h.pci(f"0000:{gpu_bus:02x}:00.0", 0x10de, 0x2330, driver="nvidia", numa=node,
                     parent=gpu_parent,
                     config=pcie_config(0x10de, 0x2330, 256, 256, 512, 32, 16, 32, 16, class_code=0x030200,
                                        ats=True))
        nic_parent = f"{up}/0000:{hb + 2:02x}:00.0"
        nic_dev = f"{nic_parent}/0000:{nic_bus:02x}:00.0"
        # Without ACS at the downstream ports the kernel cannot isolate GPU and NIC: one group
        # (drivers/iommu/iommu.c pci_device_group()); with it, one group each.
        if i == DGX_ACS_SWITCH:
            groups += [[nic_parent], [gpu_parent], [nic_dev], [gdev]]
        else:
            groups.append([nic_parent, gpu_parent, nic_dev, gdev])
        write(h.root, f"{gdev}/class", "0x030200")
        write(h.root, f"{gdev}/local_cpulist", DGX_CPULIST[node])
        nics.append((nic_bus, 0, node, f"{up}/0000:{hb + 2:02x}:00.0", i, 1))
    for j, (hb, nic_bus, node) in enumerate(DGX_STORAGE):
        root_port = f"sys/devices/pci0000:{hb:02x}/0000:{hb:02x}:01.0"
        bridge(h, root_port, f"0000:{hb:02x}:01.0", 0x8086, 0x352a, 4, node, acs_ctl=ACS_REDIRECT_ON,
               buses=(hb, nic_bus, nic_bus))
        # The two functions of a card without ACS of its own share a group.
        groups += [[root_port], [f"{root_port}/0000:{nic_bus:02x}:00.0", f"{root_port}/0000:{nic_bus:02x}:00.1"]]
        for fn in (0, 1):
            nics.append((nic_bus, fn, node, root_port, 8 + 2 * j + fn, 2))
    nics.sort()
    for n, (bus, fn, node, parent, ipi, nports) in enumerate(nics):
        ib = f"mlx5_{n}"
        bdf = f"0000:{bus:02x}:00.{fn}"
        nd = f"enp{bus}s0np0" if nports == 1 else f"enp{bus}s0f{fn}np{fn}"
        mrrs = 512 if ib == DGX_BAD_MRRS else 4096
        dev = h.pci(bdf, 0x15b3, 0x1021, driver="mlx5_core", numa=node, parent=parent,
                    config=pcie_config(0x15b3, 0x1021, 512, 256, mrrs, 32, 16, 32, 16,
                                       relaxed_ordering=ib != DGX_NO_RO, ats=ib != DGX_NO_ATS))
        write(h.root, f"{dev}/class", "0x020000")
        write(h.root, f"{dev}/local_cpulist", DGX_CPULIST[node])
        if nports == 1:  # the part number of the PSID above (data/catalog.json parts)
            write(h.root, f"{dev}/vpd", pci_vpd("NVIDIA ConnectX-7 HHHL Adapter Card",
                                                {"PN": "MCX715105AS-WEAT", "EC": "A7",
                                                 "SN": f"MT0000X000{n:02d}", "V0": "PCIeGen5 x16"}))
        mac = f"02:00:03:00:{n:02x}:00"
        bad = ib == DGX_BAD_QOS
        h.netdev(dev, nd, {"mtu": "1500" if bad else "9000", "operstate": "up", "carrier": "1",
                           "speed": "400000", "address": mac})
        for k, v in ecn.items():
            write(h.root, f"{dev}/net/{nd}/ecn/{k}", v)
        for side in ("roce_rp", "roce_np"):
            for prio in range(8):
                write(h.root, f"{dev}/net/{nd}/ecn/{side}/enable/{prio}", "1" if prio == 3 else "0")
        for k, v in qos_files(qos_bad if bad else qos_ok).items():
            write(h.root, f"{dev}/net/{nd}/qos/{k}", v)
        ll = f"fe80:0000:0000:0000:0000:03ff:fe00:{n:02x}00"
        v4 = f"0000:0000:0000:0000:0000:ffff:0a0a:{ipi:02x}01"  # ::ffff:10.10.<i>.1
        files = {"state": "4: ACTIVE", "phys_state": "5: LinkUp", "link_layer": "Ethernet",
                 "rate": "400 Gb/sec (4X NDR)"}
        for gi, (gid, typ) in enumerate([(ll, "IB/RoCE v1"), (ll, "RoCE v2"), (v4, "IB/RoCE v1"), (v4, "RoCE v2")]):
            files[f"gids/{gi}"] = gid
            files[f"gid_attrs/types/{gi}"] = typ
            files[f"gid_attrs/ndevs/{gi}"] = nd
        for gi in range(4, 8):
            files[f"gids/{gi}"] = "0000:0000:0000:0000:0000:0000:0000:0000"
        for k, v in pma.items():
            files[f"counters/{k}"] = v
        for k, v in (hw_congested if bad else hw_ok).items():
            files[f"hw_counters/{k}"] = v
        h.ibdev(dev, ib, {"fw_ver": DGX_FW, "board_id": DGX_BOARD, "hca_type": "MT4129",
                          "node_type": "1: CA", "node_guid": f"0200:0003:0000:{0x1a00 + n:04x}",
                          "sys_image_guid": f"0200:0003:0000:{0x1a00 + n - fn:04x}"}, {1: files})
        write(h.root, f"sys/kernel/config/rdma_cm/{ib}/ports/1/default_roce_mode", "RoCE v2")
        write(h.root, f"sys/kernel/config/rdma_cm/{ib}/ports/1/default_roce_tos", "106")
    # Groups numbered in bus order, as the kernel adds devices at enumeration.
    iommu_groups(h, sorted(groups, key=lambda devs: os.path.basename(devs[0])))
    return h


def main():
    # 1. cx4lx-4port: two dual-port ConnectX-4 Lx, FW mismatch (hosts/cx4lx-4port-fw-mismatch).
    b = os.path.join(HOSTS, "cx4lx-4port-fw-mismatch")
    stats = rdma_statistic(os.path.join(b, "rdma_statistic.txt"))
    stats["mlx5_0"] = counters_file(os.path.join(b, "show_counters@mlx5_0.txt"))
    rdma_host("cx4lx-4port", "cx4lx-4port-fw-mismatch",
              {"mlx5_0": "0000:2f:00.0", "mlx5_1": "0000:2f:00.1",
               "mlx5_2": "0000:30:00.0", "mlx5_3": "0000:30:00.1"},
              0x1015, lambda ib, info: 1500,
              gids=show_gids(os.path.join(b, "show_gids.txt")), hw_counters=stats,
              driver_version=re.search(r"^version: (\S+)", body(os.path.join(b, "ethtool_i@eth01.txt")),
                                       re.M).group(1))

    # 2. cx7-rocep-2domain: ConnectX-7 in PCI domains 0000 and 0002, rdma-core udev names.
    def cx7_mtu(ib, info):
        return 9000 if info["ports"][1]["active_mtu"].startswith("4096") else 1500
    rdma_host("cx7-rocep-2domain", "cx7-rocep-2domain-ports-down",
              {"rocep1s0f0": "0000:01:00.0", "rocep1s0f1": "0000:01:00.1",
               "roceP2p1s0f0": "0002:01:00.0", "roceP2p1s0f1": "0002:01:00.1"},
              0x1021, cx7_mtu)

    # 3. cx4-100g-pcie-x8: ConnectX-4 MCX416A-CCAT whose x16 link trained at x8
    #    (hosts/homelab-host02-cx4-100g-pcie-x8/lspci_vvv@0000:81:00.0.txt).
    h = Host("cx4-100g-pcie-x8")
    lspci = body(os.path.join(HOSTS, "homelab-host02-cx4-100g-pcie-x8", "lspci_vvv@0000:81:00.0.txt"))
    cap = re.search(r"LnkCap:.*Speed (\d+)GT/s, Width x(\d+)", lspci)
    sta = re.search(r"LnkSta: Speed (\d+)GT/s, Width x(\d+)", lspci)
    devcap = re.search(r"DevCap: MaxPayload (\d+) bytes", lspci)
    devctl = re.search(r"MaxPayload (\d+) bytes, MaxReadReq (\d+) bytes", lspci)
    numa = re.search(r"NUMA node: (\d+)", lspci)
    cfg = pcie_config(0x15b3, 0x1013, int(devcap.group(1)), int(devctl.group(1)), int(devctl.group(2)),
                      int(cap.group(1)), int(cap.group(2)), int(sta.group(1)), int(sta.group(2)))
    dev = h.pci("0000:81:00.0", 0x15b3, 0x1013, driver="mlx5_core",
                numa=int(numa.group(1)) if numa else None, config=cfg)
    # The VPD lspci printed: "Product Name: ..." and the "[PN]/[EC]/[SN]/[V0]" read-only fields.
    vpd_fields = dict(re.findall(r"\[(PN|EC|SN|V0)\] [^:]*: (.*\S)", lspci))
    write(h.root, f"{dev}/vpd", pci_vpd(re.search(r"Product Name: (.*\S)", lspci).group(1), vpd_fields))
    # An unprivileged read of the same function stops after the 64-byte header.
    h2 = Host("cx4-100g-pcie-x8-unprivileged")
    h2.pci("0000:81:00.0", 0x15b3, 0x1013, driver="mlx5_core",
           numa=int(numa.group(1)) if numa else None, config=cfg[:64])

    # 4. oci-h100-cx7-flash-recovery: 14 ConnectX-7 + 2 ConnectX-6 Dx functions and one
    #    ConnectX-7 in flash recovery (hosts/oci-h100-cx7-flash-recovery/lspci_vvv.txt).
    h = Host("oci-h100-cx7-flash-recovery")
    ids = {"ConnectX-7": 0x1021, "ConnectX-6 Dx": 0x101d, "ConnectX-7 Flash Recovery": 0x0218}
    for line in body(os.path.join(HOSTS, "oci-h100-cx7-flash-recovery", "lspci_vvv.txt")).splitlines():
        m = re.match(r"([0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) .*\[(.*)\]$", line)
        if m:
            recovery = "Recovery" in m.group(2)
            h.pci("0000:" + m.group(1), 0x15b3, ids[m.group(2)], driver=None if recovery else "mlx5_core")

    # 5. v100-2gpu-4nic-2numa: the 2-socket V100 node of
    #    corpus/nvidia_smi_topo/nccl-notes-v100-2gpu-4nic-mlx5-names.txt: GPU0 and mlx5_0/1 on
    #    NUMA node 0 (CPUs 0-13,28-41), GPU1 and mlx5_2/3 on node 1 (14-27,42-55), nvidia_peermem.
    h = Host("v100-2gpu-4nic-2numa")
    topo = body(os.path.join(CORPUS, "nvidia_smi_topo", "nccl-notes-v100-2gpu-4nic-mlx5-names.txt"))
    legend = dict(re.findall(r"(NIC\d+): (\S+)", topo))
    rows = [line.split("\t") for line in topo.splitlines() if line.startswith(("GPU", "NIC"))]
    gpu_cpus = {r[0]: (r[7].strip(), int(r[8].strip())) for r in rows if r[0].startswith("GPU")}
    for gpu, (cpus, node) in gpu_cpus.items():
        write(h.root, f"sys/devices/system/node/node{node}/cpulist", cpus)
        idx = int(gpu[3:])
        bdf = f"0000:{0x1a + 0x80 * idx:02x}:00.0"
        # One host bridge per socket; the GPU and its PHB NICs on two root ports of it.
        bridge = f"sys/devices/pci0000:{0x80 * idx:02x}"
        dev = h.pci(bdf, 0x10de, 0x1db4, driver="nvidia", numa=node,
                    parent=f"{bridge}/0000:{0x80 * idx:02x}:01.0")
        write(h.root, f"{dev}/class", "0x030200")
        # The NICs PHB to this GPU share its NUMA node.
        nics = [legend[f"NIC{i}"] for i, rel in enumerate(r for r in next(
            row for row in rows if row[0] == gpu)[3:7]) if rel.strip() == "PHB"]
        for j, ib in enumerate(nics):
            nbdf = f"0000:{0x3b + 0x80 * idx:02x}:00.{j}"
            ndev = h.pci(nbdf, 0x15b3, 0x1017, driver="mlx5_core", numa=node,
                         parent=f"{bridge}/0000:{0x80 * idx:02x}:02.0")
            nd = f"ens{idx + 1}f{j}np{j}"
            h.netdev(ndev, nd, {"mtu": "9000", "operstate": "up", "carrier": "1"})
            h.ibdev(ndev, ib, {"fw_ver": "16.35.2000", "hca_type": "MT4119", "node_type": "1: CA"},
                    {1: {"state": "4: ACTIVE", "phys_state": "5: LinkUp", "link_layer": "Ethernet",
                         "gids/0": "fe80:0000:0000:0000:0000:00ff:fe00:00%02x" % (idx * 2 + j),
                         "gid_attrs/types/0": "RoCE v2", "gid_attrs/ndevs/0": nd}})
    h.text("sys/module/nvidia_peermem/version", "550.144.03")
    # V100 (Volta) runs only the proprietary kernel module (the open modules need Turing or
    # later), so DMA-BUF cannot stand in for the unregistered peermem. Banner in the proprietary
    # form of testdata/corpus/nvidia_version (nv-procfs.c "NVRM version: %s").
    h.text("proc/driver/nvidia/version",
           "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.144.03  Mon Dec 30 17:44:08 UTC 2024\n"
           "GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)")
    h.text("proc/sys/kernel/osrelease", "5.15.0-126-generic")
    h.text("proc/modules", "nvidia_peermem 16384 0 - Live 0x0000000000000000\n"
                           "nvidia 56123392 1 nvidia_peermem, Live 0x0000000000000000\n"
                           "mlx5_ib 483328 0 - Live 0x0000000000000000\n"
                           "mlx5_core 2404352 1 mlx5_ib, Live 0x0000000000000000")

    # 6. dgx-h100-8gpu-8nic: 8 GPUs, 8 + 4 ConnectX-7 functions, 2 NUMA nodes.
    dgx_h100()

    # 7. procfs / node_exporter sysfs fixtures (ttar), unpacked as they are.
    sysfs = os.path.join(CORPUS, "sysfs")
    h = Host("procfs-mlx5_0-eth0-ecn")
    ttar(os.path.join(sysfs, "procfs-fixture-mlx5_0-ttar.txt"), h.root, "fixtures/")
    ttar(os.path.join(sysfs, "procfs-fixture-eth0-ecn-ttar.txt"), h.root, "fixtures/")
    h = Host("procfs-hfi1-mlx4")
    ttar(os.path.join(sysfs, "procfs-fixture-hfi1-mlx4-ttar.txt"), h.root, "fixtures/")
    h = Host("node_exporter-i40iw-mlx4")
    ttar(os.path.join(sysfs, "node_exporter-fixture-i40iw-mlx4-ttar.txt"), h.root, "")


if __name__ == "__main__":
    main()
