#include "rocekit/parse/proc_cmdline.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

/// kstrtobool (lib/kstrtox.c): 1/y/Y/t/T and "on" true, 0/n/N/f/F and "off" false.
std::optional<bool> kernel_bool(std::string_view v) {
  if (v.empty()) return std::nullopt;
  std::string l = text::to_lower(v);
  if (l == "on") return true;
  if (l == "off") return false;
  switch (l[0]) {
    case '1': case 'y': case 't': return true;
    case '0': case 'n': case 'f': return false;
    default: return std::nullopt;
  }
}

bool iommu_word(std::string_view w) {
  return w.starts_with("iommu=") || w.starts_with("iommu.") || w.starts_with("intel_iommu=") ||
         w.starts_with("amd_iommu=");
}

}  // namespace

CmdlineIommu iommu_from_cmdline(std::string_view cmdline) {
  CmdlineIommu out;
  std::optional<std::string> off;       // the parameter that disables the IOMMU
  std::optional<bool> passthrough;      // iommu=pt / nopt, iommu.passthrough=
  std::string passthrough_word;
  bool intel_on = false;
  for (std::string_view w : text::words(cmdline)) {
    if (!iommu_word(w)) continue;
    out.parameters.emplace_back(w);
    std::size_t eq = w.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = w.substr(0, eq), value = w.substr(eq + 1);
    if (key == "iommu.passthrough") {
      if (std::optional<bool> b = kernel_bool(value)) {
        passthrough = *b;
        passthrough_word = std::string(w);
      }
      continue;
    }
    if (key != "iommu" && key != "intel_iommu" && key != "amd_iommu") continue;
    for (std::string_view opt : text::split(value, ',')) {
      if (opt == "off") {
        off = std::string(w);
      } else if (key == "iommu" && opt == "pt") {
        passthrough = true;
        passthrough_word = std::string(w);
      } else if (key == "iommu" && opt == "nopt") {
        passthrough = false;
        passthrough_word = std::string(w);
      } else if (key == "intel_iommu" && opt == "on") {
        intel_on = true;
      }
    }
  }
  if (off) {
    out.mode = "off";
    out.why = *off + " (no IOMMU driver runs: DMA is not translated)";
  } else if (passthrough) {
    out.mode = *passthrough ? "passthrough" : "translated";
    out.why = passthrough_word + (*passthrough ? " (DMA bypasses the IOMMU by default)" : " (DMA is translated by default)");
  } else if (intel_on) {
    out.mode = "translated";
    out.why = "intel_iommu=on without iommu=pt (VT-d on, DMA translated unless the kernel is built with "
              "CONFIG_IOMMU_DEFAULT_PASSTHROUGH)";
  }
  return out;
}

Result<Parsed<ProcCmdline>> parse_proc_cmdline(std::string_view text) {
  Parsed<ProcCmdline> out;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    if (out.value.line)
      return rk::unexpected(ErrorKind::malformed_input,
                            "line " + std::to_string(i + 1) + ": a second line: /proc/cmdline is one line (`cat /proc/cmdline`)");
    out.value.line = i + 1;
    out.value.cmdline = std::string(t);
  }
  if (!out.value.line) return rk::unexpected(ErrorKind::malformed_input, "empty: no `cat /proc/cmdline` output");
  out.value.iommu = iommu_from_cmdline(out.value.cmdline);
  return out;
}

nlohmann::json to_json(const ProcCmdline& v) {
  return {{"cmdline", v.cmdline},
          {"line", v.line},
          {"iommu_parameters", v.iommu.parameters},
          {"iommu_mode", v.iommu.mode},
          {"iommu_why", v.iommu.why}};
}

bool looks_like_proc_cmdline(std::string_view text) {
  std::string_view first;
  for (std::string_view l : text::lines(text.substr(0, 8192))) {
    std::string_view t = text::trim(l);
    if (t.empty()) continue;
    if (!first.empty()) return false;  // one line only
    first = t;
  }
  if (first.empty() || first.starts_with('#') || first.starts_with('[')) return false;
  bool marker = false;
  for (std::string_view w : text::words(first)) {
    if (w.starts_with("BOOT_IMAGE=") || w.starts_with("root=") || w.starts_with("console=") || iommu_word(w))
      marker = true;
    // Kernel parameters are "name[=value]" words; a sentence or a table is not a command line.
    if (w.find(':') != std::string_view::npos && w.find('=') == std::string_view::npos) return false;
  }
  return marker;
}

}  // namespace rk::parse
