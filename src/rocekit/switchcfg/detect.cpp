// Dialect detection by content. Each text dialect has marker lines that no other NOS here writes
// (the keywords below, each from that NOS's own configuration syntax); a config is given to a
// parser only when the markers of exactly one dialect are present. Markers of a NOS rocekit
// does not read (Dell OS10, Cisco IOS, Huawei, H3C, legacy Cumulus files), or markers of two
// dialects at once, refuse the input with the line that decided and the dialects rocekit reads:
// parsing a config as the closest dialect would report its RoCE class as missing (a false
// critical finding with another vendor's command as fix).
//
// Marker sources (syntax): Arista EOS, Cisco NX-OS, Dell Enterprise SONiC, Junos, Onyx samples in
// testdata/switch (ROCm/gpu-cluster-networking:docs/how-to/roce-network-config.rst, AVD qos.cfg,
// Onyx User Manual "RoCE Commands"); Dell OS10 `trust-map` / `service-policy input type` and
// `pfc-cos` (Dell SmartFabric OS10 User Guide, "Priority flow control"); Cisco IOS `mls qos`;
// Huawei CE `dcb pfc` / `qos map-table`; H3C `priority-flow-control no-drop dot1p`.
#include <array>

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

/// The NOS a marker line belongs to: a dialect rocekit parses, or one it does not.
struct Nos {
  std::string_view label;
  std::optional<Dialect> dialect;
};

constexpr std::size_t k_eos = 0, k_nxos = 1, k_dell = 2, k_junos = 3, k_nvue_cmd = 4, k_nvue_show = 5,
                      k_onyx = 6, k_os10 = 7, k_ios = 8, k_huawei = 9, k_h3c = 10, k_cumulus_legacy = 11,
                      k_onyx_show = 12;
const std::array<Nos, 13> k_nos = {{
    {"Arista EOS running-config", Dialect::arista_eos},
    {"Cisco NX-OS running-config", Dialect::cisco_nxos},
    {"Dell Enterprise SONiC sonic-cli running-config", Dialect::dell_sonic_cli},
    {"Juniper Junos class-of-service", Dialect::juniper_junos},
    {"Cumulus NVUE commands (`nv set ...`)", Dialect::nvue_commands},
    {"Cumulus NVUE `nv show qos roce`", Dialect::nvue_show_roce},
    {"NVIDIA Onyx running-config", std::nullopt},
    {"Dell SmartFabric OS10 running-config", std::nullopt},
    {"Cisco IOS / IOS-XE running-config", std::nullopt},
    {"Huawei CloudEngine configuration", std::nullopt},
    {"H3C Comware configuration", std::nullopt},
    {"legacy Cumulus Linux traffic.conf / qos_features.conf", std::nullopt},
    {"NVIDIA Onyx `show roce`", Dialect::onyx_show_roce},
}};

bool is_digit_word(std::string_view w) { return !w.empty() && w.front() >= '0' && w.front() <= '9'; }

bool has(const std::vector<std::string_view>& w, std::size_t i, std::string_view s) {
  return i < w.size() && w[i] == s;
}

