#include "rocekit/pipeline.hpp"

#include "rocekit/capture/assemble.hpp"
#include "rocekit/model/json.hpp"

namespace rk {

std::string_view version() { return "0.1.0"; }

Result<Snapshot> load_input(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return unexpected(ErrorKind::not_found, "no such file or directory", path.string());
  if (path.extension() == ".json" && std::filesystem::is_regular_file(path, ec))
    return load_snapshot_file(path);
  Result<capture::CaptureSet> set = capture::read_capture(path);
  if (!set) return unexpected(set.error());
  Snapshot s = capture::snapshot_from_capture(*set);
  s.tool_version = std::string(version());
  return s;
}

Result<Policy> load_policy(const std::filesystem::path& path) {
  if (path.empty()) return default_policy();
  Result<Policy> p = load_policy_file(path, rules::rule_ids());
  if (p && p->name == "default") p->name = path.string();
  return p;
}

}  // namespace rk
