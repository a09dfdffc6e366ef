#include "rocekit/parse/cma_roce_mode.hpp"

#include <utility>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

std::string_view to_string(CmRoceMode v) {
  switch (v) {
    case CmRoceMode::v1:
      return "v1";
    case CmRoceMode::v2:
      return "v2";
  }
  return "?";
}

namespace {

struct Invocation {
  std::optional<std::string> device;
  std::optional<std::uint32_t> port;
  std::optional<std::uint32_t> set_mode;
};

std::optional<std::uint32_t> small_uint(std::string_view s) {
  auto n = text::parse_uint(s);
  if (!n || *n > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

/// "$ sudo cma_roce_mode -d mlx5_0 -p 1 -m 2" -> its options; nullopt if not a prompt line.
std::optional<Invocation> prompt(std::string_view t) {
  std::vector<std::string_view> w = text::words(t);
  std::size_t i = 0;
  while (i < w.size() && (w[i] == "$" || w[i] == "#" || w[i] == "sudo")) ++i;
  if (i >= w.size() || !(w[i] == "cma_roce_mode" || text::ends_with(w[i], "/cma_roce_mode"))) {
    return std::nullopt;
  }
  Invocation inv;
  for (std::size_t k = i + 1; k + 1 < w.size(); ++k) {
    if (w[k] == "-d") inv.device = std::string(w[k + 1]);
    if (w[k] == "-p") inv.port = small_uint(w[k + 1]);
    if (w[k] == "-m") inv.set_mode = small_uint(w[k + 1]);
  }
  return inv;
}

}  // namespace

Result<Parsed<CmaRoceMode>> parse_cma_roce_mode(std::string_view text) {
  CmaRoceMode out;
  std::vector<Warning> warnings;
  std::optional<Invocation> cur;
  bool any = false;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    if (auto inv = prompt(t)) {
      cur = std::move(inv);
      any = true;
      continue;
    }
    std::optional<CmRoceMode> mode;
    if (t == "IB/RoCE v1" || t == "RoCE v1") mode = CmRoceMode::v1;
    if (t == "RoCE v2") mode = CmRoceMode::v2;
    if (mode) {
      any = true;
      CmaRoceModeReading r;
      if (cur) {
        r.rdma_device = cur->device;
        r.port = cur->port;
        r.set_mode = cur->set_mode;
      }
      r.mode = *mode;
      r.line = i + 1;
      if (!out.initial_mode && !r.set_mode) out.initial_mode = *mode;
      out.final_mode = *mode;
      out.readings.push_back(std::move(r));
      continue;
    }
    std::string low = text::to_lower(t);
    if (text::contains(low, "rdma_cm") || text::contains(low, "configfs") ||
        text::starts_with(low, "usage") || text::contains(low, "error") ||
        text::contains(low, "failed") || text::contains(low, "no such")) {
      any = true;
      out.errors.emplace_back(t);
      continue;
    }
    warnings.push_back(
        Warning{i + 1, "unrecognised_line", "unrecognised line: " + std::string(t.substr(0, 80))});
  }
  if (!any) return rk::unexpected(ErrorKind::malformed_input, "no cma_roce_mode output recognised");
  return Parsed<CmaRoceMode>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const CmaRoceMode& v) {
  nlohmann::json rs = nlohmann::json::array();
  for (const CmaRoceModeReading& r : v.readings) {
    rs.push_back({{"rdma_device", r.rdma_device},
                  {"port", r.port},
                  {"set_mode", r.set_mode},
                  {"mode", to_string(r.mode)},
                  {"line", r.line}});
  }
  auto mode_json = [](const std::optional<CmRoceMode>& m) {
    return m ? nlohmann::json(to_string(*m)) : nlohmann::json();
  };
  return {{"readings", rs},
          {"initial_mode", mode_json(v.initial_mode)},
          {"final_mode", mode_json(v.final_mode)},
          {"errors", v.errors}};
}

bool looks_like_cma_roce_mode(std::string_view text) {
  std::string_view head = text.substr(0, 4096);
  if (text::contains(head, "cma_roce_mode")) return true;
  std::string_view t = text::trim(head);
  return t == "RoCE v2" || t == "IB/RoCE v1";
}

}  // namespace rk::parse
