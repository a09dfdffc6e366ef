#include "rocekit/parse/show_gids.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

bool is_dotted_ipv4(std::string_view s) {
  std::vector<std::string_view> parts = text::split(s, '.');
  if (parts.size() != 4) return false;
  for (std::string_view p : parts) {
    if (p.empty() || p.size() > 3) return false;
    std::optional<std::uint64_t> v = text::parse_uint(p);
    if (!v || *v > 255) return false;
  }
  return true;
}

std::optional<std::uint32_t> small_uint(std::string_view s) {
  std::optional<std::uint64_t> v = text::parse_uint(s);
  if (!v || *v > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

bool is_header(const std::vector<std::string_view>& w) {
  return !w.empty() && (w[0] == "DEV" || w[0] == "ib_dev");
}

// DEV PORT INDEX GID [IPv4] [VER] [DEV]
bool parse_mlnx_row(const std::vector<std::string_view>& w, GidEntry& e, std::string& why) {
  std::optional<std::uint32_t> port = w.size() >= 4 ? small_uint(w[1]) : std::nullopt;
  std::optional<std::uint32_t> idx = w.size() >= 4 ? small_uint(w[2]) : std::nullopt;
  if (!port || !idx || !text::contains(w[3], ":")) {
    why = "not a GID table row";
    return false;
  }
  e.rdma_device = std::string(w[0]);
  e.port = *port;
  e.gid_index = *idx;
  e.gid = std::string(w[3]);
  for (std::size_t i = 4; i < w.size(); ++i) {
    if (!e.ipv4 && !e.type && !e.netdev && is_dotted_ipv4(w[i])) {
      e.ipv4 = std::string(w[i]);
    } else if (!e.type && !e.netdev && gid_type_from_text(w[i]) && w[i].size() == 2) {
      e.type = gid_type_from_text(w[i]);
    } else if (!e.netdev) {
      e.netdev = std::string(w[i]);
    } else {
      why = "extra column '" + std::string(w[i]) + "'";
      return false;
    }
  }
  return true;
}

// ib_dev net_dev port idx gid type(2 words) [ip] link
bool parse_hiroce_row(const std::vector<std::string_view>& w, GidEntry& e, std::string& why) {
  std::optional<std::uint32_t> port = w.size() >= 5 ? small_uint(w[2]) : std::nullopt;
  std::optional<std::uint32_t> idx = w.size() >= 5 ? small_uint(w[3]) : std::nullopt;
  if (!port || !idx || !text::contains(w[4], ":")) {
    why = "not a GID table row";
    return false;
  }
  e.rdma_device = std::string(w[0]);
  e.netdev = std::string(w[1]);
  e.port = *port;
  e.gid_index = *idx;
  e.gid = std::string(w[4]);
  std::size_t i = 5;
  if (i + 1 < w.size() && w[i] == "RoCE") {
    e.type = gid_type_from_text(std::string(w[i]) + " " + std::string(w[i + 1]));
    i += 2;
  }
  if (i < w.size() && is_dotted_ipv4(w[i])) e.ipv4 = std::string(w[i++]);
  if (i < w.size()) {
    if (w[i] == "up") {
      e.link_up = true;
    } else if (w[i] == "down") {
      e.link_up = false;
    } else {
      why = "unknown link column '" + std::string(w[i]) + "'";
      return false;
    }
    ++i;
  }
  if (i != w.size()) {
    why = "extra columns";
    return false;
  }
  return true;
}

}  // namespace

std::string_view to_string(GidTableFormat f) {
  switch (f) {
    case GidTableFormat::mlnx_show_gids:
      return "mlnx_show_gids";
    case GidTableFormat::hiroce3_gids:
      return "hiroce3_gids";
  }
  return "unknown";
}

Result<Parsed<GidTable>> parse_show_gids(std::string_view text) {
  if (text::looks_binary(text)) return unexpected(ErrorKind::malformed_input, "binary input");
  Parsed<GidTable> out;
  bool header = false;
  bool format_known = false;
  std::size_t trailer_line = 0;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::size_t line = i + 1;
    std::string_view t = text::trim(ls[i]);
    if (t.empty() || t.starts_with("---")) continue;
    std::vector<std::string_view> w = text::words(t);
    if (is_header(w)) {
      header = true;
      format_known = true;
      out.value.format =
          w[0] == "ib_dev" ? GidTableFormat::hiroce3_gids : GidTableFormat::mlnx_show_gids;
      continue;
    }
    if (std::optional<std::string_view> n = text::value_after(t, "n_gids_found=")) {
      out.value.n_gids_found = text::parse_uint(*n);
      if (!out.value.n_gids_found) {
        out.warnings.push_back({line, "bad_number", "bad n_gids_found value"});
      }
      trailer_line = line;
      continue;
    }
    if (!format_known && w.size() >= 5) {
      out.value.format =
          small_uint(w[1]) ? GidTableFormat::mlnx_show_gids : GidTableFormat::hiroce3_gids;
      format_known = true;
    }
    GidEntry e;
    std::string why;
    bool ok = out.value.format == GidTableFormat::mlnx_show_gids ? parse_mlnx_row(w, e, why)
                                                                 : parse_hiroce_row(w, e, why);
    if (!ok) {
      out.warnings.push_back({line, "unrecognised_line", why});
      continue;
    }
    if (trailer_line != 0) {
      out.warnings.push_back({line, "unrecognised_line", "GID row after n_gids_found"});
    }
    e.line = line;
    out.value.entries.push_back(std::move(e));
  }
  if (!header && out.value.entries.empty() && trailer_line == 0) {
    return unexpected(ErrorKind::malformed_input, "no GID table header or rows found");
  }
  if (out.value.format == GidTableFormat::mlnx_show_gids) {
    if (trailer_line == 0) {
      out.warnings.push_back(
          {ls.size(), "truncated", "no n_gids_found line: the GID listing may be cut off"});
    } else if (out.value.n_gids_found && *out.value.n_gids_found != out.value.entries.size()) {
      out.warnings.push_back({trailer_line, "count_mismatch",
                              "n_gids_found says " + std::to_string(*out.value.n_gids_found) +
                                  ", rows read " + std::to_string(out.value.entries.size())});
    }
  }
  return out;
}

nlohmann::json to_json(const GidTable& v) {
  nlohmann::json entries = nlohmann::json::array();
  for (const GidEntry& e : v.entries) {
    nlohmann::json type = nullptr;
    if (e.type) type = std::string(to_string(*e.type));
    entries.push_back({{"rdma_device", e.rdma_device},
                       {"port", e.port},
                       {"gid_index", e.gid_index},
                       {"gid", e.gid},
                       {"ipv4", e.ipv4},
                       {"type", type},
                       {"netdev", e.netdev},
                       {"link_up", e.link_up}});
  }
  return {{"format", std::string(to_string(v.format))},
          {"entries", entries},
          {"n_gids_found", v.n_gids_found}};
}

bool looks_like_show_gids(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::vector<std::string_view> w = text::words(l);
    if (w.size() >= 4 && w[0] == "DEV" && w[1] == "PORT" && w[2] == "INDEX" && w[3] == "GID") {
      return true;
    }
    if (w.size() >= 5 && w[0] == "ib_dev" && w[1] == "net_dev" && w[4] == "gid") return true;
  }
  return false;
}

}  // namespace rk::parse
