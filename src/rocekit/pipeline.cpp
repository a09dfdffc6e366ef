#include "rocekit/pipeline.hpp"

#include "rocekit/capture/assemble.hpp"
#include "rocekit/model/json.hpp"

namespace rk {

Result<Snapshot> load_input(const std::filesystem::path& path) {
  std::error_code ec;
  if (path != "-" && !std::filesystem::exists(path, ec))
    return unexpected(ErrorKind::not_found, "no such file or directory", path.string());
  if (path.extension() == ".json" && std::filesystem::is_regular_file(path, ec))
    return load_snapshot_file(path);
  Result<capture::CaptureSet> set = capture::read_capture(path);
  if (!set) return unexpected(set.error());
  Snapshot s = capture::snapshot_from_capture(*set);
  s.tool_version = std::string(version());
  return s;
}

}  // namespace rk