/// The NOS whose syntax line `l` (trimmed, not a comment) is written in, or npos.
std::size_t marker_of(std::string_view l) {
  const std::vector<std::string_view> w = text::words(l);
  if (w.empty()) return std::string_view::npos;
  const std::string_view a = w[0];
  // Cumulus NVUE.
  if (text::starts_with(l, "RoCE PCP/DSCP->SP mapping") || text::starts_with(l, "RoCE SP->TC mapping") ||
      (text::contains(l, "nv show") && text::contains(l, "qos roce")))
    return k_nvue_show;
  if (a == "nv" && (has(w, 1, "set") || has(w, 1, "unset"))) return k_nvue_cmd;
  // Onyx: `show roce` output ("RoCE mode      : lossless", padded or not), and running-config lines.
  if ((text::starts_with(l, "RoCE mode") && text::contains(l, ":")) || text::starts_with(l, "RoCE used TCs") ||
      text::starts_with(l, "Port trust mode:"))
    return k_onyx_show;
  if (a == "roce" && (w.size() == 1 || has(w, 1, "lossless") || has(w, 1, "lossy") || has(w, 1, "semi-lossless")))
    return k_onyx;
  if (a == "dcb" && has(w, 1, "priority-flow-control")) return k_onyx;
  if (a == "interface" && has(w, 1, "ethernet") && w.size() >= 4 &&
      (w[3] == "qos" || w[3] == "dcb" || w[3] == "traffic-class"))
    return k_onyx;
  // Junos.
  if ((a == "set" || a == "delete" || a == "deactivate") && has(w, 1, "class-of-service")) return k_junos;
  if (l.back() == '{' && w.size() == 2 &&
      (a == "class-of-service" || a == "forwarding-classes" || a == "classifiers" || a == "scheduler-maps" ||
       a == "congestion-notification-profile" || a == "drop-profiles" || a == "schedulers"))
    return k_junos;
  // Dell Enterprise SONiC (sonic-cli / KLISH).
  if (a == "qos" && has(w, 1, "map") && w.size() >= 3 &&
      (w[2] == "dscp-tc" || w[2] == "dot1p-tc" || w[2] == "tc-queue" || w[2] == "tc-pg" ||
       w[2] == "pfc-priority-queue" || w[2] == "pfc-priority-pg" || w[2] == "tc-dscp" || w[2] == "tc-dot1p"))
    return k_dell;
  if (a == "qos" && (has(w, 1, "wred-policy") || has(w, 1, "scheduler-policy"))) return k_dell;
  if (a == "qos-map" && w.size() >= 2) return k_dell;
  if (a == "queue" && w.size() >= 3 && w[2] == "wred-policy") return k_dell;
  if (a == "priority-flow-control" && has(w, 1, "watchdog")) return k_dell;
  if (a == "priority-flow-control" && has(w, 1, "priority") && w.size() == 3) return k_dell;
  // Dell OS10 (before NX-OS: both write `system qos` / `policy-map type network-qos`).
  if (a == "trust-map" || a == "pfc-cos" || (a == "trust" && has(w, 1, "dot1p-map")) ||
      (a == "service-policy" && (has(w, 1, "input") || has(w, 1, "output")) && has(w, 2, "type")) ||
      (a == "trust" && has(w, 1, "dscp-map")))
    return k_os10;
  // Cisco NX-OS.
  if ((a == "policy-map" || a == "class-map") && has(w, 1, "type") &&
      (has(w, 2, "network-qos") || has(w, 2, "queuing")))
    return k_nxos;
  if (a == "class" && has(w, 1, "type") && (has(w, 2, "network-qos") || has(w, 2, "queuing"))) return k_nxos;
  if (a == "system" && has(w, 1, "qos") && w.size() == 2) return k_nxos;
  if (a == "pause" && (has(w, 1, "pfc-cos") || has(w, 1, "no-drop") || has(w, 1, "buffer-size"))) return k_nxos;
  if (a == "priority-flow-control" && (has(w, 1, "mode") || has(w, 1, "watch-dog-interval") || has(w, 1, "watch-dog")))
    return k_nxos;
  if (a == "set" && has(w, 1, "qos-group")) return k_nxos;
  // Arista EOS.
  if (a == "qos" && has(w, 1, "map") && w.size() >= 4 &&
      ((w[2] == "dscp" || w[2] == "cos" || w[2] == "traffic-class" || w[2] == "exp") && is_digit_word(w[3])))
    return k_eos;
  if (a == "qos" && (has(w, 1, "profile") || has(w, 1, "trust") || has(w, 1, "rewrite"))) return k_eos;
  if (a == "service-profile" || a == "tx-queue" || a == "uc-tx-queue" || a == "mc-tx-queue") return k_eos;
  if (a == "priority-flow-control" && (has(w, 1, "on") || (w.size() >= 4 && w[1] == "priority" && w[3] == "no-drop") ||
                                       (has(w, 1, "pause") && has(w, 2, "watchdog"))))
    return k_eos;
  if (a == "random-detect" && has(w, 1, "ecn")) return k_eos;
  // Not read.
  if ((a == "mls" && has(w, 1, "qos")) || (a == "auto" && has(w, 1, "qos"))) return k_ios;
  if ((a == "dcb" && has(w, 1, "pfc")) || (a == "qos" && has(w, 1, "map-table") && has(w, 2, "dscp-map")) ||
      a == "sysname")
    return k_huawei;
  if (a == "priority-flow-control" && has(w, 1, "no-drop") && has(w, 2, "dot1p")) return k_h3c;
  if (text::starts_with(a, "traffic.") || text::starts_with(a, "pfc.") || text::starts_with(a, "ecn.") ||
      text::starts_with(a, "default_ecn_conf."))
    return k_cumulus_legacy;
  return std::string_view::npos;
}

