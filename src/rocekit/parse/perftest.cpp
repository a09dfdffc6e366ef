#include "rocekit/parse/perftest.hpp"

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

bool is_rule(std::string_view t) {
  if (t.size() < 20) return false;
  for (char c : t) {
    if (c != '-') return false;
  }
  return true;
}

std::optional<std::uint32_t> u32(std::string_view s) {
  if (text::ends_with(s, "[B]")) s.remove_suffix(3);
  auto n = text::parse_uint(s);
  if (!n || *n > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

/// "A : v1 \t\tB : v2" -> pairs. Values are single words in perftest headers.
std::vector<PerftestField> header_pairs(std::string_view line) {
  std::string s(line);
  for (char& c : s) {
    if (c == '\t') c = ' ';
  }
  std::vector<PerftestField> out;
  std::string_view rest = s;
  std::string pending_key;
  std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return out;
  pending_key = std::string(text::trim(rest.substr(0, colon)));
  rest = rest.substr(colon + 1);
  while (true) {
    colon = rest.find(':');
    if (colon == std::string_view::npos) {
      out.push_back(PerftestField{pending_key, std::string(text::trim(rest))});
      break;
    }
    std::vector<std::string_view> w = text::words(rest.substr(0, colon));
    if (w.empty()) {  // "key : : x" - value is empty
      out.push_back(PerftestField{pending_key, std::string()});
      pending_key.clear();
    } else {
      out.push_back(PerftestField{pending_key, std::string(w[0])});
      std::string key;
      for (std::size_t i = 1; i < w.size(); ++i) {
        if (!key.empty()) key += ' ';
        key += w[i];
      }
      pending_key = key;
    }
    rest = rest.substr(colon + 1);
  }
  return out;
}

void apply(const PerftestField& f, Perftest& p) {
  const std::string& k = f.key;
  const std::string& v = f.value;
  if (k == "Device") p.rdma_device = v;
  if (k == "Link type") p.link_type = v;
  if (k == "Mtu") p.mtu_bytes = u32(v);
  if (k == "GID index") p.gid_index = u32(v);
  if (k == "TOS") p.tos = u32(v);
  if (k == "Transport type") p.transport_type = v;
  if (k == "Connection type") p.connection_type = v;
  if (k == "Number of qps") p.number_of_qps = u32(v);
  if (k == "rdma_cm QPs") p.rdma_cm_qps = v == "ON" ? std::optional<bool>(true)
                                       : v == "OFF" ? std::optional<bool>(false)
                                                    : std::nullopt;
  if (k == "Data ex. method") p.data_exchange_method = v;
}

}  // namespace

Result<Parsed<Perftest>> parse_perftest(std::string_view text) {
  Perftest out;
  std::vector<Warning> warnings;
  enum class Part { before, header, after } part = Part::before;
  bool results_header = false;
  bool in_remote = false;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::size_t line_no = i + 1;
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    if (is_rule(t)) {
      if (part == Part::before) {
        part = Part::header;
      } else if (part == Part::header) {
        part = Part::after;
      }
      continue;
    }
    switch (part) {
      case Part::before:
        if (text::contains(t, "Requested mtu is higher than active mtu")) out.mtu_fallback = true;
        out.messages.emplace_back(t);
        break;
      case Part::header:
        if (!text::contains(t, ":")) {
          if (!out.test_name) {
            out.test_name = std::string(t);
          } else {
            warnings.push_back(Warning{line_no, "unrecognised_line", "header line without ':'"});
          }
          break;
        }
        for (PerftestField& f : header_pairs(t)) {
          apply(f, out);
          out.header.push_back(std::move(f));
        }
        break;
      case Part::after: {
        if (text::starts_with(t, "local address:")) {
          in_remote = false;
        } else if (text::starts_with(t, "remote address:")) {
          in_remote = true;
        } else if (auto g = text::value_after(t, "GID:")) {
          (in_remote ? out.remote_gids : out.local_gids).emplace_back(*g);
        } else if (text::starts_with(t, "#bytes")) {
          results_header = true;
        } else if (results_header) {
          std::vector<std::string_view> w = text::words(t);
          auto bytes = w.size() >= 2 ? text::parse_uint(w[0]) : std::nullopt;
          auto iters = w.size() >= 2 ? text::parse_uint(w[1]) : std::nullopt;
          if (bytes && iters) {
            PerftestResult r;
            r.bytes = *bytes;
            r.iterations = *iters;
            if (w.size() >= 3) r.bw_peak_mb_per_sec = text::parse_double(w[2]);
            if (w.size() >= 4) r.bw_average_mb_per_sec = text::parse_double(w[3]);
            if (w.size() >= 5) r.msg_rate_mpps = text::parse_double(w[4]);
            out.results.push_back(r);
          } else {
            out.messages.emplace_back(t);
          }
        } else {
          out.messages.emplace_back(t);
        }
        break;
      }
    }
  }
  if (out.header.empty()) {
    return rk::unexpected(ErrorKind::malformed_input, "no perftest parameter header found");
  }
  if (part == Part::header) {
    warnings.push_back(Warning{ls.size(), "truncated", "output ends inside the parameter header"});
  } else if (out.results.empty()) {
    warnings.push_back(
        Warning{ls.size(), "truncated", "output ends before the results table; no bandwidth"});
  }
  return Parsed<Perftest>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const Perftest& v) {
  nlohmann::json hdr = nlohmann::json::array();
  for (const PerftestField& f : v.header) hdr.push_back({{"key", f.key}, {"value", f.value}});
  nlohmann::json res = nlohmann::json::array();
  for (const PerftestResult& r : v.results) {
    res.push_back({{"bytes", r.bytes},
                   {"iterations", r.iterations},
                   {"bw_peak_mb_per_sec", r.bw_peak_mb_per_sec},
                   {"bw_average_mb_per_sec", r.bw_average_mb_per_sec},
                   {"msg_rate_mpps", r.msg_rate_mpps}});
  }
  return {{"test_name", v.test_name},
          {"rdma_device", v.rdma_device},
          {"link_type", v.link_type},
          {"mtu_bytes", v.mtu_bytes},
          {"gid_index", v.gid_index},
          {"tos", v.tos},
          {"transport_type", v.transport_type},
          {"connection_type", v.connection_type},
          {"number_of_qps", v.number_of_qps},
          {"rdma_cm_qps", v.rdma_cm_qps},
          {"data_exchange_method", v.data_exchange_method},
          {"mtu_fallback", v.mtu_fallback},
          {"header", hdr},
          {"messages", v.messages},
          {"local_gids", v.local_gids},
          {"remote_gids", v.remote_gids},
          {"results", res}};
}

bool looks_like_perftest(std::string_view text) {
  std::string_view head = text.substr(0, 8192);
  return (text::contains(head, " BW Test") || text::contains(head, " Latency Test")) &&
         text::contains(head, "Link type");
}

}  // namespace rk::parse
