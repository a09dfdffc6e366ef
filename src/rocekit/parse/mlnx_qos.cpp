#include "rocekit/parse/mlnx_qos.hpp"

#include <cstddef>
#include <utility>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

std::string_view to_string(QosTrust v) {
  switch (v) {
    case QosTrust::pcp:
      return "pcp";
    case QosTrust::dscp:
      return "dscp";
  }
  return "?";
}

std::string_view to_string(DcbxMode v) {
  switch (v) {
    case DcbxMode::os_controlled:
      return "os_controlled";
    case DcbxMode::firmware_controlled:
      return "firmware_controlled";
  }
  return "?";
}

std::string_view to_string(Tsa v) {
  switch (v) {
    case Tsa::strict:
      return "strict";
    case Tsa::ets:
      return "ets";
    case Tsa::vendor:
      return "vendor";
  }
  return "?";
}

std::optional<std::uint32_t> priority_for_dscp(const MlnxQos& qos, std::uint32_t dscp) {
  auto it = qos.dscp_to_priority.find(dscp);
  if (it == qos.dscp_to_priority.end()) return std::nullopt;
  return it->second;
}

namespace {

constexpr std::uint32_t k_max_dscp = 63;
constexpr std::uint32_t k_max_priority = 7;
constexpr std::size_t k_num_priorities = 8;

enum class Block { none, dscp2prio, pfc, tc };

/// Splits on commas and whitespace; no empty fields.
std::vector<std::string_view> list_items(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  auto is_sep = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\r'; };
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || is_sep(s[i])) {
      if (i > start) out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

bool is_number_list(std::string_view t) {
  if (t.empty()) return false;
  bool digit = false;
  for (char c : t) {
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c != ',' && c != ' ' && c != '\t') {
      return false;
    }
  }
  return digit;
}

class QosParser {
 public:
  Result<Parsed<MlnxQos>> run(std::string_view text) {
    std::vector<std::string_view> ls = text::lines(text);
    for (std::size_t i = 0; i < ls.size(); ++i) {
      m_line = i + 1;
      handle(text::trim(ls[i]));
    }
    if (m_recognised == 0) {
      return rk::unexpected(ErrorKind::malformed_input, "no mlnx_qos output recognised");
    }
    finish();
    return Parsed<MlnxQos>{std::move(m_out), std::move(m_warnings)};
  }

 private:
  void warn(std::string code, std::string message, std::size_t line) {
    m_warnings.push_back(Warning{line, std::move(code), std::move(message)});
  }

  void unrecognised(std::string_view t) {
    warn("unrecognised_line", "unrecognised line: " + std::string(t.substr(0, 80)), m_line);
  }

  void handle(std::string_view t) {
    if (t.empty()) return;
    if (auto v = text::value_after(t, "DCBX mode:")) {
      ++m_recognised;
      m_block = Block::none;
      m_out.dcbx_mode_text = std::string(*v);
      std::string low = text::to_lower(*v);
      if (low == "os controlled") m_out.dcbx_mode = DcbxMode::os_controlled;
      if (low == "firmware controlled") m_out.dcbx_mode = DcbxMode::firmware_controlled;
      return;
    }
    if (auto v = text::value_after(t, "Priority trust state:")) {
      ++m_recognised;
      m_block = Block::none;
      if (*v == "dscp") {
        m_out.trust = QosTrust::dscp;
      } else if (*v == "pcp") {
        m_out.trust = QosTrust::pcp;
      } else {
        warn("bad_value", "unknown trust state: " + std::string(v->substr(0, 40)), m_line);
      }
      return;
    }
    std::string lower = text::to_lower(t);
    if (auto v = text::value_after(lower, "default priority:")) {
      ++m_recognised;
      m_block = Block::none;
      // Some MLNX_OFED releases print the line with no value (a 23.10 host in the corpus): nothing
      // to read, nothing wrong.
      if (auto n = text::parse_uint(*v); n && *n <= k_max_priority) {
        m_out.default_priority = static_cast<std::uint32_t>(*n);
      } else if (!text::trim(*v).empty()) {
        warn("bad_number", "bad default priority", m_line);
      }
      return;
    }
    if (t == "dscp2prio mapping:") {
      ++m_recognised;
      m_block = Block::dscp2prio;
      m_out.dscp2prio_shown = true;
      return;
    }
    if (auto v = text::value_after(t, "Receive buffer size (bytes):")) {
      ++m_recognised;
      m_block = Block::none;
      receive_buffers(*v);
      return;
    }
    if (auto v = text::value_after(t, "Cable len:")) {
      ++m_recognised;
      m_block = Block::none;
      if (auto n = text::parse_uint(*v); n && *n <= 0xffffffffULL) {
        m_out.cable_length_m = static_cast<std::uint32_t>(*n);
      } else {
        warn("bad_number", "bad cable length", m_line);
      }
      return;
    }
    if (t == "PFC configuration:") {
      ++m_recognised;
      m_block = Block::pfc;
      m_pfc_seen = true;
      return;
    }
    if (text::starts_with(t, "tc:")) {
      ++m_recognised;
      m_block = Block::tc;
      tc_line(t.substr(3));
      return;
    }
    switch (m_block) {
      case Block::dscp2prio:
        if (dscp_line(t)) return;
        break;
      case Block::pfc:
        if (pfc_line(t)) return;
        break;
      case Block::tc:
        if (auto v = text::value_after(t, "priority:"); v && !m_out.traffic_classes.empty()) {
          ++m_recognised;
          priorities(*v);
          return;
        }
        break;
      case Block::none:
        break;
    }
    unrecognised(t);
  }

