// Host input discovery and loading for `rocekit fleet`.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "rocekit/fleet/fleet.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/model/json_fast.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::fleet {
namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_host_file_name(const std::string& name) {
  return ends_with(name, ".json") || ends_with(name, ".tar.gz") || ends_with(name, ".tgz") ||
         ends_with(name, ".tar");
}

/// A capture directory holds tool outputs (`*.txt`) or the capture script's log.
bool is_capture_dir(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name == "rocekit-capture.log") return true;
    if (ends_with(name, ".txt") && it->is_regular_file(ec)) return true;
  }
  return false;
}

/// Canonical paths already taken (hosts) or walked (fleet directories), so that an input listed
/// twice, or reached again through a symlink (`a/up -> ..`), is loaded once.
struct Seen {
  std::map<std::string, std::string> hosts;  ///< canonical -> the path it was first found as
  std::set<std::string> dirs;
  std::size_t repeats = 0;  ///< inputs and directories found again
};

std::string canonical_of(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::canonical(p, ec);
  return ec ? fs::absolute(p, ec).lexically_normal().string() : c.string();
}

void add_host(const fs::path& p, Seen& seen, Discovery& out) {
  auto [it, inserted] = seen.hosts.emplace(canonical_of(p), p.string());
  if (inserted) {
    out.hosts.push_back(p);
    return;
  }
  ++seen.repeats;
  out.problems.push_back({p.string(), "same input as " + it->second +
                                          " (listed twice or reached through a symlink); loaded once"});
}

void expand(const fs::path& p, int depth, bool from_arg, Discovery& out, Seen& seen) {
  std::error_code ec;
  fs::file_status st = fs::status(p, ec);
  if (ec || !fs::exists(st)) {
    out.problems.push_back({p.string(), "no such file or directory"});
    return;
  }
  if (fs::is_regular_file(st)) {
    add_host(p, seen, out);
    return;
  }
  if (!fs::is_directory(st)) {
    out.problems.push_back({p.string(), "not a regular file or directory"});
    return;
  }
  if (is_capture_dir(p)) {
    add_host(p, seen, out);
    return;
  }
  if (!seen.dirs.insert(canonical_of(p)).second) {
    ++seen.repeats;
    out.problems.push_back({p.string(), "directory already walked (a symlink loop or listed twice); skipped"});
    return;
  }
  if (depth >= 4) {
    out.problems.push_back({p.string(), "directory nested too deep (more than 4 levels below an argument)"});
    return;
  }
  std::vector<fs::path> entries;
  fs::directory_iterator it(p, ec);
  if (ec) {
    out.problems.push_back({p.string(), "cannot list directory: " + ec.message()});
    return;
  }
  for (fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code ec2;
    if (it->is_directory(ec2) || (is_host_file_name(name) && it->is_regular_file(ec2)))
      entries.push_back(it->path());
  }
  std::sort(entries.begin(), entries.end());
  const std::size_t before = out.hosts.size();
  const std::size_t repeats_before = seen.repeats;
  for (const fs::path& e : entries) expand(e, depth + 1, false, out, seen);
  if (out.hosts.size() == before && seen.repeats == repeats_before && from_arg)
    out.problems.push_back({p.string(), "no snapshots or captures found (docs/fleet.md \"Inputs\" gives the layout)"});
}

}  // namespace

Discovery discover_inputs(const std::vector<fs::path>& args) {
  Discovery d;
  Seen seen;
  for (const fs::path& a : args) expand(a, 0, true, d, seen);
  return d;
}

namespace {

/// A snapshot file read with the simdjson reader when it takes it exactly, else with nlohmann,
/// which names the error. `lean`: without counters and evidence (skipped_without_counters_and_evidence).
Result<Snapshot> read_snapshot_json(const fs::path& path, bool lean) {
  std::string text;
  {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return unexpected(ErrorKind::io, "cannot open", path.string());
    const std::streamoff size = in.tellg();
    in.seekg(0);
    if (size > 0) {
      text.resize(static_cast<std::size_t>(size));
      in.read(text.data(), size);
      text.resize(static_cast<std::size_t>(in.gcount()));
    }
  }
  // ROCEKIT_SNAPSHOT_READER=nlohmann reads every snapshot with nlohmann (docs/fleet.md: for
  // comparison in bench/fleet_bench.sh, or to rule the fast reader out).
  static const bool nlohmann_only = [] {
    const char* v = std::getenv("ROCEKIT_SNAPSHOT_READER");
    return v && std::string_view(v) == "nlohmann";
  }();
  if (std::optional<Snapshot> fast = nlohmann_only ? std::nullopt : snapshot_from_json_fast(text, lean))
    return std::move(*fast);
  Result<Snapshot> r = snapshot_from_json_text(text, lean, path.string());
  if (!r) return unexpected(r.error().kind, r.error().message, path.string());
  return r;
}

}  // namespace

Result<Snapshot> load_snapshot_json(const fs::path& path) {
  // Counters and evidence are neither read nor checked (skipped_without_counters_and_evidence):
  // no rule and no fleet comparison reads the counters, and the fleet report keeps no evidence
  // (rules then cite none).
  Result<Snapshot> r = read_snapshot_json(path, true);
  if (r && r->source.path.empty()) r->source.path = path.string();
  return r;
}

Result<Snapshot> load_host_whole(const fs::path& path) {
  std::error_code ec;
  // load_input's snapshot branch (load_snapshot_file) is snapshot_from_json_text(text, false, path).
  if (path.extension() == ".json" && fs::is_regular_file(path, ec)) return read_snapshot_json(path, false);
  return load_input(path);
}

Result<Snapshot> load_host(const fs::path& path) {
  std::error_code ec;
  if (path.extension() == ".json" && fs::is_regular_file(path, ec)) return load_snapshot_json(path);
  Result<Snapshot> snap = load_input(path);
  if (!snap) return snap;
  if (snap->source.kind == SourceKind::snapshot || snap->source.kind == SourceKind::live || !snap->tool_runs.empty())
    return snap;
  for (const InputFile& in : snap->inputs)
    if (in.status == "parsed" || in.status == "parsed_with_warnings") return snap;
  std::string why = "no usable tool output in the capture";
  for (const InputFile& in : snap->inputs)
    if (!in.messages.empty()) {
      why += " (" + in.messages.front() + (snap->inputs.size() > 1 ? ", ..." : "") + ")";
      break;
    }
  return unexpected(ErrorKind::malformed_input, why, path.string());
}

}  // namespace rk::fleet
