// The capture side of merging one tool output into the Snapshot: the file being merged (Ctx),
// with the evidence finders that name the capture file and line. The typed merges shared with
// live collection are in build/builder.hpp; the per-tool merges (merge_*.cpp) are listed in the
// tool table (tools.cpp).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/build/builder.hpp"
#include "rocekit/build/pci_tree.hpp"
#include "rocekit/capture/reader.hpp"
#include "rocekit/capture/tools.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {
struct NcclLog;
}

namespace rk::capture {

/// IOMMU facts gathered from several files; apply_iommu writes them into the snapshot.
struct IommuSeen {
  struct Group {
    IommuGroup group;
    Evidence source;
  };
  std::map<std::string, Group> by_bdf;                           ///< PCI address -> its group
  std::map<int, std::pair<std::string, Evidence>> type_of;       ///< group number -> type line
  std::optional<std::pair<std::string, Evidence>> untagged_type; ///< every `cat */type` line alike
  bool listing = false;  ///< a whole sysfs_iommu_groups listing was read: a function absent from it is in no group
  build::IommuEvidence host;
};

/// One file being merged.
struct Ctx {
  Snapshot& snap;
  const CaptureFile& file;
  std::string tool;
  std::string target;
  parse::CaptureText text;
  InputFile& input;
  std::vector<std::string_view> body_lines = text::lines(text.body);  ///< split once per file
  /// NVIDIA GPUs lspci listed, placed once every file is merged (build::place_gpus).
  std::vector<build::SeenGpu>* seen_gpus = nullptr;
  /// IOMMU facts several files give (groups, cmdline, dmesg), applied once every file is merged
  /// and the GPUs are placed (apply_iommu).
  IommuSeen* iommu = nullptr;
  /// MST device -> PCI address, from the capture's `mst status` outputs (both the full path
  /// "/dev/mst/mt4129_pciconf0" and the bare name); names two outputs map differently are absent.
  const std::map<std::string, std::string>* mst_bdf = nullptr;

  /// The PCI address an MST device name maps to, if the capture's `mst status` gives one.
  std::optional<std::string> bdf_of_mst(const std::string& name) const {
    if (!mst_bdf) return std::nullopt;
    if (auto it = mst_bdf->find(name); it != mst_bdf->end()) return it->second;
    return std::nullopt;
  }

  /// Evidence for the first body line containing `needle` (line numbers are file lines).
  Evidence find(std::string_view needle, std::size_t from_body_line = 1) const {
    const std::vector<std::string_view>& ls = body_lines;
    for (std::size_t i = from_body_line ? from_body_line - 1 : 0; i < ls.size(); ++i)
      if (ls[i].find(needle) != std::string_view::npos)
        return Evidence{file.name, text.body_first_line + i, std::string(text::trim(ls[i]))};
    return Evidence{file.name, 0, ""};
  }
  /// The 1-based body line of the first "key : value" line (key and value trimmed, any padding,
  /// e.g. "Name      : ens6f1", "port:\t2") at or after `from_body_line`; 0 when none.
  std::size_t field_line(std::string_view key, std::string_view value, std::size_t from_body_line = 1) const {
    for (std::size_t i = from_body_line ? from_body_line - 1 : 0; i < body_lines.size(); ++i) {
      std::string_view t = body_lines[i];
      std::size_t colon = t.find(':');
      if (colon != std::string_view::npos && text::trim(t.substr(0, colon)) == key &&
          text::trim(t.substr(colon + 1)) == value)
        return i + 1;
    }
    return 0;
  }
  /// Evidence for a body line number (1-based).
  Evidence at(std::size_t body_line) const {
    const std::vector<std::string_view>& ls = body_lines;
    if (body_line == 0 || body_line > ls.size()) return Evidence{file.name, 0, ""};
    return Evidence{file.name, text.body_first_line + body_line - 1,
                    std::string(text::trim(ls[body_line - 1]))};
  }
  Evidence whole() const { return Evidence{file.name, 0, ""}; }

