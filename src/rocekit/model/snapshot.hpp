// The host snapshot: one typed, versioned document per host, the single input of the rules.
//
// Every input (a live host, a capture directory, a tarball, a saved snapshot JSON) becomes a
// Snapshot. Sections that come from a separate source are Collected<T>: either a value, or the
// reason it is absent ("not captured: no mlnx_qos output for eth4", "needs root"). Inside a
// value, std::optional means "the tool/kernel did not report this field". Rules turn an absent
// Collected into an `unknown` finding, never a silent pass.
//
// The JSON form (model/json.hpp) is a public contract: docs/snapshot-schema.md, schema_version.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rocekit/model/devlink.hpp"
#include "rocekit/model/evidence.hpp"
#include "rocekit/model/vocab.hpp"

namespace rk {

/// Current snapshot schema version. Bump on any incompatible change of the JSON form.
inline constexpr int k_snapshot_schema_version = 8;  // 2: PciFunction board_serial_number, function_uid
                                                    // 3: pci_bridges; parent_bdf of functions and GPUs; Gpu bdf;
                                                    //    PciFunction relaxed_ordering; GpuDirectState dmabuf_available
                                                    // 4: ats_enabled and iommu_group of functions and GPUs; iommu
                                                    // 5: default_roce_tos and global_traffic_class of RDMA ports;
                                                    //    app_settings; nccl_run
                                                    // 6: qos tc_schedule, cable_length_m, receive_buffer_bytes,
                                                    //    buffer_source, cable_source; driver_stack
                                                    // 7: PciFunction bluefield_mode
                                                    // 8: memory, doca_hugepages, static_pods

/// A section we tried to obtain. `value` present = collected; otherwise `reason` says why not.
template <class T>
struct Collected {
  std::optional<T> value;
  std::string reason;             ///< why absent; empty when value is present
  ReasonKind reason_kind = ReasonKind::none;  ///< the kind of `reason`
  /// Capture: the tool id (capture/tools.cpp) whose output would fill the section; empty when
  /// no single capture file does (live collection, values several tools must combine).
  std::string needs;
  Evidence source;                ///< where the value came from
  std::vector<std::string> notes; ///< e.g. "output truncated after the dscp2prio table"

  bool has_value() const { return value.has_value(); }
  const T* operator->() const { return &*value; }
  const T& operator*() const { return *value; }

