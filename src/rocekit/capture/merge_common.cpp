// Helpers of the per-tool capture merges (merge.hpp).
#include "rocekit/capture/merge.hpp"

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
  c.input.status = "ignored";
  std::string mst = c.target.find("mst") != std::string::npos && !is_bdf(c.target)
                        ? " (" + c.target + " is an MST device that no `mst status` of this capture maps to a PCI address)"
                        : "";
  c.input.messages.push_back(c.file.name + ": cannot tell which " + what + " this output is about" + mst +
                             ": name the file <tool>@<" + what + ">.txt");
}

namespace {

std::string cite(const Evidence& e) { return e.file + (e.line ? ":" + std::to_string(e.line) : std::string()); }

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

PciFunction* pci_for_target(Ctx& c, const std::optional<std::string>& printed) {
  std::optional<std::string> bdf;
  if (is_bdf(c.target)) bdf = normalize_bdf(c.target);
  if (!bdf && printed) bdf = normalize_bdf(*printed);
  if (!bdf) return nullptr;
  return &c.snap.pci(*bdf);
}

}  // namespace rk::capture
