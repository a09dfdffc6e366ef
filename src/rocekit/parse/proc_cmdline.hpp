// Parser for `cat /proc/cmdline`, tool id "proc_cmdline": the kernel command line, one line of
// space-separated parameters ("BOOT_IMAGE=/vmlinuz-5.15.0-101-generic root=... ro iommu=pt").
// rocekit reads the IOMMU parameters of Documentation/admin-guide/kernel-parameters.txt:
//   iommu=            [X86] comma list; "off" (no IOMMU), "pt" (passthrough mode by default,
//                     "Equivalent to iommu.passthrough=1"), "nopt" (translated); arch/x86/kernel/pci-dma.c iommu_setup()
//   iommu.passthrough= [ARM64, X86] "0 - Use IOMMU translation for DMA. 1 - Bypass the IOMMU
//                     for DMA. unset - Use value of CONFIG_IOMMU_DEFAULT_PASSTHROUGH."
//                     (drivers/iommu/iommu.c iommu_set_def_domain_type(), kstrtobool)
//   intel_iommu=      [DMAR] comma list; "on" enables VT-d, "off" disables it
//   amd_iommu=        [HW,X86-64] comma list; "off" disables AMD-Vi. There is no "on": the
//                     driver prints "Unknown option - 'on'" and ignores it (drivers/iommu/amd/init.c)
//   iommu.strict=     kept as written (TLB invalidation policy, not the domain type)
// The same words follow "Kernel command line: " in dmesg (parse/dmesg.hpp reads them there).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// What the IOMMU parameters of one command line say about the default DMA domain.
struct CmdlineIommu {
  /// Every IOMMU parameter as written, in order: "intel_iommu=on", "iommu=pt".
  std::vector<std::string> parameters;
  /// "translated", "passthrough" or "off"; nullopt when no parameter decides it (the kernel's
  /// build default does: CONFIG_IOMMU_DEFAULT_PASSTHROUGH, CONFIG_INTEL_IOMMU_DEFAULT_ON).
  std::optional<std::string> mode;
  /// The parameter that decided `mode` and why, for the user: "iommu=pt (passthrough by default)".
  std::string why;
};

/// Reads the IOMMU parameters of a command line's words (later parameters override earlier ones
/// of the same kind; an explicit "off" wins over everything: no IOMMU driver then runs).
CmdlineIommu iommu_from_cmdline(std::string_view cmdline);

struct ProcCmdline {
  std::string cmdline;     ///< the line as read (trimmed)
  std::size_t line = 0;    ///< its 1-based line
  CmdlineIommu iommu;
};

/// Errors when the text is empty, or has more than one non-blank line (a /proc/cmdline is one
/// line: several lines are not that file).
Result<Parsed<ProcCmdline>> parse_proc_cmdline(std::string_view text);
nlohmann::json to_json(const ProcCmdline& v);
/// One line with a `BOOT_IMAGE=`, `root=` or `console=` word, or an IOMMU parameter.
bool looks_like_proc_cmdline(std::string_view text);

}  // namespace rk::parse