  void receive_buffers(std::string_view v) {
    std::vector<std::uint64_t> sizes;
    for (std::string_view item : list_items(v)) {
      if (auto m = text::value_after(item, "max_buffer_size=")) {
        if (auto n = text::parse_uint(*m)) {
          m_out.max_buffer_size_bytes = *n;
        } else {
          warn("bad_number", "bad max_buffer_size", m_line);
        }
        continue;
      }
      if (auto n = text::parse_uint(item)) {
        sizes.push_back(*n);
      } else {
        warn("bad_number", "bad receive buffer size: " + std::string(item.substr(0, 40)), m_line);
      }
    }
    m_out.receive_buffer_size_bytes = std::move(sizes);
  }

  bool dscp_line(std::string_view t) {
    if (text::starts_with(t, "prio:")) {
      std::size_t pos = t.find("dscp:");
      if (pos == std::string_view::npos) return false;
      auto prio = text::parse_uint(t.substr(5, pos - 5));
      if (!prio || *prio > k_max_priority) {
        warn("bad_number", "bad priority in dscp2prio row", m_line);
        m_cur_prio.reset();
        ++m_recognised;
        return true;
      }
      ++m_recognised;
      ++m_prio_rows;
      m_cur_prio = static_cast<std::uint32_t>(*prio);
      dscp_list(t.substr(pos + 5));
      return true;
    }
    if (m_cur_prio && is_number_list(t)) {
      ++m_recognised;
      dscp_list(t);
      return true;
    }
    return false;
  }

  void dscp_list(std::string_view list) {
    if (!m_cur_prio) return;
    for (std::string_view item : list_items(list)) {
      auto d = text::parse_uint(item);
      if (!d || *d > k_max_dscp) {
        warn("bad_number", "bad dscp value: " + std::string(item.substr(0, 20)), m_line);
        continue;
      }
      m_out.dscp_to_priority[static_cast<std::uint32_t>(*d)] = *m_cur_prio;
    }
  }

  bool pfc_line(std::string_view t) {
    std::vector<std::string_view> w = text::words(t);
    if (w.empty()) return false;
    if (w[0] == "priority") {
      ++m_recognised;
      return true;
    }
    if (w[0] != "enabled" && w[0] != "buffer") return false;
    ++m_recognised;
    if (w.size() != k_num_priorities + 1) {
      warn("bad_number", "PFC " + std::string(w[0]) + " row does not have 8 values", m_line);
      return true;
    }
    std::array<std::uint32_t, 8> vals{};
    for (std::size_t i = 0; i < k_num_priorities; ++i) {
      auto n = text::parse_uint(w[i + 1]);
      if (!n || *n > k_max_priority) {
        warn("bad_number", "bad value in PFC " + std::string(w[0]) + " row", m_line);
        return true;
      }
      vals[i] = static_cast<std::uint32_t>(*n);
    }
    if (w[0] == "enabled") {
      std::array<bool, 8> en{};
      for (std::size_t i = 0; i < k_num_priorities; ++i) {
        if (vals[i] > 1) {
          warn("bad_number", "PFC enabled value is not 0 or 1", m_line);
          return true;
        }
        en[i] = vals[i] == 1;
      }
      m_out.pfc_enabled = en;
    } else {
      m_out.priority_to_buffer = vals;
    }
    return true;
  }