  static Collected missing(std::string why, ReasonKind kind = ReasonKind::none) {
    Collected c;
    c.reason = std::move(why);
    c.reason_kind = kind;
    return c;
  }
  /// Marks the section absent (keeps any value out).
  void set_missing(std::string why, ReasonKind kind, std::string needs_tool = {}) {
    value.reset();
    reason = std::move(why);
    reason_kind = kind;
    needs = std::move(needs_tool);
  }
};

// ---------------------------------------------------------------- netdev -------------------

/// How the NIC's transmit scheduler serves one traffic class (IEEE 802.1Qaz ETS): mlnx_qos `tc: N
/// ... tsa: T[, bw: B%]`, dcbnl IEEE_ETS tc_tsa / tc_tx_bw, `dcb ets show` tc-tsa / tc-bw.
struct TcSchedule {
  int tc = 0;                                ///< traffic class 0..7
  std::string tsa;                           ///< "strict", "ets", "vendor" (mlx5 default), "cbs"
  std::optional<int> bandwidth_percent;      ///< ETS share 0..100; only for tsa "ets"
  Evidence source;                           ///< the `tc:` row (or the dcbnl ETS read)
};

/// The NVIDIA driver release (`ofed_info -s`): MLNX_OFED prints "MLNX_OFED_LINUX-23.10-1.1.9.0:",
/// DOCA-OFED "OFED-internal-25.10-1.7.1:" (mlnx-ofa_kernel's ofed_info script).
struct DriverStack {
  std::string stack;    ///< "MLNX_OFED", "DOCA-OFED" (an OFED-internal string), or the prefix as printed
  std::string release;  ///< the line without its trailing ':', "MLNX_OFED_LINUX-23.10-1.1.9.0"
  std::string version;  ///< "23.10-1.1.9.0"
};

/// DCB/QoS state as `mlnx_qos -i <netdev>` (or dcbnl) shows it.
struct QosState {
  std::optional<Trust> trust;                    ///< mlnx_qos "Priority trust state"
  std::map<int, int> dscp_to_priority;           ///< DSCP 0..63 -> priority 0..7; empty if not shown
  std::optional<std::vector<bool>> pfc_enabled;  ///< 8 entries, priority order; nullopt = not shown
  std::optional<std::vector<int>> priority_to_tc; ///< 8 entries when shown
  /// mlnx_qos PFC "buffer" row: receive buffer per priority, 8 entries when shown (prio2buffer).
  std::optional<std::vector<int>> priority_to_buffer;
  /// mlnx_qos "DCBX mode:": "firmware" (Firmware controlled: the NIC takes QoS from the
  /// switch's DCBX, willing) or "os" (OS controlled); nullopt when not shown.
  std::optional<std::string> dcbx_mode;
  /// ETS per traffic class, in traffic-class order; empty when not shown.
  std::vector<TcSchedule> tc_schedule;
  /// mlnx_qos "Cable len:" (dcbnl IEEE_PFC delay on mlx5): the cable length in metres the driver
  /// sizes lossless headroom for (mlx5 en/port_buffer.c calculate_xoff); nullopt = not shown.
  std::optional<int> cable_length_m;
  /// mlnx_qos "Receive buffer size (bytes):" per receive buffer 0..7; nullopt = not shown.
  std::optional<std::vector<std::uint64_t>> receive_buffer_bytes;
  Evidence trust_source;
  Evidence dscp_source;
  Evidence pfc_source;
  Evidence buffer_source;  ///< the receive buffer line
  Evidence cable_source;   ///< the cable length line
};

/// 802.3x global pause (`ethtool -a`, or a system-check report's RX/TX flow control).
struct PauseState {
  std::optional<bool> autoneg;
  std::optional<bool> rx;
  std::optional<bool> tx;
};

/// Interrupt coalescing (`ethtool -c`). Microseconds and frame counts as ethtool prints them.
struct CoalesceState {
  std::optional<bool> adaptive_rx;
  std::optional<bool> adaptive_tx;
  std::optional<std::uint32_t> rx_usecs;
  std::optional<std::uint32_t> tx_usecs;
  std::optional<std::uint32_t> rx_frames;
  std::optional<std::uint32_t> tx_frames;
};

/// Queue counts (`ethtool -l`): current and pre-set maximum.
struct ChannelState {
  std::optional<std::uint32_t> combined;
  std::optional<std::uint32_t> combined_max;
  std::optional<std::uint32_t> rx;
  std::optional<std::uint32_t> tx;
};

/// Driver and firmware as `ethtool -i` reports them.
struct DriverInfo {
  std::optional<std::string> driver;
  std::optional<std::string> version;
  std::optional<std::string> firmware_version;  ///< "14.32.1010" (PSID split off)
  std::optional<std::string> psid;              ///< "MT_2420110034"
  /// BDF; for an mlx5 SF's netdev the auxiliary device ethtool -i prints (`mlx5_core.sf.2`)
  std::optional<std::string> bus_info;
};

/// Per-priority DCQCN enable from /sys/class/net/<if>/ecn/roce_{rp,np}/enable/<prio>.
struct EcnState {
  std::map<int, bool> rp_enabled;  ///< reaction point (sender rate limiting) per priority
  std::map<int, bool> np_enabled;  ///< notification point (CNP generation) per priority
};

/// Link settings (`ethtool <netdev>`).
struct LinkSettings {
  std::optional<std::uint64_t> speed_mbps;
  std::optional<bool> link_detected;
};

struct NetDev {
  std::string name;
  std::optional<std::string> bdf;          ///< PCI function, domain included
  std::optional<std::string> rdma_device;  ///< e.g. mlx5_0
  std::optional<int> rdma_port;
  std::optional<int> numa_node;
  Collected<int> mtu_bytes;
  Collected<std::string> operstate;
  Collected<DriverInfo> driver;
  Collected<QosState> qos;
  Collected<PauseState> pause;
  Collected<CoalesceState> coalesce;
  Collected<ChannelState> channels;
  Collected<EcnState> ecn;
  Collected<LinkSettings> link;
  Collected<std::map<std::string, std::uint64_t>> stats;  ///< ethtool -S name -> value
  std::optional<DevlinkPortInfo> devlink_port;  ///< `devlink port show`; nullopt when no output names it

