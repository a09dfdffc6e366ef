// Dialect detection, file loading, and small model helpers.
#include <fnmatch.h>

#include <fstream>
#include <sstream>

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
    case Dialect::cisco_nxos: return "cisco_nxos";
    case Dialect::juniper_junos: return "juniper_junos";
    case Dialect::nvue_commands: return "nvue_commands";
    case Dialect::dell_sonic_cli: return "dell_sonic_cli";
    case Dialect::onyx_show_roce: return "onyx_show_roce";
  }
  return "unknown";
}

const QueueConfig* PortQos::queue(int q) const {
  auto it = queues.find(q);
  return it == queues.end() ? nullptr : &it->second;
}

const PortQos* SwitchQos::find_port(std::string_view n) const {
  const PortQos* any = nullptr;
  const PortQos* wild = nullptr;
  const std::string wanted(n);
  for (const PortQos& p : ports) {
    if (p.name == n) return &p;
    if (p.name == "*") any = &p;
    // A wildcard entry (Junos `et-*`, `xe-0/0/*`): the most specific match (longest pattern).
    else if (p.name.find_first_of("*?[") != std::string::npos && ::fnmatch(p.name.c_str(), wanted.c_str(), 0) == 0 &&
             (!wild || p.name.size() > wild->name.size()))
      wild = &p;
  }
  return wild ? wild : any;
}

namespace {

bool json_like(std::string_view text) {
  std::string_view t = text::trim(text);
  return !t.empty() && (t.front() == '{' || t.front() == '[');
}

}  // namespace

Result<SwitchQos> parse_switch_config(std::string_view input, const std::string& file) {
  if (text::looks_binary(input))
    return unexpected(ErrorKind::unsupported, "binary data, not a switch configuration", file);
  // JSON inputs may carry a `#` provenance header (testdata); text dialects skip `#` lines.
  const std::string blanked = detail::blank_comment_header(input);
  const std::string_view text = json_like(blanked) ? std::string_view(blanked) : input;
  if (text::looks_binary(text))
    return unexpected(ErrorKind::unsupported, "binary data, not a switch configuration", file);
  Result<Dialect> d = detect_dialect_of(text, file);
  if (!d) return unexpected(d.error());
  switch (*d) {
    case Dialect::sonic_config_db: return parse_sonic_config_db(text, file);
    case Dialect::nvue_config_json: return parse_nvue_config_json(text, file);
    case Dialect::nvue_show_roce: return parse_nvue_show_roce(text, file);
    case Dialect::arista_eos: return parse_arista_eos(text, file);
    case Dialect::cisco_nxos: return parse_cisco_nxos(text, file);
    case Dialect::juniper_junos: return parse_juniper_junos(text, file);
    case Dialect::nvue_commands: return parse_nvue_commands(text, file);
    case Dialect::dell_sonic_cli: return parse_dell_sonic(text, file);
    case Dialect::onyx_show_roce: return parse_onyx_show_roce(text, file);
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
