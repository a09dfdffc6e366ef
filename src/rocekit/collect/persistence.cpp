#include "rocekit/collect/persistence.hpp"

#include <algorithm>
#include <regex>

namespace rk::collect {

std::string persistence_tools_in(std::string_view script_text) {
  static const std::regex k_dcb("(^|[^a-z_])dcb +(app|pfc|ets|apptrust)");
  static const std::regex k_ecn("/ecn/roce_(rp|np)");
  std::string text(script_text);
  std::string out;
  auto add = [&](const char* t) { out += (out.empty() ? "" : ",") + std::string(t); };
  if (text.find("mlnx_qos") != std::string::npos) add("mlnx_qos");
  if (std::regex_search(text, k_dcb)) add("dcb");
  if (text.find("setpci") != std::string::npos) add("setpci");
  if (std::regex_search(text, k_ecn)) add("ecn");
  return out;
}

Collected<PersistenceState> read_persistence(const HostView& host) {
  Collected<PersistenceState> out;
  if (!host.exists("/etc")) {
    out.reason = "no /etc under " + host.root().string() + " (boot-time mechanisms not read)";
    return out;
  }
  PersistenceState p;
  auto names = [&](const std::string& dir) {
    Result<std::vector<std::string>> l = host.list_dir(dir);
    return l ? *l : std::vector<std::string>{};
  };
  auto is_rocekit_service = [](const std::string& n) {
    return n.starts_with("rocekit-") && n.ends_with(".service");
  };
  const std::string sd = "/etc/systemd/system";
  std::vector<std::string> others;
  for (const std::string& n : names(sd)) {
    std::string path = sd + "/" + n;
    if (is_rocekit_service(n)) {
      p.units.push_back(path);
    } else if (n.ends_with(".wants")) {
      for (const std::string& w : names(path))
        if (is_rocekit_service(w)) p.enabled_links.push_back(path + "/" + w);
    } else if (n.ends_with(".service")) {
      others.push_back(path);
    }
  }
  for (const std::string& n : names("/etc/udev/rules.d"))
    if (n.find("rocekit") != std::string::npos && n.ends_with(".rules"))
      p.udev_rules.push_back("/etc/udev/rules.d/" + n);
  others.push_back("/etc/rc.local");
  for (const char* dir : {"/etc/network/if-up.d", "/etc/NetworkManager/dispatcher.d"})
    for (const std::string& n : names(dir)) others.push_back(std::string(dir) + "/" + n);
  for (const std::string& f : others)
    if (Result<std::string> text = host.read_text(f))
      if (std::string tools = persistence_tools_in(*text); !tools.empty())
        p.other_scripts.push_back(f + ": " + tools);
  for (auto* v : {&p.units, &p.enabled_links, &p.udev_rules, &p.other_scripts})
    std::sort(v->begin(), v->end());
  out.value = p;
  out.source = Evidence{"/etc/systemd/system", 0,
                        std::to_string(p.units.size()) + " rocekit unit(s), " +
                            std::to_string(p.enabled_links.size()) + " enabled, " +
                            std::to_string(p.udev_rules.size()) + " udev rule(s), " +
                            std::to_string(p.other_scripts.size()) + " other boot script(s)"};
  return out;
}

}  // namespace rk::collect