  /// The PCI address of the netdev: `ethtool -i`'s bus-info when it is one (an mlx5 SF's netdev
  /// shows its auxiliary device there instead), else `bdf`; "" when neither is known.
  std::string pci_address() const;
};

// ---------------------------------------------------------------- RDMA ---------------------

struct Gid {
  int index = 0;
  std::string gid;                    ///< as printed (IPv6 form)
  std::optional<std::string> ipv4;    ///< when the GID is IPv4-mapped
  std::optional<GidType> type;
  std::optional<std::string> netdev;
};

struct RdmaPort {
  int port = 1;
  Collected<PortState> state;
  std::optional<std::string> phys_state;
  std::optional<LinkLayer> link_layer;
  std::optional<int> active_mtu_bytes;
  std::optional<int> max_mtu_bytes;
  Evidence mtu_source;                   ///< where active_mtu was read
  std::optional<std::string> netdev;
  Collected<std::vector<Gid>> gids;
  Collected<std::string> default_roce_mode;  ///< rdma_cm default: "RoCE v2", "IB/RoCE v1"
  /// rdma_cm configfs `default_roce_tos`: the ToS byte (DSCP << 2 | ECN bits) of new rdma_cm
  /// connections on the port that do not set their own (kernel default 0).
  Collected<int> default_roce_tos;
  /// MLNX_OFED / DOCA-OFED `/sys/class/infiniband/<dev>/tc/<port>/traffic_class` ("Global
  /// tclass=N"): when set, the driver uses this ToS byte for every RoCE QP of the port, whatever
  /// the application asked for. missing with not_applicable: the file reads back empty.
  Collected<int> global_traffic_class;
  Collected<std::map<std::string, std::uint64_t>> counters;  ///< counters + hw_counters
};

struct RdmaDevice {
  std::string name;
  std::optional<std::string> bdf;
  std::optional<std::string> fw_ver;
  std::optional<std::string> board_id;
  std::optional<std::string> node_guid;
  std::optional<std::string> sys_image_guid;
  std::optional<std::uint32_t> vendor_part_id;
  std::optional<std::string> transport;
  std::vector<RdmaPort> ports;
  Evidence source;
};

// ---------------------------------------------------------------- PCI ----------------------

/// One end of a PCIe link: LnkCap (capability) or LnkSta (negotiated status).
struct PcieLinkEnd {
  std::optional<double> speed_gts;       ///< 2.5, 5, 8, 16, 32, 64; nullopt = "unknown"
  std::optional<int> width_lanes;        ///< x0 is reported as 0
  bool downgraded = false;               ///< lspci "(downgraded)" on speed or width
};

struct PcieLinkState {
  PcieLinkEnd capability;
  PcieLinkEnd status;
  std::optional<int> max_payload_bytes;   ///< DevCtl MaxPayload (negotiated MPS)
  std::optional<int> max_payload_cap_bytes;  ///< DevCap MaxPayload
};

/// Firmware image facts from flint/mstflint q, mlxfwmanager --query, devlink dev info.
struct FirmwareImage {
  std::optional<std::string> version;         ///< running / flash version
  std::optional<std::string> stored_version;  ///< when flint shows a separate stored image
  std::optional<std::string> psid;
  std::optional<std::string> part_number;
  std::optional<std::string> description;
  std::optional<std::string> update_status;   ///< mlxfwmanager "Status:" line
};

struct NvParam {
  std::string name;                         ///< CLI name, e.g. CNP_DSCP_P1
  std::optional<std::string> default_value;
  std::optional<std::string> current_value;
  std::optional<std::string> next_boot_value;
  std::optional<std::string> new_value;     ///< `set` transcript "New" column
  bool marked_modified = false;             ///< the query's `*` marker
  std::size_t line = 0;
};

/// Firmware NV configuration (mlxconfig / mstconfig q, -e q, or a set transcript).
struct NvConfig {
  std::vector<NvParam> params;
  bool has_current_column = false;  ///< -e output (Default/Current/Next Boot)
  bool is_set_transcript = false;
  bool set_applied = false;         ///< "Applying... Done!"
  bool reboot_requested = false;    ///< "-I- Please reboot machine ..."
  std::optional<std::string> description;
  std::optional<std::string> part_number;

