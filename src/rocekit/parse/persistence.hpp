// Parser for rocekit-capture's persistence listing (`rocekit-capture --list-persistence`),
// tool id "persistence". One line per directory searched and per boot-time mechanism found
// under /etc, host paths:
//   checked /etc/systemd/system
//   unit /etc/systemd/system/rocekit-roce.service
//   enabled /etc/systemd/system/multi-user.target.wants/rocekit-roce.service
//   udev /etc/udev/rules.d/90-rocekit-roce.rules
//   other /etc/rc.local: mlnx_qos,setpci
// Only "checked" lines: nothing found.
#pragma once

#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// Never fails: lines of an unknown kind, or whose path is not absolute, become warnings
/// ("unrecognised_line") and are skipped.
Result<Parsed<PersistenceState>> parse_persistence(std::string_view text);
nlohmann::json to_json(const PersistenceState& v);
/// Every non-empty line starts with "checked /", "unit /", "enabled /", "udev /" or "other /".
bool looks_like_persistence(std::string_view text);

}  // namespace rk::parse
