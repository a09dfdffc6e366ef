// load_policy() of pipeline.hpp, apart from load_input so that an executable using
// only these (rocekit-exporter) does not link the capture reader and libarchive.
#include "rocekit/pipeline.hpp"

namespace rk {

Result<Policy> load_policy(const std::filesystem::path& path) {
  if (path.empty()) return default_policy();
  Result<Policy> p = load_policy_file(path, rules::policy_rule_ids());
  if (p && p->name == "default") p->name = path.string();
  return p;
}

}  // namespace rk
