#include "rocekit/parse/ibdev2netdev.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

bool looks_like_bdf(std::string_view s) {
  return text::contains(s, ":") && text::contains(s, ".") && s.size() <= 16;
}

std::string join(const std::vector<std::string_view>& w, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < w.size(); ++i) {
    if (!out.empty()) out.push_back(' ');
    out += w[i];
  }
  return out;
}

// Parses the -v middle part: `(MT4119 - MCX516A-CCAT) CX516A - ConnectX-5 ... fw 16.35.2000`.
void parse_verbose_middle(const std::vector<std::string_view>& w, std::size_t from, std::size_t to,
                          Ibdev2netdevEntry& e) {
  std::size_t i = from;
  if (i < to && w[i].starts_with("(")) {
    std::size_t close = i;
    while (close < to && !w[close].ends_with(")")) ++close;
    if (close < to) {
      std::string inner = join(w, i, close + 1);
      inner = inner.substr(1, inner.size() - 2);
      std::size_t dash = inner.find(" - ");
      if (dash == std::string::npos) {
        e.device_id = inner;
      } else {
        e.device_id = inner.substr(0, dash);
        e.psid = inner.substr(dash + 3);
      }
      i = close + 1;
    }
  }
  std::size_t fw = to;
  for (std::size_t k = to; k > i; --k) {
    if (w[k - 1] == "fw" && k < to) {
      fw = k - 1;
      break;
    }
  }
  if (fw < to) {
    e.fw_ver = std::string(w[fw + 1]);
  }
  std::string desc = join(w, i, fw);
  if (!desc.empty()) e.description = desc;
}

}  // namespace

Result<Parsed<Ibdev2netdev>> parse_ibdev2netdev(std::string_view text) {
  if (text::looks_binary(text)) return unexpected(ErrorKind::malformed_input, "binary input");
  Parsed<Ibdev2netdev> out;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t li = 0; li < ls.size(); ++li) {
    std::size_t line = li + 1;
    std::string_view t = text::trim(ls[li]);
    if (t.empty()) continue;
    std::size_t arrow = t.find("==>");
    if (arrow == std::string_view::npos) {
      out.warnings.push_back({line, "unrecognised_line", "no '==>' in line"});
      continue;
    }
    std::vector<std::string_view> left = text::words(t.substr(0, arrow));
    std::vector<std::string_view> right = text::words(t.substr(arrow + 3));
    // Last "port <n>" on the left side.
    std::size_t port_at = left.size();
    for (std::size_t k = left.size(); k >= 2; --k) {
      if (left[k - 2] == "port" && text::parse_uint(left[k - 1])) {
        port_at = k - 2;
        break;
      }
    }
    if (port_at == left.size() || port_at == 0) {
      out.warnings.push_back({line, "unrecognised_line", "no '<dev> port <n>' before '==>'"});
      continue;
    }
    Ibdev2netdevEntry e;
    std::optional<std::uint64_t> port = text::parse_uint(left[port_at + 1]);
    if (!port || *port > 0xffffffffULL) {
      out.warnings.push_back({line, "bad_number", "bad port number"});
      continue;
    }
    e.port = static_cast<std::uint32_t>(*port);
    if (port_at + 2 < left.size()) {
      std::string_view st = left[port_at + 2];
      if (st.size() >= 2 && st.front() == '(' && st.back() == ')') {
        e.port_state = port_state_from_text(st.substr(1, st.size() - 2));
      }
      if (!e.port_state || port_at + 3 < left.size()) {
        out.warnings.push_back({line, "bad_value", "unexpected text after the port number"});
      }
    }
    if (port_at >= 2 && looks_like_bdf(left[0])) {
      e.bdf = std::string(left[0]);
      e.rdma_device = std::string(left[1]);
      parse_verbose_middle(left, 2, port_at, e);
    } else {
      e.rdma_device = std::string(left[0]);
      if (port_at > 1) parse_verbose_middle(left, 1, port_at, e);
    }
    e.name_bdf = bdf_from_rdma_name(e.rdma_device);
    std::size_t r = 0;
    if (r < right.size() && !right[r].starts_with("(")) e.netdev = std::string(right[r++]);
    if (r < right.size()) {
      std::string_view st = right[r];
      if (st == "(Up)") {
        e.link_up = true;
      } else if (st == "(Down)") {
        e.link_up = false;
      } else {
        out.warnings.push_back({line, "bad_value", "unknown link state '" + std::string(st) + "'"});
      }
      ++r;
    }
    if (r < right.size()) {
      out.warnings.push_back({line, "unrecognised_line", "extra text after the link state"});
    }
    if (e.netdev && !e.link_up && r == 1 && li + 1 == ls.size()) {
      out.warnings.push_back({line, "truncated", "last line ends before the link state"});
    }
    out.value.entries.push_back(std::move(e));
  }
  if (out.value.entries.empty()) {
    return unexpected(ErrorKind::malformed_input, "no '<dev> port <n> ==> <netdev>' line found");
  }
  return out;
}

nlohmann::json to_json(const Ibdev2netdev& v) {
  nlohmann::json entries = nlohmann::json::array();
  for (const Ibdev2netdevEntry& e : v.entries) {
    nlohmann::json st = nullptr;
    if (e.port_state) st = std::string(to_string(*e.port_state));
    entries.push_back({{"rdma_device", e.rdma_device},
                       {"port", e.port},
                       {"netdev", e.netdev},
                       {"link_up", e.link_up},
                       {"name_bdf", e.name_bdf},
                       {"bdf", e.bdf},
                       {"device_id", e.device_id},
                       {"psid", e.psid},
                       {"description", e.description},
                       {"fw_ver", e.fw_ver},
                       {"port_state", st}});
  }
  return {{"entries", entries}};
}

bool looks_like_ibdev2netdev(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::size_t arrow = l.find(" ==> ");
    if (arrow == std::string_view::npos) continue;
    std::vector<std::string_view> w = text::words(l.substr(0, arrow));
    for (std::size_t k = 0; k + 1 < w.size(); ++k) {
      if (w[k] == "port" && text::parse_uint(w[k + 1])) return true;
    }
  }
  return false;
}

}  // namespace rk::parse