bool comment_line(std::string_view l) {
  return l.empty() || l.front() == '!' || l.front() == '#' || text::starts_with(l, "/*") || text::starts_with(l, "*") ||
         text::starts_with(l, "//");
}

bool json_like(std::string_view text) {
  std::string_view t = text::trim(text);
  return !t.empty() && (t.front() == '{' || t.front() == '[');
}

std::string known_dialects() {
  std::string s;
  s += "SONiC config_db.json, Cumulus NVUE `nv config show -o json`";
  for (const Nos& n : k_nos)
    if (n.dialect) s += ", " + std::string(n.label);
  return s;
}

std::optional<Dialect> detect_json(std::string_view text) {
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

}  // namespace

Result<Dialect> detect_dialect_of(std::string_view text, const std::string& file) {
  if (json_like(text)) {
    if (std::optional<Dialect> d = detect_json(text)) return *d;
    return unexpected(ErrorKind::unsupported,
                      "JSON, but neither SONiC config_db tables nor an NVUE `set` document; rocekit reads: " +
                          known_dialects(),
                      file);
  }
  struct Hit {
    std::size_t line = 0;
    std::string text;
  };
  std::array<Hit, k_nos.size()> first{};
  const std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view l = text::trim(ls[i]);
    // A pasted session: "cumulus@leaf01:mgmt:~$ nv set ...".
    if (std::size_t at = l.find("$ nv "); at != std::string_view::npos) l = l.substr(at + 2);
    // A pasted Klish / industry-CLI session: "sonic(conf-if-Ethernet0)# priority-flow-control ...".
    if (std::optional<std::string_view> cmd = detail::strip_cli_prompt(l)) l = *cmd;
    if (comment_line(l)) continue;
    const std::size_t m = marker_of(l);
    if (m == std::string_view::npos || first[m].line) continue;
    first[m] = Hit{i + 1, std::string(l.substr(0, 80))};
  }
  auto where = [&](std::size_t m) {
    return std::string(k_nos[m].label) + " (line " + std::to_string(first[m].line) + ": `" +
           text::escape_control(first[m].text) + "`)";
  };
  // NVUE `nv show` output quotes the command it came from; it never mixes with config lines.
  if (first[k_nvue_show].line) return Dialect::nvue_show_roce;
  std::vector<std::size_t> hits;
  for (std::size_t m = 0; m < k_nos.size(); ++m)
    if (first[m].line) hits.push_back(m);
  if (hits.empty())
    return unexpected(ErrorKind::unsupported,
                      "not a recognised switch configuration (no QoS line of a known NOS); rocekit reads: " +
                          known_dialects(),
                      file);
  for (std::size_t m : hits)
    if (!k_nos[m].dialect)
      return unexpected(ErrorKind::unsupported,
                        "looks like " + where(m) + ", which rocekit does not read; rocekit reads: " + known_dialects(),
                        file + ":" + std::to_string(first[m].line));
  if (hits.size() > 1)
    return unexpected(ErrorKind::unsupported,
                      "lines of two switch dialects: " + where(hits[0]) + " and " + where(hits[1]) +
                          "; give one NOS's configuration per file",
                      file + ":" + std::to_string(first[hits[1]].line));
  return *k_nos[hits[0]].dialect;
}

std::optional<Dialect> detect_dialect(std::string_view text) {
  Result<Dialect> d = detect_dialect_of(text, "");
  if (!d) return std::nullopt;
  return *d;
}

}  // namespace rk::switchcfg
