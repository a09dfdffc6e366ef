// `rocekit plan -f nccl`: the host's NCCL settings derived from the snapshot and the policy, as
// an /etc/nccl.conf (or as `export` lines, -f nccl-env). A value the snapshot cannot prove is
// left out with a comment saying why. The derivations are the app.* rules' own
// (rules/app.hpp): the rails, the GID index NCCL would use, the policy's ToS byte.
#pragma once

#include <string>
#include <vector>

#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk::plan {

/// One setting of the generated file, or one left out (`value` empty, `why` says why).
struct NcclSetting {
  std::string name;
  std::string value;
  std::string why;  ///< what the value is derived from, or why it is left out
};

struct NcclConf {
  std::vector<NcclSetting> settings;
  std::vector<std::string> notes;  ///< header lines: the host, the rails, what was left out
  bool any = false;                ///< at least one setting has a value
};

NcclConf make_nccl_conf(const Snapshot& s, const Policy& p);
/// nccl.conf lines ("NAME=value": NCCL takes the name verbatim, no `export`, no quotes).
std::string render_nccl_conf(const NcclConf& c);
/// The same as `export NAME=value` lines for a job script.
std::string render_nccl_env(const NcclConf& c);

}  // namespace rk::plan
