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
  c.input.messages.push_back(c.file.name + ": cannot tell which " + what +
                             " this output is about: name the file <tool>@<" + what + ">.txt");
}

PciFunction* pci_for_target(Ctx& c, const std::optional<std::string>& printed) {
  std::optional<std::string> bdf;
  if (is_bdf(c.target)) bdf = normalize_bdf(c.target);
  if (!bdf && printed) bdf = normalize_bdf(*printed);
  if (!bdf) return nullptr;
  return &c.snap.pci(*bdf);
}

}  // namespace rk::capture
