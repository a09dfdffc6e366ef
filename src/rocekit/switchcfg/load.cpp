// Dialect detection, file loading, and small model helpers.
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {

std::string_view to_string(Dialect d) {
  switch (d) {
    case Dialect::sonic_config_db: return "sonic_config_db";
    case Dialect::nvue_config_json: return "nvue_config_json";
    case Dialect::nvue_show_roce: return "nvue_show_roce";
    case Dialect::arista_eos: return "arista_eos";
  }
  return "unknown";
}

const QueueConfig* PortQos::queue(int q) const {
  auto it = queues.find(q);
  return it == queues.end() ? nullptr : &it->second;
}

const PortQos* SwitchQos::find_port(std::string_view n) const {
  const PortQos* any = nullptr;
  for (const PortQos& p : ports) {
    if (p.name == n) return &p;
    if (p.name == "*") any = &p;
  }
  return any;
}

namespace {

bool json_like(std::string_view text) {
  std::string_view t = text::trim(text);
  return !t.empty() && (t.front() == '{' || t.front() == '[');
}

}  // namespace

std::optional<Dialect> detect_dialect(std::string_view text) {
  if (json_like(text)) {
    nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded()) {
      // Broken JSON: still route it to the parser that will name the error line.
      return text::contains(text, "\"set\"") ? Dialect::nvue_config_json : Dialect::sonic_config_db;
    }
    if (j.is_array()) {
      for (const auto& doc : j)
        if (doc.is_object() && doc.contains("set")) return Dialect::nvue_config_json;
      return std::nullopt;
    }
    if (j.is_object()) {
      if (j.contains("set") || (j.contains("qos") && j["qos"].is_object() && !j.contains("PORT_QOS_MAP")))
        return Dialect::nvue_config_json;
      static const char* k_tables[] = {"DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP", "PORT_QOS_MAP", "QUEUE",
                                       "WRED_PROFILE", "SCHEDULER", "BUFFER_PG", "PFC_WD", "PORT",
                                       "TC_TO_PRIORITY_GROUP_MAP", "MAP_PFC_PRIORITY_TO_QUEUE"};
      for (auto it = j.begin(); it != j.end(); ++it) {
        std::string t = it.key().substr(0, it.key().find('|'));
        for (const char* k : k_tables)
          if (t == k) return Dialect::sonic_config_db;
      }
    }
    return std::nullopt;
  }
  bool eos = false;
  for (std::string_view raw : text::lines(text)) {
    std::string_view l = text::trim(raw);
    if (text::starts_with(l, "RoCE PCP/DSCP->SP mapping") || text::starts_with(l, "RoCE SP->TC mapping") ||
        (text::contains(l, "nv show") && text::contains(l, "qos roce")))
      return Dialect::nvue_show_roce;
    if (text::starts_with(l, "qos map ") || text::starts_with(l, "qos profile ") ||
        text::starts_with(l, "priority-flow-control ") || text::starts_with(l, "service-profile ") ||
        text::starts_with(l, "random-detect ecn") || text::starts_with(l, "tx-queue ") ||
        text::starts_with(l, "uc-tx-queue ") || text::starts_with(l, "qos trust "))
      eos = true;
  }
  if (eos) return Dialect::arista_eos;
  return std::nullopt;
}

Result<SwitchQos> parse_switch_config(std::string_view input, const std::string& file) {
  if (text::looks_binary(input))
    return unexpected(ErrorKind::unsupported, "binary data, not a switch configuration", file);
  // JSON inputs may carry a `#` provenance header (testdata); text dialects skip `#` lines.
  const std::string blanked = detail::blank_comment_header(input);
  const std::string_view text = json_like(blanked) ? std::string_view(blanked) : input;
  if (text::looks_binary(text))
    return unexpected(ErrorKind::unsupported, "binary data, not a switch configuration", file);
  std::optional<Dialect> d = detect_dialect(text);
  if (!d)
    return unexpected(ErrorKind::unsupported,
                      "not a recognised switch configuration (SONiC config_db.json, NVUE `nv config "
                      "show -o json` or `nv show qos roce`, Arista EOS running-config)",
                      file);
  switch (*d) {
    case Dialect::sonic_config_db: return parse_sonic_config_db(text, file);
    case Dialect::nvue_config_json: return parse_nvue_config_json(text, file);
    case Dialect::nvue_show_roce: return parse_nvue_show_roce(text, file);
    case Dialect::arista_eos: return parse_arista_eos(text, file);
  }
  return unexpected(ErrorKind::unsupported, "unknown dialect", file);
}

namespace detail {

Result<std::string> read_small_file(const std::filesystem::path& path, std::uintmax_t max_bytes) {
  std::error_code ec;
  std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st))
    return unexpected(ErrorKind::not_found, "no such file", path.string());
  if (std::filesystem::is_directory(st))
    return unexpected(ErrorKind::io, "is a directory, expected a file", path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(ErrorKind::io, "cannot open for reading", path.string());
  std::string data;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    data.append(buf, static_cast<std::size_t>(in.gcount()));
    if (data.size() > max_bytes)
      return unexpected(ErrorKind::unsupported, "larger than " + std::to_string(max_bytes >> 20) + " MiB",
                        path.string());
  }
  if (in.bad()) return unexpected(ErrorKind::io, "read error", path.string());
  return data;
}

}  // namespace detail

Result<SwitchQos> load_switch_config(const std::filesystem::path& path) {
  Result<std::string> data = detail::read_small_file(path, std::uintmax_t{64} << 20);
  if (!data) return unexpected(data.error());
  return parse_switch_config(*data, path.string());
}

}  // namespace rk::switchcfg
