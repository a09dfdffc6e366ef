// Helpers of the per-tool capture merges (merge.hpp).
#include "rocekit/capture/merge.hpp"

#include <utility>

namespace rk::capture {

bool is_bdf(const std::string& t) { return normalize_bdf(t).has_value() && t.find(':') != std::string::npos; }

std::optional<std::string> netdev_target(Ctx& c, const std::optional<std::string>& printed) {
  if (!c.target.empty() && !is_bdf(c.target)) return c.target;
  if (printed && !printed->empty()) return *printed;
  if (!c.target.empty() && is_bdf(c.target)) {
    std::string bdf = *normalize_bdf(c.target);
    for (const NetDev& n : c.snap.netdevs)
      if (n.bdf && *n.bdf == bdf) return n.name;
  }
  return std::nullopt;
}

void no_subject(Ctx& c, const std::string& what) {
  if (c.input.status == "error") return;  // refused already, with its reason (pci_for_target)
  c.input.status = "ignored";
  std::string mst = c.target.find("mst") != std::string::npos && !is_bdf(c.target)
                        ? " (" + c.target + " is an MST device that no `mst status` of this capture maps to a PCI address)"
                        : "";
  c.input.messages.push_back(c.file.name + ": cannot tell which " + what + " this output is about" + mst +
                             ": name the file <tool>@<" + what + ">.txt");
}

std::string cite(const Evidence& e) { return e.file + (e.line ? ":" + std::to_string(e.line) : std::string()); }

bool from_other_capture(const Ctx& c, const Evidence& had) {
  if (had.file.empty()) return false;
  if (had.file != c.file.name) return true;
  // The same file name: another part of a paste when the line lies outside this part (its
  // prompt line included).
  if (had.line == 0) return false;
  std::size_t first = c.text.body_first_line > 1 ? c.text.body_first_line - 1 : 1;
  std::size_t last = c.text.body_first_line + c.body_lines.size();
  return had.line < first || had.line > last;
}

std::string report_conflict(Ctx& c, const std::string& subject, const Evidence& had, const Evidence& source,
                            const std::string& difference) {
  std::string why = "conflicting captures of " + subject + ": " + cite(had) + " and " + cite(source) +
                    " disagree (" + difference + "): neither is used; capture it once more, or check each file on its own";
  c.input.status = "parsed_with_warnings";
  c.input.messages.push_back(cite(source) + ": " + why);
  return why;
}

void conflict_not_used(Ctx& c, const Evidence& source, const std::string& reason) {
  c.input.status = "parsed_with_warnings";
  c.input.messages.push_back(cite(source) + ": not used: " + reason);
}

bool is_mst_name(const std::string& name) {
  std::string base = name.substr(name.find_last_of('/') == std::string::npos ? 0 : name.find_last_of('/') + 1);
  return name.starts_with("/dev/mst/") ||
         (base.starts_with("mt") && (base.find("_pciconf") != std::string::npos || base.find("_pci_cr") != std::string::npos));
}

void unplaced_firmware(Ctx& c, const std::string& mst_device, const std::optional<std::string>& version,
                       const Evidence& source) {
  c.input.status = "parsed_with_warnings";
  c.input.messages.push_back(cite(source) + ": " + mst_device +
                             " is an MST device that no `mst status -v` of this capture maps to a PCI address: "
                             "its firmware" + (version ? " " + *version : std::string()) +
                             " is not tied to a NIC (add the host's `mst status -v` output)");
  if (version) c.snap.unplaced_firmware.push_back({mst_device, *version, source});
}

namespace {

/// "14.32.1010 (MT_2420110034)" -> "14.32.1010": the version alone, as tools print it.
std::string bare_version(const std::string& v) {
  std::string_view t = text::trim(v);
  return std::string(t.substr(0, t.find_first_of(" \t")));
}

std::string pfc_text(const std::vector<bool>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i]) s += (s.empty() ? "" : ",") + std::to_string(i);
  return s.empty() ? "none" : s;
}

}  // namespace

void set_qos(Ctx& c, NetDev& n, QosState q, const Evidence& source, std::vector<std::string> notes) {
  if (n.qos.reason_kind == ReasonKind::conflicting) {
    c.input.status = "parsed_with_warnings";
    c.input.messages.push_back(cite(source) + ": not used: " + n.qos.reason);
    return;
  }
  if (n.qos.has_value() && n.qos.source.file != source.file) {
    const QosState& had = *n.qos;
    std::vector<std::string> diff;
    if (had.trust && q.trust && *had.trust != *q.trust)
      diff.push_back("trust " + std::string(to_string(*had.trust)) + " vs " + std::string(to_string(*q.trust)));
    if (had.pfc_enabled && q.pfc_enabled && *had.pfc_enabled != *q.pfc_enabled)
      diff.push_back("PFC on priorities " + pfc_text(*had.pfc_enabled) + " vs " + pfc_text(*q.pfc_enabled));
    if (!diff.empty()) {
      std::string why = "conflicting captures of " + n.name + ": " + cite(had.trust ? had.trust_source : n.qos.source) +
                        " and " + cite(source) + " disagree (" + diff.front() + (diff.size() > 1 ? "; " + diff[1] : std::string()) +
                        "): neither is used; capture it once more, or check each file on its own";
      n.qos.set_missing(why, ReasonKind::conflicting);
      c.input.status = "parsed_with_warnings";
      c.input.messages.push_back(cite(source) + ": " + why);
      return;
    }
  }
  n.qos.value = std::move(q);
  n.qos.source = source;
  n.qos.notes = std::move(notes);
}