  const NvParam* find(const std::string& name) const {
    for (const NvParam& p : params)
      if (p.name == name) return &p;
    return nullptr;
  }
};

/// The operation mode of a BlueField DPU / SuperNIC function, read from the firmware NV
/// configuration's INTERNAL_CPU_* parameters (mstflint mlxconfig_host.db TLV nv_internal_cpu_conf:
/// INTERNAL_CPU_MODEL SEPARATED_HOST=0 / EMBEDDED_CPU=1, INTERNAL_CPU_OFFLOAD_ENGINE ENABLED=0 /
/// DISABLED=1, INTERNAL_CPU_ESWITCH_MANAGER / _PAGE_SUPPLIER / _IB_VPORT0 ECPF=0 / EXT_HOST_PF=1)
/// and NVIDIA's "BlueField Modes of Operation" (DOCA 2.10: NIC mode = the Arm cores inactive, the
/// device a ConnectX adapter; DPU mode = the Arm owns the NIC resources and data path).
/// Derived by bluefield_mode_of() (model/bluefield.hpp) after a capture or collection is merged.
struct BlueFieldMode {
  /// "dpu": EMBEDDED_CPU with the offload engine enabled (the Arm side owns the embedded switch
  /// and the port's QoS); "nic": EMBEDDED_CPU with INTERNAL_CPU_OFFLOAD_ENGINE DISABLED(1), or
  /// the host PF as embedded switch manager; "separated_host": SEPARATED_HOST(0), the host and
  /// the Arm are two hosts of the NIC; "unknown": the query holds no INTERNAL_CPU_MODEL row.
  std::string mode;
  /// The column read: "Current" (mlxconfig -e q) or "Next Boot" (plain q, or a set transcript).
  std::string column;
  std::optional<std::string> internal_cpu_model;  ///< as printed, "EMBEDDED_CPU(1)"
  std::optional<std::string> offload_engine;      ///< INTERNAL_CPU_OFFLOAD_ENGINE
  std::optional<std::string> eswitch_manager;     ///< INTERNAL_CPU_ESWITCH_MANAGER
  std::optional<std::string> page_supplier;       ///< INTERNAL_CPU_PAGE_SUPPLIER
  std::optional<std::string> ib_vport0;           ///< INTERNAL_CPU_IB_VPORT0
  /// The mode the Next Boot column gives when it differs from Current (a mode change pending
  /// until the next firmware reset or power cycle); nullopt when they agree or only one is shown.
  std::optional<std::string> next_boot_mode;
  std::string why;  ///< how the mode follows from the values ("INTERNAL_CPU_MODEL EMBEDDED_CPU(1), ...")
  Evidence source;  ///< the INTERNAL_CPU_MODEL row (or the query when it has none)
};

/// The IOMMU group of a PCI function or GPU: /sys/kernel/iommu_groups/<number>/devices/<bdf>
/// (live: the device's `iommu_group` link), and the type of the group's default domain, the
/// group's `type` file as drivers/iommu/iommu.c iommu_group_show_type() prints it (Linux >= 5.11):
/// "DMA" or "DMA-FQ" (DMA translated), "identity" (passthrough), "blocked", "unmanaged" (owned by
/// a user such as VFIO), "unknown". nullopt type: the input names the group but not its type.
struct IommuGroup {
  int number = 0;
  std::optional<std::string> type;
};

struct PciFunction {
  std::string bdf;                          ///< domain:bus:device.function
  std::optional<std::uint16_t> vendor_id;
  std::optional<std::uint16_t> device_id;
  std::optional<std::string> device_name;   ///< lspci name, e.g. "MT27710 Family [ConnectX-4 Lx]"
  std::optional<bool> is_vf;
  bool flash_recovery = false;
  std::optional<int> numa_node;
  std::optional<std::string> driver;
  std::optional<std::string> vpd_part_number;
  std::optional<std::string> vpd_product_name;
  /// Serial number of the physical board: devlink `board.serial_number`, else VPD `[SN]`.
  /// Identical on every PF of one physical NIC, also across the hosts of a Multi-Host NIC.
  std::optional<std::string> board_serial_number;
  /// devlink `function.uid` (mlx5, kernel >= 6.15): board serial + function, unique per PF.
  std::optional<std::string> function_uid;
  Collected<PcieLinkState> link;
  Collected<int> max_read_request_bytes;    ///< DevCtl MaxReadReq (MRRS)
  Collected<bool> relaxed_ordering;         ///< DevCtl Enable Relaxed Ordering (lspci RlxdOrd+)
  /// ATS extended capability (ID 0x000f) Control register bit 15, Enable (lspci `ATSCtl:
  /// Enable+`). missing: no ATS capability (not_applicable), or extended space not readable.
  Collected<bool> ats_enabled;
  /// missing with not_applicable: the function is in no IOMMU group (no IOMMU translates its DMA).
  Collected<IommuGroup> iommu_group;
  Collected<FirmwareImage> firmware;
  Collected<NvConfig> nv_config;
  /// BlueField only: the operation mode from nv_config; nullopt for other NICs, or when no NV
  /// configuration was read.
  std::optional<BlueFieldMode> bluefield_mode;
  /// `devlink dev eswitch show pci/<bdf>`; nullopt when no output names the function.
  std::optional<DevlinkEswitchInfo> eswitch;
  /// The bridge directly above (root port or switch downstream port); nullopt when not known.
  std::optional<std::string> parent_bdf;
  Evidence source;                          ///< the lspci line naming the function
};

/// Access Control Services bits, as the ACS extended capability (ID 0x000d) holds them in its
/// capability (offset 4) and control (offset 6) registers; lspci prints them as `ACSCap:` and
/// `ACSCtl:` (pciutils ls-ecaps.c cap_acs()). Bit 0..6 in this order.
struct AcsBits {
  bool source_validation = false;    ///< SrcValid
  bool translation_blocking = false; ///< TransBlk
  bool request_redirect = false;     ///< ReqRedir: peer-to-peer requests sent upstream
  bool completion_redirect = false;  ///< CmpltRedir: peer-to-peer completions sent upstream
  bool upstream_forwarding = false;  ///< UpstreamFwd
  bool egress_control = false;       ///< EgressCtrl
  bool direct_translated = false;    ///< DirectTrans

