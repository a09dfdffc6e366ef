// libFuzzer target for one switch-config / port-map parser, selected at build time with
// RK_SWITCH_FUZZ (sonic, nvue_json, nvue_show, eos, nxos, junos, nvue_cmd, onyx, any, port_map,
// lldp). One binary per parser:
// fuzz_switch_<name>. Each parse result is also rendered, so the model's invariants are exercised.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rocekit/switchcfg/switchcfg.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string which = RK_SWITCH_FUZZ;
  using namespace rk::switchcfg;
  if (which == "port_map") {
    (void)parse_port_map(text, "fuzz");
    return 0;
  }
  if (which == "lldp") {
    (void)parse_lldp(text, "fuzz", "host");
    return 0;
  }
  rk::Result<SwitchQos> r = which == "sonic"       ? parse_sonic_config_db(text, "fuzz")
                            : which == "nvue_json" ? parse_nvue_config_json(text, "fuzz")
                            : which == "nvue_show" ? parse_nvue_show_roce(text, "fuzz")
                            : which == "eos"       ? parse_arista_eos(text, "fuzz")
                            : which == "nxos"      ? parse_cisco_nxos(text, "fuzz")
                            : which == "junos"     ? parse_juniper_junos(text, "fuzz")
                            : which == "nvue_cmd"  ? parse_nvue_commands(text, "fuzz")
                            : which == "onyx"      ? parse_onyx_show_roce(text, "fuzz")
                                                   : parse_switch_config(text, "fuzz");
  if (r) {
    (void)qos_text(*r);
    (void)qos_json(*r);
  }
  return 0;
}