  // `rest` is what follows "tc:", e.g. " 0 ratelimit: unlimited, tsa: ets, bw: 50%".
  void tc_line(std::string_view rest) {
    MlnxQosTrafficClass tc;
    std::vector<std::string_view> parts = text::split(rest, ',');
    bool ok = false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::string_view p = text::trim(parts[i]);
      if (i == 0) {
        std::size_t rl = p.find("ratelimit:");
        std::string_view num = text::trim(p.substr(0, rl));
        if (auto n = text::parse_uint(num); n && *n <= 0xffffffffULL) {
          tc.tc = static_cast<std::uint32_t>(*n);
          ok = true;
        }
        if (rl != std::string_view::npos) {
          std::string_view r = text::trim(p.substr(rl + 10));
          if (r == "unlimited") {
            tc.ratelimit_unlimited = true;
          } else {
            std::vector<std::string_view> rw = text::words(r);
            if (!rw.empty()) tc.ratelimit_gbps = text::parse_double(rw[0]);
            if (!tc.ratelimit_gbps) warn("bad_number", "bad ratelimit", m_line);
          }
        }
      } else if (auto v = text::value_after(p, "tsa:")) {
        tc.tsa_text = std::string(*v);
        if (*v == "strict") tc.tsa = Tsa::strict;
        if (*v == "ets") tc.tsa = Tsa::ets;
        if (*v == "vendor") tc.tsa = Tsa::vendor;
      } else if (auto b = text::value_after(p, "bw:")) {
        std::string_view bw = *b;
        if (text::ends_with(bw, "%")) bw.remove_suffix(1);
        if (auto n = text::parse_uint(bw); n && *n <= 100) {
          tc.bandwidth_percent = static_cast<std::uint32_t>(*n);
        } else {
          warn("bad_number", "bad ETS bandwidth", m_line);
        }
      }
    }
    if (!ok) warn("bad_number", "bad traffic class number", m_line);
    m_out.traffic_classes.push_back(std::move(tc));
  }

  void priorities(std::string_view v) {
    MlnxQosTrafficClass& tc = m_out.traffic_classes.back();
    for (std::string_view item : list_items(v)) {
      auto n = text::parse_uint(item);
      if (!n || *n > k_max_priority) {
        warn("bad_number", "bad priority in tc row", m_line);
        continue;
      }
      tc.priorities.push_back(static_cast<std::uint32_t>(*n));
    }
  }

  void finish() {
    std::size_t end = m_line;
    if (m_out.dscp2prio_shown && m_prio_rows < k_num_priorities && !m_pfc_seen) {
      warn("truncated", "output ends inside the dscp2prio mapping (" +
                            std::to_string(m_prio_rows) + " of 8 priority rows)",
           end);
    }
    if (!m_pfc_seen) {
      warn("truncated",
           "output ends before \"PFC configuration:\"; PFC and traffic classes not shown", end);
    } else if (!m_out.pfc_enabled) {
      warn("truncated", "PFC configuration has no \"enabled\" row", end);
    } else if (m_out.traffic_classes.empty()) {
      warn("truncated", "output ends before the tc rows; traffic classes not shown", end);
    }
  }

  MlnxQos m_out;
  std::vector<Warning> m_warnings;
  std::size_t m_line = 0;
  std::size_t m_recognised = 0;
  std::size_t m_prio_rows = 0;
  bool m_pfc_seen = false;
  Block m_block = Block::none;
  std::optional<std::uint32_t> m_cur_prio;
};

}  // namespace

Result<Parsed<MlnxQos>> parse_mlnx_qos(std::string_view text) {
  QosParser parser;
  return parser.run(text);
}

nlohmann::json to_json(const MlnxQos& v) {
  nlohmann::json j;
  j["dcbx_mode"] = v.dcbx_mode ? nlohmann::json(to_string(*v.dcbx_mode)) : nlohmann::json();
  j["dcbx_mode_text"] = v.dcbx_mode_text;
  j["trust"] = v.trust ? nlohmann::json(to_string(*v.trust)) : nlohmann::json();
  j["default_priority"] = v.default_priority;
  j["dscp2prio_shown"] = v.dscp2prio_shown;
  if (v.dscp2prio_shown) {
    nlohmann::json arr = nlohmann::json::array();
    for (std::uint32_t d = 0; d <= k_max_dscp; ++d) arr.push_back(priority_for_dscp(v, d));
    j["dscp_to_priority"] = arr;
  } else {
    j["dscp_to_priority"] = nullptr;
  }
  j["receive_buffer_size_bytes"] = v.receive_buffer_size_bytes;
  j["max_buffer_size_bytes"] = v.max_buffer_size_bytes;
  j["cable_length_m"] = v.cable_length_m;
  j["pfc_enabled"] = v.pfc_enabled;
  j["priority_to_buffer"] = v.priority_to_buffer;
  nlohmann::json tcs = nlohmann::json::array();
  for (const MlnxQosTrafficClass& tc : v.traffic_classes) {
    tcs.push_back({{"tc", tc.tc},
                   {"ratelimit_unlimited", tc.ratelimit_unlimited},
                   {"ratelimit_gbps", tc.ratelimit_gbps},
                   {"tsa", tc.tsa ? nlohmann::json(to_string(*tc.tsa)) : nlohmann::json()},
                   {"tsa_text", tc.tsa_text},
                   {"bandwidth_percent", tc.bandwidth_percent},
                   {"priorities", tc.priorities}});
  }
  j["traffic_classes"] = tcs;
  return j;
}

bool looks_like_mlnx_qos(std::string_view text) {
  std::string_view head = text.substr(0, 4096);
  return text::contains(head, "Priority trust state:") ||
         (text::contains(head, "PFC configuration:") && text::contains(head, "tc:")) ||
         text::contains(head, "dscp2prio mapping:");
}

}  // namespace rk::parse
