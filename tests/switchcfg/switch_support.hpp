// Helpers shared by the switchcfg tests: the testdata directories, a switch sample loaded by its
// path under testdata/switch, one port of it, a host bundle of testdata/hosts.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "rocekit/pipeline.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg::test {

inline const std::filesystem::path k_switch = std::filesystem::path(RK_TESTDATA_DIR) / "switch";
inline const std::filesystem::path k_hosts = std::filesystem::path(RK_TESTDATA_DIR) / "hosts";

inline SwitchQos load(const std::string& rel) {
  Result<SwitchQos> r = load_switch_config(k_switch / rel);
  EXPECT_TRUE(r) << (r ? "" : r.error().describe());
  return r ? *r : SwitchQos{};
}

inline const PortQos& port(const SwitchQos& sw, const std::string& name) {
  const PortQos* p = sw.find_port(name);
  if (!p) throw std::runtime_error("no port " + name);
  return *p;
}

inline Snapshot host(const std::string& bundle) {
  Result<Snapshot> s = load_input(k_hosts / bundle);
  if (!s) throw std::runtime_error(s.error().describe());
  return *s;
}

}  // namespace rk::switchcfg::test
