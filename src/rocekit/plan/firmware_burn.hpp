// The firmware burn steps of `rocekit plan` (plan/firmware_burn.cpp): for each NIC where
// fw.driver-compat failed, the release notes' firmware from a local image, after a check that
// the image is that firmware for the board's PSID. Internal to rk_plan.
#pragma once

#include <set>
#include <string>
#include <utility>

#include "rocekit/model/snapshot.hpp"
#include "rocekit/plan/plan.hpp"

namespace rk::plan::detail {

/// Appends the firmware_image_check and firmware_burn actions (or "not planned" lines) for the
/// failing fw.driver-compat subjects in `failing`; `held` are physical devices ("dddd:bb:dd")
/// that carry a protected netdev. A target that `policy`'s firmware rules (fw.releases-behind,
/// fw.dpu-minimum) would still fail is said in a warning.
void plan_firmware_burn(const Snapshot& s, const Policy& policy,
                        const std::set<std::pair<std::string, std::string>>& failing,
                        const std::set<std::string>& held, const PlanOptions& opts, Plan& plan);

}  // namespace rk::plan::detail
