// What fw.driver-compat (rules/fw_compat_rules.cpp) found for each NIC whose firmware is not in
// the installed driver's release notes: the firmware to burn instead. `rocekit plan` builds its
// firmware steps from these, for the subjects where the rule failed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rocekit/model/snapshot.hpp"

namespace rk::rules {

struct FirmwareTarget {
  std::string subject;              ///< the fw.driver-compat finding's subject
  std::string bdf;                  ///< PCI function of the NIC ("" when no input named it)
  std::optional<std::string> psid;  ///< board PSID, when read
  std::string current;              ///< running firmware, "28.35.1012"
  std::string target;               ///< the release notes' firmware for the family, "28.39.2048"
  std::string family;               ///< "ConnectX-7"
  std::string release;              ///< "MLNX_OFED 23.10-1.1.9.0"
  std::string source;               ///< the page the target was copied from
};

/// One entry per NIC that fw.driver-compat fails as "not in the release notes for this driver"
/// (not for a family the driver does not support: no firmware fixes that), judged against
/// catalog::CompatTable::active().
std::vector<FirmwareTarget> firmware_targets(const Snapshot& s);

}  // namespace rk::rules