  bool any() const {
    return source_validation || translation_blocking || request_redirect || completion_redirect ||
           upstream_forwarding || egress_control || direct_translated;
  }
};

struct PciAcs {
  AcsBits capability;
  AcsBits control;
};

/// The bits as lspci prints them: "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+
/// EgressCtrl- DirectTrans-".
std::string acs_flags_text(const AcsBits& b);

/// A PCI-to-PCI bridge above a GPU or NIC: a root port, or a PCIe switch's upstream or
/// downstream port. The tree is the parent_bdf links of functions, GPUs and bridges.
struct PciBridge {
  std::string bdf;
  std::optional<std::uint16_t> vendor_id;
  std::optional<std::uint16_t> device_id;
  std::optional<std::string> name;          ///< lspci name, e.g. "PLX Technology, Inc. PEX 8747 ..."
  std::optional<std::string> port_type;     ///< "Root Port", "Upstream Port", "Downstream Port", ...
  std::optional<int> secondary_bus;         ///< first bus behind the bridge
  std::optional<int> subordinate_bus;       ///< last bus behind the bridge
  std::optional<std::string> parent_bdf;    ///< the bridge above; nullopt at a root port
  Collected<PcieLinkState> link;
  /// missing: no ACS capability (not_applicable), or extended config space not readable.
  Collected<PciAcs> acs;
  Evidence source;
};

// ---------------------------------------------------------------- GPU / host ---------------

/// nvidia-smi topo -m relation of a GPU to a NIC: X, PIX, PXB, PHB, NODE, SYS (SOC = SYS), NV#.
struct GpuNicLink {
  std::string nic;        ///< RDMA device name (NIC legend resolved)
  std::string relation;   ///< as printed, SOC normalised to SYS
  Evidence source;
};

struct Gpu {
  int index = 0;
  std::optional<std::string> bdf;         ///< PCI address, when the input names it
  std::optional<std::string> parent_bdf;  ///< the bridge directly above
  std::optional<std::string> model;
  std::optional<int> numa_node;  ///< the CPU-side NUMA node (nvidia-smi `NUMA Affinity`, first node)
  std::optional<std::string> cpu_affinity;
  /// nvidia-smi `GPU NUMA ID`: the NUMA node of the GPU's own memory. NVML sets it only "on
  /// platforms where the GPUs are NUMA nodes" (nvmlDeviceGetNumaNodeId): GPUs coupled to a Grace
  /// CPU over NVLink-C2C (GH200, GB200, GB300, GB10). Absent ("N/A") on PCIe-attached GPUs.
  std::optional<int> memory_numa_node;
  std::vector<GpuNicLink> nics;
  Collected<bool> ats_enabled;            ///< as PciFunction::ats_enabled, for the GPU's function
  Collected<IommuGroup> iommu_group;      ///< as PciFunction::iommu_group
  Evidence source;
};

struct GpuDirectState {
  std::optional<bool> peermem_loaded;          ///< nvidia_peermem / nv_peer_mem module loaded
  std::optional<bool> peer_memory_registered;  ///< /sys/kernel/mm/memory_peers/<name> present
  std::optional<bool> gdrdma_in_use;           ///< NCCL "via NET/IB/<n>/GDRDMA"
  /// NCCL "DMA-BUF is available on GPU device <n>": GPU memory can be registered with the NIC
  /// through the kernel's DMA-BUF, without a peer-memory module.
  std::optional<bool> dmabuf_available;
  Evidence source;
};

/// The loaded NVIDIA GPU kernel driver (/proc/driver/nvidia/version). DMA-BUF GPUDirect RDMA
/// needs the open GPU kernel module: its first line reads "NVIDIA UNIX Open Kernel Module for
/// <arch>  <version> ...", the proprietary one's "NVIDIA UNIX <arch> Kernel Module  <version> ...".
struct NvidiaDriver {
  std::optional<std::string> version;  ///< "555.42.02"
  std::optional<bool> open_module;     ///< the open GPU kernel module (not the proprietary one)
};

/// How the IOMMU treats the DMA of host-owned devices by default. From the kernel command line's
/// IOMMU parameters (/proc/cmdline), dmesg's "iommu: Default domain type:" line (what the kernel
/// did: it wins over the command line, except an explicit "off", since the line is printed
/// whether or not an IOMMU driver runs), and the IOMMU groups (none at all: no IOMMU runs).
/// Per device, the group's type (IommuGroup) is more direct.
struct IommuState {
  std::string mode;                     ///< "translated", "passthrough" or "off"
  std::string decided_by;               ///< "dmesg", "kernel command line" or "iommu groups"
  std::vector<std::string> parameters;  ///< IOMMU parameters on the command line, as written
};

/// What re-applies runtime RoCE settings (DCB/QoS, ECN, MaxReadReq: lost at reboot or driver
/// reload) when the host boots: rocekit-capture's `persistence` listing, or /etc read under
/// the collector's root. Host paths, sorted.
struct PersistenceState {
  std::vector<std::string> units;          ///< /etc/systemd/system/rocekit-*.service present
  std::vector<std::string> enabled_links;  ///< /etc/systemd/system/*.wants/rocekit-*.service
  std::vector<std::string> udev_rules;     ///< /etc/udev/rules.d/*rocekit*.rules
  /// Other boot-time files (systemd units, rc.local, if-up.d, NetworkManager dispatcher) that
  /// call mlnx_qos, dcb, setpci or write ecn sysfs: "path: what" ("/etc/rc.local: mlnx_qos").
  std::vector<std::string> other_scripts;
};

/// One kernel hugepage pool (Documentation/admin-guide/mm/hugetlbpage.rst): the pages of one
/// size reserved (/sys/kernel/mm/hugepages/hugepages-<size>kB/nr_hugepages, or /proc/meminfo
/// HugePages_Total for the default size) and still free (free_hugepages, HugePages_Free).
struct HugepagePool {
  std::uint64_t page_kib = 0;          ///< 2048 for 2 MiB pages
  std::optional<std::uint64_t> total;  ///< pages reserved
  std::optional<std::uint64_t> free;   ///< pages not in use
  Evidence source;
};

/// The machine's memory: /proc/meminfo (fs/proc/meminfo.c) and its hugepage pools. On a
/// BlueField's Arm side, what the DOCA services share.
struct MemoryState {
  std::optional<std::uint64_t> total_kib;      ///< MemTotal
  std::optional<std::uint64_t> available_kib;  ///< MemAvailable
  std::vector<HugepagePool> hugepages;         ///< by page size
};

/// One hugepage reservation `doca-hugepages` keeps for an application (Mellanox/mlnx-tools
/// tsbin/doca-hugepages: one JSON file per application in /etc/mellanox/hugepages.d; the BFB's
/// mlnx_bf_configure adds "ovs-doca (default)", 512 x 2 MiB).
struct HugepageReservation {
  std::string app;             ///< "ovs-doca (default)"
  std::uint64_t page_kib = 0;  ///< 2048
  std::uint64_t pages = 0;
  std::string state;           ///< "active", "inactive" or "unknown", as doca-hugepages shows it
  Evidence source;
};

/// One container of a kubelet static pod (/etc/kubelet.d/*.yaml): how a BlueField's Arm OS runs
/// DOCA services (HBN, SNAP, telemetry). What the Kubernetes Pod spec asks, as written: the
/// kubelet admits the pod only when its requests fit the node (hugepages: requests equal limits).
struct PodContainer {
  std::string pod;        ///< metadata.name
  std::string container;  ///< spec.containers[].name
  std::string file;       ///< the manifest, "/etc/kubelet.d/doca_hbn.yaml"
  std::optional<std::string> image;
  std::optional<std::uint64_t> cpu_request_millicores;
  std::optional<std::uint64_t> cpu_limit_millicores;
  std::optional<std::uint64_t> memory_request_bytes;
  std::optional<std::uint64_t> memory_limit_bytes;
  /// "hugepages-2Mi" -> bytes (requests, else limits: Kubernetes defaults one to the other)
  std::map<std::string, std::uint64_t> hugepages_bytes;
  bool init = false;  ///< an init container (runs before the others, one at a time)
  /// Asks that are not resource quantities ("requests.memory 6GB"): not fully known.
  std::vector<std::string> unreadable;
  /// What the Kubernetes API validation the kubelet applies refuses: the pod does not run.
  std::vector<std::string> invalid;
  Evidence source;
};

/// One setting of an application stack that sends RoCE traffic: an NCCL_* or UCX_* variable.
/// NCCL reads its environment first, then $NCCL_CONF_FILE or ~/.nccl.conf, then /etc/nccl.conf,
/// each filling only what is still unset (NVIDIA/nccl src/misc/param.cc: setenv(name, value, 0)).
struct AppSetting {
  std::string name;          ///< "NCCL_IB_TC"
  std::string value;
  /// Where it was set: "nccl log" (NCCL printed "<name> set by environment to <value>": what it
  /// used), "environment" (an environment capture or job script), "user nccl.conf" (~/.nccl.conf
  /// or $NCCL_CONF_FILE), "/etc/nccl.conf".
  std::string origin;
  bool conditional = false;  ///< assigned in an if/case/for/while block of a job script
  bool literal = true;       ///< false: the value expands a variable or command ("$IF")
  Evidence source;
  /// true: a job script's `unset NAME` (or `env -u NAME`) removes it here; `value` is empty.
  bool unset = false;
};

struct AppSettings {
  std::vector<AppSetting> settings;  ///< in input order; a name may repeat across origins
};

/// One "[i]mlx5_0:1/RoCE" item of NCCL's "NET/IB : Using" line.
struct NcclHca {
  std::string rdma_device;
  std::optional<int> port;
  std::optional<std::string> link_layer;  ///< "RoCE", "IB", "IB/SHARP"
};

/// What NCCL reported it used (an NCCL_DEBUG=INFO log of a job on this host).
struct NcclRun {
  std::optional<std::string> version;   ///< "2.26.2+cuda12.2"
  std::optional<std::string> network;   ///< "Using network IB": "IB", "Socket", "IBext_v8"
  Evidence network_source;
  std::vector<NcclHca> hcas;            ///< "NET/IB : Using" devices, in NCCL's order
  Evidence hcas_source;
  /// Channels that cross the network: how many print "via NET/..." and how many end in /GDRDMA.
  int net_channels = 0;
  int gdrdma_channels = 0;
  Evidence channel_source;              ///< the first NET channel line
  /// The log was cut by hand (a "[...]" line): a parameter it does not echo may still be set.
  bool elided = false;
  /// The log shows the NET connections made ("Connected all rings", or NCCL_IB_GID_INDEX echoed
  /// after a NET channel line): NCCL has read the connection parameters (NCCL_IB_TC, _SL, _GID_INDEX).
  Evidence connected_source;
};

/// One input file and what became of it (capture loading).
struct InputFile {
  std::string file;
  std::string tool;     ///< tool id, or "" when unidentified
  std::string target;
  /// "parsed", "parsed_with_warnings", "error", "ignored" (not used: unknown, unreadable or
  /// without a subject), "unused" (a known tool's output no rule reads yet)
  std::string status;
  std::vector<std::string> messages;  ///< "file:line: message"
};

/// A capture-script record: a tool that was missing or failed on the host.
struct ToolRun {
  std::string tool;
  std::string target;
  std::string status;   ///< "ok", "missing", "failed(N)", "skipped(...)"
  std::string command;
};

/// A running firmware version an output names only by its MST device (`PCI Device Name:
/// /dev/mst/mt4129_pciconf0` of mlxfwmanager or mlxup, a system-check report's NIC record) when no
/// `mst status -v` of the capture maps that device to a PCI address.
struct UnplacedFirmware {
  std::string mst_device;  ///< as printed, "/dev/mst/mt4129_pciconf0"
  std::string version;     ///< "28.44.1036"
  Evidence source;         ///< the line that gives the version
};

struct SnapshotSource {
  SourceKind kind = SourceKind::snapshot;
  std::string path;
};

struct Snapshot {
  int schema_version = k_snapshot_schema_version;
  std::string tool_version;
  std::string collected_at;  ///< ISO 8601 UTC, when known
  std::string hostname;
  SnapshotSource source;
  std::vector<NetDev> netdevs;
  std::vector<RdmaDevice> rdma_devices;
  std::vector<PciFunction> pci_functions;
  /// Bridges on the paths of the GPUs and NICs (live: every ancestor in the sysfs device path;
  /// capture: every bridge in lspci -vvv).
  Collected<std::vector<PciBridge>> pci_bridges;
  Collected<std::vector<Gpu>> gpus;
  Collected<GpuDirectState> gpudirect;
  Collected<NvidiaDriver> nvidia_driver;  ///< /proc/driver/nvidia/version
  Collected<std::string> kernel_release;  ///< `uname -r` (/proc/sys/kernel/osrelease), "6.8.0-1013-nvidia-64k"
  Collected<DriverStack> driver_stack;    ///< `ofed_info -s`: the NVIDIA driver release
  Collected<IommuState> iommu;            ///< the host's default IOMMU mode
  Collected<std::vector<std::string>> kernel_modules;
  Collected<std::map<int, int>> numa_cpu_count;  ///< NUMA node -> online CPUs (lscpu / sysfs)
  Collected<PersistenceState> persistence;       ///< boot-time re-apply of runtime settings
  /// NCCL/UCX settings: environment capture, job script, nccl.conf, and the values an NCCL log
  /// shows NCCL read.
  Collected<AppSettings> app_settings;
  Collected<NcclRun> nccl_run;                   ///< from an NCCL_DEBUG=INFO log
  Collected<MemoryState> memory;                 ///< /proc/meminfo and the hugepage pools
  /// `doca-hugepages show`: the hugepages reserved per application (BlueField Arm side)
  Collected<std::vector<HugepageReservation>> doca_hugepages;
  /// the containers of the kubelet's static pods (/etc/kubelet.d): the DOCA services
  Collected<std::vector<PodContainer>> static_pods;
  std::vector<ToolRun> tool_runs;
  std::vector<InputFile> inputs;
  std::vector<std::string> notes;  ///< host-wide statements, e.g. "no RDMA devices found"
  /// Firmware versions of MST devices no PCI address is known for (capture only); written to the
  /// snapshot JSON only when there is one.
  std::vector<UnplacedFirmware> unplaced_firmware;