namespace {

/// Another capture's running firmware for the function `bdf` (its PCI function, a netdev's
/// `ethtool -i`, an RDMA device's fw_ver; `rdma`: an RDMA device known to be the same function)
/// that differs from `mine`: where it was read and the difference.
std::optional<std::pair<Evidence, std::string>> other_firmware(const Ctx& c, const std::optional<std::string>& bdf,
                                                               const std::optional<std::string>& rdma,
                                                               const std::string& mine, const NetDev* self) {
  auto differs = [&](const std::string& other, const Evidence& at) -> std::optional<std::pair<Evidence, std::string>> {
    std::string o = bare_version(other);
    if (o.empty() || mine.empty() || o == mine || !from_other_capture(c, at)) return std::nullopt;
    return std::pair{at, "firmware " + o + " vs " + mine};
  };
  if (bdf)
    if (const PciFunction* p = c.snap.find_pci(*bdf); p && p->firmware.has_value() && p->firmware->version)
      if (auto d = differs(*p->firmware->version, p->firmware.source)) return d;
  for (const NetDev& n : c.snap.netdevs)
    if (&n != self && bdf && n.driver.has_value() && n.driver->firmware_version &&
        n.pci_address() == *bdf)
      if (auto d = differs(*n.driver->firmware_version, n.driver.source)) return d;
  for (const RdmaDevice& r : c.snap.rdma_devices)
    if (r.fw_ver && ((bdf && r.bdf && *r.bdf == *bdf) || (rdma && r.name == *rdma)))
      if (auto d = differs(*r.fw_ver, r.source)) return d;
  return std::nullopt;
}

}  // namespace

namespace {

/// may_take_firmware and may_take_netdev_firmware: the slot's own earlier value (`version_of`
/// reads its firmware), then every other capture's firmware of the same function.
template <class T, class VersionOf>
bool may_take_firmware_into(Ctx& c, Collected<T>& slot, const std::string& subject,
                            const std::optional<std::string>& bdf, const std::optional<std::string>& rdma,
                            const NetDev* self, const std::optional<std::string>& version, const Evidence& source,
                            VersionOf version_of) {
  if (!version) return slot.reason_kind != ReasonKind::conflicting;
  std::string mine = bare_version(*version);
  if (!may_take(c, slot, subject, source, [&](const T& had) {
        std::optional<std::string> v = version_of(had);
        std::string o = v ? bare_version(*v) : "";
        return o.empty() || o == mine ? std::string() : "firmware " + o + " vs " + mine;
      }))
    return false;
  if (auto other = other_firmware(c, bdf, rdma, mine, self)) {
    slot.set_missing(report_conflict(c, subject, other->first, source, other->second), ReasonKind::conflicting);
    return false;
  }
  return true;
}

}  // namespace

bool may_take_firmware(Ctx& c, PciFunction& p, const std::optional<std::string>& version, const Evidence& source) {
  return may_take_firmware_into(c, p.firmware, p.bdf, p.bdf, std::nullopt, nullptr, version, source,
                                [](const FirmwareImage& had) { return had.version; });
}

bool may_take_netdev_firmware(Ctx& c, NetDev& n, const std::optional<std::string>& bdf,
                              const std::optional<std::string>& version, const Evidence& source) {
  return may_take_firmware_into(c, n.driver, n.name, bdf, n.rdma_device, &n, version, source,
                                [](const DriverInfo& had) { return had.firmware_version; });
}

void take_mtu(Ctx& c, NetDev& n, long long mtu, const Evidence& source) {
  if (may_take(c, n.mtu_bytes, n.name, source, [&](const int& had) {
        return had == mtu ? std::string() : "MTU " + std::to_string(had) + " vs " + std::to_string(mtu);
      }))
    build::netdev_mtu(n, mtu, source);
}

std::string link_difference(const PcieLinkState& had, const PcieLinkState& now) {
  const PcieLinkEnd& a = had.status;
  const PcieLinkEnd& b = now.status;
  bool speed = a.speed_gts && b.speed_gts && *a.speed_gts != *b.speed_gts;
  bool width = a.width_lanes && b.width_lanes && *a.width_lanes != *b.width_lanes;
  if (!speed && !width) return "";
  return "link status " + link_end_text(a) + " vs " + link_end_text(b);
}

bool may_take_port_state(Ctx& c, RdmaPort& p, const std::string& rdma, PortState now, const Evidence& source) {
  return may_take(c, p.state, rdma + " port " + std::to_string(p.port), source, [&](const PortState& had) {
    return had == now ? std::string()
                      : "port state " + std::string(to_string(had)) + " vs " + std::string(to_string(now));
  });
}

PciFunction* pci_for_target(Ctx& c, const std::optional<std::string>& printed) {
  std::optional<std::string> filed = is_bdf(c.target) ? normalize_bdf(c.target) : std::nullopt;
  std::optional<std::string> shown = printed ? normalize_bdf(*printed) : std::nullopt;
  // Filed under one PCI address, about another (`mlxconfig -d 86:00.0 q` saved as
  // mlxconfig_q@0000:3b:00.0.txt): either address would put one function's state on the other.
  if (filed && shown && *filed != *shown) {
    c.input.status = "error";
    std::string stem = c.file.name.substr(0, c.file.name.find('@'));
    c.input.messages.push_back(c.file.name + ": filed under " + *filed + ", but the output is about " + *shown +
                               " (" + cite(c.find(*printed)) + "): not used; if the output is right, name the file " +
                               stem + "@" + *shown + ".txt");
    return nullptr;
  }
  std::optional<std::string> bdf = filed ? filed : shown;
  if (!bdf) return nullptr;
  return &c.snap.pci(*bdf);
}

}  // namespace rk::capture