  template <class T>
  std::optional<T> take(Result<parse::Parsed<T>> r) {
    if (!r) {
      input.status = "error";
      std::string hint;
      if (const Tool* t = identify(text.body); t && t->id != tool)
        hint = " (the content looks like " + std::string(t->id) + " output: rename the file " +
               std::string(t->id) + (target.empty() ? "" : "@" + target) + ".txt)";
      const std::size_t offset = text.body_first_line > 1 ? text.body_first_line - 1 : 0;
      input.messages.push_back(file.name + ": " + shift_line_text(r.error().message, offset) + hint);
      return std::nullopt;
    }
    for (const parse::Warning& w : r->warnings) {
      input.status = "parsed_with_warnings";
      std::string loc = file.name;
      if (w.line) loc += ":" + std::to_string(text.body_first_line + w.line - 1);
      input.messages.push_back(loc + ": " + w.code + ": " + w.message);
    }
    return std::move(r->value);
  }
  std::vector<std::string> truncation_notes() const {
    std::vector<std::string> out;
    for (const std::string& m : input.messages)
      if (m.find(": truncated:") != std::string::npos) out.push_back(m);
    return out;
  }
};



/// The netdev a per-netdev file is about: the @target, else the name the output prints.

/// A capture target that is a PCI address ("0000:01:00.0").
bool is_bdf(const std::string& t);
/// The netdev a per-netdev file is about: the @target, else the name the output prints.
std::optional<std::string> netdev_target(Ctx& c, const std::optional<std::string>& printed);
/// Records that the file cannot be attached to a subject (netdev, RDMA device, PCI address).
void no_subject(Ctx& c, const std::string& what);
/// Whether `name` is an MST device name ("/dev/mst/mt4129_pciconf0", "mt4129_pciconf0.1").
bool is_mst_name(const std::string& name);
/// A running firmware `version` an output gives for an MST device no `mst status` maps to a PCI
/// address: kept in the snapshot's unplaced_firmware (fw.uniform-version is unknown, naming it).
void unplaced_firmware(Ctx& c, const std::string& mst_device, const std::optional<std::string>& version,
                       const Evidence& source);
/// Sets a netdev's QoS state from this file, unless another file already gave a different trust
/// state or PFC set: then neither is taken (reason_kind conflicting, both files and lines named)
/// and the rules that need it are unknown, instead of the last file merged winning.
void set_qos(Ctx& c, NetDev& n, QosState q, const Evidence& source, std::vector<std::string> notes);
/// "file:line" (or "file" for a whole-file source).
std::string cite(const Evidence& e);
/// Whether `had` (a value's source) comes from another capture than the one being merged: another
/// file, or another command's part of the same paste.
bool from_other_capture(const Ctx& c, const Evidence& had);
/// Records a conflict on the file being merged: "conflicting captures of <subject>: <had> and
/// <source> disagree (<difference>): neither is used; ...". Returns that reason.
std::string report_conflict(Ctx& c, const std::string& subject, const Evidence& had, const Evidence& source,
                            const std::string& difference);
/// Notes that this file's value is not used because the subject's captures already conflict.
void conflict_not_used(Ctx& c, const Evidence& source, const std::string& reason);

/// Whether this file's value for `slot` may be taken. When `slot` already holds a value from
/// another capture and `differs(held)` says how this file's value disagrees with it ("MTU 9000
/// vs 1500"; "" when they agree), neither is kept: the slot becomes `conflicting`, naming both
/// files and lines, so the rules that read it are unknown instead of the last file merged
/// winning. A slot already conflicting takes nothing more.
template <class T, class Differs>
bool may_take(Ctx& c, Collected<T>& slot, const std::string& subject, const Evidence& source, Differs differs) {
  if (slot.reason_kind == ReasonKind::conflicting) {
    conflict_not_used(c, source, slot.reason);
    return false;
  }
  if (!slot.has_value() || !from_other_capture(c, slot.source)) return true;
  std::string d = differs(*slot.value);
  if (d.empty()) return true;
  Evidence had = slot.source;
  slot.set_missing(report_conflict(c, subject, had, source, d), ReasonKind::conflicting);
  slot.notes.clear();
  return false;
}

/// Whether the running firmware `version` this file gives for PCI function `p` may be taken:
/// false, with `p.firmware` conflicting, when another capture gave the function (its
/// firmware, the `ethtool -i` of its netdev, the `ibv_devinfo` fw_ver of its RDMA device)
/// another version.
bool may_take_firmware(Ctx& c, PciFunction& p, const std::optional<std::string>& version, const Evidence& source);

/// The same for the firmware `ethtool -i` gives netdev `n` (function `bdf`): false, with
/// `n.driver` conflicting, when another capture gave that netdev, its function or its RDMA device
/// another version.
bool may_take_netdev_firmware(Ctx& c, NetDev& n, const std::optional<std::string>& bdf,
                              const std::optional<std::string>& version, const Evidence& source);
/// Sets the netdev's MTU unless another capture gave another one (then it is conflicting).
void take_mtu(Ctx& c, NetDev& n, long long mtu, const Evidence& source);
/// How two PCIe link readings of one function disagree ("link status 8GT/s x8 vs 16GT/s x16"):
/// the active speed or width; "" when they agree or one does not say.
std::string link_difference(const PcieLinkState& had, const PcieLinkState& now);
/// Whether this file's state for the RDMA port may be taken (may_take on `p.state`).
bool may_take_port_state(Ctx& c, RdmaPort& p, const std::string& rdma, PortState now, const Evidence& source);

/// The PCI function a per-function file is about: the @target, else the address it prints.
/// A file whose @target and printed address are two PCI addresses is refused (status error, a
/// message with both addresses and the printed line): nullptr.
PciFunction* pci_for_target(Ctx& c, const std::optional<std::string>& printed);

// Per-tool merges (one per tool id; the table in tools.cpp names them).
void on_mlnx_qos(Ctx& c);
void on_ethtool(Ctx& c);
void on_ethtool_i(Ctx& c);
void on_ethtool_c(Ctx& c);
void on_ethtool_l(Ctx& c);
void on_ethtool_a(Ctx& c);
void on_ethtool_S(Ctx& c);
void on_sysfs_ecn(Ctx& c);
void on_ip_link(Ctx& c);
void on_system_checks(Ctx& c);
void on_nccl_log(Ctx& c);
void on_app_env(Ctx& c);
/// The NCCL log's run facts (network, HCAs, NET channels, "set by environment" values).
void merge_nccl_run(Ctx& c, const parse::NcclLog& v);
void on_nccl_conf(Ctx& c);
void on_persistence(Ctx& c);
void on_lsmod(Ctx& c);
void on_topo(Ctx& c);
void on_sysfs_peermem(Ctx& c);
void on_nvidia_version(Ctx& c);
void on_host_resources(Ctx& c);
void on_doca_hugepages(Ctx& c);
void on_kubelet_pod(Ctx& c);
void on_proc_cmdline(Ctx& c);
void on_sysfs_iommu_groups(Ctx& c);
void on_uname(Ctx& c);
void on_ofed_info(Ctx& c);
void on_mlxlink_pcie(Ctx& c);
void on_sysfs_ib_links(Ctx& c);
void on_cma_roce_mode(Ctx& c);
void on_cma_roce_tos(Ctx& c);
void on_sysfs_traffic_class(Ctx& c);
void on_ibv_devinfo(Ctx& c);
void on_show_gids(Ctx& c);
void on_ibdev2netdev(Ctx& c);
void on_rdma_link(Ctx& c);
void on_ibstat(Ctx& c);
void on_show_counters(Ctx& c);
void on_rdma_statistic(Ctx& c);
void on_sysfs_counters(Ctx& c);
void on_mlxconfig(Ctx& c);
void on_flint(Ctx& c);
void on_mlxfwmanager(Ctx& c);
void on_devlink(Ctx& c);
void on_devlink_port(Ctx& c);
void on_devlink_eswitch(Ctx& c);
void on_lspci(Ctx& c);
void on_dmesg(Ctx& c);

/// After every file is merged and the GPUs are placed: each function's and GPU's IOMMU group
/// (and its type), and the host's IOMMU mode (build::iommu_state).
void apply_iommu(Snapshot& s, const IommuSeen& seen);

}  // namespace rk::capture