  NetDev* find_netdev(const std::string& name);
  const NetDev* find_netdev(const std::string& name) const;
  RdmaDevice* find_rdma(const std::string& name);
  const RdmaDevice* find_rdma(const std::string& name) const;
  PciFunction* find_pci(const std::string& bdf);
  const PciFunction* find_pci(const std::string& bdf) const;
  NetDev& netdev(const std::string& name);          ///< find or add
  RdmaDevice& rdma(const std::string& name);        ///< find or add
  PciFunction& pci(const std::string& bdf);         ///< find or add
  const PciBridge* find_bridge(const std::string& bdf) const;
  /// The PCI function a finding's subject names: a BDF of this snapshot, a netdev (its
  /// `ethtool -i` bus-info, else its device link), an RDMA device, or any other PCI address
  /// as written; "" when the subject names none.
  std::string subject_bdf(const std::string& subject) const;
};

/// A PCIe transfer rate as lspci prints it: "32GT/s", "2.5GT/s" ("unknown" when not read).
std::string link_speed_text(const std::optional<double>& gts);
/// A link end as "32GT/s x16" (width "?" when not read).
std::string link_end_text(const PcieLinkEnd& e);

/// Normalises a PCI address to "dddd:bb:dd.f" lower-case; adds domain 0000 when missing.
/// Returns nullopt when `text` is not a PCI address.
std::optional<std::string> normalize_bdf(std::string_view text);

}  // namespace rk
